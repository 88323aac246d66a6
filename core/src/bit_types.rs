//! Piece and square types and their small sets, made by one macro.
//!
//! A rule file names up to eight piece types and eight square types by single bits
//! (1, 2, 4, ..., 128), and writes sets of them as bitmasks. [`PieceType`] and
//! [`SquareType`] are the single bits; [`PieceTypes`] and [`SquareTypes`] are the sets.

/// Defines a type named by a single bit and the set of such types.
macro_rules! bit_types {
    (
        $(#[$one_doc:meta])* $one:ident,
        $(#[$set_doc:meta])* $set:ident,
        $what:literal
    ) => {
        $(#[$one_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
        pub struct $one(pub(crate) u8);

        impl $one {
            #[doc = concat!("The ", $what, " type with this bit, if `bit` is a single bit.")]
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($one), ";")]
            #[doc = concat!("assert_eq!(", stringify!($one), "::from_bit(4).map(|t| t.index()), Some(2));")]
            #[doc = concat!("assert_eq!(", stringify!($one), "::from_bit(6), None);")]
            /// ```
            pub const fn from_bit(bit: u8) -> Option<$one> {
                if bit.is_power_of_two() {
                    Some($one(bit))
                } else {
                    None
                }
            }

            #[doc = concat!("The ", $what, " type with this index (0..8), the position of its bit.")]
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($one), ";")]
            #[doc = concat!("assert_eq!(", stringify!($one), "::from_index(7).map(|t| t.bit()), Some(128));")]
            #[doc = concat!("assert_eq!(", stringify!($one), "::from_index(8), None);")]
            /// ```
            pub const fn from_index(index: usize) -> Option<$one> {
                if index < 8 {
                    Some($one(1 << index))
                } else {
                    None
                }
            }

            /// The type's bit, as written in rule files.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($one), ";")]
            #[doc = concat!("let t = ", stringify!($one), "::from_bit(2).unwrap();")]
            /// assert_eq!(t.bit(), 2);
            /// ```
            pub const fn bit(self) -> u8 {
                self.0
            }

            /// 0..8: the position of the type's bit.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($one), ";")]
            #[doc = concat!("let t = ", stringify!($one), "::from_bit(2).unwrap();")]
            /// assert_eq!(t.index(), 1);
            /// ```
            pub const fn index(self) -> usize {
                self.0.trailing_zeros() as usize
            }
        }

        impl TryFrom<u8> for $one {
            type Error = crate::error::BitError;

            fn try_from(bit: u8) -> Result<$one, crate::error::BitError> {
                $one::from_bit(bit).ok_or(crate::error::BitError(bit))
            }
        }

        impl From<$one> for u8 {
            fn from(value: $one) -> u8 {
                value.bit()
            }
        }

        impl std::fmt::Display for $one {
            /// The bit, as in rule files.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        $(#[$set_doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(transparent))]
        pub struct $set(pub(crate) u8);

        impl $set {
            /// The empty set.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("assert_eq!(", stringify!($set), "::EMPTY.len(), 0);")]
            /// ```
            pub const EMPTY: $set = $set(0);
            /// All eight types.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("assert_eq!(", stringify!($set), "::ALL.bits(), 255);")]
            /// ```
            pub const ALL: $set = $set(u8::MAX);

            /// The set written as this bitmask in a rule file.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("assert_eq!(", stringify!($set), "::from_bits(5).len(), 2);")]
            /// ```
            pub const fn from_bits(bits: u8) -> $set {
                $set(bits)
            }

            /// The bitmask, as written in rule files.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("assert_eq!(", stringify!($set), "::from_bits(5).bits(), 5);")]
            /// ```
            pub const fn bits(self) -> u8 {
                self.0
            }

            /// Whether the set holds this type.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::{", stringify!($one), ", ", stringify!($set), "};")]
            #[doc = concat!("let set = ", stringify!($set), "::from_bits(5);")]
            #[doc = concat!("assert!(set.contains(", stringify!($one), "::from_bit(4).unwrap()));")]
            #[doc = concat!("assert!(!set.contains(", stringify!($one), "::from_bit(2).unwrap()));")]
            /// ```
            pub const fn contains(self, value: $one) -> bool {
                self.0 & value.0 != 0
            }

            /// Whether the set is empty.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("assert!(", stringify!($set), "::EMPTY.is_empty());")]
            /// ```
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// How many types the set holds.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("assert_eq!(", stringify!($set), "::ALL.len(), 8);")]
            /// ```
            pub const fn len(self) -> usize {
                self.0.count_ones() as usize
            }

            /// The set with this type added.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::{", stringify!($one), ", ", stringify!($set), "};")]
            #[doc = concat!("let t = ", stringify!($one), "::from_bit(8).unwrap();")]
            #[doc = concat!("assert_eq!(", stringify!($set), "::EMPTY.with(t).bits(), 8);")]
            /// ```
            #[must_use]
            pub const fn with(self, value: $one) -> $set {
                $set(self.0 | value.0)
            }

            /// The types in both sets.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("let (a, b) = (", stringify!($set), "::from_bits(3), ", stringify!($set), "::from_bits(6));")]
            /// assert_eq!(a.intersection(b).bits(), 2);
            /// ```
            #[must_use]
            pub const fn intersection(self, other: $set) -> $set {
                $set(self.0 & other.0)
            }

            /// The types in either set.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("let (a, b) = (", stringify!($set), "::from_bits(3), ", stringify!($set), "::from_bits(6));")]
            /// assert_eq!(a.union(b).bits(), 7);
            /// ```
            #[must_use]
            pub const fn union(self, other: $set) -> $set {
                $set(self.0 | other.0)
            }

            /// The types, by increasing bit.
            ///
            /// ```
            #[doc = concat!("use hnefatafl_core::", stringify!($set), ";")]
            #[doc = concat!("let bits: Vec<u8> = ", stringify!($set), "::from_bits(5).iter().map(|t| t.bit()).collect();")]
            /// assert_eq!(bits, [1, 4]);
            /// ```
            pub fn iter(self) -> impl Iterator<Item = $one> {
                (0..8).filter_map(move |index| {
                    let bit = 1u8 << index;
                    (self.0 & bit != 0).then_some($one(bit))
                })
            }
        }

        impl From<$one> for $set {
            fn from(value: $one) -> $set {
                $set(value.0)
            }
        }

        impl FromIterator<$one> for $set {
            fn from_iter<I: IntoIterator<Item = $one>>(iter: I) -> $set {
                iter.into_iter().fold($set::EMPTY, $set::with)
            }
        }

        impl std::ops::BitOr for $set {
            type Output = $set;

            fn bitor(self, other: $set) -> $set {
                self.union(other)
            }
        }

        impl std::ops::BitAnd for $set {
            type Output = $set;

            fn bitand(self, other: $set) -> $set {
                self.intersection(other)
            }
        }
    };
}

bit_types!(
    /// A piece type, named by its bit (1, 2, 4, ..., 128) as in rule files.
    ///
    /// ```
    /// use hnefatafl_core::PieceType;
    /// let king = PieceType::from_bit(4).unwrap();
    /// assert_eq!((king.bit(), king.index()), (4, 2));
    /// assert_eq!(PieceType::try_from(3u8).is_err(), true);
    /// ```
    PieceType,
    /// A set of piece types, written in rule files as a bitmask (`captures 3`).
    ///
    /// ```
    /// use hnefatafl_core::{PieceType, PieceTypes};
    /// let set: PieceTypes = [1, 4].into_iter().filter_map(PieceType::from_bit).collect();
    /// assert_eq!(set.bits(), 5);
    /// ```
    PieceTypes,
    "piece"
);

bit_types!(
    /// A square type, named by its bit (1, 2, 4, ..., 128) as in rule files.
    ///
    /// ```
    /// use hnefatafl_core::SquareType;
    /// let throne = SquareType::from_bit(2).unwrap();
    /// assert_eq!((throne.bit(), throne.index()), (2, 1));
    /// ```
    SquareType,
    /// A set of square types, written in rule files as a bitmask (`occupies 5`).
    ///
    /// ```
    /// use hnefatafl_core::{SquareType, SquareTypes};
    /// let set = SquareTypes::from_bits(5);
    /// assert!(set.contains(SquareType::from_bit(4).unwrap()));
    /// ```
    SquareTypes,
    "square"
);
