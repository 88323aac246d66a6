//! Perft from a data file: each line names a shipped rule file, a depth and the number of
//! move sequences, counted by the naive move generator of the tests. The engine's perft
//! and the naive count must both give the recorded number.

mod common;

use std::path::Path;

use common::naive::naive_perft;
use hnefatafl_core::Rules;

/// One line of `data/perft.txt`.
struct Case {
    line: usize,
    rules: String,
    depth: u32,
    count: u64,
}

fn cases() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let line_number = index + 1;
            let content = line.split('#').next().unwrap_or_default();
            let words: Vec<&str> = content.split_whitespace().collect();
            match words[..] {
                [] => None,
                [rules, depth, count] => Some(Case {
                    line: line_number,
                    rules: rules.to_owned(),
                    depth: depth
                        .parse()
                        .unwrap_or_else(|e| panic!("line {line_number}: {e}")),
                    count: count
                        .parse()
                        .unwrap_or_else(|e| panic!("line {line_number}: {e}")),
                }),
                _ => panic!("{}:{line_number}: not `rules depth count`", path.display()),
            }
        })
        .collect()
}

#[test]
fn perft_file_agrees_with_the_engine_and_the_naive_generator() {
    let cases = cases();
    assert!(
        cases.len() >= 10,
        "the perft file lists {} cases",
        cases.len()
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules");
    let mut wrong = Vec::new();
    for case in &cases {
        let path = dir.join(&case.rules);
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rules = Rules::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut start = rules.start_position();
        let engine = start.perft(case.depth);
        let naive = naive_perft(&mut start, case.depth);
        if engine != case.count || naive != case.count {
            wrong.push(format!(
                "line {}: {} depth {}: recorded {}, engine {engine}, naive {naive}",
                case.line, case.rules, case.depth, case.count
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
