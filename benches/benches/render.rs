//! Frame rendering of the X interface (uicx): one whole 11x11 frame at 800x800, with the
//! default shipped theme and with the fallback graphics: a piece selected and its targets
//! marked, the last move with a captured piece, the analysis arrow, the move list, both
//! sides' strip, two lines of messages and the computer thinking.
//!
//! "cached" is the steady state (the theme images already scaled to the square size); "new
//! size" includes scaling every image, as after the window is resized.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::Criterion;
use hnefatafl_core::{Game, Rules};
use uicx::x11::render::{Renderer, Scene, TextMetrics};
use uicx::x11::view::board_view;
use uicx::x11::{BoardView, Captured, theme};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// The opening of the shipped Fetlar hnefatafl rule file, as the window sees it, in the
/// middle of a game.
fn opening() -> BoardView {
    let text = std::fs::read(data_dir().join("rules/hnefatafl")).expect("the shipped file");
    let rules = Rules::parse(&text).expect("the shipped Fetlar rules");
    BoardView {
        last_move: Some((3, 14)),
        side_to_move: 1,
        status: "Player 1 to move".to_owned(),
        thinking: Some(0.4),
        captured: vec![Captured {
            square: 15,
            piece: 2,
            owner: 1,
        }],
        best_move: Some((38, 34)),
        moves: (0..40)
            .map(|ply| format!("f{}-c{}", ply % 9 + 1, ply % 7 + 1))
            .collect(),
        sides: [
            "Attackers (player 0): ann (you)".to_owned(),
            "Defenders (player 1): bob".to_owned(),
        ],
        // A timed network game: both clocks, the one of the side to move running.
        clocks: Some([
            std::time::Duration::from_secs(283),
            std::time::Duration::from_millis(296_400),
        ]),
        clock_running: true,
        ..board_view(&Game::new(rules))
    }
}

fn bench_render(c: &mut Criterion) {
    let read = |relative: &str| std::fs::read(data_dir().join(relative)).ok();
    let view = opening();
    let targets = [34, 35, 36, 37, 39, 40, 41, 42];
    let messages = ["m f11 f9".to_owned(), "Player 1 to move.".to_owned()];
    let scene = Scene {
        messages: &messages,
        selected: Some(38),
        targets: &targets,
        typed: Some("m f8 c8"),
        ..Scene::of(&view)
    };
    let metrics = TextMetrics::default();
    for requested in [None, Some("null")] {
        let loaded = theme::load(&read, requested, None);
        let name = loaded.theme.name.clone();
        let mut renderer = Renderer::new(loaded.theme.clone());
        c.bench_function(&format!("render 11x11 800x800 {name} cached"), |b| {
            b.iter(|| black_box(renderer.render(black_box(&scene), 800, 800, metrics)))
        });
        c.bench_function(&format!("render 11x11 800x800 {name} new size"), |b| {
            b.iter(|| {
                let mut fresh = Renderer::new(loaded.theme.clone());
                black_box(fresh.render(black_box(&scene), 800, 800, metrics))
            })
        });
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_render(&mut criterion);
    criterion.final_summary();
}
