//! Seats and audiences: who watches or plays a game on which connection, and the quota
//! of unfinished games an account may hold seats in.

use hnefatafl_net::protocol::{GameId, ServerMessage};

use super::{ConnectionId, State};

impl State {
    /// Adds a connection to a game's audience and sends it the whole game.
    pub(crate) fn attend(&mut self, id: ConnectionId, game: GameId, side: Option<u8>) {
        if let Some(connection) = self.connections.get_mut(&id) {
            connection.games.insert(game);
        }
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        live.audience.insert(id);
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let state = self.state_of(live, side);
        self.send(id, &ServerMessage::Game { state });
        self.send_position(id, game);
    }

    /// The number of unfinished games with a seat of `name`.
    pub(super) fn open_games(&self, name: &str) -> usize {
        self.games
            .values()
            .filter(|live| {
                live.result.is_none() && live.players.iter().any(|p| p.as_deref() == Some(name))
            })
            .count()
    }

    /// Refuses one more seat to `name` when it has its quota of unfinished games.
    pub(super) fn check_open_games(&self, name: &str) -> Result<(), String> {
        let limit = self.quotas.open_games;
        if self.open_games(name) >= limit {
            return Err(format!(
                "you have {limit} unfinished games, as many as this server allows; \
                 finish or resign one first"
            ));
        }
        Ok(())
    }
}
