//! What the server says, in words: the connection's events and the server's messages,
//! the table of the network game they change, and the ratings and leaderboards it
//! answers with. The commands that ask are in `network`.

use std::path::Path;

use hnefatafl_core::{Game, Move, Rules};

use crate::data::Found;
use crate::files;
use crate::lang::{Key, Message};
use crate::messages;
use crate::online::protocol::{
    LeaderboardEntry, OfferKind, RatingHistory, RulesInfo, RulesRating, ServerMessage,
};
use crate::online::remote::{self, Awaited};
use crate::online::table::{Table, TableEvent};

use super::{Session, capture_line};

impl Session {
    /// A count of rated games in words: `1 rated game`.
    fn rated_games(&self, games: u32) -> String {
        let key = match games {
            1 => Key::NetGamesOne,
            _ => Key::NetGames,
        };
        self.text(&Message::new(key, [games.to_string()]))
    }

    /// A leaderboard page, one line a player.
    fn show_leaderboard(&mut self, rules_id: String, page: u32, entries: &[LeaderboardEntry]) {
        let page = (page + 1).to_string();
        if entries.is_empty() {
            return self.say(Message::new(Key::NetLeaderboardEmpty, [rules_id, page]));
        }
        self.say(Message::new(Key::NetLeaderboard, [rules_id, page]));
        for entry in entries {
            let games = self.rated_games(entry.games);
            self.say(Message::new(
                Key::NetLeaderboardLine,
                [
                    entry.rank.to_string(),
                    entry.name.clone(),
                    entry.rating.to_string(),
                    entry.deviation.to_string(),
                    games,
                ],
            ));
        }
    }

    /// An account's rating in each rule set, then its history, the latest first.
    fn show_ratings(
        &mut self,
        account: String,
        ratings: &[RulesRating],
        history: &[RatingHistory],
    ) {
        if ratings.is_empty() {
            return self.say(Message::new(Key::NetNoRatings, [account]));
        }
        self.say(Message::new(Key::NetRatings, [account]));
        for rating in ratings {
            let games = self.rated_games(rating.games);
            self.say(Message::new(
                Key::NetRatingLine,
                [
                    rating.rules_id.clone(),
                    rating.rating.to_string(),
                    rating.deviation.to_string(),
                    games,
                ],
            ));
        }
        for row in history {
            // The history names rule files by hash; the ratings give their ids.
            let rules = ratings
                .iter()
                .find(|rating| rating.rules_hash == row.rules_hash)
                .map_or_else(|| row.rules_hash.clone(), |rating| rating.rules_id.clone());
            let games = self.rated_games(row.games);
            self.say(Message::new(
                Key::NetRatingHistory,
                [
                    utc_minute(row.period_end_ms),
                    rules,
                    row.rating.to_string(),
                    row.deviation.to_string(),
                    games,
                ],
            ));
        }
    }

    /// What the connection heard: its state, or a server message.
    fn apply_network(&mut self, event: remote::Event) {
        let target = self
            .link
            .as_ref()
            .map(|link| link.remote.target().to_string())
            .unwrap_or_default();
        match event {
            remote::Event::Started { pid, port } => {
                self.started_server = true;
                self.say(Message::new(
                    Key::NetStarted,
                    [pid.to_string(), port.to_string()],
                ));
            }
            remote::Event::Pinned(pin) => {
                let key = match self.started_server {
                    true => Key::NetPinnedOwn,
                    false => Key::NetPinned,
                };
                self.say(Message::new(
                    key,
                    [
                        target.clone(),
                        pin.fingerprint,
                        pin.pins.display().to_string(),
                    ],
                ));
            }
            remote::Event::Connected(server) => {
                if let Some(link) = &mut self.link {
                    link.connected = true;
                }
                self.say(Message::new(Key::NetConnected, [target, server]));
            }
            remote::Event::Failed(reason) => {
                self.link = None;
                self.say(Message::new(Key::NetFailed, [target, reason]));
            }
            remote::Event::Closed => {
                self.link = None;
                self.say(Message::new(Key::NetClosed, [target]));
            }
            remote::Event::Message(message) => {
                let answered = self.link.as_mut().and_then(|link| link.answered(&message));
                self.apply_server(*message, answered);
            }
        }
    }

    /// Applies what the connection heard since the last call.
    pub(super) fn poll_network(&mut self) {
        while let Some(event) = self.link.as_ref().and_then(|link| link.remote.poll()) {
            self.apply_network(event);
        }
    }

    /// A server message: the remote table takes those about its game and says what
    /// happened; the others are answers to requests (lists, log-ins, a fetched game).
    fn apply_server(&mut self, message: ServerMessage, answered: Option<Awaited>) {
        let to_move = self
            .game
            .as_ref()
            .map_or(0, |game| game.side_to_move().index() as u8);
        let event = self.link.as_mut().and_then(|link| {
            let account = link.account.clone();
            let table = link.table.as_mut()?;
            table.receive(&message, account.as_deref(), to_move)
        });
        if let Some(event) = event {
            return self.table_event(event);
        }
        match message {
            ServerMessage::Welcome { .. } => {}
            ServerMessage::RulesList { rules } => {
                // Lists come in pages; an empty last page after full ones is no news.
                if rules.is_empty() && answered.is_some() {
                    self.say(Message::plain(Key::NetNoRules));
                }
                for info in &rules {
                    self.say(rules_line(info));
                }
            }
            ServerMessage::RulesAdded { rules } => {
                let path = match answered {
                    Some(Awaited::Upload) => self.uploading.take().unwrap_or_default(),
                    _ => String::new(),
                };
                self.say(Message::new(
                    Key::NetRulesAdded,
                    [path, rules.id, rules.name, rules.hash],
                ));
            }
            ServerMessage::Error { message } => {
                self.say(Message::new(Key::NetServer, [message]));
            }
            ServerMessage::LoggedIn { name, games } => {
                if let Some(link) = &mut self.link {
                    link.account = Some(name.clone());
                }
                self.say(Message::new(Key::NetLoggedIn, [name]));
                if !games.is_empty() {
                    let list: Vec<String> = games.iter().map(u64::to_string).collect();
                    self.say(Message::new(Key::NetYourGames, [list.join(", ")]));
                }
            }
            ServerMessage::GameList { games } | ServerMessage::ArchiveList { games } => {
                let archive = games.iter().any(|game| game.result.is_some());
                // Long lists come in pages; only the first answers the request, and an
                // empty last page after full ones is no news.
                if games.is_empty() && answered.is_some() {
                    self.say(Message::plain(Key::NetNoGames));
                }
                for game in &games {
                    let line = self.summary_line(game, archive);
                    self.out.push(line);
                }
            }
            ServerMessage::Game { state } => self.take_table(state),
            ServerMessage::Leaderboard {
                rules_id,
                page,
                entries,
            } => self.show_leaderboard(rules_id, page, &entries),
            ServerMessage::AccountRatings {
                account,
                ratings,
                history,
            } => self.show_ratings(account, &ratings, &history),
            ServerMessage::Challenged { from, summary } => {
                let line = self.challenge_line(&from, &summary);
                self.out.push(line);
            }
            ServerMessage::SavedGame { text, .. } => {
                if let Some(Awaited::Fetch(path)) = answered {
                    self.save_fetched(&path, &text);
                }
            }
            ServerMessage::TournamentList { tournaments } => {
                self.show_tournament_list(&tournaments, answered.is_some());
            }
            ServerMessage::Tournament { tournament } => {
                self.show_tournament(&tournament, answered.is_some());
            }
            ServerMessage::Moderated { entry } => self.show_moderated(&entry),
            ServerMessage::ModerationLog { page, entries } => {
                self.show_moderation_log(page, &entries);
            }
            ServerMessage::ChatLines { game, lines } => {
                let first = answered == Some(Awaited::ChatLog);
                self.show_chat_lines(game, &lines, first);
            }
            ServerMessage::ChatHidden { game, line } => {
                let words = [line.to_string(), game.to_string()];
                self.say(Message::new(Key::NetChatHidden, words));
            }
            ServerMessage::PlayerRecords {
                records,
                left_out,
                more,
                ..
            } => self.take_records(&records, &left_out, more, answered),
            // About another game than the one on the table (an earlier one).
            ServerMessage::Joined { .. }
            | ServerMessage::Moved { .. }
            | ServerMessage::Undone { .. }
            | ServerMessage::Chat { .. }
            | ServerMessage::Offered { .. }
            | ServerMessage::Declined { .. }
            | ServerMessage::Ended { .. } => {}
            // Sent only to a client whose `hello` asks for positions; this one does not.
            ServerMessage::Position { .. } => {}
        }
    }

    /// Writes a fetched game to the file the `fetch` named, and says how that went.
    fn save_fetched(&mut self, path: &str, text: &str) {
        match files::write_atomically(Path::new(path), text.as_bytes()) {
            Ok(()) => self.say(Message::new(Key::Saved, [path.to_owned()])),
            Err(error) => {
                let message = messages::write_message(&self.language, path, &error);
                self.say(message);
            }
        }
    }

    /// What happened at the table, in words; a move is played on the board here.
    fn table_event(&mut self, event: TableEvent) {
        match event {
            TableEvent::Joined { side, name } => {
                let game = self
                    .table_game()
                    .map(|game| game.to_string())
                    .unwrap_or_default();
                self.say(Message::new(Key::NetJoined, [side.to_string(), name, game]));
            }
            TableEvent::Moved {
                number,
                mv,
                mine,
                side: _,
            } => self.take_move(number, mv, mine),
            TableEvent::Undone { moves } => {
                let mut undone = 0;
                if let Some(local) = self.game.as_mut() {
                    while local.ply() > moves as usize && local.undo().is_some() {
                        undone += 1;
                    }
                }
                self.say_undone(undone);
            }
            TableEvent::Said { from, text } => self.say(Message::new(Key::NetChat, [from, text])),
            TableEvent::Offer { kind, from, mine } => {
                if mine {
                    let what = self.offer_word(kind);
                    self.say(Message::new(Key::NetOfferSent, [what]));
                } else {
                    let key = match kind {
                        OfferKind::Undo => Key::NetOfferedUndo,
                        OfferKind::Draw => Key::NetOfferedDraw,
                    };
                    self.say(Message::new(key, [from]));
                }
            }
            TableEvent::Declined { kind } => {
                let what = self.offer_word(kind);
                self.say(Message::new(Key::NetDeclined, [what]));
            }
            TableEvent::Ended { result } => {
                let game = self.table_game().unwrap_or_default();
                let line = self.result_text(game, &self.rules_file, &result);
                self.out.push(line);
            }
        }
    }

    /// A game from the server (created, joined or watched) replaces the local one.
    pub(super) fn take_table(&mut self, state: crate::online::protocol::GameState) {
        let rules = match Rules::parse(state.rules_text.as_bytes()) {
            Ok(rules) => rules,
            Err(error) => {
                let found = Found::Embedded(format!("server:{}", state.summary.rules_id));
                let message = messages::rules_message(&found, &error);
                return self.say(message);
            }
        };
        let mut game = Game::new(rules.clone());
        for &mv in &state.moves {
            if game.try_play(mv).is_err() {
                let reason = format!(
                    "move {} of game {}: {mv}",
                    game.ply() + 1,
                    state.summary.game
                );
                return self.say(Message::new(Key::NetServer, [reason]));
            }
        }
        self.thinker.clear();
        let summary = &state.summary;
        let names = [
            self.seat_name(&summary.players[0]),
            self.seat_name(&summary.players[1]),
        ];
        let [first, second] = names;
        let message = match state.your_side {
            Some(side) => Message::new(
                Key::NetPlaying,
                [
                    summary.game.to_string(),
                    summary.rules_id.clone(),
                    side.to_string(),
                    first,
                    second,
                ],
            ),
            None => Message::new(
                Key::NetWatching,
                [
                    summary.game.to_string(),
                    summary.rules_id.clone(),
                    first,
                    second,
                ],
            ),
        };
        self.say(message);
        let table = Table {
            game: summary.game,
            side: state.your_side,
            players: summary.players.clone(),
            clocks: state.clocks,
            clocks_at: std::time::Instant::now(),
            periods: state.periods,
            period: summary
                .clock
                .filter(|clock| clock.periods > 0)
                .map(|clock| std::time::Duration::from_millis(clock.period_ms)),
            result: summary.result,
            open_offer: None,
        };
        self.rules_file = summary.rules_id.clone();
        self.game = Some(game);
        if let Some(link) = &mut self.link {
            link.table = Some(table);
        }
        self.after_move();
        if let Some(result) = &state.summary.result {
            let line = self.result_text(state.summary.game, &summary.rules_id, result);
            self.out.push(line);
        }
    }

    /// A move the server accepted: played here, shown as the computer's are when the
    /// other side made it.
    fn take_move(&mut self, number: u32, mv: Move, mine: bool) {
        let naming = self.naming();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if number as usize != game.ply() + 1 {
            return;
        }
        let rules = game.rules().clone();
        match game.try_play(mv) {
            Ok(undo) => {
                if let Some(line) = capture_line(&self.language, &rules, undo, !mine, naming) {
                    self.out.push(line);
                }
                let over = self
                    .game
                    .as_ref()
                    .is_some_and(|game| game.outcome().is_some());
                if over {
                    // The server's `ended`, which follows, says the end with the game's
                    // number: said here too, it would come twice.
                    self.show_final_board();
                } else {
                    self.after_move();
                }
            }
            Err(error) => {
                let message = messages::move_message(&self.language, game, mv, &error, naming);
                self.say(message);
            }
        }
    }

    /// The board after a network game's last move, when the board is shown after moves.
    fn show_final_board(&mut self) {
        if self.auto_board && self.source.frontend().board_as_text() {
            if let Some(game) = &self.game {
                let text = crate::board::render(game, self.colour);
                self.out.push(text.trim_end().to_owned());
            }
        }
    }
}

/// A rule set the server offers, as `rules` lists it: its id (which `new` takes) and
/// name, and for an upload its hash (which `new` takes whatever other files share the id).
fn rules_line(info: &RulesInfo) -> Message {
    if info.file.is_empty() {
        Message::new(
            Key::NetRulesUploaded,
            [info.id.clone(), info.name.clone(), info.hash.clone()],
        )
    } else {
        Message::new(Key::NetRulesShipped, [info.id.clone(), info.name.clone()])
    }
}

/// A moment as a minute of UTC: `2026-12-03 18:05 UTC` (the proleptic Gregorian
/// calendar, from days since 1970 by Howard Hinnant's `civil_from_days`; a date crate for
/// one line of output would be more than it saves).
pub(super) fn utc_minute(millis: i64) -> String {
    let minutes = millis.div_euclid(60_000);
    let (days, minute) = (minutes.div_euclid(1_440), minutes.rem_euclid(1_440));
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minute / 60,
        minute % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc_minute;

    #[test]
    fn a_moment_reads_as_its_utc_minute() {
        // Known instants: the epoch, a leap day, and a moment of 2026 (1 796 321 100 s is
        // 2026-12-03 18:05 UTC by `date -u -d @1796321100`).
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_minute(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(utc_minute(1_796_321_100_000), "2026-12-03 18:05 UTC");
        assert_eq!(utc_minute(-60_000), "1969-12-31 23:59 UTC");
    }
}
