//! The contract between the command interpreter's session and the X window.
//!
//! The session (game, players, language, data lookup, computer thinking) implements
//! [`XHost`]; the window only draws what [`XHost::view`] gives and sends input back as
//! command lines, so every rule of the game stays in one place.

use crate::roles::Role;
use std::sync::Arc;
use std::time::Duration;

/// A piece that the last move captured: drawn faded and marked where it stood.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// The square it stood on (row-major index from the top-left).
    pub square: usize,
    /// Its piece type bit after `ui_bit`.
    pub piece: u8,
    /// Its owner, 0 or 1.
    pub owner: u8,
}

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
    /// The column names from the left, as algebraic moves write them (`a` ... `z`, `aa` ...).
    /// Empty: the window names them itself.
    pub column_labels: Vec<String>,
    /// The row names from the top, as algebraic moves write them. Empty: the window
    /// numbers them from 1 at the bottom.
    pub row_labels: Vec<String>,
    /// The last move, as (from, to) square indices.
    pub last_move: Option<(usize, usize)>,
    /// The pieces the last move captured.
    pub captured: Vec<Captured>,
    /// Every move of the game so far, in algebraic notation with its captures.
    pub moves: Vec<String>,
    /// The player to move, 0 or 1.
    pub side_to_move: u8,
    /// Each player's side, by the rules.
    pub roles: [Role; 2],
    /// Each player's label: the side's name and who plays it (already translated).
    pub sides: [String; 2],
    /// The same labels with the side's name alone, without the player's number, for a
    /// narrow window (empty: only the whole labels).
    pub sides_short: [String; 2],
    /// A status line: whose turn it is, who thinks, or who won and why (already translated).
    pub status: String,
    /// When the game is over: how to go on (already translated), shown with the status.
    pub game_over: Option<String>,
    /// While a computer thinks: the fraction (0..=1) of its budget used.
    pub thinking: Option<f32>,
    /// The best move the last analysis found for this position, as (from, to).
    pub best_move: Option<(usize, usize)>,
    /// The hint shown at the empty prompt (already translated), e.g. that `h` gives help.
    pub hint: String,
    /// The note at the foot of long output shown over the board while more of it follows
    /// (already translated): how to scroll on and how to close it. Empty: no note.
    pub more: String,
    /// Each player's time left, when the game has clocks (a timed network game).
    pub clocks: Option<[Duration; 2]>,
    /// Whether the clock of the side to move is running (counting down now).
    pub clock_running: bool,
    /// The analysis pane, drawn at the top of the move list: a heading and one line a
    /// move (already translated). Empty: no pane.
    pub analysis: Vec<String>,
    /// While a piece is held: each of its target squares found so far, with the mover's
    /// win chance (0..=1) after moving there; the squares are shaded by it.
    pub heat: Vec<(usize, f32)>,
    /// The review view: drawn in the move list's place.
    pub review: Option<ReviewGraph>,
}

/// How a reviewed move is marked on the graph.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReviewMark {
    /// No mark.
    #[default]
    None,
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

/// The review view's graph: the first player's win chance over the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewGraph {
    /// The first player's chance (0..=1) at each position, from the start.
    pub first: Vec<f32>,
    /// Each move's mark (move `i` leads from position `i` to `i + 1`).
    pub marks: Vec<ReviewMark>,
    /// The position the board shows.
    pub at: usize,
}

/// What the window does after a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Stay in the window.
    Continue,
    /// Stay in the window and draw with this theme from now on (`x <theme>` typed there).
    Theme(String),
    /// Close the window and go back to the command line (`x` typed in the window).
    LeaveX,
    /// Quit the program (`q`).
    Quit,
}

/// Called from another thread to wake the window's event loop (e.g. a computer moved).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The session as the window sees it.
pub trait XHost {
    /// The window title: the program and the rule file's `name`. Read again after every
    /// command, so that `r` and `e` retitle the window.
    fn title(&self) -> String;
    /// The board to draw now.
    fn view(&self) -> BoardView;
    /// The squares the piece on `from` may move to, when it is a human's turn and the piece
    /// belongs to the side to move; empty otherwise.
    fn targets(&self, from: usize) -> Vec<usize>;
    /// The same moves, each as every square it lands on in order: one square for an
    /// ordinary move, one a jump for a chain of jump captures. By default the targets.
    fn paths(&self, from: usize) -> Vec<Vec<usize>> {
        self.targets(from)
            .into_iter()
            .map(|target| vec![target])
            .collect()
    }
    /// Runs one command line typed into the X terminal, or made from a click (`m x1 y1 x2 y2`).
    /// Returns every line of its output and what the window does next.
    fn execute(&mut self, line: &str) -> (Vec<String>, Flow);
    /// Lets the computer play: starts its search when a computer is to move, and applies a
    /// finished search. Returns the lines to show when something happened. `wake` is called
    /// from the search thread when the window should poll again.
    fn poll(&mut self, wake: &Waker) -> Vec<String>;
    /// Reads a data file (e.g. `xlib/themes`, `xlib/wood/p001.xpm`) by the program's data
    /// lookup, the embedded data last. `None` when no place has it.
    fn read_data(&self, relative: &str) -> Option<Vec<u8>>;
    /// The theme the rule file suggests (`ui_theme`), if any.
    fn suggested_theme(&self) -> Option<String>;
    /// Whether the next line typed is a secret (the password after `login` or
    /// `register`): the window shows it masked and keeps it out of the history.
    fn wants_secret(&self) -> bool {
        false
    }
    /// A piece is held (selected or dragged) on this square, or put down (`None`): the
    /// host may work out the heat map in the background, calling `wake` as it finds it.
    fn hold(&mut self, _from: Option<usize>, _wake: &Waker) {}
    /// Escape with nothing typed: stops a live analysis and closes the review view.
    /// Returns whether there was anything to stop or close.
    fn interrupt(&mut self) -> bool {
        false
    }
    /// Shows another position of the review view: `by` moves on (back when negative),
    /// or, with `to`, that position.
    fn review_move(&mut self, _by: isize, _to: Option<usize>) {}
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
