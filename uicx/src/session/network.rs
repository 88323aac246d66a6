//! The network client's side of the interpreter: the commands of a game on a server,
//! and what the server says, in words.

use std::path::Path;
use std::time::Duration;

use hnefatafl_core::{Game, Move, Rules};

use crate::data::Found;
use crate::files;
use crate::lang::{Key, Message};
use crate::messages;
use crate::net::protocol::{COMPUTER_PREFIX, ClientMessage, ClockSpec, OfferKind, ServerMessage};
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
        Ok(())
    }

    pub(super) fn command_account(&mut self, name: &str, register: bool) -> Outcome {
        self.link_or_error()?.secret_for = Some((name.to_owned(), register));
        self.say(Message::new(Key::NetPassword, [name]));
        Ok(())
    }

    /// `new <rules> [<clock>] [0|1] [computer<level>]`: the words after the rules are
    /// told apart by their shape, in any order, each at most once.
    pub(super) fn command_net_new(&mut self, rules: &str, words: &[&str]) -> Outcome {
        let mut clock = None;
        let mut side = None;
        let mut opponent = None;
        for &word in words {
            let bad = || Message::new(Key::NetBadNewWord, [word]);
            match word {
                "0" | "1" if side.is_none() => side = Some(u8::from(word == "1")),
                _ if word.starts_with(COMPUTER_PREFIX) && opponent.is_none() => {
                    opponent = Some(word.to_owned());
                }
                _ if word.contains('+') && clock.is_none() => {
                    clock = Some(
                        ClockSpec::parse(word)
                            .ok_or_else(|| Message::new(Key::NetBadClock, [word]))?,
                    );
                }
                _ => return Err(bad()),
            }
        }
        let message = ClientMessage::New {
            rules: rules.to_owned(),
            clock,
            side: side.unwrap_or(0),
            opponent,
        };
        self.net_request(message, Awaited::Game)
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

    /// The clocks line of a timed network game.
    pub(super) fn show_clocks(&mut self) {
        let Some(clocks) = self.network_game().and_then(|game| game.clocks) else {
            return;
        };
        let [first, second] = clocks.map(remote::format_clock);
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
                self.say(Message::new(
                    Key::NetStarted,
                    [pid.to_string(), port.to_string()],
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
        let event = self.link.as_mut().and_then(|link| {
            let account = link.account.clone();
            let table = link.table.as_mut()?;
            table.receive(&message, account.as_deref())
        });
        if let Some(event) = event {
            return self.table_event(event);
        }
        match message {
            ServerMessage::Welcome { .. } | ServerMessage::RulesList { .. } => {}
            ServerMessage::RulesAdded { .. } => {}
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
                if games.is_empty() {
                    self.say(Message::plain(Key::NetNoGames));
                }
                for game in &games {
                    let line = self.summary_line(game, archive);
                    self.out.push(line);
                }
            }
            ServerMessage::Game { state } => self.take_table(state),
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
                let line = self.result_text(game, &result);
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
            result: summary.result.clone(),
            open_offer: None,
        };
        self.rules_file = summary.rules_id.clone();
        self.game = Some(game);
        if let Some(link) = &mut self.link {
            link.table = Some(table);
        }
        self.after_move();
        if let Some(result) = &state.summary.result {
            let line = self.result_text(state.summary.game, result);
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
                self.after_move();
            }
            Err(error) => {
                let message = messages::move_message(&self.language, game, mv, &error, naming);
                self.say(message);
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

/// A game's number as typed: `join 3`.
pub(super) fn parse_game(word: &str) -> Result<u64, Message> {
    word.parse::<u64>()
        .map_err(|_| Message::new(Key::CmdBadNumber, [word]))
}
