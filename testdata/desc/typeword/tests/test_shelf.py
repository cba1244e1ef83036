class ShippingCratesCase:
    def test_shipping_crates(self):
        pass

    def test_shipping_crates_again(self):
        pass
