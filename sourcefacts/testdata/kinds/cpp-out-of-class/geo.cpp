#include "geo.hpp"

int geo::Shape::area() {
    return helper();
}

geo::Shape::~Shape() {
    release();
}

bool geo::Shape::operator==(const Shape &o) const {
    return same(o);
}

geo::Shape::operator bool() const {
    return valid();
}

template <typename T>
void Box<T>::put(T v) {
    store(v);
}

namespace net {
void Conn::send() {
    write();
}
}

int main() {
    geo::Shape s;
    return s.area() + helper();
}

namespace outer {
int inner::Box::size() {
    return count();
}
}
