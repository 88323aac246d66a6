//! Search speed and parallel scaling on the 11x11 start position.
//!
//! With `SEARCH_BENCH_REPORT=1` it first prints measured runs of each figure (time to
//! depth 4 and 6, nodes per second, and the 1 against 2 threads time to depth 7 and 8,
//! `SEARCH_BENCH_REPEAT` times each, 3 by default), then criterion times the searches to
//! depth 4 and 6 on one thread (a filter that matches nothing skips them).

use aim::{Engine, EngineConfig, Limits, SearchResult};
use criterion::Criterion;
use hnefatafl_benches::fetlar_rules;
use hnefatafl_core::Game;
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn search(game: &Game, depth: u32, threads: usize) -> SearchResult {
    let mut engine = Engine::new(EngineConfig {
        threads,
        hash_mib: 64,
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search(game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

fn report_once(game: &Game) {
    for depth in [4, 6] {
        let result = search(game, depth, 1);
        println!(
            "depth {depth}, 1 thread: {:.3} s, {} nodes, {:.2} M nodes/s, best {:?} score {}",
            result.elapsed.as_secs_f64(),
            result.nodes,
            result.nodes as f64 / result.elapsed.as_secs_f64() / 1e6,
            result.best,
            result.score
        );
    }
    let repeats = std::env::var("SEARCH_BENCH_REPEAT")
        .ok()
        .and_then(|text| text.parse::<usize>().ok())
        .unwrap_or(3)
        .max(1);
    for depth in [7, 8] {
        let mut ratios = Vec::new();
        for _ in 0..repeats {
            let one = search(game, depth, 1);
            let two = search(game, depth, 2);
            let ratio = one.elapsed.as_secs_f64() / two.elapsed.as_secs_f64();
            println!(
                "depth {depth}: 1 thread {:.3} s ({:.2} M nodes/s), 2 threads {:.3} s ({:.2} M nodes/s): {ratio:.2}x faster",
                one.elapsed.as_secs_f64(),
                one.nodes as f64 / one.elapsed.as_secs_f64() / 1e6,
                two.elapsed.as_secs_f64(),
                two.nodes as f64 / two.elapsed.as_secs_f64() / 1e6,
            );
            ratios.push(ratio);
        }
        ratios.sort_by(f64::total_cmp);
        println!(
            "depth {depth}: 2 threads against 1, {repeats} runs: median {:.2}x (from {:.2}x to {:.2}x)",
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1]
        );
    }
}

fn main() {
    let game = Game::new(fetlar_rules());
    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    if std::env::var_os("SEARCH_BENCH_REPORT").is_some() {
        report_once(&game);
    }
    for depth in [4, 6] {
        criterion.bench_function(
            &format!("search 11x11 start to depth {depth}, 1 thread"),
            |b| b.iter(|| black_box(search(&game, depth, 1))),
        );
    }
    criterion.final_summary();
}
