//! The piece layout a network is made for: board size and declared piece types.

use hnefatafl_core::{PieceType, Player, Rules};

/// The most piece types a rule file declares (one bit each in a byte).
const PIECE_TYPES: usize = 8;

/// A type index with no input slot (the rule file does not declare it).
const NO_SLOT: u8 = u8::MAX;

/// What a network's inputs mean: the board's width and height and, for each piece type
/// index the rule file declares, its owner. Each declared type gets one input per square
/// (its slot, in type-index order); a network fits a rule file only if their layouts are
/// equal, which the [`Layout::fingerprint`] in the network's file checks.
///
/// ```
/// use aim::nnue::Layout;
/// use hnefatafl_core::Rules;
/// let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh"))?;
/// let layout = Layout::of(&rules);
/// assert_eq!((layout.width(), layout.height()), (7, 7));
/// // The king, the defenders and the attackers: three types of 49 squares.
/// assert_eq!(layout.inputs(), 3 * 49);
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    width: u8,
    height: u8,
    /// The owner of each piece type index, `None` where the type is not declared.
    owners: [Option<Player>; PIECE_TYPES],
    /// The input slot of each piece type index, [`NO_SLOT`] where it is not declared.
    slots: [u8; PIECE_TYPES],
}

impl Layout {
    /// The layout of a rule file.
    pub fn of(rules: &Rules) -> Layout {
        let mut owners = [None; PIECE_TYPES];
        for rule in rules.piece_rules() {
            if let Some(owner) = owners.get_mut(rule.piece().index()) {
                *owner = Some(rule.owner());
            }
        }
        Layout::new(rules.width(), rules.height(), owners)
    }

    /// A layout from its parts: the board's size and each type index's owner.
    pub fn new(width: u8, height: u8, owners: [Option<Player>; PIECE_TYPES]) -> Layout {
        let mut slots = [NO_SLOT; PIECE_TYPES];
        let mut next = 0;
        for (slot, owner) in slots.iter_mut().zip(owners) {
            if owner.is_some() {
                *slot = next;
                next += 1;
            }
        }
        Layout {
            width,
            height,
            owners,
            slots,
        }
    }

    /// The board's width.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// The board's height.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The owner of each piece type index, `None` where the type is not declared.
    pub fn owners(&self) -> [Option<Player>; PIECE_TYPES] {
        self.owners
    }

    /// Squares of the board rectangle.
    pub fn squares(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Declared piece types.
    pub fn piece_types(&self) -> usize {
        self.owners.iter().filter(|owner| owner.is_some()).count()
    }

    /// Inputs of the network: one per declared piece type and square.
    pub fn inputs(&self) -> usize {
        self.piece_types() * self.squares()
    }

    /// The input of a piece of this type on the square with this row-major index, or
    /// `None` for a type the layout does not declare or an index off the board.
    #[inline(always)]
    pub fn input(&self, piece: PieceType, square_index: usize) -> Option<usize> {
        let slot = *self.slots.get(piece.index())?;
        (slot != NO_SLOT && square_index < self.squares())
            .then(|| usize::from(slot) * self.squares() + square_index)
    }

    /// A 64-bit fingerprint of the layout (FNV-1a over the size and the owners), stored in
    /// a network's file so that a network is only used for the layout it was made for.
    ///
    /// ```
    /// use aim::nnue::Layout;
    /// use hnefatafl_core::Rules;
    /// let brandubh = Rules::parse(include_bytes!("../../../data/rules/brandubh"))?;
    /// let brandub = Rules::parse(include_bytes!("../../../data/rules/brandub"))?;
    /// let tablut = Rules::parse(include_bytes!("../../../data/rules/tablut"))?;
    /// // Two readings of one game share the layout; another board does not.
    /// assert_eq!(Layout::of(&brandubh).fingerprint(), Layout::of(&brandub).fingerprint());
    /// assert_ne!(Layout::of(&brandubh).fingerprint(), Layout::of(&tablut).fingerprint());
    /// # Ok::<(), hnefatafl_core::RulesError>(())
    /// ```
    pub fn fingerprint(&self) -> u64 {
        let mut bytes = vec![self.width, self.height];
        bytes.extend(
            self.owners
                .map(|owner| owner.map_or(0, |p| 1 + p.index() as u8)),
        );
        fnv1a(&bytes)
    }
}

/// The 64-bit FNV-1a hash: a few lines, enough to tell layouts apart and to notice a
/// damaged file (no adversary to resist, so no crate for it). The checksum of a network
/// file, and of the blocks of the trainer's data files.
///
/// ```
/// assert_eq!(aim::nnue::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// assert_ne!(aim::nnue::fnv1a(b"a"), aim::nnue::fnv1a(b"b"));
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
