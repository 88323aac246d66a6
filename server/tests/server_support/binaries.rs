//! The workspace's two programs for tests that run them, whichever package the test is in:
//! the server's and the client's tests, and the match runner's (which includes this file).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The `hnefataflserver` binary, up to date; `$HNEFATAFL_TEST_SERVER` names another one
/// (an older build, to see a test fail before a change).
pub fn server_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            if let Some(chosen) = std::env::var_os("HNEFATAFL_TEST_SERVER") {
                return PathBuf::from(chosen);
            }
            option_env!("CARGO_BIN_EXE_hnefataflserver").map_or_else(
                || build_binary("hnefatafl-server", "hnefataflserver"),
                PathBuf::from,
            )
        })
        .clone()
}

/// The `hnefatafl` binary, up to date.
pub fn client_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            option_env!("CARGO_BIN_EXE_hnefatafl")
                .map_or_else(|| build_binary("uicx", "hnefatafl"), PathBuf::from)
        })
        .clone()
}

/// Builds the binary `name` of another package of the workspace into the target directory
/// and profile that this test program was built in, and answers its path.
///
/// Cargo hands a test only its own package's binaries; the other package's is built here
/// (at once when `cargo test` built it already), so that it is never missing nor stale.
/// The client also finds the server there, beside itself, when it starts one.
fn build_binary(package: &str, name: &str) -> PathBuf {
    // This program is `<target>/<profile>/deps/<test>-<hash>`.
    let program = std::env::current_exe().expect("the test program's path");
    let profile_dir = program
        .parent()
        .and_then(Path::parent)
        .expect("the test program lies in <target>/<profile>/deps");
    let target_dir = profile_dir.parent().expect("a target directory");
    let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
        // `cargo test` builds with the test profile, whose directory is `debug`.
        Some("debug") => "test",
        Some(other) => other,
        None => panic!("{}: no profile directory", profile_dir.display()),
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args(["build", "--quiet", "--package", package, "--bin", name])
        .args(["--profile", profile, "--target-dir"])
        .arg(target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo");
    assert!(status.success(), "cargo build --bin {name}: {status}");
    let binary = profile_dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(binary.is_file(), "{}: not built", binary.display());
    binary
}
