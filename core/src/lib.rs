#![doc = include_str!("../README.md")]
//!
//! ## Layout
//!
//! The rules of a variant are read by [`Rules::parse`], validated, and compiled into
//! tables. A [`Position`] is played on with [`Rules::make_move`] and
//! [`Rules::unmake_move`]; a [`Game`] keeps the history with undo and redo, repetition and
//! the outcome ([`Outcome`]). Moves are read and written in two notations ([`Notation`]),
//! and whole games in the text format of [`save`].

#![deny(missing_docs)]

mod engine;
mod error;
mod game;
mod keywords;
mod notation;
pub mod otn;
mod parse;
mod position;
pub mod save;
mod tables;

use std::ops::ControlFlow;
use std::sync::Arc;

pub use error::{MoveError, NotationError, RulesError, RulesErrorKind, Subject};
pub use game::Game;
use parse::Description;
pub use position::{Position, Undo};
use tables::Tables;

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
        if bit.is_power_of_two() {
            Some(PieceType(bit))
        } else {
            None
        }
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
        if bit.is_power_of_two() {
            Some(SquareType(bit))
        } else {
            None
        }
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

/// A validated rule file, compiled into tables. Cheap to clone (shared).
///
/// A `Rules` value that exists is valid.
#[derive(Clone, Debug)]
pub struct Rules {
    inner: Arc<RulesData>,
}

/// The shared contents of [`Rules`].
struct RulesData {
    description: Description,
    tables: Tables,
    start: Position,
}

impl std::fmt::Debug for RulesData {
    // The tables are large and derived from the description: leave them out.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RulesData")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Rules {
    /// Reads and validates a rule file's text.
    ///
    /// # Errors
    ///
    /// [`RulesError`] of kind RREAD when a line cannot be read (naming the line and the
    /// word), or RVALID when the rules break a requirement (naming the rule).
    pub fn parse(text: &[u8]) -> Result<Rules, RulesError> {
        let description = parse::parse(text)?;
        let tables = tables::compile(&description);
        let start = Position::start(&tables, &description.pieces);
        Ok(Rules {
            inner: Arc::new(RulesData {
                description,
                tables,
                start,
            }),
        })
    }
    /// The rule file's `id`.
    pub fn id(&self) -> &str {
        &self.inner.description.id
    }
    /// The rule file's `name`.
    pub fn name(&self) -> &str {
        &self.inner.description.name
    }
    /// The suggested X theme, if any.
    pub fn ui_theme(&self) -> Option<&str> {
        self.inner.description.ui_theme.as_deref()
    }
    /// Board width, 1..=31.
    pub fn width(&self) -> u8 {
        self.inner.description.width
    }
    /// Board height, 1..=31.
    pub fn height(&self) -> u8 {
        self.inner.description.height
    }
    /// `width * height`.
    pub fn square_count(&self) -> usize {
        self.inner.tables.squares
    }
    /// The square at column `x`, row `y` (0-based from the top-left), if inside the board
    /// rectangle (it may still be an off-board square: see [`Rules::square_type`]).
    pub fn square_at(&self, x: u8, y: u8) -> Option<Square> {
        (x < self.width() && y < self.height())
            .then(|| Square(u16::from(y) * u16::from(self.width()) + u16::from(x)))
    }
    /// The column and row of a square. For a square past the board rectangle the row is
    /// at least [`Rules::height`] (255 at most): check with [`Rules::square_type`].
    pub fn coords(&self, square: Square) -> (u8, u8) {
        let width = self.inner.tables.width;
        (
            (square.index() % width) as u8,
            u8::try_from(square.index() / width).unwrap_or(u8::MAX),
        )
    }
    /// The type of a square, or `None` for a square that is not part of the board (0).
    pub fn square_type(&self, square: Square) -> Option<SquareType> {
        self.inner
            .tables
            .square_bits
            .get(square.index())
            .copied()
            .and_then(SquareType::from_bit)
    }
    /// Whether `forbid_repeat` is set.
    pub fn forbid_repeat(&self) -> bool {
        self.inner.description.forbid_repeat
    }
    /// The declared piece types, by increasing bit.
    pub fn piece_rules(&self) -> &[PieceRule] {
        &self.inner.description.piece_rules
    }
    /// The rules of a declared piece type.
    pub fn piece_rule(&self, piece: PieceType) -> Option<&PieceRule> {
        self.piece_rules().iter().find(|r| r.piece == piece)
    }
    /// The declared square types, by increasing bit.
    pub fn square_rules(&self) -> &[SquareRule] {
        &self.inner.description.square_rules
    }
    /// The rules of a declared square type.
    pub fn square_rule(&self, square: SquareType) -> Option<&SquareRule> {
        self.square_rules().iter().find(|r| r.square == square)
    }
    /// The owner of a declared piece type.
    pub fn owner(&self, piece: PieceType) -> Option<Player> {
        self.piece_rule(piece).map(|r| r.owner)
    }
    /// Whether a piece of this type wins by standing on this square (`escape` on both).
    pub fn is_escape_square(&self, piece: PieceType, square: Square) -> bool {
        let tables = &self.inner.tables;
        piece.bit() & tables.escape_pieces != 0 && tables.escape_squares.contains(&square.0)
    }
    /// The escape squares of the board, by increasing index.
    pub fn escape_squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.inner.tables.escape_squares.iter().map(|&s| Square(s))
    }
    /// The neighbour of a square along a row or column, if inside the board rectangle.
    /// Directions: 0 = +x (right), 1 = -x (left), 2 = +y (down), 3 = -y (up).
    pub fn neighbour(&self, square: Square, direction: usize) -> Option<Square> {
        let next = *self
            .inner
            .tables
            .neighbours
            .get(square.index())?
            .get(direction)?;
        (next != tables::NONE).then_some(Square(next))
    }
    /// The start position.
    pub fn start_position(&self) -> Position {
        self.inner.start.clone()
    }
    /// Calls `f` for every move the board rules allow the side to move (repetition is not
    /// considered: see [`Game`]). Allocates nothing.
    pub fn for_each_move(&self, position: &Position, mut f: impl FnMut(Move)) {
        let _ = engine::try_for_each_move(&self.inner.tables, position, |mv| {
            f(mv);
            ControlFlow::Continue(())
        });
    }
    /// Like [`Rules::for_each_move`], stopping when `f` breaks; returns whether it did.
    pub fn try_for_each_move(
        &self,
        position: &Position,
        f: impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        engine::try_for_each_move(&self.inner.tables, position, f)
    }
    /// The number of moves of [`Rules::for_each_move`], counted without listing them.
    pub fn count_moves(&self, position: &Position) -> u64 {
        engine::count_moves(&self.inner.tables, position)
    }
    /// Whether the side to move has a move by the board rules.
    pub fn has_move(&self, position: &Position) -> bool {
        engine::has_move(&self.inner.tables, position)
    }
    /// Appends the moves of [`Rules::for_each_move`] to `out`.
    pub fn generate_moves(&self, position: &Position, out: &mut Vec<Move>) {
        self.for_each_move(position, |mv| out.push(mv));
    }
    /// Whether the board rules allow this move (repetition not considered), and if not, why.
    ///
    /// # Errors
    ///
    /// The first rule the move breaks.
    pub fn check_move(&self, position: &Position, mv: Move) -> Result<(), MoveError> {
        engine::check_move(&self.inner.tables, position, mv)
    }
    /// Plays a move that the board rules allow, with its captures. Allocates nothing.
    /// The move must be allowed (see [`Rules::check_move`]); otherwise the result is
    /// unspecified but memory-safe (a move without a piece to move, or onto a taken square,
    /// changes nothing). The position must come from these rules.
    pub fn make_move(&self, position: &mut Position, mv: Move) -> Undo {
        engine::make_move(&self.inner.tables, position, mv)
    }
    /// Takes back a move made by [`Rules::make_move`].
    pub fn unmake_move(&self, position: &mut Position, undo: &Undo) {
        engine::unmake_move(&self.inner.tables, position, undo)
    }
    /// The end of the game by the board alone, in the manual's order: the side to move has
    /// no move (`has_move` is false), an escape, a lost `capt_loss` type. The caller says
    /// whether the side to move has a legal move, since repetition may rule some out.
    pub fn outcome(&self, position: &Position, has_move: bool) -> Option<Outcome> {
        engine::outcome(&self.inner.tables, position, has_move)
    }
    /// Parses a move in either notation: four numbers `x1 y1 x2 y2` (0-based, origin
    /// top-left) or two algebraic squares `f9 c9` (column letter from the left, row number
    /// from the bottom).
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the words are neither form or name a square off the board.
    pub fn parse_move(&self, words: &[&str]) -> Result<Move, NotationError> {
        notation::parse_move(self, words)
    }
    /// Parses one square: `x y` as two words, or one algebraic word such as `c9`.
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the words are not a square of the board rectangle.
    pub fn parse_square(&self, words: &[&str]) -> Result<Square, NotationError> {
        notation::parse_square(self, words)
    }
    /// Writes a move in the chosen notation.
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        let (from, to) = (
            self.format_square(mv.from, notation),
            self.format_square(mv.to, notation),
        );
        format!("{from} {to}")
    }
    /// Writes a square in the chosen notation (`x y` or `a1`). A square past the board
    /// rectangle, which has no algebraic name, is written `x y` in both notations.
    pub fn format_square(&self, square: Square, notation: Notation) -> String {
        notation::format_square(self, square, notation)
    }
}

/// How moves and squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `5 2 2 2`: 0-based x and y numbers, origin top-left.
    Numeric,
    /// `f9 c9`: column letters from the left, row numbers from the bottom (`a1` is the
    /// bottom-left square). Columns past `z` are named like spreadsheet columns: `aa`,
    /// `ab`, ... up to `ae` on a board 31 wide. Upper-case letters are read too.
    Algebraic,
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

/// Counts the move sequences of `depth` plies from a position (no move after the end).
///
/// Only the board rules count: repetition (`forbid_repeat`) is not considered.
pub fn perft(rules: &Rules, position: &Position, depth: u32) -> u64 {
    let mut position = position.clone();
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    engine::perft(&rules.inner.tables, &mut position, depth, &mut buffers)
}
