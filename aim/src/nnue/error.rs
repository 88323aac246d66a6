//! What goes wrong with a network: the error of reading, checking or making one, with
//! the name of its file.

use super::layout::Layout;
use super::shape::{VERSION, WIDTHS};

/// A network that cannot be used, with the name of its file (or whatever named it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("network {name}: {problem}")]
pub struct NetworkError {
    /// The file's name, as the caller gave it.
    pub name: String,
    /// What is wrong.
    pub problem: NetworkProblem,
}

impl NetworkError {
    /// An error of the network `name`.
    pub fn new(name: &str, problem: NetworkProblem) -> NetworkError {
        NetworkError {
            name: name.to_string(),
            problem,
        }
    }
}

/// What is wrong with a network.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkProblem {
    /// The file does not start with the magic bytes.
    #[error("not a network file (it does not start with `HNEFNNUE`)")]
    NotANetwork,
    /// A format version this build does not read.
    #[error("format version {found}, but this program reads versions 1 to {VERSION}")]
    Version {
        /// The file's version.
        found: u16,
    },
    /// Fewer or more bytes than the header says.
    #[error("{found} bytes, but its header calls for {expected}: the file is cut short or damaged")]
    Length {
        /// Bytes the header calls for.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
    /// The checksum does not match the contents.
    #[error("the checksum does not match: the file is damaged")]
    Checksum,
    /// The header's fingerprint does not match its own layout.
    #[error("the header's layout fingerprint does not match its layout: the file is damaged")]
    Fingerprint,
    /// Layer sizes this build does not have.
    #[error(
        "{hidden} hidden units and {outputs} outputs, but this program's networks have {} or {} hidden units and 2 outputs", WIDTHS[0], WIDTHS[1]
    )]
    Shape {
        /// Hidden units in the file.
        hidden: u16,
        /// Outputs in the file.
        outputs: u16,
    },
    /// A list of weights of the wrong length.
    #[error("{found} {what}, but its layout needs {expected}")]
    WrongLength {
        /// Which list.
        what: &'static str,
        /// Its length for the layout.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A scale of zero.
    #[error("its scale of output to hundredths of a piece is 0")]
    ZeroScale,
    /// Made for another piece layout than the rule file's.
    #[error("it was made for {network}, but the rule file `{rules}` has {found}")]
    Mismatch {
        /// The network's layout, in words.
        network: String,
        /// The rule file's id.
        rules: String,
        /// The rule file's layout, in words.
        found: String,
    },
}

/// A layout in words: `a 7x7 board with 3 piece types (fingerprint 0123abcd...)`.
pub(super) fn describe(layout: &Layout) -> String {
    format!(
        "a {}x{} board with {} piece types (layout {:016x})",
        layout.width(),
        layout.height(),
        layout.piece_types(),
        layout.fingerprint()
    )
}
