//! The X11 interface.
//!
//! [`run`] opens a window on the X server named by `$DISPLAY` and plays through an
//! [`XHost`]: it draws what [`XHost::view`] gives ([`render`]), turns clicks and the
//! one-line terminal at the bottom into command lines for [`XHost::execute`], and lets the
//! computer play through [`XHost::poll`]. Themes are read by [`theme`].

pub mod host;
pub mod keyboard;
pub mod render;
pub mod theme;
pub mod view;
mod window;

pub use crate::roles::Role;
pub use host::{BoardView, Captured, Flow, ReviewGraph, ReviewMark, Waker, XExit, XHost, XOptions};

/// An error of the X interface (FRX).
#[derive(Debug, thiserror::Error)]
pub enum XError {
    /// No connection to the X server could be made (no `$DISPLAY`, refused, no access).
    #[error("FRX: cannot open the X display: {0}")]
    Connect(String),
    /// The connection to the X server broke while the window was open.
    #[error("FRX: lost the X server: {0}")]
    Connection(String),
    /// The X server refused a request the window needs.
    #[error("FRX: the X server refused a request: {0}")]
    Request(String),
    /// The X server's screen cannot show the window (no true-colour visual).
    #[error("FRX: unsupported X screen: {0}")]
    Unsupported(String),
}

/// Opens the window and runs it until it closes, `x` or `q`.
///
/// A warning about the theme (an unknown theme, unreadable images) is printed to stderr and
/// shown in the window's terminal line; the window then draws with fallback graphics where
/// needed.
///
/// # Errors
///
/// [`XError`] when the X server cannot be reached or is lost; the host's game is untouched.
pub fn run(host: &mut dyn XHost, options: &XOptions) -> Result<XExit, XError> {
    window::run(host, options)
}
