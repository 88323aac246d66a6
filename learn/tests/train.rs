//! The trainer as a program: its real binary on a shipped rule file, then its network in
//! a side of the match runner.

// The helpers that run a package's programs, shared with the match crate's tests.
#[path = "../../matches/tests/programs/mod.rs"]
mod programs;

use std::path::Path;

use aim::nnue::Network;
use hnefatafl_core::{Game, Player, Rules};
use hnefatafl_learn::shard;
use hnefatafl_matches::contender::{Contender, parse_contender, play};
use hnefatafl_matches::networks::load_network;
use hnefatafl_matches::{GameSettings, parse_side};
use programs::{assert_holds, rules as rules_path, run};

#[test]
fn train_makes_a_network_continues_where_it_stopped_and_the_match_runner_plays_it() {
    let folder = tempfile::tempdir().expect("a folder");
    let work = folder.path().join("work");
    let out = folder.path().join("brandubh.nnue");
    let (work, out) = (work.display().to_string(), out.display().to_string());
    let rules = rules_path("brandubh");
    let args = |games: &'static str, epochs: &'static str| {
        vec![
            "--rules", &rules, "--out", &out, "--work", &work, "--games", games, "--nodes", "150",
            "--nodes0", "300", "--plies", "80", "--epochs", epochs, "--batch", "64", "--jobs", "1",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    let train = |args: &[String]| {
        run(
            "train",
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    };
    // A run that must succeed: what it said.
    let trained = |args: &[String]| {
        let (ok, said, err) = train(args);
        assert!(ok, "{err}");
        said
    };

    let first = args("10", "2");
    let said = trained(&first);
    assert_holds(
        &said,
        &[
            "playing 10 games of 10 on ",
            "data: 10 games, player 0 won",
            "balance: positions of player 0's wins ",
            // Brandubh's board and setup keep all eight symmetries of the square.
            "symmetry: 7 kept by the rule file's board and setup; training on 8 images",
            "epoch 1: training loss",
            "epoch 2: training loss",
            "validation loss",
            "--a n150,nodes0=300,network=",
        ],
    );
    let text = std::fs::read(&rules).expect("the rule file");
    let brandubh = Rules::parse(&text).expect("rules");
    let bytes = std::fs::read(&out).expect("the network is written");
    Network::for_rules(&out, &bytes, &brandubh).expect("a network for brandubh");

    // Run again with more games and epochs: the ten games stay, the training goes on.
    let games_of = |folder: &str| {
        let mut games = shard::read(Path::new(&format!("{folder}/games.shard")))
            .expect("the games")
            .games;
        games.sort_by_key(|game| game.number);
        games
    };
    let data = games_of(&work);
    assert_eq!(data.len(), 10);
    let second = args("12", "3");
    let said = trained(&second);
    assert_holds(
        &said,
        &[
            "playing 2 games of 12 on ",
            "continuing after epoch 2",
            "epoch 3: training loss",
        ],
    );
    assert!(!said.contains("epoch 1: training loss"), "{said}");
    let more = games_of(&work);
    assert!(
        more.len() == 12 && more.starts_with(&data),
        "the first games are kept as they were"
    );

    // Played three at a time, in another folder, the same games come out.
    let parallel = folder.path().join("parallel").display().to_string();
    let mut jobs = args("12", "1");
    jobs[5] = parallel.clone();
    *jobs.last_mut().expect("--jobs 1") = "3".to_string();
    trained(&jobs);
    assert!(
        games_of(&parallel) == more,
        "--jobs 3 plays the same games as one job"
    );

    // Other self-play settings in the same work folder are refused, not mixed in.
    let mut other = args("12", "3");
    other[11] = "200".to_string();
    let (ok, _, err) = train(&other);
    assert!(!ok);
    assert!(
        err.contains("games.shard") && err.contains("other settings"),
        "{err}"
    );

    // The next generation: games played with that network, in a folder of their own.
    let next = folder.path().join("next").display().to_string();
    let next_out = folder.path().join("next.nnue").display().to_string();
    let mut generation = args("10", "1");
    generation[3] = next_out.clone();
    generation[5] = next.clone();
    generation.extend(["--network".to_string(), out.clone()]);
    let said = trained(&generation);
    assert!(
        said.contains(&format!("self-play evaluates with network {out}")),
        "{said}"
    );
    // Its test is against the network that played the games, not the classic evaluation.
    assert!(
        said.contains(&format!("--b n150,nodes0=300,network={out}")),
        "{said}"
    );
    let settings = shard::read(Path::new(&format!("{next}/games.shard")))
        .expect("the games")
        .header
        .settings;
    // The network of the second run above, which wrote over the first.
    let played_with = std::fs::read(&out).expect("the network");
    let checksum = Network::for_rules(&out, &played_with, &brandubh)
        .expect("the network")
        .checksum();
    assert!(
        settings.contains(&format!("network {checksum:016x}")),
        "{settings}"
    );
    let played = games_of(&next);
    assert!(
        played[..] != data[..played.len()],
        "the network plays other games than the classic evaluation"
    );
    data_alone_is_tested_against_what_played_it(
        folder.path(),
        &rules,
        &work,
        &next,
        &out,
        checksum,
    );
    // A network that does not fit the rules, or is no network, is refused by name.
    for (bad, says) in [
        (
            format!(
                "{}/../data/networks/tablut.nnue",
                env!("CARGO_MANIFEST_DIR")
            ),
            "it was made for a 9x9 board",
        ),
        (rules.clone(), "not a network file"),
    ] {
        let mut refused = generation.clone();
        let last = refused.len() - 1;
        refused[last] = bad.clone();
        refused[5] = folder.path().join("refused").display().to_string();
        let (ok, _, err) = train(&refused);
        assert!(!ok);
        assert!(
            err.contains(&format!("network {bad}")) && err.contains(says),
            "{err}"
        );
    }

    // The match runner's side takes the network, says so, and plays with it.
    let mut side = parse_side(&format!("n150,network={out}")).expect("a side");
    let brandubh = Rules::parse(&std::fs::read(&rules).expect("reads")).expect("valid");
    let said = load_network(&mut side, &brandubh, Path::new(&rules));
    assert_eq!(said, format!("network {out}"));
    let a = Contender::Ours(Box::new(side));
    let b = parse_contender("n150").expect("a side");
    let settings = GameSettings {
        max_plies: 60,
        clock: None,
        verbose: false,
    };
    let report = play(&Game::new(brandubh), &a, &b, Player::Zero, &settings, 1);
    assert_eq!(report.failure, None, "{report:?}");
    assert!(report.played.plies > 0, "{report:?}");
}

/// Runs on `--data` alone (`--games 0`) name the engine of their data, at its nodes, and
/// not the classic evaluation with the default nodes: `classic` holds games of the
/// classic evaluation at `n150,nodes0=300`, `by_network` games of the network at
/// `network` (of `checksum`) at the same nodes.
fn data_alone_is_tested_against_what_played_it(
    folder: &Path,
    rules: &str,
    classic: &str,
    by_network: &str,
    network: &str,
    checksum: u64,
) {
    let run_on = |name: &str, data: &str, extra: &[&str]| {
        let out = folder.join(format!("{name}.nnue")).display().to_string();
        let work = folder.join(name).display().to_string();
        let shard = format!("{data}/games.shard");
        let mut args = vec![
            "--rules", rules, "--out", &out, "--work", &work, "--games", "0", "--data", &shard,
            "--epochs", "1", "--batch", "64", "--jobs", "1",
        ];
        args.extend_from_slice(extra);
        let (ok, said, err) = run("train", &args);
        (ok, said, err, out)
    };
    // A run that must succeed: what it said, and its network's path.
    let trained = |name: &str, data: &str, extra: &[&str]| {
        let (ok, said, err, out) = run_on(name, data, extra);
        assert!(ok, "{err}");
        (said, out)
    };
    // The classic evaluation's games: tested against it, at their nodes (not 500).
    let (said, out) = trained("alone-classic", classic, &[]);
    assert_holds(
        &said,
        &[
            "test it against the classic evaluation, which played its games",
            &format!("--a n150,nodes0=300,network={out} --b n150,nodes0=300 --sprt 0,50"),
        ],
    );
    // A network's games, its file not given: no command against the wrong engine, but
    // words naming the network by its checksum.
    let (said, _) = trained("alone-network", by_network, &[]);
    assert_holds(
        &said,
        &[
            "no test to print: its data was played (or scored) by the network of checksum",
            &format!("{checksum:016x}"),
            "--network",
        ],
    );
    assert!(!said.contains("--b n"), "{said}");
    // With --sprt it stops before training, and writes no network.
    let (ok, said, err, out) = run_on("alone-sprt", by_network, &["--sprt"]);
    assert!(!ok, "{said}");
    assert!(
        err.contains(&format!(
            "--sprt: its data was played (or scored) by the network of checksum {checksum:016x}"
        )),
        "{err}"
    );
    assert!(!said.contains("epoch 1"), "{said}");
    assert!(!Path::new(&out).exists());
    // Named by --network for data it did not play: said so.
    let (said, _) = trained("alone-named", classic, &["--network", network]);
    assert_holds(
        &said,
        &[
            &format!("test it against {network}, which --network names"),
            &format!("--b n150,nodes0=300,network={network} --sprt"),
        ],
    );
    // Named by --network (no game is played with it) or started from by --init.
    for (option, what) in [
        ("--network", "which played its games"),
        ("--init", "which it started from"),
    ] {
        let name = format!("alone{option}");
        let (said, out) = trained(&name, by_network, &[option, network]);
        assert_holds(
            &said,
            &[
                &format!("test it against {network}, {what}"),
                &format!(
                    "--a n150,nodes0=300,network={out} --b n150,nodes0=300,network={network} --sprt"
                ),
            ],
        );
    }
}

#[test]
fn train_on_any_number_of_threads_writes_the_same_network() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = |name: &str| folder.path().join(name).display().to_string();
    let rules = rules_path("brandubh");
    let train = |work: &str, out: &str, more: &[&str]| {
        let mut args = vec![
            "--rules", &rules, "--work", work, "--out", out, "--batch", "32", "--plies", "60",
        ];
        args.extend_from_slice(more);
        let (ok, said, err) = run("train", &args);
        assert!(ok, "{err}");
        said
    };
    // The games, played once, then trained on from their shard by each run.
    let played = path("played");
    train(
        &played,
        &path("played.nnue"),
        &[
            "--games", "12", "--nodes", "100", "--epochs", "1", "--jobs", "2",
        ],
    );
    let data = format!("{played}/games.shard");
    let network = |jobs: &str| {
        let out = path(&format!("jobs{jobs}.nnue"));
        let said = train(
            &path(&format!("work{jobs}")),
            &out,
            &[
                "--games", "0", "--data", &data, "--epochs", "2", "--jobs", jobs,
            ],
        );
        assert!(
            said.contains(&format!("samples a second on {jobs} threads")),
            "{said}"
        );
        std::fs::read(&out).expect("the network is written")
    };
    let one = network("1");
    assert!(
        network("2") == one,
        "--jobs 2 trains the network of --jobs 1"
    );
    assert!(
        network("3") == one,
        "--jobs 3 trains the network of --jobs 1"
    );
    // The same games in another order in their file, as threads that end them otherwise
    // write them: the same network.
    let shard = shard::read(Path::new(&data)).expect("the games");
    let mut games = shard.games.clone();
    games.reverse();
    assert_ne!(games, shard.games);
    let reversed = path("reversed.shard");
    let header = &shard.header;
    shard::write(
        Path::new(&reversed),
        header.layout,
        &header.settings,
        &games,
    )
    .expect("written");
    let out = path("reversed.nnue");
    train(
        &path("work-reversed"),
        &out,
        &[
            "--games", "0", "--data", &reversed, "--epochs", "2", "--jobs", "1",
        ],
    );
    assert!(
        std::fs::read(&out).expect("the network is written") == one,
        "a shard's order does not change the network"
    );
}

#[test]
fn train_makes_a_wide_network_the_match_runner_plays_and_keeps_a_run_at_its_width() {
    let folder = tempfile::tempdir().expect("a folder");
    let work = folder.path().join("work").display().to_string();
    let out = folder.path().join("wide.nnue").display().to_string();
    let rules = rules_path("brandubh");
    let args = |games: &str, hidden: Option<&str>| {
        let mut args = vec![
            "--rules", &rules, "--out", &out, "--work", &work, "--games", games, "--nodes", "60",
            "--plies", "60", "--epochs", "1", "--batch", "64", "--jobs", "2",
        ];
        args.extend(
            hidden
                .map(|hidden| ["--hidden", hidden])
                .into_iter()
                .flatten(),
        );
        run("train", &args)
    };

    // A width no network has is refused before anything is made.
    let (ok, _, err) = args("10", Some("200"));
    assert!(!ok);
    assert_holds(
        &err,
        &["--hidden", "`200` is not a width", "128 or 256 units"],
    );
    assert!(!Path::new(&work).exists(), "nothing made");

    let (ok, said, err) = args("10", Some("256"));
    assert!(ok, "{err}");
    assert_holds(
        &said,
        &["network: 256 hidden units", "epoch 1: training loss"],
    );
    let bytes = std::fs::read(&out).expect("the network is written");
    let network = Network::from_bytes(&out, &bytes).expect("a network");
    assert_eq!(network.hidden(), 256);
    let brandubh = Rules::parse(&std::fs::read(&rules).expect("reads")).expect("valid");
    network
        .check_rules(&out, &brandubh)
        .expect("made for brandubh");

    // Continued at the default width, the run is refused in words naming its folder,
    // before a game is played, and its network is left as it was.
    let (ok, _, err) = args("12", None);
    assert!(!ok);
    assert_holds(
        &err,
        &[
            &format!("{work}/checkpoint.bin"),
            "256 hidden units, not --hidden 128",
            "--hidden 256",
        ],
    );
    let games = shard::read(Path::new(&format!("{work}/games.shard")))
        .expect("the games")
        .games;
    assert_eq!(games.len(), 10, "no game played after the refusal");
    assert!(std::fs::read(&out).expect("still there") == bytes);

    // The match runner's side takes the wide network and plays a game with it.
    let mut side = parse_side(&format!("n100,network={out}")).expect("a side");
    let said = load_network(&mut side, &brandubh, Path::new(&rules));
    assert_eq!(said, format!("network {out}"));
    let a = Contender::Ours(Box::new(side));
    let b = parse_contender("n100").expect("a side");
    let settings = GameSettings {
        max_plies: 40,
        clock: None,
        verbose: false,
    };
    let report = play(&Game::new(brandubh), &a, &b, Player::One, &settings, 2);
    assert_eq!(report.failure, None, "{report:?}");
    assert!(report.played.plies > 0, "{report:?}");
}

#[test]
fn train_starts_from_a_given_network_and_refuses_one_that_does_not_fit() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = |name: &str| folder.path().join(name).display().to_string();
    let rules = rules_path("brandubh");
    let shipped = format!(
        "{}/../data/networks/brandubh.nnue",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = |work: &str, out: &str, init: &str, epochs: &str, extra: &[&str]| {
        let mut args = vec![
            "--rules", &rules, "--out", out, "--work", work, "--games", "16", "--depth", "1",
            "--plies", "60", "--epochs", epochs, "--batch", "64", "--jobs", "1", "--init", init,
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run_train = |args: Vec<String>| {
        run(
            "train",
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    };
    // No epoch: the network written is the one it started from, byte for byte.
    let (ok, said, err) = run_train(args(&path("a"), &path("a.nnue"), &shipped, "0", &[]));
    assert!(ok, "{err}");
    assert!(
        said.contains(&format!("training starts from network {shipped}")),
        "{said}"
    );
    let shipped_bytes = std::fs::read(&shipped).expect("shipped");
    assert!(std::fs::read(path("a.nnue")).expect("written") == shipped_bytes);
    // An epoch at a low rate moves it, a little.
    let (ok, _, err) = run_train(args(
        &path("b"),
        &path("b.nnue"),
        &shipped,
        "1",
        &["--lr", "0.0001"],
    ));
    assert!(ok, "{err}");
    let trained = std::fs::read(path("b.nnue")).expect("written");
    assert!(trained != shipped_bytes);
    assert_eq!(trained.len(), shipped_bytes.len());
    // A network of another board, or of another width, is refused by name.
    let tablut = format!(
        "{}/../data/networks/tablut.nnue",
        env!("CARGO_MANIFEST_DIR")
    );
    let (ok, _, err) = run_train(args(&path("c"), &path("c.nnue"), &tablut, "1", &[]));
    assert!(!ok);
    assert!(
        err.contains(&format!("network {tablut}: it was made for a 9x9 board")),
        "{err}"
    );
    let (ok, _, err) = run_train(args(
        &path("d"),
        &path("d.nnue"),
        &shipped,
        "1",
        &["--hidden", "256"],
    ));
    assert!(!ok);
    assert!(err.contains("128 hidden units, not --hidden 256"), "{err}");
    assert!(!Path::new(&path("c.nnue")).exists() && !Path::new(&path("d.nnue")).exists());
}
