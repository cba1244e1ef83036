"""Shapes: a small module for extraction tests."""
import os
import os.path as osp, sys
from collections import OrderedDict
from .util import (helper, Tool as T)
from .. import parent
from x import *

LIMIT = 10


# Shape is a base class.
class Shape(Base):
    """A shape."""

    sides = 0

    def area(self):
        """Area of the shape."""
        return helper(self.sides) + len(os.sep)

    @staticmethod
    def make(kind):
        def inner():
            return T()
        return inner()

    class Inner:
        def deep(self):
            pass


def main(argv):
    s = Shape()
    print(s.area(), osp.join("a", "b"))
