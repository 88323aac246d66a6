//! The four directions along a row or a column, in which pieces move and squares step.

/// One of the four directions along a row or a column.
///
/// The set is complete by definition, so the enum is not `#[non_exhaustive]`.
///
/// ```
/// use hnefatafl_core::Direction;
/// assert_eq!(Direction::ALL.len(), 4);
/// assert_eq!(Direction::East.opposite(), Direction::West);
/// assert_eq!(Direction::South.offset(), (0, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// `+x`: to the right.
    East,
    /// `-x`: to the left.
    West,
    /// `+y`: down, towards the bottom row.
    South,
    /// `-y`: up, towards the top row.
    North,
}

impl Direction {
    /// The four directions, in the fixed order in which the engine judges captures.
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// for (index, direction) in Direction::ALL.into_iter().enumerate() {
    ///     assert_eq!(direction.index(), index);
    /// }
    /// ```
    pub const ALL: [Direction; 4] = [
        Direction::East,
        Direction::West,
        Direction::South,
        Direction::North,
    ];

    /// The position of the direction in [`Direction::ALL`].
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::North.index(), 3);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction at this position of [`Direction::ALL`].
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::from_index(1), Some(Direction::West));
    /// assert_eq!(Direction::from_index(4), None);
    /// ```
    pub const fn from_index(index: usize) -> Option<Direction> {
        match index {
            0 => Some(Direction::East),
            1 => Some(Direction::West),
            2 => Some(Direction::South),
            3 => Some(Direction::North),
            _ => None,
        }
    }

    /// The direction back.
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::North.opposite(), Direction::South);
    /// ```
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::West => Direction::East,
            Direction::South => Direction::North,
            Direction::North => Direction::South,
        }
    }

    /// Whether the direction runs along a row (east or west).
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert!(Direction::West.is_horizontal());
    /// assert!(!Direction::North.is_horizontal());
    /// ```
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Direction::East | Direction::West)
    }

    /// The change of `(x, y)` of one step.
    ///
    /// ```
    /// use hnefatafl_core::Direction;
    /// assert_eq!(Direction::North.offset(), (0, -1));
    /// ```
    pub const fn offset(self) -> (i8, i8) {
        match self {
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
            Direction::South => (0, 1),
            Direction::North => (0, -1),
        }
    }

    /// The change of a [`Square`]'s packed value of one step.
    pub(crate) const fn packed(self) -> i16 {
        match self {
            Direction::East => 1,
            Direction::West => -1,
            Direction::South => 32,
            Direction::North => -32,
        }
    }
}
