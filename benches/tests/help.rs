//! Every program of the benches prints its usage for `--help` and `-h`, and ends well.

mod programs;

use programs::run;

#[test]
fn every_program_prints_its_usage_when_asked() {
    for program in ["match", "openings", "train", "tune", "server_load"] {
        for flag in ["--help", "-h"] {
            let (ok, said, err) = run(program, &[flag]);
            assert!(ok, "{program} {flag}: {err}");
            assert!(
                said.starts_with(&format!("usage: {program} ")),
                "{program} {flag}: {said}"
            );
            assert!(err.is_empty(), "{program} {flag}: {err}");
        }
    }
}
