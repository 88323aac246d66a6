//! hnefatafl-core: rule files, the board engine and games.
//!
//! API CONTRACT SKELETON. The signatures below are what `aim` and `uicx` are written
//! against. Bodies are to be implemented; items may be added, but the signatures here stay.

#![deny(missing_docs)]
#![allow(dead_code, unused_variables)]

use std::sync::Arc;

/// One of the two players. Player 0 moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 0, who moves first.
    Zero,
    /// Player 1.
    One,
}

impl Player {
    /// Both players, in order.
    pub const BOTH: [Player; 2] = [Player::Zero, Player::One];
    /// 0 or 1.
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The player with index 0 or 1.
    pub const fn from_index(index: usize) -> Option<Player> {
        match index {
            0 => Some(Player::Zero),
            1 => Some(Player::One),
            _ => None,
        }
    }
    /// The other player.
    pub const fn opponent(self) -> Player {
        match self {
            Player::Zero => Player::One,
            Player::One => Player::Zero,
        }
    }
}

/// A piece type, named by its bit (1, 2, 4, ..., 128) as in rule files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceType(u8);

impl PieceType {
    /// The type with this bit, if `bit` is a single bit.
    pub const fn from_bit(bit: u8) -> Option<PieceType> {
        if bit.is_power_of_two() { Some(PieceType(bit)) } else { None }
    }
    /// The type's bit.
    pub const fn bit(self) -> u8 {
        self.0
    }
    /// 0..8: the bit's position.
    pub const fn index(self) -> usize {
        self.0.trailing_zeros() as usize
    }
}

/// A square type, named by its bit (1, 2, 4, ..., 128) as in rule files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareType(u8);

impl SquareType {
    /// The type with this bit, if `bit` is a single bit.
    pub const fn from_bit(bit: u8) -> Option<SquareType> {
        if bit.is_power_of_two() { Some(SquareType(bit)) } else { None }
    }
    /// The type's bit.
    pub const fn bit(self) -> u8 {
        self.0
    }
    /// 0..8: the bit's position.
    pub const fn index(self) -> usize {
        self.0.trailing_zeros() as usize
    }
}

/// A square of the board: its index `y * width + x`, row-major from the top-left as in
/// a rule file's `pieces`. Convert with [`Rules::square_at`] and [`Rules::coords`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square with this index. Its validity depends on the rules' board size.
    pub const fn from_index(index: usize) -> Square {
        Square(index as u16)
    }
    /// The row-major index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: a piece goes from one square to another along a row or a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

/// The rules of one piece type, as read from a rule file (read-only view).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PieceRule {
    /// The type.
    pub piece: PieceType,
    /// Its owner.
    pub owner: Player,
    /// Bitmask of enemy piece types it can capture.
    pub captures: u8,
    /// Sides (1..=4) on which it must be enclosed to be captured.
    pub capture_sides: u8,
    /// Must be enclosed on two opposite sides, one of them by the mover.
    pub custodial: bool,
    /// Can be captured against the edge.
    pub capture_edge: bool,
    /// Its owner loses when all of this type are gone.
    pub capture_loss: bool,
    /// Wins by reaching an escape square.
    pub escape: bool,
    /// Square types it may stand on.
    pub occupies: u8,
    /// Square types it may not come back to once it has left them.
    pub noreturn: u8,
    /// Can trigger a double trap.
    pub double_trap: bool,
    /// Is captured by a double trap.
    pub double_trap_capture: bool,
    /// A double trap of two such pieces is not triggered.
    pub double_trap_complement: bool,
    /// `capt_edge` used in a double trap instead of `capture_edge`.
    pub double_trap_edge: bool,
    /// Must be fully enclosed to trigger a double trap.
    pub double_trap_enclosed: bool,
    /// Square types it must stand on for the double trap rule to apply.
    pub double_trap_squares: u8,
    /// Draw like this type (interfaces), if set.
    pub ui_bit: Option<PieceType>,
}

/// The rules of one square type, as read from a rule file (read-only view).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SquareRule {
    /// The type.
    pub square: SquareType,
    /// Piece types this square captures when empty.
    pub captures: u8,
    /// Replaces `capture_sides` of the pieces in `capture_sides_pieces` standing here (0: none).
    pub capture_sides: u8,
    /// The piece types affected by `capture_sides`.
    pub capture_sides_pieces: u8,
    /// Escape pieces win by reaching it.
    pub escape: bool,
    /// Draw like this type (interfaces), if set.
    pub ui_bit: Option<SquareType>,
}

/// Why a rule file was refused: RREAD (it cannot be read) or RVALID (the rules are invalid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Placeholder variant: to be replaced.
    Todo,
}

/// A validated rule file, compiled into tables. Cheap to clone (shared).
///
/// A `Rules` value that exists is valid.
#[derive(Clone, Debug)]
pub struct Rules {
    inner: Arc<()>,
}

impl Rules {
    /// Reads and validates a rule file's text.
    pub fn parse(text: &[u8]) -> Result<Rules, RulesError> {
        todo!()
    }
    /// The rule file's `id`.
    pub fn id(&self) -> &str {
        todo!()
    }
    /// The rule file's `name`.
    pub fn name(&self) -> &str {
        todo!()
    }
    /// The suggested X theme, if any.
    pub fn ui_theme(&self) -> Option<&str> {
        todo!()
    }
    /// Board width, 1..=31.
    pub fn width(&self) -> u8 {
        todo!()
    }
    /// Board height, 1..=31.
    pub fn height(&self) -> u8 {
        todo!()
    }
    /// `width * height`.
    pub fn square_count(&self) -> usize {
        todo!()
    }
    /// The square at column `x`, row `y` (0-based from the top-left), if inside the board
    /// rectangle (it may still be an off-board square: see [`Rules::square_type`]).
    pub fn square_at(&self, x: u8, y: u8) -> Option<Square> {
        todo!()
    }
    /// The column and row of a square.
    pub fn coords(&self, square: Square) -> (u8, u8) {
        todo!()
    }
    /// The type of a square, or `None` for a square that is not part of the board (0).
    pub fn square_type(&self, square: Square) -> Option<SquareType> {
        todo!()
    }
    /// Whether `forbid_repeat` is set.
    pub fn forbid_repeat(&self) -> bool {
        todo!()
    }
    /// The declared piece types, by increasing bit.
    pub fn piece_rules(&self) -> &[PieceRule] {
        todo!()
    }
    /// The rules of a declared piece type.
    pub fn piece_rule(&self, piece: PieceType) -> Option<&PieceRule> {
        todo!()
    }
    /// The declared square types, by increasing bit.
    pub fn square_rules(&self) -> &[SquareRule] {
        todo!()
    }
    /// The rules of a declared square type.
    pub fn square_rule(&self, square: SquareType) -> Option<&SquareRule> {
        todo!()
    }
    /// The start position.
    pub fn start_position(&self) -> Position {
        todo!()
    }
    /// Calls `f` for every move the board rules allow the side to move (repetition is not
    /// considered: see [`Game`]). Allocates nothing.
    pub fn for_each_move(&self, position: &Position, f: impl FnMut(Move)) {
        todo!()
    }
    /// Appends the moves of [`Rules::for_each_move`] to `out`.
    pub fn generate_moves(&self, position: &Position, out: &mut Vec<Move>) {
        todo!()
    }
    /// Whether the board rules allow this move (repetition not considered), and if not, why.
    pub fn check_move(&self, position: &Position, mv: Move) -> Result<(), MoveError> {
        todo!()
    }
    /// Plays a move that the board rules allow, with its captures. Allocates nothing.
    /// The move must be allowed (see [`Rules::check_move`]); otherwise the result is
    /// unspecified but memory-safe.
    pub fn make_move(&self, position: &mut Position, mv: Move) -> Undo {
        todo!()
    }
    /// Takes back a move made by [`Rules::make_move`].
    pub fn unmake_move(&self, position: &mut Position, undo: &Undo) {
        todo!()
    }
    /// The end of the game by the board alone, in the manual's order: the side to move has
    /// no move (`has_move` is false), an escape, a lost `capt_loss` type. The caller says
    /// whether the side to move has a legal move, since repetition may rule some out.
    pub fn outcome(&self, position: &Position, has_move: bool) -> Option<Outcome> {
        todo!()
    }
    /// Parses a move in either notation: four numbers `x1 y1 x2 y2` (0-based, origin
    /// top-left) or two algebraic squares `f9 c9` (column letter from the left, row number
    /// from the bottom).
    pub fn parse_move(&self, words: &[&str]) -> Result<Move, NotationError> {
        todo!()
    }
    /// Writes a move in the chosen notation.
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        todo!()
    }
    /// Writes a square in the chosen notation (`x y` or `a1`).
    pub fn format_square(&self, square: Square, notation: Notation) -> String {
        todo!()
    }
}

/// How moves and squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `5 2 2 2`: 0-based x and y numbers, origin top-left.
    Numeric,
    /// `f9 c9`: column letters from the left, row numbers from the bottom.
    Algebraic,
}

/// A move that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Placeholder.
    Todo,
}

/// Why a move is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Placeholder.
    Todo,
}

/// What a move changed, to take it back. Fixed size: no allocation.
#[derive(Clone, Debug)]
pub struct Undo {
    _private: (),
}

impl Undo {
    /// The move.
    pub fn mv(&self) -> Move {
        todo!()
    }
    /// The captured pieces and where they stood.
    pub fn captures(&self) -> impl Iterator<Item = (Square, PieceType)> + '_ {
        std::iter::empty()
    }
}

/// A position: the pieces and the side to move, with its Zobrist key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    _private: (),
}

impl Position {
    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        todo!()
    }
    /// The piece on a square.
    pub fn piece_at(&self, square: Square) -> Option<PieceType> {
        todo!()
    }
    /// The Zobrist key of the pieces and the side to move.
    pub fn hash(&self) -> u64 {
        todo!()
    }
    /// How many pieces of a type are on the board.
    pub fn count(&self, piece: PieceType) -> u32 {
        todo!()
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won.
    pub winner: Player,
    /// Why.
    pub reason: EndReason,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The loser had no legal move on his turn.
    NoMoves,
    /// A piece of this type reached an escape square.
    Escape(PieceType),
    /// The loser lost every piece of this `capt_loss` type.
    CaptureLoss(PieceType),
}

/// A game: rules, position, history with undo and redo, and the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    _private: (),
}

impl Game {
    /// A new game from the rules' start position.
    pub fn new(rules: Rules) -> Game {
        todo!()
    }
    /// The rules.
    pub fn rules(&self) -> &Rules {
        todo!()
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        todo!()
    }
    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        todo!()
    }
    /// The moves played, oldest first.
    pub fn moves(&self) -> Vec<Move> {
        todo!()
    }
    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        todo!()
    }
    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    /// Every legal move, repetition included; empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        todo!()
    }
    /// Whether the position with this key has occurred in this game (for `forbid_repeat`).
    pub fn has_occurred(&self, hash: u64) -> bool {
        todo!()
    }
    /// The keys of every position of the game so far, the current one last.
    pub fn position_hashes(&self) -> &[u64] {
        todo!()
    }
    /// Plays a legal move. On error the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<&Undo, MoveError> {
        todo!()
    }
    /// Takes back the last move; it can be replayed with [`Game::redo`].
    pub fn undo(&mut self) -> Option<Move> {
        todo!()
    }
    /// Replays the last move taken back.
    pub fn redo(&mut self) -> Option<Move> {
        todo!()
    }
}

/// Counts the move sequences of `depth` plies from a position (no move after the end).
pub fn perft(rules: &Rules, position: &Position, depth: u32) -> u64 {
    todo!()
}

/// Saved games: the text format of SPEC 6.5 (pure: text in, values out).
pub mod save {
    use super::{Game, Move, Player, Rules};

    /// A saved game as read from text, before it is replayed.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct SavedGame {
        /// The `id` of the rule file.
        pub rules_id: String,
        /// The file name the rules were loaded from.
        pub rules_file: String,
        /// Each player's setting, as opaque words for the interface (e.g. `["human"]`,
        /// `["computer", "d4", "t10"]`); index 0 is player 0.
        pub players: [Vec<String>; 2],
        /// Every move made, oldest first.
        pub moves: Vec<Move>,
    }

    /// Why a saved game was refused.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum SaveError {
        /// Placeholder.
        Todo,
    }

    impl SavedGame {
        /// Reads a saved game's text. Moves are checked only by [`SavedGame::replay`].
        pub fn parse(text: &[u8]) -> Result<SavedGame, SaveError> {
            todo!()
        }
        /// Writes the text form; [`SavedGame::parse`] reads it back.
        pub fn to_text(&self, rules: &Rules) -> String {
            todo!()
        }
        /// Records a game.
        pub fn from_game(game: &Game, rules_file: &str, players: [Vec<String>; 2]) -> SavedGame {
            todo!()
        }
        /// Replays the moves on these rules. Fails if the rules' id differs or a move is
        /// illegal, naming the move.
        pub fn replay(&self, rules: &Rules) -> Result<Game, SaveError> {
            todo!()
        }
    }

    #[allow(unused_imports)]
    use Player as _;
}
