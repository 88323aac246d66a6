//! Every program of the match crate prints its full usage for `--help` and `-h`, and ends
//! well: each option is named and explained.

mod programs;

use programs::run;

#[test]
fn every_program_prints_its_usage_when_asked() {
    let programs: [(&str, &[&str]); 3] = [
        (
            "match",
            &[
                "--rules",
                "--games",
                "--a",
                "--b",
                "--plies",
                "--opening",
                "--openings",
                "--seed",
                "--jobs",
                "--a-plays",
                "--clock",
                "--sprt",
                "--gauntlet",
                "--verbose",
            ],
        ),
        (
            "openings",
            &[
                "--rules",
                "--count",
                "--plies",
                "--depth",
                "--max-score",
                "--seed",
                "--games",
            ],
        ),
        (
            "tune",
            &[
                "--rules",
                "--games",
                "--nodes",
                "--nodes0",
                "--nodes1",
                "--opening",
                "--openings",
                "--plies",
                "--seed",
                "--jobs",
                "--passes",
                "--holdout",
                "--bound",
                "--save",
                "--load",
                "--keys",
            ],
        ),
    ];
    for (program, options) in programs {
        for flag in ["--help", "-h"] {
            let (ok, said, err) = run(program, &[flag]);
            assert!(ok, "{program} {flag}: {err}");
            assert!(
                said.contains(&format!("Usage: {program} ")),
                "{program} {flag}: {said}"
            );
            for option in options {
                let line = said
                    .lines()
                    .find(|line| line.trim_start().starts_with(option))
                    .unwrap_or_else(|| panic!("{program} {flag}: no {option}: {said}"));
                // A line of its own, and words after the option's name and value.
                let words = line.split_whitespace().count();
                assert!(
                    words > 2 || flag == "--help",
                    "{program} {flag}: {option} is not explained: {line}"
                );
            }
            assert!(err.is_empty(), "{program} {flag}: {err}");
        }
    }
    // The long help of the match runner lists a side's settings, each key named.
    let (_, said, _) = run("match", &["--help"]);
    for key in [
        "level",
        "threads",
        "nodes0",
        "network",
        "mobility",
        "three_moves",
    ] {
        assert!(said.contains(key), "match --help: no `{key}`: {said}");
    }
}
