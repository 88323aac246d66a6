//! The network's integer weights, its accumulator and its evaluation.

use hnefatafl_core::{Player, Position, Square, Undo};

use super::error::{NetworkError, NetworkProblem};
use super::layout::Layout;
use super::shape::{
    ACTIVATION_SCALE, BLOCK, HIDDEN, MAX_BLOCKS, OUTPUT_SCALE, PIECE_SCALE, WIDTHS,
};

/// The most the evaluation answers either way, in hundredths of a piece: well inside the
/// ordinary scores, away from the decisive ones.
const MAX_SCORE: i64 = 50_000;

/// One block of a row of weights or of the first layer's sums: a fixed-size array, so
/// that the loops over it have no bounds check and vectorise.
pub(crate) type Block = [i16; BLOCK];

/// Runs `$body` with `$b` the const number of blocks `$blocks` (1 or 2): the search's
/// loops are made for each width, each over fixed-size arrays.
macro_rules! by_width {
    ($blocks:expr, $b:ident => $body:expr) => {
        match $blocks {
            1 => {
                const $b: usize = 1;
                $body
            }
            _ => {
                const $b: usize = 2;
                $body
            }
        }
    };
}
pub(crate) use by_width;

/// The first layer's sums for one position: the hidden layer before its clipped ReLU.
/// Kept up to date move by move with [`Network::play`] and [`Network::take_back`].
/// It has room for the widest network; the blocks past its network's width stay 0.
/// (The search keeps sums of its network's own width instead.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [Block; MAX_BLOCKS],
    blocks: usize,
}

impl Accumulator {
    /// The sums, one per hidden unit, times [`ACTIVATION_SCALE`].
    pub fn values(&self) -> &[i16] {
        &self.values.as_flattened()[..self.blocks * BLOCK]
    }

    /// The first `B` blocks: the sums of a network `B` blocks wide.
    fn blocks_mut<const B: usize>(&mut self) -> &mut [Block; B] {
        self.values
            .first_chunk_mut::<B>()
            .expect("at most MAX_BLOCKS blocks")
    }

    /// The first `B` blocks, to read.
    fn blocks<const B: usize>(&self) -> &[Block; B] {
        self.values
            .first_chunk::<B>()
            .expect("at most MAX_BLOCKS blocks")
    }
}

/// Adds one input's row of weights to the sums.
#[inline(always)]
fn add<const B: usize>(sums: &mut [Block; B], row: &[Block; B]) {
    for (values, row) in sums.iter_mut().zip(row) {
        for (value, weight) in values.iter_mut().zip(row) {
            *value = value.wrapping_add(*weight);
        }
    }
}

/// Subtracts one input's row of weights.
#[inline(always)]
fn sub<const B: usize>(sums: &mut [Block; B], row: &[Block; B]) {
    for (values, row) in sums.iter_mut().zip(row) {
        for (value, weight) in values.iter_mut().zip(row) {
            *value = value.wrapping_sub(*weight);
        }
    }
}

/// Subtracts one row and adds another in one pass (a piece that moves).
#[inline(always)]
fn sub_add<const B: usize>(sums: &mut [Block; B], gone: &[Block; B], come: &[Block; B]) {
    for ((values, gone), come) in sums.iter_mut().zip(gone).zip(come) {
        for ((value, gone), come) in values.iter_mut().zip(gone).zip(come) {
            *value = value.wrapping_sub(*gone).wrapping_add(*come);
        }
    }
}

/// A network's weights as plain lists, real values times their scales: what the trainer
/// makes and [`Network::new`] checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Hundredths of a piece per unit of output ([`PIECE_SCALE`] usually).
    pub piece_scale: u16,
    /// How much of the classic evaluation the network's output is added to, in percent:
    /// 0 for a network that scores alone, otherwise a network trained as a correction of
    /// the classic evaluation (see [`Network::classic_share`]).
    pub classic_share: u16,
    /// The first layer, one row per input ([`Layout::input`]) of one weight per hidden
    /// unit, times [`ACTIVATION_SCALE`].
    pub input: Vec<i16>,
    /// The first layer's biases, one per hidden unit: their count is the network's width,
    /// one of [`WIDTHS`]. Times [`ACTIVATION_SCALE`].
    pub hidden_bias: Vec<i16>,
    /// The output weights: one per hidden unit for player 0 to move, then as many for
    /// player 1, times [`OUTPUT_SCALE`].
    pub output: Vec<i16>,
    /// The output biases for player 0 and player 1 to move, times
    /// `ACTIVATION_SCALE * OUTPUT_SCALE`.
    pub output_bias: [i32; 2],
}

/// A network for one piece layout, with integer weights. Its output is from player 0's
/// point of view; [`Network::evaluate`] turns it to the side to move's.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    layout: Layout,
    piece_scale: u16,
    classic_share: u16,
    /// Blocks of the hidden layer (its width over [`BLOCK`]).
    blocks: usize,
    /// The first layer: `blocks` blocks per input, input after input.
    input: Box<[Block]>,
    hidden_bias: [Block; MAX_BLOCKS],
    output: [[Block; MAX_BLOCKS]; 2],
    output_bias: [i32; 2],
}

impl std::fmt::Debug for Network {
    /// The layout and the sizes, not the weights (tens of thousands of numbers).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("layout", &self.layout)
            .field("inputs", &self.input.len())
            .field("hidden", &self.hidden())
            .field("piece_scale", &self.piece_scale)
            .field("classic_share", &self.classic_share)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// A network of all-zero weights for a layout, [`HIDDEN`] units wide: it evaluates
    /// every position as even.
    pub fn zero(layout: Layout) -> Network {
        Network::zero_of_width(layout, HIDDEN).expect("HIDDEN is one of WIDTHS")
    }

    /// A network of all-zero weights for a layout with `hidden` hidden units, if that is
    /// one of [`WIDTHS`].
    pub fn zero_of_width(layout: Layout, hidden: usize) -> Option<Network> {
        if !WIDTHS.contains(&hidden) {
            return None;
        }
        let blocks = hidden / BLOCK;
        Some(Network {
            layout,
            piece_scale: PIECE_SCALE,
            classic_share: 0,
            blocks,
            input: vec![[0; BLOCK]; layout.inputs() * blocks].into_boxed_slice(),
            hidden_bias: [[0; BLOCK]; MAX_BLOCKS],
            output: [[[0; BLOCK]; MAX_BLOCKS]; 2],
            output_bias: [0; 2],
        })
    }

    /// Units of the hidden layer: one of [`WIDTHS`].
    pub fn hidden(&self) -> usize {
        self.blocks * BLOCK
    }

    /// A network from its weights, `name` naming it in errors.
    ///
    /// # Errors
    ///
    /// A hidden layer whose width (the biases' count) is not one of [`WIDTHS`], a list of
    /// the wrong length for the layout and that width, or a piece scale of 0.
    pub fn new(name: &str, layout: Layout, weights: &Weights) -> Result<Network, NetworkError> {
        let error = |problem| NetworkError::new(name, problem);
        let wrong = |what: &'static str, expected: usize, found: usize| {
            error(NetworkProblem::WrongLength {
                what,
                expected,
                found,
            })
        };
        let hidden = weights.hidden_bias.len();
        let Some(mut network) = Network::zero_of_width(layout, hidden) else {
            return Err(error(NetworkProblem::Shape {
                hidden: u16::try_from(hidden).unwrap_or(u16::MAX),
                outputs: 2,
            }));
        };
        if weights.input.len() != layout.inputs() * hidden {
            let (expected, found) = (layout.inputs() * hidden, weights.input.len());
            return Err(wrong("first layer weights", expected, found));
        }
        if weights.output.len() != 2 * hidden {
            return Err(wrong("output weights", 2 * hidden, weights.output.len()));
        }
        if weights.piece_scale == 0 {
            return Err(error(NetworkProblem::ZeroScale));
        }
        network.piece_scale = weights.piece_scale;
        network.classic_share = weights.classic_share;
        for (block, chunk) in network
            .input
            .iter_mut()
            .zip(weights.input.chunks_exact(BLOCK))
        {
            block.copy_from_slice(chunk);
        }
        let blocks = network.blocks;
        network.hidden_bias[..blocks]
            .as_flattened_mut()
            .copy_from_slice(&weights.hidden_bias);
        for (row, chunk) in network
            .output
            .iter_mut()
            .zip(weights.output.chunks_exact(hidden))
        {
            row[..blocks].as_flattened_mut().copy_from_slice(chunk);
        }
        network.output_bias = weights.output_bias;
        Ok(network)
    }

    /// The weights as plain lists (the inverse of [`Network::new`]).
    pub fn weights(&self) -> Weights {
        Weights {
            piece_scale: self.piece_scale,
            classic_share: self.classic_share,
            input: self.input.as_flattened().to_vec(),
            hidden_bias: self.hidden_bias[..self.blocks].as_flattened().to_vec(),
            output: self
                .output
                .iter()
                .flat_map(|row| row[..self.blocks].as_flattened())
                .copied()
                .collect(),
            output_bias: self.output_bias,
        }
    }

    /// The piece layout the network is made for.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Hundredths of a piece per unit of output.
    pub fn piece_scale(&self) -> u16 {
        self.piece_scale
    }

    /// How much of the classic evaluation the network is added to, in percent: a search
    /// with it scores a leaf with the network's output plus this share of the classic
    /// evaluation's score. 0 (the network scores alone) unless the network was trained on
    /// top of the classic evaluation (`train --base classic`).
    pub fn classic_share(&self) -> u16 {
        self.classic_share
    }

    /// Blocks of the hidden layer: its width over [`BLOCK`].
    pub(crate) fn blocks(&self) -> usize {
        self.blocks
    }

    /// The accumulator of a position, computed from all its pieces: at the root of a
    /// search; below it, [`Network::play`] and [`Network::take_back`] keep it.
    pub fn refresh(&self, position: &Position) -> Accumulator {
        let mut accumulator = Accumulator {
            values: [[0; BLOCK]; MAX_BLOCKS],
            blocks: self.blocks,
        };
        by_width!(self.blocks, B => {
            *accumulator.blocks_mut::<B>() = self.refresh_sums::<B>(position);
        });
        accumulator
    }

    /// Updates `accumulator`, the one of the position before the move, for the move of
    /// `undo` just played: `after` is the position after it. The moved piece leaves its
    /// square for its destination and every captured piece (jumped ones too) leaves the
    /// board: two to a few row passes, whatever the number of pieces.
    #[inline]
    pub fn play(&self, accumulator: &mut Accumulator, after: &Position, undo: &Undo) {
        by_width!(self.blocks, B => {
            self.play_sums::<B>(accumulator.blocks_mut::<B>(), after, undo);
        });
    }

    /// Updates `accumulator`, the one of the position after the move of `undo`, for that
    /// move taken back: `before` is the position once it is taken back. (A search that
    /// keeps one accumulator per ply can copy instead.)
    #[inline]
    pub fn take_back(&self, accumulator: &mut Accumulator, before: &Position, undo: &Undo) {
        let mv = undo.mv();
        if let Some(piece) = before.piece_at(mv.from()) {
            let path = (mv.to(), mv.from());
            by_width!(self.blocks, B => {
                self.shift::<B>(accumulator.blocks_mut::<B>(), undo, piece, path, true);
            });
        }
    }

    /// The network's score of the position whose accumulator this is, `side` to move, in
    /// hundredths of a piece from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, accumulator: &Accumulator, side: Player) -> i32 {
        by_width!(self.blocks, B => self.evaluate_sums::<B>(accumulator.blocks::<B>(), side))
    }

    /// The output before scaling, from player 0's point of view: the output bias plus the
    /// clipped hidden layer times the output weights of the side to move.
    #[inline]
    pub fn output_raw(&self, accumulator: &Accumulator, side: Player) -> i32 {
        by_width!(self.blocks, B => self.output_sums::<B>(accumulator.blocks::<B>(), side))
    }

    /// The first layer's sums of a position, `B` being the network's blocks.
    pub(crate) fn refresh_sums<const B: usize>(&self, position: &Position) -> [Block; B] {
        let mut sums = *self
            .hidden_bias
            .first_chunk::<B>()
            .expect("at most MAX_BLOCKS blocks");
        for (index, piece) in position.board().enumerate() {
            let input = piece.and_then(|piece| self.layout.input(piece, index));
            if let Some(row) = input.and_then(|input| self.row_of::<B>(input)) {
                add(&mut sums, row);
            }
        }
        sums
    }

    /// The row-major index of a square on the layout's board.
    #[inline(always)]
    fn index_of(&self, square: Square) -> usize {
        usize::from(square.y()) * usize::from(self.layout.width()) + usize::from(square.x())
    }

    /// The row of weights of an input, `B` being the network's blocks.
    #[inline(always)]
    fn row_of<const B: usize>(&self, input: usize) -> Option<&[Block; B]> {
        self.input.get(input * B..)?.first_chunk::<B>()
    }

    /// The row of weights of a piece type on a square, if the layout has that input.
    #[inline(always)]
    fn row<const B: usize>(
        &self,
        piece: hnefatafl_core::PieceType,
        square: Square,
    ) -> Option<&[Block; B]> {
        self.row_of::<B>(self.layout.input(piece, self.index_of(square))?)
    }

    /// [`Network::play`] on sums of `B` blocks.
    #[inline]
    pub(crate) fn play_sums<const B: usize>(
        &self,
        sums: &mut [Block; B],
        after: &Position,
        undo: &Undo,
    ) {
        let mv = undo.mv();
        if let Some(piece) = after.piece_at(mv.to()) {
            self.shift(sums, undo, piece, (mv.from(), mv.to()), false);
        }
    }

    /// Moves `piece`'s row in `sums` from the first square of `path` to the second, and
    /// takes the rows of the pieces `undo` captured off the board, or with `restore` puts
    /// them back: [`Network::play`] and [`Network::take_back`].
    #[inline]
    fn shift<const B: usize>(
        &self,
        sums: &mut [Block; B],
        undo: &Undo,
        piece: hnefatafl_core::PieceType,
        (from, to): (Square, Square),
        restore: bool,
    ) {
        if let (Some(gone), Some(come)) = (self.row::<B>(piece, from), self.row::<B>(piece, to)) {
            sub_add(sums, gone, come);
        }
        for (square, victim) in undo.captures() {
            if let Some(row) = self.row::<B>(victim, square) {
                if restore {
                    add(sums, row);
                } else {
                    sub(sums, row);
                }
            }
        }
    }

    /// [`Network::evaluate`] of sums of `B` blocks.
    #[inline]
    pub(crate) fn evaluate_sums<const B: usize>(&self, sums: &[Block; B], side: Player) -> i32 {
        let raw = self.output_sums(sums, side);
        let zero_view = i64::from(raw) * i64::from(self.piece_scale)
            / i64::from(i32::from(ACTIVATION_SCALE) * OUTPUT_SCALE);
        let zero_view = zero_view.clamp(-MAX_SCORE, MAX_SCORE) as i32;
        match side {
            Player::Zero => zero_view,
            Player::One => -zero_view,
        }
    }

    /// [`Network::output_raw`] of sums of `B` blocks.
    #[inline]
    fn output_sums<const B: usize>(&self, sums: &[Block; B], side: Player) -> i32 {
        let weights = self.output[side.index()]
            .first_chunk::<B>()
            .expect("at most MAX_BLOCKS blocks");
        let mut sum = 0i32;
        for (values, weights) in sums.iter().zip(weights) {
            for (&value, &weight) in values.iter().zip(weights) {
                sum += i32::from(value.clamp(0, ACTIVATION_SCALE)) * i32::from(weight);
            }
        }
        sum.saturating_add(self.output_bias[side.index()])
    }
}
