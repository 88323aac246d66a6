//! The analysis of the real `hnefatafl` binary: win chances and the side they name in `a`,
//! several best lines (`a lines=3`).

use std::path::Path;

use assert_cmd::Command;

mod common;
use common::{data, home, program};

/// The program on `rules` in English, with no rc file.
fn on(rules: &str, home: &Path) -> Command {
    let mut command = program(home);
    command
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", rules, "-l", "eng"]);
    command
}

fn stdout_of(command: &mut Command, input: &str) -> String {
    let output = command.write_stdin(input).output().expect("runs");
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A score as printed (`+1.25`, `-0.07`, `win in 3`, `loss in 2`), in hundredths, decisive
/// scores as ±1,000,000.
fn hundredths(text: &str) -> i64 {
    if text.starts_with("win in") {
        return 1_000_000;
    }
    if text.starts_with("loss in") {
        return -1_000_000;
    }
    let (whole, fraction) = text.split_once('.').expect("a decimal score");
    let sign = if whole.starts_with('-') { -1 } else { 1 };
    let whole: i64 = whole
        .trim_start_matches(['+', '-'])
        .parse()
        .expect("digits");
    let fraction: i64 = fraction.parse().expect("digits");
    sign * (whole * 100 + fraction)
}

/// One depth of an analysis: its score in hundredths, the side its chance names and
/// the chance in percent.
struct Depth {
    score: i64,
    side: String,
    percent: f64,
}

/// The depth lines of an analysis:
/// `depth 3  score +0.85 (attackers 55%)  nodes ...`.
fn depths(text: &str) -> Vec<Depth> {
    text.lines()
        .filter(|line| line.starts_with("depth "))
        .map(|line| {
            let rest = line.split("  score ").nth(1).expect("a score");
            let (score, rest) = rest.split_once(" (").expect("a win chance");
            let chance = rest.split(")  nodes").next().expect("the chance's end");
            let (side, percent) = chance.rsplit_once(' ').expect("a side and a chance");
            Depth {
                score: hundredths(score),
                side: side.to_owned(),
                percent: percent.trim_end_matches('%').parse().expect("a percentage"),
            }
        })
        .collect()
}

#[test]
fn analysis_gives_each_score_as_the_win_chance_of_the_side_to_move() {
    let home = home();
    // Brandub's attackers move first; after their move the defenders are to move.
    let text = stdout_of(&mut on("brandub", home.path()), "a d3\nm d6 c6\na d3\n");
    let found = depths(&text);
    assert_eq!(found.len(), 6, "{text}");
    for (index, depth) in found.iter().enumerate() {
        let side = if index < 3 { "attackers" } else { "defenders" };
        assert_eq!(depth.side, side, "{text}");
        assert!((0.0..=100.0).contains(&depth.percent), "{text}");
        // A better score is a better chance: the chance is over 50% just when the score
        // is above 0.
        if depth.percent > 50.0 {
            assert!(depth.score > 0, "{text}");
        } else if depth.percent < 50.0 {
            assert!(depth.score < 0, "{text}");
        }
    }
    let best = text
        .lines()
        .filter(|line| line.starts_with("Best move: m "))
        .collect::<Vec<_>>();
    assert_eq!(best.len(), 2, "{text}");
    assert!(
        best[0].contains(", attackers ") && best[0].ends_with("%)."),
        "{text}"
    );
    assert!(best[1].contains(", defenders "), "{text}");
}

#[test]
fn the_classic_evaluation_s_chance_is_the_documented_logistic_of_its_score() {
    let home = home();
    let text = stdout_of(&mut on("copenhagen", home.path()), "a d3 eval=classic\n");
    let found = depths(&text);
    assert_eq!(found.len(), 3, "{text}");
    assert!(text.contains("Evaluation: classic"), "{text}");
    for depth in found {
        // docs/analysis.md: 1 / (1 + e^(-score / 4.00)), the score in pieces.
        let expected = 100.0 / (1.0 + (-(depth.score as f64) / 400.0).exp());
        assert!(
            (depth.percent - expected).abs() <= 0.5,
            "{} for a score of {}: {text}",
            depth.percent,
            depth.score
        );
        assert_eq!(depth.side, "attackers", "{text}");
    }
}

#[test]
fn a_side_without_a_role_is_named_by_its_number() {
    let home = home();
    let text = stdout_of(&mut on("petteia", home.path()), "a d2\n");
    let found = depths(&text);
    assert_eq!(found.len(), 2, "{text}");
    assert!(found.iter().all(|depth| depth.side == "player 0"), "{text}");
}
