//! What a rule file says, read and validated, before it is compiled into tables: the
//! [`Description`], with the repetition rule it may hold.

use crate::{PieceRule, Player, SquareRule};

/// A repetition rule (`repetition`, `repetition_loser`): the `count`-th occurrence of the
/// same position (the pieces and the side to move) ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repetition {
    /// The occurrence that ends the game: 3 ends it when a position occurs the third time.
    pub count: u8,
    /// Who loses; `None`: the game is drawn.
    pub loser: Option<RepetitionLoser>,
}

/// Who loses a game ended by [`Repetition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionLoser {
    /// The player whose move made the position occur again (`repetition_loser mover`).
    Mover,
    /// This player, whoever moved (`repetition_loser 0` or `1`).
    Player(Player),
}

/// A rule file as read and validated, before it is compiled into tables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Description {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) ui_theme: Option<String>,
    pub(crate) width: u8,
    pub(crate) height: u8,
    pub(crate) forbid_repeat: bool,
    pub(crate) repetition: Option<Repetition>,
    /// Plies in a row without a capture that draw the game.
    pub(crate) draw_plies: Option<u16>,
    pub(crate) draw_no_win: bool,
    /// `jump_compulsory`.
    pub(crate) jump_compulsory: bool,
    /// The player who wins by enclosing every piece of the other.
    pub(crate) encircle: Option<Player>,
    /// The piece bit of each square at the start (0: empty).
    pub(crate) pieces: Vec<u8>,
    /// The square type bit of each square (0: off the board).
    pub(crate) squares: Vec<u8>,
    /// Declared piece types, by increasing bit.
    pub(crate) piece_rules: Vec<PieceRule>,
    /// Declared square types, by increasing bit.
    pub(crate) square_rules: Vec<SquareRule>,
}
