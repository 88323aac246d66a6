//! The contract between the command interpreter's session and the X window.
//!
//! The session (game, players, language, data lookup, computer thinking) implements
//! [`XHost`]; the window only draws what [`XHost::view`] gives and sends input back as
//! command lines, so every rule of the game stays in one place.

use std::sync::Arc;

/// What the window draws: a snapshot of the game, already mapped for display.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardView {
    /// Board width in squares.
    pub width: u8,
    /// Board height in squares.
    pub height: u8,
    /// Square type bit of each square, row-major from the top-left, after `ui_bit`
    /// (0: not part of the board).
    pub squares: Vec<u8>,
    /// Piece type bit on each square after `ui_bit` (0: empty).
    pub pieces: Vec<u8>,
    /// Owner (0 or 1) of the piece on each square; meaningless where `pieces` is 0.
    pub owners: Vec<u8>,
    /// The last move, as (from, to) square indices.
    pub last_move: Option<(usize, usize)>,
    /// The player to move, 0 or 1.
    pub side_to_move: u8,
    /// A status line: whose turn it is, or who won and why (already translated).
    pub status: String,
    /// While a computer thinks: the fraction (0..=1) of its budget used.
    pub thinking: Option<f32>,
}

/// What the window does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Stay in the window.
    Continue,
    /// Close the window and go back to the command line (`x` typed in the window).
    LeaveX,
    /// Quit the program (`q`).
    Quit,
}

/// Called from another thread to wake the window's event loop (e.g. a computer moved).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The session as the window sees it.
pub trait XHost {
    /// The window title: the program and the rule file's `name`.
    fn title(&self) -> String;
    /// The board to draw now.
    fn view(&self) -> BoardView;
    /// The squares the piece on `from` may move to, when it is a human's turn and the piece
    /// belongs to the side to move; empty otherwise.
    fn targets(&self, from: usize) -> Vec<usize>;
    /// Runs one command line typed into the X terminal, or made from a click (`m x1 y1 x2 y2`).
    /// Returns the one line of output to show and what the window does next.
    fn execute(&mut self, line: &str) -> (String, Flow);
    /// Lets the computer play: starts its search when a computer is to move, and applies a
    /// finished search. Returns a line to show when something happened. `wake` is called
    /// from the search thread when the window should poll again.
    fn poll(&mut self, wake: &Waker) -> Option<String>;
    /// Reads a data file (e.g. `xlib/themes`, `xlib/wood/p001.xpm`) by the program's data
    /// lookup, the embedded data last. `None` when no place has it.
    fn read_data(&self, relative: &str) -> Option<Vec<u8>>;
    /// The theme the rule file suggests (`ui_theme`), if any.
    fn suggested_theme(&self) -> Option<String>;
}

/// How the window is started.
#[derive(Clone, Debug, Default)]
pub struct XOptions {
    /// The theme asked for (`x <theme>` or `-x <theme>`).
    pub theme: Option<String>,
    /// `-s`: draw text as Latin-1.
    pub latin1: bool,
}

/// Why the window closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XExit {
    /// The user closed the window.
    Closed,
    /// `x` was typed: back to the command line.
    LeaveX,
    /// `q` was typed.
    Quit,
}
