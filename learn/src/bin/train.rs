//! Trains a network for the learned evaluation of one rule file, from self-play
//! (`train --help`; the run itself is [`hnefatafl_learn::training`]).
//!
//! ```text
//! train --rules data/rules/brandubh --out /tmp/brandubh.nnue --work /tmp/train-brandubh
//!       [--games 400] [--nodes 500] [--depth N] [--nodes0 N] [--nodes1 N]
//!       [--openings <file>] [--opening 4] [--plies 300] [--data <shard>]...
//!       [--balance on|off] [--hidden 128|256] [--epochs 30] [--batch 256] [--lr 0.001]
//!       [--score-share 0.5]
//!       [--seed 1] [--symmetry on|off] [--base none|classic] [--jobs 0]
//!       [--network <file>] [--init <file>] [--sprt]
//! ```
//!
//! It plays `--games` games of the engine against itself at `--nodes` nodes a move (or
//! `--depth`; `--nodes0`/`--nodes1`: the handicap of the match runner), each from an
//! opening of `--openings` (an opening set of the match runner, game n from opening n)
//! followed by `--opening` random plies, and reports how often each side won. `--jobs`
//! threads (0, the default: one per core) play game after game; a game depends only on
//! the settings and its number, so the games are the same whatever `--jobs` is. The same
//! threads then train, each minibatch shared among them with every sum taken in the
//! batch's order, so the network too is the same whatever `--jobs` is. The
//! engine plays them with the classic evaluation, or with `--network`'s network (a
//! network made for these rules, most often the last one trained: its games teach the
//! next). The shards of `--data` (other runs', other machines') are trained on with
//! them. With `--balance on` (the default) each position counts in the loss so that the
//! positions of each side's wins weigh alike (at most 4 each).
//! One game in ten is held out for validation. It then trains a network of `--hidden`
//! hidden units (128, the default, or 256: [`aim::nnue::WIDTHS`]) for `--epochs`
//! passes over the rest with Adam on minibatches of `--batch` positions, printing the
//! validation loss after each, and writes the quantised network to `--out`. The target
//! of a position is `--score-share` of the search's score (as a winning chance) and the
//! rest the game's result. With `--symmetry on` (the default) it trains on every image of
//! each training position under the symmetries of the square that the rule file's board
//! and start position keep (all eight on the shipped square boards), checked, not assumed.
//! With `--init` training starts from that network's weights (with a fresh optimiser)
//! instead of random ones, to teach a network more data.
//! With `--base classic` the network is trained as a correction added to the classic
//! evaluation (its logit plus a learned share of the classic evaluation's), and the file
//! records the share, so that the search adds the two the same way.
//!
//! Everything it makes goes to `--work`: the games (`games.shard`, game by game, see
//! [`hnefatafl_learn::shard`]) and a checkpoint after each epoch (`checkpoint.bin`, which
//! records the network's width). Run again with the same settings, it continues where it
//! stopped; with more `--games` or `--epochs`, it adds them; with another `--hidden`, it
//! is refused.
//! It ends by printing the SPRT of the new network against the evaluation that played
//! the games (the classic one, or `--network`'s), or with `--sprt` runs it. A run on
//! `--data` alone (`--games 0`) is tested against `--init`'s network, or at the data's
//! nodes against the evaluation its settings name; where they name a network whose file
//! the run was not given, it says so (and `--sprt` stops before training).

use aim::nnue::{HIDDEN, WIDTHS};
use clap::{Parser, ValueEnum};
use hnefatafl_learn::options::Options;
use hnefatafl_learn::selfplay::SelfPlay;
use hnefatafl_learn::training::run;
use std::path::PathBuf;
use std::process::ExitCode;

/// The most games played at once.
const MAX_JOBS: usize = 256;

/// Trains a network for the learned evaluation of one rule file from self-play games of
/// the engine, writes it, and prints (or with --sprt runs) its SPRT against the evaluation
/// that played the games.
///
/// Everything it makes goes to --work: the games (games.shard, game by game) and a
/// checkpoint after each epoch (checkpoint.bin). Run again with the same settings, it
/// continues where it stopped; with more --games or --epochs, it adds them. A game
/// depends only on the settings and its number, and each minibatch sums its samples in
/// its own order, so the games and the network are the same whatever --jobs is. One game
/// in ten is held out for validation.
#[derive(Parser)]
#[command(name = "train", version)]
struct Arguments {
    /// The rule file the network is for.
    #[arg(long, value_name = "FILE")]
    rules: PathBuf,
    /// Where the network is written.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The work folder: the games' shard (with the settings they were made with) and the
    /// checkpoint.
    #[arg(long, value_name = "DIR")]
    work: PathBuf,
    /// A shard of another run's games (another machine's too) to train on as well; may
    /// be given many times.
    #[arg(long, value_name = "SHARD")]
    data: Vec<PathBuf>,
    /// Games of self-play.
    #[arg(long, value_name = "N", default_value_t = 400)]
    games: u32,
    /// Nodes a move.
    #[arg(long, value_name = "N", default_value_t = 500)]
    nodes: u64,
    /// A fixed depth a move instead of --nodes.
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Nodes of player 0's moves instead (the match runner's handicap, to balance a rule
    /// file one side wins).
    #[arg(long, value_name = "N")]
    nodes0: Option<u64>,
    /// Nodes of player 1's moves instead.
    #[arg(long, value_name = "N")]
    nodes1: Option<u64>,
    /// An opening set (the match runner's, as matches/openings/copenhagen.txt) the games
    /// start from: game n from its opening n, modulo their number.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Random plies before the engine plays: from the start, or after the opening.
    #[arg(long, value_name = "N", default_value_t = 4)]
    opening: usize,
    /// A game longer than this is a draw.
    #[arg(long, value_name = "N", default_value_t = 300)]
    plies: usize,
    /// Units of the network's hidden layer: 128 or 256 (wider learns more from much data,
    /// and evaluates more slowly). A work folder's run keeps the width it started with.
    #[arg(long, value_name = "N", default_value_t = HIDDEN, value_parser = hidden_width)]
    hidden: usize,
    /// Passes over the training positions (the learning rate is a tenth for the last
    /// third).
    #[arg(long, value_name = "N", default_value_t = 30)]
    epochs: u32,
    /// Positions a minibatch.
    #[arg(long, value_name = "N", default_value_t = 256)]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, value_name = "F", default_value_t = 0.001, value_parser = fraction)]
    lr: f32,
    /// The share of the search's score (as a winning chance) in a position's target; the
    /// rest is the game's result (0 to 1).
    #[arg(long, value_name = "F", default_value_t = 0.5, value_parser = fraction)]
    score_share: f32,
    /// Seed of the openings, the engine and the trainer.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Train on every image of each position under the symmetries of the square that the
    /// rule file's board and start position keep (checked, not assumed).
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    symmetry: Switch,
    /// `classic`: train the network as a correction added to the classic evaluation (its
    /// logit plus a learned share of the classic one's), recorded in the file so that the
    /// search adds the two the same way.
    #[arg(long, value_name = "NONE|CLASSIC", default_value = "none")]
    base: Base,
    /// Weigh each position in the loss so that the positions of each side's wins count
    /// alike (each at most 4 times), instead of a node handicap.
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    balance: Switch,
    /// Threads playing games, game after game, then training, each minibatch shared
    /// among them; the games and the network are the same whatever it is (at most 256;
    /// 0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// The network the self-play games are played with (one made for these rules, most
    /// often the last one trained), instead of the classic evaluation.
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// The network training starts from (one made for these rules, as wide as --hidden),
    /// instead of random weights: to go on teaching a network new data, most often with
    /// a lower --lr. Read only when the work folder has no checkpoint yet.
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Run the new network's SPRT against the evaluation that played its games (on
    /// --data alone: --init's network, or the one --network names).
    #[arg(long)]
    sprt: bool,
}

/// `on` or `off`.
#[derive(Clone, Copy, ValueEnum)]
enum Switch {
    On,
    Off,
}

/// What the network is trained on top of.
#[derive(Clone, Copy, ValueEnum)]
enum Base {
    /// Nothing: the network is the whole evaluation.
    None,
    /// The classic evaluation.
    Classic,
}

/// A finite number of at least 0.
fn fraction(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| format!("`{text}` is not a number of at least 0"))
}

/// One of the widths a network's hidden layer may have ([`WIDTHS`]).
fn hidden_width(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|width| WIDTHS.contains(width))
        .ok_or_else(|| {
            let widths: Vec<String> = WIDTHS.iter().map(usize::to_string).collect();
            format!(
                "`{text}` is not a width of the hidden layer: the networks have {} units",
                widths.join(" or ")
            )
        })
}

impl Arguments {
    fn options(self) -> Options {
        Options {
            rules_path: self.rules,
            out: self.out,
            work: self.work,
            data: self.data,
            openings: self.openings,
            balance: matches!(self.balance, Switch::On),
            games: self.games,
            selfplay: SelfPlay {
                nodes: self.nodes.max(1),
                nodes_as: [self.nodes0, self.nodes1].map(|n| n.map(|n| n.max(1))),
                depth: self.depth.map(|d| d.max(1)),
                opening_plies: self.opening,
                openings: None,
                max_plies: self.plies.max(1),
                seed: self.seed,
                network: None,
            },
            hidden: self.hidden,
            epochs: self.epochs,
            batch: self.batch.max(1),
            lr: self.lr,
            score_share: self.score_share.min(1.0),
            symmetry: matches!(self.symmetry, Switch::On),
            classic_base: matches!(self.base, Base::Classic),
            jobs: match self.jobs {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                jobs => jobs,
            }
            .min(MAX_JOBS),
            network: self.network,
            init: self.init,
            sprt: self.sprt,
        }
    }
}

fn main() -> ExitCode {
    match run(Arguments::parse().options()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("train: {error}");
            ExitCode::FAILURE
        }
    }
}
