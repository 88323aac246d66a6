//! uicx: the hnefatafl program's interfaces: the command interpreter and the X window.
//!
//! The binary is a thin wrapper around [`cli::run`]. The [`session::Session`] holds the
//! game and runs every command; the command line ([`cli`]) and the X window ([`x11`])
//! both drive it.

#![deny(missing_docs)]

pub mod args;
pub mod board;
pub mod cli;
pub mod data;
pub mod lang;
pub mod net;
pub mod session;
pub mod thinker;
pub mod x11;
