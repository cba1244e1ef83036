/// A Mail's send is not a Conn's.
pub struct Mail;

impl Mail {
    pub fn send(&self) {}
}

pub fn post(m: &Mail) {
    m.send();
}
