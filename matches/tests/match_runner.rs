//! The match runner and the opening maker as programs: their real binaries on the shipped
//! rule files.

mod programs;

use programs::{assert_holds, rules, run, write_file};

/// Runs `program` on the shipped rule file `rules_name` with the further arguments `words`
/// (split at spaces: none of them holds one).
fn run_on(program: &str, rules_name: &str, words: &str) -> (bool, String, String) {
    let path = rules(rules_name);
    let args: Vec<&str> = ["--rules", &path]
        .into_iter()
        .chain(words.split_whitespace())
        .collect();
    run(program, &args)
}

#[test]
fn an_sprt_stops_when_it_decides() {
    // Depth 2 against a depth-1 search of level 1's imperfection is no contest: the test
    // must accept H1 long before the cap of 200 games.
    let (ok, out, err) = run_on(
        "match",
        "brandub",
        "--a d2 --b level=1 --sprt 0,10 --games 200",
    );
    assert!(ok, "{err}");
    assert!(out.contains("H1 accepted"), "{out}");
    let games = out.lines().filter(|line| line.starts_with("game ")).count();
    assert!((20..200).contains(&games), "{games} games:\n{out}");
}

#[test]
fn a_clock_game_is_played_on_the_clock() {
    let (ok, out, err) = run_on("match", "brandub", "--games 2 --clock 2+0.05");
    assert!(ok, "{err}");
    assert!(out.contains("clock: 0 games lost on time"), "{out}");
}

#[test]
fn openings_are_made_read_and_played_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (ok, set, err) = run_on("openings", "tablut", "--count 3 --depth 2");
    assert!(ok, "{err}");
    assert_eq!(
        set.lines().filter(|l| !l.starts_with('#')).count(),
        3,
        "{set}"
    );
    let path = write_file(dir.path(), "tablut.txt", &set);
    let (ok, out, err) = run_on(
        "match",
        "tablut",
        &format!("--openings {path} --a d1 --b d1 --games 2"),
    );
    assert!(ok, "{err}");
    assert!(out.contains("3 openings from"), "{out}");

    let bad = write_file(dir.path(), "bad.txt", format!("{set}e5 e6, zz1 a1\n"));
    let (ok, _, err) = run_on(
        "match",
        "tablut",
        &format!("--openings {bad} --a d1 --b d1"),
    );
    assert!(!ok);
    assert!(err.contains("bad.txt: line 5:"), "{err}");
}

#[test]
fn openings_come_from_recorded_games_and_a_bad_record_is_named() {
    let records = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/copenhagen_games.csv.gz"
    );
    let openings = |games: &str| {
        let words = format!("--games {games} --count 3 --depth 1 --max-score 1000");
        run_on("openings", "copenhagen", &words)
    };
    let (ok, set, err) = openings(records);
    assert!(ok, "{err}");
    let lines: Vec<&str> = set.lines().filter(|l| !l.starts_with('#')).collect();
    // The most played opening of the human games, 22 of them by the records.
    assert_eq!(lines.len(), 3, "{set}");
    assert_eq!(lines[0], "h1 h3, d6 d3, f2 c2, f4 i4", "{set}");
    assert!(set.starts_with("# 3 openings for"), "{set}");
    assert!(set.contains("most played 4-ply openings of"), "{set}");

    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = write_file(
        dir.path(),
        "games.csv",
        "h1-h3 d6-d3 f2-c2 f4-i4 a4-c4,0,0,White\nh1-h3 d6-d3 f2-c2 f4-f9 a4-c4,0,0,White\n",
    );
    let (ok, _, err) = openings(&bad);
    assert!(!ok);
    assert!(err.contains("games.csv: line 2: `f4-f9`"), "{err}");
}

#[test]
fn a_gauntlet_plays_each_opponent() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let opponents = "# opponents\ndepth 1: d1\nno reductions: d2,reductions=0\n";
    let path = write_file(dir.path(), "gauntlet.txt", opponents);
    let (ok, out, err) = run_on(
        "match",
        "brandub",
        &format!("--a d2 --gauntlet {path} --games 2"),
    );
    assert!(ok, "{err}");
    assert_holds(&out, &["against depth 1: ", "against no reductions: "]);

    std::fs::write(&path, "depth 1 d1\n").expect("written");
    let (ok, _, err) = run_on("match", "brandub", &format!("--a d2 --gauntlet {path}"));
    assert!(!ok);
    assert!(err.contains("gauntlet.txt:1: not `name: side`"), "{err}");
}

#[test]
fn a_match_stopped_early_goes_on_from_its_report() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let words = "--a d2 --b d1 --games 6 --seed 3";
    let (ok, whole, err) = run_on("match", "brandub", words);
    assert!(ok, "{err}");
    let game_lines = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|line| line.starts_with("game "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(game_lines(&whole).len(), 6, "{whole}");
    // The report as a stop left it: its first three games, the third's line changed to
    // a result no game of this match plays (the cap is 300 plies), so a game read back
    // cannot be told from one played again by chance.
    let mut cut: Vec<String> = whole
        .lines()
        .take_while(|line| !line.starts_with("game "))
        .map(str::to_owned)
        .collect();
    let earlier = &game_lines(&whole)[..3];
    let third = earlier[2].clone();
    let (number, _) = third.split_once(" -> ").expect("a game's line");
    let changed = format!("{number} -> Loss in 999 plies (A 0-0-3)");
    cut.extend([earlier[0].clone(), earlier[1].clone(), changed.clone()]);
    let report = write_file(dir.path(), "report.txt", cut.join("\n") + "\n");

    let (ok, resumed, err) = run_on("match", "brandub", &format!("{words} --resume {report}"));
    assert!(ok, "{err}");
    let lines = game_lines(&resumed);
    assert_eq!(lines.len(), 6, "{resumed}");
    assert_eq!(lines[..2], earlier[..2], "{resumed}");
    let third_read = lines[2].split_once(" (A ").expect("the tally").0;
    assert_eq!(third_read, changed.split_once(" (A ").expect("the tally").0);
    // The games played now are those the report did not hold.
    let numbers: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|line| line.split(':').next().expect("a number").trim())
        .collect();
    assert_eq!(numbers.len(), 6, "{resumed}");
    let losses = |out: &str| -> u32 {
        let line = out
            .lines()
            .find(|l| l.starts_with("A: "))
            .expect("the total");
        let losses = line.split(", ").nth(2).expect("the losses");
        losses
            .split(' ')
            .next()
            .expect("a count")
            .parse()
            .expect("a number")
    };
    let counted = lines.iter().filter(|l| l.contains("-> Loss")).count();
    assert_eq!(losses(&resumed) as usize, counted, "{resumed}");

    // A report of another match (another seed) is refused before any game is played.
    let other = words.replace("--seed 3", "--seed 4");
    let (ok, out, err) = run_on("match", "brandub", &format!("{other} --resume {report}"));
    assert!(!ok);
    assert!(
        err.contains("report.txt: not a report of this match"),
        "{err}"
    );
    assert!(game_lines(&out).is_empty(), "{out}");
    // A line of it that does not read is named.
    let broken = write_file(
        dir.path(),
        "broken.txt",
        cut.join("\n").replace("-> Loss in 999", "-> Lost in 999"),
    );
    let (ok, _, err) = run_on("match", "brandub", &format!("{words} --resume {broken}"));
    assert!(!ok);
    assert!(
        err.contains(&format!("broken.txt:{}: game 3: not", cut.len())),
        "{err}"
    );
}

#[test]
fn the_tuner_plays_games_and_prints_weights_the_match_runner_reads() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let saved = dir.path().join("games.txt");
    let saved = saved.to_str().expect("a path");
    let (ok, first, err) = run_on(
        "tune",
        "brandub",
        &format!(
            "--games 5 --nodes 300 --nodes0 900 --passes 2 --holdout 20 --keys mobility,tempo,escape1,fork_one --save {saved}"
        ),
    );
    assert!(ok, "{first}\n{err}");
    let out = &first;
    assert!(
        out.contains("5 games at 300 nodes a move (player 0 900, player 1 300): player 0 won "),
        "{out}"
    );
    // Game 0 of every five is held out: one game here.
    assert_eq!(err.matches("game ").count(), 5, "{err}");
    let held = out
        .lines()
        .find_map(|line| line.strip_prefix("hold-out: "))
        .unwrap_or_else(|| panic!("no hold-out line in {out}"));
    let game0 = err
        .lines()
        .find_map(|line| line.strip_prefix("game 0: "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no game 0 in {err}"));
    assert!(
        held.starts_with(&format!("{game0} positions ")),
        "{held} / {err}"
    );
    let tuned = out
        .lines()
        .find_map(|line| line.strip_prefix("tuned: "))
        .unwrap_or_else(|| panic!("no tuned weights in {out}"));
    let tuned_weights: Vec<(&str, i32)> = tuned
        .split(',')
        .map(|w| {
            let (key, value) = w.split_once('=').expect("key=value");
            (key, value.parse().expect("a number"))
        })
        .collect();
    assert_eq!(
        tuned_weights.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        ["mobility", "tempo", "escape1", "fork_one"]
    );
    // Each weight within a quarter and four times its default (3, 10, 40), and a weight
    // that is off by default (fork_one) within 0 and four pieces.
    for ((key, value), (low, high)) in
        tuned_weights
            .iter()
            .zip([(0, 12), (2, 40), (10, 160), (0, 400)])
    {
        assert!((low..=high).contains(value), "{key}={value} in {tuned}");
    }
    // The match runner takes them as a side.
    let side = format!("d1,{tuned}");
    let (ok, out, err) = run_on("match", "brandub", &format!("--games 2 --a {side} --b d1"));
    assert!(ok, "{out}\n{err}");

    // The saved games are tuned on again without playing: the same data, the same fit.
    let (ok, again, err) = run_on(
        "tune",
        "brandub",
        &format!("--load {saved} --passes 2 --keys mobility,tempo,escape1,fork_one"),
    );
    assert!(ok, "{again}\n{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        again.starts_with(&format!("5 games from {saved}: player 0 won ")),
        "{again}"
    );
    let from = |text: &str| {
        text.lines()
            .skip_while(|line| !line.starts_with("training: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(from(&again), from(&first), "{again}");

    // A bad line of a saved file is named.
    std::fs::write(saved, "0;1;;a1 a2\nnot a game\n").expect("written");
    let (ok, _, err) = run_on("tune", "brandub", &format!("--load {saved}"));
    assert!(!ok);
    assert!(err.contains("games.txt: line 1: `a1 a2`"), "{err}");

    // A weight that does not exist is named.
    let (ok, _, err) = run_on("tune", "brandub", "--keys mobility,speed");
    assert!(!ok);
    assert!(err.contains("`speed` is not a weight"), "{err}");
}

#[test]
fn a_used_up_opening_set_gives_new_pairs_not_the_same_again() {
    // One opening, two pairs: at fixed depth the second pair would be the first again, so
    // it starts two random plies later, both of its games from the same position.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = write_file(dir.path(), "one.txt", "b5 b1, d5 d6, a4 a2, d6 d4\n");
    let (ok, out, err) = run_on(
        "match",
        "tablut",
        &format!("--openings {path} --a d1 --b d1 --games 4 --plies 6 --verbose"),
    );
    assert!(ok, "{out}\n{err}");
    let games: Vec<Vec<&str>> = out
        .split("\ngame ")
        .map(|game| {
            game.lines()
                .filter_map(|line| line.trim().strip_prefix("ply "))
                .collect()
        })
        .take(4)
        .collect();
    // Each listed move is `ply N: <side> <move> score ...`.
    let split = |line: &str| -> (String, String) {
        let (ply, rest) = line.split_once(':').unwrap_or_default();
        let mv = rest.split(" score").next().unwrap_or_default();
        (ply.trim().to_string(), mv.trim().to_string())
    };
    let starts: Vec<String> = games
        .iter()
        .map(|game| game.first().map(|line| split(line).0).unwrap_or_default())
        .collect();
    assert_eq!(starts, ["4", "4", "6", "6"], "{out}");
    // The second pair's games are not the first pair's.
    let moves = |game: &[&str]| -> Vec<String> { game.iter().map(|line| split(line).1).collect() };
    assert_ne!(moves(&games[0]), moves(&games[2]), "{out}");
}

#[test]
fn a_side_asking_for_the_network_gets_the_rule_files_own_or_the_classic_with_the_reason() {
    // The rule file's own network: the shipped one where there is one; where there is
    // none, classic, and why.
    let own = |name: &str| {
        let (ok, said, err) = run_on(
            "match",
            name,
            "--a n100,eval=network --b n100 --games 2 --plies 20",
        );
        assert!(ok, "{err}");
        said
    };
    let said = own("tablut");
    assert_holds(
        &said,
        &["A evaluates with network ", "data/networks/tablut.nnue"],
    );
    let said = own("ard_ri");
    assert_holds(
        &said,
        &["A evaluates with classic (network ", "ard_ri.nnue"],
    );
}
