//! The engine's search threads live as long as the engine: searching again on several
//! threads creates no thread. Read from the kernel's list of this process's threads, so
//! this test is alone in its binary (other tests would start threads of their own).

#![cfg(target_os = "linux")]

use aim::{Engine, EngineConfig, Limits};
use hnefatafl_core::{Game, Rules};
use std::time::{Duration, Instant};

const BRANDUB: &str = include_str!("rules/brandub.txt");

/// The names of this process's threads.
fn thread_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task lists the threads")
        .filter_map(|entry| {
            let path = entry.ok()?.path().join("comm");
            Some(std::fs::read_to_string(path).ok()?.trim().to_string())
        })
        .collect();
    names.sort();
    names
}

/// The names of the search's helper threads among these.
fn helpers(names: &[String]) -> Vec<&str> {
    names
        .iter()
        .map(String::as_str)
        .filter(|name| name.starts_with("aim-search-"))
        .collect()
}

/// Waits until the thread names pass `check`: threads of a dropped pool end a moment
/// after it is dropped.
fn wait_for(what: &str, check: impl Fn(&[String]) -> bool) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let names = thread_names();
        if check(&names) {
            return names;
        }
        assert!(Instant::now() < deadline, "{what}: {names:?}");
        std::thread::yield_now();
    }
}

#[test]
fn parallel_searches_reuse_the_engines_threads() {
    let rules = Rules::parse(BRANDUB.as_bytes()).expect("test rules are valid");
    let mut game = Game::new(rules);
    let before = thread_names();
    let mut engine = Engine::new(EngineConfig {
        threads: 3,
        hash_mib: 4,
    });
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let search = |engine: &mut Engine, game: &Game, limits: &Limits| {
        engine.search_within(game, limits).best.expect("a move")
    };
    let mv = search(&mut engine, &game, &limits);
    // A new thread names itself when it starts: wait for that.
    let during = wait_for("two helper threads", |names| {
        names.len() == before.len() + 2 && helpers(names).len() == 2
    });
    assert_eq!(
        helpers(&during),
        ["aim-search-1", "aim-search-2"],
        "{during:?}"
    );

    // More moves, and a search on fewer threads: the same threads, no new ones.
    game.play(mv);
    for threads in [3, 2, 3] {
        let limits = Limits {
            threads: Some(threads),
            ..limits.clone()
        };
        let mv = search(&mut engine, &game, &limits);
        game.play(mv);
        assert_eq!(thread_names(), during);
    }

    // A wider search than before makes a wider pool once; dropping the engine ends it.
    let limits = Limits {
        threads: Some(4),
        ..limits
    };
    search(&mut engine, &game, &limits);
    wait_for("three helper threads", |names| {
        names.len() == before.len() + 3 && helpers(names).len() == 3
    });
    drop(engine);
    wait_for("the pool's threads end with the engine", |names| {
        names == before
    });
}
