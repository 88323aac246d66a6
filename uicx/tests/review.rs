//! `review` in the real `hnefatafl` binary: a recorded human Copenhagen game gone over
//! move by move, its marks checked against the win chances it printed, and its graph
//! read back.

use std::path::Path;
use std::process::Output;

mod common;
use common::recorded::{GAME, game_commands};
use common::{home, on_shipped, output_of};

/// The graph's geometry, as `docs/analysis.md` gives it.
const WIDTH: u32 = 800;
const HEIGHT: u32 = 400;
const LEFT: f64 = 40.0;
const PLOT_WIDTH: f64 = 720.0;
const TOP: f64 = 20.0;
const PLOT_HEIGHT: f64 = 360.0;
/// The thresholds `docs/analysis.md` gives, in points of 100.
const MISTAKE: i32 = 10;
const BLUNDER: i32 = 20;

/// One reviewed move: the mover's side, its chance before and after, the drop printed
/// and the mark.
#[derive(Debug)]
struct Reviewed {
    number: usize,
    side: String,
    before: i32,
    after: i32,
    mark: Option<(String, i32)>,
}

/// `"attackers 55%"` as its side and percentage.
fn chance(text: &str) -> (String, i32) {
    let (side, percent) = text.trim().rsplit_once(' ').expect("a side and a chance");
    let percent = percent.trim_end_matches('%').parse().expect("a percentage");
    (side.to_owned(), percent)
}

/// `12. m 3 5 1 5 (d2-b2)  attackers 55% -> attackers 41%  mistake (-14), best m ...`
fn reviewed(line: &str) -> Option<Reviewed> {
    let (number, rest) = line.split_once(". m ")?;
    let number = number.parse().ok()?;
    let (_, rest) = rest.split_once(")  ")?;
    let (before, rest) = rest.split_once(" -> ")?;
    let (after, mark) = match rest.split_once("  ") {
        Some((after, mark)) => (after, Some(mark)),
        None => (rest, None),
    };
    let (side, before) = chance(before);
    let (after_side, after) = chance(after);
    assert_eq!(side, after_side, "{line}");
    let mark = mark.map(|mark| {
        let (word, rest) = mark.split_once(" (-").expect("a drop");
        let (drop, best) = rest.split_once("), best m ").expect("a best move");
        assert!(best.contains(" ("), "both notations: {line}");
        (word.to_owned(), drop.parse().expect("a drop"))
    });
    Some(Reviewed {
        number,
        side,
        before,
        after,
        mark,
    })
}

/// Runs the program on `rules` in English on this input, with no rc file.
fn run(home: &Path, rules: &str, input: impl Into<Vec<u8>>) -> Output {
    output_of(&mut on_shipped(home, rules), input)
}

/// On `rules`, reviews `record` named (`review --record`), then loaded (`e`), then runs
/// `then`: standard output and error.
fn review_named_and_loaded(
    home: &Path,
    rules: &str,
    record: &Path,
    then: &str,
) -> (String, String) {
    let script = format!(
        "review d1 --record {0}\ne {0}\nreview d1\n{then}\n",
        record.display()
    );
    let output = run(home, rules, script);
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The reviews' summary lines (`Review: 18 moves, ...`).
fn summaries(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| line.starts_with("Review: "))
        .collect()
}

fn run_review(home: &Path, plot: &Path) -> String {
    let mut input = game_commands();
    input.push_str(&format!("review t0.05 --plot {}\n", plot.display()));
    let output = run(home, "copenhagen", input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("Illegal"), "{stderr}");
    // The progress, one line a position in a pipe.
    assert!(stderr.contains("Reviewing position 19 of 19"), "{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_recorded_game_is_reviewed_and_its_marks_follow_the_printed_chances() {
    let home = home();
    let plot = home.path().join("game.png");
    let text = run_review(home.path(), &plot);
    assert!(
        text.contains("Player 0 wins") || text.contains("Player 1 wins"),
        "{text}"
    );
    let moves: Vec<Reviewed> = text.lines().filter_map(reviewed).collect();
    assert_eq!(moves.len(), 18, "{text}");
    let (mut mistakes, mut blunders) = (0, 0);
    for (index, reviewed) in moves.iter().enumerate() {
        assert_eq!(reviewed.number, index + 1);
        let side = if index % 2 == 0 {
            "attackers"
        } else {
            "defenders"
        };
        assert_eq!(reviewed.side, side, "{text}");
        let drop = reviewed.before - reviewed.after;
        match &reviewed.mark {
            Some((word, printed)) => {
                assert_eq!(*printed, drop, "{reviewed:?}");
                let expected = if drop >= BLUNDER {
                    "blunder"
                } else {
                    "mistake"
                };
                assert!(drop >= MISTAKE, "{reviewed:?}");
                assert_eq!(word, expected, "{reviewed:?}");
                if drop >= BLUNDER {
                    blunders += 1;
                } else {
                    mistakes += 1;
                }
            }
            None => assert!(drop < MISTAKE, "{reviewed:?}"),
        }
        // The chance after a move is the next mover's chance seen from the other side
        // (each rounded on its own, so one point may part them).
        if let Some(next) = moves.get(index + 1) {
            assert!((reviewed.after - (100 - next.before)).abs() <= 1, "{text}");
        }
    }
    // The defenders won: the last move leaves them a sure win.
    let last = moves.last().expect("moves");
    assert_eq!(
        (last.side.as_str(), last.after),
        ("defenders", 100),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Review: 18 moves, {mistakes} mistakes, {blunders} blunders."
        )),
        "{text}"
    );

    // The graph: its size, and the attackers' curve on the side of 50% that the printed
    // chances are, at each position.
    let image = image::open(&plot).expect("a PNG").to_rgb8();
    assert_eq!(image.dimensions(), (WIDTH, HEIGHT));
    let mut attackers: Vec<i32> = moves
        .iter()
        .map(|reviewed| {
            if reviewed.side == "attackers" {
                reviewed.before
            } else {
                100 - reviewed.before
            }
        })
        .collect();
    attackers.push(100 - last.after);
    let curve = image::Rgb([20, 60, 200]);
    let middle = TOP + PLOT_HEIGHT / 2.0;
    let mut sides = Vec::new();
    for (index, &percent) in attackers.iter().enumerate() {
        let x = (LEFT + index as f64 * PLOT_WIDTH / 18.0).round() as u32;
        let expected = TOP + (1.0 - f64::from(percent) / 100.0) * PLOT_HEIGHT;
        // The point itself is drawn within the rounding of its printed percentage.
        let near = (0..HEIGHT)
            .filter(|&y| *image.get_pixel(x, y) == curve)
            .any(|y| (f64::from(y) - expected).abs() <= 3.0);
        assert!(near, "no curve near {expected} at x {x} for {percent}%");
        if percent != 50 {
            sides.push((percent > 50, expected < middle));
        }
    }
    // Where the printed chances cross 50%, the curve crosses the middle line.
    assert!(
        sides
            .iter()
            .all(|(above, drawn_above)| above == drawn_above)
    );
}

#[test]
fn a_game_without_moves_has_nothing_to_review() {
    let home = home();
    let output = run(home.path(), "brandub", "review\nreview --plot\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("No moves to review.").count(), 1, "{stderr}");
}

#[test]
fn an_opentafl_record_is_reviewed_loaded_or_named() {
    let home = home();
    let record = home.path().join("game.otg");
    let mut input = game_commands();
    input.push_str(&format!("w {}\n", record.display()));
    let output = run(home.path(), "copenhagen", input);
    assert!(output.status.success());
    // From brandub, a record of a Copenhagen game: named, or loaded with `e`.
    let missing = home.path().join("missing.otg");
    let then = format!("review --record {}", missing.display());
    let (text, errors) = review_named_and_loaded(home.path(), "brandub", &record, &then);
    // A record that cannot be read is named.
    assert!(errors.contains(&missing.display().to_string()), "{errors}");
    let reviews = summaries(&text);
    assert_eq!(reviews.len(), 2, "{text}");
    assert!(
        reviews
            .iter()
            .all(|line| line.starts_with("Review: 18 moves,")),
        "{text}"
    );
    let moves: Vec<Reviewed> = text.lines().filter_map(reviewed).collect();
    assert_eq!(moves.len(), 36, "{text}");
    assert_eq!(
        (moves[17].side.as_str(), moves[17].after),
        ("defenders", 100)
    );
}

#[test]
fn a_plain_otn_record_without_rules_is_reviewed_in_the_rules_in_play() {
    let home = home();
    // The game as a plain text record: numbered turns, captures written as OTN writes
    // them (`c4-c7xb7/c8`), no rules tag.
    let moves: Vec<String> = GAME
        .split_whitespace()
        .map(|mv| {
            let mut parts = mv.split('x');
            let moved = parts.next().expect("a move").to_owned();
            let captures: Vec<&str> = parts.collect();
            match captures.is_empty() {
                true => moved,
                false => format!("{moved}x{}", captures.join("/")),
            }
        })
        .collect();
    let text: String = moves
        .chunks(2)
        .enumerate()
        .map(|(turn, pair)| format!("{}. {}\n", turn + 1, pair.join(" ")))
        .collect();
    let record = home.path().join("game.txt");
    std::fs::write(&record, format!("[event:club evening]\n\n{text}")).expect("write");
    let broken = home.path().join("broken.txt");
    std::fs::write(&broken, "1. d1-d3 f8-c8\nd2 d4\n").expect("write");
    let then = format!("e {}", broken.display());
    let (text, errors) = review_named_and_loaded(home.path(), "copenhagen", &record, &then);
    let reviews = summaries(&text);
    assert_eq!(reviews.len(), 2, "{text}\n{errors}");
    let reviewed: Vec<Reviewed> = text.lines().filter_map(reviewed).collect();
    assert_eq!(reviewed.len(), 36, "{text}");
    // Both end with the king's escape: the defenders' sure win.
    for last in [&reviewed[17], &reviewed[35]] {
        assert_eq!((last.side.as_str(), last.after), ("defenders", 100));
    }
    // A record that cannot be read is named, with the line where it goes wrong.
    let named = format!("{}", broken.display());
    assert!(
        errors
            .lines()
            .any(|line| line.contains(&named) && line.contains("line 2")),
        "{errors}"
    );
}
