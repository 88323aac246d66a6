//! The trainer's positions ([`Dataset`]): each position's inputs stored once, its images
//! under the board's symmetries made when a minibatch reads them, and the weights that
//! balance each side's wins ([`ResultWeights`]).

use crate::selfplay::{GameRecord, Sample};
use aim::nnue::PIECE_SCALE;
use hnefatafl_core::Player;
use hnefatafl_core::random::SplitMix;
use std::borrow::Borrow;

/// The training positions, flattened, and the maps of the inputs that make their images.
///
/// A sample is a position seen through one image: sample `s` is position
/// `s / images` under image `s % images` (image 0 the position itself, image `k` the map
/// `k - 1`), the order in which images used to be stored one after another. Only the
/// positions are stored; an image's inputs are mapped when a minibatch reads them.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Every position's inputs, one after another.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs` (one more entry at the end).
    starts: Vec<u32>,
    /// The side to move of each position.
    sides: Vec<Player>,
    /// The target winning chance of player 0 in each position.
    targets: Vec<f32>,
    /// What the network adds to, in each position: a logit of player 0's winning chance
    /// (the classic evaluation's, see [`crate::trainer::Trainer::classic_share`]), 0
    /// without one.
    bases: Vec<f32>,
    /// Player 0's result in each position's game, which picks its weight.
    results: Vec<i8>,
    /// How much a position counts in the loss by its game's result.
    weights: ResultWeights,
    /// The maps of the inputs that make each position's images after itself.
    maps: Vec<Vec<u16>>,
}

/// How much a position counts in the loss by its game's result: player 1's wins, draws,
/// player 0's wins. Balancing by result gives each side's wins the same total weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResultWeights(pub [f32; 3]);

impl Default for ResultWeights {
    fn default() -> Self {
        ResultWeights::EVEN
    }
}

/// Games and positions of each result, counted as games come: player 1's wins, draws,
/// player 0's wins.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games of each result.
    pub games: [usize; 3],
    /// Positions of each result.
    pub positions: [usize; 3],
    /// Positions of each result summed in `f32` game by game, as the weights were always
    /// computed: over 2^24 positions the sum rounds, and the same rounding keeps earlier
    /// runs' weights bit for bit.
    summed: [f32; 3],
}

/// The index of a result in the arrays of [`Tally`] and [`ResultWeights`].
fn result_index(result: i8) -> usize {
    (result.clamp(-1, 1) + 1) as usize
}

impl Tally {
    /// Counts a game.
    pub fn add(&mut self, game: &GameRecord) {
        let index = result_index(game.result);
        self.games[index] += 1;
        self.positions[index] += game.samples.len();
        self.summed[index] += game.samples.len() as f32;
    }

    /// The tally of these games.
    pub fn of<'a>(games: impl IntoIterator<Item = &'a GameRecord>) -> Tally {
        let mut tally = Tally::default();
        for game in games {
            tally.add(game);
        }
        tally
    }

    /// Games counted.
    pub fn all_games(&self) -> usize {
        self.games.iter().sum()
    }
}

impl ResultWeights {
    /// Every position alike.
    pub const EVEN: ResultWeights = ResultWeights([1.0; 3]);

    /// The most a position of the rarer side's wins is made to count.
    pub const MOST: f32 = 4.0;

    /// The weight of a position of a game with player 0's result `result`.
    pub fn of(&self, result: i8) -> f32 {
        self.0[result_index(result)]
    }

    /// Weights under which the positions of player 0's won games and of player 1's count
    /// alike in all (each side's at most [`ResultWeights::MOST`], the rarer one's wins being
    /// too few to stand for many more); draws count 1. Even where a side won no game.
    pub fn balancing(games: &[GameRecord]) -> ResultWeights {
        ResultWeights::balancing_tally(&Tally::of(games))
    }

    /// [`ResultWeights::balancing`] from the games' tally.
    pub fn balancing_tally(tally: &Tally) -> ResultWeights {
        let (won0, won1) = (tally.summed[2], tally.summed[0]);
        if won0 == 0.0 || won1 == 0.0 {
            return ResultWeights::EVEN;
        }
        let decisive = won0 + won1;
        let weight = |won: f32| (decisive / (2.0 * won)).min(ResultWeights::MOST);
        ResultWeights([weight(won1), 1.0, weight(won0)])
    }
}

impl Dataset {
    /// The positions of these games. The target blends the search's score, as a winning
    /// chance `sigmoid(score / PIECE_SCALE)`, with the game's result: `score_share` of the
    /// first and the rest of the second. `base` gives each position the logit the network
    /// adds to (player 0's view; 0 for a network that scores alone).
    ///
    /// # Errors
    ///
    /// More inputs than 32-bit offsets reach (see [`Dataset::add_game`]).
    pub fn from_games<G: Borrow<GameRecord>>(
        games: impl IntoIterator<Item = G>,
        score_share: f32,
        base: impl FnMut(&Sample) -> f32,
    ) -> Result<Self, String> {
        Dataset::weighted(games, score_share, ResultWeights::EVEN, base)
    }

    /// The positions of these games as [`Dataset::from_games`] makes them, each counting
    /// in the loss by its game's result (`weights`). Games given by value are dropped as
    /// soon as their positions are in.
    ///
    /// # Errors
    ///
    /// More inputs than 32-bit offsets reach (see [`Dataset::add_game`]).
    pub fn weighted<G: Borrow<GameRecord>>(
        games: impl IntoIterator<Item = G>,
        score_share: f32,
        weights: ResultWeights,
        mut base: impl FnMut(&Sample) -> f32,
    ) -> Result<Self, String> {
        let mut data = Dataset::default();
        for game in games {
            data.add_game(game.borrow(), score_share, &mut base)?;
        }
        data.weights = weights;
        Ok(data)
    }

    /// Adds a game's positions, with targets and bases as [`Dataset::from_games`] makes
    /// them; each counts as [`Dataset::set_weights`] says.
    ///
    /// # Errors
    ///
    /// More inputs in all than a 32-bit offset reaches (over 100 million positions of
    /// copenhagen, some 8 GB of inputs): the positions' offsets are 32-bit to save memory.
    pub fn add_game(
        &mut self,
        game: &GameRecord,
        score_share: f32,
        mut base: impl FnMut(&Sample) -> f32,
    ) -> Result<(), String> {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let result = (f32::from(game.result) + 1.0) / 2.0;
        for sample in &game.samples {
            let Sample {
                side,
                score,
                inputs,
            } = sample;
            let end = u32::try_from(self.inputs.len() + inputs.len()).map_err(|_| {
                format!(
                    "more than {} inputs in all ({} positions): train on fewer",
                    u32::MAX,
                    self.positions()
                )
            })?;
            self.bases.push(base(sample));
            let chance = sigmoid(f32::from(*score) / f32::from(PIECE_SCALE));
            self.inputs.extend_from_slice(inputs);
            self.starts.push(end);
            self.sides.push(*side);
            self.targets
                .push(score_share * chance + (1.0 - score_share) * result);
            self.results.push(game.result);
        }
        Ok(())
    }

    /// Sets how much each position counts in the loss by its game's result.
    pub fn set_weights(&mut self, weights: ResultWeights) {
        self.weights = weights;
    }

    /// The data seen through its images under each map of the inputs (a symmetry of the
    /// board, see [`crate::symmetry::input_maps`]) after itself, with the same side to
    /// move and target: `maps.len() + 1` samples a position, none of them stored.
    pub fn with_images(mut self, maps: Vec<Vec<u16>>) -> Dataset {
        self.maps = maps;
        self
    }

    /// Samples: positions times images.
    pub fn len(&self) -> usize {
        self.positions() * self.images()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.sides.is_empty()
    }

    /// Positions stored.
    pub fn positions(&self) -> usize {
        self.sides.len()
    }

    /// Images of each position, itself included.
    pub fn images(&self) -> usize {
        self.maps.len() + 1
    }

    /// The most inputs on in one position (pieces on the board).
    pub fn most_inputs(&self) -> usize {
        self.starts
            .windows(2)
            .map(|pair| (pair[1] - pair[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The stored inputs of a position.
    pub(crate) fn position_inputs(&self, position: usize) -> &[u16] {
        &self.inputs[self.starts[position] as usize..self.starts[position + 1] as usize]
    }

    /// Appends the inputs of sample `sample` to `out`, in the order of its position's:
    /// mapped by its image's map. Gives the position.
    pub(crate) fn sample_inputs(&self, sample: usize, out: &mut Vec<u16>) -> usize {
        let (position, image) = (sample / self.images(), sample % self.images());
        let inputs = self.position_inputs(position);
        match image.checked_sub(1) {
            None => out.extend_from_slice(inputs),
            Some(map) => {
                let map = &self.maps[map];
                out.extend(inputs.iter().map(|&input| map[usize::from(input)]));
            }
        }
        position
    }

    /// The side to move, target, base and weight of a position.
    pub(crate) fn labels(&self, position: usize) -> (Player, f32, f32, f32) {
        (
            self.sides[position],
            self.targets[position],
            self.bases[position],
            self.weights.of(self.results[position]),
        )
    }

    /// The weight of each sample, in order.
    pub(crate) fn sample_weights(&self) -> impl Iterator<Item = f32> + '_ {
        (0..self.len()).map(|sample| self.weights.of(self.results[sample / self.images()]))
    }

    /// The mean of the targets, weighted: the loss of always answering it is the data's
    /// spread.
    pub fn mean_target(&self) -> f32 {
        let sum: f32 = (0..self.len())
            .map(|sample| {
                let (_, target, _, weight) = self.labels(sample / self.images());
                target * weight
            })
            .sum();
        sum / self.sample_weights().sum::<f32>().max(f32::MIN_POSITIVE)
    }
}

/// The logistic function.
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The samples of an epoch in a shuffled order, the same for the same seed and epoch.
/// (`u32`, half the memory of `usize`: a dataset has fewer samples, see
/// [`crate::training::train`].)
pub fn epoch_order(len: u32, seed: u64, epoch: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len).collect();
    let mut random = SplitMix::new(seed ^ u64::from(epoch).wrapping_mul(0xA24B_AED4_963E_E407));
    for i in (1..order.len()).rev() {
        order.swap(i, random.below(i + 1));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::inputs_of;
    use aim::nnue::Layout;
    use hnefatafl_core::Rules;

    #[test]
    fn each_position_is_followed_by_its_images() {
        let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
        let layout = Layout::of(&rules);
        let sample = |position: &hnefatafl_core::Position, score| Sample {
            side: position.side_to_move(),
            score,
            inputs: inputs_of(&layout, position),
        };
        let opening = hnefatafl_core::random::random_opening(&rules, 6, 2);
        let samples = vec![
            sample(&rules.start_position(), 100),
            sample(opening.position(), -300),
        ];
        let games = [GameRecord {
            number: 0,
            result: 1,
            samples: samples.clone(),
        }];
        let data = Dataset::from_games(&games, 0.5, |_| 0.0).expect("a dataset");
        let maps = crate::symmetry::input_maps(&rules, true);
        let images = data.clone().with_images(maps.clone());
        assert_eq!((images.len(), images.positions()), (2 * 8, 2));
        let inputs_of_sample = |sample: usize| {
            let mut inputs = Vec::new();
            let position = images.sample_inputs(sample, &mut inputs);
            (position, inputs)
        };
        let sorted = |inputs: &[u16]| {
            let mut inputs = inputs.to_vec();
            inputs.sort_unstable();
            inputs
        };
        for image in 0..8 {
            // The start position is its own image; the opening's images differ from it
            // (six random plies), with as many pieces.
            let (position, start) = inputs_of_sample(image);
            assert_eq!(position, 0);
            assert_eq!(sorted(&start), sorted(&samples[0].inputs));
            let (position, moved) = inputs_of_sample(8 + image);
            assert_eq!(position, 1);
            assert_eq!(moved.len(), samples[1].inputs.len());
            // Image k is map k - 1, piece by piece in the position's order.
            let expected: Vec<u16> = match image {
                0 => samples[1].inputs.clone(),
                _ => samples[1]
                    .inputs
                    .iter()
                    .map(|&i| maps[image - 1][usize::from(i)])
                    .collect(),
            };
            assert_eq!(moved, expected);
        }
        assert_eq!(images.labels(1), data.labels(1));
        let distinct: std::collections::BTreeSet<Vec<u16>> = (8..16)
            .map(|image| sorted(&inputs_of_sample(image).1))
            .collect();
        assert!(
            distinct.len() > 1,
            "the images of a position after six plies"
        );
        let plain = data.with_images(Vec::new());
        assert_eq!(plain.len(), 2);
        let mut inputs = Vec::new();
        plain.sample_inputs(1, &mut inputs);
        assert_eq!(inputs, samples[1].inputs);
    }

    #[test]
    fn games_given_by_value_make_the_same_data_as_games_lent() {
        let game = |number: u32, result: i8, inputs: Vec<u16>| GameRecord {
            number,
            result,
            samples: vec![Sample {
                side: Player::One,
                score: 40,
                inputs,
            }],
        };
        let games = vec![game(0, 1, vec![1, 2]), game(1, -1, vec![3])];
        let weights = ResultWeights([2.0, 1.0, 0.5]);
        let lent = Dataset::weighted(&games, 0.3, weights, |_| 0.25).expect("lent");
        let given = Dataset::weighted(games, 0.3, weights, |_| 0.25).expect("given");
        assert_eq!(lent.inputs, given.inputs);
        assert_eq!(lent.starts, [0, 2, 3]);
        assert_eq!(given.labels(1), (Player::One, lent.targets[1], 0.25, 2.0));
        assert_eq!(given.labels(0).3, 0.5);
    }
}
