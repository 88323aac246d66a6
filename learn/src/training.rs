//! One run of the `train` program: self-play games into the work folder's shard
//! (continued where a stopped run left them), with the shards of other runs, balanced by
//! result, training from its checkpoint epoch by epoch, the quantised
//! network written whole, and its SPRT against the evaluation that played the games,
//! printed as the match runner's command line or played at once through
//! [`hnefatafl_matches::runner`].

use crate::baseline::{baseline, command_line, sprt_match};
use crate::options::Options;
use crate::selfplay::{
    GameRecord, Openings, Players, Sample, classic_logit, play_game, players_key, read_games,
};
use crate::shard::write_whole;
use crate::trainer::{Dataset, ResultWeights, Tally, Trainer, epoch_order};
use crate::{shard, symmetry};
use aim::nnue::{Layout, Network};
use hnefatafl_core::Rules;
use hnefatafl_matches::runner;
use indicatif::{ProgressBar, ProgressStyle};
use std::cell::Cell;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

/// One game in this many is held out for validation.
const VALIDATION_EVERY: u32 = 10;

/// A progress bar of `len` steps with its rate and time left.
fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} ({{per_sec}}, {{eta}} left)");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// The work folder's shard of self-play games.
pub const SHARD: &str = "games.shard";

/// The work folder's checkpoint: the epochs done (a `u32`), then the trainer
/// ([`Trainer::to_bytes`]).
pub const CHECKPOINT: &str = "checkpoint.bin";

/// Turns the data file of a run before shards (`games.bin`, with its `settings.txt`) into
/// the work folder's shard, once: the games are kept, not played again.
fn convert_old_data(options: &Options, rules: &Rules, settings: &str) -> Result<(), String> {
    let (old, shard_path) = (options.work.join("games.bin"), options.work.join(SHARD));
    if shard_path.exists() || !old.exists() {
        return Ok(());
    }
    let settings_path = options.work.join("settings.txt");
    let old_settings = std::fs::read_to_string(&settings_path).unwrap_or_default();
    if old_settings.trim() != settings {
        return Err(format!(
            "{}: the data there was made with other settings ({}); use another --work",
            settings_path.display(),
            old_settings.trim()
        ));
    }
    let layout = Layout::of(rules);
    let bytes = std::fs::read(&old).map_err(|e| format!("{}: {e}", old.display()))?;
    let (games, _) =
        read_games(&bytes, layout.inputs()).map_err(|e| format!("{}: {e}", old.display()))?;
    let (mut writer, _) = shard::Writer::open(&shard_path, layout, settings)?;
    for game in &games {
        writer.append(game)?;
    }
    println!(
        "{}: {} games of the earlier form written into {}",
        old.display(),
        games.len(),
        shard_path.display()
    );
    Ok(())
}

/// Plays the games the work folder's shard does not have yet on `--jobs` threads, each
/// thread playing game after game, appending each to the shard as it ends: a stopped run
/// loses only the games in play. The games are trained on from the shard
/// ([`read_games_played`]).
pub fn generate(options: &Options, rules: &Rules) -> Result<(), String> {
    let settings = options.selfplay.describe(rules);
    convert_old_data(options, rules, &settings)?;
    let path = options.work.join(SHARD);
    let (mut writer, numbers) = shard::Writer::open(&path, Layout::of(rules), &settings)?;
    let wanted = options.games;
    let have: HashSet<u32> = numbers.into_iter().collect();
    let missing: Vec<u32> = (0..wanted).filter(|n| !have.contains(n)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let threads = options.jobs.min(missing.len());
    let per_move = match options.selfplay.depth {
        Some(depth) => format!("depth {depth}"),
        None => format!("{} nodes", options.selfplay.nodes),
    };
    println!(
        "playing {} games of {wanted} on {threads} threads at {per_move} a move",
        missing.len()
    );
    let progress = bar(missing.len() as u64, "games");
    let started = Instant::now();
    let mut positions = 0;
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let (next, sender, missing) = (&next, sender.clone(), &missing);
            scope.spawn(move || {
                while let Some(&number) = missing.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let record = play_game(rules, &options.selfplay, number);
                    // The receiver is gone only when writing failed: stop.
                    if sender.send(record).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for record in receiver {
            writer.append(&record)?;
            positions += record.samples.len();
            progress.inc(1);
        }
        Ok(())
    })?;
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "self-play: {} games, {positions} positions in {seconds:.1} s ({:.0} positions a second)",
        missing.len(),
        positions as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// Reads the work folder's games numbered below `--games` into `collector`, in the order
/// of their numbers (whatever order the threads wrote them in), game by game.
///
/// # Errors
///
/// A shard that cannot be read or is damaged, named.
pub fn read_games_played(collector: &mut Collector) -> Result<(), String> {
    let wanted = collector.options.games;
    let path = collector.options.work.join(SHARD);
    collector.players = players_key(&collector.options.selfplay.describe(collector.rules));
    shard::read_by_number(
        &path,
        |_| Ok(()),
        |number| number < wanted,
        |game| collector.add(game),
    )
    .map(|_| ())
}

/// The training and validation positions, filled game by game as the games come (from
/// self-play and from the shards of `--data`), so that no game outlives its positions'
/// copy: the games a run holds at once are one shard's block, not the whole data.
pub struct Collector<'a> {
    options: &'a Options,
    rules: &'a Rules,
    layout: Layout,
    /// The classic evaluation, for `--base classic`.
    engine: aim::Engine,
    /// The positions trained on.
    pub training: Dataset,
    /// The positions held out (one game in ten).
    pub validation: Dataset,
    /// Every game's result and positions, repeated games too.
    pub tally: Tally,
    /// The first position of each game kept, with the engine that played it
    /// ([`crate::selfplay::players_key`]; see [`crate::selfplay::drop_repeated_games`]).
    seen: HashSet<(u64, usize, Vec<u16>)>,
    /// The engine that played the games being read ([`crate::selfplay::players_key`]),
    /// or `None` for recorded games, none of which repeats another by its start.
    players: Option<u64>,
    /// Games dropped as repeats of an earlier one.
    pub repeats: usize,
    /// The engine of each shard of `--data`, in their order, from its settings.
    pub data_players: Vec<Players>,
}

impl<'a> Collector<'a> {
    /// An empty collector for a run.
    pub fn new(options: &'a Options, rules: &'a Rules) -> Self {
        Collector {
            options,
            rules,
            layout: Layout::of(rules),
            engine: aim::Engine::with_tuning(
                aim::EngineConfig {
                    threads: 1,
                    hash_mib: 1,
                },
                aim::Tuning::default(),
            ),
            training: Dataset::default(),
            validation: Dataset::default(),
            tally: Tally::default(),
            seen: HashSet::new(),
            data_players: Vec::new(),
            players: None,
            repeats: 0,
        }
    }

    /// Counts a game and adds its positions to the training or the validation data,
    /// unless it repeats an earlier game of the same engine (as
    /// [`crate::selfplay::drop_repeated_games`] drops them).
    ///
    /// # Errors
    ///
    /// More positions than the data holds ([`Dataset::add_game`]).
    pub fn add(&mut self, game: GameRecord) -> Result<(), String> {
        self.tally.add(&game);
        if let Some(players) = self.players
            && let Some(first) = game.samples.first()
            && !self
                .seen
                .insert((players, first.side.index(), first.inputs.clone()))
        {
            self.repeats += 1;
            return Ok(());
        }
        let data = if game.number % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
            &mut self.validation
        } else {
            &mut self.training
        };
        let (engine, rules, layout) = (&mut self.engine, self.rules, &self.layout);
        let classic = self.options.classic_base;
        data.add_game(&game, self.options.score_share, |sample: &Sample| {
            if classic {
                classic_logit(engine, rules, layout, sample)
            } else {
                0.0
            }
        })
    }
}

/// Reads the shards given with `--data` (other runs', other machines'), which must hold
/// positions of the rules' layout, game by game into `collector`.
///
/// # Errors
///
/// A shard that cannot be read, or of another layout, named.
pub fn read_data(collector: &mut Collector) -> Result<(), String> {
    let (options, layout) = (collector.options, collector.layout);
    for path in &options.data {
        let players = Cell::new(None);
        let engine = Cell::new(None);
        // In the order of the games' numbers, as the run's own: the network made of a
        // shard does not depend on how many threads wrote it.
        let read = shard::read_by_number(
            path,
            |header| {
                players.set(players_key(&header.settings));
                engine.set(Some(Players::of_settings(&header.settings)));
                if header.layout == layout {
                    return Ok(());
                }
                Err(format!(
                    "{}: its games are of {}, but the rule file {} has {}",
                    path.display(),
                    shard::describe_layout(&header.layout),
                    options.rules_path.display(),
                    shard::describe_layout(&layout)
                ))
            },
            |_| true,
            |game| {
                collector.players = players.get();
                collector.add(game)
            },
        )?;
        collector.data_players.extend(engine.get());
        println!(
            "{}: {} games, {} positions{}",
            path.display(),
            read.games,
            read.positions,
            if read.stopped {
                " (the run writing it was stopped: its complete games)"
            } else {
                ""
            }
        );
    }
    Ok(())
}

/// Prints how often each side won, the positions of each side's wins, and the weights that
/// balance them (with `balance`); gives the weights.
pub fn report_balance(tally: &Tally, balance: bool) -> ResultWeights {
    let [one, draws, zero] = tally.games;
    let games = tally.all_games();
    let positions: usize = tally.positions.iter().sum();
    let share = |n: usize| 100.0 * n as f64 / games.max(1) as f64;
    println!(
        "data: {games} games, player 0 won {zero} ({:.0}%), player 1 won {one} ({:.0}%), {draws} drawn; {positions} positions",
        share(zero),
        share(one)
    );
    let weights = if balance {
        ResultWeights::balancing_tally(tally)
    } else {
        ResultWeights::EVEN
    };
    println!(
        "balance: positions of player 0's wins {}, of player 1's wins {}, of draws {}; weighted {:.2}, {:.2} and 1 in the loss{}",
        tally.positions[2],
        tally.positions[0],
        tally.positions[1],
        weights.of(1),
        weights.of(-1),
        if balance { "" } else { " (--balance off)" }
    );
    if zero.max(one) as f64 > 0.8 * games as f64 {
        println!(
            "  one side wins most games: --nodes0 or --nodes1 give the other more nodes, and \
             --balance on makes the other's wins count as much"
        );
    }
    weights
}

/// The network training starts from, and the epochs it has done: the work folder's
/// checkpoint, or a new network of `--hidden` units.
pub struct Start {
    /// The network and its optimiser's state.
    pub trainer: Trainer,
    /// Epochs done.
    pub epochs: u32,
}

/// The work folder's checkpoint, read before any game is played or read, or a new network
/// if there is none.
///
/// # Errors
///
/// A checkpoint that cannot be read, is damaged, or holds a network of another width than
/// `--hidden`: a run goes on only at the width it was started with.
pub fn resume(options: &Options, rules: &Rules) -> Result<Start, String> {
    let inputs = Layout::of(rules).inputs();
    // The pieces of the start position bound the pieces of every later one.
    let most_pieces = rules.start_position().pieces().count();
    let checkpoint = options.work.join(CHECKPOINT);
    let bytes = match std::fs::read(&checkpoint) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if let Some(path) = &options.init {
                let trainer = initial_network(path, options.hidden, rules, most_pieces)?;
                println!("training starts from network {}", path.display());
                return Ok(Start { trainer, epochs: 0 });
            }
            let widths = || format!("--hidden {}: not a width of the networks", options.hidden);
            let trainer =
                Trainer::with_hidden(inputs, options.hidden, most_pieces, options.selfplay.seed)
                    .ok_or_else(widths)?;
            return Ok(Start { trainer, epochs: 0 });
        }
        Err(error) => return Err(format!("{}: {error}", checkpoint.display())),
    };
    let damaged = |problem: String| format!("{}: {problem}", checkpoint.display());
    let Some((epochs, rest)) = bytes.split_first_chunk::<4>() else {
        return Err(damaged(format!("cut short at {} bytes", bytes.len())));
    };
    let trainer = Trainer::from_bytes(rest, inputs, most_pieces).map_err(damaged)?;
    if trainer.hidden() != options.hidden {
        return Err(format!(
            "{}: this run's network has {} hidden units, not --hidden {}: continue it with \
             --hidden {}, or start the new width in another --work",
            checkpoint.display(),
            trainer.hidden(),
            options.hidden,
            trainer.hidden()
        ));
    }
    Ok(Start {
        trainer,
        epochs: u32::from_le_bytes(*epochs),
    })
}

/// Reads a network file made for `rules`.
///
/// # Errors
///
/// A file that cannot be read, is no network, or is made for another layout: named
/// `network <file>: ...`.
pub fn read_network(path: &Path, rules: &Rules) -> Result<Network, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("network {name}: {e}"))?;
    Network::for_rules(&name, &bytes, rules).map_err(|e| e.to_string())
}

/// The trainer of `--init`'s network, which must be made for `rules` and be `hidden`
/// units wide.
fn initial_network(
    path: &Path,
    hidden: usize,
    rules: &Rules,
    most_pieces: usize,
) -> Result<Trainer, String> {
    let name = path.display().to_string();
    let network = read_network(path, rules)?;
    if network.hidden() != hidden {
        return Err(format!(
            "network {name}: {} hidden units, not --hidden {hidden}: give --hidden {}",
            network.hidden(),
            network.hidden()
        ));
    }
    let inputs = Layout::of(rules).inputs();
    Trainer::from_network(&network, inputs, most_pieces).map_err(|e| format!("network {name}: {e}"))
}

/// Trains from `start` (the checkpoint in the work folder, or a new network, see
/// [`resume`]), epoch by epoch, on `--jobs` threads: the positions of `training` and their
/// images under the symmetries the rules keep (with `--symmetry on`), validated on
/// `validation`.
pub fn train(
    options: &Options,
    rules: &Rules,
    start: Start,
    training: Dataset,
    validation: Dataset,
) -> Result<Trainer, String> {
    let layout = Layout::of(rules);
    let maps = symmetry::input_maps(rules, options.symmetry);
    match (options.symmetry, maps.len()) {
        (false, _) => println!("symmetry: off (--symmetry off)"),
        (true, 0) => println!("symmetry: none kept by the rule file's board and setup"),
        (true, kept) => println!(
            "symmetry: {kept} kept by the rule file's board and setup; training on {} images of each position",
            kept + 1
        ),
    }
    let training = training.with_images(maps);
    if training.is_empty() || validation.is_empty() {
        return Err(format!(
            "too few positions to train on ({} and {} held out): ask for more --games",
            training.positions(),
            validation.positions()
        ));
    }
    let samples = u32::try_from(training.len()).map_err(|_| {
        format!(
            "{} positions in {} images each are more than {} samples: train on fewer",
            training.positions(),
            training.images(),
            u32::MAX
        )
    })?;
    println!(
        "training on {} positions, validating on {}",
        training.len(),
        validation.len()
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| format!("{} threads: {e}", options.jobs))?;
    pool.install(|| {
        epochs(
            options,
            &layout,
            rules,
            start,
            &training,
            &validation,
            samples,
        )
    })
}

/// The epochs of [`train`], on the threads of the pool it runs in.
fn epochs(
    options: &Options,
    layout: &Layout,
    rules: &Rules,
    start: Start,
    training: &Dataset,
    validation: &Dataset,
    samples: u32,
) -> Result<Trainer, String> {
    // The pieces of the start position bound the pieces of every later one.
    let most_pieces = rules.start_position().pieces().count();
    let checkpoint = options.work.join(CHECKPOINT);
    let Start {
        mut trainer,
        epochs: mut done,
    } = start;
    println!("network: {} hidden units", trainer.hidden());
    if done > 0 {
        println!("continuing after epoch {done}");
    }
    let mean = validation.mean_target();
    let constant = {
        let mut flat = Trainer::new(layout.inputs(), most_pieces, 0);
        flat.params.fill(0.0);
        let last = flat.params.len() - 3;
        let logit = (mean / (1.0 - mean)).ln();
        flat.params[last] = logit;
        flat.params[last + 1] = logit;
        flat.loss(validation)
    };
    println!("validation loss of always answering the mean: {constant:.5}");
    if done == 0
        && let Some(path) = &options.init
    {
        println!(
            "validation loss of {} as it starts: {:.5}",
            path.display(),
            trainer.loss(validation)
        );
    }
    if options.classic_base {
        let mut classic = Trainer::new(layout.inputs(), most_pieces, 0);
        classic.params.fill(0.0);
        let share = classic.params.len() - 1;
        classic.params[share] = 1.0;
        println!(
            "validation loss of the classic evaluation alone: {:.5}",
            classic.loss(validation)
        );
    }
    let batches = training.len().div_ceil(options.batch) as u64;
    let mut work = trainer.workspace();
    while done < options.epochs {
        let lr = if done < options.epochs * 2 / 3 {
            options.lr
        } else {
            options.lr / 10.0
        };
        let progress = bar(batches, &format!("epoch {}/{}", done + 1, options.epochs));
        let mut loss = 0.0;
        let started = Instant::now();
        for batch in epoch_order(samples, options.selfplay.seed, done).chunks(options.batch) {
            loss += trainer.step(training, batch, lr, &mut work);
            progress.inc(1);
        }
        let seconds = started.elapsed().as_secs_f64();
        progress.finish_and_clear();
        done += 1;
        println!(
            "epoch {done}: training loss {:.5}, validation loss {:.5} ({:.0} samples a second on {} threads)",
            loss / batches as f64,
            trainer.loss(validation),
            f64::from(samples) / seconds.max(1e-9),
            rayon::current_num_threads()
        );
        let mut bytes = done.to_le_bytes().to_vec();
        bytes.extend(trainer.to_bytes());
        write_whole(&checkpoint, &bytes)?;
    }
    Ok(trainer)
}

/// Runs the whole of `train`: plays, trains, writes the network and tests it.
///
/// # Errors
///
/// A file that cannot be read or written, data made with other settings, too few
/// positions, or a failed SPRT run.
pub fn run(mut options: Options) -> Result<(), String> {
    let text = std::fs::read(&options.rules_path)
        .map_err(|e| format!("{}: {e}", options.rules_path.display()))?;
    let rules =
        Rules::parse(&text).map_err(|e| format!("{}: {e}", options.rules_path.display()))?;
    if let Some(path) = &options.network {
        let network = read_network(path, &rules)?;
        println!("self-play evaluates with network {}", path.display());
        options.selfplay.network = Some(Arc::new(network));
    }
    if let Some(path) = &options.openings {
        let openings = Openings::read(&rules, path)?;
        println!(
            "self-play starts from the {} openings of {}",
            openings.games.len(),
            path.display()
        );
        options.selfplay.openings = Some(Arc::new(openings));
    }
    let options = &options;
    std::fs::create_dir_all(&options.work)
        .map_err(|e| format!("{}: {e}", options.work.display()))?;
    let start = resume(options, &rules)?;
    generate(options, &rules)?;
    let mut collector = Collector::new(options, &rules);
    read_games_played(&mut collector)?;
    read_data(&mut collector)?;
    // Known before the training, so that `--sprt` with nothing to test against stops now.
    let baseline = baseline(options, &collector.data_players);
    if let (true, Err(why)) = (options.sprt, &baseline) {
        return Err(format!("--sprt: {why}"));
    }
    let weights = report_balance(&collector.tally, options.balance);
    let repeats = collector.repeats;
    if repeats > 0 {
        let kept = collector.tally.all_games() - repeats;
        println!(
            "  {repeats} games start where an earlier one did and repeat it move for move: \
             trained on the {kept} that differ"
        );
        // Over a tenth of all the games played.
        if repeats * 10 > repeats + kept {
            println!(
                "  few different games: give --opening more random plies (in a new --work folder)"
            );
        }
    }
    let Collector {
        mut training,
        mut validation,
        ..
    } = collector;
    training.set_weights(weights);
    validation.set_weights(weights);
    let trainer = train(options, &rules, start, training, validation)?;
    if options.classic_base {
        println!(
            "the network adds to {:.0}% of the classic evaluation",
            100.0 * trainer.classic_share()
        );
    }
    let name = options.out.display().to_string();
    let network = trainer.quantise(&name, Layout::of(&rules), options.classic_base)?;
    write_whole(&options.out, &network.to_bytes())?;
    println!("wrote {name}");
    let baseline = match baseline {
        Ok(baseline) => baseline,
        Err(why) => {
            println!("no test to print: {why}");
            return Ok(());
        }
    };
    let sprt = sprt_match(options, &baseline)?;
    println!(
        "test it against {}:\n  target/release/match {}",
        baseline.what,
        command_line(&sprt)
    );
    if options.sprt {
        runner::run(&sprt)?;
    }
    Ok(())
}
