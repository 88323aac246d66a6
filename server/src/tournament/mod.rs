//! Tournaments as a club runs them: round robin and Swiss, every pairing a match of two
//! games with the sides swapped, the rules and clock fixed for the whole event.
//!
//! [`Tournament`] is what the server keeps of one (stored whole, as JSON, in the
//! database's `tournament` table): its terms, its players in the order they entered
//! (their seeds), who withdrew, and each round's matches with the numbers of their games.
//! The games' results are the games' own, read from the referee's games; nothing here
//! copies them. [`pairing`] and [`standings`] are the arithmetic, pure and tested against
//! worked examples; the messages and the games themselves are the referee's
//! (`referee/tournaments`).

use hnefatafl_net::protocol::{
    ClockSpec, GameId, GameResult, TournamentFormat, TournamentId, TournamentStatus,
};
use serde::{Deserialize, Serialize};

use standings::{MatchScore, Standing};

pub mod pairing;
pub mod standings;

/// The most players a round robin may have: its pairings, sent whole, stay far below a
/// line's limit.
pub const MAX_ROUND_ROBIN: usize = 16;

/// The most players a Swiss event may have.
pub const MAX_SWISS: usize = 48;

/// The most rounds a Swiss event may ask for.
pub const MAX_SWISS_ROUNDS: u32 = 9;

/// One game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchGame {
    /// A game on the server, played or under way.
    Played(GameId),
    /// Forfeited without being played (a withdrawal): `winner` is the match's player (0
    /// or 1) who scores it; none when both withdrew.
    Forfeit {
        /// Who scores it.
        winner: Option<usize>,
    },
}

/// One match: two players (seeds) and its games, at most two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The players; the first plays side 0 in the first game, side 1 in the second.
    pub players: [usize; 2],
    /// The games begun, in order.
    pub games: Vec<MatchGame>,
}

/// The games of a match.
pub const MATCH_GAMES: usize = 2;

impl Match {
    /// The match's player (0 or 1) at `side` in its `game`th game (from 0): the sides
    /// swap from one game to the next.
    pub fn player_at(game: usize, side: usize) -> usize {
        (game + side) % 2
    }

    /// Twice each player's game points in game `index`, once it is over.
    fn game_points_x2(
        &self,
        index: usize,
        result: &impl Fn(GameId) -> Option<GameResult>,
    ) -> Option<[u32; 2]> {
        let winner = match self.games.get(index)? {
            MatchGame::Played(game) => result(*game)?
                .winner
                .map(|side| Match::player_at(index, usize::from(side))),
            MatchGame::Forfeit { winner: None } => return Some([0, 0]),
            MatchGame::Forfeit {
                winner: Some(player),
            } => Some(*player),
        };
        Some(match winner {
            Some(0) => [2, 0],
            Some(_) => [0, 2],
            None => [1, 1],
        })
    }

    /// Twice each player's game points in the games over so far.
    pub fn points_x2(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> [u32; 2] {
        (0..self.games.len())
            .filter_map(|index| self.game_points_x2(index, result))
            .fold([0, 0], |sum, points| {
                [sum[0] + points[0], sum[1] + points[1]]
            })
    }

    /// Whether the game under way (the last begun) is over, or none has begun.
    pub fn last_game_over(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> bool {
        self.games.is_empty() || self.game_points_x2(self.games.len() - 1, result).is_some()
    }

    /// Whether both games are over.
    pub fn finished(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> bool {
        self.games.len() == MATCH_GAMES && self.last_game_over(result)
    }

    /// The finished match's score, as the standings count it; none while it goes on, or
    /// when both players withdrew before a game was played (it counts for nobody).
    pub fn score(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> Option<MatchScore> {
        let void = self
            .games
            .iter()
            .all(|game| *game == MatchGame::Forfeit { winner: None });
        if void || !self.finished(result) {
            return None;
        }
        Some(MatchScore {
            players: self.players,
            points_x2: self.points_x2(result),
        })
    }
}

/// One round: its matches and its bye.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The matches, in the order they were paired.
    pub matches: Vec<Match>,
    /// Who sits the round out (a seed).
    pub bye: Option<usize>,
}

/// A tournament as the server keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Its number.
    pub id: TournamentId,
    /// Its name.
    pub name: String,
    /// The account that made it.
    pub creator: String,
    /// Round robin or Swiss.
    pub format: TournamentFormat,
    /// The hash of every game's rule file.
    pub rules_hash: String,
    /// Every game's clock.
    pub clock: ClockSpec,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// The rounds: a Swiss event's as asked (fewer if its players cannot fill them); a
    /// round robin's set when it starts.
    pub rounds_planned: u32,
    /// When it starts by itself, in milliseconds since the Unix epoch.
    pub starts_at: Option<i64>,
    /// Where it stands.
    pub status: TournamentStatus,
    /// The accounts entered, in the order they entered: their seeds.
    pub players: Vec<String>,
    /// The seeds of the players who withdrew once it ran.
    pub withdrawn: Vec<usize>,
    /// The rounds begun.
    pub rounds: Vec<Round>,
}

impl Tournament {
    /// Whether the seed withdrew.
    pub fn has_withdrawn(&self, player: usize) -> bool {
        self.withdrawn.contains(&player)
    }

    /// The seed of an account entered.
    pub fn seed(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|player| player == name)
    }

    /// The finished matches' scores.
    pub fn scores(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> Vec<MatchScore> {
        self.rounds
            .iter()
            .flat_map(|round| &round.matches)
            .filter_map(|played| played.score(result))
            .collect()
    }

    /// The Swiss byes so far (a round robin's byes score nothing).
    pub fn scoring_byes(&self) -> Vec<usize> {
        match self.format {
            TournamentFormat::Swiss => self.rounds.iter().filter_map(|round| round.bye).collect(),
            TournamentFormat::RoundRobin => Vec::new(),
        }
    }

    /// The standings after the finished matches.
    pub fn standings(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> Vec<Standing> {
        standings::standings(
            self.players.len(),
            &self.scores(result),
            &self.scoring_byes(),
        )
    }

    /// Whether two seeds have been paired already.
    pub fn met(&self, first: usize, second: usize) -> bool {
        self.rounds
            .iter()
            .flat_map(|round| &round.matches)
            .any(|paired| paired.players == [first, second] || paired.players == [second, first])
    }

    /// Whether a seed has had a bye.
    pub fn had_bye(&self, player: usize) -> bool {
        self.rounds.iter().any(|round| round.bye == Some(player))
    }

    /// The next round's pairing, by the format: the Berger table's next round (a
    /// withdrawn player's matches are still paired, and forfeited), or a Swiss round of
    /// the players who have not withdrawn, ordered by match points, game points, then
    /// seed.
    pub fn next_pairing(
        &self,
        result: &impl Fn(GameId) -> Option<GameResult>,
    ) -> Option<pairing::RoundPairing> {
        let next = self.rounds.len() + 1;
        if next > self.rounds_planned as usize {
            return None;
        }
        match self.format {
            TournamentFormat::RoundRobin => pairing::berger(self.players.len(), next),
            TournamentFormat::Swiss => {
                let rows = standings::standings(
                    self.players.len(),
                    &self.scores(result),
                    &self.scoring_byes(),
                );
                let mut order: Vec<&Standing> = rows
                    .iter()
                    .filter(|row| !self.has_withdrawn(row.player))
                    .collect();
                order.sort_by_key(|row| {
                    (
                        std::cmp::Reverse(row.match_points),
                        std::cmp::Reverse(row.game_points_x2),
                        row.player,
                    )
                });
                let order: Vec<usize> = order.iter().map(|row| row.player).collect();
                if order.len() < 2 {
                    return None;
                }
                Some(pairing::swiss(
                    &order,
                    |a, b| self.met(a, b),
                    |player| self.had_bye(player),
                ))
            }
        }
    }

    /// Whether every match of the round under way is over.
    pub fn round_over(&self, result: &impl Fn(GameId) -> Option<GameResult>) -> bool {
        self.rounds
            .last()
            .is_none_or(|round| round.matches.iter().all(|played| played.finished(result)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hnefatafl_net::protocol::EndCause;

    fn won_by(side: u8) -> GameResult {
        GameResult {
            winner: Some(side),
            reason: EndCause::Resigned,
        }
    }

    #[test]
    fn the_sides_swap_in_the_second_game() {
        // Game 10: side 0 is the match's first player, who wins. Game 11: side 0 is the
        // second player, and side 0 wins again: 1-1.
        let played = Match {
            players: [3, 5],
            games: vec![MatchGame::Played(10), MatchGame::Played(11)],
        };
        let result = |game: GameId| (game <= 11).then(|| won_by(0));
        assert_eq!(played.points_x2(&result), [2, 2]);
        let score = played.score(&result).expect("finished");
        assert_eq!(score.match_points(), [1, 1]);
        // Side 1 wins the second game: the first player won both.
        let result = |game: GameId| Some(won_by(if game == 10 { 0 } else { 1 }));
        assert_eq!(played.points_x2(&result), [4, 0]);
    }

    #[test]
    fn a_match_goes_on_until_both_games_are_over() {
        let mut played = Match {
            players: [0, 1],
            games: vec![MatchGame::Played(1)],
        };
        let result = |game: GameId| (game == 1).then(|| won_by(1));
        assert!(played.last_game_over(&result));
        assert!(!played.finished(&result));
        assert_eq!(played.score(&result), None);
        played.games.push(MatchGame::Forfeit { winner: Some(1) });
        assert_eq!(played.points_x2(&result), [0, 4]);
        assert!(played.finished(&result));
        // Both withdrew before playing: the match counts for nobody.
        let void = Match {
            players: [0, 1],
            games: vec![MatchGame::Forfeit { winner: None }; 2],
        };
        assert_eq!(void.score(&result), None);
    }
}
