//! Play over the network: the protocol shared by `hnefataflserver` and its clients, the
//! server with its storage, TLS, and the client's connection.
//!
//! `docs/protocol.md` describes the protocol with an example session.

pub mod client;
pub mod password;
pub mod protocol;
pub mod remote;
pub mod server;
pub mod storage;
pub mod tls;
