pub struct Conn;

impl Conn {
    pub fn open() -> Conn {
        Conn
    }

    pub fn send(&self) {}
}
