//! A small trainer for the learned evaluation's network ([`aim::nnue`]): the same shape in
//! `f32`, Adam on minibatches, a loss on the winning chance, and quantisation to the
//! network's integer weights.
//!
//! Written here rather than with candle, burn or PyTorch: the network is one sparse layer
//! and a dot product, so forward and backward passes are a few loops; the first layer's
//! gradient touches only the rows of the pieces on the board. A framework would add a
//! large dependency (or a Python toolchain and a file conversion) for no speed a model
//! this small would notice on a CPU.

use crate::selfplay::{GameRecord, Sample};
use aim::nnue::{ACTIVATION_SCALE, HIDDEN, Layout, Network, OUTPUT_SCALE, PIECE_SCALE, Weights};
use hnefatafl_core::Player;
use hnefatafl_core::random::SplitMix;

/// Adam's decay rates and its guard against division by zero.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The training positions, flattened.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Every position's inputs, one after another.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs` (one more entry at the end).
    /// (`usize`, not `u32`: twenty million positions in eight images each pass four
    /// billion inputs.)
    starts: Vec<usize>,
    /// The side to move of each position.
    sides: Vec<Player>,
    /// The target winning chance of player 0 in each position.
    targets: Vec<f32>,
    /// What the network adds to, in each position: a logit of player 0's winning chance
    /// (the classic evaluation's, see [`Trainer::classic_share`]), 0 without one.
    bases: Vec<f32>,
    /// How much each position counts in the loss (see [`ResultWeights`]).
    weights: Vec<f32>,
}

/// How much a position counts in the loss by its game's result: player 1's wins, draws,
/// player 0's wins. Balancing by result gives each side's wins the same total weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResultWeights(pub [f32; 3]);

impl ResultWeights {
    /// Every position alike.
    pub const EVEN: ResultWeights = ResultWeights([1.0; 3]);

    /// The most a position of the rarer side's wins is made to count.
    pub const MOST: f32 = 4.0;

    /// The weight of a position of a game with player 0's result `result`.
    pub fn of(&self, result: i8) -> f32 {
        self.0[(result.clamp(-1, 1) + 1) as usize]
    }

    /// Weights under which the positions of player 0's won games and of player 1's count
    /// alike in all (each side's at most [`ResultWeights::MOST`], the rarer one's wins being
    /// too few to stand for many more); draws count 1. Even where a side won no game.
    pub fn balancing(games: &[GameRecord]) -> ResultWeights {
        let positions = |result: i8| -> f32 {
            games
                .iter()
                .filter(|game| game.result == result)
                .map(|game| game.samples.len() as f32)
                .sum()
        };
        let (won0, won1) = (positions(1), positions(-1));
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
    pub fn from_games<'a>(
        games: impl IntoIterator<Item = &'a GameRecord>,
        score_share: f32,
        base: impl FnMut(&Sample) -> f32,
    ) -> Self {
        Dataset::weighted(games, score_share, ResultWeights::EVEN, base)
    }

    /// The positions of these games as [`Dataset::from_games`] makes them, each counting
    /// in the loss by its game's result (`weights`).
    pub fn weighted<'a>(
        games: impl IntoIterator<Item = &'a GameRecord>,
        score_share: f32,
        weights: ResultWeights,
        mut base: impl FnMut(&Sample) -> f32,
    ) -> Self {
        let mut data = Dataset {
            starts: vec![0],
            ..Dataset::default()
        };
        for game in games {
            let result = (f32::from(game.result) + 1.0) / 2.0;
            for sample in &game.samples {
                let Sample {
                    side,
                    score,
                    inputs,
                } = sample;
                data.bases.push(base(sample));
                let chance = sigmoid(f32::from(*score) / f32::from(PIECE_SCALE));
                data.inputs.extend_from_slice(inputs);
                data.starts.push(data.inputs.len());
                data.sides.push(*side);
                data.targets
                    .push(score_share * chance + (1.0 - score_share) * result);
                data.weights.push(weights.of(game.result));
            }
        }
        data
    }

    /// The data with, after each position, its image under each map of the inputs (a
    /// symmetry of the board, see [`crate::symmetry::input_maps`]), with the same side to
    /// move and target: `maps.len() + 1` times the positions.
    pub fn with_images(&self, maps: &[Vec<u16>]) -> Dataset {
        let mut data = Dataset {
            starts: vec![0],
            ..Dataset::default()
        };
        for index in 0..self.len() {
            let inputs = self.inputs_of(index);
            data.inputs.extend_from_slice(inputs);
            data.starts.push(data.inputs.len());
            for map in maps {
                data.inputs
                    .extend(inputs.iter().map(|&input| map[usize::from(input)]));
                data.starts.push(data.inputs.len());
            }
            for _ in 0..=maps.len() {
                data.sides.push(self.sides[index]);
                data.targets.push(self.targets[index]);
                data.bases.push(self.bases[index]);
                data.weights.push(self.weights[index]);
            }
        }
        data
    }

    /// Positions.
    pub fn len(&self) -> usize {
        self.sides.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.sides.is_empty()
    }

    /// The most inputs on in one position (pieces on the board).
    pub fn most_inputs(&self) -> usize {
        self.starts
            .windows(2)
            .map(|pair| pair[1] - pair[0])
            .max()
            .unwrap_or(0)
    }

    fn inputs_of(&self, index: usize) -> &[u16] {
        &self.inputs[self.starts[index]..self.starts[index + 1]]
    }

    /// The mean of the targets, weighted: the loss of always answering it is the data's
    /// spread.
    pub fn mean_target(&self) -> f32 {
        let sum: f32 = self
            .targets
            .iter()
            .zip(&self.weights)
            .map(|(t, w)| t * w)
            .sum();
        sum / self.weights.iter().sum::<f32>().max(f32::MIN_POSITIVE)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network in `f32`, with Adam's moments: all parameters in one list, the first layer
/// (one row of [`HIDDEN`] per input), its biases, the output weights of player 0 to move
/// then player 1, the two output biases.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    inputs: usize,
    /// The parameters.
    pub params: Vec<f32>,
    /// Adam's first moments.
    pub m: Vec<f32>,
    /// Adam's second moments.
    pub v: Vec<f32>,
    /// Adam steps taken.
    pub steps: u64,
    /// The first layer's weights stay within this, so that the quantised accumulator
    /// cannot overflow with every piece on the board.
    clip: f32,
}

impl Trainer {
    /// A network of small random weights for `inputs` inputs; the first layer's weights
    /// kept within what `most_pieces` pieces can sum without overflowing an `i16`.
    pub fn new(inputs: usize, most_pieces: usize, seed: u64) -> Trainer {
        let mut random = SplitMix::new(seed);
        let mut uniform = |range: f32| {
            let unit = (random.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * range
        };
        // The last parameter: the share of the base (the classic evaluation) in the logit.
        let count = inputs * HIDDEN + HIDDEN + 2 * HIDDEN + 3;
        let mut params = vec![0.0; count];
        let scale = 1.0 / (most_pieces.max(1) as f32).sqrt();
        for (index, param) in params.iter_mut().enumerate() {
            *param = if index < inputs * HIDDEN {
                uniform(scale)
            } else if index < (inputs + 1) * HIDDEN {
                0.25
            } else if index < (inputs + 3) * HIDDEN {
                uniform(1.0 / (HIDDEN as f32).sqrt())
            } else if index == count - 1 {
                1.0
            } else {
                0.0
            };
        }
        let bound = 32_000.0 / (f32::from(ACTIVATION_SCALE) * (most_pieces + 1) as f32);
        Trainer {
            inputs,
            m: vec![0.0; count],
            v: vec![0.0; count],
            params,
            steps: 0,
            clip: bound.min(8.0),
        }
    }

    /// A trainer from saved parameters and moments (see [`Trainer::to_bytes`]).
    ///
    /// # Errors
    ///
    /// Bytes of another shape or cut short.
    pub fn from_bytes(bytes: &[u8], inputs: usize, most_pieces: usize) -> Result<Trainer, String> {
        let mut trainer = Trainer::new(inputs, most_pieces, 0);
        let count = trainer.params.len();
        let expected = 8 + 8 + 3 * 4 * count;
        if bytes.len() != expected || &bytes[..8] != b"HNEFCKPT" {
            return Err(format!(
                "not a checkpoint of this network ({} bytes, {expected} expected)",
                bytes.len()
            ));
        }
        let mut steps = [0; 8];
        steps.copy_from_slice(&bytes[8..16]);
        trainer.steps = u64::from_le_bytes(steps);
        let floats = bytes[16..].chunks_exact(4).map(|chunk| {
            let mut word = [0; 4];
            word.copy_from_slice(chunk);
            f32::from_le_bytes(word)
        });
        let all: Vec<f32> = floats.collect();
        trainer.params.copy_from_slice(&all[..count]);
        trainer.m.copy_from_slice(&all[count..2 * count]);
        trainer.v.copy_from_slice(&all[2 * count..]);
        Ok(trainer)
    }

    /// The parameters, moments and step count as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = b"HNEFCKPT".to_vec();
        bytes.extend_from_slice(&self.steps.to_le_bytes());
        for value in self.params.iter().chain(&self.m).chain(&self.v) {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// Where the parts of the network start in the parameters.
    fn offsets(&self) -> (usize, usize, usize) {
        let bias = self.inputs * HIDDEN;
        (bias, bias + HIDDEN, bias + 3 * HIDDEN)
    }

    /// How much of the base (the classic evaluation's logit) the network adds to, as the
    /// training found it: 1.0 is all of it.
    pub fn classic_share(&self) -> f32 {
        self.params[self.params.len() - 1]
    }

    /// The hidden layer before its clip, and the predicted winning chance of player 0.
    fn forward(&self, inputs: &[u16], side: Player, base: f32, hidden: &mut [f32; HIDDEN]) -> f32 {
        let (bias, output, output_bias) = self.offsets();
        hidden.copy_from_slice(&self.params[bias..bias + HIDDEN]);
        for &input in inputs {
            let row = &self.params[usize::from(input) * HIDDEN..][..HIDDEN];
            for (value, weight) in hidden.iter_mut().zip(row) {
                *value += weight;
            }
        }
        let weights = &self.params[output + side.index() * HIDDEN..][..HIDDEN];
        let mut y = self.params[output_bias + side.index()] + base * self.classic_share();
        for (value, weight) in hidden.iter().zip(weights) {
            y += value.clamp(0.0, 1.0) * weight;
        }
        sigmoid(y)
    }

    /// The mean squared error of the winning chance over a dataset, each position
    /// weighted as the dataset says.
    pub fn loss(&self, data: &Dataset) -> f64 {
        let mut hidden = [0.0; HIDDEN];
        let total: f64 = (0..data.len())
            .map(|index| {
                let p = self.forward(
                    data.inputs_of(index),
                    data.sides[index],
                    data.bases[index],
                    &mut hidden,
                );
                f64::from(data.weights[index] * (p - data.targets[index]).powi(2))
            })
            .sum();
        let weights: f64 = data.weights.iter().map(|&w| f64::from(w)).sum();
        total / weights.max(f64::MIN_POSITIVE)
    }

    /// One Adam step on the positions `batch` of `data`, each weighted as the dataset
    /// says; `gradient` is scratch space of the parameters' length. Returns the batch's
    /// mean loss.
    pub fn step(&mut self, data: &Dataset, batch: &[usize], lr: f32, gradient: &mut [f32]) -> f64 {
        let (bias, output, output_bias) = self.offsets();
        gradient.fill(0.0);
        let mut hidden = [0.0; HIDDEN];
        let mut loss = 0.0;
        let scale = 1.0 / batch.len().max(1) as f32;
        for &index in batch {
            let side = data.sides[index];
            let inputs = data.inputs_of(index);
            let base = data.bases[index];
            let p = self.forward(inputs, side, base, &mut hidden);
            let error = p - data.targets[index];
            let weight = data.weights[index];
            loss += f64::from(weight * error * error);
            // d(weight · error²)/dy through the sigmoid.
            let g = 2.0 * weight * error * p * (1.0 - p) * scale;
            let share = gradient.len() - 1;
            gradient[share] += g * base;
            let out_at = output + side.index() * HIDDEN;
            gradient[output_bias + side.index()] += g;
            let mut back = [0.0f32; HIDDEN];
            for unit in 0..HIDDEN {
                let value = hidden[unit];
                gradient[out_at + unit] += g * value.clamp(0.0, 1.0);
                if value > 0.0 && value < 1.0 {
                    back[unit] = g * self.params[out_at + unit];
                }
            }
            for (sum, b) in gradient[bias..bias + HIDDEN].iter_mut().zip(&back) {
                *sum += b;
            }
            for &input in inputs {
                let row = &mut gradient[usize::from(input) * HIDDEN..][..HIDDEN];
                for (sum, b) in row.iter_mut().zip(&back) {
                    *sum += b;
                }
            }
        }
        self.steps += 1;
        let t = self.steps as i32;
        let correction1 = 1.0 - BETA1.powi(t);
        let correction2 = 1.0 - BETA2.powi(t);
        let first_layer = self.inputs * HIDDEN;
        let output_clip = f32::from(i16::MAX) / OUTPUT_SCALE as f32;
        for (index, ((param, grad), (m, v))) in self
            .params
            .iter_mut()
            .zip(gradient.iter())
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
            .enumerate()
        {
            *m = BETA1 * *m + (1.0 - BETA1) * grad;
            *v = BETA2 * *v + (1.0 - BETA2) * grad * grad;
            *param -= lr * (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
            let bound = if index < first_layer + HIDDEN {
                self.clip
            } else {
                output_clip
            };
            *param = param.clamp(-bound, bound);
        }
        loss / batch.len().max(1) as f64
    }

    /// The network with its weights rounded to integers at the network's scales; with
    /// `classic`, one trained on top of the classic evaluation, which records its share
    /// ([`Trainer::classic_share`]).
    ///
    /// # Errors
    ///
    /// A layout whose inputs are not the trainer's.
    pub fn quantise(&self, name: &str, layout: Layout, classic: bool) -> Result<Network, String> {
        let (bias, output, output_bias) = self.offsets();
        let a = f32::from(ACTIVATION_SCALE);
        let b = OUTPUT_SCALE as f32;
        let round = |values: &[f32], scale: f32| -> Vec<i16> {
            values
                .iter()
                .map(|v| (v * scale).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        let weights = Weights {
            piece_scale: PIECE_SCALE,
            classic_share: if classic {
                (100.0 * self.classic_share()).round().clamp(0.0, 1000.0) as u16
            } else {
                0
            },
            input: round(&self.params[..bias], a),
            hidden_bias: round(&self.params[bias..output], a),
            output: round(&self.params[output..output_bias], b),
            output_bias: [0, 1].map(|i| (self.params[output_bias + i] * a * b).round() as i32),
        };
        Network::new(name, layout, &weights).map_err(|e| e.to_string())
    }
}

/// The positions of an epoch in a shuffled order, the same for the same seed and epoch.
pub fn epoch_order(len: usize, seed: u64, epoch: u32) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut random = SplitMix::new(seed ^ u64::from(epoch).wrapping_mul(0xA24B_AED4_963E_E407));
    for i in (1..len).rev() {
        order.swap(i, random.below(i + 1));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::inputs_of;
    use hnefatafl_core::Rules;

    /// A dataset the network can learn: player 0 wins exactly when input 0 is on.
    fn toy(layout: &Layout) -> Dataset {
        Dataset::from_games(&toy_games(layout), 0.5, |_| 0.0)
    }

    /// The games of [`toy`].
    fn toy_games(layout: &Layout) -> Vec<GameRecord> {
        let mut random = SplitMix::new(3);
        let mut games = Vec::new();
        for number in 0..40 {
            let mut samples = Vec::new();
            let marked = number % 2 == 0;
            for _ in 0..20 {
                let mut inputs: Vec<u16> = (0..6)
                    .map(|_| 1 + random.below(layout.inputs() - 1) as u16)
                    .collect();
                if marked {
                    inputs.push(0);
                }
                samples.push(Sample {
                    side: Player::Zero,
                    score: if marked { 800 } else { -800 },
                    inputs,
                });
            }
            games.push(GameRecord {
                number,
                result: if marked { 1 } else { -1 },
                samples,
            });
        }
        games
    }

    #[test]
    fn training_lowers_the_loss_and_the_quantised_network_agrees() {
        let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
        let layout = Layout::of(&rules);
        let data = toy(&layout);
        let mut trainer = Trainer::new(layout.inputs(), 13, 1);
        let before = trainer.loss(&data);
        let mut gradient = vec![0.0; trainer.params.len()];
        for epoch in 0..30 {
            for batch in epoch_order(data.len(), 1, epoch).chunks(32) {
                trainer.step(&data, batch, 0.01, &mut gradient);
            }
        }
        let after = trainer.loss(&data);
        assert!(after < before / 4.0, "loss {before} to {after}");
        // The integer network gives the float one's winning chance on real positions.
        let network = trainer.quantise("toy", layout, false).expect("its layout");
        let mut hidden = [0.0; HIDDEN];
        for seed in 0..20 {
            let game = hnefatafl_core::random::random_opening(&rules, 10, seed);
            let position = game.position();
            let side = position.side_to_move();
            let float = trainer.forward(&inputs_of(&layout, position), side, 0.0, &mut hidden);
            let raw = network.output_raw(&network.refresh(position), side);
            let integer = sigmoid(raw as f32 / (f32::from(ACTIVATION_SCALE) * OUTPUT_SCALE as f32));
            assert!((integer - float).abs() < 0.02, "{integer} against {float}");
        }
    }

    #[test]
    fn a_network_on_a_base_learns_its_share_and_records_it() {
        let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
        let layout = Layout::of(&rules);
        // The base alone tells the winner, at a third of the logit the targets need.
        let base = |sample: &Sample| {
            if sample.inputs.contains(&0) {
                1.0
            } else {
                -1.0
            }
        };
        let games: Vec<GameRecord> = toy_games(&layout);
        let data = Dataset::from_games(&games, 0.5, base);
        let mut trainer = Trainer::new(layout.inputs(), 13, 1);
        // Only the share learns: the network stays at zero.
        trainer.params.fill(0.0);
        let share = trainer.params.len() - 1;
        let mut gradient = vec![0.0; trainer.params.len()];
        let before = trainer.loss(&data);
        for epoch in 0..30 {
            for batch in epoch_order(data.len(), 1, epoch).chunks(32) {
                trainer.step(&data, batch, 0.05, &mut gradient);
                let kept = trainer.params[share];
                trainer.params.fill(0.0);
                trainer.params[share] = kept;
            }
        }
        assert!(trainer.loss(&data) < before / 4.0);
        assert!(trainer.classic_share() > 2.0, "{}", trainer.classic_share());
        let network = trainer.quantise("toy", layout, true).expect("its layout");
        let percent = (100.0 * trainer.classic_share()).round() as u16;
        assert_eq!(network.classic_share(), percent);
        let alone = trainer.quantise("toy", layout, false).expect("its layout");
        assert_eq!(alone.classic_share(), 0);
    }

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
        let data = Dataset::from_games(&games, 0.5, |_| 0.0);
        let maps = crate::symmetry::input_maps(&rules, true);
        let images = data.with_images(&maps);
        assert_eq!(images.len(), 2 * 8);
        let sorted = |inputs: &[u16]| {
            let mut inputs = inputs.to_vec();
            inputs.sort_unstable();
            inputs
        };
        for image in 0..8 {
            // The start position is its own image; the opening's images differ from it
            // (six random plies), with as many pieces.
            assert_eq!(sorted(images.inputs_of(image)), sorted(&samples[0].inputs));
            let moved = images.inputs_of(8 + image);
            assert_eq!(moved.len(), samples[1].inputs.len());
            assert_eq!(images.targets[8 + image], data.targets[1]);
            assert_eq!(images.sides[8 + image], data.sides[1]);
        }
        let distinct: std::collections::BTreeSet<Vec<u16>> = (8..16)
            .map(|image| sorted(images.inputs_of(image)))
            .collect();
        assert!(
            distinct.len() > 1,
            "the images of a position after six plies"
        );
        assert_eq!(data.with_images(&[]).inputs, data.inputs);
    }

    #[test]
    fn each_sides_wins_weigh_alike_within_the_cap() {
        let game = |result: i8, positions: usize| GameRecord {
            number: 0,
            result,
            samples: vec![
                Sample {
                    side: Player::Zero,
                    score: 0,
                    inputs: vec![1],
                };
                positions
            ],
        };
        // 30 positions of player 0's wins, 10 of player 1's, 5 drawn: 40 decisive, so
        // 40 / (2 x 30) and 40 / (2 x 10).
        let games = [game(1, 20), game(-1, 10), game(0, 5), game(1, 10)];
        let weights = ResultWeights::balancing(&games);
        assert_eq!(weights.of(1), 40.0 / 60.0);
        assert_eq!(weights.of(-1), 2.0);
        assert_eq!(weights.of(0), 1.0);
        // 1 against 99: 100 / 2 is over the cap.
        let lopsided = ResultWeights::balancing(&[game(1, 99), game(-1, 1)]);
        assert_eq!(lopsided.of(-1), ResultWeights::MOST);
        assert_eq!(lopsided.of(1), 100.0 / 198.0);
        assert_eq!(ResultWeights::balancing(&[game(1, 5)]), ResultWeights::EVEN);
        // The loss counts a position by its weight: a network answering 1/2 everywhere
        // misses each win by 1/4 (squared) whatever the weights, each draw by 0.
        let mut half = Trainer::new(3, 1, 0);
        half.params.fill(0.0);
        let data = Dataset::weighted(&games, 0.0, weights, |_| 0.0);
        let decisive = 30.0 * weights.of(1) + 10.0 * weights.of(-1);
        let expected = 0.25 * decisive / (decisive + 5.0);
        assert!((half.loss(&data) - f64::from(expected)).abs() < 1e-6);
        // Weighted, the wins count 20 and 20, the draws 5 at a half: a half on the whole.
        assert!((data.mean_target() - (20.0 + 2.5) / 45.0).abs() < 1e-6);
    }

    #[test]
    fn a_checkpoint_reads_back() {
        let mut trainer = Trainer::new(20, 5, 9);
        trainer.steps = 7;
        let read = Trainer::from_bytes(&trainer.to_bytes(), 20, 5).expect("its own bytes");
        assert_eq!(read, trainer);
        assert!(Trainer::from_bytes(&trainer.to_bytes(), 21, 5).is_err());
        assert!(Trainer::from_bytes(&trainer.to_bytes()[..100], 20, 5).is_err());
    }

    #[test]
    fn the_shuffle_is_a_permutation_fixed_by_seed_and_epoch() {
        let order = epoch_order(100, 4, 2);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_eq!(order, epoch_order(100, 4, 2));
        assert_ne!(order, epoch_order(100, 4, 3));
    }
}
