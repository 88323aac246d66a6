//! The data pipeline as programs: `train` from an opening set at a fixed depth, balanced
//! by result, trained with another run's shard; `shards` merging runs and refusing a
//! shard of another layout by name.

// The helpers that run a package's programs, shared with the match crate's tests.
#[path = "../../matches/tests/programs/mod.rs"]
mod programs;

use aim::nnue::Network;
use hnefatafl_core::Rules;
use hnefatafl_learn::shard;
use programs::{assert_holds, rules as rules_path, run};
use std::path::Path;

/// `train`'s arguments for a tiny run of `games` games into `work`.
fn tiny(rules: &str, work: &Path, out: &Path, games: &str) -> Vec<String> {
    let openings = format!(
        "{}/../matches/openings/brandub.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let (out, work) = (out.display().to_string(), work.display().to_string());
    [
        "--rules",
        rules,
        "--out",
        &out,
        "--work",
        &work,
        "--games",
        games,
        "--depth",
        "2",
        "--openings",
        &openings,
        "--opening",
        "2",
        "--plies",
        "60",
        "--epochs",
        "1",
        "--batch",
        "64",
        "--jobs",
        "2",
        "--symmetry",
        "off",
    ]
    .map(String::from)
    .to_vec()
}

fn program(name: &str, args: &[String]) -> (bool, String, String) {
    run(name, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_run_from_openings_trains_with_another_runs_shard_and_shards_merge() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = |name: &str| folder.path().join(name);
    let brandub = rules_path("brandub");
    let (ok, said, err) = program("train", &tiny(&brandub, &path("a"), &path("a.nnue"), "12"));
    assert!(ok, "{err}");
    assert_holds(
        &said,
        &[
            "self-play starts from the 50 openings of ",
            "playing 12 games of 12 on 2 threads at depth 2 a move",
            "self-play: 12 games, ",
            "data: 12 games, player 0 won ",
            "balance: positions of player 0's wins ",
            "--a d2,network=",
        ],
    );
    let rules = Rules::parse(&std::fs::read(&brandub).expect("reads")).expect("rules");
    let bytes = std::fs::read(path("a.nnue")).expect("the network is written");
    Network::for_rules("a.nnue", &bytes, &rules).expect("a network for brandub");
    let a_shard = path("a").join("games.shard");
    let mut a_games = shard::read(&a_shard).expect("the shard").games;
    a_games.sort_by_key(|game| game.number);
    assert_eq!(a_games.len(), 12);

    // A second run (another seed) trains on its games and the first run's shard.
    let mut second = tiny(&brandub, &path("b"), &path("b.nnue"), "10");
    second.extend(["--seed", "2", "--data"].map(String::from));
    second.push(a_shard.display().to_string());
    let (ok, said, err) = program("train", &second);
    assert!(ok, "{err}");
    assert!(
        said.contains(&format!("{}: 12 games, ", a_shard.display())),
        "{said}"
    );
    assert!(said.contains("data: 22 games, "), "{said}");

    // A run of the first one's settings plays its games again: given that shard, it
    // trains on each game once. One of another engine (depth 1) from the same seed
    // starts where those games did but plays others, and keeps them all.
    let repeats = |said: &str| {
        said.lines()
            .find_map(|line| {
                line.trim()
                    .split_once(" games start where an earlier one did")
            })
            .map_or(0, |(count, _)| count.parse::<usize>().expect("a count"))
    };
    let mut again = tiny(&brandub, &path("d"), &path("d.nnue"), "12");
    again.extend(["--data".to_string(), a_shard.display().to_string()]);
    let (ok, said, err) = program("train", &again);
    assert!(ok, "{err}");
    assert!(repeats(&said) >= 12, "{said}");
    let mut shallower = again.clone();
    let value_of =
        |args: &[String], flag: &str| args.iter().position(|a| a == flag).expect(flag) + 1;
    let (work, depth) = (
        value_of(&shallower, "--work"),
        value_of(&shallower, "--depth"),
    );
    shallower[work] = path("e").display().to_string();
    shallower[depth] = "1".to_string();
    let (ok, said, err) = program("train", &shallower);
    assert!(ok, "{err}");
    assert!(said.contains("data: 24 games, "), "{said}");
    assert!(repeats(&said) < 12, "{said}");

    // The two shards merge into one of 22 games; `info` tells what it holds.
    let b_shard = path("b").join("games.shard").display().to_string();
    let all = path("all.shard").display().to_string();
    let merge = |inputs: &[&str]| {
        let mut args = vec!["merge".to_string(), "--out".to_string(), all.clone()];
        args.extend(inputs.iter().map(|s| s.to_string()));
        program("shards", &args)
    };
    let a_name = a_shard.display().to_string();
    let (ok, said, err) = merge(&[&a_name, &b_shard]);
    assert!(ok, "{err}");
    assert!(said.contains("22 games"), "{said}");
    let merged = shard::read(Path::new(&all)).expect("the merged shard");
    assert_eq!(merged.games.len(), 22);
    assert!(
        merged.games[..12] == a_games[..],
        "the first shard's games first, in order"
    );
    let (ok, said, err) = program("shards", &["info".to_string(), all.clone()]);
    assert!(ok, "{err}");
    assert_holds(
        &said,
        &[
            "a 7x7 board with 3 piece types",
            "22 games (",
            "settings: rules ",
        ],
    );

    // A shard of tablut's layout is refused by merge and by train, named.
    let tablut = rules_path("tablut");
    let mut other = tiny(&tablut, &path("t"), &path("t.nnue"), "1");
    // Brandub's openings are not tablut's.
    other.drain(10..12);
    let _ = program("train", &other);
    let t_shard = path("t").join("games.shard").display().to_string();
    assert_eq!(
        shard::read(Path::new(&t_shard))
            .expect("written")
            .games
            .len(),
        1
    );
    let (ok, _, err) = merge(&[&a_name, &t_shard]);
    assert!(!ok);
    assert!(
        err.contains(&format!("{t_shard}: its games are of a 9x9 board")),
        "{err}"
    );
    let mut refused = tiny(&brandub, &path("c"), &path("c.nnue"), "10");
    refused.extend(["--data".to_string(), t_shard.clone()]);
    let (ok, _, err) = program("train", &refused);
    assert!(!ok);
    assert!(err.contains(&t_shard) && err.contains("9x9"), "{err}");
}

#[test]
fn a_work_folder_of_the_earlier_form_is_turned_into_a_shard() {
    use hnefatafl_learn::selfplay::{SelfPlay, play_game, write_game};
    let folder = tempfile::tempdir().expect("a folder");
    let work = folder.path().join("w");
    std::fs::create_dir_all(&work).expect("a folder");
    let brandubh = rules_path("brandubh");
    let rules = Rules::parse(&std::fs::read(&brandubh).expect("reads")).expect("rules");
    // What `train --nodes 150 --opening 4 --plies 60 --seed 1` plays.
    let settings = SelfPlay {
        nodes: 150,
        nodes_as: [None, None],
        depth: None,
        opening_plies: 4,
        openings: None,
        max_plies: 60,
        seed: 1,
        network: None,
    };
    let games: Vec<_> = (0..10).map(|n| play_game(&rules, &settings, n)).collect();
    let mut bytes = Vec::new();
    games.iter().for_each(|game| write_game(game, &mut bytes));
    std::fs::write(work.join("games.bin"), &bytes).expect("writes");
    let line = settings.describe(&rules) + "\n";
    std::fs::write(work.join("settings.txt"), line).expect("writes");
    let out = folder.path().join("b.nnue").display().to_string();
    let args = [
        "--rules",
        &brandubh,
        "--out",
        &out,
        "--work",
        &work.display().to_string(),
        "--games",
        "10",
        "--nodes",
        "150",
        "--plies",
        "60",
        "--epochs",
        "1",
        "--jobs",
        "1",
    ]
    .map(String::from);
    let (ok, said, err) = program("train", &args);
    assert!(ok, "{err}");
    assert!(
        said.contains("10 games of the earlier form written into"),
        "{said}"
    );
    assert!(!said.contains("playing "), "none is played again: {said}");
    let read = shard::read(&work.join("games.shard")).expect("the shard");
    assert!(read.games == games, "the same games");
}

#[test]
fn a_killed_run_keeps_its_finished_games_and_the_next_plays_on() {
    let folder = tempfile::tempdir().expect("a folder");
    let work = folder.path().join("w");
    let shard_path = work.join("games.shard");
    let copenhagen = rules_path("copenhagen");
    let out = folder.path().join("c.nnue").display().to_string();
    let args = |games: &str| {
        [
            "--rules",
            &copenhagen,
            "--out",
            &out,
            "--work",
            &work.display().to_string(),
            "--games",
            games,
            "--nodes",
            "300",
            "--plies",
            "120",
            "--epochs",
            "0",
            "--jobs",
            "1",
        ]
        .map(String::from)
    };
    let program = assert_cmd::cargo::cargo_bin("train");
    let mut child = std::process::Command::new(&program)
        .args(args("100000"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("train starts");
    // Kill it once it has written nine games (polled, for at most two minutes), so that
    // one more makes the ten the trainer needs (one held out).
    let started = std::time::Instant::now();
    while shard::read(&shard_path).map_or(0, |read| read.games.len()) < 9 {
        assert!(
            started.elapsed().as_secs() < 120,
            "nine games in two minutes"
        );
        assert!(child.try_wait().expect("waits").is_none(), "still playing");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().expect("killed");
    child.wait().expect("ends");
    let kept = shard::read(&shard_path)
        .expect("a killed run's shard reads")
        .games;
    assert!(kept.len() >= 9, "{}", kept.len());
    // Asked for one game more than it finished, the next run plays just that one.
    let wanted = (kept.len() + 1).to_string();
    let (ok, said, err) = program_run(&args(&wanted));
    assert!(ok, "{err}");
    assert!(
        said.contains(&format!("playing 1 games of {wanted} ")),
        "{said}"
    );
    let after = shard::read(&shard_path).expect("reads");
    assert!(!after.stopped, "the next run mends it");
    assert!(
        after.games[..kept.len()] == kept[..],
        "the finished games are kept"
    );
    assert_eq!(after.games.len(), kept.len() + 1);
}

fn program_run(args: &[String]) -> (bool, String, String) {
    program("train", args)
}

#[test]
fn recorded_games_are_imported_the_same_on_any_threads_and_trained_on() {
    let folder = tempfile::tempdir().expect("a folder");
    let path = |name: &str| folder.path().join(name).display().to_string();
    let recorded = format!(
        "{}/../core/tests/data/copenhagen_games.csv.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = hnefatafl_matches::record::read_record_file(Path::new(&recorded)).expect("reads");
    // The first 40 human games, with one repeated: a game with a result is imported once.
    let mut lines: Vec<&str> = text.lines().take(40).collect();
    let first_won = *lines
        .iter()
        .find(|line| {
            (line.ends_with(",Black") || line.ends_with(",White")) && !line.contains("timeout")
        })
        .expect("a game won");
    lines.push(first_won);
    let games = programs::write_file(folder.path(), "games.csv", lines.join("\n"));
    let copenhagen = rules_path("copenhagen");
    let import = |out: &str, jobs: &str| {
        program(
            "shards",
            &[
                "import",
                "--rules",
                &copenhagen,
                "--games",
                &games,
                "--out",
                out,
                "--nodes",
                "30",
                "--jobs",
                jobs,
            ]
            .map(String::from),
        )
    };
    let (ok, said, err) = import(&path("one.shard"), "1");
    assert!(ok, "{err}");
    let (ok, _, err) = import(&path("two.shard"), "2");
    assert!(ok, "{err}");
    let one = shard::read(Path::new(&path("one.shard"))).expect("a shard");
    let two = shard::read(Path::new(&path("two.shard"))).expect("a shard");
    assert!(one.games == two.games, "the same games on 1 and 2 threads");
    // What the records say, counted here from their text.
    let with = |word: &str| {
        lines[..40]
            .iter()
            .filter(|line| line.ends_with(word) && !line.contains("timeout"))
            .count()
    };
    let (black, white, drawn) = (with(",Black"), with(",White"), with(",Draw"));
    assert_eq!(one.games.len(), black + white + drawn);
    assert_eq!(one.games.iter().filter(|g| g.result == 1).count(), black);
    assert_eq!(one.games.iter().filter(|g| g.result == -1).count(), white);
    assert!(
        said.contains(&format!(
            "wrote {}: {} games",
            path("one.shard"),
            one.games.len()
        )),
        "{said}"
    );
    assert!(said.contains(", 1 repeated"), "{said}");
    assert!(one.header.settings.starts_with("recorded games of "));

    // Trained on beside self-play: every recorded game counts, none is dropped as a
    // repeat though all start from the start position.
    let args = [
        "--rules",
        &copenhagen,
        "--out",
        &path("c.nnue"),
        "--work",
        &path("w"),
        "--games",
        "2",
        "--depth",
        "1",
        "--plies",
        "20",
        "--epochs",
        "1",
        "--jobs",
        "2",
        "--data",
        &path("one.shard"),
    ]
    .map(String::from);
    let (ok, said, err) = program("train", &args);
    assert!(ok, "{err}");
    assert!(
        said.contains(&format!("data: {} games, ", one.games.len() + 2)),
        "{said}"
    );
    assert!(!said.contains("start where an earlier one did"), "{said}");

    // A record with a move that is not legal: the file and line are named, and no shard
    // is written.
    let bad = programs::write_file(
        folder.path(),
        "bad.csv",
        "h1-h3,0,0,Black\nh1-h9,0,0,White\n",
    );
    let (ok, _, err) = program(
        "shards",
        &[
            "import",
            "--rules",
            &copenhagen,
            "--games",
            &bad,
            "--out",
            &path("bad.shard"),
        ]
        .map(String::from),
    );
    assert!(!ok);
    assert!(err.contains(&format!("{bad}: line 2: `h1-h9`")), "{err}");
    assert!(!Path::new(&path("bad.shard")).exists());
}
