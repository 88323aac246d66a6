//! The load benchmark plays its games over the web port's WebSocket too: a tiny load
//! (two games and three idle clients) against the real server, every game completed and
//! every idle client still connected at the end.

#[path = "../../server/tests/server_support/binaries.rs"]
mod binaries;

use assert_cmd::Command;

#[test]
fn the_load_benchmark_plays_over_the_websocket() {
    let server = binaries::server_binary();
    let output = Command::cargo_bin("server_load")
        .expect("the program is built")
        .args(["--transport", "websocket", "--games", "2", "--idle", "3"])
        .args(["--plies", "40", "--patience", "60", "--server"])
        .arg(&server)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("the program runs");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    for line in [
        "clients: 4 playing and 3 idle over WebSocket, games: 2, rules: brandub",
        "games completed: 2 of 2 (4 players saw the end)",
        "idle clients still connected at the end: 3 of 3",
    ] {
        assert!(said.contains(line), "no {line:?} in {said}");
    }
    assert!(said.contains(" moves/s"), "{said}");
}

#[test]
fn an_unknown_transport_is_refused_in_words() {
    let output = Command::cargo_bin("server_load")
        .expect("the program is built")
        .args(["--transport", "pigeon"])
        .output()
        .expect("the program runs");
    assert!(!output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("invalid value 'pigeon' for '--transport"),
        "{said}"
    );
    assert!(said.contains("tls") && said.contains("websocket"), "{said}");
}
