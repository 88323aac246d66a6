//! Move generation and perft on 7x7, 9x9 and 11x11 start positions (hnefatafl-core).
//!
//! First prints one measured run of perft on each board (leaf positions per second, bulk
//! counting at the last ply), then lets criterion time perft and move generation, and the
//! end-of-game test on positions of the shipped Fetlar and Copenhagen files.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use hnefatafl_core::{Move, Rules};

/// Pieces and rules shared by the three boards: king 1, defenders 2 (player 0, moving
/// first), attackers 4 (player 1); square 1 ordinary, 2 corner (escape, hostile), 4 throne
/// (hostile, the king may not come back).
const PIECE_RULES: &str = "
piece bit 1
piece 1 owner 0
piece 1 captures 4
piece 1 capt_sides 4
piece 1 capt_edge
piece 1 capt_loss
piece 1 escape
piece 1 occupies 7
piece 1 noreturn 4
piece 1 dbl_trap
piece 1 dbl_trap_squares 7
piece 1 dbl_trap_capt
piece 1 dbl_trap_encl
piece bit 2
piece 2 owner 0
piece 2 captures 4
piece 2 custodial
piece 2 occupies 1
piece 2 dbl_trap
piece 2 dbl_trap_squares 7
piece 2 dbl_trap_capt
piece 2 dbl_trap_compl
piece bit 4
piece 4 owner 1
piece 4 captures 3
piece 4 custodial
piece 4 occupies 1
square bit 1
square bit 2
square 2 escape
square 2 captures 7
square bit 4
square 4 captures 7
";

const BOARD_7X7: &str = "
id bench7
name \"7x7 (bench)\"
width 7
height 7
pieces 0 0 0 4 0 0 0  0 0 0 4 0 0 0  0 0 0 2 0 0 0  4 4 2 1 2 4 4 \\
       0 0 0 2 0 0 0  0 0 0 4 0 0 0  0 0 0 4 0 0 0
squares 2 1 1 1 1 1 2  1 1 1 1 1 1 1  1 1 1 1 1 1 1  1 1 1 4 1 1 1 \\
        1 1 1 1 1 1 1  1 1 1 1 1 1 1  2 1 1 1 1 1 2
";

const BOARD_9X9: &str = "
id bench9
name \"9x9 (bench)\"
width 9
height 9
pieces 0 0 0 4 4 4 0 0 0  0 0 0 0 4 0 0 0 0  0 0 0 0 2 0 0 0 0 \\
       4 0 0 0 2 0 0 0 4  4 4 2 2 1 2 2 4 4  4 0 0 0 2 0 0 0 4 \\
       0 0 0 0 2 0 0 0 0  0 0 0 0 4 0 0 0 0  0 0 0 4 4 4 0 0 0
squares 2 1 1 1 1 1 1 1 2  1 1 1 1 1 1 1 1 1  1 1 1 1 1 1 1 1 1 \\
        1 1 1 1 1 1 1 1 1  1 1 1 1 4 1 1 1 1  1 1 1 1 1 1 1 1 1 \\
        1 1 1 1 1 1 1 1 1  1 1 1 1 1 1 1 1 1  2 1 1 1 1 1 1 1 2
";

const BOARD_11X11: &str = "
id bench11
name \"11x11 (bench)\"
width 11
height 11
pieces 0 0 0 4 4 4 4 4 0 0 0  0 0 0 0 0 4 0 0 0 0 0  0 0 0 0 0 0 0 0 0 0 0 \\
       4 0 0 0 0 2 0 0 0 0 4  4 0 0 0 2 2 2 0 0 0 4  4 4 0 2 2 1 2 2 0 4 4 \\
       4 0 0 0 2 2 2 0 0 0 4  4 0 0 0 0 2 0 0 0 0 4  0 0 0 0 0 0 0 0 0 0 0 \\
       0 0 0 0 0 4 0 0 0 0 0  0 0 0 4 4 4 4 4 0 0 0
squares 2 1 1 1 1 1 1 1 1 1 2  1 1 1 1 1 1 1 1 1 1 1  1 1 1 1 1 1 1 1 1 1 1 \\
        1 1 1 1 1 1 1 1 1 1 1  1 1 1 1 1 1 1 1 1 1 1  1 1 1 1 1 4 1 1 1 1 1 \\
        1 1 1 1 1 1 1 1 1 1 1  1 1 1 1 1 1 1 1 1 1 1  1 1 1 1 1 1 1 1 1 1 1 \\
        1 1 1 1 1 1 1 1 1 1 1  2 1 1 1 1 1 1 1 1 1 2
";

fn load(board: &str) -> Rules {
    let text = format!("{board}{PIECE_RULES}");
    match Rules::parse(text.as_bytes()) {
        Ok(rules) => rules,
        Err(error) => panic!("bench rules: {error}"),
    }
}

fn boards() -> [(&'static str, Rules); 3] {
    [
        ("7x7", load(BOARD_7X7)),
        ("9x9", load(BOARD_9X9)),
        ("11x11", load(BOARD_11X11)),
    ]
}

fn report_once() {
    for (name, rules) in boards() {
        let start = rules.start_position();
        for depth in 1..=4 {
            let begin = Instant::now();
            let leaves = start.perft(depth);
            let seconds = begin.elapsed().as_secs_f64();
            println!(
                "{name} perft({depth}) = {leaves} in {seconds:.3} s: {:.1} M leaves/s",
                leaves as f64 / seconds / 1e6
            );
        }
    }
}

fn main() {
    report_once();
    let mut criterion = Criterion::default().configure_from_args();
    for (name, rules) in boards() {
        let start = rules.start_position();
        criterion.bench_function(&format!("perft3 {name}"), |b| {
            b.iter(|| black_box(&start).perft(3));
        });
        criterion.bench_function(&format!("movegen {name}"), |b| {
            let mut moves: Vec<Move> = Vec::with_capacity(256);
            b.iter(|| {
                moves.clear();
                black_box(&start).for_each_move(|mv| moves.push(mv));
                moves.len()
            });
        });
        criterion.bench_function(&format!("make+unmake all {name}"), |b| {
            let mut position = start.clone();
            let mut moves = Vec::new();
            start.for_each_move(|m| moves.push(m));
            b.iter(|| {
                for &mv in &moves {
                    let undo = position.play_unchecked(mv);
                    position.take_back(&undo);
                }
            });
        });
    }
    if let Some((_, rules)) = boards().into_iter().last() {
        let start = rules.start_position();
        let mut group = criterion.benchmark_group("slow");
        group.sample_size(10);
        group.bench_function("perft4 11x11", |b| b.iter(|| black_box(&start).perft(4)));
        group.finish();
    }
    for file in ["hnefatafl", "copenhagen"] {
        let positions = game_positions(file);
        criterion.bench_function(&format!("outcome {file} x{}", positions.len()), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .filter(|position| black_box(position).outcome_with(true).is_some())
                    .count()
            });
        });
    }
    criterion.final_summary();
}

/// Positions of the shipped file's games of random moves (the same in every run): what a
/// search asks the end of the game about at every node, encirclement and forts included.
fn game_positions(file: &str) -> Vec<hnefatafl_core::Position> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/rules")
        .join(file);
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rules = Rules::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut positions = Vec::new();
    for _ in 0..50 {
        let mut position = rules.start_position();
        for _ in 0..60 {
            let moves: Vec<Move> = position.moves().collect();
            if moves.is_empty() || position.outcome_with(true).is_some() {
                break;
            }
            // A linear congruential step: enough to spread the games.
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            position.play_unchecked(mv);
            positions.push(position.clone());
        }
    }
    positions
}
