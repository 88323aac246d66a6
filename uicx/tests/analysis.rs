//! The analysis of the real `hnefatafl` binary: win chances and the side they name in `a`,
//! several best lines (`a lines=3`).

use std::path::Path;

mod common;
use common::{home, on_shipped, output_of, stdout_of};

/// The program's standard output for these commands on `rules` in English.
fn run(home: &Path, rules: &str, input: &str) -> String {
    stdout_of(&mut on_shipped(home, rules), input)
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
    let text = run(home.path(), "brandub", "a d3\nm d6 c6\na d3\n");
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
    let text = run(home.path(), "copenhagen", "a d3 eval=classic\n");
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
    let text = run(home.path(), "petteia", "a d2\n");
    let found = depths(&text);
    assert_eq!(found.len(), 2, "{text}");
    assert!(found.iter().all(|depth| depth.side == "player 0"), "{text}");
}

/// The summary lines of an analysis of several:
/// `line 2: m 3 5 1 5 (d2-b2) (score +0.31, attackers 52%)  pv ...`, as (number, move,
/// score in hundredths, the rest).
fn lines(text: &str) -> Vec<(usize, String, i64)> {
    text.lines()
        .filter(|line| line.starts_with("line ") && line.contains(": m "))
        .map(|line| {
            let (number, rest) = line["line ".len()..].split_once(": m ").expect("a line");
            let (mv, rest) = rest.split_once(") (score ").expect("a move and its score");
            let score = rest.split(", ").next().expect("a score");
            (
                number.parse().expect("a number"),
                format!("{mv})"),
                hundredths(score),
            )
        })
        .collect()
}

/// The move of `Best move: m 5 3 5 2 (f4-f5) (score ...).`
fn best_move(text: &str) -> String {
    let line = text
        .lines()
        .find(|line| line.starts_with("Best move: m "))
        .unwrap_or_else(|| panic!("no best move: {text}"));
    let rest = &line["Best move: m ".len()..];
    let end = rest.find(") (score ").expect("the move's end");
    rest[..=end].to_owned()
}

#[test]
fn several_lines_come_best_first_and_the_first_is_the_plain_analysis_s() {
    let home = home();
    for rules in ["brandub", "copenhagen"] {
        let plain = run(home.path(), rules, "a d3 j1\n");
        let several = run(home.path(), rules, "a d3 j1 lines=3\n");
        let found = lines(&several);
        assert_eq!(
            found.iter().map(|line| line.0).collect::<Vec<_>>(),
            [1, 2, 3],
            "{several}"
        );
        // Three different moves, no score better than the one before it.
        assert!(found[0].1 != found[1].1 && found[1].1 != found[2].1 && found[0].1 != found[2].1);
        assert!(
            found.windows(2).all(|pair| pair[0].2 >= pair[1].2),
            "{several}"
        );
        // Both notations: `3 5 1 5 (d2-b2)`.
        assert!(
            found
                .iter()
                .all(|line| line.1.contains(" (") && line.1.contains('-'))
        );
        // The first line is the move the plain analysis finds, with its score.
        assert_eq!(found[0].1, best_move(&plain), "{plain}\n{several}");
        assert_eq!(best_move(&several), best_move(&plain));
        let plain_depths = depths(&plain);
        assert_eq!(found[0].2, plain_depths[plain_depths.len() - 1].score);
    }
}

#[test]
fn one_line_is_the_plain_analysis_node_for_node() {
    let home = home();
    let nodes = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| line.starts_with("depth "))
            .map(|line| line.split(" nodes/s").next().unwrap_or_default().to_owned())
            .map(|line| {
                line.rsplit_once("  ")
                    .map(|(head, _)| head.to_owned())
                    .unwrap_or(line)
            })
            .collect()
    };
    let plain = run(home.path(), "copenhagen", "a d4 j1\n");
    let one = run(home.path(), "copenhagen", "a d4 j1 lines=1\n");
    assert_eq!(nodes(&plain).len(), 4, "{plain}");
    assert_eq!(nodes(&plain), nodes(&one));
    assert!(lines(&one).is_empty(), "{one}");
}

#[test]
fn a_bad_count_of_lines_is_refused() {
    let home = home();
    let output = output_of(
        &mut on_shipped(home.path(), "brandub"),
        "a lines=0\na lines=65\n",
    );
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(errors.contains("Bad limits: lines=0 "), "{errors}");
    assert!(errors.contains("Bad limits: lines=65 "), "{errors}");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("depth 1"));
}

#[test]
fn h_a_explains_the_figures_and_their_point_of_view() {
    let home = home();
    let text = run(home.path(), "brandub", "h a\nh review\nh b\n");
    let explained = text
        .lines()
        .filter(|line| line.starts_with("Scores are the side to move's"))
        .collect::<Vec<_>>();
    // After `a` and `review`, not after `b`.
    assert_eq!(explained.len(), 2, "{text}");
    assert!(explained[0].contains("win chance"), "{text}");
    assert!(explained[0].contains("1/(1+e^(-score/4.00))"), "{text}");
    assert!(
        explained[0].contains("10 points a mistake, of 20 a blunder"),
        "{text}"
    );
}

#[test]
fn a_live_analysis_in_a_pipe_prints_one_line_a_depth_and_no_escape_sequence() {
    let home = home();
    let text = run(home.path(), "brandub", "live d4 j1 lines=2\n");
    assert!(!text.contains('\u{1b}'), "{text}");
    // The depths of the lines that start with `prefix`, in the order printed.
    let depths = |prefix: &str| -> Vec<&str> {
        text.lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .map(|rest| rest.split_whitespace().next().unwrap_or(""))
            .collect()
    };
    assert_eq!(depths("depth "), ["1", "2", "3", "4"], "{text}");
    assert_eq!(depths("line 2  depth "), ["1", "2", "3", "4"], "{text}");
    assert!(text.contains("Best move: m "), "{text}");
}
