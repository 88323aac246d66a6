//! OpenTafl Notation (OTN): positions, rules strings, moves and game records, text in and
//! text out.
//!
//! OTN is the notation of OpenTafl (`opentafl-notation-spec.txt` in its public repository,
//! see `docs/protocols.md`). This module reads and writes it for every board our rules can
//! hold:
//!
//! - [`Board`]: a position record such as `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/`;
//!   [`position_to_otn`] and [`position_from_otn`] turn it into our [`Position`](crate::Position).
//! - [`RulesString`]: a rules string such as `dim:7 ks:w start:/.../`, read into a
//!   validated [`Rules`] by [`RulesString::to_rules`] (which refuses, naming the key, what
//!   the rule language cannot express) and written from our rules by [`rules_to_otn`].
//! - [`OtnMove`]: a move record such as `a4-a6xb6/c5+`.
//! - [`GameRecord`]: a whole game with its `[tag:value]` headers.
//!
//! Squares are named as OpenTafl names them: the file letter from the left (`a` is
//! column 0) and the rank number counted from the top row (rank 1 is the first row of a
//! position record, which OpenTafl draws at the top). Our own algebraic notation counts
//! rows from the bottom, so the same square has two names: OTN `a1` is our `a11` on an
//! 11x11 board.
//!
//! ```
//! use hnefatafl_core::otn::RulesString;
//!
//! let text = "dim:7 name:Brandubh surf:n tfr:i ks:w cenp:K cenh:t \
//!             start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
//! let rules = RulesString::parse(text)?.to_rules()?;
//! assert_eq!(rules.width(), 7);
//! assert_eq!(rules.start_position().perft(1), 40);
//! # Ok::<(), hnefatafl_core::otn::OtnError>(())
//! ```

mod board;
mod moves;
mod record;
mod rules;
mod rules_write;
mod spaces;

pub use board::{Board, Kind, Man, Side, position_from_otn, position_to_otn};
pub use moves::{Info, OtnMove, format_move, format_simple_move};
pub use record::{GameRecord, ResultTag};
pub use rules::{Approximation, RulesString};
pub use rules_write::{rules_to_otn, rules_to_otn_nearest};

use crate::{PieceType, Player, Rules, Square};

/// Why OTN text was refused or cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OtnError {
    /// A position record cannot be read, or does not fit the rules.
    #[error("position: {0}")]
    Position(String),
    /// A rules string cannot be read: the key (or `rules` for the whole string) and why.
    #[error("rules string: `{key}`: {message}")]
    Rules {
        /// The key concerned.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// The rules say something that the other side cannot express: the OTN key and why.
    #[error("`{key}` cannot be expressed: {message}")]
    Unexpressible {
        /// The OTN key concerned.
        key: &'static str,
        /// What cannot be expressed.
        message: String,
    },
    /// A move record cannot be read or played.
    #[error("move `{text}`: {message}")]
    Move {
        /// The move record.
        text: String,
        /// What is wrong.
        message: String,
    },
    /// A game record cannot be read.
    #[error("line {line}: {message}")]
    Record {
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Which of our piece types play the three OTN roles (taflman of each side and king), and
/// which player is the attackers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roles {
    /// The player of the attacking side (the side without the king).
    pub attackers: Player,
    /// The attackers' piece type (`t`).
    pub attacker: PieceType,
    /// The defenders' ordinary piece type (`T`), if the rules declare one.
    pub defender: Option<PieceType>,
    /// The king (`K`).
    pub king: PieceType,
}

impl Roles {
    /// The roles in rules OTN can describe: one king (the only piece type that escapes),
    /// at most one other piece type on his side, and one piece type on the other side.
    ///
    /// # Errors
    ///
    /// [`OtnError::Unexpressible`] when the rules have other piece types.
    pub fn of(rules: &Rules) -> Result<Roles, OtnError> {
        let pieces = rules.piece_rules();
        let mut escaping = pieces.iter().filter(|p| p.escape);
        let (Some(king), None) = (escaping.next(), escaping.next()) else {
            return Err(unexpressible(
                "start",
                "OTN needs exactly one king: one piece type that escapes",
            ));
        };
        let defenders = king.owner;
        let others: Vec<PieceType> = pieces
            .iter()
            .filter(|p| p.owner == defenders && p.piece != king.piece)
            .map(|p| p.piece)
            .collect();
        let attackers: Vec<PieceType> = pieces
            .iter()
            .filter(|p| p.owner != defenders)
            .map(|p| p.piece)
            .collect();
        match (others.as_slice(), attackers.as_slice()) {
            (defender @ ([] | [_]), &[attacker]) => Ok(Roles {
                attackers: defenders.opponent(),
                attacker,
                defender: defender.first().copied(),
                king: king.piece,
            }),
            _ => Err(unexpressible(
                "start",
                "OTN knows one kind of taflman per side besides the king",
            )),
        }
    }

    /// The OTN man of one of our piece types.
    pub fn man(&self, piece: PieceType) -> Option<Man> {
        if piece == self.king {
            Some(Man::new(Side::Defenders, Kind::King))
        } else if Some(piece) == self.defender {
            Some(Man::new(Side::Defenders, Kind::Taflman))
        } else if piece == self.attacker {
            Some(Man::new(Side::Attackers, Kind::Taflman))
        } else {
            None
        }
    }

    /// Our piece type of an OTN man, if the rules have it.
    pub fn piece(&self, man: Man) -> Option<PieceType> {
        match (man.side, man.kind) {
            (Side::Defenders, Kind::King) => Some(self.king),
            (Side::Defenders, Kind::Taflman) => self.defender,
            (Side::Attackers, Kind::Taflman) => Some(self.attacker),
            _ => None,
        }
    }

    /// Our player of an OTN side.
    pub fn player(&self, side: Side) -> Player {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.attackers.opponent(),
        }
    }

    /// The OTN side of one of our players.
    pub fn side(&self, player: Player) -> Side {
        if player == self.attackers {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }
}

/// An error in the rules string's `key`.
fn rules_error(key: &str, message: impl Into<String>) -> OtnError {
    OtnError::Rules {
        key: key.to_owned(),
        message: message.into(),
    }
}

pub(crate) fn unexpressible(key: &'static str, message: impl Into<String>) -> OtnError {
    OtnError::Unexpressible {
        key,
        message: message.into(),
    }
}

/// The OTN name of a square: file letter from the left, rank from the top (`a1` is the
/// top-left square).
pub fn square_name(square: Square) -> String {
    format!(
        "{}{}",
        char::from(b'a' + square.x()),
        u32::from(square.y()) + 1
    )
}

/// The square of an OTN name such as `a1` (file letter, rank from the top), if on the
/// board. Upper-case letters are read too.
pub fn parse_square(rules: &Rules, text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?.to_ascii_lowercase();
    let rank = chars.as_str();
    if !file.is_ascii_lowercase()
        || rank.is_empty()
        || rank.len() > 2
        || !rank.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rank: u8 = rank.parse().ok()?;
    let x = file as u8 - b'a';
    rules.square_at(x, rank.checked_sub(1)?)
}
