import pytest


@pytest.fixture
def home_country():
    """The destination country of the surcharge checks."""
    return "home"
