//! Chat: a line to a game's players and watchers, from one of them, within the quotas of
//! the connection, its address and the game.

use std::time::Instant;

use hnefatafl_net::protocol::{GameId, ServerMessage};

use super::{ConnectionId, GUEST_PREFIX, MAX_CHAT, State};
use crate::storage::stored_now;
use crate::text;

impl State {
    /// A chat line to a game's audience from one of it, cleaned of hidden characters,
    /// within the chat quotas of the connection, its address and (for a watcher) the game.
    pub(super) fn say(&mut self, id: ConnectionId, game: GameId, text: &str) -> Result<(), String> {
        let from = self
            .account(id)
            .unwrap_or_else(|_| format!("{GUEST_PREFIX}{id}"));
        let live = self.live(game)?;
        if !live.audience.contains(&id) {
            return Err(format!(
                "watch game {game} first (`watch`): only its players and watchers talk in it"
            ));
        }
        let player = live
            .players
            .iter()
            .any(|p| p.as_deref() == Some(from.as_str()));
        if let Some(problem) = self.moderation.muted(&from, stored_now()) {
            return Err(problem);
        }
        let now = Instant::now();
        let too_much = |rate: u32, whose: &str| {
            format!("too much chat: at most {rate} lines a second {whose}; this line was not sent")
        };
        let rate = self.quotas.chat_per_second;
        let connection = self.connections.get_mut(&id).ok_or("not connected")?;
        if !connection.chat.take(rate, now) {
            return Err(too_much(rate, "from a connection"));
        }
        let address = connection.address;
        let rate = self.quotas.chat_per_address;
        if self.quotas.counts(address) && !self.chat_addresses.take(address, rate, now) {
            return Err(too_much(rate, "from one address"));
        }
        let rate = self.quotas.chat_per_game;
        if !player && !self.chat_games.take(game, rate, now) {
            return Err(too_much(rate, "from a game's watchers"));
        }
        let text = text::clean(text, MAX_CHAT);
        if text.trim().is_empty() {
            return Err("nothing to say".to_owned());
        }
        let line = self.chat_log.add(game, &from, &text);
        let chat = ServerMessage::Chat {
            game,
            from,
            text,
            line,
        };
        self.broadcast(game, &chat);
        Ok(())
    }
}
