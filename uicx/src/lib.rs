//! uicx: the hnefatafl program's interfaces: the command interpreter and the X window.
//!
//! The binary is a thin wrapper around [`cli::run`] (and [`check::run`] for `--check`). The [`session::Session`] is the
//! interpreter: it holds the game and runs every command, and knows no front end. The
//! command line ([`cli`]) and the X window (`window_host`, drawing with [`x11`]) drive it;
//! the seam between them is described in [`session`]. Messages are made in `messages`,
//! files are read and written through [`hnefatafl_data::files`].

#![deny(missing_docs)]

// Public only what the binary (`cli`, `check`), the benchmarks (`x11`) and the fuzz
// targets (`session`, `x11`) use; the rest is the crate's own.

pub(crate) mod args;
pub(crate) mod board;
pub mod check;
pub mod cli;
#[cfg(test)]
mod fixtures;
pub(crate) mod lang;
pub(crate) mod messages;
pub(crate) mod online;
pub(crate) mod otg;
pub(crate) mod protocol;
pub(crate) mod roles;
pub mod session;
pub(crate) mod shown;
pub(crate) mod terminal;
pub(crate) mod thinker;
pub(crate) mod window_host;
pub mod x11;

// The shipped data, its lookup and the safe opening of files are the `hnefatafl_data`
// crate's (the server reads the shipped rules through it too); the interpreter names them
// `crate::data` and `crate::files`.
pub(crate) use hnefatafl_data as data;
pub(crate) use hnefatafl_data::files;
