//! uicx: the hnefatafl program's interfaces: the command interpreter and the X window.

#![deny(missing_docs)]

pub mod x11;
