//! What one run of the `train` program does: its options, read from the command line
//! (`learn/src/bin/train.rs`) and taken by [`crate::training::run`] and
//! [`crate::baseline`].

use crate::selfplay::SelfPlay;
use std::path::PathBuf;

/// What a run does: the `train` program's options, read.
pub struct Options {
    /// The rule file the network is for.
    pub rules_path: PathBuf,
    /// Where the network is written.
    pub out: PathBuf,
    /// The work folder: the games' shard (with the settings they were made with) and the
    /// checkpoint.
    pub work: PathBuf,
    /// Shards of other runs trained on with the work folder's games.
    pub data: Vec<PathBuf>,
    /// The opening set self-play starts from, if any.
    pub openings: Option<PathBuf>,
    /// Weigh positions so that each side's wins count alike.
    pub balance: bool,
    /// Games of self-play.
    pub games: u32,
    /// How the games are played.
    pub selfplay: SelfPlay,
    /// Units of the network's hidden layer: one of [`aim::nnue::WIDTHS`]. A work folder's
    /// checkpoint keeps the width it was started with.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a minibatch.
    pub batch: usize,
    /// Adam's learning rate (a tenth of it for the last third of the epochs).
    pub lr: f32,
    /// The share of the search's score in a position's target; the rest is the result.
    pub score_share: f32,
    /// Train on every image of a position under the symmetries the rules keep.
    pub symmetry: bool,
    /// Train the network as a correction added to the classic evaluation.
    pub classic_base: bool,
    /// Threads playing games at once, each game after game, and then sharing each
    /// minibatch of the training.
    pub jobs: usize,
    /// The network the self-play games are played with, if not the classic evaluation.
    pub network: Option<PathBuf>,
    /// The network training starts from, when the work folder has no checkpoint, instead
    /// of random weights.
    pub init: Option<PathBuf>,
    /// Run the new network's SPRT at the end.
    pub sprt: bool,
}
