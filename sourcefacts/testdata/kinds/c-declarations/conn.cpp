class Conn;

class Conn {
public:
    void open();
};

void Conn::open() {
    dial();
}
