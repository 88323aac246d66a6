//! `review` in the real `hnefatafl` binary: a recorded human Copenhagen game gone over
//! move by move, its marks checked against the win chances it printed, and its graph
//! read back.

use std::path::Path;

mod common;
use common::{data, home, program};

/// Game 456 of `core/tests/data/copenhagen_games.csv.gz` (a game between people, from
/// hnefatafl-copenhagen's records): the king escapes on the defenders' 9th move.
const GAME: &str = "d1-d3 f8-c8 a4-c4 e7-e10 g11-g9 e10-b10 e11-e10 f7-b7 a5-b5 f6-f9 \
                    a8-a9 f9-b9 d11-c11 b10-c10 g9-c9xc10 b9-b11 c4-c7xb7xc8 b11-a11";

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

fn run_review(home: &Path, plot: &Path) -> String {
    let mut input: String = GAME
        .split_whitespace()
        .map(|mv| {
            let mv = mv.split('x').next().expect("a move");
            let (from, to) = mv.split_once('-').expect("from-to");
            format!("m {from} {to}\n")
        })
        .collect();
    input.push_str(&format!("review t0.05 --plot {}\n", plot.display()));
    let output = program(home)
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", "copenhagen", "-l", "eng"])
        .write_stdin(input)
        .output()
        .expect("runs");
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
    let output = program(home.path())
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", "brandub", "-l", "eng"])
        .write_stdin("review\nreview --plot\n")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("No moves to review.").count(), 1, "{stderr}");
}

#[test]
fn an_opentafl_record_is_reviewed_loaded_or_named() {
    let home = home();
    let record = home.path().join("game.otg");
    let mut input: String = GAME
        .split_whitespace()
        .map(|mv| {
            let mv = mv.split('x').next().expect("a move");
            let (from, to) = mv.split_once('-').expect("from-to");
            format!("m {from} {to}\n")
        })
        .collect();
    input.push_str(&format!("w {}\n", record.display()));
    let output = program(home.path())
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", "copenhagen", "-l", "eng"])
        .write_stdin(input)
        .output()
        .expect("runs");
    assert!(output.status.success());
    // From brandub, a record of a Copenhagen game: named, or loaded with `e`.
    let missing = home.path().join("missing.otg");
    let output = program(home.path())
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", "brandub", "-l", "eng"])
        .write_stdin(format!(
            "review d1 --record {0}\ne {0}\nreview d1\nreview --record {1}\n",
            record.display(),
            missing.display()
        ))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    // A record that cannot be read is named.
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.contains(&missing.display().to_string()), "{errors}");
    let reviews: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("Review: "))
        .collect();
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
    let output = program(home.path())
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", "copenhagen", "-l", "eng"])
        .write_stdin(format!(
            "review d1 --record {0}\ne {0}\nreview d1\ne {1}\n",
            record.display(),
            broken.display()
        ))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let errors = String::from_utf8_lossy(&output.stderr);
    let reviews: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("Review: "))
        .collect();
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
