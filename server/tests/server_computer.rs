//! The computer players share the machine: a level's own time caps each move whatever
//! the clock allows, a search stops when its game ends, and the searches of many games run
//! on a bounded pool of threads (`--computer-threads`). Over loopback TLS, measured from
//! the outside (the time of a move, the process's CPU time per thread in /proc).

mod server_support;

use std::time::{Duration, Instant};

use hnefatafl_net::protocol::{ClientMessage, ClockSpec, GameId, ServerMessage};
use server_support::{ServerProcess, TestClient, started};

/// The clock ticks in a second of /proc's CPU times.
const TICKS_PER_SECOND: f64 = 100.0;

/// The CPU time a thread or process has used, in clock ticks, from its `stat` file.
fn ticks_of(stat: &str) -> u64 {
    // The fields after the command's closing parenthesis; utime and stime are the 14th
    // and 15th of the whole line.
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
}

/// The CPU ticks of each thread of a process, by thread id.
fn thread_ticks(pid: u32) -> Vec<(String, u64)> {
    let mut threads = Vec::new();
    for entry in std::fs::read_dir(format!("/proc/{pid}/task")).expect("tasks") {
        let entry = entry.expect("a task");
        if let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) {
            threads.push((
                entry.file_name().to_string_lossy().into_owned(),
                ticks_of(&stat),
            ));
        }
    }
    threads
}

/// The CPU ticks of the whole process.
fn process_ticks(pid: u32) -> u64 {
    ticks_of(&std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat"))
}

/// A game of brandubh against `computer`, the human at side 1, so that the computer
/// moves first; answers the game's number.
async fn against(client: &mut TestClient, computer: &str, clock: &str) -> GameId {
    client
        .send(ClientMessage::New {
            rules: "brandubh".into(),
            clock: ClockSpec::parse(clock),
            side: 1,
            opponent: Some(computer.into()),
            rated: false,
        })
        .await;
    client.game_state().await.summary.game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_clock_does_not_lengthen_a_levels_move() {
    let (_data, home, server) = started(&["--computer", "3"]);
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let started = Instant::now();
    // A day a move: level 3 takes its own 1.5 s, not a share of the day.
    let game = against(&mut ann, "computer3", "1d").await;
    let first = tokio::time::timeout(Duration::from_secs(20), ann.moved(game, 1)).await;
    assert!(
        first.is_ok(),
        "no move of level 3 within 20 s on a correspondence clock"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_stops_when_its_game_ends() {
    let (_data, home, server) = started(&["--computer", "6"]);
    let pid = server.pid();
    let mut ann = TestClient::registered(server.port, home.path(), "ann").await;
    let before = process_ticks(pid);
    let game = against(&mut ann, "computer6", "1d").await;
    // The search is under way once the server spends CPU time on it.
    let deadline = Instant::now() + Duration::from_secs(20);
    while process_ticks(pid) < before + 20 {
        assert!(Instant::now() < deadline, "the computer never searched");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ann.send(ClientMessage::Resign { game }).await;
    ann.expect(|m| matches!(m, ServerMessage::Ended { .. }).then_some(()))
        .await;
    // A moment to stop, then two seconds of next to no work.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let from = process_ticks(pid);
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let used = (process_ticks(pid) - from) as f64 / TICKS_PER_SECOND;
    let share = used / started.elapsed().as_secs_f64();
    assert!(
        share < 0.2,
        "the server used {:.0}% of a core after the game ended",
        share * 100.0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_of_many_games_share_the_computer_threads() {
    let (_data, home, server) = started(&["--computer", "6", "--computer-threads", "1"]);
    let pid = server.pid();
    // Three accounts, two games each, all with the computer to move.
    let mut players = Vec::new();
    for name in ["ann", "bob", "cid"] {
        let mut player = TestClient::registered(server.port, home.path(), name).await;
        for _ in 0..2 {
            against(&mut player, "computer6", "1d").await;
        }
        players.push(player);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    // The threads that worked in two seconds: one search thread, not six.
    let before = thread_ticks(pid);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = thread_ticks(pid);
    let busy: Vec<String> = after
        .iter()
        .filter(|(thread, ticks)| {
            let was = before
                .iter()
                .find(|(old, _)| old == thread)
                .map_or(0, |(_, ticks)| *ticks);
            ticks - was >= 10
        })
        .map(|(thread, _)| thread.clone())
        .collect();
    assert!(
        busy.len() <= 2,
        "{} threads worked (over 0.1 s each in 2 s): {busy:?}",
        busy.len()
    );
    let threads = after.len();
    assert!(threads < 30, "{threads} threads");
}

/// The resident memory (VmHWM, the peak, and VmRSS) and threads of a process, from
/// /proc/PID/status, in KiB and threads.
fn memory_and_threads(pid: u32) -> (u64, u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"), field("Threads:"))
}

/// The figures of `docs/performance.md`: 5 accounts with 4 games each against computer6
/// on a day-a-move clock, the server's peak memory and threads over 20 seconds. Run by
/// hand: `cargo test -p hnefatafl-server --test server_computer -- --ignored --nocapture`
/// (with `$HNEFATAFL_TEST_SERVER` for another build).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, run by hand"]
async fn measure_twenty_games_against_the_computer() {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let threads = std::env::var("COMPUTER_THREADS").unwrap_or_else(|_| "1".to_owned());
    let server = ServerProcess::start(
        data.path(),
        0,
        &[
            "--computer",
            "6",
            "--computer-threads",
            &threads,
            "--open-games",
            "100",
        ],
    );
    let pid = server.pid();
    let (idle, _, _) = memory_and_threads(pid);
    let mut players = Vec::new();
    for name in ["ann", "bob", "cid", "dan", "eve"] {
        let mut player = TestClient::registered(server.port, home.path(), name).await;
        for _ in 0..4 {
            against(&mut player, "computer6", "1d").await;
        }
        players.push(player);
    }
    let mut peak_threads = 0;
    let started = Instant::now();
    let cpu_before = process_ticks(pid);
    while started.elapsed() < Duration::from_secs(20) {
        peak_threads = peak_threads.max(memory_and_threads(pid).2);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let cpu = (process_ticks(pid) - cpu_before) as f64 / TICKS_PER_SECOND;
    let (peak, now, _) = memory_and_threads(pid);
    println!(
        "20 games against computer6, --computer-threads {threads}: resident at the start \
         {} MiB, peak {} MiB, after 20 s {} MiB; threads at most {peak_threads}; CPU {cpu:.1} s \
         in {:.1} s",
        idle / 1024,
        peak / 1024,
        now / 1024,
        started.elapsed().as_secs_f64()
    );
}
