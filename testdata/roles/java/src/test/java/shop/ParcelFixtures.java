package shop;

public class ParcelFixtures {
    /** The shipping cost of a parcel weight: shipping cost of each parcel by weight. */
    public static int parcelWeightShippingCost() {
        return Cost.shippingCost(2);
    }
}
