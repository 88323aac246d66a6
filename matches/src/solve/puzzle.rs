//! Puzzle sets: positions where the side to move has a forced win, with every winning
//! first move, found by the proof search ([`super::Solver`]) in recorded games and kept
//! as text in `matches/puzzles/`, and the engine's score on them.
//!
//! One puzzle a line, six fields separated by spaces (blank lines and lines starting with
//! `#` are left out):
//!
//! ```text
//! defenders 2 escape j3-k3 /2t1tttt3/1t7t1/11/t4T4t/.../10t/2t1ttt2t1/ game=142,ply=21
//! ```
//!
//! 1. the side to move and winner, `attackers` or `defenders`;
//! 2. the depth: the least number of the winner's moves that wins whatever the other side
//!    does;
//! 3. how the line of the win ends ([`End`]: `escape`, `capture`, `fort`, `encirclement`,
//!    `no-moves`, `other`);
//! 4. every first move that wins within the depth, `from-to` in algebraic squares,
//!    separated by commas;
//! 5. the position, an OTN position record (rows between slashes, from the top row; `t`
//!    attackers, `T` defenders, `K` the king, digits for runs of empty squares);
//! 6. where it comes from: the line of the games file and the plies played before it
//!    (`-` when unknown).

mod make;
mod trial;

pub use make::{Made, MakeSpec, candidates, make};
pub use trial::{Tally, report, solves};

use crate::content_lines;
use hnefatafl_core::otn::{Board, Roles, Side, position_from_otn, position_to_otn};
use hnefatafl_core::{EndReason, Move, Notation, Position, Rules};

/// How the line of a win ends, as a puzzle file names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// The king reached an escape square.
    Escape,
    /// The king (a `capt_loss` piece) was captured.
    Capture,
    /// An exit fort.
    Fort,
    /// The other side was encircled.
    Encirclement,
    /// The other side had no move.
    NoMoves,
    /// Any other end by the board.
    Other,
}

/// The word of each [`End`] in a puzzle file: the one table both ways.
pub const END_WORDS: [(End, &str); 6] = [
    (End::Escape, "escape"),
    (End::Capture, "capture"),
    (End::Fort, "fort"),
    (End::Encirclement, "encirclement"),
    (End::NoMoves, "no-moves"),
    (End::Other, "other"),
];

impl End {
    /// The end of a game that ended for this reason.
    pub fn of(reason: EndReason) -> End {
        match reason {
            EndReason::Escape(_) => End::Escape,
            EndReason::CaptureLoss(_) => End::Capture,
            EndReason::ExitFort(_) => End::Fort,
            EndReason::Encircled => End::Encirclement,
            EndReason::NoMoves => End::NoMoves,
            _ => End::Other,
        }
    }

    /// Its word in a puzzle file.
    pub fn word(self) -> &'static str {
        END_WORDS
            .iter()
            .find(|(end, _)| *end == self)
            .map_or("other", |(_, word)| word)
    }

    /// The end a word of a puzzle file names.
    pub fn from_word(word: &str) -> Option<End> {
        END_WORDS
            .iter()
            .find(|(_, known)| *known == word)
            .map(|(end, _)| *end)
    }
}

/// A position where the side to move wins by force.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The position; its side to move is the winner.
    pub position: Position,
    /// The least number of the winner's moves that wins.
    pub depth: u32,
    /// How the line of the win ends.
    pub end: End,
    /// Every first move that wins within `depth`.
    pub moves: Vec<Move>,
    /// Where it comes from (`game=<line>,ply=<plies>`), or `-`.
    pub source: String,
}

impl Puzzle {
    /// The side to move and winner, as OTN names it.
    ///
    /// # Errors
    ///
    /// The rules have piece types that OTN cannot name.
    pub fn side(&self) -> Result<Side, String> {
        let roles = Roles::of(self.position.rules()).map_err(|e| e.to_string())?;
        Ok(roles.side(self.position.side_to_move()))
    }

    /// The puzzle as one line of a puzzle file.
    ///
    /// # Errors
    ///
    /// The rules or the board cannot be written in OTN.
    pub fn to_line(&self) -> Result<String, String> {
        let rules = self.position.rules();
        let board = position_to_otn(rules, &self.position).map_err(|e| e.to_string())?;
        let moves: Vec<String> = self.moves.iter().map(|&mv| move_word(rules, mv)).collect();
        Ok(format!(
            "{} {} {} {} {board} {}",
            self.side()?.word(),
            self.depth,
            self.end.word(),
            moves.join(","),
            self.source
        ))
    }

    /// Reads one line of a puzzle file (not blank, not a comment).
    ///
    /// # Errors
    ///
    /// What in the line cannot be read or does not fit the rules.
    pub fn from_line(rules: &Rules, line: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [side, depth, end, moves, board, source] = fields[..] else {
            return Err(format!(
                "{} fields where a puzzle has 6: side, depth, end, moves, position, source",
                fields.len()
            ));
        };
        let side = Side::from_word(side)
            .ok_or_else(|| format!("`{side}` is not a side (attackers or defenders)"))?;
        let depth: u32 = depth
            .parse()
            .ok()
            .filter(|&depth| depth >= 1)
            .ok_or_else(|| format!("`{depth}` is not a depth (1 or more)"))?;
        let end = End::from_word(end).ok_or_else(|| {
            let words: Vec<&str> = END_WORDS.iter().map(|(_, word)| *word).collect();
            format!("`{end}` is not an end ({})", words.join(", "))
        })?;
        let roles = Roles::of(rules).map_err(|e| e.to_string())?;
        let board: Board = board.parse().map_err(|e| format!("{e}"))?;
        let position =
            position_from_otn(rules, &board, roles.player(side)).map_err(|e| e.to_string())?;
        let moves = moves
            .split(',')
            .map(|word| {
                let mv = rules
                    .read_move(word)
                    .map_err(|e| format!("`{word}`: {e}"))?;
                position
                    .check_move(mv)
                    .map_err(|e| format!("`{word}`: {e}"))?;
                Ok(mv)
            })
            .collect::<Result<Vec<Move>, String>>()?;
        Ok(Puzzle {
            position,
            depth,
            end,
            moves,
            source: source.to_string(),
        })
    }
}

/// A move as a puzzle file writes it: `e10-c10`.
pub fn move_word(rules: &Rules, mv: Move) -> String {
    rules.format_move(mv, Notation::Algebraic).replace(' ', "-")
}

/// Reads a puzzle file's text.
///
/// # Errors
///
/// The first line that cannot be read, named by its number; a file with no puzzle.
pub fn read_puzzles(rules: &Rules, text: &str) -> Result<Vec<Puzzle>, String> {
    let mut puzzles = Vec::new();
    for (number, line) in content_lines(text) {
        let puzzle = Puzzle::from_line(rules, line).map_err(|e| format!("line {number}: {e}"))?;
        puzzles.push(puzzle);
    }
    if puzzles.is_empty() {
        return Err("no puzzle in the file".to_string());
    }
    Ok(puzzles)
}
