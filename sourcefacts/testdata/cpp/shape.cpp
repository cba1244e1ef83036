#include <vector>
#include "shape.hpp"

namespace geo {

// Shape is abstract.
class Shape {
public:
    virtual double area() const = 0;
    int sides() const { return count(); }
};

struct Square : public Shape {
    double area() const override;
};

double Square::area() const {
    return std::max(1.0, helper(2));
}

template <typename T>
T twice(T x) {
    return x + x;
}

}  // namespace geo

int main() {
    geo::Square s;
    auto v = std::make_unique<int>(1);
    return s.area() > twice<int>(1);
}
