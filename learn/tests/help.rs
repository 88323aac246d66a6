//! The trainer prints its full usage for `--help` and `-h`, and ends well: each option is
//! named and explained.

// The helpers that run a package's programs, shared with the match crate's tests.
#[path = "../../matches/tests/programs/mod.rs"]
mod programs;

use programs::run;

#[test]
fn the_trainer_prints_its_usage_when_asked() {
    for flag in ["--help", "-h"] {
        let (ok, said, err) = run("train", &[flag]);
        assert!(ok, "train {flag}: {err}");
        assert!(said.contains("Usage: train "), "train {flag}: {said}");
        for option in [
            "--rules",
            "--out",
            "--work",
            "--games",
            "--nodes",
            "--nodes0",
            "--nodes1",
            "--opening",
            "--plies",
            "--epochs",
            "--batch",
            "--lr",
            "--score-share",
            "--seed",
            "--symmetry",
            "--base",
            "--jobs",
            "--network",
            "--sprt",
        ] {
            assert!(
                said.lines()
                    .any(|line| line.trim_start().starts_with(option)),
                "train {flag}: no {option}: {said}"
            );
        }
        // Far more than the one line of usage it once was.
        assert!(said.lines().count() > 20, "train {flag}: {said}");
        assert!(err.is_empty(), "train {flag}: {err}");
    }
}
