//! The two players.

use std::fmt;
use std::str::FromStr;

use crate::ParseError;

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
