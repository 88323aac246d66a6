//! The referee: every game in memory behind the server's one lock, and the synchronous
//! work of each message on it: accounts' seats, moves checked by the engine, clocks,
//! offers, spectators, chat and the archive. It does no network I/O; the connections in
//! [`crate::server`] hand it messages and carry away what it queues. Nor does it touch the
//! disk: it records its storage writes in the [`Journal`], and every line it queues waits
//! for the writes recorded before it ([`crate::journal`]), so a move is stored before
//! anybody hears of it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{Game, Move, Notation, Rules};
use hnefatafl_net::protocol::{
    self, ClientMessage, ClockKind, ClockSpec, EndCause, GameId, GameResult, GameState,
    GameSummary, OfferKind, RulesInfo, SeekTerms, ServerMessage,
};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use crate::accounts;
use crate::clock::{self, Left};
use crate::journal::{Journal, Line, Write};
use crate::quotas::{Bucket, Quotas, Window};
use crate::seeks::{LookedUp, SeekRequest, Seeks};
use crate::server::ServerError;
use crate::storage::{GameRecord, StoredMove, StoredTime, stored_now};
use crate::text;
use rows::{
    live_clocks, stored_clock, stored_clocks, stored_result, stored_seek, wire_clock, wire_periods,
    wire_result, wire_seek,
};

/// A connection's number, as `--showtraffic` shows it.
pub(crate) type ConnectionId = u64;

/// Entries of a list answer (`game_list`, `archive_list`, `rules_list`) in one message:
/// a list is sent as pages of this many, the last one shorter (empty when the list's
/// length is a multiple of it). A page stays far below the line limit, since every entry
/// is bounded (names of 32 characters, rules' ids and names of [`MAX_LABEL`]).
pub(crate) const PAGE: usize = 100;

/// The longest rule file that may be uploaded, in bytes (the wire's, which clients check
/// too).
pub(crate) const MAX_RULES_TEXT: usize = protocol::MAX_RULES_TEXT;

/// The longest id or name of an uploaded rule file, in characters.
pub(crate) const MAX_LABEL: usize = protocol::MAX_RULES_LABEL;

/// The longest chat line, in characters.
const MAX_CHAT: usize = 500;

/// A rule set the server can play.
pub(crate) struct RuleSet {
    pub(crate) rules: Rules,
    pub(crate) text: String,
    pub(crate) info: RulesInfo,
    /// The learned evaluation the server's computer players use in these rules, when
    /// the shipped rule file has one (`networks/<file>.nnue`); the classic one otherwise.
    pub(crate) network: Option<Arc<aim::nnue::Network>>,
}

impl RuleSet {
    /// A rule set from its read rules and text; `file` is the shipped file's name, empty
    /// for an upload.
    pub(crate) fn new(rules: Rules, text: String, file: String, hash: String) -> RuleSet {
        let info = RulesInfo {
            id: rules.id().to_owned(),
            name: rules.name().to_owned(),
            file,
            hash,
        };
        RuleSet {
            rules,
            text,
            info,
            network: None,
        }
    }
}

/// A connection as the game state knows it.
pub(crate) struct Connection {
    pub(crate) queue: mpsc::Sender<Line>,
    pub(crate) account: Option<String>,
    pub(crate) games: HashSet<GameId>,
    pub(crate) address: IpAddr,
    /// Chat lines this connection may still send now.
    pub(crate) chat: Bucket,
}

/// A game in memory.
pub(crate) struct LiveGame {
    pub(crate) id: GameId,
    pub(crate) rules_hash: String,
    pub(crate) game: Game,
    pub(crate) players: [Option<String>; 2],
    pub(crate) clock: Option<ClockSpec>,
    /// Each side's time and byo-yomi periods left at the start of the current turn.
    pub(crate) left: [Left; 2],
    /// When the turn under way at the last stop began, for a correspondence clock,
    /// until the turn goes on after a restart.
    pub(crate) resumed_turn: Option<StoredTime>,
    /// When the current turn began; `None` while the game waits or is over.
    pub(crate) turn_started: Option<Instant>,
    /// Counts turns (moves, undos, restarts), so that a late timer or a late computer
    /// move knows it is stale.
    pub(crate) turn: u64,
    pub(crate) result: Option<GameResult>,
    pub(crate) audience: HashSet<ConnectionId>,
    pub(crate) offer: Option<(OfferKind, u8)>,
    /// Whether the result counts for the players' ratings.
    pub(crate) rated: bool,
    /// Who may take the free seat, for a seek (`crate::seeks`); stored with the game.
    pub(crate) seek: Option<SeekTerms>,
}

/// Who the other seat of a new game is for.
pub(crate) enum OtherSeat {
    /// Whoever joins.
    Open,
    /// This computer account, seated at once.
    Computer(String),
    /// Whoever meets a seek's terms (`crate::seeks`).
    Seek(SeekTerms),
}

/// Work to start once the lock is released.
pub(crate) enum Followup {
    /// A computer is to move.
    Computer { game: GameId, turn: u64, level: u32 },
    /// The side to move loses on time unless the turn is over by then.
    Flag {
        game: GameId,
        turn: u64,
        at: Instant,
    },
}

/// Everything behind the lock.
pub(crate) struct State {
    /// The storage writes, committed in order off the lock.
    pub(crate) journal: Journal,
    /// The number the next new game gets.
    pub(crate) next_game: GameId,
    pub(crate) rules: BTreeMap<String, RuleSet>,
    pub(crate) games: BTreeMap<GameId, LiveGame>,
    pub(crate) connections: HashMap<ConnectionId, Connection>,
    pub(crate) computers: HashMap<String, u32>,
    pub(crate) throttle: accounts::Throttle,
    pub(crate) followups: Vec<Followup>,
    pub(crate) quotas: Quotas,
    /// Uploads per account in the last hour.
    pub(crate) uploads: Window<String>,
    /// Registrations per address in the last hour.
    pub(crate) registrations: Window<IpAddr>,
    /// What the seeks keep besides their games.
    pub(crate) seeks: Seeks,
}

pub(crate) fn hash_text(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

pub(crate) fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl State {
    /// Rebuilds a stored game; its clock starts again when the server is up.
    pub(crate) fn resume(
        &mut self,
        record: GameRecord,
        _now: Instant,
    ) -> Result<LiveGame, ServerError> {
        let set = self.rules.get(&record.rules_hash).ok_or_else(|| {
            ServerError::Game(
                record.id,
                format!("no rules with hash {}", record.rules_hash),
            )
        })?;
        let mut game = Game::new(set.rules.clone());
        for stored in &record.moves {
            let words: Vec<&str> = stored.mv.split_whitespace().collect();
            let mv = set
                .rules
                .parse_move(&words)
                .map_err(|error| ServerError::Game(record.id, error.to_string()))?;
            game.try_play(mv)
                .map_err(|error| ServerError::Game(record.id, format!("{}: {error}", stored.mv)))?;
        }
        let clock = record.clock.map(wire_clock);
        let full = clock.map_or(
            Left {
                time: Duration::ZERO,
                periods: 0,
            },
            |clock| Left::full(&clock),
        );
        let left = record
            .moves
            .last()
            .map(|last| last.clocks)
            .or(record.first_clocks)
            .map_or([full, full], live_clocks);
        // The terms matter only while a seat is free.
        let seat_free = record.players.iter().any(Option::is_none);
        let seek = record.seek.filter(|_| seat_free).map(wire_seek);
        Ok(LiveGame {
            id: record.id,
            rules_hash: record.rules_hash,
            game,
            players: record.players,
            clock,
            left,
            resumed_turn: record.turn_started,
            turn_started: None,
            turn: 0,
            result: record
                .result
                .map(wire_result)
                .transpose()
                .map_err(|error| ServerError::Game(record.id, error))?,
            audience: HashSet::new(),
            offer: None,
            rated: record.rated,
            seek,
        })
    }

    /// Sends a message to one connection. One that cannot keep up is closed. A message
    /// that would make a line longer than the clients read is replaced by an error.
    pub(crate) fn send(&mut self, id: ConnectionId, message: &ServerMessage) {
        let mut line = protocol::to_line(message);
        if line.len() > protocol::MAX_LINE {
            let problem = format!(
                "the answer would be {} bytes, more than a line may hold ({} bytes)",
                line.len() - 1,
                protocol::MAX_LINE
            );
            line = protocol::to_line(&ServerMessage::error(problem));
        }
        if let Some(connection) = self.connections.get(&id) {
            let line = Line {
                after: self.journal.recorded(),
                text: line,
            };
            if connection.queue.try_send(line).is_err() {
                self.disconnect(id);
            }
        }
    }

    /// Sends a message to everyone playing or watching a game.
    pub(crate) fn broadcast(&mut self, game: GameId, message: &ServerMessage) {
        let audience: Vec<ConnectionId> = self
            .games
            .get(&game)
            .map(|live| live.audience.iter().copied().collect())
            .unwrap_or_default();
        for id in audience {
            self.send(id, message);
        }
    }

    /// Forgets a connection; dropping its queue ends its writing task.
    pub(crate) fn disconnect(&mut self, id: ConnectionId) {
        if let Some(connection) = self.connections.remove(&id) {
            for game in connection.games {
                if let Some(live) = self.games.get_mut(&game) {
                    live.audience.remove(&id);
                }
            }
        }
    }

    pub(crate) fn account(&self, id: ConnectionId) -> Result<String, String> {
        self.connections
            .get(&id)
            .and_then(|c| c.account.clone())
            .ok_or_else(|| "log in first (`login` or `register`)".to_owned())
    }

    pub(crate) fn logged_in(&mut self, id: ConnectionId, name: String) {
        let games = self
            .games
            .values()
            .filter(|live| live.result.is_none() && live.players.contains(&Some(name.clone())))
            .map(|live| live.id)
            .collect();
        if let Some(connection) = self.connections.get_mut(&id) {
            connection.account = Some(name.clone());
        }
        self.send(id, &ServerMessage::LoggedIn { name, games });
    }

    pub(crate) fn live(&mut self, game: GameId) -> Result<&mut LiveGame, String> {
        self.games
            .get_mut(&game)
            .ok_or_else(|| format!("there is no game {game}"))
    }

    /// The player's seat in a running game.
    pub(crate) fn seat(&mut self, id: ConnectionId, game: GameId) -> Result<u8, String> {
        let name = self.account(id)?;
        let live = self.live(game)?;
        if live.result.is_some() {
            return Err(format!("game {game} is over"));
        }
        let side = live
            .players
            .iter()
            .position(|player| player.as_deref() == Some(name.as_str()))
            .ok_or_else(|| format!("you do not play in game {game}"))?;
        Ok(side as u8)
    }

    /// Handles one message; `looked_up` is what its seek terms need from storage, read
    /// off this lock ([`crate::seeks::LookedUp`]).
    pub(crate) fn handle(
        &mut self,
        id: ConnectionId,
        message: ClientMessage,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        match message {
            ClientMessage::Hello { .. } => Err("already greeted".to_owned()),
            // These are the connection's own work, off this lock (`crate::server`).
            ClientMessage::Register { .. }
            | ClientMessage::Login { .. }
            | ClientMessage::Ratings { .. }
            | ClientMessage::Rating { .. } => Ok(()),
            ClientMessage::Rules => {
                let rules: Vec<RulesInfo> =
                    self.rules.values().map(|set| set.info.clone()).collect();
                self.send_pages(id, &rules, |rules| ServerMessage::RulesList { rules });
                Ok(())
            }
            ClientMessage::UploadRules { text } => self.upload(id, text),
            ClientMessage::Games => {
                let games = self.summaries(false);
                self.send_pages(id, &games, |games| ServerMessage::GameList { games });
                Ok(())
            }
            ClientMessage::Archive => {
                let games = self.summaries(true);
                self.send_pages(id, &games, |games| ServerMessage::ArchiveList { games });
                Ok(())
            }
            ClientMessage::Fetch { game } => self.fetch(id, game),
            ClientMessage::New {
                rules,
                clock,
                side,
                opponent,
                rated,
            } => self
                .create(
                    id,
                    &rules,
                    clock,
                    side,
                    opponent.map_or(OtherSeat::Open, OtherSeat::Computer),
                    rated,
                )
                .map(|_| ()),
            ClientMessage::Seek {
                rules,
                clock,
                side,
                rated,
                terms,
            } => {
                let request = SeekRequest {
                    rules: &rules,
                    clock,
                    side,
                    rated,
                    terms,
                };
                self.seek(id, request, looked_up)
            }
            ClientMessage::Rematch { game } => self.rematch(id, game),
            ClientMessage::Join { game } => self.join(id, game, looked_up),
            ClientMessage::Watch { game } => {
                self.live(game)?;
                self.attend(id, game, None);
                Ok(())
            }
            ClientMessage::Leave { game } => {
                self.live(game)?.audience.remove(&id);
                if let Some(connection) = self.connections.get_mut(&id) {
                    connection.games.remove(&game);
                }
                Ok(())
            }
            ClientMessage::Move { game, mv } => {
                let side = self.seat(id, game)?;
                self.play(game, side, mv)
            }
            ClientMessage::Say { game, text } => self.say(id, game, &text),
            ClientMessage::Offer { game, kind } => self.offer(id, game, kind),
            ClientMessage::Answer { game, kind, accept } => self.answer(id, game, kind, accept),
            ClientMessage::Resign { game } => {
                let side = self.seat(id, game)?;
                self.finish(
                    game,
                    GameResult {
                        winner: Some(1 - side),
                        reason: EndCause::Resigned,
                    },
                )
            }
        }
    }

    /// Sends a list as pages of [`PAGE`] entries, the last one shorter.
    fn send_pages<T: Clone>(
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

    /// A chat line to a game's audience, cleaned of hidden characters, within the
    /// connection's chat quota.
    fn say(&mut self, id: ConnectionId, game: GameId, text: &str) -> Result<(), String> {
        let from = self.account(id).unwrap_or_else(|_| format!("guest{id}"));
        self.live(game)?;
        let rate = self.quotas.chat_per_second;
        let connection = self.connections.get_mut(&id).ok_or("not connected")?;
        if !connection.chat.take(rate, Instant::now()) {
            return Err(format!(
                "too much chat: at most {rate} lines a second; this line was not sent"
            ));
        }
        let text = text::clean(text, MAX_CHAT);
        if text.trim().is_empty() {
            return Err("nothing to say".to_owned());
        }
        self.broadcast(game, &ServerMessage::Chat { game, from, text });
        Ok(())
    }

    /// The number of unfinished games with a seat of `name`.
    fn open_games(&self, name: &str) -> usize {
        self.games
            .values()
            .filter(|live| {
                live.result.is_none() && live.players.iter().any(|p| p.as_deref() == Some(name))
            })
            .count()
    }

    /// Refuses one more seat to `name` when it has its quota of unfinished games.
    fn check_open_games(&self, name: &str) -> Result<(), String> {
        let limit = self.quotas.open_games;
        if self.open_games(name) >= limit {
            return Err(format!(
                "you have {limit} unfinished games, as many as this server allows; \
                 finish or resign one first"
            ));
        }
        Ok(())
    }

    pub(crate) fn upload(&mut self, id: ConnectionId, text: String) -> Result<(), String> {
        let name = self.account(id)?;
        if text.len() > MAX_RULES_TEXT {
            return Err(format!(
                "the rule file has {} bytes; this server takes at most {MAX_RULES_TEXT}",
                text.len()
            ));
        }
        let parsed = Rules::parse(text.as_bytes()).map_err(|error| format!("rules: {error}"))?;
        for (what, label) in [("id", parsed.id()), ("name", parsed.name())] {
            if label.chars().count() > MAX_LABEL {
                return Err(format!(
                    "rules: the {what} is longer than {MAX_LABEL} characters"
                ));
            }
            if let Some(code) = text::first_hidden(label) {
                return Err(format!(
                    "rules: the {what} holds the hidden character {code}"
                ));
            }
        }
        let hash = hash_text(&text);
        if !self.rules.contains_key(&hash) {
            let limit = self.quotas.uploads_per_hour;
            if let Err(wait) = self.uploads.take(name, limit, Instant::now()) {
                return Err(format!(
                    "at most {limit} rule files an hour from one account; try again in {} s",
                    wait.as_secs() + 1
                ));
            }
            self.journal.record(Write::AddRules {
                hash: hash.clone(),
                text: text.clone(),
            });
            let set = RuleSet::new(parsed, text, String::new(), hash.clone());
            self.rules.insert(hash.clone(), set);
        }
        let rules = self.rules[&hash].info.clone();
        self.send(id, &ServerMessage::RulesAdded { rules });
        Ok(())
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
            periods: wire_periods(live),
            to_move: live.game.side_to_move().index() as u8,
            your_side,
        }
    }

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
    }

    pub(crate) fn find_rules(&self, name: &str) -> Result<String, String> {
        if self.rules.contains_key(name) {
            return Ok(name.to_owned());
        }
        self.rules
            .values()
            .find(|set| set.info.file == name)
            .or_else(|| {
                self.rules
                    .values()
                    .find(|set| set.info.id == name && !set.info.file.is_empty())
            })
            .or_else(|| self.rules.values().find(|set| set.info.id == name))
            .map(|set| set.info.hash.clone())
            .ok_or_else(|| format!("no rules `{name}` here; `rules` lists them"))
    }

    pub(crate) fn create(
        &mut self,
        id: ConnectionId,
        rules: &str,
        clock: Option<ClockSpec>,
        side: u8,
        other: OtherSeat,
        rated: bool,
    ) -> Result<GameId, String> {
        let (opponent, seek) = match other {
            OtherSeat::Open => (None, None),
            OtherSeat::Computer(name) => (Some(name), None),
            OtherSeat::Seek(terms) => (None, Some(terms)),
        };
        let name = self.account(id)?;
        if side > 1 {
            return Err("the side is 0 or 1".to_owned());
        }
        self.check_open_games(&name)?;
        if let Some(clock) = clock {
            clock.check()?;
        }
        let hash = self.find_rules(rules)?;
        if let Some(opponent) = &opponent {
            if !self.computers.contains_key(opponent) {
                return Err(format!(
                    "`{opponent}` is no computer account of this server"
                ));
            }
        }
        let game = self.next_game;
        self.next_game += 1;
        self.journal.record(Write::CreateGame {
            game,
            rules_hash: hash.clone(),
            clock: clock.map(stored_clock),
            rated,
        });
        if let Some(terms) = &seek {
            self.journal.record(Write::SetSeek {
                game,
                seek: stored_seek(terms),
            });
        }
        let mut players = [None, None];
        players[usize::from(side)] = Some(name.clone());
        self.journal.record(Write::SetPlayer {
            game,
            side,
            name: name.clone(),
        });
        if let Some(opponent) = &opponent {
            self.journal.record(Write::SetPlayer {
                game,
                side: 1 - side,
                name: opponent.clone(),
            });
            players[usize::from(1 - side)] = Some(opponent.clone());
        }
        let full = clock.map_or(
            Left {
                time: Duration::ZERO,
                periods: 0,
            },
            |clock| Left::full(&clock),
        );
        let live = LiveGame {
            id: game,
            rules_hash: hash.clone(),
            game: Game::new(self.rules[&hash].rules.clone()),
            players,
            clock,
            left: [full, full],
            resumed_turn: None,
            turn_started: None,
            turn: 0,
            result: None,
            audience: HashSet::new(),
            offer: None,
            rated,
            seek,
        };
        self.games.insert(game, live);
        self.attend(id, game, Some(side));
        self.start_turn(game);
        Ok(game)
    }

    pub(crate) fn join(
        &mut self,
        id: ConnectionId,
        game: GameId,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        let name = self.account(id)?;
        let live = self.live(game)?;
        if live.result.is_some() {
            return Err(format!("game {game} is over; `watch` shows it"));
        }
        if let Some(side) = live.players.iter().position(|p| p.as_ref() == Some(&name)) {
            // Back at one's own seat, after a reconnect.
            self.attend(id, game, Some(side as u8));
            return Ok(());
        }
        let side = live
            .players
            .iter()
            .position(Option::is_none)
            .ok_or_else(|| format!("game {game} has two players; `watch` shows it"))?
            as u8;
        self.may_take(game, &name, looked_up)?;
        self.check_open_games(&name)?;
        self.journal.record(Write::SetPlayer {
            game,
            side,
            name: name.clone(),
        });
        let live = self.live(game)?;
        live.players[usize::from(side)] = Some(name.clone());
        live.seek = None;
        self.attend(id, game, Some(side));
        self.broadcast(game, &ServerMessage::Joined { game, side, name });
        self.start_turn(game);
        Ok(())
    }

    /// Starts the clock of the side to move, when both seats are taken and the game goes
    /// on, and asks the computer for a move when it is its turn.
    pub(crate) fn start_turn(&mut self, game: GameId) {
        let now = Instant::now();
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        live.turn += 1;
        if live.result.is_some() || live.players.iter().any(Option::is_none) {
            live.turn_started = None;
            return;
        }
        live.turn_started = Some(now);
        let side = live.game.side_to_move().index();
        if let Some(clock) = live.clock.filter(|c| c.kind() == ClockKind::Correspondence) {
            // Each move has the whole time per move, on the wall clock: a turn that began
            // before a restart goes on from when it began, the time down included.
            let wall = stored_now();
            let began = match live.resumed_turn.take() {
                Some(began) => began,
                None => {
                    self.journal.record(Write::StartTurn { game, at: wall });
                    wall
                }
            };
            let gone = Duration::from_millis(u64::try_from(wall - began).unwrap_or(0));
            live.left[side] = Left {
                time: Duration::from_millis(clock.move_ms).saturating_sub(gone),
                periods: 0,
            };
        }
        let turn = live.turn;
        let computer = live.players[side]
            .as_ref()
            .and_then(|name| self.computers.get(name).copied());
        // A clock too long for this computer's clock to count to never falls.
        let flag = live
            .clock
            .and_then(|clock| now.checked_add(clock::allowance(&clock, live.left[side])));
        if let Some(at) = flag {
            self.followups.push(Followup::Flag { game, turn, at });
        }
        if let Some(level) = computer {
            self.followups
                .push(Followup::Computer { game, turn, level });
        }
    }

    /// Plays a move of `side`, refereed by the engine; stores it, then tells everyone.
    pub(crate) fn play(&mut self, game: GameId, side: u8, mv: Move) -> Result<(), String> {
        let now = Instant::now();
        let live = self.live(game)?;
        let Some(started) = live.turn_started else {
            return Err(format!("game {game} waits for a second player"));
        };
        if live.game.side_to_move().index() != usize::from(side) {
            return Err("it is not your turn".to_owned());
        }
        let rules = live.game.rules().clone();
        // A move off this board has no text to name it by: say so before checking it.
        if [mv.from(), mv.to()]
            .iter()
            .any(|&square| rules.square_type(square).is_none())
        {
            return Err(format!("`{mv}`: a square is not on the board"));
        }
        let text = rules.format_move(mv, Notation::Numeric);
        live.game
            .check(mv)
            .map_err(|error| format!("illegal move `{text}`: {error}"))?;
        let index = usize::from(side);
        let used = now.duration_since(started);
        let mut left = live.left;
        if let Some(clock) = live.clock {
            match clock::after_move(&clock, left[index], used) {
                Some(after) => left[index] = after,
                None => return self.lose_on_time(game),
            }
        }
        let number = live.game.moves().len() as u32 + 1;
        let stored = StoredMove {
            mv: rules.format_move(mv, Notation::Numeric),
            clocks: stored_clocks(&left),
        };
        live.game.try_play(mv).map_err(|error| error.to_string())?;
        live.left = left;
        live.offer = None;
        let clocks = live.clock.map(|_| stored.clocks.times);
        let periods = wire_periods(live);
        let outcome = live.game.outcome();
        // Recorded before the `moved` below is queued, so that it waits for the move.
        self.journal.record(Write::AddMove {
            game,
            number,
            stored,
        });
        self.broadcast(
            game,
            &ServerMessage::Moved {
                game,
                number,
                side,
                mv,
                clocks,
                periods,
            },
        );
        match outcome {
            Some(outcome) => {
                let result = GameResult {
                    winner: outcome.winner.map(|winner| winner.index() as u8),
                    reason: EndCause::Rules(outcome.reason),
                };
                self.finish(game, result)
            }
            None => {
                self.start_turn(game);
                Ok(())
            }
        }
    }

    pub(crate) fn lose_on_time(&mut self, game: GameId) -> Result<(), String> {
        let live = self.live(game)?;
        let loser = live.game.side_to_move().index() as u8;
        live.left[usize::from(loser)].time = Duration::ZERO;
        self.finish(
            game,
            GameResult {
                winner: Some(1 - loser),
                reason: EndCause::Time,
            },
        )
    }

    /// A clock timer went off.
    pub(crate) fn flag(&mut self, game: GameId, turn: u64) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        if live.turn == turn && live.result.is_none() && live.turn_started.is_some() {
            let _ = self.lose_on_time(game);
        }
    }

    pub(crate) fn finish(&mut self, game: GameId, result: GameResult) -> Result<(), String> {
        self.live(game)?;
        self.journal.record(Write::FinishGame {
            game,
            result: stored_result(&result),
        });
        let live = self.live(game)?;
        live.result = Some(result);
        live.turn_started = None;
        live.turn += 1;
        self.broadcast(game, &ServerMessage::Ended { game, result });
        Ok(())
    }

    pub(crate) fn fetch(&mut self, id: ConnectionId, game: GameId) -> Result<(), String> {
        let live = self
            .games
            .get(&game)
            .ok_or_else(|| format!("there is no game {game}"))?;
        if live.result.is_none() {
            return Err(format!("game {game} is not over yet"));
        }
        let set = &self.rules[&live.rules_hash];
        let rules_file = if set.info.file.is_empty() {
            set.info.id.clone()
        } else {
            set.info.file.clone()
        };
        let kinds = live.players.clone().map(|player| match player {
            Some(name) => match self.computers.get(&name) {
                Some(level) => vec!["computer".to_owned(), level.to_string()],
                None => vec!["human".to_owned()],
            },
            None => vec!["human".to_owned()],
        });
        let saved = SavedGame::from_game(&live.game, &rules_file, kinds);
        let mut text = saved.to_text(live.game.rules());
        let names = live.players.clone().map(|p| p.unwrap_or_default());
        let result = live.result.map(|r| match r.winner {
            Some(winner) => format!("player {winner} won ({})", r.reason),
            None => format!("draw ({})", r.reason),
        });
        let note = format!(
            "# server game {game}: {} (player 0) against {} (player 1), {}\n",
            names[0],
            names[1],
            result.unwrap_or_default()
        );
        let first_line_end = text.find('\n').map_or(text.len(), |end| end + 1);
        text.insert_str(first_line_end, &note);
        self.send(
            id,
            &ServerMessage::SavedGame {
                game,
                rules_file,
                text,
            },
        );
        Ok(())
    }

    /// The position and limits for a computer's move, if the turn is still on.
    pub(crate) fn computer_task(
        &self,
        game: GameId,
        turn: u64,
        level: u32,
    ) -> Option<(Game, aim::Limits, Option<Arc<aim::nnue::Network>>)> {
        let live = self.games.get(&game)?;
        if live.turn != turn || live.turn_started.is_none() {
            return None;
        }
        let mut limits = aim::Limits {
            level: Some(level),
            threads: Some(1),
            ..aim::Limits::default()
        };
        if let Some(clock) = live.clock {
            let left = live.left[live.game.side_to_move().index()];
            limits.clock = Some(match clock.kind() {
                ClockKind::Fischer => {
                    aim::Clock::fischer(left.time, Duration::from_millis(clock.increment_ms))
                }
                ClockKind::ByoYomi => aim::Clock::byo_yomi(
                    left.time,
                    Duration::from_millis(clock.period_ms),
                    left.periods,
                ),
                ClockKind::Correspondence => aim::Clock::fischer(left.time, Duration::ZERO),
            });
        }
        let network = self
            .rules
            .get(&live.rules_hash)
            .and_then(|set| set.network.clone());
        Some((live.game.clone(), limits, network))
    }

    pub(crate) fn computer_move(&mut self, game: GameId, turn: u64, mv: hnefatafl_core::Move) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        if live.turn != turn {
            return;
        }
        let side = live.game.side_to_move().index() as u8;
        let _ = self.play(game, side, mv);
    }
}

mod offers;
mod rows;

#[cfg(test)]
mod tests;
