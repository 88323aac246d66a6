//! The network behind the search's [`Evaluator`] interface, updated incrementally: its
//! accumulator is pushed and popped with every move the search makes and takes back.

use hnefatafl_core::{Position, Undo};

use super::network::{Block, Network};
use crate::evaluator::Evaluator;

/// Accumulators kept ready without allocating: more than the deepest line a search makes
/// (its depth limit, the quiescence plies and the root's), so the stack never grows.
const STACK: usize = crate::limits::MAX_DEPTH as usize + 32;

/// A network `B` blocks wide as a search thread's evaluation: the first layer's sums per
/// ply of the thread's line, of the network's own width (so a narrow network copies and
/// updates no more than it has). A move copies the sums below it and updates the copy (a
/// few rows of weights); taking the move back drops it, so nothing is recomputed per node.
pub(crate) struct NetworkEvaluator<'a, const B: usize> {
    network: &'a Network,
    stack: Vec<[Block; B]>,
}

impl<'a, const B: usize> NetworkEvaluator<'a, B> {
    /// An evaluator of this network, its stack made once.
    ///
    /// # Panics
    ///
    /// If the network is not `B` blocks wide (the caller picks `B` with `by_width!`).
    pub(crate) fn new(network: &'a Network) -> NetworkEvaluator<'a, B> {
        assert_eq!(
            network.blocks(),
            B,
            "a network's evaluator of its own width"
        );
        NetworkEvaluator {
            network,
            stack: Vec::with_capacity(STACK),
        }
    }
}

impl<const B: usize> Evaluator for NetworkEvaluator<'_, B> {
    fn reset(&mut self, position: &Position) {
        self.stack.clear();
        self.stack.push(self.network.refresh_sums::<B>(position));
    }

    #[inline]
    fn on_make(&mut self, after: &Position, undo: &Undo) {
        let sums = match self.stack.last() {
            Some(top) => {
                let mut sums = *top;
                self.network.play_sums(&mut sums, after, undo);
                sums
            }
            None => self.network.refresh_sums::<B>(after),
        };
        self.stack.push(sums);
    }

    #[inline]
    fn on_unmake(&mut self, _before: &Position, _undo: &Undo) {
        self.stack.pop();
    }

    #[inline]
    fn evaluate(&mut self, position: &Position) -> i32 {
        let side = position.side_to_move();
        match self.stack.last() {
            Some(sums) => self.network.evaluate_sums(sums, side),
            None => self
                .network
                .evaluate_sums(&self.network.refresh_sums::<B>(position), side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Layout;
    use hnefatafl_core::Rules;

    #[test]
    fn the_stack_follows_makes_and_unmakes() {
        let rules = Rules::parse(include_bytes!("../../../data/rules/tablut")).expect("rules");
        let mut weights = Network::zero(Layout::of(&rules)).weights();
        for (i, w) in weights.input.iter_mut().enumerate() {
            *w = (i % 37) as i16 - 18;
        }
        weights.output.iter_mut().for_each(|w| *w = 5);
        let network = Network::new("t", Layout::of(&rules), &weights).expect("lengths");
        let mut evaluator = NetworkEvaluator::<1>::new(&network);
        let mut position = rules.start_position();
        evaluator.reset(&position);
        let start = evaluator.evaluate(&position);
        let mut undos = Vec::new();
        for _ in 0..6 {
            let mv = position.moves().next().expect("a move");
            let undo = position.play_unchecked(mv);
            evaluator.on_make(&position, &undo);
            let fresh = network.evaluate(&network.refresh(&position), position.side_to_move());
            assert_eq!(evaluator.evaluate(&position), fresh);
            undos.push(undo);
        }
        while let Some(undo) = undos.pop() {
            position.take_back(&undo);
            evaluator.on_unmake(&position, &undo);
        }
        assert_eq!(evaluator.evaluate(&position), start);
        assert_eq!(evaluator.stack.len(), 1);
    }
}
