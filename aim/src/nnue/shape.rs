//! What a network of this build is: the sizes and scales of its layers, and the version
//! of the file format it is written in. Both the network and its file read them; they
//! read nothing else.

/// Units of a block of the hidden layer: the layer is one or more blocks, and every loop
/// over it runs over whole blocks, fixed-size arrays the compiler can vectorise. 128
/// `i16`s are 256 bytes: a move's update is a few passes of 16 (SSE2) or 8 (AVX2) vector
/// additions a block, and the evaluation one pass of multiplies.
pub const BLOCK: usize = 128;

/// The most blocks a hidden layer has.
pub const MAX_BLOCKS: usize = 2;

/// The widths a network's hidden layer may have: one block or two.
pub const WIDTHS: [usize; MAX_BLOCKS] = [BLOCK, 2 * BLOCK];

/// The hidden layer's width unless a network says otherwise ([`Network::zero`]): one
/// block. At 128 units the search runs about 1.25x the nodes per second with the network
/// than with the hand-written evaluation (`docs/performance.md`).
///
/// [`Network::zero`]: super::Network::zero
pub const HIDDEN: usize = BLOCK;

/// The scale of the first layer: its weights and the accumulator are real values times
/// this, and the clipped ReLU clips to `0..=ACTIVATION_SCALE` (1.0).
pub const ACTIVATION_SCALE: i16 = 255;

/// The scale of the output weights: real values times this.
pub const OUTPUT_SCALE: i32 = 64;

/// Hundredths of a piece per unit of the network's output (a logit of the winning
/// chance) unless a network's file says otherwise: the trainer turns a search score `s`
/// into a winning chance with `sigmoid(s / PIECE_SCALE)`.
pub const PIECE_SCALE: u16 = 400;

/// The format version this build writes; it reads this one and version 1, which has no
/// classic share (a network of version 1 scores alone).
pub const VERSION: u16 = 2;
