//! A match's printed games, written and read back: each finished game is one line of the
//! report (`game  12: A plays 1 -> Win in 83 plies (A 9-2-1)`), and `match --resume`
//! reads the lines of an earlier report of the same match, so that a long match stopped
//! early (a machine's time ran out, a session ended) goes on where it was: the games it
//! finished count, the test included, and only the others are played.
//!
//! The report's lines are read here, in the one place that writes them, so the two
//! cannot drift apart.

use crate::{GameResult, Played};
use hnefatafl_core::Player;

/// What comes before a game's number in its line.
const GAME: &str = "game ";
/// What comes between a game's number and the player A played.
const A_PLAYS: &str = ": A plays ";

/// A result as a line writes it.
fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "Win",
        GameResult::Draw => "Draw",
        GameResult::Loss => "Loss",
    }
}

/// A finished game's line: its number (from 1), the player A played, how it ended and A's
/// wins, draws and losses so far.
pub fn game_line(index: usize, a_player: Player, played: &Played, counts: [u32; 3]) -> String {
    format!(
        "{GAME}{:3}{A_PLAYS}{} -> {} in {} plies{} (A {}-{}-{})",
        index + 1,
        a_player.index(),
        result_word(played.result),
        played.plies,
        if played.on_time { " on time" } else { "" },
        counts[0],
        counts[1],
        counts[2]
    )
}

/// A game read back from its line: its index (from 0), the player A played and how it
/// ended (the least time left on a clock is not in the line).
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The game's index in the match, from 0 (its line's number less one).
    pub index: usize,
    /// The player A played.
    pub a_player: Player,
    /// How it ended.
    pub played: Played,
}

/// Reads a game's line: `None` for a line that is not one (it does not start with
/// `game <number>: A plays`), an error for one that starts so but does not read.
fn parse_game_line(line: &str) -> Option<Result<Finished, String>> {
    let (number, rest) = line.strip_prefix(GAME)?.split_once(A_PLAYS)?;
    let number: usize = number.trim().parse().ok()?;
    Some(parse_rest(number, rest))
}

/// The part of a game's line after `A plays `.
fn parse_rest(number: usize, rest: &str) -> Result<Finished, String> {
    let bad = || format!("game {number}: not `<0|1> -> <Win|Draw|Loss> in <N> plies`");
    let (player, rest) = rest.split_once(" -> ").ok_or_else(bad)?;
    let a_player = match player {
        "0" => Player::Zero,
        "1" => Player::One,
        _ => return Err(bad()),
    };
    let mut words = rest.split(' ');
    let result = match words.next() {
        Some("Win") => GameResult::Win,
        Some("Draw") => GameResult::Draw,
        Some("Loss") => GameResult::Loss,
        _ => return Err(bad()),
    };
    let plies = match (words.next(), words.next(), words.next()) {
        (Some("in"), Some(plies), Some("plies")) => plies.parse().map_err(|_| bad())?,
        _ => return Err(bad()),
    };
    let on_time = words.next() == Some("on");
    if number == 0 {
        return Err("game 0: games are numbered from 1".to_owned());
    }
    Ok(Finished {
        index: number - 1,
        a_player,
        played: Played {
            result,
            plies,
            on_time,
            least_left: None,
        },
    })
}

/// What comes between the rules and side A in a match's header.
pub(super) const HEADER_A: &str = ": A = [";
/// What comes between side A and side B in a match's header.
pub(super) const HEADER_B: &str = "] against B = [";

/// Whether a line is the header of some match (`<rules>: A = [...] against B = [...]`).
fn is_header(line: &str) -> bool {
    line.contains(HEADER_A) && line.contains(HEADER_B)
}

/// The games that the report `text` (read from `path`) finished of the match whose header
/// is `header`: the lines under that header, up to the next match's; `None` where no line
/// is that header. `games` is this match's most games and `a_player_of` the player it
/// gives A in each game, which the report must agree with.
///
/// # Errors
///
/// A game's line under the header that does not read, is out of the match's games, comes
/// twice or has A play the other player, named by the file and line.
pub fn finished_games(
    path: &str,
    text: &str,
    header: &str,
    games: usize,
    a_player_of: impl Fn(usize) -> Player,
) -> Result<Option<Vec<Finished>>, String> {
    let mut found = false;
    let mut inside = false;
    let mut finished: Vec<Finished> = Vec::new();
    let mut booked = vec![false; games];
    for (number, line) in text.lines().enumerate() {
        let at = || format!("{path}:{}", number + 1);
        if is_header(line) {
            inside = line == header;
            found |= inside;
            continue;
        }
        if !inside {
            continue;
        }
        let Some(game) = parse_game_line(line) else {
            continue;
        };
        let game = game.map_err(|e| format!("{}: {e}", at()))?;
        let shown = game.index + 1;
        if game.index >= games {
            return Err(format!(
                "{}: game {shown} is past this match's {games} games",
                at()
            ));
        }
        if std::mem::replace(&mut booked[game.index], true) {
            return Err(format!("{}: game {shown} is there twice", at()));
        }
        let expected = a_player_of(game.index);
        if game.a_player != expected {
            return Err(format!(
                "{}: A played player {} in game {shown}, where this match gives A player {}",
                at(),
                game.a_player.index(),
                expected.index()
            ));
        }
        finished.push(game);
    }
    Ok(found.then_some(finished))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "data/rules/brandub: A = [d2] against B = [d1], 6 games, cap 300 \
        plies, 4 random opening plies, seed 1";

    fn alternate(index: usize) -> Player {
        if index % 2 == 0 {
            Player::Zero
        } else {
            Player::One
        }
    }

    fn played(result: GameResult, plies: usize, on_time: bool) -> Played {
        Played {
            result,
            plies,
            on_time,
            least_left: None,
        }
    }

    #[test]
    fn a_written_line_reads_back_as_the_game() {
        for (index, player, game) in [
            (0, Player::Zero, played(GameResult::Win, 39, false)),
            (11, Player::One, played(GameResult::Loss, 200, true)),
            (1234, Player::One, played(GameResult::Draw, 7, false)),
        ] {
            let line = game_line(index, player, &game, [3, 1, 4]);
            let read = parse_game_line(&line)
                .expect("a game's line")
                .expect("reads");
            assert_eq!(
                read,
                Finished {
                    index,
                    a_player: player,
                    played: game
                },
                "{line}"
            );
        }
        assert_eq!(
            game_line(
                3,
                Player::One,
                &played(GameResult::Win, 28, false),
                [3, 0, 0]
            ),
            "game   4: A plays 1 -> Win in 28 plies (A 3-0-0)"
        );
    }

    #[test]
    fn only_the_games_under_the_matchs_header_count() {
        let text = format!(
            "A evaluates with the classic evaluation\n\
             other: A = [d2] against B = [d3], 6 games, cap 300 plies, 4 random opening plies, seed 1\n\
             game   1: A plays 0 -> Loss in 12 plies (A 0-0-1)\n\
             {HEADER}\n\
             game   2: A plays 1 -> Win in 30 plies (A 1-0-0)\n\
             game   1: A plays 0 -> Draw in 300 plies (A 1-1-0)\n\
             A: 1 wins, 1 draws, 0 losses (75.0%), mean 165 plies a game\n"
        );
        let games = finished_games("r.txt", &text, HEADER, 6, alternate)
            .expect("reads")
            .expect("the header is there");
        let read: Vec<_> = games.iter().map(|g| (g.index, g.played.result)).collect();
        assert_eq!(read, [(1, GameResult::Win), (0, GameResult::Draw)]);
    }

    #[test]
    fn a_report_that_does_not_fit_the_match_is_named_by_file_and_line() {
        let refused = |body: &str, games: usize| {
            finished_games(
                "r.txt",
                &format!("{HEADER}\n{body}"),
                HEADER,
                games,
                alternate,
            )
            .expect_err(body)
        };
        let error = refused("game   3: A plays 0 -> Won in 30 plies (A 1-0-0)\n", 6);
        assert!(error.starts_with("r.txt:2: game 3: not"), "{error}");
        let error = refused("game   7: A plays 0 -> Win in 30 plies (A 1-0-0)\n", 6);
        assert!(
            error.contains("r.txt:2: game 7 is past this match's 6 games"),
            "{error}"
        );
        let twice =
            "game   1: A plays 0 -> Win in 30 plies\ngame   1: A plays 0 -> Win in 30 plies\n";
        assert!(refused(twice, 6).starts_with("r.txt:3: game 1 is there twice"));
        let error = refused("game   2: A plays 0 -> Win in 30 plies (A 1-0-0)\n", 6);
        assert!(
            error.starts_with("r.txt:2: A played player 0 in game 2"),
            "{error}"
        );
        let error = refused("game   0: A plays 0 -> Win in 30 plies (A 1-0-0)\n", 6);
        assert!(error.contains("numbered from 1"), "{error}");
        let other = finished_games("r.txt", "nothing here\n", HEADER, 6, alternate);
        assert_eq!(other, Ok(None));
    }
}
