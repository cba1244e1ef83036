import pytest


@pytest.fixture
def parcel_weight():
    """A parcel weight for the shipping cost checks: parcel weight, shipping cost."""
    return 2
