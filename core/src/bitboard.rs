//! A set of squares of one board, by row-major index: [`BitBoard`].

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::tables::WORDS;

/// A set of squares of one board, each square by its row-major index `y * width + x`
/// (the index of [`Rules::index`](crate::Rules::index)), for evaluations that compute
/// with whole sets: the squares of a player's pieces ([`Position::occupied`]), of a piece
/// type ([`Position::occupied_by`]), the empty ones ([`Position::empty_squares`]), those
/// of a square type ([`Rules::squares_of_type`]). It holds any board up to 31x31, copies
/// cheaply and allocates nothing.
///
/// `!` flips every index up to [`BitBoard::CAPACITY`], past the board's end too: intersect
/// with [`Rules::board_squares`] to stay on the board.
///
/// [`Position::occupied`]: crate::Position::occupied
/// [`Position::occupied_by`]: crate::Position::occupied_by
/// [`Position::empty_squares`]: crate::Position::empty_squares
/// [`Rules::squares_of_type`]: crate::Rules::squares_of_type
/// [`Rules::board_squares`]: crate::Rules::board_squares
///
/// ```
/// use hnefatafl_core::{BitBoard, Player, Rules};
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let position = rules.start_position();
/// let defenders = position.occupied(Player::One);
/// assert_eq!(defenders.len(), 9);
/// assert!(defenders.contains(4 * 9 + 4), "the king on the centre");
/// let all = defenders | position.occupied(Player::Zero);
/// assert_eq!(all.len(), 25);
/// assert_eq!((all & position.empty_squares()), BitBoard::EMPTY);
/// assert_eq!(!all & rules.board_squares(), position.empty_squares());
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BitBoard {
    /// Index `i` is bit `i % 64` of word `i / 64`.
    words: [u64; WORDS],
}

impl BitBoard {
    /// No square.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// assert!(BitBoard::EMPTY.is_empty());
    /// ```
    pub const EMPTY: BitBoard = BitBoard { words: [0; WORDS] };

    /// One more than the largest index a set holds: enough for a 31x31 board.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// assert!(BitBoard::CAPACITY >= 31 * 31);
    /// ```
    pub const CAPACITY: usize = WORDS * 64;

    /// The set of these words: index `i` is bit `i % 64` of word `i / 64`.
    pub(crate) const fn from_words(words: [u64; WORDS]) -> BitBoard {
        BitBoard { words }
    }

    /// Whether the set holds this index.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// let set: BitBoard = [3, 70].into_iter().collect();
    /// assert!(set.contains(70));
    /// assert!(!set.contains(4));
    /// assert!(!set.contains(BitBoard::CAPACITY));
    /// ```
    pub const fn contains(&self, index: usize) -> bool {
        index < BitBoard::CAPACITY && self.words[index / 64] & 1 << (index % 64) != 0
    }

    /// Adds an index; returns whether it was not there before. An index at or past
    /// [`BitBoard::CAPACITY`] is no square of any board: nothing is added and the answer
    /// is `false`.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// let mut set = BitBoard::EMPTY;
    /// assert!(set.insert(5));
    /// assert!(!set.insert(5));
    /// assert!(!set.insert(BitBoard::CAPACITY));
    /// assert_eq!(set.len(), 1);
    /// ```
    pub fn insert(&mut self, index: usize) -> bool {
        let added = index < BitBoard::CAPACITY && !self.contains(index);
        if added {
            self.words[index / 64] |= 1 << (index % 64);
        }
        added
    }

    /// Takes an index out; returns whether it was there.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// let mut set: BitBoard = [5].into_iter().collect();
    /// assert!(set.remove(5));
    /// assert!(!set.remove(5));
    /// assert!(set.is_empty());
    /// ```
    pub fn remove(&mut self, index: usize) -> bool {
        let there = self.contains(index);
        if there {
            self.words[index / 64] &= !(1 << (index % 64));
        }
        there
    }

    /// The number of squares in the set.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// assert_eq!([1, 2, 900].into_iter().collect::<BitBoard>().len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.words
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// assert!(BitBoard::EMPTY.is_empty());
    /// assert!(![0].into_iter().collect::<BitBoard>().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&word| word == 0)
    }

    /// The indices of the set, in increasing order.
    ///
    /// ```
    /// use hnefatafl_core::BitBoard;
    /// let set: BitBoard = [900, 3, 64].into_iter().collect();
    /// assert_eq!(set.iter().collect::<Vec<_>>(), [3, 64, 900]);
    /// ```
    pub fn iter(&self) -> SquareIndices {
        SquareIndices {
            words: self.words,
            word: 0,
        }
    }
}

impl fmt::Debug for BitBoard {
    /// The indices as a set: `{3, 64}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The indices of a [`BitBoard`], in increasing order: see [`BitBoard::iter`].
#[derive(Clone, Debug)]
pub struct SquareIndices {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for SquareIndices {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let bits = &mut self.words[self.word];
            if *bits != 0 {
                let index = self.word * 64 + bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(index);
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.words[self.word.min(WORDS)..]
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum();
        (left, Some(left))
    }
}

impl ExactSizeIterator for SquareIndices {}

impl IntoIterator for BitBoard {
    type Item = usize;
    type IntoIter = SquareIndices;

    fn into_iter(self) -> SquareIndices {
        self.iter()
    }
}

impl FromIterator<usize> for BitBoard {
    /// The set of these indices; those at or past [`BitBoard::CAPACITY`] are left out.
    fn from_iter<I: IntoIterator<Item = usize>>(indices: I) -> BitBoard {
        let mut set = BitBoard::EMPTY;
        for index in indices {
            set.insert(index);
        }
        set
    }
}

/// The word-by-word operators of a set: `$op` on two sets, `$assign` in place.
macro_rules! word_operator {
    ($op:ident, $method:ident, $assign:ident, $assign_method:ident, $word:tt) => {
        impl $op for BitBoard {
            type Output = BitBoard;

            fn $method(mut self, other: BitBoard) -> BitBoard {
                self.$assign_method(other);
                self
            }
        }

        impl $assign for BitBoard {
            fn $assign_method(&mut self, other: BitBoard) {
                for (word, other) in self.words.iter_mut().zip(other.words) {
                    *word = *word $word other;
                }
            }
        }
    };
}

word_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
word_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
word_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for BitBoard {
    type Output = BitBoard;

    /// Every index up to [`BitBoard::CAPACITY`] that is not in the set.
    fn not(self) -> BitBoard {
        BitBoard {
            words: self.words.map(|word| !word),
        }
    }
}
