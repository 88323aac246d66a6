//! The moderators' actions under the lock: each checked ([`Moderation::permit`]), logged
//! (its storage write recorded before anybody hears of it) and done: connections closed,
//! a chat line hidden, a game aborted. Also each game's latest chat lines, which a
//! moderator may hide and anybody may list again.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

use hnefatafl_net::protocol::{
    CHAT_PAGE, ChatLine, EndCause, GameId, GameResult, MAX_REASON, ModAction, ModLogEntry,
    ServerMessage,
};

use super::{ConnectionId, LookedUp, State};
use crate::journal::Write;
use crate::moderation::{AddressRange, Moderation};
use crate::storage::{StoredAction, stored_now};
use crate::text;

/// The chat lines kept of each game, the latest: what `chat_log` lists.
pub(crate) const CHAT_KEPT: usize = 50;

/// Each game's latest chat lines, numbered.
#[derive(Debug, Default)]
pub(crate) struct ChatLog {
    games: HashMap<GameId, GameChat>,
}

#[derive(Debug, Default)]
struct GameChat {
    /// The number of the last line said (0: none).
    said: u64,
    /// The latest lines, oldest first, those hidden left out.
    lines: VecDeque<ChatLine>,
}

impl ChatLog {
    /// Keeps a line said in `game`; answers its number.
    pub(crate) fn add(&mut self, game: GameId, from: &str, text: &str) -> u64 {
        let chat = self.games.entry(game).or_default();
        chat.said += 1;
        chat.lines.push_back(ChatLine {
            line: chat.said,
            from: from.to_owned(),
            text: text.to_owned(),
        });
        if chat.lines.len() > CHAT_KEPT {
            chat.lines.pop_front();
        }
        chat.said
    }

    /// Forgets a line; false when it was never said.
    fn hide(&mut self, game: GameId, line: u64) -> bool {
        let Some(chat) = self.games.get_mut(&game) else {
            return false;
        };
        chat.lines.retain(|kept| kept.line != line);
        (1..=chat.said).contains(&line)
    }

    fn lines(&self, game: GameId) -> Vec<ChatLine> {
        self.games
            .get(&game)
            .map(|chat| chat.lines.iter().cloned().collect())
            .unwrap_or_default()
    }
}

/// The log as stored, read back; an entry that no longer reads is said on standard
/// error and left out.
pub(crate) fn read_log(stored: Vec<StoredAction>) -> Vec<ModLogEntry> {
    stored
        .into_iter()
        .filter_map(|row| match ModAction::from_json(&row.action) {
            Ok(action) => Some(ModLogEntry {
                number: row.number,
                at_ms: row.at,
                by: row.by,
                action,
                reason: row.reason,
            }),
            Err(error) => {
                eprintln!(
                    "hnefataflserver: moderation log entry {}: {error}; left out",
                    row.number
                );
                None
            }
        })
        .collect()
}

fn stored_entry(entry: &ModLogEntry) -> StoredAction {
    StoredAction {
        number: entry.number,
        at: entry.at_ms,
        by: entry.by.clone(),
        action: entry.action.to_json(),
        reason: entry.reason.clone(),
    }
}

impl State {
    /// Whether `account` is a moderator or an owner, for the work of other families of
    /// messages (a tournament's director, say).
    pub(crate) fn is_moderator(&self, account: &str) -> bool {
        self.moderation.is_moderator(account)
    }

    /// Why a connection from `address` is refused, when a moderator banned its range.
    pub(crate) fn address_refused(&self, address: IpAddr) -> Option<String> {
        self.moderation.address_banned(address)
    }

    /// A moderator's action: checked, logged, then done; the moderator is answered with
    /// its log entry. `looked_up` says whether the account it names exists.
    pub(super) fn moderate(
        &mut self,
        id: ConnectionId,
        action: ModAction,
        reason: Option<String>,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        let actor = self.account(id)?;
        self.moderation.permit(&actor, &action)?;
        if let Some(account) = action.account() {
            if looked_up.challenged_exists != Some(true) {
                return Err(format!("there is no account `{account}`"));
            }
        }
        if let ModAction::Abort { game } = &action {
            if self.live(*game)?.result.is_some() {
                return Err(format!("game {game} is over already"));
            }
        }
        if let ModAction::Hide { game, line } = &action {
            self.live(*game)?;
            if !self.chat_log.hide(*game, *line) {
                return Err(format!("game {game} has no chat line {line}"));
            }
        }
        let reason = reason
            .map(|reason| text::clean(&reason, MAX_REASON))
            .filter(|reason| !reason.trim().is_empty());
        let entry = self
            .moderation
            .record(&actor, action.clone(), reason.clone(), stored_now());
        self.journal
            .record(Write::AddModeration(stored_entry(&entry)));
        self.carry_out(&action, reason.as_deref());
        self.send(id, &ServerMessage::Moderated { entry });
        Ok(())
    }

    /// What an action, checked and logged, does to the connections and games.
    fn carry_out(&mut self, action: &ModAction, reason: Option<&str>) {
        let because = reason.map_or_else(String::new, |reason| format!(" ({reason})"));
        match action {
            ModAction::Kick { account } | ModAction::Ban { account } => {
                let problem = format!("a moderator closed this connection{because}");
                let account = account.to_ascii_lowercase();
                self.close_where(&problem, |connection| {
                    connection
                        .account
                        .as_ref()
                        .is_some_and(|name| name.to_ascii_lowercase() == account)
                });
            }
            ModAction::BanAddress { address } => {
                if let Ok(range) = AddressRange::parse(address) {
                    let problem = format!("connections from {range} are banned{because}");
                    self.close_where(&problem, |connection| range.contains(connection.address));
                }
            }
            ModAction::Hide { game, line } => {
                let hidden = ServerMessage::ChatHidden {
                    game: *game,
                    line: *line,
                };
                self.broadcast(*game, &hidden);
            }
            ModAction::Abort { game } => {
                if self.games.get(game).is_some_and(|live| live.rated) {
                    // Before the end is stored: no rating period may count it between.
                    self.journal.record(Write::UnrateGame(*game));
                }
                if let Some(live) = self.games.get_mut(game) {
                    live.rated = false;
                }
                let result = GameResult {
                    winner: None,
                    reason: EndCause::Aborted,
                };
                // The game is there and unfinished: checked before the action was logged.
                let _ = self.finish(*game, result);
            }
            _ => {}
        }
    }

    /// Tells every connection that passes `closes` why it is closed, and closes it once
    /// that is written.
    fn close_where(&mut self, problem: &str, closes: impl Fn(&super::Connection) -> bool) {
        let closed: Vec<ConnectionId> = self
            .connections
            .iter()
            .filter(|(_, connection)| closes(connection))
            .map(|(&id, _)| id)
            .collect();
        for id in closed {
            self.send(id, &ServerMessage::error(problem));
            if let Some(connection) = self.connections.get(&id) {
                connection.kick.notify_one();
            }
        }
    }

    /// A page of the moderation log, for a moderator.
    pub(super) fn moderation_log(&mut self, id: ConnectionId, page: u32) -> Result<(), String> {
        let account = self.account(id)?;
        if !self.is_moderator(&account) {
            return Err("only moderators may read the moderation log".to_owned());
        }
        let entries = self.moderation.page(page);
        self.send(id, &ServerMessage::ModerationLog { page, entries });
        Ok(())
    }

    /// A game's kept chat lines, in pages of [`CHAT_PAGE`].
    pub(super) fn chat_lines(&mut self, id: ConnectionId, game: GameId) -> Result<(), String> {
        self.live(game)?;
        let lines = self.chat_log.lines(game);
        let mut pages = lines.chunks(CHAT_PAGE);
        loop {
            let page = pages.next().unwrap_or_default();
            let lines = page.to_vec();
            self.send(id, &ServerMessage::ChatLines { game, lines });
            if page.len() < CHAT_PAGE {
                return Ok(());
            }
        }
    }

    /// The moderation a state starts with: the owners and the stored log.
    pub(crate) fn moderation_from(owners: &[String], stored: Vec<StoredAction>) -> Moderation {
        Moderation::new(owners, read_log(stored))
    }
}
