//! The network client's side of the interpreter: the commands of a game on a server,
//! and what the server says, in words.

use std::path::Path;
use std::time::Duration;

use hnefatafl_core::{Game, Move, Rules};

use crate::data::Found;
use crate::files;
use crate::lang::{Key, Message};
use crate::messages;
use crate::net::protocol::{
    COMPUTER_PREFIX, ClientMessage, ClockSpec, GameResult, LeaderboardEntry, MAX_RULES_LABEL,
    MAX_RULES_TEXT, OfferKind, RatingHistory, RulesInfo, RulesRating, SeekTerms, ServerMessage,
};
use crate::net::remote::{self, Awaited, Link, Target};
use crate::net::table::{Table, TableEvent};
use crate::thinker::Notify;

use super::{Outcome, Session, capture_line};

impl Session {
    /// Whether a network game is played or watched: its moves go to the server.
    pub(super) fn at_table(&self) -> bool {
        self.link.as_ref().is_some_and(|link| link.table.is_some())
    }

    pub(super) fn link_or_error(&mut self) -> Result<&mut Link, Message> {
        self.link
            .as_mut()
            .ok_or_else(|| Message::plain(Key::NetNotConnected))
    }

    pub(super) fn table_game(&self) -> Result<u64, Message> {
        let link = self
            .link
            .as_ref()
            .ok_or_else(|| Message::plain(Key::NetNotConnected))?;
        link.table
            .as_ref()
            .map(|table| table.game)
            .ok_or_else(|| Message::plain(Key::NetNoTable))
    }

    /// Stops hearing about the network game; it goes on on the server.
    pub(super) fn leave_table(&mut self) {
        let Some(link) = &mut self.link else { return };
        if let Some(table) = link.table.take() {
            if table.result.is_none() {
                link.remote.send(ClientMessage::Leave { game: table.game });
                self.say(Message::new(Key::NetLeft, [table.game.to_string()]));
            }
        }
    }

    pub(super) fn net_request(&mut self, message: ClientMessage, awaited: Awaited) -> Outcome {
        self.link_or_error()?.request(message, awaited);
        Ok(())
    }

    pub(super) fn command_connect(&mut self, word: Option<&str>) -> Outcome {
        let target = Target::parse(word).map_err(|bad| Message::new(Key::NetBadTarget, [bad]))?;
        let home = self
            .dirs
            .home
            .clone()
            .ok_or_else(|| Message::plain(Key::NetNoHome))?;
        self.leave_table();
        self.say(Message::new(Key::NetConnecting, [target.to_string()]));
        let now = std::sync::Arc::clone(&self.notify_now);
        let relay: Notify = std::sync::Arc::new(move || {
            let current = now.lock().map(|notify| notify.clone());
            if let Ok(notify) = current {
                notify();
            }
        });
        self.link = Some(Link::connect(target, &home, relay));
        self.started_server = false;
        Ok(())
    }

    pub(super) fn command_account(&mut self, name: &str, register: bool) -> Outcome {
        // The next line is the password whatever happens: it must never run as a command
        // (and show in an error) because a connection failed.
        self.secret_for = Some((name.to_owned(), register));
        if self.link.is_none() {
            return Err(Message::new(Key::NetPasswordUnsent, [name]));
        }
        self.say(Message::new(Key::NetPassword, [name]));
        Ok(())
    }

    /// `new <rules> [<clock>] [0|1] [computer<level>] [rated]`: the words after the
    /// rules are told apart by their shape, in any order, each at most once.
    pub(super) fn command_net_new(&mut self, rules: &str, words: &[&str]) -> Outcome {
        let terms = GameWords::read(words, WordsOf::New)?;
        let message = ClientMessage::New {
            rules: rules.to_owned(),
            clock: terms.clock,
            side: terms.side.unwrap_or(0),
            opponent: terms.opponent,
            rated: terms.rated,
        };
        self.net_request(message, Awaited::Game)
    }

    /// `seek <rules> [<clock>] [0|1] [rated] [<lowest>-<highest>]`, and `challenge
    /// <name> <rules> [<clock>] [0|1] [rated]` (`to`): a game posted for others to take,
    /// the side drawn by the server unless given.
    pub(super) fn command_seek(
        &mut self,
        to: Option<&str>,
        rules: &str,
        words: &[&str],
    ) -> Outcome {
        let of = match to {
            Some(_) => WordsOf::Challenge,
            None => WordsOf::Seek,
        };
        let read = GameWords::read(words, of)?;
        let message = ClientMessage::Seek {
            rules: rules.to_owned(),
            clock: read.clock,
            side: read.side,
            rated: read.rated,
            terms: SeekTerms {
                to: to.map(str::to_owned),
                min_rating: read.range.and_then(|range| range.0),
                max_rating: read.range.and_then(|range| range.1),
            },
        };
        self.net_request(message, Awaited::Game)
    }

    /// `rematch [<game>]`: the same game again against the same opponent, sides
    /// swapped; the finished game on the table unless another is named.
    pub(super) fn command_rematch(&mut self, game: Option<&str>) -> Outcome {
        let game = match game {
            Some(word) => parse_game(word)?,
            None => self.table_game()?,
        };
        self.net_request(ClientMessage::Rematch { game }, Awaited::Game)
    }

    /// `ratings <rules> [<page>]`: a page of the leaderboard, the first being 1.
    pub(super) fn command_ratings(&mut self, rules: &str, page: Option<&str>) -> Outcome {
        let page = match page {
            None => 0,
            Some(word) => word
                .parse::<u32>()
                .ok()
                .and_then(|page| page.checked_sub(1))
                .ok_or_else(|| Message::new(Key::NetBadPage, [word]))?,
        };
        let rules = rules.to_owned();
        self.net_request(ClientMessage::Ratings { rules, page }, Awaited::Ratings)
    }

    /// `rating [<name>]`: an account's ratings, one's own without a name.
    pub(super) fn command_rating(&mut self, name: Option<&str>) -> Outcome {
        let account = match name {
            Some(name) => name.to_owned(),
            None => self
                .link_or_error()?
                .account
                .clone()
                .ok_or_else(|| Message::plain(Key::NetWhoseRating))?,
        };
        self.net_request(ClientMessage::Rating { account }, Awaited::Rating)
    }

    /// `upload <file>`: offers a rule file of one's own to the server, to play it with
    /// `new`. The file is read as every file is (no device, no FIFO, no giant) and refused
    /// here, naming it, when the server would refuse it: not text, larger than the wire's
    /// limit, not valid rules, or an `id` or `name` too long or with a hidden character
    /// (the server's own test of them, `hnefatafl_net::text`).
    pub(super) fn command_upload(&mut self, path: &str) -> Outcome {
        self.link_or_error()?;
        let bytes = files::read(Path::new(path))
            .map_err(|error| messages::read_message(&self.language, path, &error))?;
        if bytes.len() > MAX_RULES_TEXT {
            return Err(Message::new(
                Key::NetUploadTooLarge,
                [
                    path.to_owned(),
                    bytes.len().to_string(),
                    MAX_RULES_TEXT.to_string(),
                ],
            ));
        }
        let rules = Rules::parse(&bytes).map_err(|error| {
            messages::rules_message(&Found::File(Path::new(path).to_owned()), &error)
        })?;
        for (keyword, label) in [("id", rules.id()), ("name", rules.name())] {
            if label.chars().count() > MAX_RULES_LABEL {
                return Err(Message::new(
                    Key::NetUploadLabel,
                    [path, keyword, &MAX_RULES_LABEL.to_string()],
                ));
            }
            if let Some(code) = hnefatafl_net::text::first_hidden(label) {
                return Err(Message::new(Key::NetUploadHidden, [path, keyword, &code]));
            }
        }
        let text =
            String::from_utf8(bytes).map_err(|_| Message::new(Key::NetUploadNotText, [path]))?;
        self.uploading = Some(path.to_owned());
        self.net_request(ClientMessage::UploadRules { text }, Awaited::Upload)
    }

    /// `leave`: stops playing or watching the network game here; it goes on on the
    /// server, and `join` or `watch` comes back to it.
    pub(super) fn command_leave(&mut self) -> Outcome {
        let game = self.table_game()?;
        let over = self
            .link
            .as_ref()
            .and_then(|link| link.table.as_ref())
            .is_some_and(|table| table.result.is_some());
        self.leave_table();
        if over {
            self.say(Message::new(Key::NetLeftOver, [game.to_string()]));
        }
        Ok(())
    }

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

    /// A move at the network game: checked here when it is this side's turn, so that a
    /// bad one is explained at once; the server referees it and the move is played when
    /// it says so (`moved`).
    pub(super) fn net_move(&mut self, words: &[&str]) -> Outcome {
        let (game_id, side) = {
            let Some(table) = self.link.as_ref().and_then(|link| link.table.as_ref()) else {
                return Err(Message::plain(Key::NetNoTable));
            };
            if table.result.is_some() {
                return Err(Message::plain(Key::CmdGameOver));
            }
            let side = table
                .side
                .ok_or_else(|| Message::new(Key::NetWatcher, [table.game.to_string()]))?;
            (table.game, side)
        };
        let mv = self.move_in_game(words)?;
        let game = self.game_or_error()?;
        if game.side_to_move().index() == usize::from(side) {
            let mut trial = game.clone();
            trial.try_play(mv).map_err(|error| {
                messages::move_message(&self.language, game, mv, &error, self.naming())
            })?;
        }
        let number = game.ply() as u32 + 1;
        self.net_request(
            ClientMessage::Move { game: game_id, mv },
            Awaited::Move(number),
        )
    }

    pub(super) fn command_offer(&mut self, kind: OfferKind) -> Outcome {
        let game = self.table_game()?;
        self.net_request(ClientMessage::Offer { game, kind }, Awaited::Offer)
    }

    pub(super) fn command_answer(&mut self, accept: bool) -> Outcome {
        let game = self.table_game()?;
        let link = self.link_or_error()?;
        let kind = link
            .table
            .as_mut()
            .and_then(|table| table.open_offer.take())
            .ok_or_else(|| Message::plain(Key::NetNoOffer))?;
        link.request(
            ClientMessage::Answer { game, kind, accept },
            Awaited::Answer,
        );
        Ok(())
    }

    /// How the network game on the table ended, once it did, with its rules' id.
    pub(super) fn network_result(&self) -> Option<(String, GameResult)> {
        let result = self.link.as_ref()?.table.as_ref()?.result?;
        Some((self.rules_file.clone(), result))
    }

    /// The clocks line of a timed network game.
    pub(super) fn show_clocks(&mut self) {
        let Some(clocks) = self.network_game().and_then(|game| game.clocks) else {
            return;
        };
        let table = self.link.as_ref().and_then(|link| link.table.as_ref());
        let byo_yomi = table.and_then(|table| Some((table.periods?, table.period?)));
        let [first, second] = [0, 1].map(|side| {
            let time = remote::format_clock(clocks[side]);
            match byo_yomi {
                Some((periods, period)) => self.text(&Message::new(
                    Key::NetClockPeriods,
                    [
                        time,
                        periods[side].to_string(),
                        remote::format_seconds(period),
                    ],
                )),
                None => time,
            }
        });
        self.say(Message::new(Key::NetClocks, [first, second]));
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
                    match files::write_atomically(Path::new(&path), text.as_bytes()) {
                        Ok(()) => self.say(Message::new(Key::Saved, [path])),
                        Err(error) => {
                            let message = messages::write_message(&self.language, &path, &error);
                            self.say(message);
                        }
                    }
                }
            }
            // About another game than the one on the table (an earlier one).
            ServerMessage::Joined { .. }
            | ServerMessage::Moved { .. }
            | ServerMessage::Undone { .. }
            | ServerMessage::Chat { .. }
            | ServerMessage::Offered { .. }
            | ServerMessage::Declined { .. }
            | ServerMessage::Ended { .. } => {}
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
                let key = if undone == 1 {
                    Key::UndoneOne
                } else {
                    Key::Undone
                };
                self.say(Message::new(key, [undone.to_string()]));
                self.after_move();
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
    pub(super) fn take_table(&mut self, state: crate::net::protocol::GameState) {
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

/// A network game as a front end shows it ([`Session::network_game`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NetworkGame {
    /// The game's number on the server.
    pub game: u64,
    /// This client's seat, 0 or 1; `None` when watching.
    pub side: Option<u8>,
    /// The account at each seat; `None` while the seat is free.
    pub players: [Option<String>; 2],
    /// Each side's time left now, when the game is timed.
    pub clocks: Option<[Duration; 2]>,
    /// Whether the game is over.
    pub over: bool,
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

/// The word of `new` and `seek` that makes a game rated.
const RATED: &str = "rated";

/// Which command's words [`GameWords::read`] reads: each takes some of them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordsOf {
    /// `new`: a computer opponent, no rating range.
    New,
    /// `seek`: a rating range, no opponent.
    Seek,
    /// `challenge`: neither.
    Challenge,
}

/// The words after the rules of `new`, `seek` and `challenge`, told apart by their
/// shape, in any order, each at most once.
#[derive(Default)]
struct GameWords {
    clock: Option<ClockSpec>,
    side: Option<u8>,
    opponent: Option<String>,
    rated: bool,
    /// The lowest and highest rating, either left open.
    range: Option<(Option<i32>, Option<i32>)>,
}

impl GameWords {
    fn read(words: &[&str], of: WordsOf) -> Result<GameWords, Message> {
        let mut read = GameWords::default();
        for &word in words {
            let bad = || {
                let key = match of {
                    WordsOf::New => Key::NetBadNewWord,
                    WordsOf::Seek => Key::NetBadSeekWord,
                    WordsOf::Challenge => Key::NetBadChallengeWord,
                };
                Message::new(key, [word])
            };
            match word {
                "0" | "1" if read.side.is_none() => read.side = Some(u8::from(word == "1")),
                RATED if !read.rated => read.rated = true,
                _ if of == WordsOf::New
                    && word.starts_with(COMPUTER_PREFIX)
                    && read.opponent.is_none() =>
                {
                    read.opponent = Some(word.to_owned());
                }
                // `5+3`, `10+3x30`, `3d`: ClockSpec::parse says which.
                _ if read.clock.is_none()
                    && (word.contains('+')
                        || word.ends_with('d')
                            && word.starts_with(|c: char| c.is_ascii_digit() || c == '.')) =>
                {
                    read.clock = Some(
                        ClockSpec::parse(word)
                            .ok_or_else(|| Message::new(Key::NetBadClock, [word]))?,
                    );
                }
                _ if of == WordsOf::Seek && word.contains('-') && read.range.is_none() => {
                    read.range = Some(
                        rating_range(word).ok_or_else(|| Message::new(Key::NetBadRange, [word]))?,
                    );
                }
                _ => return Err(bad()),
            }
        }
        Ok(read)
    }
}

/// A rating range as typed: `1400-1800`, `1400-` (at least), `-1800` (at most).
fn rating_range(word: &str) -> Option<(Option<i32>, Option<i32>)> {
    let (low, high) = word.split_once('-')?;
    let bound = |text: &str| match text {
        "" => Some(None),
        _ => text.parse::<u16>().ok().map(|value| Some(i32::from(value))),
    };
    let range = (bound(low)?, bound(high)?);
    match range {
        (None, None) => None,
        (Some(low), Some(high)) if low > high => None,
        range => Some(range),
    }
}

/// A moment as a minute of UTC: `2026-12-03 18:05 UTC` (the proleptic Gregorian
/// calendar, from days since 1970 by Howard Hinnant's `civil_from_days`; a date crate for
/// one line of output would be more than it saves).
fn utc_minute(millis: i64) -> String {
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

/// A game's number as typed: `join 3`.
pub(super) fn parse_game(word: &str) -> Result<u64, Message> {
    word.parse::<u64>()
        .map_err(|_| Message::new(Key::CmdBadNumber, [word]))
}

#[cfg(test)]
mod tests {
    use super::{rating_range, utc_minute};

    #[test]
    fn rating_ranges_read_either_end_open() {
        assert_eq!(rating_range("1400-1800"), Some((Some(1400), Some(1800))));
        assert_eq!(rating_range("1400-"), Some((Some(1400), None)));
        assert_eq!(rating_range("-1800"), Some((None, Some(1800))));
        for bad in ["-", "1800-1400", "a-b", "1400", "1-2-3", "99999-"] {
            assert_eq!(rating_range(bad), None, "{bad}");
        }
    }

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
