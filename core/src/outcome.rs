//! How a game ended: [`Outcome`] and [`EndReason`].

use std::fmt;
use std::str::FromStr;

use crate::{ParseError, PieceType, Player};

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
    /// say ([`Rules::repetition_outcome`](crate::Rules::repetition_outcome)).
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
