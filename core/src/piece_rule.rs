//! The read-only views of a rule file's piece and square types.

use crate::{PieceType, PieceTypes, Player, SquareType, SquareTypes};

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
