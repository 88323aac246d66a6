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
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use hnefatafl_core::{Game, Rules};
use hnefatafl_net::protocol::{
    self, ClientMessage, ClockSpec, EndCause, GameId, GameResult, OfferKind, RulesInfo, SeekTerms,
    ServerMessage, TournamentId,
};
use sha2::{Digest, Sha256};
use tokio::sync::{Notify, mpsc};

use crate::accounts;
use crate::clock::Left;
use crate::journal::{Journal, Line};
use crate::moderation::Moderation;
use crate::quotas::{Bucket, Buckets, Quotas, Window};
use crate::storage::StoredTime;
use crate::tournament::Tournament;
use terms::{SeekRequest, Seeks};

pub(crate) use moderation::ChatLog;
pub(crate) use positions::positions_sent;
pub(crate) use terms::LookedUp;

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

/// The name prefix of a guest in chat (`guest7`, connection 7), which no account's name
/// has.
pub(crate) const GUEST_PREFIX: &str = "guest";

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
    /// A shipped rule set from its read rules and text; `file` is its file's name.
    pub(crate) fn shipped(rules: Rules, text: String, file: String, hash: String) -> RuleSet {
        let info = RulesInfo {
            id: rules.id().to_owned(),
            name: rules.name().to_owned(),
            file,
            hash,
            uploader: None,
        };
        RuleSet {
            rules,
            text,
            info,
            network: None,
        }
    }

    /// An uploaded rule set, with the account that uploaded it (none when not known: a
    /// database from before uploaders were kept).
    pub(crate) fn uploaded(
        rules: Rules,
        text: String,
        hash: String,
        uploader: Option<String>,
    ) -> RuleSet {
        let mut set = RuleSet::shipped(rules, text, String::new(), hash);
        set.info.uploader = uploader;
        set
    }

    /// Whether it is one of the shipped rule files.
    pub(crate) fn is_shipped(&self) -> bool {
        !self.info.file.is_empty()
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
    /// Woken when a moderator closes the connection (its reading task ends it).
    pub(crate) kick: Arc<Notify>,
    /// Whether its `hello` asked for positions ([`ServerMessage::Position`]).
    pub(crate) positions: bool,
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
    /// The stop flag of the computer's search of this turn, while one is under way.
    pub(crate) search: Option<Arc<AtomicBool>>,
}

impl LiveGame {
    /// A game before its first move, each side's clock full (nothing at all with no
    /// clock): nobody watches yet, no turn has begun, nothing is offered.
    pub(crate) fn new(
        id: GameId,
        rules_hash: String,
        game: Game,
        players: [Option<String>; 2],
        clock: Option<ClockSpec>,
        rated: bool,
        seek: Option<SeekTerms>,
    ) -> LiveGame {
        let full = clock.map_or(
            Left {
                time: Duration::ZERO,
                periods: 0,
            },
            |clock| Left::full(&clock),
        );
        LiveGame {
            id,
            rules_hash,
            game,
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
            search: None,
        }
    }

    /// The side `name` plays, if a seat is theirs.
    pub(crate) fn side_of(&self, name: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|player| player.as_deref() == Some(name))
    }

    /// Ends the turn under way: a late timer or computer move of it is stale from now on,
    /// and a search of it stops.
    pub(crate) fn next_turn(&mut self) {
        self.turn += 1;
        if let Some(stop) = self.search.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
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
    /// A computer is to move, against `player` (whose searches take turns with other
    /// players' in the pool, `crate::computer`).
    Computer {
        game: GameId,
        turn: u64,
        level: u32,
        player: String,
    },
    /// The side to move loses on time unless the turn is over by then.
    Flag {
        game: GameId,
        turn: u64,
        at: Instant,
    },
    /// A tournament starts by itself at its time, if it still waits.
    TournamentStart {
        tournament: TournamentId,
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
    /// Chat lines per address (`--chat-per-address`).
    pub(crate) chat_addresses: Buckets<IpAddr>,
    /// Chat lines of the watchers per game (`--chat-per-game`).
    pub(crate) chat_games: Buckets<GameId>,
    /// The tournaments, by number (`tournaments`).
    pub(crate) tournaments: BTreeMap<TournamentId, Tournament>,
    /// The moderators, bans, mutes and their log (`crate::moderation`), and each game's
    /// latest chat lines, which a moderator may hide (`moderation`).
    pub(crate) moderation: Moderation,
    pub(crate) chat_log: ChatLog,
    /// Set by [`State::stop`]: from then on nothing changes a game (no message is
    /// handled, no computer moves, no clock falls, no tournament starts), so what the
    /// clients were told is kept is what is stored.
    pub(crate) stopping: bool,
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

impl State {
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

    /// Stops for the server's end: every search stops, and every connection is sent
    /// `goodbye`.
    pub(crate) fn stop(&mut self, goodbye: &ServerMessage) {
        self.stopping = true;
        for live in self.games.values_mut() {
            if let Some(stop) = live.search.take() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        let connections: Vec<ConnectionId> = self.connections.keys().copied().collect();
        for id in connections {
            self.send(id, goodbye);
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

    /// A game that is over.
    pub(crate) fn finished_game(&self, game: GameId) -> Result<&LiveGame, String> {
        let live = self
            .games
            .get(&game)
            .ok_or_else(|| format!("there is no game {game}"))?;
        if live.result.is_none() {
            return Err(format!("game {game} is not over yet"));
        }
        Ok(live)
    }

    /// Handles one message; `looked_up` is what its seek terms need from storage, read
    /// off this lock ([`crate::seeks::LookedUp`]).
    pub(crate) fn handle(
        &mut self,
        id: ConnectionId,
        message: ClientMessage,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        if self.stopping {
            return Err("the server is stopping".to_owned());
        }
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
            ClientMessage::Fetch { game, format } => self.fetch(id, game, format),
            ClientMessage::FetchPlayer {
                account,
                format,
                after,
            } => self.fetch_player(id, &account, format, after),
            ClientMessage::Moderate { action, reason } => {
                self.moderate(id, action, reason, looked_up)
            }
            ClientMessage::ModerationLog { page } => self.moderation_log(id, page),
            ClientMessage::ChatLog { game } => self.chat_lines(id, game),
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
            ClientMessage::Tournaments
            | ClientMessage::Tournament { .. }
            | ClientMessage::CreateTournament { .. }
            | ClientMessage::EnterTournament { .. }
            | ClientMessage::WithdrawTournament { .. }
            | ClientMessage::StartTournament { .. } => self.tournament_message(id, message),
            ClientMessage::Position { game, ply } => self.position_at(id, game, ply),
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
}

mod chat;
mod create;
mod export;
mod lists;
mod moderation;
mod offers;
mod play;
mod positions;
mod rows;
mod seats;
mod seeks;
mod terms;
mod tournaments;

#[cfg(test)]
mod tests;
