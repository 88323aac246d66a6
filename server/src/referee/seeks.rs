//! Open challenges (seeks), challenges to a named player, and rematches.
//!
//! A seek is a game as `new` makes it, waiting for its second player, with terms that say
//! who may take the free seat: one named account (a challenge), and a range of ratings in
//! the game's rules. The poster's side is theirs to choose or the server's to draw. It is
//! listed in `games` with its terms, and `join` takes it as any open game, when the terms
//! allow. A rematch is a challenge to the last opponent with the same rules, clock and
//! rating, the sides swapped (a computer opponent takes its seat at once).
//!
//! Every seek is a game with a seat of its poster, so the open-games quota bounds them;
//! challenges, which reach another player unasked, have an hourly quota of their own.
//!
//! What the terms need from storage (whether the challenged account exists, the joining
//! player's ratings) is read off the referee's lock before the message is handled
//! ([`LookedUp`], read by `crate::server`; the types are in `terms`), as the referee does no I/O.

use std::time::Instant;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use hnefatafl_net::protocol::{GameId, SeekTerms, ServerMessage};

use super::terms::{LookedUp, SeekRequest};
use super::{ConnectionId, OtherSeat, State, valid_name};
use crate::storage::StoredRating;

/// The rating of an account without rated games in a rule set: Glicko-2's start.
const START_RATING: i32 = 1500;

/// Refuses terms that nobody could meet, or that name a player wrongly.
fn check_terms(poster: &str, terms: &SeekTerms) -> Result<(), String> {
    if let Some(to) = &terms.to {
        if !valid_name(to) {
            return Err(format!("`{to}` is no account name"));
        }
        if to == poster {
            return Err("a challenge is to another player".to_owned());
        }
    }
    if let (Some(low), Some(high)) = (terms.min_rating, terms.max_rating) {
        if low > high {
            return Err(format!(
                "the rating range {low}-{high} is empty: its lowest is above its highest"
            ));
        }
    }
    Ok(())
}

impl State {
    /// Posts a seek: a new game with the poster at their side (or one drawn), listed
    /// with its terms; a challenge is told to the challenged player's connections.
    pub(crate) fn seek(
        &mut self,
        id: ConnectionId,
        request: SeekRequest<'_>,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        let name = self.account(id)?;
        check_terms(&name, &request.terms)?;
        if let Some(to) = &request.terms.to {
            if self.computers.contains_key(to) {
                return Err(format!(
                    "`{to}` is a computer: `new` with `opponent` plays it at once"
                ));
            }
            if looked_up.challenged_exists != Some(true) {
                return Err(format!("there is no account `{to}`"));
            }
            self.count_challenge(&name)?;
        }
        let side = request.side.unwrap_or_else(|| (OsRng.next_u32() & 1) as u8);
        let terms = request.terms;
        let game = self.create(
            id,
            request.rules,
            request.clock,
            side,
            OtherSeat::Seek(terms.clone()),
            request.rated,
        )?;
        self.tell_challenged(game, name, terms);
        Ok(())
    }

    /// Offers the last opponent of a finished game a new one with the same rules, clock
    /// and rating, the sides swapped: a challenge to them, or at once against a computer.
    pub(crate) fn rematch(&mut self, id: ConnectionId, game: GameId) -> Result<(), String> {
        let name = self.account(id)?;
        let live = self.finished_game(game)?;
        let side = live
            .side_of(&name)
            .ok_or_else(|| format!("you did not play in game {game}"))?;
        let opponent = live.players[1 - side]
            .clone()
            .ok_or_else(|| format!("nobody played against you in game {game}"))?;
        let (hash, clock, rated) = (live.rules_hash.clone(), live.clock, live.rated);
        let side = 1 - side as u8;
        if self.computers.contains_key(&opponent) {
            self.create(id, &hash, clock, side, OtherSeat::Computer(opponent), rated)?;
            return Ok(());
        }
        self.count_challenge(&name)?;
        let terms = SeekTerms {
            to: Some(opponent),
            ..SeekTerms::default()
        };
        let new = self.create(
            id,
            &hash,
            clock,
            side,
            OtherSeat::Seek(terms.clone()),
            rated,
        )?;
        self.tell_challenged(new, name, terms);
        Ok(())
    }

    /// Whether `name` may take the free seat of `game` by its terms: a challenge is for
    /// the challenged only, a rating range for ratings (in the game's rules) within it.
    pub(crate) fn may_take(
        &mut self,
        game: GameId,
        name: &str,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        let Some(live) = self.games.get(&game) else {
            return Ok(());
        };
        let Some(terms) = live.seek.clone() else {
            return Ok(());
        };
        if let Some(to) = &terms.to {
            if to != name {
                return Err(format!("game {game} is a challenge to {to}"));
            }
        }
        if terms.min_rating.is_none() && terms.max_rating.is_none() {
            return Ok(());
        }
        let hash = live.rules_hash.clone();
        let rating = rating_in(&looked_up.ratings, &hash);
        let low = terms.min_rating.unwrap_or(i32::MIN);
        let high = terms.max_rating.unwrap_or(i32::MAX);
        if !(low..=high).contains(&rating) {
            let range = range_words(&terms);
            return Err(format!(
                "game {game} is for ratings {range} in its rules; yours is {rating}"
            ));
        }
        Ok(())
    }

    /// Tells a challenged player of a new seek addressed to them.
    fn tell_challenged(&mut self, game: GameId, from: String, terms: SeekTerms) {
        let Some(to) = terms.to else {
            return;
        };
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let summary = State::summary(live, live.game.rules().id());
        let message = ServerMessage::Challenged { from, summary };
        let connections: Vec<ConnectionId> = self
            .connections
            .iter()
            .filter(|(_, connection)| connection.account.as_deref() == Some(to.as_str()))
            .map(|(&id, _)| id)
            .collect();
        for id in connections {
            self.send(id, &message);
        }
    }

    /// Books a challenge of `name`'s, within the hourly quota.
    fn count_challenge(&mut self, name: &str) -> Result<(), String> {
        let limit = self.quotas.challenges_per_hour;
        self.seeks
            .challenges
            .take(name.to_owned(), limit, Instant::now())
            .map_err(|wait| {
                format!(
                    "at most {limit} challenges an hour from one account; try again in {} s",
                    wait.as_secs() + 1
                )
            })
    }
}

/// An account's rating in a rule set, rounded, from its `ratings`; a new player's without
/// rated games there.
fn rating_in(ratings: &[StoredRating], rules_hash: &str) -> i32 {
    ratings
        .iter()
        .find(|rating| rating.rules_hash == rules_hash)
        .map_or(START_RATING, |rating| rating.rating.round() as i32)
}

/// A rating range in words: `1400-1800`, `1400-`, `-1800`.
fn range_words(terms: &SeekTerms) -> String {
    let bound = |value: Option<i32>| value.map(|v| v.to_string()).unwrap_or_default();
    format!("{}-{}", bound(terms.min_rating), bound(terms.max_rating))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_nobody_could_meet_are_refused() {
        let terms = |to: Option<&str>, low, high| SeekTerms {
            to: to.map(str::to_owned),
            min_rating: low,
            max_rating: high,
        };
        assert!(check_terms("ann", &terms(Some("bob"), Some(1400), Some(1800))).is_ok());
        assert!(check_terms("ann", &terms(None, Some(1800), None)).is_ok());
        assert!(check_terms("ann", &terms(Some("ann"), None, None)).is_err());
        assert!(check_terms("ann", &terms(Some("b b"), None, None)).is_err());
        let empty = check_terms("ann", &terms(None, Some(1800), Some(1400)));
        assert!(empty.is_err_and(|e| e.contains("1800-1400")));
    }

    #[test]
    fn ranges_read_as_typed() {
        let terms = |low, high| SeekTerms {
            to: None,
            min_rating: low,
            max_rating: high,
        };
        assert_eq!(range_words(&terms(Some(1400), Some(1800))), "1400-1800");
        assert_eq!(range_words(&terms(Some(1400), None)), "1400-");
        assert_eq!(range_words(&terms(None, Some(1800))), "-1800");
    }
}
