public class Quote {
    /** Print the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight. */
    public static void printParcelShippingCost(int weight) {
        System.out.println(shop.Cost.shippingCost(weight));
    }
}
