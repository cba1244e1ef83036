"""A package with two modules that both define loads."""
