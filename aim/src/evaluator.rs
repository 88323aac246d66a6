//! The one interface between the search and an evaluation: [`Evaluator`], which the
//! hand-written evaluation (`Classic`) implements and a learned network can implement too.

use crate::classic::{EvalCache, Tables};
use hnefatafl_core::{Position, Undo};

/// Which evaluation a search scores its leaves with ([`crate::Limits::evaluation`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-written evaluation, compiled once per rule file ([`crate::EvalWeights`]).
    #[default]
    Classic,
    /// A learned network ([`crate::nnue`]): the engine's ([`crate::Engine::set_network`]);
    /// without one that fits the rules, the search uses the classic evaluation.
    Network,
}

impl Evaluation {
    /// The key of the limit word and knob that choose an evaluation: `eval=classic`,
    /// `eval=network`.
    pub const KEY: &'static str = "eval";

    /// Every evaluation, in the order its words are listed.
    pub const ALL: [Evaluation; 2] = [Evaluation::Classic, Evaluation::Network];

    /// The word that names it after [`Evaluation::KEY`]: `classic` or `network`.
    ///
    /// ```
    /// use aim::Evaluation;
    /// assert_eq!(Evaluation::from_word("network"), Some(Evaluation::Network));
    /// assert_eq!(Evaluation::Classic.word(), "classic");
    /// assert_eq!(Evaluation::from_word("neural"), None);
    /// ```
    pub fn word(self) -> &'static str {
        match self {
            Evaluation::Classic => "classic",
            Evaluation::Network => "network",
        }
    }

    /// The evaluation a word names ([`Evaluation::word`]), in any case.
    pub fn from_word(word: &str) -> Option<Evaluation> {
        Evaluation::ALL
            .into_iter()
            .find(|evaluation| evaluation.word().eq_ignore_ascii_case(word))
    }
}

/// An evaluation as the search sees it: one value per search thread, told of every move
/// the search makes and takes back, so that an evaluation that keeps state along the line
/// (a network's accumulator) can update it a move at a time instead of from scratch.
///
/// The search is generic over its evaluator (monomorphised, no `dyn` in the hot path), so
/// an evaluator whose hooks do nothing, as the hand-written evaluation's, costs nothing for
/// them.
///
/// The calls a search thread makes, in order:
/// - [`Evaluator::reset`] once with the root position, before anything else;
/// - for every move played on the thread's position, [`Evaluator::on_make`] right after
///   it, and [`Evaluator::on_unmake`] right after it is taken back: the calls nest like a
///   stack (a push and a pop), the innermost move taken back first;
/// - [`Evaluator::evaluate`] (or [`Evaluator::evaluate_with_threat`]) on the thread's
///   current position, between those calls, as often as the search needs.
///
/// A pass of the null-move search ([`crate::Tuning::null_move`]) calls no hook: it moves
/// no piece, only the side to move changes, which `evaluate` reads from the position.
pub trait Evaluator {
    /// Starts over at `position`, the root of a search: forgets every move made before.
    fn reset(&mut self, position: &Position);

    /// The move of `undo` was just played: `after` is the position it made. The moved piece
    /// stands on the move's destination in `after`; [`Undo::captures`] gives the squares
    /// and the types of the pieces it captured, which `after` no longer shows.
    #[inline]
    fn on_make(&mut self, after: &Position, undo: &Undo) {
        let _ = (after, undo);
    }

    /// The move of `undo` (the last one [`Evaluator::on_make`] was told of and not yet
    /// taken back) was just taken back: `before` is the position before it again.
    #[inline]
    fn on_unmake(&mut self, before: &Position, undo: &Undo) {
        let _ = (before, undo);
    }

    /// The score of `position` (the thread's current position) from the side to move's
    /// point of view, in hundredths of an ordinary piece, well inside
    /// ±[`crate::Score::MATE`]'s decisive range (the search adds game ends itself).
    fn evaluate(&mut self, position: &Position) -> i32;

    /// [`Evaluator::evaluate`], and whether the side to move may be able to capture a
    /// piece with its next move, for the quiescence search ([`crate::Tuning::quiescence`])
    /// to know when looking at captures can change anything. `true` when the evaluator
    /// cannot tell, as by default: the quiescence search then looks at the captures itself.
    #[inline]
    fn evaluate_with_threat(&mut self, position: &Position) -> (i32, bool) {
        (self.evaluate(position), true)
    }
}

/// The hand-written evaluation behind [`Evaluator`]: the terms of the rules' compiled
/// tables, through the search thread's memo of evaluations. It keeps no state along the
/// line, so its hooks are the default ones, which do nothing.
pub(crate) struct Classic<'a> {
    tables: &'a Tables,
    memo: &'a mut EvalCache,
}

impl<'a> Classic<'a> {
    /// The evaluation of these tables, through this memo.
    pub(crate) fn new(tables: &'a Tables, memo: &'a mut EvalCache) -> Classic<'a> {
        Classic { tables, memo }
    }
}

impl Evaluator for Classic<'_> {
    #[inline]
    fn reset(&mut self, _position: &Position) {}

    #[inline]
    fn evaluate(&mut self, position: &Position) -> i32 {
        self.memo.evaluate_with_threat(self.tables, position).0
    }

    #[inline]
    fn evaluate_with_threat(&mut self, position: &Position) -> (i32, bool) {
        self.memo.evaluate_with_threat(self.tables, position)
    }
}

/// A network trained on top of the classic evaluation: a leaf's score is the network's
/// plus `share` percent of the classic evaluation's. The classic evaluation also tells the
/// quiescence search when the side to move has no capture, which the network cannot.
pub(crate) struct Blend<'a, const B: usize> {
    network: crate::nnue::NetworkEvaluator<'a, B>,
    classic: Classic<'a>,
    share: i32,
}

impl<'a, const B: usize> Blend<'a, B> {
    /// The two evaluations, with `share` percent of the classic one's.
    pub(crate) fn new(
        network: crate::nnue::NetworkEvaluator<'a, B>,
        classic: Classic<'a>,
        share: i32,
    ) -> Blend<'a, B> {
        Blend {
            network,
            classic,
            share,
        }
    }
}

impl<const B: usize> Evaluator for Blend<'_, B> {
    #[inline]
    fn reset(&mut self, position: &Position) {
        self.network.reset(position);
    }

    #[inline]
    fn on_make(&mut self, after: &Position, undo: &Undo) {
        self.network.on_make(after, undo);
    }

    #[inline]
    fn on_unmake(&mut self, before: &Position, undo: &Undo) {
        self.network.on_unmake(before, undo);
    }

    #[inline]
    fn evaluate(&mut self, position: &Position) -> i32 {
        self.evaluate_with_threat(position).0
    }

    #[inline]
    fn evaluate_with_threat(&mut self, position: &Position) -> (i32, bool) {
        let (classic, threat) = self.classic.evaluate_with_threat(position);
        let network = self.network.evaluate(position);
        (network + classic * self.share / 100, threat)
    }
}
