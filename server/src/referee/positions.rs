//! Positions for the connections that asked for them in their `hello` (the web page):
//! with each position they see (a game opened, a move, an undo), the board and the legal
//! moves of the side to move, worked out once for all of them and only when one of them
//! is there, so that the terminal and X clients' traffic and the server's work for them
//! do not grow.

use hnefatafl_core::Game;
use hnefatafl_net::protocol::{BoardPosition, GameId, POSITIONS_VERSION, ServerMessage};

use super::{ConnectionId, State};

/// The version of the position addition a connection is sent, given the one its `hello`
/// asked for: the lower of that and this server's, none when it asked for none (or 0).
pub(crate) fn positions_sent(asked: Option<u32>) -> Option<u32> {
    asked
        .filter(|&version| version > 0)
        .map(|version| version.min(POSITIONS_VERSION))
}

impl State {
    /// Notes whether a connection's `hello` asked for positions.
    pub(crate) fn wants_positions(&mut self, id: ConnectionId, wants: bool) {
        if let Some(connection) = self.connections.get_mut(&id) {
            connection.positions = wants;
        }
    }

    /// Sends a game's current position to those of `audience` that asked for positions.
    fn send_position_to(&mut self, game: GameId, audience: &[ConnectionId]) {
        let readers: Vec<ConnectionId> = audience
            .iter()
            .copied()
            .filter(|id| self.connections.get(id).is_some_and(|c| c.positions))
            .collect();
        if readers.is_empty() {
            return;
        }
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let message = ServerMessage::Position {
            game,
            position: BoardPosition::of(&live.game),
        };
        for id in readers {
            self.send(id, &message);
        }
    }

    /// Sends a game's current position to one connection, if it asked for positions.
    pub(crate) fn send_position(&mut self, id: ConnectionId, game: GameId) {
        self.send_position_to(game, &[id]);
    }

    /// Sends a game's current position to everyone playing or watching it who asked for
    /// positions.
    pub(crate) fn broadcast_position(&mut self, game: GameId) {
        let audience: Vec<ConnectionId> = self
            .games
            .get(&game)
            .map(|live| live.audience.iter().copied().collect())
            .unwrap_or_default();
        self.send_position_to(game, &audience);
    }

    /// Answers `position`: a game's position after its first `ply` moves (the current one
    /// with its legal moves, a past one without), for anyone who may watch it.
    pub(crate) fn position_at(
        &mut self,
        id: ConnectionId,
        game: GameId,
        ply: u32,
    ) -> Result<(), String> {
        let live = self.live(game)?;
        let played = live.game.moves().len();
        let ply = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply > played {
            return Err(format!("game {game} has {played} moves"));
        }
        let position = if ply == played {
            BoardPosition::of(&live.game)
        } else {
            let mut past = Game::new(live.game.rules().clone());
            for mv in live.game.moves().take(ply) {
                past.try_play(mv).map_err(|error| error.to_string())?;
            }
            BoardPosition::without_moves(&past)
        };
        self.send(id, &ServerMessage::Position { game, position });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_is_sent_the_lower_version_it_asked_for() {
        assert_eq!(positions_sent(None), None);
        assert_eq!(positions_sent(Some(0)), None);
        assert_eq!(positions_sent(Some(1)), Some(1));
        assert_eq!(
            positions_sent(Some(POSITIONS_VERSION + 5)),
            Some(POSITIONS_VERSION)
        );
    }
}
