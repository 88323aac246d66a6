#![doc = include_str!("../README.md")]
//!
//! ## Layout
//!
//! The rules of a variant are read by [`Rules::parse`], validated, and compiled into
//! tables. A [`Position`] belongs to its rules and is played on with [`Position::play`],
//! [`Position::try_play`] and [`Position::play_unchecked`]; a [`Game`] keeps the history
//! with undo and redo, repetition and the outcome ([`Outcome`]). Moves are read and written in two notations ([`Notation`]),
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
pub mod random;
pub mod save;
mod square;
mod tables;
mod types;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::Arc;

pub use error::{
    BitError, MoveError, NotationError, ParseError, RulesError, RulesErrorKind, SetupError,
    SetupProblem, Subject,
};
pub use game::{Game, LegalMoves};
use parse::Description;
pub use parse::{Repetition, RepetitionLoser};
pub use position::{Moves, Position, Setup, Undo};
pub use square::{
    AlgebraicSquare, Direction, Jumps, JumpsTooLong, MAX_SIDE, Move, Square, column_name,
};
use tables::Tables;
pub use types::{PieceType, PieceTypes, SquareType, SquareTypes};

/// One of the two players. Player 0 moves first. Written `0` or `1`.
///
/// The set is complete by definition, so the enum is not `#[non_exhaustive]`.
///
/// ```
/// use hnefatafl_core::Player;
/// assert_eq!(Player::Zero.opponent(), Player::One);
/// assert_eq!(Player::One.to_string(), "1");
/// assert_eq!("0".parse::<Player>(), Ok(Player::Zero));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Player {
    /// Player 0, who moves first.
    #[default]
    Zero,
    /// Player 1.
    One,
}

impl Player {
    /// Both players, in order.
    ///
    /// ```
    /// use hnefatafl_core::Player;
    /// assert_eq!(Player::BOTH.map(Player::index), [0, 1]);
    /// ```
    pub const BOTH: [Player; 2] = [Player::Zero, Player::One];

    /// 0 or 1.
    ///
    /// ```
    /// use hnefatafl_core::Player;
    /// assert_eq!(Player::One.index(), 1);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with index 0 or 1.
    ///
    /// ```
    /// use hnefatafl_core::Player;
    /// assert_eq!(Player::from_index(1), Some(Player::One));
    /// assert_eq!(Player::from_index(2), None);
    /// ```
    pub const fn from_index(index: usize) -> Option<Player> {
        match index {
            0 => Some(Player::Zero),
            1 => Some(Player::One),
            _ => None,
        }
    }

    /// The other player.
    ///
    /// ```
    /// use hnefatafl_core::Player;
    /// assert_eq!(Player::One.opponent(), Player::Zero);
    /// ```
    pub const fn opponent(self) -> Player {
        match self {
            Player::Zero => Player::One,
            Player::One => Player::Zero,
        }
    }
}

impl fmt::Display for Player {
    /// `0` or `1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index())
    }
}

impl FromStr for Player {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Player, ParseError> {
        match text.trim() {
            "0" => Ok(Player::Zero),
            "1" => Ok(Player::One),
            _ => Err(ParseError {
                text: text.to_owned(),
                expected: "a player (0 or 1)",
            }),
        }
    }
}

/// Shortens the examples: the rules of the tablut file shipped with the program.
macro_rules! doc_rules {
    () => {
        "# let rules = hnefatafl_core::Rules::parse(include_bytes!(\"../../data/rules/tablut\"))?;"
    };
}

/// The rules of one piece type, as read from a rule file (read-only view).
///
/// ```
/// use hnefatafl_core::{PieceType, Player, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let king = rules.piece_rule(PieceType::from_bit(1).unwrap()).unwrap();
/// assert_eq!(king.owner(), Player::One);
/// assert!(king.escape());
/// assert!(king.occupies().len() >= 1);
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceRule {
    pub(crate) piece: PieceType,
    pub(crate) owner: Player,
    pub(crate) captures: u8,
    pub(crate) capture_sides: u8,
    pub(crate) custodial: bool,
    pub(crate) capture_edge: bool,
    pub(crate) capture_edge_alone: bool,
    pub(crate) capture_loss: bool,
    pub(crate) escape: bool,
    pub(crate) occupies: u8,
    pub(crate) noreturn: u8,
    pub(crate) double_trap: bool,
    pub(crate) double_trap_capture: bool,
    pub(crate) double_trap_complement: bool,
    pub(crate) double_trap_edge: bool,
    pub(crate) double_trap_enclosed: bool,
    pub(crate) double_trap_squares: u8,
    pub(crate) ui_bit: Option<PieceType>,
    pub(crate) pass: u8,
    pub(crate) shieldwall: bool,
    pub(crate) exit_fort: bool,
    pub(crate) name: Option<String>,
    pub(crate) steps: u8,
    pub(crate) directions: u8,
    pub(crate) jump: u8,
    pub(crate) escape_on: u8,
    pub(crate) lose_on: u8,
}

impl PieceRule {
    /// The type (`piece bit`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.piece().bit(), 1);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn piece(&self) -> PieceType {
        self.piece
    }
    /// Its owner (`owner`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.owner(), hnefatafl_core::Player::One);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn owner(&self) -> Player {
        self.owner
    }
    /// The enemy piece types it can capture (`captures`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.captures().bits(), 4);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn captures(&self) -> PieceTypes {
        PieceTypes(self.captures)
    }
    /// Sides (1..=4) on which it must be enclosed to be captured (`capt_sides`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.capture_sides(), 2);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn capture_sides(&self) -> u8 {
        self.capture_sides
    }
    /// Must be enclosed on two opposite sides, one of them by the mover (`custodial`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(king.custodial());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn custodial(&self) -> bool {
        self.custodial
    }
    /// Can be captured against the edge (`capt_edge`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.capture_edge());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn capture_edge(&self) -> bool {
        self.capture_edge
    }
    /// Its owner loses when all of this type are gone (`capt_loss`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(king.capture_loss());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn capture_loss(&self) -> bool {
        self.capture_loss
    }
    /// Wins by reaching an escape square (`escape`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(king.escape());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn escape(&self) -> bool {
        self.escape
    }
    /// The square types it may stand on (`occupies`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.occupies().bits(), 15);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn occupies(&self) -> SquareTypes {
        SquareTypes(self.occupies)
    }
    /// The square types it may not come back to once it has left them (`noreturn`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.noreturn().bits(), 4);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn noreturn(&self) -> SquareTypes {
        SquareTypes(self.noreturn)
    }
    /// Can trigger a double trap (`dbl_trap`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.double_trap());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn double_trap(&self) -> bool {
        self.double_trap
    }
    /// Is captured by a double trap (`dbl_trap_capt`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.double_trap_capture());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn double_trap_capture(&self) -> bool {
        self.double_trap_capture
    }
    /// A double trap of two such pieces is not triggered (`dbl_trap_compl`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.double_trap_complement());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn double_trap_complement(&self) -> bool {
        self.double_trap_complement
    }
    /// `capt_edge` used in a double trap instead of `capture_edge` (`dbl_trap_edge`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.double_trap_edge());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn double_trap_edge(&self) -> bool {
        self.double_trap_edge
    }
    /// Must be fully enclosed to trigger a double trap (`dbl_trap_encl`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.double_trap_enclosed());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn double_trap_enclosed(&self) -> bool {
        self.double_trap_enclosed
    }
    /// The square types it must stand on for the double trap rule to apply
    /// (`dbl_trap_squares`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(king.double_trap_squares().is_empty());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn double_trap_squares(&self) -> SquareTypes {
        SquareTypes(self.double_trap_squares)
    }
    /// Draw like this type (interfaces), if set (`ui_bit`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.ui_bit(), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn ui_bit(&self) -> Option<PieceType> {
        self.ui_bit
    }
    /// Can be captured against the edge while it is its owner's last piece
    /// (`capt_edge_alone`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.capture_edge_alone());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn capture_edge_alone(&self) -> bool {
        self.capture_edge_alone
    }
    /// The square types it may pass over while empty but not stop on, unless they are in
    /// [`PieceRule::occupies`] too (`pass`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(king.pass().is_empty());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn pass(&self) -> SquareTypes {
        SquareTypes(self.pass)
    }
    /// Can be captured in a shieldwall, a row along the edge (`shieldwall`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.shieldwall());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn shieldwall(&self) -> bool {
        self.shieldwall
    }
    /// Its owner wins by an exit fort of a piece of this type (`exit_fort`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert!(!king.exit_fort());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn exit_fort(&self) -> bool {
        self.exit_fort
    }
    /// Its name in messages, such as `king`, if the file gives one (`name`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let king = rules.piece_rule(hnefatafl_core::PieceType::from_bit(1).unwrap()).unwrap();
    /// assert_eq!(king.name(), Some("king"));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// `steps`: the most squares an ordinary move of this type goes; `None` without a
    /// limit.
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// let white = rules.piece_rule(PieceType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(white.steps(), Some(1));
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn steps(&self) -> Option<u8> {
        (self.steps != 0).then_some(self.steps)
    }

    /// `directions`: the directions of its ordinary moves, relative to its owner, as a
    /// mask: 1 forward (north for player 0, south for player 1), 2 sideways, 4 back. All
    /// three (7) unless the file says otherwise.
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// let white = rules.piece_rule(PieceType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(white.directions(), 3);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn directions(&self) -> u8 {
        self.directions
    }

    /// `jump`: the enemy piece types this type captures by jumping over them.
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// let white = rules.piece_rule(PieceType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(white.jump().bits(), 2);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn jump(&self) -> PieceTypes {
        PieceTypes(self.jump)
    }

    /// `escape_on`: the escape square types this type wins on (all of them unless the
    /// file names some).
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// let white = rules.piece_rule(PieceType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(white.escape_on().bits(), 2);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn escape_on(&self) -> SquareTypes {
        SquareTypes(self.escape_on)
    }

    /// `lose_on`: the square types on which this type loses the game for its owner when
    /// a move of it ends there.
    ///
    /// ```
    /// # use hnefatafl_core::{PieceType, Rules};
    /// let rules = Rules::parse(include_bytes!("../../data/rules/halatafl"))?;
    /// let white = rules.piece_rule(PieceType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(white.lose_on().bits(), 4);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn lose_on(&self) -> SquareTypes {
        SquareTypes(self.lose_on)
    }
}

/// The rules of one square type, as read from a rule file (read-only view).
///
/// ```
/// use hnefatafl_core::Rules;
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let corner = rules.square_rules().iter().find(|rule| rule.escape()).unwrap();
/// assert!(corner.square().bit() > 1);
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SquareRule {
    pub(crate) square: SquareType,
    pub(crate) captures: u8,
    pub(crate) capture_sides: u8,
    pub(crate) capture_sides_pieces: u8,
    pub(crate) escape: bool,
    pub(crate) ui_bit: Option<SquareType>,
}

impl SquareRule {
    /// The type (`square bit`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let throne = rules.square_rule(hnefatafl_core::SquareType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(throne.square().bit(), 4);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn square(&self) -> SquareType {
        self.square
    }
    /// The piece types this square captures when empty (`captures`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let throne = rules.square_rule(hnefatafl_core::SquareType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(throne.captures().bits(), 7);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn captures(&self) -> PieceTypes {
        PieceTypes(self.captures)
    }
    /// Replaces `capt_sides` of the pieces in [`SquareRule::capture_sides_pieces`]
    /// standing here (0: none) (`capt_sides`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let throne = rules.square_rule(hnefatafl_core::SquareType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(throne.capture_sides(), 4);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn capture_sides(&self) -> u8 {
        self.capture_sides
    }
    /// The piece types affected by [`SquareRule::capture_sides`] (`capt_sides_pieces`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let throne = rules.square_rule(hnefatafl_core::SquareType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(throne.capture_sides_pieces().bits(), 1);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn capture_sides_pieces(&self) -> PieceTypes {
        PieceTypes(self.capture_sides_pieces)
    }
    /// Escape pieces win by reaching it (`escape`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let throne = rules.square_rule(hnefatafl_core::SquareType::from_bit(4).unwrap()).unwrap();
    /// assert!(!throne.escape());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn escape(&self) -> bool {
        self.escape
    }
    /// Draw like this type (interfaces), if set (`ui_bit`).
    ///
    /// ```
    #[doc = doc_rules!()]
    /// # let throne = rules.square_rule(hnefatafl_core::SquareType::from_bit(4).unwrap()).unwrap();
    /// assert_eq!(throne.ui_bit(), None);
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn ui_bit(&self) -> Option<SquareType> {
        self.ui_bit
    }
}

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
        let description = parse::parse(text).map_err(|error| locate(text, error))?;
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
    /// from the bottom). A jump capture names every square it lands on after its origin:
    /// `x1 y1 x2 y2 x3 y3 ...` or `a1 a3 c3 ...` (see [`Move::through`]).
    ///
    /// # Errors
    ///
    /// [`NotationError`] when the words are neither form or name a square off the board.
    ///
    /// ```
    #[doc = doc_rules!()]
    /// assert_eq!(rules.parse_move(&["d9", "d7"])?, rules.parse_move(&["3", "0", "3", "2"])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_move(&self, words: &[&str]) -> Result<Move, NotationError> {
        notation::parse_move(self, words)
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

/// Finds the line an RVALID error is about: where its rule is written for its piece or
/// square type, or else where that type is declared, or else where the rule is written
/// on a line of its own (`pieces`, `width`).
fn locate(text: &[u8], error: RulesError) -> RulesError {
    let RulesError::Invalid {
        rule,
        subject,
        message,
        line: None,
    } = error
    else {
        return error;
    };
    let lines = gleipnir::parse(text).unwrap_or_default();
    let find = |wanted: &dyn Fn(&[String]) -> bool| {
        lines
            .iter()
            .find(|line| wanted(&line.words))
            .map(|line| line.number)
    };
    let general = || find(&|words| words.first().is_some_and(|word| word == rule));
    let line = match subject {
        Some(subject) => {
            let (scope, bit) = match subject {
                Subject::Piece(piece) => ("piece", piece.bit().to_string()),
                Subject::Square(square) => ("square", square.bit().to_string()),
            };
            let is = |words: &[String], second: &str, third: &str| {
                words.len() > 2 && words[0] == scope && words[1] == second && words[2] == third
            };
            find(&|words| is(words, &bit, rule))
                .or_else(|| find(&|words| is(words, "bit", &bit)))
                .or_else(general)
        }
        None => general(),
    };
    RulesError::Invalid {
        rule,
        subject,
        message,
        line,
    }
}

/// How moves and squares are written.
///
/// ```
/// use hnefatafl_core::{Notation, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let mv = "5 0 2 0".parse()?;
/// assert_eq!(rules.format_move(mv, Notation::Algebraic), "f9 c9");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Notation {
    /// `5 0 2 0`: 0-based x and y numbers, origin top-left.
    Numeric,
    /// `f9 c9`: column letters from the left, row numbers from the bottom (`a1` is the
    /// bottom-left square). Columns past `z` are named like spreadsheet columns: `aa`,
    /// `ab`, ... up to `ae` on a board 31 wide. Upper-case letters are read too.
    Algebraic,
}

/// How a game ended. Written `player 1 wins: escape of piece 1`, or `draw: repetition`.
///
/// ```
/// use hnefatafl_core::{EndReason, Outcome, PieceType, Player};
/// let king = PieceType::from_bit(1).unwrap();
/// let outcome = Outcome { winner: Some(Player::One), reason: EndReason::Escape(king) };
/// assert_eq!(outcome.to_string(), "player 1 wins: escape of piece 1");
/// assert_eq!(outcome.to_string().parse::<Outcome>(), Ok(outcome));
/// let draw = Outcome { winner: None, reason: EndReason::NoCapture };
/// assert_eq!(draw.to_string(), "draw: no capture");
/// assert_eq!(draw.to_string().parse::<Outcome>(), Ok(draw));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// Who won; `None` for a draw.
    pub winner: Option<Player>,
    /// Why.
    pub reason: EndReason,
}

/// Why a game ended.
///
/// ```
/// use hnefatafl_core::EndReason;
/// assert_eq!(EndReason::NoMoves.to_string(), "no moves");
/// let reason: EndReason = "loss of piece 4".parse()?;
/// assert_eq!(reason.to_string(), "loss of piece 4");
/// # Ok::<(), hnefatafl_core::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum EndReason {
    /// The loser had no legal move on his turn.
    NoMoves,
    /// A piece of this type reached an escape square.
    Escape(PieceType),
    /// The loser lost every piece of this `capt_loss` type.
    CaptureLoss(PieceType),
    /// A piece of this `exit_fort` type stands on the edge in a fort that cannot be broken.
    ExitFort(PieceType),
    /// Every piece of the loser is enclosed (`encircle`).
    Encircled,
    /// A position occurred for the `repetition`-th time: a draw, or a loss as the rules
    /// say ([`Rules::repetition_outcome`]).
    Repetition,
    /// `draw_plies` plies in a row without a capture: a draw.
    NoCapture,
    /// Neither player has the pieces to win (`draw_no_win`): a draw.
    NoWin,
    /// The loser ended a move with a piece of this type on one of its `lose_on` squares.
    LosingSquare(PieceType),
}

/// The words of the reasons without a piece, as [`EndReason`] writes and reads them.
const REASON_WORDS: [(EndReason, &str); 5] = [
    (EndReason::NoMoves, "no moves"),
    (EndReason::Encircled, "encirclement"),
    (EndReason::Repetition, "repetition"),
    (EndReason::NoCapture, "no capture"),
    (EndReason::NoWin, "no win"),
];

impl fmt::Display for EndReason {
    /// `no moves`, `escape of piece 1`, `loss of piece 1`, `exit fort of piece 1`,
    /// `losing square of piece 1`,
    /// `encirclement`, `repetition`, `no capture` or `no win`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Escape(piece) => write!(f, "escape of piece {piece}"),
            EndReason::CaptureLoss(piece) => write!(f, "loss of piece {piece}"),
            EndReason::ExitFort(piece) => write!(f, "exit fort of piece {piece}"),
            EndReason::LosingSquare(piece) => write!(f, "losing square of piece {piece}"),
            other => {
                let word = REASON_WORDS
                    .iter()
                    .find(|(reason, _)| reason == other)
                    .map_or("", |(_, word)| word);
                write!(f, "{word}")
            }
        }
    }
}

impl FromStr for EndReason {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<EndReason, ParseError> {
        let bad = || ParseError {
            text: text.to_owned(),
            expected: "a reason (`no moves`, `escape of piece N`, `loss of piece N`, \
                       `exit fort of piece N`, `losing square of piece N`, `encirclement`, \
                       `repetition`, `no capture`, `no win`)",
        };
        let trimmed = text.trim();
        if let Some((reason, _)) = REASON_WORDS.iter().find(|(_, word)| *word == trimmed) {
            return Ok(*reason);
        }
        let piece = |rest: &str| {
            rest.parse::<u8>()
                .ok()
                .and_then(PieceType::from_bit)
                .ok_or_else(bad)
        };
        if let Some(rest) = trimmed.strip_prefix("escape of piece ") {
            Ok(EndReason::Escape(piece(rest)?))
        } else if let Some(rest) = trimmed.strip_prefix("loss of piece ") {
            Ok(EndReason::CaptureLoss(piece(rest)?))
        } else if let Some(rest) = trimmed.strip_prefix("exit fort of piece ") {
            Ok(EndReason::ExitFort(piece(rest)?))
        } else if let Some(rest) = trimmed.strip_prefix("losing square of piece ") {
            Ok(EndReason::LosingSquare(piece(rest)?))
        } else {
            Err(bad())
        }
    }
}

impl fmt::Display for Outcome {
    /// `player N wins: REASON`, or `draw: REASON`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(winner) => write!(f, "player {winner} wins: {}", self.reason),
            None => write!(f, "draw: {}", self.reason),
        }
    }
}

impl FromStr for Outcome {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Outcome, ParseError> {
        let bad = || ParseError {
            text: text.to_owned(),
            expected: "an outcome (`player N wins: REASON` or `draw: REASON`)",
        };
        let text = text.trim();
        if let Some(reason) = text.strip_prefix("draw: ") {
            return Ok(Outcome {
                winner: None,
                reason: reason.parse().map_err(|_| bad())?,
            });
        }
        let rest = text.strip_prefix("player ").ok_or_else(bad)?;
        let (winner, reason) = rest.split_once(" wins: ").ok_or_else(bad)?;
        Ok(Outcome {
            winner: Some(winner.parse().map_err(|_| bad())?),
            reason: reason.parse().map_err(|_| bad())?,
        })
    }
}
