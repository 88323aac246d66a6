//! Rating periods: at the end of each, every rated game of the period updates both
//! players' Glicko-2 ratings at once ([`crate::rating`], as the paper asks: all of a
//! player's games of the period against the opponents' ratings at its start), and every
//! rated account without games has its deviation widened. Pure arithmetic on the
//! storage's rows; `crate::server` reads and writes them off the referee's lock.

use std::collections::{BTreeMap, HashMap};

use crate::rating::{DEFAULT_TAU, GameResult, Rating};
use crate::storage::{GameNumber, RatedGame, StoredHistory, StoredRating, StoredTime};

/// What closing a period changes.
#[derive(Debug, Default, PartialEq)]
pub struct Closed {
    /// Every rating, new ones included, after the period.
    pub ratings: Vec<StoredRating>,
    /// A row for each account and rule set with games in the period.
    pub history: Vec<StoredHistory>,
    /// The games counted.
    pub counted: Vec<GameNumber>,
}

fn glicko(row: &StoredRating) -> Rating {
    Rating {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    }
}

/// Closes the period that ends at `end`, after `idle` earlier periods without any games
/// (the server was down through them): those only widen every deviation, then `games`
/// count in this one.
pub fn close(
    ratings: Vec<StoredRating>,
    games: &[RatedGame],
    end: StoredTime,
    idle: u32,
) -> Closed {
    let mut table: BTreeMap<(String, String), StoredRating> = ratings
        .into_iter()
        .map(|mut row| {
            let widened = glicko(&row).after_idle_periods(idle);
            row.deviation = widened.deviation;
            ((row.rules_hash.clone(), row.name.clone()), row)
        })
        .collect();
    // The opponents' ratings as the period began.
    let before: HashMap<(String, String), Rating> = table
        .iter()
        .map(|(key, row)| (key.clone(), glicko(row)))
        .collect();
    let mut results: HashMap<(String, String), Vec<GameResult>> = HashMap::new();
    for game in games {
        for side in 0..2 {
            let me = (game.rules_hash.clone(), game.players[side].clone());
            let them = (game.rules_hash.clone(), game.players[1 - side].clone());
            let score = match game.winner {
                None => 0.5,
                Some(winner) if usize::from(winner) == side => 1.0,
                Some(_) => 0.0,
            };
            results.entry(me).or_default().push(GameResult {
                opponent: before.get(&them).copied().unwrap_or_default(),
                score,
            });
        }
    }
    for (rules_hash, name) in results.keys() {
        let fresh = Rating::default();
        table
            .entry((rules_hash.clone(), name.clone()))
            .or_insert_with(|| StoredRating {
                name: name.clone(),
                rules_hash: rules_hash.clone(),
                rating: fresh.rating,
                deviation: fresh.deviation,
                volatility: fresh.volatility,
                games: 0,
                last_period: None,
            });
    }
    let mut history = Vec::new();
    for (key, row) in &mut table {
        let played = results.get(key).map_or(&[][..], Vec::as_slice);
        let after = glicko(row).after_period(played, DEFAULT_TAU);
        row.rating = after.rating;
        row.deviation = after.deviation;
        row.volatility = after.volatility;
        if !played.is_empty() {
            let count = u32::try_from(played.len()).unwrap_or(u32::MAX);
            row.games = row.games.saturating_add(count);
            row.last_period = Some(end);
            history.push(StoredHistory {
                name: row.name.clone(),
                rules_hash: row.rules_hash.clone(),
                period_end: end,
                rating: row.rating,
                deviation: row.deviation,
                games: count,
            });
        }
    }
    Closed {
        ratings: table.into_values().collect(),
        history,
        counted: games.iter().map(|game| game.id).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: GameNumber, rules: &str, players: [&str; 2], winner: Option<u8>) -> RatedGame {
        RatedGame {
            id,
            rules_hash: rules.into(),
            players: players.map(str::to_owned),
            winner,
        }
    }

    fn find<'a>(closed: &'a Closed, rules: &str, name: &str) -> &'a StoredRating {
        closed
            .ratings
            .iter()
            .find(|row| row.rules_hash == rules && row.name == name)
            .expect("a rating")
    }

    #[test]
    fn a_period_rates_its_games_per_rule_set_and_widens_the_idle() {
        let idle = StoredRating {
            name: "cid".into(),
            rules_hash: "h1".into(),
            rating: 1700.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 4,
            last_period: Some(1),
        };
        let games = [
            game(7, "h1", ["ann", "bob"], Some(0)),
            game(8, "h1", ["bob", "ann"], Some(1)),
            game(9, "h2", ["ann", "bob"], None),
        ];
        let closed = close(vec![idle.clone()], &games, 50, 0);
        assert_eq!(closed.counted, [7, 8, 9]);
        let (ann, bob) = (find(&closed, "h1", "ann"), find(&closed, "h1", "bob"));
        assert!(
            ann.rating > 1500.0 && bob.rating < 1500.0,
            "{ann:?} {bob:?}"
        );
        assert!(ann.deviation < 350.0 && ann.games == 2 && ann.last_period == Some(50));
        // Two new players drawing stay where they began.
        let drawn = find(&closed, "h2", "ann");
        assert!((drawn.rating - 1500.0).abs() < 1e-9 && drawn.games == 1);
        // The idle player keeps the rating; only the deviation grows.
        let cid = find(&closed, "h1", "cid");
        assert_eq!(
            (cid.rating, cid.games, cid.last_period),
            (1700.0, 4, Some(1))
        );
        assert!(cid.deviation > 60.0);
        assert_eq!(closed.history.len(), 4);
        assert!(closed.history.iter().all(|row| row.period_end == 50));
    }

    #[test]
    fn periods_missed_widen_before_the_games_count() {
        let row = StoredRating {
            name: "ann".into(),
            rules_hash: "h".into(),
            rating: 1500.0,
            deviation: 50.0,
            volatility: 0.06,
            games: 1,
            last_period: None,
        };
        let one = close(vec![row.clone()], &[], 10, 0);
        let many = close(vec![row], &[], 10, 20);
        assert!(many.ratings[0].deviation > one.ratings[0].deviation);
        assert!(many.history.is_empty() && many.counted.is_empty());
    }
}
