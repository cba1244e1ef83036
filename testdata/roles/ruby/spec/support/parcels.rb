# A heavy parcel for the surcharge specs.
def heavy_parcel
  { weight: 20, country: "abroad" }
end
