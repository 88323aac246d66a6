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
            "--data",
            "--games",
            "--nodes",
            "--depth",
            "--openings",
            "--balance",
            "--hidden",
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

#[test]
fn shards_prints_its_usage_and_refuses_a_file_that_is_no_shard() {
    let (ok, said, err) = run("shards", &["--help"]);
    assert!(ok, "{err}");
    assert!(said.contains("Usage: shards "), "{said}");
    assert!(said.contains("info") && said.contains("merge"), "{said}");
    let rules = format!("{}/../data/rules/brandubh", env!("CARGO_MANIFEST_DIR"));
    let (ok, _, err) = run("shards", &["info", &rules]);
    assert!(!ok);
    assert!(
        err.contains(&format!("{rules}: not a shard of self-play data")),
        "{err}"
    );
}
