package shop;

public class Cost {
    /** Compute the shipping cost of a parcel from its weight in kilograms. */
    public static int shippingCost(int weight) {
        return 4 + 2 * weight;
    }

    /** Return the customs surcharge for a destination country. */
    public static int surcharge(String country) {
        return country.equals("home") ? 0 : 3;
    }
}
