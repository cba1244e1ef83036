pub mod conn;
pub mod mail;
pub mod server;
