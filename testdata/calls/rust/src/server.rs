use crate::conn::Conn;

pub struct Server;

impl Server {
    pub fn serve(&self, c: &Conn) {
        c.send();
        self.accept();
    }

    fn accept(&self) {}

    pub fn dial() -> Conn {
        Conn::open()
    }
}
