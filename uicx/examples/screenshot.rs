//! Writes `docs/screenshot.png`: the X interface's renderer drawing the opening of Fetlar
//! hnefatafl with the default shipped theme, a defender selected and its targets shown.
//!
//! Run from the workspace root: `cargo run -p uicx --example screenshot [theme] [out.png]`.
//! The text (coordinates, status, terminal) is drawn by the X server's fonts in the real
//! window, so the picture shows only where it goes.

use std::path::PathBuf;

use uicx::x11::render::{Renderer, Scene, TextMetrics};
use uicx::x11::{BoardView, theme};

const PIECES: &str = "\
0 0 0 4 4 4 4 4 0 0 0
0 0 0 0 0 4 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0
4 0 0 0 0 2 0 0 0 0 4
4 0 0 0 2 2 2 0 0 0 4
4 4 0 2 2 1 2 2 0 4 4
4 0 0 0 2 2 2 0 0 0 4
4 0 0 0 0 2 0 0 0 0 4
0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 4 0 0 0 0 0
0 0 0 4 4 4 4 4 0 0 0";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arguments = std::env::args().skip(1);
    let requested = arguments.next();
    let out = PathBuf::from(
        arguments
            .next()
            .unwrap_or_else(|| "docs/screenshot.png".to_owned()),
    );
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data");
    let read = |relative: &str| std::fs::read(data.join(relative)).ok();
    let loaded = theme::load(&read, requested.as_deref(), None);
    if let Some(warning) = &loaded.warning {
        eprintln!("{warning}");
    }

    let pieces: Vec<u8> = PIECES
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    // The attackers (bit 4) belong to player 0, the king and the defenders to player 1.
    let owners = pieces.iter().map(|&bit| u8::from(bit != 4)).collect();
    let mut squares = vec![1u8; 121];
    for corner in [0, 10, 110, 120] {
        squares[corner] = 2;
    }
    squares[60] = 4;
    let mut view = BoardView {
        width: 11,
        height: 11,
        squares,
        pieces,
        owners,
        last_move: Some((5, 27)),
        side_to_move: 1,
        status: "Player 1 to move".to_owned(),
        ..BoardView::default()
    };
    // The last move: an attacker from f11 to f9.
    view.pieces.swap(5, 27);
    view.owners.swap(5, 27);
    let targets = [34, 35, 36, 37, 39, 40, 41, 42];
    let scene = Scene {
        selected: Some(38),
        targets: &targets,
        typed: Some("m f8 c8"),
        ..Scene::of(&view)
    };
    let frame = Renderer::new(loaded.theme).render(&scene, 640, 720, TextMetrics::default());
    frame.image.save(&out)?;
    println!("wrote {}", out.display());
    Ok(())
}
