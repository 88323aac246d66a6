//! A recorded game that the review tests (`review.rs`, `x11_analysis.rs`) go over.

/// Game 456 of `core/tests/data/copenhagen_games.csv.gz` (a game between people, from
/// hnefatafl-copenhagen's records): the king escapes on the defenders' 9th move.
pub const GAME: &str = "d1-d3 f8-c8 a4-c4 e7-e10 g11-g9 e10-b10 e11-e10 f7-b7 a5-b5 f6-f9 \
                        a8-a9 f9-b9 d11-c11 b10-c10 g9-c9xc10 b9-b11 c4-c7xb7xc8 b11-a11";

/// The game's moves as `m` commands (captures are the program's to find).
pub fn game_commands() -> String {
    GAME.split_whitespace()
        .map(|mv| {
            let mv = mv.split('x').next().expect("a move");
            let (from, to) = mv.split_once('-').expect("from-to");
            format!("m {from} {to}\n")
        })
        .collect()
}
