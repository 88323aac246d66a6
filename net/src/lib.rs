//! hnefatafl-net: the wire between `hnefataflserver` and its clients, and nothing else of
//! either end: the messages and their framing ([`protocol`]), game clocks ([`clock`]), the default port, TLS with
//! the client's certificate pinning ([`tls`]), a client's connection ([`client`]),
//! which the `hnefatafl` program, the server's tests and the load benchmark all use, and
//! which characters of text that others see are hidden ([`text`]).
//!
//! `docs/protocol.md` describes the protocol with an example session.

#![deny(missing_docs)]

pub mod client;
pub mod clock;
pub mod protocol;
pub mod text;
pub mod tls;

/// The port the server listens on, and clients connect to, unless told otherwise.
pub const DEFAULT_PORT: u16 = 8149;
