//! Ratings off the referee's lock: the rating periods closed as they end, and the
//! leaderboards and an account's ratings read from the storage on blocking threads.

use std::sync::Arc;
use std::time::Duration;

use hnefatafl_net::protocol::{
    ClientMessage, LeaderboardEntry, RATINGS_PAGE, RatingHistory, RulesRating, ServerMessage,
};

use super::Server;
use crate::periods;
use crate::referee::ConnectionId;
use crate::storage::{StorageError, StoredHistory, StoredRating, stored_now};

/// A rating and its deviation as the wire shows them: whole points.
fn shown(rating: f64, deviation: f64) -> (i32, u32) {
    (rating.round() as i32, deviation.round() as u32)
}

/// A rating query, its rules found under the referee's lock, to answer off it.
enum Query {
    Leaderboard {
        rules_id: String,
        rules_hash: String,
        page: u32,
    },
    Account {
        account: String,
    },
}

/// What the storage answered to a [`Query`].
enum Answer {
    Leaderboard {
        rules_id: String,
        page: u32,
        rows: Vec<StoredRating>,
    },
    Account {
        account: String,
        ratings: Vec<StoredRating>,
        history: Vec<StoredHistory>,
    },
}

impl Server {
    /// Closes each rating period as it ends, for as long as the server runs.
    pub(super) async fn rating_periods(self: Arc<Self>) {
        loop {
            let server = self.clone();
            let wait = match tokio::task::spawn_blocking(move || server.close_due_periods()).await {
                Ok(Ok(wait)) => wait,
                Ok(Err(error)) => {
                    eprintln!("hnefataflserver: closing a rating period: {error}");
                    self.rating_period
                }
                Err(_) => return,
            };
            tokio::time::sleep(wait).await;
        }
    }

    /// Closes the rating period when it is over, and answers the time to the end of the
    /// next one. The first start of a server (or of a database from before ratings)
    /// begins the first period. When the server was down through whole periods, those
    /// only widen the deviations, and the games not yet counted count in the last.
    pub(super) fn close_due_periods(&self) -> Result<Duration, StorageError> {
        let period = i64::try_from(self.rating_period.as_millis())
            .unwrap_or(i64::MAX)
            .max(1);
        let mut storage = self.storage_off_lock();
        let now = stored_now();
        let Some(last) = storage.period_end()? else {
            storage.close_period(now, &[], &[], &[])?;
            return Ok(self.rating_period);
        };
        let due = (now - last) / period;
        if due < 1 {
            return Ok(Duration::from_millis((last + period - now).unsigned_abs()));
        }
        let end = last.saturating_add(due.saturating_mul(period));
        let games = storage.uncounted_games(end)?;
        let idle = u32::try_from(due - 1).unwrap_or(u32::MAX);
        let closed = periods::close(storage.all_ratings()?, &games, end, idle);
        storage.close_period(end, &closed.ratings, &closed.history, &closed.counted)?;
        Ok(Duration::from_millis(
            (end.saturating_add(period) - now).unsigned_abs(),
        ))
    }

    /// Answers `ratings` and `rating`: the rules are found under the referee's lock, the
    /// storage is read off it, and the answer is sent under it again.
    pub(super) async fn rating_query(self: Arc<Self>, id: ConnectionId, message: ClientMessage) {
        let query = match message {
            ClientMessage::Ratings { rules, page } => {
                let state = self.lock();
                match state.find_rules(&rules) {
                    Ok(hash) => Query::Leaderboard {
                        rules_id: state.rules[&hash].info.id.clone(),
                        rules_hash: hash,
                        page,
                    },
                    Err(problem) => {
                        drop(state);
                        return self.lock().send(id, &ServerMessage::error(problem));
                    }
                }
            }
            ClientMessage::Rating { account } => Query::Account { account },
            _ => return,
        };
        let server = self.clone();
        let answer = tokio::task::spawn_blocking(move || server.read_ratings(query)).await;
        let mut state = self.lock();
        let message = match answer {
            Ok(Ok(Answer::Leaderboard {
                rules_id,
                page,
                rows,
            })) => {
                let first = page as usize * RATINGS_PAGE + 1;
                let entries = rows
                    .into_iter()
                    .enumerate()
                    .map(|(index, row)| {
                        let (rating, deviation) = shown(row.rating, row.deviation);
                        LeaderboardEntry {
                            rank: u32::try_from(first + index).unwrap_or(u32::MAX),
                            name: row.name,
                            rating,
                            deviation,
                            games: row.games,
                        }
                    })
                    .collect();
                ServerMessage::Leaderboard {
                    rules_id,
                    page,
                    entries,
                }
            }
            Ok(Ok(Answer::Account {
                account,
                ratings,
                history,
            })) => {
                let ratings = ratings
                    .into_iter()
                    .map(|row| {
                        let (rating, deviation) = shown(row.rating, row.deviation);
                        RulesRating {
                            rules_id: state
                                .rules
                                .get(&row.rules_hash)
                                .map(|set| set.info.id.clone())
                                .unwrap_or_default(),
                            rules_hash: row.rules_hash,
                            rating,
                            deviation,
                            games: row.games,
                        }
                    })
                    .collect();
                let history = history
                    .into_iter()
                    .map(|row| {
                        let (rating, deviation) = shown(row.rating, row.deviation);
                        RatingHistory {
                            rules_hash: row.rules_hash,
                            period_end_ms: row.period_end,
                            rating,
                            deviation,
                            games: row.games,
                        }
                    })
                    .collect();
                ServerMessage::AccountRatings {
                    account,
                    ratings,
                    history,
                }
            }
            Ok(Err(error)) => ServerMessage::error(error.to_string()),
            Err(_) => ServerMessage::error("the ratings could not be read"),
        };
        state.send(id, &message);
    }

    /// Reads what a rating query asks from the ratings' storage connection.
    fn read_ratings(&self, query: Query) -> Result<Answer, StorageError> {
        let mut storage = self.storage_off_lock();
        let limit = RATINGS_PAGE as u32;
        Ok(match query {
            Query::Leaderboard {
                rules_id,
                rules_hash,
                page,
            } => {
                // A page past the end, however far, is an empty one.
                let rows = match page.checked_mul(limit) {
                    Some(skip) => storage.leaderboard(&rules_hash, skip, limit)?,
                    None => Vec::new(),
                };
                Answer::Leaderboard {
                    rules_id,
                    page,
                    rows,
                }
            }
            Query::Account { account } => Answer::Account {
                ratings: storage.account_ratings(&account, limit)?,
                history: storage.history(&account, limit)?,
                account,
            },
        })
    }
}
