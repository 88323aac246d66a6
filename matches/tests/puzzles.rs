//! The puzzle set of forced wins from the human copenhagen games: every puzzle of the
//! committed file proven again by the solver, and the `puzzles` program driven on a few.

mod programs;

use hnefatafl_core::Rules;
use hnefatafl_matches::solve::puzzle::{Puzzle, move_word, read_puzzles};
use hnefatafl_matches::solve::{Search, Solver};
use programs::{rules, run, write_file};
use rayon::prelude::*;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

fn copenhagen() -> Rules {
    let text = std::fs::read(rules("copenhagen")).expect("the rule file");
    Rules::parse(&text).expect("valid rules")
}

fn committed_path() -> String {
    format!("{}/puzzles/copenhagen.txt", env!("CARGO_MANIFEST_DIR"))
}

fn committed() -> Vec<Puzzle> {
    let text = std::fs::read_to_string(committed_path()).expect("the puzzle file");
    read_puzzles(&copenhagen(), &text).expect("a good puzzle file")
}

/// Each puzzle's position, depth, end and winning moves, proven again by an exact search:
/// no win in fewer moves, and exactly those first moves winning at its depth.
fn reproven(puzzle: &Puzzle) -> Result<(), String> {
    let mut solver = Solver::new(200_000_000);
    let win = solver
        .solve(&puzzle.position, puzzle.depth, Search::Exact)
        .map_err(|e| e.to_string())?
        .ok_or("no forced win")?;
    let rules = puzzle.position.rules();
    let words =
        |moves: &[_]| -> Vec<String> { moves.iter().map(|&mv| move_word(rules, mv)).collect() };
    if (win.depth, words(&win.moves)) != (puzzle.depth, words(&puzzle.moves)) {
        return Err(format!(
            "the solver finds a win in {} by {:?}",
            win.depth,
            words(&win.moves)
        ));
    }
    Ok(())
}

#[test]
fn the_committed_set_has_two_hundred_puzzles_of_both_sides_each_proven_again() {
    let puzzles = committed();
    assert!(puzzles.len() >= 200, "{} puzzles", puzzles.len());
    let attackers = puzzles
        .iter()
        .filter(|p| p.side().map(|side| side.word()) == Ok("attackers"))
        .count();
    let deep = puzzles.iter().filter(|p| p.depth >= 2).count();
    assert!(attackers >= 50, "{attackers} attacker wins");
    assert!(puzzles.len() - attackers >= 50, "defender wins");
    assert!(
        deep * 2 >= puzzles.len(),
        "{deep} of {} in 2 or more",
        puzzles.len()
    );
    let started = Instant::now();
    let failures: Vec<String> = puzzles
        .par_iter()
        .filter_map(|puzzle| {
            reproven(puzzle)
                .err()
                .map(|e| format!("{}: {e}", puzzle.source))
        })
        .collect();
    println!(
        "{} puzzles proven again in {:.1} s",
        puzzles.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A puzzle file of two lines: a win in one, once as it is and once with its winning
/// moves replaced by a move that does not win.
fn two_puzzle_file(folder: &Path) -> String {
    let rules = copenhagen();
    let puzzle = committed()
        .into_iter()
        .find(|p| p.depth == 1 && p.moves.len() == 1)
        .expect("a win in one with one winning move");
    let mut wrong = puzzle.clone();
    let loser = puzzle
        .position
        .moves()
        .find(|mv| !puzzle.moves.contains(mv))
        .expect("another move");
    wrong.moves = vec![loser];
    let path = folder.join("two.txt");
    let text = format!(
        "# two puzzles\n{}\n\n{}\n",
        puzzle.to_line().expect("a line"),
        wrong.to_line().expect("a line")
    );
    std::fs::write(&path, text).expect("written");
    let _ = rules;
    path.display().to_string()
}

#[test]
fn the_engine_is_scored_by_the_winning_moves() {
    let folder = tempfile::tempdir().expect("a folder");
    let file = two_puzzle_file(folder.path());
    let copenhagen = rules("copenhagen");
    for eval in ["classic", "network"] {
        let (ok, said, err) = run(
            "puzzles",
            &[
                "solve",
                "--rules",
                &copenhagen,
                "--time",
                "0.2",
                "--eval",
                eval,
                "--verbose",
                &file,
            ],
        );
        assert!(ok, "{err}");
        // A win in one is found; the same move, where the file says it does not win, is
        // not counted.
        assert!(said.contains("all: 1/2 (50%)"), "{said}");
        let listed: Vec<&str> = said
            .lines()
            .filter(|line| line.contains(" in 1 (game="))
            .collect();
        assert_eq!(listed.len(), 2, "{said}");
        assert!(
            listed[0].starts_with("solved ") && listed[1].starts_with("missed "),
            "{said}"
        );
        assert!(
            said.contains(if eval == "classic" {
                "classic evaluation"
            } else {
                "copenhagen.nnue"
            }),
            "{said}"
        );
    }
}

#[test]
fn bad_files_are_named_with_the_line() {
    let folder = tempfile::tempdir().expect("a folder");
    let copenhagen = rules("copenhagen");
    // A run that must fail: what it said on its standard error.
    let refused = |args: &[&str]| {
        let (ok, _, err) = run("puzzles", args);
        assert!(!ok, "{args:?}");
        err
    };
    let file = write_file(
        folder.path(),
        "bad.txt",
        "# a comment\nattackers 2 capture a1-a2 /11/ game=1,ply=1\n",
    );
    let err = refused(&["solve", "--rules", &copenhagen, &file]);
    assert!(err.contains(&file) && err.contains("line 2"), "{err}");

    let games = "h1-h3 f8-i8,0,0,Ongoing\nh1-h3 h3-h1,0,0,Ongoing\n";
    let games = write_file(folder.path(), "games.csv", games);
    let err = refused(&["make", "--games", &games, "--rules", &copenhagen]);
    assert!(
        err.contains(&games) && err.contains("line 2") && err.contains("h3-h1"),
        "{err}"
    );
}

/// The games of the records whose last move is a king escape: each position before it is
/// a win in one for the king's side.
fn escaping_games(count: usize) -> String {
    let path = format!(
        "{}/../core/tests/data/copenhagen_games.csv.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = std::fs::File::open(&path).expect("the records");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip");
    let corners = ["a1", "a11", "k1", "k11"];
    text.lines()
        .filter(|line| {
            let moves = line.split(',').next().unwrap_or_default();
            let last = moves.split_whitespace().last().unwrap_or_default();
            line.ends_with("White")
                && corners
                    .iter()
                    .any(|corner| last.ends_with(&format!("-{corner}")))
        })
        .take(count)
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn puzzles_are_made_from_games_and_read_back() {
    let folder = tempfile::tempdir().expect("a folder");
    let games = folder.path().join("games.csv");
    std::fs::write(&games, escaping_games(3)).expect("written");
    let (ok, said, err) = run(
        "puzzles",
        &[
            "make",
            "--games",
            &games.display().to_string(),
            "--rules",
            &rules("copenhagen"),
            "--depth",
            "2",
            "--per-kind-in-one",
            "100",
        ],
    );
    assert!(ok, "{err}");
    let rules = copenhagen();
    let puzzles = read_puzzles(&rules, &said).expect("a puzzle file");
    // Each game's position before its escape, at least.
    assert!(puzzles.len() >= 3, "{said}");
    for game in 1..=3 {
        let source = format!("game={game},");
        assert!(
            puzzles
                .iter()
                .any(|p| p.source.starts_with(&source) && p.depth == 1),
            "no win in 1 from game {game}: {said}"
        );
    }
    for puzzle in &puzzles {
        reproven(puzzle).unwrap_or_else(|e| panic!("{}: {e}", puzzle.source));
    }
    assert!(said.starts_with("# Forced wins"), "{said}");
}

#[test]
fn the_program_prints_its_usage() {
    for (command, options) in [
        (
            "make",
            &[
                "--games",
                "--rules",
                "--depth",
                "--nodes",
                "--per-kind",
                "--per-kind-in-one",
            ][..],
        ),
        (
            "solve",
            &[
                "--rules",
                "--time",
                "--eval",
                "--network",
                "--hash",
                "--verbose",
            ][..],
        ),
    ] {
        let (ok, said, err) = run("puzzles", &[command, "--help"]);
        assert!(ok, "{err}");
        assert!(
            said.contains(&format!("Usage: puzzles {command}")),
            "{said}"
        );
        for option in options {
            assert!(said.contains(option), "{command}: no {option}: {said}");
        }
    }
    let (ok, said, _) = run("puzzles", &["--help"]);
    assert!(
        ok && said.contains("make") && said.contains("solve"),
        "{said}"
    );
}

#[test]
fn history_pruning_spares_the_moves_that_build_exit_forts() {
    use aim::{Engine, EngineConfig, Limits, Tuning};
    use hnefatafl_matches::solve::puzzle::{End, solves};
    let forts: Vec<Puzzle> = committed()
        .into_iter()
        .filter(|puzzle| puzzle.end == End::Fort)
        .collect();
    // A search past each line's end (the winner's moves and the answers between), deep
    // enough for history pruning to leave out moves of it.
    let solved = |tuning: Tuning| -> Vec<bool> {
        let mut engine = Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib: 1,
            },
            tuning,
        );
        forts
            .iter()
            .map(|puzzle| {
                let limits = Limits {
                    depth: Some(7),
                    ..Limits::default()
                };
                solves(&mut engine, puzzle, &limits).0
            })
            .collect()
    };
    let pruning = |history_pruning, spare_forts| Tuning {
        history_pruning,
        spare_forts,
        ..Tuning::default()
    };
    let spared = solved(pruning(true, true));
    let pruned = solved(pruning(true, false));
    let count = |found: &[bool]| found.iter().filter(|&&s| s).count();
    // Every fort puzzle is solved at this depth without history pruning (71 of 71 when
    // measured; `puzzles solve --set hprune=0` at 0.1 s too).
    assert_eq!(count(&spared), forts.len());
    assert!(count(&pruned) < forts.len());
}
