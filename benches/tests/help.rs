//! The load benchmark prints its full usage for `--help` and `-h`, and ends well.

use assert_cmd::Command;

#[test]
fn the_load_benchmark_prints_its_usage_when_asked() {
    for flag in ["--help", "-h"] {
        let output = Command::cargo_bin("server_load")
            .expect("the program is built")
            .arg(flag)
            .output()
            .expect("the program runs");
        assert!(output.status.success(), "{flag}: {output:?}");
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            said.contains("Usage: server_load [OPTIONS]"),
            "{flag}: {said}"
        );
        for option in [
            "--games",
            "--rules",
            "--plies",
            "--seed",
            "--server",
            "--computer",
            "--computer-threads",
            "--patience",
            "--transport",
            "--idle",
        ] {
            assert!(
                said.contains(option),
                "{flag}: {option} is not explained: {said}"
            );
        }
        assert!(output.stderr.is_empty(), "{flag}: {output:?}");
    }
}
