#![doc = include_str!("../README.md")]
//!
//! ## Layout
//!
//! The rules of a variant are read by [`Rules::parse`], validated, and compiled into
//! tables. A [`Position`] belongs to its rules and is played on with [`Position::play`],
//! [`Position::try_play`] and [`Position::play_unchecked`]; a [`Game`] keeps the history
//! with undo and redo, repetition and the outcome ([`Outcome`]). Moves are read and
//! written in two notations ([`Notation`]; text read without a board is a [`MoveText`],
//! placed on one with [`MoveText::on`]), and whole games in the text format of [`save`].
//!
//! The source follows the same order: `square.rs`, `direction.rs` and `moves.rs` are the
//! coordinates and moves of every board, `bit_types.rs` the piece and square types;
//! `rules.rs` with the read-only views of `piece_rule.rs` sits on `parse.rs` (the rule
//! file: its keywords read line by line into `draft.rs`, then checked together by the
//! named checks of `validate.rs` into the `description.rs` of the rules) and `tables.rs` (what it compiles to); `engine/` holds
//! the board state and the board rules on those tables, and knows nothing of
//! `position.rs`, `game.rs` and the notations built on it (`notation.rs`, `otn/`).

#![deny(missing_docs)]

/// Shortens the examples: the rules of the tablut file shipped with the program.
// Defined before the modules, so that they can use it.
macro_rules! doc_rules {
    () => {
        "# let rules = hnefatafl_core::Rules::parse(include_bytes!(\"../../data/rules/tablut\"))?;"
    };
}

mod bit_types;
mod bitboard;
mod description;
mod direction;
mod display;
mod draft;
mod engine;
mod error;
mod game;
mod keywords;
mod move_iter;
mod moves;
mod notation;
pub mod otn;
mod outcome;
mod parse;
mod piece_rule;
mod player;
mod position;
pub mod random;
mod rules;
pub mod save;
mod setup;
mod square;
mod tables;
mod validate;

pub use bit_types::{PieceType, PieceTypes, SquareType, SquareTypes};
pub use bitboard::{BitBoard, SquareIndices};
pub use description::{Repetition, RepetitionLoser};
pub use direction::Direction;
pub use display::{BoardCell, BoardDisplay, plain_square};
pub use engine::Undo;
pub use error::{
    BitError, MoveError, MovePathError, NotationError, ParseError, RuleViolation, RulesError,
    RulesErrorKind, SetupError, SetupProblem, Subject,
};
pub use game::{Game, LegalMoves};
pub use move_iter::Moves;
pub use moves::{Jumps, JumpsTooLong, Move};
pub use notation::{MoveText, Notation};
pub use outcome::{EndReason, Outcome};
pub use piece_rule::{PieceRule, SquareRule};
pub use player::Player;
pub use position::Position;
pub use rules::Rules;
pub use setup::Setup;
pub use square::{AlgebraicSquare, MAX_SIDE, Square, column_name};
