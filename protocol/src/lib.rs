//! hnefatafl-protocol: the engine protocols of hnefatafl-rs, both sides of each.
//!
//! - [`engine`]: the side that answers. aim's engine speaks the OpenTafl Engine Protocol
//!   ([`engine::otep`], as OpenTafl runs external engines) and the Hnefatafl Text Protocol
//!   ([`engine::htp`], the GTP-like protocol of the hnefatafl-copenhagen engines) over any
//!   pair of streams; `hnefatafl --engine otep|htp` runs it on standard input and output.
//! - [`host`]: the side that drives. A program that speaks OTEP, HTP or
//!   hnefatafl-copenhagen's `--host` mode is started and given the game move by move, and
//!   every move it answers is checked against the rules; the match runner plays such
//!   programs against each other and against aim.
//!
//! The two sides share the protocols' words and only meet on the wire, so the tests of
//! this crate (`protocol/tests/`) run each side against the other and against fakes. The
//! sources of both protocols are cited in `docs/protocols.md`.

#![deny(missing_docs)]

pub mod engine;
pub mod host;
