//! The game server's connections: the listener, the TLS handshake with its deadline, a
//! reading and a writing task for each connection, the queue and line limits, password
//! hashing, the storage's reads and computer moves on blocking threads. The games
//! themselves are the `referee`'s, behind one lock taken only for the synchronous work of
//! a message (no `.await` and no disk I/O while it is held); its storage writes are
//! committed by the `journal`'s thread, and each line a connection's writing task takes
//! off its queue waits for the writes recorded before it.

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use aim::nnue::Network;
use hnefatafl_core::Rules;
use hnefatafl_data::{DataDirs, LookupError, Origin, rule_names};
use hnefatafl_net::protocol::{GameId, ServerMessage};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio_rustls::TlsAcceptor;

use crate::accounts;
use crate::computer::Computers;
pub use crate::error::ServerError;
use crate::journal::{self, Committed};
use crate::quotas::{Buckets, Quotas, Window};
use crate::referee::{RuleSet, State, hash_text};
use crate::storage::Storage;

/// How long a stopping server waits for its connections to write what they were told.
const CLOSING_TIME: Duration = Duration::from_secs(10);

pub use hnefatafl_net::protocol::COMPUTER_PREFIX;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where the database and certificate are kept.
    pub data: PathBuf,
    /// Each connection starts with a PROXY protocol (version 1) header, from a reverse
    /// proxy, which gives the client's address.
    pub proxy_protocol: bool,
    /// Print every message with its direction, connection and time.
    pub show_traffic: bool,
    /// Stop when the last client leaves (a private server started by a client).
    pub stop_when_empty: bool,
    /// The difficulty levels of the computer accounts to offer.
    pub computers: Vec<u32>,
    /// The threads the computer players' searches share (`crate::computer`).
    pub computer_threads: usize,
    /// What one client may take.
    pub quotas: Quotas,
    /// The length of a rating period: at its end the period's rated games update the
    /// players' ratings.
    pub rating_period: Duration,
    /// The owners' accounts (`--admin`): they make and unmake moderators, and moderate.
    pub admins: Vec<String>,
}

/// The first wait of the accept loop after a failed accept (out of file descriptors).
const FIRST_BACK_OFF: Duration = Duration::from_millis(10);

/// The longest wait of the accept loop between failed accepts.
const LONGEST_BACK_OFF: Duration = Duration::from_secs(1);

/// The server.
pub struct Server {
    state: Mutex<State>,
    show_traffic: bool,
    stop_when_empty: bool,
    next_connection: AtomicU64,
    clients: AtomicUsize,
    empty: Notify,
    /// Password hashes being computed at once: one per core. Each argon2id hash takes
    /// 19 MiB and a core for tens of milliseconds; unbounded, a crowd logging in at once
    /// would take gigabytes and starve every connection of CPU.
    hashing: Semaphore,
    /// The hashes' working memory, kept from one to the next.
    memory: accounts::Memory,
    /// One permit per open connection, as `--max-connections` allows.
    connections: Arc<Semaphore>,
    /// What one client may take (its time limits, its connections).
    quotas: Quotas,
    /// Whether the client's address comes from a PROXY protocol header.
    proxy_protocol: bool,
    /// Open connections per counted address.
    per_address: Mutex<HashMap<IpAddr, usize>>,
    /// How far the referee's storage writes are committed.
    committed: Committed,
    /// The storage of the work done off the referee's lock, a connection of its own:
    /// accounts (registering, the password of a login), rating periods and rating queries
    /// read and write it on blocking threads.
    off_lock: Mutex<Box<dyn Storage>>,
    rating_period: Duration,
    /// The computer players' searches.
    computers: Arc<Computers>,
    /// Set when the server stops: every connection ends.
    closing: watch::Sender<bool>,
}

/// The learned evaluation of a shipped rule file for the server's computer players:
/// `networks/<file>.nnue` from the data directories or the built-in data, checked against
/// the rules. One that cannot be used is said on standard error, and the computers play
/// with the classic evaluation in those rules.
fn rules_network(dirs: &DataDirs, file: &str, rules: &Rules) -> Option<Arc<Network>> {
    let relative = hnefatafl_data::network_file(file);
    let problem = match dirs.read(None, &relative) {
        Ok((found, bytes)) => match Network::for_rules(&found.to_string(), &bytes, rules) {
            Ok(network) => return Some(Arc::new(network)),
            Err(error) => error.to_string(),
        },
        Err(LookupError::NotFound) => return None,
        Err(LookupError::File(path, error)) => format!("{}: {error}", path.display()),
    };
    eprintln!("hnefataflserver: {problem}; the computers play {file} with the classic evaluation");
    None
}

/// Ends when the process is asked to stop: SIGTERM or SIGINT. A signal that cannot be
/// listened to is never heard.
async fn terminated() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut interrupt)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = interrupt.recv() => {}
    }
}

impl Server {
    /// Opens the server on a storage: reads the shipped rule files and resumes every
    /// stored game, its clocks starting again now; from then on `storage` is the storage
    /// writer's. `off_lock` is a second connection to the same storage, for accounts and
    /// ratings.
    ///
    /// # Errors
    ///
    /// The storage fails, a shipped rule file is broken, or a stored game cannot be
    /// replayed.
    pub fn new(
        mut storage: Box<dyn Storage>,
        off_lock: Box<dyn Storage>,
        options: &Options,
    ) -> Result<Arc<Server>, ServerError> {
        let mut rules = BTreeMap::new();
        let dirs = DataDirs::default();
        for file in rule_names() {
            let file = file.to_owned();
            let Ok((_, bytes)) = dirs.read_named("rules", &file, Origin::Indirect) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let parsed = Rules::parse(text.as_bytes())
                .map_err(|error| ServerError::Rules(file.clone(), error.to_string()))?;
            let hash = hash_text(&text);
            storage.add_rules(&hash, &text, None)?;
            let mut set = RuleSet::shipped(parsed, text, file.clone(), hash.clone());
            set.network = rules_network(&dirs, &file, &set.rules);
            rules.insert(hash, set);
        }
        for stored in storage.all_rules()? {
            if rules.contains_key(&stored.hash) {
                continue;
            }
            // A stored upload was validated when it came; a file that no longer reads
            // (the engine grew stricter) is left out rather than stopping the server.
            if let Ok(parsed) = Rules::parse(stored.text.as_bytes()) {
                let hash = stored.hash.clone();
                let set = RuleSet::uploaded(parsed, stored.text, stored.hash, stored.uploader);
                rules.insert(hash, set);
            }
        }
        let computers = options
            .computers
            .iter()
            .map(|&level| (format!("{COMPUTER_PREFIX}{level}"), level))
            .collect();
        let records = storage.games()?;
        let tournaments = storage.tournaments()?;
        for admin in &options.admins {
            if storage.password_hash(admin)?.is_none() {
                eprintln!(
                    "hnefataflserver: --admin {admin}: there is no such account yet; whoever \
                     registers it first owns the server"
                );
            }
        }
        let moderation = State::moderation_from(&options.admins, storage.moderation_log()?);
        let next_game = records.iter().map(|record| record.id).max().unwrap_or(0) + 1;
        let (journal, committed) = journal::start(storage).map_err(ServerError::Thread)?;
        let mut state = State {
            journal,
            next_game,
            rules,
            games: BTreeMap::new(),
            connections: HashMap::new(),
            computers,
            throttle: accounts::Throttle::default(),
            followups: Vec::new(),
            quotas: options.quotas.clone(),
            uploads: Window::default(),
            registrations: Window::default(),
            seeks: Default::default(),
            chat_addresses: Buckets::default(),
            chat_games: Buckets::default(),
            tournaments: BTreeMap::new(),
            moderation,
            chat_log: Default::default(),
            stopping: false,
        };
        let now = Instant::now();
        for record in records {
            let live = state.resume(record, now)?;
            state.games.insert(live.id, live);
        }
        let ids: Vec<GameId> = state.games.keys().copied().collect();
        for id in ids {
            state.start_turn(id);
        }
        state.resume_tournaments(tournaments)?;
        Ok(Arc::new(Server {
            state: Mutex::new(state),
            show_traffic: options.show_traffic,
            stop_when_empty: options.stop_when_empty,
            next_connection: AtomicU64::new(1),
            clients: AtomicUsize::new(0),
            empty: Notify::new(),
            hashing: Semaphore::new(
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            ),
            memory: accounts::Memory::default(),
            connections: Arc::new(Semaphore::new(options.quotas.connections)),
            quotas: options.quotas.clone(),
            proxy_protocol: options.proxy_protocol,
            per_address: Mutex::new(HashMap::new()),
            committed,
            off_lock: Mutex::new(off_lock),
            rating_period: options.rating_period,
            computers: Computers::start(options.computer_threads).map_err(ServerError::Thread)?,
            closing: watch::Sender::new(false),
        }))
    }

    /// The storage connection of the work done off the referee's lock; taken on blocking
    /// threads only.
    fn storage_off_lock(&self) -> MutexGuard<'_, Box<dyn Storage>> {
        self.off_lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock would be a bug; the state is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Accepts connections until the process ends, or, when the server stops when empty,
    /// until the last client has left: at most `--max-connections` open at once, and a
    /// failed accept waits before the next try (`accept_next`).
    ///
    /// # Errors
    ///
    /// A storage write failed: the server stops at once, so that nothing recorded after
    /// the write is ever told to a client.
    pub async fn serve(
        self: Arc<Self>,
        listener: TcpListener,
        tls: TlsAcceptor,
    ) -> Result<(), ServerError> {
        self.clone().start_followups();
        tokio::spawn(self.clone().rating_periods());
        let mut committed = self.committed.clone();
        loop {
            let (permit, stream, peer) = tokio::select! {
                accepted = self.accept_next(&listener) => accepted,
                () = self.emptied() => {
                    // Nobody is left to be told, but what was recorded is still stored.
                    let recorded = self.lock().journal.recorded();
                    return committed.reached(recorded).await.map_err(ServerError::Write);
                }
                () = terminated() => return self.shut_down().await,
                error = committed.failed() => return Err(ServerError::Write(error)),
            };
            let server = self.clone();
            let tls = tls.clone();
            self.clients.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                server.clone().connection(stream, peer, tls).await;
                drop(permit);
                if server.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
                    server.empty.notify_one();
                }
            });
        }
    }

    /// The next connection on `listener`, with its permit: at most `--max-connections`
    /// are open at once, so it waits for a free permit before it accepts. When an accept
    /// fails (out of file descriptors: EMFILE, ENFILE) it waits before the next try, 10 ms
    /// doubling up to 1 s, instead of spinning.
    async fn accept_next(
        &self,
        listener: &TcpListener,
    ) -> (Option<OwnedSemaphorePermit>, TcpStream, SocketAddr) {
        let mut back_off = FIRST_BACK_OFF;
        loop {
            // The semaphore is never closed.
            let permit = self.connections.clone().acquire_owned().await.ok();
            match listener.accept().await {
                Ok((stream, peer)) => return (permit, stream, peer),
                Err(_) => {
                    drop(permit);
                    tokio::time::sleep(back_off).await;
                    back_off = (back_off * 2).min(LONGEST_BACK_OFF);
                }
            }
        }
    }

    /// Stops the server on SIGTERM or SIGINT: the searches stop, every client is told and
    /// its connection closed once its queue is written, and the writes recorded are
    /// committed; the games go on when the server starts again.
    async fn shut_down(self: &Arc<Self>) -> Result<(), ServerError> {
        self.computers.close();
        let recorded = {
            let mut state = self.lock();
            let goodbye = ServerMessage::error(
                "the server is stopping; your games are kept: log in again when it is back",
            );
            state.stop(&goodbye);
            state.journal.recorded()
        };
        self.closing.send_replace(true);
        let deadline = tokio::time::Instant::now() + CLOSING_TIME;
        while self.clients.load(Ordering::SeqCst) > 0 {
            if tokio::time::timeout_at(deadline, self.empty.notified())
                .await
                .is_err()
            {
                break;
            }
        }
        let mut committed = self.committed.clone();
        committed
            .reached(recorded)
            .await
            .map_err(ServerError::Write)
    }

    /// Ends when the server stops when empty and its last client has left; never
    /// otherwise.
    async fn emptied(&self) {
        if !self.stop_when_empty {
            std::future::pending::<()>().await;
        }
        loop {
            self.empty.notified().await;
            if self.clients.load(Ordering::SeqCst) == 0 {
                return;
            }
        }
    }
}

mod connections;
mod followups;
mod logins;
mod ratings;
mod web;

pub use web::{SOCKET_PATH, WebPort};

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> Rules {
        let text = hnefatafl_data::rules(name).expect("shipped");
        Rules::parse(text.as_bytes()).expect("reads")
    }

    fn dirs(system: Vec<PathBuf>) -> DataDirs {
        DataDirs {
            system,
            ..DataDirs::default()
        }
    }

    #[test]
    fn the_computers_take_a_shipped_rule_files_network_and_the_classic_evaluation_otherwise() {
        let built_in = dirs(Vec::new());
        let brandubh = rules_network(&built_in, "brandubh", &shipped("brandubh"));
        let network = brandubh.expect("brandubh ships a network");
        assert!(
            network
                .check_rules("brandubh", &shipped("brandubh"))
                .is_ok()
        );
        // Brandub is played with brandubh's network (the same board, setup and pieces).
        let brandub = rules_network(&built_in, "brandub", &shipped("brandub"));
        assert!(brandub.is_some_and(|n| n.check_rules("brandub", &shipped("brandub")).is_ok()));
        assert!(rules_network(&built_in, "ard_ri", &shipped("ard_ri")).is_none());
        assert!(rules_network(&built_in, "halatafl", &shipped("halatafl")).is_some());
        assert!(rules_network(&built_in, "copenhagen", &shipped("copenhagen")).is_some());
        assert!(rules_network(&built_in, "copenhagen13", &shipped("copenhagen13")).is_some());

        // An operator's damaged file in a data directory is passed over, not played.
        let data = tempfile::tempdir().expect("a data directory");
        std::fs::create_dir(data.path().join("networks")).expect("networks/");
        std::fs::write(
            data.path().join("networks/brandubh.nnue"),
            b"HNEFNNUE broken",
        )
        .expect("written");
        let damaged = dirs(vec![data.path().to_owned()]);
        assert!(rules_network(&damaged, "brandubh", &shipped("brandubh")).is_none());
    }
}
