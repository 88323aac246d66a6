//! Replays every recorded game of the conformance corpus and compares every answer, board
//! and end with the engine's.
//!
//! The corpus is read from `$HNEFATAFL_CONFORMANCE_DIR`, or else from `shared/conformance`
//! beside the workspace.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use hnefatafl_core::{Game, Rules};

fn corpus_dir() -> PathBuf {
    match std::env::var_os("HNEFATAFL_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"),
    }
}

/// Replays one case file; returns the number of tries and the mismatches found.
fn replay(path: &Path, rules_dir: &Path) -> Result<(usize, Vec<String>), String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let lines = gleipnir::parse(&text).map_err(|e| e.to_string())?;
    let mut game: Option<Game> = None;
    let mut tries = 0;
    let mut mismatches = Vec::new();
    let mut last_try = String::new();
    for line in &lines {
        let words: Vec<&str> = line.words.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["rules", name] => {
                let rules_text = std::fs::read(rules_dir.join(name))
                    .map_err(|e| format!("rules {name}: {e}"))?;
                let rules = Rules::parse(&rules_text).map_err(|e| format!("rules {name}: {e}"))?;
                game = Some(Game::new(rules));
            }
            ["try", x1, y1, x2, y2, answer] => {
                let game = game.as_mut().ok_or("try before rules")?;
                tries += 1;
                last_try = format!("line {}: try {x1} {y1} {x2} {y2}", line.number);
                let mv = game
                    .rules()
                    .parse_move(&[x1, y1, x2, y2])
                    .map_err(|e| format!("{last_try}: {e}"))?;
                let result = game.try_play(mv).map(|_| ());
                let legal = result.is_ok();
                let expected = *answer == "legal";
                if legal != expected {
                    mismatches.push(format!(
                        "{last_try}: recorded {answer}, engine says {result:?}"
                    ));
                }
            }
            ["board", squares @ ..] => {
                let game = game.as_ref().ok_or("board before rules")?;
                let ours: Vec<String> = game
                    .position()
                    .board()
                    .map(|piece| piece.map_or(0, |piece| piece.bit()).to_string())
                    .collect();
                if ours.len() != squares.len()
                    || ours.iter().zip(squares.iter()).any(|(a, b)| a != b)
                {
                    let mut message = format!("{last_try}: board differs at squares");
                    let width = usize::from(game.rules().width());
                    for (i, (a, b)) in ours.iter().zip(squares.iter()).enumerate() {
                        if a != b {
                            let _ = write!(
                                message,
                                " ({} {}: recorded {b}, engine {a})",
                                i % width,
                                i / width
                            );
                        }
                    }
                    mismatches.push(message);
                }
            }
            ["end", rest @ ..] => {
                let game = game.as_ref().ok_or("end before rules")?;
                let ours = match game.outcome() {
                    None => "ongoing".to_owned(),
                    Some(outcome) => match outcome.winner {
                        Some(winner) => format!("win {}", winner.index()),
                        None => "draw".to_owned(),
                    },
                };
                let recorded = rest.join(" ");
                if ours != recorded {
                    mismatches.push(format!(
                        "line {}: recorded end {recorded}, engine {ours} ({:?})",
                        line.number,
                        game.outcome()
                    ));
                }
            }
            _ => return Err(format!("line {}: unknown record {:?}", line.number, words)),
        }
    }
    Ok((tries, mismatches))
}

#[test]
fn conformance() {
    let dir = corpus_dir();
    let cases_dir = dir.join("cases");
    let rules_dir = dir.join("rules");
    let entries = std::fs::read_dir(&cases_dir).unwrap_or_else(|e| {
        panic!(
            "the conformance corpus is missing: cannot read {} ({e}); set HNEFATAFL_CONFORMANCE_DIR",
            cases_dir.display()
        )
    });
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "game"));
    files.sort();
    assert!(
        !files.is_empty(),
        "no .game files in {}",
        cases_dir.display()
    );
    let mut tries = 0;
    let mut failures = Vec::new();
    for file in &files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match replay(file, &rules_dir) {
            Ok((count, mismatches)) => {
                tries += count;
                failures.extend(mismatches.into_iter().map(|m| format!("{name}: {m}")));
            }
            Err(error) => failures.push(format!("{name}: {error}")),
        }
    }
    // Written to the stream itself, not through `println!`, so that the test harness
    // does not capture the summary: it shows on every run.
    let summary = format!(
        "conformance: {} games, {} tries, {} mismatches\n",
        files.len(),
        tries,
        failures.len()
    );
    std::io::Write::write_all(&mut std::io::stdout(), summary.as_bytes())
        .expect("stdout is writable");
    for failure in failures.iter().take(50) {
        eprintln!("{failure}");
    }
    assert!(
        failures.is_empty(),
        "{} mismatches; the first: {}",
        failures.len(),
        failures[0]
    );
}
