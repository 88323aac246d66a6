//! What is listed and sent whole: lists in pages, games' summaries and states (a
//! finished game's record is `export`'s).

use hnefatafl_net::protocol::{GameState, GameSummary, ServerMessage};

use super::rows::{millis, wire_periods};
use super::{ConnectionId, LiveGame, PAGE, State};

impl State {
    /// Sends a list as pages of [`PAGE`] entries, the last one shorter.
    pub(super) fn send_pages<T: Clone>(
        &mut self,
        id: ConnectionId,
        items: &[T],
        message: impl Fn(Vec<T>) -> ServerMessage,
    ) {
        let mut pages = items.chunks(PAGE);
        loop {
            let page = pages.next().unwrap_or_default();
            self.send(id, &message(page.to_vec()));
            if page.len() < PAGE {
                break;
            }
        }
    }

    pub(crate) fn summary(live: &LiveGame, rules_id: &str) -> GameSummary {
        GameSummary {
            game: live.id,
            rules_id: rules_id.to_owned(),
            players: live.players.clone(),
            clock: live.clock,
            moves: live.game.moves().len() as u32,
            result: live.result,
            rated: live.rated,
            seek: live.seek.clone(),
        }
    }

    pub(crate) fn summaries(&self, finished: bool) -> Vec<GameSummary> {
        self.games
            .values()
            .filter(|live| live.result.is_some() == finished)
            .map(|live| Self::summary(live, live.game.rules().id()))
            .collect()
    }

    /// Each side's time left now.
    pub(crate) fn clocks_now(live: &LiveGame) -> Option<[u64; 2]> {
        live.clock?;
        let mut clocks = live.left.map(|side| side.time);
        if let Some(started) = live.turn_started {
            let side = live.game.side_to_move().index();
            clocks[side] = clocks[side].saturating_sub(started.elapsed());
        }
        Some(clocks.map(millis))
    }

    pub(crate) fn state_of(&self, live: &LiveGame, your_side: Option<u8>) -> GameState {
        let rules = live.game.rules();
        GameState {
            summary: Self::summary(live, rules.id()),
            rules_hash: live.rules_hash.clone(),
            rules_text: self
                .rules
                .get(&live.rules_hash)
                .map(|set| set.text.clone())
                .unwrap_or_default(),
            moves: live.game.moves().collect(),
            clocks: Self::clocks_now(live),
            periods: wire_periods(live.clock, &live.left),
            to_move: live.game.side_to_move().index() as u8,
            your_side,
        }
    }
}
