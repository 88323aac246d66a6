//! The analysis as the window shows it beside the board: every line of the running (or
//! last) analysis with its win chance, in both notations, brought up to date at each
//! depth; and the live analysis that follows the game, starting again on each new
//! position until it is stopped.

use aim::{Progress, SearchResult};
use hnefatafl_core::{Game, Move, Notation};

use crate::lang::{Key, Message};
use crate::thinker::Purpose;

use super::Session;

/// The lines of the analysis of one position, for the window's pane and the
/// terminal's block of a live analysis.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pane {
    /// The position they are for: its ply and key.
    at: Option<(usize, u64)>,
    /// The deepest finished depth of the first line.
    depth: u32,
    /// Each line's text, best first.
    lines: Vec<String>,
    /// The terminal's block of a live analysis: each line's latest depth as text, in
    /// the order of the lines.
    block: Vec<String>,
    /// Where in the output since the last poll each finished depth of a live analysis
    /// is, with the block as it stood after it.
    marks: Vec<(usize, Vec<String>)>,
}

impl Pane {
    /// Sets line `line`'s entry of the live block to `text`, the output's line `at`.
    pub(super) fn depth_block(&mut self, line: usize, text: &str, at: usize) {
        if self.block.len() <= line {
            self.block.resize(line + 1, String::new());
        }
        text.clone_into(&mut self.block[line]);
        self.marks.push((at, self.block.clone()));
    }

    /// Forgets the marks of the output before.
    pub(super) fn clear_marks(&mut self) {
        self.marks.clear();
    }

    /// The marks of the output since [`Pane::clear_marks`], in order.
    pub(super) fn take_marks(&mut self) -> Vec<(usize, Vec<String>)> {
        std::mem::take(&mut self.marks)
    }
}

/// The ply and key of a game's position.
fn place(game: &Game) -> (usize, u64) {
    (game.ply(), game.position().hash())
}

impl Session {
    /// The analysis pane's lines, when they are for the position in play: a heading
    /// with the depth and the side to move, whose win chances follow (`Depth 7,
    /// attackers:`), then one entry a move (`1. f4-f5`, `m 5 3 5 2`, `52% (+0.32)`).
    pub(crate) fn analysis_pane(&self) -> Vec<String> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        if self.pane.at != Some(place(game)) || self.pane.lines.is_empty() {
            return Vec::new();
        }
        let heading = self.text(&Message::new(
            Key::XAnalysisDepth,
            [
                self.pane.depth.to_string(),
                self.chance_side(game.side_to_move()),
            ],
        ));
        std::iter::once(heading)
            .chain(
                self.pane
                    .lines
                    .iter()
                    .filter(|line| !line.is_empty())
                    .cloned(),
            )
            .collect()
    }

    /// One entry of the pane, on three rows, narrow enough for the move list: its
    /// number and move in the board's names (`1. d6-c6`), the move as `m` takes it in
    /// numbers (`m 3 1 2 1`), and the side to move's win chance with the score.
    fn pane_line(&self, game: &Game, number: usize, best: Move, result: PaneFigures) -> String {
        let rules = game.rules();
        let percent = format!("{:.0}", (result.chance * 100.0).clamp(0.0, 100.0));
        let named = self.text(&Message::new(
            Key::XAnalysisLine,
            [
                number.to_string(),
                rules
                    .format_move(best, Notation::Algebraic)
                    .replace(' ', "-"),
            ],
        ));
        let numbers = format!("m {}", rules.format_move(best, Notation::Numeric));
        let figures = self.text(&Message::new(
            Key::XAnalysisFigures,
            [percent, result.score],
        ));
        // The pane wraps its text at line ends.
        format!("{named}\n{numbers}\n{figures}")
    }

    /// A depth of a running analysis: its line in the pane, and the arrow on the first
    /// line's best move so far.
    pub(super) fn pane_progress(&mut self, progress: &Progress) {
        let Some(game) = &self.game else { return };
        let Some(&best) = progress.pv.first() else {
            return;
        };
        let at = place(game);
        let figures = PaneFigures {
            chance: progress.win_chance(),
            score: progress.score.to_string(),
        };
        let text = self.pane_line(game, progress.line + 1, best, figures);
        if self.pane.at != Some(at) {
            self.pane = Pane {
                at: Some(at),
                marks: std::mem::take(&mut self.pane.marks),
                ..Pane::default()
            };
        }
        if progress.line == 0 {
            self.pane.depth = progress.depth;
            self.analysis = Some((best, at.0, at.1));
        }
        if self.pane.lines.len() <= progress.line {
            self.pane.lines.resize(progress.line + 1, String::new());
        }
        self.pane.lines[progress.line] = text;
    }

    /// A finished analysis: the pane holds its lines, best first.
    pub(super) fn pane_done(&mut self, result: &SearchResult, others: &[SearchResult]) {
        let Some(game) = &self.game else { return };
        let lines: Vec<String> = std::iter::once(result)
            .chain(others)
            .enumerate()
            .filter_map(|(index, line)| {
                let figures = PaneFigures {
                    chance: line.win_chance(),
                    score: line.score.to_string(),
                };
                Some(self.pane_line(game, index + 1, line.best?, figures))
            })
            .collect();
        // The live block and its marks stay: the depths polled with the result are
        // still to be shown.
        self.pane.at = Some(place(game));
        self.pane.depth = result.depth;
        self.pane.lines = lines;
    }

    /// After the position changed (a move, the computer's or the other player's, a move
    /// taken back, a new game): a live analysis starts again on the new position, unless
    /// the computer is to move (it starts after the computer's move) or the game is over.
    pub(super) fn resume_live(&mut self) {
        let Some(limits) = self.live.clone() else {
            return;
        };
        if self.thinker.is_busy() || self.computer_will_move() {
            return;
        }
        let Some(game) = &self.game else { return };
        if game.outcome().is_some() || self.refuse_help_at_play().is_err() {
            self.live = None;
            return;
        }
        let game = game.clone();
        self.clear_pane();
        self.thinker
            .start(&game, limits, Purpose::Analyse, self.notify.clone());
    }

    /// Empties the pane, for an analysis that starts: the lines of the one before are
    /// not its own.
    /// The marks of the output not yet polled stay.
    pub(super) fn clear_pane(&mut self) {
        self.pane = Pane {
            marks: std::mem::take(&mut self.pane.marks),
            ..Pane::default()
        };
    }
}

/// What a pane line says of its move.
struct PaneFigures {
    chance: f64,
    score: String,
}
