//! Match reports read back by `match --resume`
//! (`hnefatafl_matches::runner::resume::finished_games`): any text reads as the games of
//! a match or gives an error naming the file and line, never a panic; the games read are
//! within the match, each once, with A on the player the match gives it, and written as
//! lines they read back the same.
//!
//! The first byte is the match's number of games (1 to 256); the rest is the report, and
//! its first line is taken as the header of the match asked for, so that mutations keep
//! the header and the games under it together.

#![no_main]

use hnefatafl_core::Player;
use hnefatafl_matches::runner::resume::{finished_games, game_line};
use libfuzzer_sys::fuzz_target;

const PATH: &str = "report.txt";

/// The player the runner gives A in game `index`: the pairs' alternation.
fn a_player(index: usize) -> Player {
    if index.is_multiple_of(2) {
        Player::Zero
    } else {
        Player::One
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&games, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let games = usize::from(games) + 1;
    let header = text.lines().next().unwrap_or_default();
    let finished = match finished_games(PATH, text, header, games, a_player) {
        Ok(Some(finished)) => finished,
        Ok(None) => return,
        Err(error) => {
            assert!(
                error.starts_with(&format!("{PATH}:")),
                "a refusal names the file and line: {error}"
            );
            return;
        }
    };
    let mut seen = vec![false; games];
    for game in &finished {
        assert!(game.index < games);
        assert!(!std::mem::replace(&mut seen[game.index], true), "each once");
        assert_eq!(game.a_player, a_player(game.index));
    }
    // Written again under a header of the runner's shape, the games read back the same.
    let header = "rules: A = [a] against B = [b]";
    let mut written = format!("{header}\n");
    for game in &finished {
        written += &game_line(game.index, game.a_player, &game.played, [0, 0, 0]);
        written.push('\n');
    }
    let again = finished_games(PATH, &written, header, games, a_player)
        .expect("written games read back")
        .expect("under their header");
    assert_eq!(again, finished, "{written}");
});
