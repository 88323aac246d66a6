//! Replays every recorded game of the conformance corpus and compares every answer, board
//! and end with the engine's.
//!
//! The corpus is read from the directory `$HNEFATAFL_CONFORMANCE_DIR` when it is set, or
//! else from the compressed copy carried in the repository,
//! `core/tests/data/conformance.tar.gz` (the `rules/` and `cases/` folders of the
//! corpus, under `conformance/`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use hnefatafl_core::{Game, Rules};

/// The corpus's files by their path below the corpus folder (`rules/brandub`,
/// `cases/brandub-001.game`).
type Corpus = BTreeMap<String, Vec<u8>>;

/// The compressed corpus carried in the repository.
fn archive() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance.tar.gz")
}

/// Reads the corpus from a directory.
fn read_dir(dir: &Path) -> Result<Corpus, String> {
    let mut corpus = Corpus::new();
    for folder in ["rules", "cases"] {
        let path = dir.join(folder);
        let entries =
            std::fs::read_dir(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let bytes = std::fs::read(entry.path())
                .map_err(|e| format!("cannot read {}: {e}", entry.path().display()))?;
            corpus.insert(format!("{folder}/{name}"), bytes);
        }
    }
    Ok(corpus)
}

/// Reads the corpus from the gzipped tar archive.
fn read_archive(path: &Path) -> Result<Corpus, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut corpus = Corpus::new();
    let entries = archive
        .entries()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = entry
            .path()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .to_string_lossy()
            .into_owned();
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{}: {name}: {e}", path.display()))?;
        if let Some(inside) = name.strip_prefix("conformance/") {
            corpus.insert(inside.to_owned(), bytes);
        }
    }
    Ok(corpus)
}

/// The corpus, and where it was read from.
fn corpus() -> (Corpus, String) {
    let (corpus, from) = match std::env::var_os("HNEFATAFL_CONFORMANCE_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            (read_dir(&dir), dir.display().to_string())
        }
        None => (read_archive(&archive()), archive().display().to_string()),
    };
    match corpus {
        Ok(corpus) => (corpus, from),
        Err(error) => panic!("the conformance corpus cannot be read: {error}"),
    }
}

/// Replays one case file; returns the number of tries and the mismatches found.
fn replay(text: &[u8], corpus: &Corpus) -> Result<(usize, Vec<String>), String> {
    let lines = gleipnir::parse(text).map_err(|e| e.to_string())?;
    let mut game: Option<Game> = None;
    let mut tries = 0;
    let mut mismatches = Vec::new();
    let mut last_try = String::new();
    for line in &lines {
        let words: Vec<&str> = line.words.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["rules", name] => {
                let rules_text = corpus
                    .get(&format!("rules/{name}"))
                    .ok_or_else(|| format!("rules {name}: not in the corpus"))?;
                let rules = Rules::parse(rules_text).map_err(|e| format!("rules {name}: {e}"))?;
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
    let (corpus, from) = corpus();
    let files: Vec<(&String, &Vec<u8>)> = corpus
        .iter()
        .filter(|(name, _)| name.starts_with("cases/") && name.ends_with(".game"))
        .collect();
    assert!(!files.is_empty(), "no cases/*.game files in {from}");
    let mut tries = 0;
    let mut failures = Vec::new();
    for (name, text) in &files {
        match replay(text, &corpus) {
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
