//! The X11 interface.

pub mod host;

pub use host::{BoardView, Flow, Waker, XExit, XHost, XOptions};

/// An error of the X interface (FRX).
#[derive(Debug, thiserror::Error)]
pub enum XError {
    /// Placeholder.
    #[error("X error")]
    Todo,
}

/// Opens the window and runs it until it closes, `x` or `q`.
pub fn run(host: &mut dyn XHost, options: &XOptions) -> Result<XExit, XError> {
    let _ = (host, options);
    Err(XError::Todo)
}
