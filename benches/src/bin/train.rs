//! Trains a network for the learned evaluation of one rule file, from self-play.
//!
//! ```text
//! train --rules data/rules/brandubh --out /tmp/brandubh.nnue --work /tmp/train-brandubh
//!       [--games 400] [--nodes 2000] [--nodes0 N] [--nodes1 N] [--opening 4]
//!       [--plies 300] [--epochs 30] [--batch 256] [--lr 0.001] [--score-share 0.5]
//!       [--seed 1] [--symmetry on|off] [--base none|classic] [--jobs 1]
//!       [--network <file>] [--sprt]
//! ```
//!
//! It plays `--games` games of the engine against itself at `--nodes` nodes a move
//! (`--nodes0`/`--nodes1`: the handicap of the match runner, to balance a rule file one
//! side wins), each from `--opening` random plies, and reports how often each side won.
//! `--jobs` games are played at once, each on its own thread; a game depends only on the
//! settings and its number, so the data is the same whatever `--jobs` is. The engine
//! plays them with the classic evaluation, or with `--network`'s network (a network made
//! for these rules, most often the last one trained: its games teach the next).
//! One game in ten is held out for validation. It then trains the network for `--epochs`
//! passes over the rest with Adam on minibatches of `--batch` positions, printing the
//! validation loss after each, and writes the quantised network to `--out`. The target
//! of a position is `--score-share` of the search's score (as a winning chance) and the
//! rest the game's result. With `--symmetry on` (the default) it trains on every image of
//! each training position under the symmetries of the square that the rule file's board
//! and start position keep (all eight on the shipped square boards), checked, not assumed.
//! With `--base classic` the network is trained as a correction added to the classic
//! evaluation (its logit plus a learned share of the classic evaluation's), and the file
//! records the share, so that the search adds the two the same way.
//!
//! Everything it makes goes to `--work`: the games (`games.bin`, game by game) and a
//! checkpoint after each epoch (`checkpoint.bin`). Run again with the same settings, it
//! continues where it stopped; with more `--games` or `--epochs`, it adds them.
//! It ends by printing the SPRT of the new network against the evaluation that played
//! the games (the classic one, or `--network`'s), or with `--sprt` runs it.

use aim::nnue::{Layout, Network};
use hnefatafl_benches::selfplay::{
    GameRecord, Sample, SelfPlay, classic_logit, drop_repeated_games, play_game, read_games,
    write_game,
};
use hnefatafl_benches::symmetry;
use hnefatafl_benches::trainer::{Dataset, Trainer, epoch_order};
use hnefatafl_core::Rules;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

/// The usage text.
const USAGE: &str = "usage: train --rules <file> --out <file> --work <dir> [--games N] \
[--nodes N] [--nodes0 N] [--nodes1 N] [--opening N] [--plies N] [--epochs N] [--batch N] \
[--lr F] [--score-share F] [--seed N] [--symmetry on|off] [--base none|classic] [--jobs N] \
[--network <file>] [--sprt]";

/// The most games played at once.
const MAX_JOBS: usize = 256;

/// One game in this many is held out for validation.
const VALIDATION_EVERY: u32 = 10;

/// What the command line asked for.
struct Options {
    rules_path: PathBuf,
    out: PathBuf,
    work: PathBuf,
    games: u32,
    selfplay: SelfPlay,
    epochs: u32,
    batch: usize,
    lr: f32,
    score_share: f32,
    /// Train on every image of a position under the symmetries the rules keep.
    symmetry: bool,
    /// Train the network as a correction added to the classic evaluation.
    classic_base: bool,
    /// Games played at once, each on its own thread.
    jobs: usize,
    /// The network the self-play games are played with, if not the classic evaluation.
    network: Option<PathBuf>,
    sprt: bool,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        rules_path: PathBuf::new(),
        out: PathBuf::new(),
        work: PathBuf::new(),
        games: 400,
        selfplay: SelfPlay {
            nodes: 2000,
            nodes_as: [None; 2],
            opening_plies: 4,
            max_plies: 300,
            seed: 1,
            network: None,
        },
        epochs: 30,
        batch: 256,
        lr: 0.001,
        score_share: 0.5,
        symmetry: true,
        classic_base: false,
        jobs: 1,
        network: None,
        sprt: false,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--sprt" {
            options.sprt = true;
            i += 1;
            continue;
        }
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("`{flag}` needs a value"))?;
        let bad = || format!("bad value `{value}` for `{flag}`");
        let number = || value.parse::<u64>().map_err(|_| bad());
        let fraction = || {
            value
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(bad)
        };
        match flag {
            "--rules" => options.rules_path = value.into(),
            "--out" => options.out = value.into(),
            "--work" => options.work = value.into(),
            "--games" => options.games = u32::try_from(number()?).map_err(|_| bad())?,
            "--nodes" => options.selfplay.nodes = number()?.max(1),
            "--nodes0" => options.selfplay.nodes_as[0] = Some(number()?.max(1)),
            "--nodes1" => options.selfplay.nodes_as[1] = Some(number()?.max(1)),
            "--opening" => options.selfplay.opening_plies = number()? as usize,
            "--plies" => options.selfplay.max_plies = number()?.max(1) as usize,
            "--epochs" => options.epochs = u32::try_from(number()?).map_err(|_| bad())?,
            "--batch" => options.batch = number()?.max(1) as usize,
            "--lr" => options.lr = fraction()?,
            "--score-share" => options.score_share = fraction()?.min(1.0),
            "--seed" => options.selfplay.seed = number()?,
            "--jobs" => options.jobs = (number()? as usize).clamp(1, MAX_JOBS),
            "--network" => options.network = Some(value.into()),
            "--base" => {
                options.classic_base = match value.as_str() {
                    "classic" => true,
                    "none" => false,
                    _ => return Err(bad()),
                }
            }
            "--symmetry" => {
                options.symmetry = match value.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(format!("unknown option `{flag}`")),
        }
        i += 2;
    }
    for (path, flag) in [
        (&options.rules_path, "--rules"),
        (&options.out, "--out"),
        (&options.work, "--work"),
    ] {
        if path.as_os_str().is_empty() {
            return Err(format!("`{flag}` is missing"));
        }
    }
    Ok(options)
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
fn generate(options: &Options, rules: &Rules) -> Result<Vec<GameRecord>, String> {
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
fn report_balance(games: &[GameRecord]) {
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
fn train(options: &Options, rules: &Rules, games: &[GameRecord]) -> Result<Trainer, String> {
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
/// one or `--network`'s), as the match runner's arguments.
fn sprt_args(options: &Options) -> Vec<String> {
    let mut side = format!("n{}", options.selfplay.nodes);
    for (player, nodes) in options.selfplay.nodes_as.iter().enumerate() {
        if let Some(nodes) = nodes {
            side.push_str(&format!(",nodes{player}={nodes}"));
        }
    }
    vec![
        "--rules".into(),
        options.rules_path.display().to_string(),
        "--a".into(),
        format!("{side},network={}", options.out.display()),
        "--b".into(),
        match &options.network {
            Some(network) => format!("{side},network={}", network.display()),
            None => side,
        },
        "--sprt".into(),
        "0,50".into(),
        "--games".into(),
        "800".into(),
        "--jobs".into(),
        "1".into(),
    ]
}

fn run(mut options: Options) -> Result<(), String> {
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
    let args = sprt_args(options);
    println!(
        "test it against the evaluation that played its games:\n  target/release/match {}",
        args.join(" ")
    );
    if options.sprt {
        let runner = std::env::current_exe()
            .map_err(|e| e.to_string())?
            .with_file_name("match");
        let status = std::process::Command::new(&runner)
            .args(&args)
            .status()
            .map_err(|e| format!("{}: {e}", runner.display()))?;
        if !status.success() {
            return Err(format!("the match runner ended with {status}"));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if hnefatafl_benches::asks_for_help() {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let result = parse_args(&args).and_then(run);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("train: {error}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}
