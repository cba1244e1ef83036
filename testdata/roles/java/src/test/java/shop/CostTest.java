package shop;

public class CostTest {
    /** Checks that the shipping cost grows with the parcel weight: shipping cost of a parcel weight. */
    public void checkParcelShippingCostWeight() {
        assert Cost.shippingCost(2) < Cost.shippingCost(3);
    }
}
