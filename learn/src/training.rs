//! One run of the `train` program: self-play games into the work folder (continued where
//! a stopped run left them), training from its checkpoint epoch by epoch, the quantised
//! network written whole, and its SPRT against the evaluation that played the games,
//! printed as the match runner's command line or played at once through
//! [`hnefatafl_matches::runner`].

use crate::selfplay::{
    GameRecord, Sample, SelfPlay, classic_logit, drop_repeated_games, play_game, read_games,
    write_game,
};
use crate::symmetry;
use crate::trainer::{Dataset, Trainer, epoch_order};
use aim::nnue::{Layout, Network};
use hnefatafl_core::Rules;
use hnefatafl_matches::runner::{self, Written};
use hnefatafl_matches::sprt::Sprt;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

/// One game in this many is held out for validation.
const VALIDATION_EVERY: u32 = 10;

/// What a run does: the `train` program's options, read.
pub struct Options {
    /// The rule file the network is for.
    pub rules_path: PathBuf,
    /// Where the network is written.
    pub out: PathBuf,
    /// The work folder: the games, the settings they were made with, the checkpoint.
    pub work: PathBuf,
    /// Games of self-play.
    pub games: u32,
    /// How the games are played.
    pub selfplay: SelfPlay,
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
    /// Games played at once, each on its own thread.
    pub jobs: usize,
    /// The network the self-play games are played with, if not the classic evaluation.
    pub network: Option<PathBuf>,
    /// Run the new network's SPRT at the end.
    pub sprt: bool,
}

/// A progress bar of `len` steps with its rate and time left.
fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} ({{per_sec}}, {{eta}} left)");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// Writes a file whole: to a temporary name beside it, then renamed over it, so that a
/// stopped run leaves the old file or the new one, never half of one.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Plays the games the work folder does not have yet, appending each as it ends.
pub fn generate(options: &Options, rules: &Rules) -> Result<Vec<GameRecord>, String> {
    let layout = Layout::of(rules);
    let settings_path = options.work.join("settings.txt");
    let settings = options.selfplay.describe(rules);
    match std::fs::read_to_string(&settings_path) {
        Ok(old) if old.trim() != settings => {
            return Err(format!(
                "{}: the data there was made with other settings ({}); use another --work",
                settings_path.display(),
                old.trim()
            ));
        }
        Ok(_) => {}
        Err(_) => write_whole(&settings_path, format!("{settings}\n").as_bytes())?,
    }
    let data_path = options.work.join("games.bin");
    let bytes = std::fs::read(&data_path).unwrap_or_default();
    let (mut games, used) =
        read_games(&bytes, layout.inputs()).map_err(|e| format!("{}: {e}", data_path.display()))?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&data_path)
        .map_err(|e| format!("{}: {e}", data_path.display()))?;
    // A game cut off by a stopped run is played again.
    file.set_len(used as u64)
        .map_err(|e| format!("{}: {e}", data_path.display()))?;
    let wanted = options.games as usize;
    if games.len() < wanted {
        println!(
            "playing games {}..{} at {} nodes a move",
            games.len(),
            wanted,
            options.selfplay.nodes
        );
        let progress = bar((wanted - games.len()) as u64, "games");
        let next = AtomicUsize::new(games.len());
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| -> Result<(), String> {
            for _ in 0..options.jobs.min(wanted - games.len()) {
                let (next, sender) = (&next, sender.clone());
                scope.spawn(move || {
                    loop {
                        let number = next.fetch_add(1, Ordering::Relaxed);
                        if number >= wanted {
                            break;
                        }
                        let record = play_game(rules, &options.selfplay, number as u32);
                        // The receiver is gone only when writing failed: stop.
                        if sender.send(record).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            // Games end out of order; each is written once those before it are, so that
            // the file always holds games 0..n and a stopped run continues from n.
            let mut waiting = BTreeMap::new();
            for record in receiver {
                waiting.insert(record.number as usize, record);
                while let Some(record) = waiting.remove(&games.len()) {
                    let mut out = Vec::new();
                    write_game(&record, &mut out);
                    file.write_all(&out)
                        .and_then(|()| file.flush())
                        .map_err(|e| format!("{}: {e}", data_path.display()))?;
                    games.push(record);
                    progress.inc(1);
                }
            }
            Ok(())
        })?;
        progress.finish();
    }
    games.truncate(wanted);
    Ok(games)
}

/// Prints how often each side won and how many positions there are.
pub fn report_balance(games: &[GameRecord]) {
    let count = |result| games.iter().filter(|g| g.result == result).count();
    let (zero, draws, one) = (count(1), count(0), count(-1));
    let positions: usize = games.iter().map(|g| g.samples.len()).sum();
    let share = |n: usize| 100.0 * n as f64 / games.len().max(1) as f64;
    println!(
        "data: {} games, player 0 won {zero} ({:.0}%), player 1 won {one} ({:.0}%), {draws} drawn; {positions} positions",
        games.len(),
        share(zero),
        share(one)
    );
    if zero.max(one) as f64 > 0.8 * games.len() as f64 {
        println!(
            "  one side wins most games: --nodes0 or --nodes1 give the other more nodes to balance them"
        );
    }
}

/// Trains from the checkpoint in the work folder (or from scratch), epoch by epoch.
pub fn train(options: &Options, rules: &Rules, games: &[GameRecord]) -> Result<Trainer, String> {
    let layout = Layout::of(rules);
    let (validation, training): (Vec<&GameRecord>, Vec<&GameRecord>) = games
        .iter()
        .partition(|g| g.number % VALIDATION_EVERY == VALIDATION_EVERY - 1);
    let mut engine = aim::Engine::with_tuning(
        aim::EngineConfig {
            threads: 1,
            hash_mib: 1,
        },
        aim::Tuning::default(),
    );
    let mut base = |sample: &Sample| {
        if options.classic_base {
            classic_logit(&mut engine, rules, &layout, sample)
        } else {
            0.0
        }
    };
    let training = Dataset::from_games(training, options.score_share, &mut base);
    let validation = Dataset::from_games(validation, options.score_share, &mut base);
    let maps = symmetry::input_maps(rules, options.symmetry);
    match (options.symmetry, maps.len()) {
        (false, _) => println!("symmetry: off (--symmetry off)"),
        (true, 0) => println!("symmetry: none kept by the rule file's board and setup"),
        (true, kept) => println!(
            "symmetry: {kept} kept by the rule file's board and setup; training on {} images of each position",
            kept + 1
        ),
    }
    let training = training.with_images(&maps);
    if training.is_empty() || validation.is_empty() {
        return Err(format!(
            "too few positions to train on ({} games): ask for more --games",
            games.len()
        ));
    }
    println!(
        "training on {} positions, validating on {}",
        training.len(),
        validation.len()
    );
    // The pieces of the start position bound the pieces of every later one.
    let most_pieces = rules.start_position().pieces().count();
    let checkpoint = options.work.join("checkpoint.bin");
    let (mut trainer, mut done) = match std::fs::read(&checkpoint) {
        Ok(bytes) if bytes.len() >= 4 => {
            let epoch = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            let trainer = Trainer::from_bytes(&bytes[4..], layout.inputs(), most_pieces)
                .map_err(|e| format!("{}: {e}", checkpoint.display()))?;
            println!("continuing after epoch {epoch}");
            (trainer, epoch)
        }
        _ => (
            Trainer::new(layout.inputs(), most_pieces, options.selfplay.seed),
            0,
        ),
    };
    let mean = validation.mean_target();
    let constant = {
        let mut flat = Trainer::new(layout.inputs(), most_pieces, 0);
        flat.params.fill(0.0);
        let last = flat.params.len() - 3;
        let logit = (mean / (1.0 - mean)).ln();
        flat.params[last] = logit;
        flat.params[last + 1] = logit;
        flat.loss(&validation)
    };
    println!("validation loss of always answering the mean: {constant:.5}");
    if options.classic_base {
        let mut classic = Trainer::new(layout.inputs(), most_pieces, 0);
        classic.params.fill(0.0);
        let share = classic.params.len() - 1;
        classic.params[share] = 1.0;
        println!(
            "validation loss of the classic evaluation alone: {:.5}",
            classic.loss(&validation)
        );
    }
    let batches = training.len().div_ceil(options.batch) as u64;
    let mut gradient = vec![0.0; trainer.params.len()];
    while done < options.epochs {
        let lr = if done < options.epochs * 2 / 3 {
            options.lr
        } else {
            options.lr / 10.0
        };
        let progress = bar(batches, &format!("epoch {}/{}", done + 1, options.epochs));
        let mut loss = 0.0;
        for batch in epoch_order(training.len(), options.selfplay.seed, done).chunks(options.batch)
        {
            loss += trainer.step(&training, batch, lr, &mut gradient);
            progress.inc(1);
        }
        progress.finish_and_clear();
        done += 1;
        println!(
            "epoch {done}: training loss {:.5}, validation loss {:.5}",
            loss / batches as f64,
            trainer.loss(&validation)
        );
        let mut bytes = done.to_le_bytes().to_vec();
        bytes.extend(trainer.to_bytes());
        write_whole(&checkpoint, &bytes)?;
    }
    Ok(trainer)
}

/// The SPRT of the network against the evaluation that played its games (the classic
/// one or `--network`'s), as the match runner takes it.
pub fn sprt_match(options: &Options) -> Result<runner::Arguments, String> {
    let mut side = format!("n{}", options.selfplay.nodes);
    for (player, nodes) in options.selfplay.nodes_as.iter().enumerate() {
        if let Some(nodes) = nodes {
            side.push_str(&format!(",nodes{player}={nodes}"));
        }
    }
    let a = Written::parse(&format!("{side},network={}", options.out.display()))?;
    let b = Written::parse(&match &options.network {
        Some(network) => format!("{side},network={}", network.display()),
        None => side,
    })?;
    let mut arguments = runner::Arguments::new(options.rules_path.clone(), a, b);
    arguments.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 50.0,
        ..Sprt::DEFAULT
    });
    arguments.games = Some(800);
    arguments.jobs = 1;
    Ok(arguments)
}

/// The match runner's command line for `arguments` as [`sprt_match`] makes them.
fn command_line(arguments: &runner::Arguments) -> String {
    let sprt = arguments
        .sprt
        .map(|sprt| format!(" --sprt {},{}", sprt.elo0, sprt.elo1))
        .unwrap_or_default();
    format!(
        "--rules {} --a {} --b {}{sprt} --games {} --jobs {}",
        arguments.rules.display(),
        arguments.a.text,
        arguments.b.text,
        arguments.games.unwrap_or_default(),
        arguments.jobs
    )
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
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("network {name}: {e}"))?;
        let network = Network::for_rules(&name, &bytes, &rules).map_err(|e| e.to_string())?;
        println!("self-play evaluates with network {name}");
        options.selfplay.network = Some(Arc::new(network));
    }
    let options = &options;
    std::fs::create_dir_all(&options.work)
        .map_err(|e| format!("{}: {e}", options.work.display()))?;
    let mut games = generate(options, &rules)?;
    report_balance(&games);
    let repeats = drop_repeated_games(&mut games);
    if repeats > 0 {
        println!(
            "  {repeats} games start where an earlier one did and repeat it move for move: \
             trained on the {} that differ",
            games.len()
        );
        // Over a tenth of all the games played.
        if repeats * 10 > repeats + games.len() {
            println!(
                "  few different games: give --opening more random plies (in a new --work folder)"
            );
        }
    }
    let trainer = train(options, &rules, &games)?;
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
    let sprt = sprt_match(options)?;
    println!(
        "test it against the evaluation that played its games:\n  target/release/match {}",
        command_line(&sprt)
    );
    if options.sprt {
        runner::run(&sprt)?;
    }
    Ok(())
}
