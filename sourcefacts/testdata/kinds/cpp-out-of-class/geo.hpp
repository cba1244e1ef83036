namespace geo {
class Shape {
public:
    int area();
    ~Shape();
    bool operator==(const Shape &o) const;
    operator bool() const;
};
}
