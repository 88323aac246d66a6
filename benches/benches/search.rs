//! Search speed and parallel scaling on the 11x11 start position.
//!
//! With `SEARCH_BENCH_REPORT=1` it first prints measured runs of each figure (time to
//! depth 4 and 6, nodes per second, and the time to depth 7 and 8 on 1 thread against 2
//! threads sharing the root and 2 threads of Lazy SMP, `SEARCH_BENCH_REPEAT` times each, 3
//! by default, with the classic evaluation on the `hnefatafl` rules and then with
//! copenhagen's shipped network on copenhagen's start), then criterion times the searches
//! to depth 4 and 6 on one thread (a filter that matches nothing skips them), and the
//! search to depth 6 without the tree's repetitions, for what their tests cost.

use aim::nnue::Network;
use aim::{Engine, EngineConfig, Limits, Parallel, SearchResult, Tuning};
use criterion::Criterion;
use hnefatafl_core::{Game, Rules};
use std::hint::black_box;
use std::sync::Arc;

fn search(game: &Game, depth: u32, threads: usize) -> SearchResult {
    search_tuned(game, depth, threads, parallel_tuning(Parallel::RootSplit))
}

/// The default tuning with threads that share the work by `parallel`.
fn parallel_tuning(parallel: Parallel) -> Tuning {
    Tuning {
        parallel,
        ..Tuning::default()
    }
}

fn search_tuned(game: &Game, depth: u32, threads: usize, tuning: Tuning) -> SearchResult {
    search_evaluated(game, depth, threads, tuning, None)
}

/// A search to `depth` by a fresh engine with a 64 MiB table, evaluating with `network`
/// (the classic evaluation where it is `None`).
fn search_evaluated(
    game: &Game,
    depth: u32,
    threads: usize,
    tuning: Tuning,
    network: Option<&Arc<Network>>,
) -> SearchResult {
    let mut engine = Engine::with_tuning(
        EngineConfig {
            threads,
            hash_mib: 64,
        },
        tuning,
    );
    engine.set_network(network.cloned());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search_within(game, &limits)
}

/// The tree's repetitions off (`Tuning::tree_repetition`, on by default), for what their
/// tests cost: on the start position they find none, so the two trees are the same.
fn repetition_tuning() -> Tuning {
    Tuning {
        tree_repetition: false,
        ..Tuning::default()
    }
}

/// One line of the report: what a search took and found.
fn report_search(label: &str, result: &SearchResult) {
    println!(
        "{label}: {:.3} s, {} nodes, {:.2} M nodes/s, best {:?} score {}",
        result.elapsed.as_secs_f64(),
        result.nodes,
        result.nodes as f64 / result.elapsed.as_secs_f64() / 1e6,
        result.best,
        result.score
    );
}

fn report_once(game: &Game) {
    for depth in [4, 6] {
        report_search(&format!("depth {depth}, 1 thread"), &search(game, depth, 1));
    }
    report_search(
        "depth 6, 1 thread, no tree repetitions",
        &search_tuned(game, 6, 1, repetition_tuning()),
    );
    report_scaling("", game, None);
}

/// Times the searches to depth 7 and 8 on one thread against two (the root split, then
/// Lazy SMP), `SEARCH_BENCH_REPEAT` times each, and prints each run and the medians;
/// `label` starts each line.
fn report_scaling(label: &str, game: &Game, network: Option<&Arc<Network>>) {
    let repeats = std::env::var("SEARCH_BENCH_REPEAT")
        .ok()
        .and_then(|text| text.parse::<usize>().ok())
        .unwrap_or(3)
        .max(1);
    let run = |depth, threads, parallel| {
        search_evaluated(game, depth, threads, parallel_tuning(parallel), network)
    };
    for depth in [7, 8] {
        let mut ratios = Vec::new();
        let mut lazy_ratios = Vec::new();
        for _ in 0..repeats {
            let one = run(depth, 1, Parallel::RootSplit);
            let two = run(depth, 2, Parallel::RootSplit);
            let lazy = run(depth, 2, Parallel::LazySmp);
            let seconds = |result: &SearchResult| result.elapsed.as_secs_f64();
            let rate = |result: &SearchResult| result.nodes as f64 / seconds(result) / 1e6;
            let ratio = seconds(&one) / seconds(&two);
            let lazy_ratio = seconds(&one) / seconds(&lazy);
            println!(
                "{label}depth {depth}: 1 thread {:.3} s ({:.2} M nodes/s), 2 threads root split {:.3} s ({:.2} M nodes/s): {ratio:.2}x faster, 2 threads Lazy SMP {:.3} s ({:.2} M nodes/s): {lazy_ratio:.2}x",
                seconds(&one),
                rate(&one),
                seconds(&two),
                rate(&two),
                seconds(&lazy),
                rate(&lazy),
            );
            ratios.push(ratio);
            lazy_ratios.push(lazy_ratio);
        }
        for (name, ratios) in [("root split", &mut ratios), ("Lazy SMP", &mut lazy_ratios)] {
            ratios.sort_by(f64::total_cmp);
            println!(
                "{label}depth {depth}: 2 threads ({name}) against 1, {repeats} runs: median {:.2}x (from {:.2}x to {:.2}x)",
                ratios[ratios.len() / 2],
                ratios[0],
                ratios[ratios.len() - 1]
            );
        }
    }
}

/// Copenhagen's start and its shipped network.
fn copenhagen_and_network() -> (Game, Arc<Network>) {
    let text = hnefatafl_data::rules("copenhagen").expect("the shipped copenhagen rules");
    let rules = Rules::parse(text.as_bytes()).expect("valid rules");
    let bytes = hnefatafl_data::embedded(&hnefatafl_data::network_file("copenhagen"))
        .expect("copenhagen's shipped network");
    let network = Network::for_rules("copenhagen", bytes, &rules)
        .expect("copenhagen's network fits its rules");
    (Game::new(rules), Arc::new(network))
}

fn main() {
    let fetlar = hnefatafl_data::rules("hnefatafl").expect("the shipped 11x11 rules");
    let game = Game::new(Rules::parse(fetlar.as_bytes()).expect("valid rules"));
    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    if std::env::var_os("SEARCH_BENCH_REPORT").is_some() {
        report_once(&game);
        let (copenhagen, network) = copenhagen_and_network();
        report_scaling("copenhagen, its network: ", &copenhagen, Some(&network));
    }
    for depth in [4, 6] {
        criterion.bench_function(
            &format!("search 11x11 start to depth {depth}, 1 thread"),
            |b| b.iter(|| black_box(search(&game, depth, 1))),
        );
    }
    let repetition = repetition_tuning();
    criterion.bench_function(
        "search 11x11 start to depth 6, 1 thread, no tree repetitions",
        |b| b.iter(|| black_box(search_tuned(&game, 6, 1, repetition.clone()))),
    );
    criterion.final_summary();
}
