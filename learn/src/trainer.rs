//! A small trainer for the learned evaluation's network ([`aim::nnue`]): the same shape in
//! `f32`, Adam on minibatches, a loss on the winning chance, and quantisation to the
//! network's integer weights.
//!
//! Written here rather than with candle, burn or PyTorch: the network is one sparse layer
//! and a dot product, so forward and backward passes are a few loops; the first layer's
//! gradient touches only the rows of the pieces on the board. A framework would add a
//! large dependency (or a Python toolchain and a file conversion) for no speed a model
//! this small would notice on a CPU.
//!
//! A minibatch runs on rayon's threads (the pool the caller installs): each sample's
//! forward and backward pass on its own, then each parameter's gradient summed over the
//! samples in the batch's order, its rows shared among the threads. Every sum is taken in
//! the same order whatever the threads, so the network is the same bit for bit on any
//! number of them, and the same as one thread summing sample after sample.

use crate::dataset::sigmoid;
pub use crate::dataset::{Dataset, ResultWeights, Tally, epoch_order};
use aim::nnue::{
    ACTIVATION_SCALE, HIDDEN, Layout, Network, OUTPUT_SCALE, PIECE_SCALE, WIDTHS, Weights,
};
use hnefatafl_core::Player;
use hnefatafl_core::random::SplitMix;
use rayon::prelude::*;

/// Adam's decay rates and its guard against division by zero.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// A checkpoint's first bytes: the width of its hidden layer follows them (a `u32`).
const CHECKPOINT: &[u8; 8] = b"HNEFCKPW";

/// The first bytes of a checkpoint of the earlier form, which records no width: its
/// networks are [`HIDDEN`] units wide.
const CHECKPOINT_OF_HIDDEN: &[u8; 8] = b"HNEFCKPT";

/// What one sample's pass leaves for the sums: the derivative of its loss by the output's
/// logit, its loss, its side to move's index and its base.
#[derive(Clone, Copy, Debug, Default)]
struct SampleOutput {
    g: f32,
    loss: f64,
    side: usize,
    base: f32,
}

/// The scratch space of [`Trainer::step`], kept from step to step.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    /// The gradient, as long as the parameters.
    gradient: Vec<f32>,
    /// The batch's samples' inputs, one sample after another.
    inputs: Vec<u16>,
    /// Where each sample's inputs start in `inputs` (one more entry at the end).
    starts: Vec<usize>,
    /// The batch's samples' positions in the dataset.
    positions: Vec<usize>,
    /// For each sample: its hidden layer after the clip, then what flows back into it.
    units: Vec<f32>,
    /// For each sample: what its pass leaves.
    outputs: Vec<SampleOutput>,
    /// For each input: where its samples start in `by_input` (one more entry at the end).
    input_starts: Vec<u32>,
    /// The samples of the batch that have each input on, input by input, each input's in
    /// the batch's order.
    by_input: Vec<u32>,
}

impl Workspace {
    /// Lists the samples of each input in the batch's order (`input_starts` and
    /// `by_input`): a counting sort of the batch's inputs.
    fn sort_by_input(&mut self, inputs: usize) {
        self.input_starts.clear();
        self.input_starts.resize(inputs + 1, 0);
        for &input in &self.inputs {
            self.input_starts[usize::from(input) + 1] += 1;
        }
        for input in 0..inputs {
            self.input_starts[input + 1] += self.input_starts[input];
        }
        self.by_input.resize(self.inputs.len(), 0);
        let mut next: Vec<u32> = self.input_starts[..inputs].to_vec();
        for k in 0..self.starts.len() - 1 {
            for &input in &self.inputs[self.starts[k]..self.starts[k + 1]] {
                let at = &mut next[usize::from(input)];
                self.by_input[*at as usize] = k as u32;
                *at += 1;
            }
        }
    }
}

/// The network in `f32`, with Adam's moments: all parameters in one list, the first layer
/// (one row of the hidden layer's width per input), its biases, the output weights of
/// player 0 to move then player 1, the two output biases.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    inputs: usize,
    /// Units of the hidden layer: one of [`WIDTHS`].
    hidden: usize,
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
    /// A network of small random weights for `inputs` inputs, [`HIDDEN`] units wide; the
    /// first layer's weights kept within what `most_pieces` pieces can sum without
    /// overflowing an `i16`.
    pub fn new(inputs: usize, most_pieces: usize, seed: u64) -> Trainer {
        Trainer::with_hidden(inputs, HIDDEN, most_pieces, seed).expect("HIDDEN is one of WIDTHS")
    }

    /// As [`Trainer::new`], with `hidden` hidden units, if that is one of [`WIDTHS`] (the
    /// widths a quantised network may have). The random weights are drawn in the same
    /// order at any width: at [`HIDDEN`] they are [`Trainer::new`]'s.
    pub fn with_hidden(
        inputs: usize,
        hidden: usize,
        most_pieces: usize,
        seed: u64,
    ) -> Option<Trainer> {
        if !WIDTHS.contains(&hidden) {
            return None;
        }
        let mut random = SplitMix::new(seed);
        let mut uniform = |range: f32| {
            let unit = (random.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * range
        };
        // The last parameter: the share of the base (the classic evaluation) in the logit.
        let count = inputs * hidden + hidden + 2 * hidden + 3;
        let mut params = vec![0.0; count];
        let scale = 1.0 / (most_pieces.max(1) as f32).sqrt();
        for (index, param) in params.iter_mut().enumerate() {
            *param = if index < inputs * hidden {
                uniform(scale)
            } else if index < (inputs + 1) * hidden {
                0.25
            } else if index < (inputs + 3) * hidden {
                uniform(1.0 / (hidden as f32).sqrt())
            } else if index == count - 1 {
                1.0
            } else {
                0.0
            };
        }
        let bound = 32_000.0 / (f32::from(ACTIVATION_SCALE) * (most_pieces + 1) as f32);
        Some(Trainer {
            inputs,
            hidden,
            m: vec![0.0; count],
            v: vec![0.0; count],
            params,
            steps: 0,
            clip: bound.min(8.0),
        })
    }

    /// A trainer that starts from a network's weights, with a fresh optimiser: the
    /// inverse of [`Trainer::quantise`], exact to the integers the network keeps (its
    /// quantisation gives the network back). To go on training a shipped network on new
    /// data (`train --init`). The first layer's weights are kept within what
    /// `most_pieces` pieces can sum, as they are in training.
    ///
    /// # Errors
    ///
    /// A network for another number of inputs.
    pub fn from_network(
        network: &Network,
        inputs: usize,
        most_pieces: usize,
    ) -> Result<Trainer, String> {
        let weights = network.weights();
        let hidden = weights.hidden_bias.len();
        if weights.input.len() != inputs * hidden {
            return Err(format!(
                "a network of {} inputs, not {inputs}",
                weights.input.len() / hidden.max(1)
            ));
        }
        let mut trainer = Trainer::with_hidden(inputs, hidden, most_pieces, 0)
            .ok_or_else(|| format!("a network of {hidden} hidden units"))?;
        let a = f32::from(ACTIVATION_SCALE);
        let b = OUTPUT_SCALE as f32;
        let clip = trainer.clip;
        let unscale = |values: &[i16], scale: f32| -> Vec<f32> {
            values.iter().map(|&v| f32::from(v) / scale).collect()
        };
        let first = unscale(&weights.input, a)
            .into_iter()
            .map(|w| w.clamp(-clip, clip));
        let params: Vec<f32> = first
            .chain(unscale(&weights.hidden_bias, a))
            .chain(unscale(&weights.output, b))
            .chain(weights.output_bias.map(|v| v as f32 / (a * b)))
            .collect();
        trainer.params[..params.len()].copy_from_slice(&params);
        let share = trainer.params.len() - 1;
        if weights.classic_share > 0 {
            trainer.params[share] = f32::from(weights.classic_share) / 100.0;
        }
        Ok(trainer)
    }

    /// Units of the hidden layer: one of [`WIDTHS`].
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// A trainer from saved parameters and moments (see [`Trainer::to_bytes`]), of the
    /// width the bytes record ([`HIDDEN`] for bytes of the earlier form, which record
    /// none).
    ///
    /// # Errors
    ///
    /// Bytes of another shape or cut short, or of a width not one of [`WIDTHS`].
    pub fn from_bytes(bytes: &[u8], inputs: usize, most_pieces: usize) -> Result<Trainer, String> {
        let (hidden, rest) = if let Some(rest) = bytes.strip_prefix(CHECKPOINT) {
            let Some((width, rest)) = rest.split_first_chunk::<4>() else {
                return Err(format!("cut short at {} bytes", bytes.len()));
            };
            (u32::from_le_bytes(*width) as usize, rest)
        } else if let Some(rest) = bytes.strip_prefix(CHECKPOINT_OF_HIDDEN) {
            (HIDDEN, rest)
        } else {
            return Err("not a checkpoint of the trainer".to_string());
        };
        let Some(mut trainer) = Trainer::with_hidden(inputs, hidden, most_pieces, 0) else {
            let widths = WIDTHS.map(|w| w.to_string()).join(" or ");
            return Err(format!(
                "a network of {hidden} hidden units, but this program's have {widths}"
            ));
        };
        let count = trainer.params.len();
        if rest.len() != 8 + 3 * 4 * count {
            return Err(format!(
                "not a checkpoint of this network ({} bytes, {} expected)",
                bytes.len(),
                bytes.len() - rest.len() + 8 + 3 * 4 * count
            ));
        }
        let (steps, floats) = rest.split_at(8);
        trainer.steps = u64::from_le_bytes(steps.try_into().expect("8 bytes"));
        let all: Vec<f32> = floats
            .chunks_exact(4)
            .map(|chunk| f32::from_le_bytes(chunk.try_into().expect("4 bytes")))
            .collect();
        trainer.params.copy_from_slice(&all[..count]);
        trainer.m.copy_from_slice(&all[count..2 * count]);
        trainer.v.copy_from_slice(&all[2 * count..]);
        Ok(trainer)
    }

    /// The width of the hidden layer, the parameters, moments and step count as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = CHECKPOINT.to_vec();
        let hidden = u32::try_from(self.hidden).expect("one of WIDTHS");
        bytes.extend_from_slice(&hidden.to_le_bytes());
        bytes.extend_from_slice(&self.steps.to_le_bytes());
        for value in self.params.iter().chain(&self.m).chain(&self.v) {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// Where the parts of the network start in the parameters.
    fn offsets(&self) -> (usize, usize, usize) {
        let bias = self.inputs * self.hidden;
        (bias, bias + self.hidden, bias + 3 * self.hidden)
    }

    /// How much of the base (the classic evaluation's logit) the network adds to, as the
    /// training found it: 1.0 is all of it.
    pub fn classic_share(&self) -> f32 {
        self.params[self.params.len() - 1]
    }

    /// The hidden layer before its clip (into `hidden`, as long as the layer), and the
    /// predicted winning chance of player 0.
    fn forward(&self, inputs: &[u16], side: Player, base: f32, hidden: &mut [f32]) -> f32 {
        let (width, (bias, output, output_bias)) = (self.hidden, self.offsets());
        hidden.copy_from_slice(&self.params[bias..bias + width]);
        for &input in inputs {
            let row = &self.params[usize::from(input) * width..][..width];
            for (value, weight) in hidden.iter_mut().zip(row) {
                *value += weight;
            }
        }
        let weights = &self.params[output + side.index() * width..][..width];
        let mut y = self.params[output_bias + side.index()] + base * self.classic_share();
        for (value, weight) in hidden.iter().zip(weights) {
            y += value.clamp(0.0, 1.0) * weight;
        }
        sigmoid(y)
    }

    /// The mean squared error of the winning chance over a dataset, each position
    /// weighted as the dataset says. Its samples run on rayon's threads; the sum is taken
    /// in their order.
    pub fn loss(&self, data: &Dataset) -> f64 {
        let terms: Vec<f64> = (0..data.len())
            .into_par_iter()
            .map_init(
                || (Vec::new(), vec![0.0; self.hidden]),
                |(inputs, hidden), sample| {
                    inputs.clear();
                    let position = data.sample_inputs(sample, inputs);
                    let (side, target, base, weight) = data.labels(position);
                    let p = self.forward(inputs, side, base, hidden);
                    f64::from(weight * (p - target).powi(2))
                },
            )
            .collect();
        let total: f64 = terms.iter().sum();
        let weights: f64 = data.sample_weights().map(f64::from).sum();
        total / weights.max(f64::MIN_POSITIVE)
    }

    /// A new workspace for [`Trainer::step`].
    pub fn workspace(&self) -> Workspace {
        Workspace {
            gradient: vec![0.0; self.params.len()],
            ..Workspace::default()
        }
    }

    /// One Adam step on the samples `batch` of `data`, each weighted as the dataset says,
    /// on rayon's threads; `work` is the scratch space ([`Trainer::workspace`]). Returns
    /// the batch's mean loss.
    pub fn step(&mut self, data: &Dataset, batch: &[u32], lr: f32, work: &mut Workspace) -> f64 {
        self.gather(data, batch, work);
        self.passes(data, batch.len(), work);
        self.update(lr, work);
        let loss: f64 = work.outputs.iter().map(|output| output.loss).sum();
        loss / batch.len().max(1) as f64
    }

    /// Reads the batch's samples' inputs and positions into the workspace.
    fn gather(&self, data: &Dataset, batch: &[u32], work: &mut Workspace) {
        work.inputs.clear();
        work.starts.clear();
        work.positions.clear();
        work.starts.push(0);
        for &sample in batch {
            let position = data.sample_inputs(sample as usize, &mut work.inputs);
            work.positions.push(position);
            work.starts.push(work.inputs.len());
        }
    }

    /// Each sample's forward and backward pass, in parallel: its clipped hidden layer,
    /// what flows back into it, its output's derivative and its loss.
    fn passes(&self, data: &Dataset, samples: usize, work: &mut Workspace) {
        let (width, (_, output, _)) = (self.hidden, self.offsets());
        let scale = 1.0 / samples.max(1) as f32;
        work.units.resize(samples * 2 * width, 0.0);
        work.outputs.resize(samples, SampleOutput::default());
        let (inputs, starts, positions) = (&work.inputs, &work.starts, &work.positions);
        work.units
            .par_chunks_mut(2 * width)
            .zip(work.outputs.par_iter_mut())
            .enumerate()
            .with_min_len(8)
            .for_each(|(k, (units, out))| {
                let (side, target, base, weight) = data.labels(positions[k]);
                // The hidden layer before its clip goes where its clipped values go.
                let (clipped, back) = units.split_at_mut(width);
                let p = self.forward(&inputs[starts[k]..starts[k + 1]], side, base, clipped);
                let error = p - target;
                // d(weight · error²)/dy through the sigmoid.
                let g = 2.0 * weight * error * p * (1.0 - p) * scale;
                let weights = &self.params[output + side.index() * width..][..width];
                for ((value, back), weight) in clipped.iter_mut().zip(back).zip(weights) {
                    *back = if *value > 0.0 && *value < 1.0 {
                        g * weight
                    } else {
                        0.0
                    };
                    *value = value.clamp(0.0, 1.0);
                }
                *out = SampleOutput {
                    g,
                    loss: f64::from(weight * error * error),
                    side: side.index(),
                    base,
                };
            });
    }

    /// The gradient, each parameter's terms summed over the samples in the batch's order,
    /// and Adam's update of each parameter as soon as its gradient is summed. The first
    /// layer's rows are shared among the threads, each row summing the samples that have
    /// its input on; the rest (a few sums the size of the hidden layer) runs beside them.
    fn update(&mut self, lr: f32, work: &mut Workspace) {
        work.sort_by_input(self.inputs);
        self.steps += 1;
        let adam = Adam::new(lr, self.steps);
        let width = self.hidden;
        let (clip, first_layer) = (self.clip, self.inputs * width);
        let (params, rest_params) = self.params.split_at_mut(first_layer);
        let (m, rest_m) = self.m.split_at_mut(first_layer);
        let (v, rest_v) = self.v.split_at_mut(first_layer);
        let Workspace {
            gradient,
            units,
            outputs,
            input_starts,
            by_input,
            ..
        } = work;
        let (gradient, rest_gradient) = gradient.split_at_mut(first_layer);
        let (units, outputs) = (&*units, &*outputs);
        let (input_starts, by_input) = (&*input_starts, &*by_input);
        let rows = || {
            params
                .par_chunks_mut(width)
                .zip(m.par_chunks_mut(width))
                .zip(v.par_chunks_mut(width))
                .zip(gradient.par_chunks_mut(width))
                .enumerate()
                .with_min_len(8)
                .for_each(|(input, (((params, m), v), row))| {
                    row.fill(0.0);
                    let from = input_starts[input] as usize;
                    for &k in &by_input[from..input_starts[input + 1] as usize] {
                        let back = &units[k as usize * 2 * width + width..][..width];
                        for (sum, b) in row.iter_mut().zip(back) {
                            *sum += b;
                        }
                    }
                    adam.apply(params, m, v, row, clip);
                });
        };
        let rest = || {
            sum_rest(width, units, outputs, rest_gradient);
            // The hidden layer's biases stay within the first layer's clip, the output
            // layer's parameters within what its quantised weights hold.
            let output_clip = f32::from(i16::MAX) / OUTPUT_SCALE as f32;
            let (params, m, v, gradient) = (rest_params, rest_m, rest_v, &*rest_gradient);
            let (bias, outputs) = params.split_at_mut(width);
            let (bias_m, outputs_m) = m.split_at_mut(width);
            let (bias_v, outputs_v) = v.split_at_mut(width);
            adam.apply(bias, bias_m, bias_v, &gradient[..width], clip);
            adam.apply(
                outputs,
                outputs_m,
                outputs_v,
                &gradient[width..],
                output_clip,
            );
        };
        rayon::join(rows, rest);
    }
}

/// The gradient of the parameters after the first layer (`gradient`: the hidden layer's
/// biases, the output weights of each side to move, the two output biases and the share),
/// summed over the samples in the batch's order; the hidden layer is `width` units wide.
fn sum_rest(width: usize, units: &[f32], outputs: &[SampleOutput], gradient: &mut [f32]) {
    gradient.fill(0.0);
    let (dense, scalars) = gradient.split_at_mut(3 * width);
    for (k, out) in outputs.iter().enumerate() {
        let (clipped, back) = units[k * 2 * width..][..2 * width].split_at(width);
        let (bias, weights) = dense.split_at_mut(width);
        for (sum, b) in bias.iter_mut().zip(back) {
            *sum += b;
        }
        let side = &mut weights[out.side * width..][..width];
        for (sum, value) in side.iter_mut().zip(clipped) {
            *sum += out.g * value;
        }
        scalars[out.side] += out.g;
        scalars[2] += out.g * out.base;
    }
}

/// One step of Adam: its learning rate and the corrections of its moments' bias.
#[derive(Clone, Copy, Debug)]
struct Adam {
    lr: f32,
    correction1: f32,
    correction2: f32,
}

impl Adam {
    /// Step `step` (from 1) at learning rate `lr`.
    fn new(lr: f32, step: u64) -> Adam {
        let t = step as i32;
        Adam {
            lr,
            correction1: 1.0 - BETA1.powi(t),
            correction2: 1.0 - BETA2.powi(t),
        }
    }

    /// Updates parameters and their moments from their gradient, each parameter kept
    /// within `bound`.
    fn apply(
        &self,
        params: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        gradient: &[f32],
        bound: f32,
    ) {
        let moments = m.iter_mut().zip(v.iter_mut());
        for ((param, grad), (m, v)) in params.iter_mut().zip(gradient).zip(moments) {
            *m = BETA1 * *m + (1.0 - BETA1) * grad;
            *v = BETA2 * *v + (1.0 - BETA2) * grad * grad;
            *param -=
                self.lr * (*m / self.correction1) / ((*v / self.correction2).sqrt() + EPSILON);
            *param = param.clamp(-bound, bound);
        }
    }
}

impl Trainer {
    /// The network with its weights rounded to integers at the network's scales, as wide
    /// as the trainer's ([`Trainer::hidden`]); with `classic`, one trained on top of the
    /// classic evaluation, which records its share ([`Trainer::classic_share`]).
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

#[cfg(test)]
mod tests;
