//! A validated rule file compiled into tables: [`Rules`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::Arc;

use crate::description::Description;
use crate::parse;
use crate::tables::{self, Tables};
use crate::{
    AlgebraicSquare, BitBoard, Direction, EndReason, Move, Notation, NotationError, Outcome,
    PieceRule, PieceType, Player, Position, Repetition, RepetitionLoser, RulesError, Square,
    SquareRule, SquareType, notation,
};

/// A validated rule file, compiled into tables. Cheap to clone (shared).
///
/// A `Rules` value that exists is valid. Two values are equal when they describe the
/// same rules (parsed from the same file, or from files that differ only in comments,
/// spacing or the order of lines). Comparing is cheap: a shared pointer or the
/// fingerprint decides at once in most cases.
///
/// ```
/// use hnefatafl_core::Rules;
/// let text = include_bytes!("../../data/rules/tablut");
/// let rules = Rules::parse(text)?;
/// assert_eq!((rules.width(), rules.height()), (9, 9));
/// assert_eq!(rules, Rules::parse(text)?);
/// assert_eq!(rules.fingerprint(), Rules::parse(text)?.fingerprint());
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rules {
    inner: Arc<RulesData>,
}

/// The shared contents of [`Rules`].
struct RulesData {
    description: Description,
    tables: Tables,
    fingerprint: u64,
}

impl fmt::Debug for RulesData {
    // The tables are large and derived from the description: leave them out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RulesData")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.inner.fingerprint == other.inner.fingerprint
                && self.inner.description == other.inner.description)
    }
}

impl Eq for Rules {}

impl Hash for Rules {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.inner.fingerprint.hash(state);
    }
}

impl Rules {
    /// Reads and validates a rule file's text.
    ///
    /// # Errors
    ///
    /// [`RulesError`] of kind RREAD when a line cannot be read (naming the line and the
    /// word), or RVALID when the rules break a requirement (naming the rule, the piece or
    /// square type, and the line it is written on).
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// assert_eq!(rules.id(), "tablut");
    /// assert!(Rules::parse(b"width 40").is_err());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn parse(text: &[u8]) -> Result<Rules, RulesError> {
        let description = parse::parse(text)?;
        let tables = tables::compile(&description);
        // A fingerprint of everything the rules are: equal descriptions hash alike.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        description.hash(&mut hasher);
        Ok(Rules {
            inner: Arc::new(RulesData {
                description,
                tables,
                fingerprint: hasher.finish(),
            }),
        })
    }

    /// The compiled tables.
    pub(crate) fn tables(&self) -> &Tables {
        &self.inner.tables
    }

    /// The piece bit of each square at the start, row-major.
    pub(crate) fn start_pieces(&self) -> &[u8] {
        &self.inner.description.pieces
    }

    /// A 64-bit fingerprint of the rules: equal rules have equal fingerprints, so it can
    /// key a cache of what is computed from the rules. It is not stable across program
    /// versions.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let a = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
    /// let b = Rules::parse(include_bytes!("../../data/rules/hnefatafl"))?;
    /// assert_ne!(a.fingerprint(), b.fingerprint());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn fingerprint(&self) -> u64 {
        self.inner.fingerprint
    }

    /// The rule file's `id`.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.id(), "tablut");
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn id(&self) -> &str {
        &self.inner.description.id
    }

    /// The rule file's `name`.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert!(!rules.name().is_empty());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.inner.description.name
    }

    /// The suggested X theme, if any.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// let _theme: Option<&str> = rules.ui_theme();
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn ui_theme(&self) -> Option<&str> {
        self.inner.description.ui_theme.as_deref()
    }

    /// Board width, 1..=31.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.width(), 9);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn width(&self) -> u8 {
        self.inner.description.width
    }

    /// Board height, 1..=31.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.height(), 9);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn height(&self) -> u8 {
        self.inner.description.height
    }

    /// `width * height`: the number of squares of the board rectangle.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.square_count(), 81);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_count(&self) -> usize {
        self.inner.tables.squares
    }

    /// The square at column `x`, row `y` (0-based from the top-left), if inside the board
    /// rectangle (it may still be a square that is not part of the board: see
    /// [`Rules::square_type`]).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert!(rules.square_at(8, 8).is_some());
    /// assert!(rules.square_at(9, 0).is_none());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_at(&self, x: u8, y: u8) -> Option<Square> {
        (x < self.width() && y < self.height()).then(|| Square(u16::from(x) | u16::from(y) << 5))
    }

    /// Whether the square lies inside the board rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// assert!(rules.contains(Square::new(8, 0).unwrap()));
    /// assert!(!rules.contains(Square::new(9, 0).unwrap()));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn contains(&self, square: Square) -> bool {
        square.x() < self.width() && square.y() < self.height()
    }

    /// The row-major index `y * width + x` of a square inside the board rectangle, for
    /// arrays with one entry per square.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// assert_eq!(rules.index(Square::new(2, 1).unwrap()), Some(11));
    /// assert_eq!(rules.index(Square::new(9, 1).unwrap()), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn index(&self, square: Square) -> Option<usize> {
        self.inner.tables.index_of(square)
    }

    /// The square with this row-major index, if inside the board rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// assert_eq!(rules.square_of_index(11), Square::new(2, 1));
    /// assert_eq!(rules.square_of_index(81), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_of_index(&self, index: usize) -> Option<Square> {
        (index < self.square_count()).then(|| self.inner.tables.square_of(index))
    }

    /// Every square of the board rectangle, in row-major order (index 0 first).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.squares().count(), 81);
    /// assert!(rules.squares().enumerate().all(|(i, s)| rules.index(s) == Some(i)));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn squares(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.inner.tables.coordinates[..self.inner.tables.squares]
            .iter()
            .copied()
    }

    /// The squares that are part of the board (not type 0), as a set of row-major
    /// indices.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.board_squares().len(), 81);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn board_squares(&self) -> BitBoard {
        BitBoard::from_words(self.inner.tables.on_board)
    }

    /// The squares of one type, as a set of row-major indices (empty for a type the
    /// rules do not declare).
    ///
    /// ```
    /// # use hnefatafl_core::SquareType;
    #[doc = doc_rules!()]
    /// let edge = rules.squares_of_type(SquareType::from_bit(2).unwrap());
    /// assert_eq!(edge.len(), 32);
    /// assert!(edge.contains(0) && edge.contains(80) && !edge.contains(10));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn squares_of_type(&self, square_type: SquareType) -> BitBoard {
        let tables = &self.inner.tables;
        tables.square_bits[..tables.squares]
            .iter()
            .enumerate()
            .filter(|&(_, &bit)| bit == square_type.bit())
            .map(|(index, _)| index)
            .collect()
    }

    /// The type of a square, or `None` for a square that is not part of the board (type
    /// 0) or lies outside the rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// assert!(rules.square_type(Square::new(0, 0).unwrap()).is_some());
    /// assert!(rules.square_type(Square::new(9, 0).unwrap()).is_none());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_type(&self, square: Square) -> Option<SquareType> {
        let index = self.index(square)?;
        SquareType::from_bit(self.inner.tables.square_bits[index])
    }

    /// The neighbour of a square in a direction, if inside the board rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::{Direction, Square};
    #[doc = doc_rules!()]
    /// let corner = Square::new(8, 0).unwrap();
    /// assert_eq!(rules.neighbour(corner, Direction::West), Square::new(7, 0));
    /// assert_eq!(rules.neighbour(corner, Direction::East), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn neighbour(&self, square: Square, direction: Direction) -> Option<Square> {
        square.step(direction).filter(|&next| self.contains(next))
    }

    /// The algebraic name of a square inside the board rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// let name = rules.algebraic(Square::new(0, 8).unwrap()).unwrap();
    /// assert_eq!(name.to_string(), "a1");
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn algebraic(&self, square: Square) -> Option<AlgebraicSquare> {
        if !self.contains(square) {
            return None;
        }
        AlgebraicSquare::new(square.x(), self.height() - square.y())
    }

    /// The square of an algebraic name, if inside the board rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// assert_eq!(rules.from_algebraic("i9".parse()?), Square::new(8, 0));
    /// assert_eq!(rules.from_algebraic("j1".parse()?), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_algebraic(&self, name: AlgebraicSquare) -> Option<Square> {
        let y = self.height().checked_sub(name.row())?;
        self.square_at(name.column(), y)
    }

    /// Whether `forbid_repeat` is set.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// let _forbidden: bool = rules.forbid_repeat();
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn forbid_repeat(&self) -> bool {
        self.inner.description.forbid_repeat
    }

    /// The repetition rule (`repetition`, `repetition_loser`), if any.
    ///
    /// ```
    /// use hnefatafl_core::{Player, RepetitionLoser, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/copenhagen"))?;
    /// let rule = rules.repetition().unwrap();
    /// assert_eq!(rule.count, 4);
    /// assert_eq!(rule.loser, Some(RepetitionLoser::Player(Player::One)));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn repetition(&self) -> Option<Repetition> {
        self.inner.description.repetition
    }

    /// The outcome when the last move, made by `mover`, completed the repetition of
    /// [`Rules::repetition`] (`None` when the rules have no such rule). For a search: a
    /// line that reaches the `count`-th occurrence of a position ends with this outcome.
    ///
    /// ```
    /// use hnefatafl_core::{EndReason, Player, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/copenhagen"))?;
    /// let outcome = rules.repetition_outcome(Player::Zero).unwrap();
    /// assert_eq!(outcome.winner, Some(Player::Zero));
    /// assert_eq!(outcome.reason, EndReason::Repetition);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn repetition_outcome(&self, mover: Player) -> Option<Outcome> {
        let rule = self.repetition()?;
        let winner = match rule.loser {
            None => None,
            Some(RepetitionLoser::Mover) => Some(mover.opponent()),
            Some(RepetitionLoser::Player(loser)) => Some(loser.opponent()),
        };
        Some(Outcome {
            winner,
            reason: EndReason::Repetition,
        })
    }

    /// `draw_plies`: the number of plies in a row without a capture that draws the game.
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/copenhagen"))?;
    /// assert_eq!(rules.draw_plies(), Some(200));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn draw_plies(&self) -> Option<u32> {
        self.inner.description.draw_plies.map(u32::from)
    }

    /// Whether `draw_no_win` is set: the game is drawn when neither player has the pieces
    /// to win (see [`EndReason::NoWin`]).
    ///
    /// ```
    /// use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/petteia"))?;
    /// assert!(rules.draw_no_win());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn draw_no_win(&self) -> bool {
        self.inner.description.draw_no_win
    }

    /// Whether `jump_compulsory` is set: a player who can make a jump capture must, and
    /// a jump capture goes on while its piece can jump again.
    ///
    /// ```
    /// # use hnefatafl_core::Rules;
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// assert!(rules.jump_compulsory());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn jump_compulsory(&self) -> bool {
        self.inner.description.jump_compulsory
    }

    /// `encircle`: the player who wins by enclosing every piece of the other.
    ///
    /// ```
    /// use hnefatafl_core::{Player, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/copenhagen"))?;
    /// assert_eq!(rules.encircle(), Some(Player::Zero));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn encircle(&self) -> Option<Player> {
        self.inner.description.encircle
    }

    /// The name of a piece type in messages (`piece x name`), if the file gives one.
    ///
    /// ```
    /// use hnefatafl_core::{PieceType, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/copenhagen"))?;
    /// assert_eq!(rules.piece_name(PieceType::from_bit(1).unwrap()), Some("king"));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn piece_name(&self, piece: PieceType) -> Option<&str> {
        self.piece_rule(piece)?.name()
    }

    /// The declared piece types, by increasing bit.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.piece_rules().len(), 3);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn piece_rules(&self) -> &[PieceRule] {
        &self.inner.description.piece_rules
    }

    /// The rules of a declared piece type.
    ///
    /// ```
    /// # use hnefatafl_core::PieceType;
    #[doc = doc_rules!()]
    /// assert!(rules.piece_rule(PieceType::from_bit(128).unwrap()).is_none());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn piece_rule(&self, piece: PieceType) -> Option<&PieceRule> {
        self.piece_rules().iter().find(|r| r.piece == piece)
    }

    /// The declared square types, by increasing bit.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert!(!rules.square_rules().is_empty());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_rules(&self) -> &[SquareRule] {
        &self.inner.description.square_rules
    }

    /// The rules of a declared square type.
    ///
    /// ```
    /// # use hnefatafl_core::SquareType;
    #[doc = doc_rules!()]
    /// assert!(rules.square_rule(SquareType::from_bit(1).unwrap()).is_some());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square_rule(&self, square: SquareType) -> Option<&SquareRule> {
        self.square_rules().iter().find(|r| r.square == square)
    }

    /// The owner of a declared piece type.
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Player};
    #[doc = doc_rules!()]
    /// assert_eq!(rules.owner(PieceType::from_bit(4).unwrap()), Some(Player::Zero));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn owner(&self, piece: PieceType) -> Option<Player> {
        self.piece_rule(piece).map(|r| r.owner)
    }

    /// Whether a piece of this type wins by standing on this square (`escape` on both).
    ///
    /// ```
    /// # use hnefatafl_core::PieceType;
    #[doc = doc_rules!()]
    /// let king = PieceType::from_bit(1).unwrap();
    /// let corner = rules.escape_squares().next().unwrap();
    /// assert!(rules.is_escape_square(king, corner));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn is_escape_square(&self, piece: PieceType, square: Square) -> bool {
        let tables = &self.inner.tables;
        self.index(square).is_some_and(|index| {
            piece.bit() & tables.escape_pieces != 0
                && tables.escape_squares.contains(&(index as u16))
        })
    }

    /// The escape squares of the board, by increasing row-major index.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert!(rules.escape_squares().count() > 0);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn escape_squares(&self) -> impl Iterator<Item = Square> + '_ {
        let tables = &self.inner.tables;
        tables
            .escape_squares
            .iter()
            .map(|&s| tables.square_of(usize::from(s)))
    }

    /// The start position.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.start_position().pieces().count(), 25);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn start_position(&self) -> Position {
        Position::start(self)
    }

    /// Parses a move in either notation: four numbers `x1 y1 x2 y2` (0-based, origin
    /// top-left) or two algebraic squares `f9 c9` (column letter from the left, row number
    /// from the bottom), which may be joined by `-` (`f9-c9`). A jump capture names every
    /// square it lands on after its origin: `x1 y1 x2 y2 x3 y3 ...` or `a1 a3 c3 ...`
    /// (see [`Move::through`]). These are the forms the interpreter's `m` command reads.
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the words are neither form or name a square off the board.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.parse_move(&["d9", "d7"])?, rules.parse_move(&["3", "0", "3", "2"])?);
    /// assert_eq!(rules.parse_move(&["d9-d7"])?, rules.parse_move(&["d9", "d7"])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_move(&self, words: &[&str]) -> Result<Move, NotationError> {
        notation::parse_move(self, words)
    }

    /// Reads a move from a line of text, in the forms of [`Rules::parse_move`]: `d9 d7`,
    /// `d9-d7`, `3 0 3 2`. Algebraic squares count their rows from the bottom of this
    /// board, so reading them needs the rules; `"3 0 3 2".parse::<Move>()` reads the
    /// numeric form without them. The same in two steps: parse a
    /// [`MoveText`](crate::MoveText), then place it with
    /// [`MoveText::on`](crate::MoveText::on).
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the text is neither form or names a square off the board.
    ///
    /// ```
    /// # use hnefatafl_core::{Move, Notation};
    #[doc = doc_rules!()]
    /// let mv = rules.read_move("d9-d7")?;
    /// assert_eq!(mv, "3 0 3 2".parse::<Move>()?);
    /// assert_eq!(rules.read_move(&rules.format_move(mv, Notation::Algebraic))?, mv);
    /// assert!(rules.read_move("d9-").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_move(&self, text: &str) -> Result<Move, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        notation::parse_move(self, &words)
    }

    /// Parses one square: `x y` as two words, or one algebraic word such as `c9`.
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the words are not a square of the board rectangle.
    ///
    /// ```
    /// # use hnefatafl_core::Square;
    #[doc = doc_rules!()]
    /// assert_eq!(rules.parse_square(&["c9"])?, Square::new(2, 0).unwrap());
    /// assert!(rules.parse_square(&["9", "0"]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_square(&self, words: &[&str]) -> Result<Square, NotationError> {
        notation::parse_square(self, words)
    }

    /// Writes a move in the chosen notation.
    ///
    /// ```
    /// # use hnefatafl_core::Notation;
    #[doc = doc_rules!()]
    /// let mv = "3 0 3 2".parse()?;
    /// assert_eq!(rules.format_move(mv, Notation::Algebraic), "d9 d7");
    /// assert_eq!(rules.format_move(mv, Notation::Numeric), "3 0 3 2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn format_move(&self, mv: Move, notation: Notation) -> String {
        let mut text = self.format_square(mv.from, notation);
        for square in mv.landings() {
            text.push(' ');
            text += &self.format_square(square, notation);
        }
        text
    }

    /// Writes a square in the chosen notation (`x y` or `a1`). A square outside the board
    /// rectangle, which has no algebraic name, is written `x y` in both notations.
    ///
    /// ```
    /// # use hnefatafl_core::{Notation, Square};
    #[doc = doc_rules!()]
    /// let square = Square::new(0, 8).unwrap();
    /// assert_eq!(rules.format_square(square, Notation::Algebraic), "a1");
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn format_square(&self, square: Square, notation: Notation) -> String {
        match (notation, self.algebraic(square)) {
            (Notation::Algebraic, Some(name)) => name.to_string(),
            _ => square.to_string(),
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads and validates a rule file's text, as [`Rules::parse`] does.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        Rules::parse(text.as_bytes())
    }
}
