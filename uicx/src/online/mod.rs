//! Play on a server, the client's side: [`remote`] connects to a server (starting a
//! private `hnefataflserver` for `localhost`) and follows the game played there.
//!
//! The wire (messages, framing, TLS pinning, the connection) is the `hnefatafl_net`
//! crate's, shared with the server; [`protocol`] names its messages here.
//! `docs/protocol.md` describes the protocol with an example session.

pub use hnefatafl_net::protocol;

pub mod remote;
pub(crate) mod table;
