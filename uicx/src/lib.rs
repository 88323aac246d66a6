//! uicx: the hnefatafl program's interfaces: the command interpreter and the X window.
//!
//! The binary is a thin wrapper around [`cli::run`] (and [`check::run`] for `--check`). The [`session::Session`] is the
//! interpreter: it holds the game and runs every command, and knows no front end. The
//! command line ([`cli`]) and the X window ([`window`], drawing with [`x11`]) drive it;
//! the seam between them is described in [`session`]. Messages are made in [`messages`],
//! files are read and written in [`files`].

#![deny(missing_docs)]

pub mod args;
pub mod board;
pub mod check;
pub mod cli;
pub mod data;
pub mod files;
pub mod lang;
pub mod messages;
pub mod net;
pub mod otg;
pub mod protocol;
pub mod session;
pub mod terminal;
pub mod thinker;
pub mod window;
pub mod x11;
