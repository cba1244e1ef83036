package shop;

public class CostTest {
    /** Shipping cost of a parcel weight: the shipping cost grows with the parcel weight. */
    public void checkParcelShippingCostWeight() {
        assert Cost.shippingCost(2) < Cost.shippingCost(3);
    }
}
