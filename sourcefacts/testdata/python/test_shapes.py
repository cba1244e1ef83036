from shapes import Shape


def test_area():
    assert Shape().area() == 0
