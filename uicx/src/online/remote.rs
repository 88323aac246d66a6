//! A game played on a server, seen from the interpreter: the connection on a thread of
//! its own, the account, and the game this client plays or watches.
//!
//! The interpreter never waits for the network. [`Remote::connect`] returns at once; a
//! thread connects (starting a private server first for `localhost`), then carries
//! messages both ways. What arrives is kept for [`Remote::poll`], and the thread calls
//! the interpreter's [`Notify`] as the computer's search does, so the command line and
//! the X window fetch it the way they fetch the computer's moves.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use hnefatafl_net::DEFAULT_PORT;
use hnefatafl_net::client::{Client, ClientError, pins_file};
use hnefatafl_net::protocol::{ClientMessage, RecordFormat, ServerMessage};
use hnefatafl_net::tls::NewPin;

use crate::online::table::Table;
use crate::thinker::Notify;
use crate::x11::render::clock_text;

/// How long connecting (and starting a private server) may take before it is given up.
const CONNECT_PATIENCE: Duration = Duration::from_secs(20);

/// Where `c` connects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `c`, `c localhost` or `c localhost:<port>`: a server on this computer, started
    /// privately when none answers on that port.
    Local {
        /// The port, 8149 unless given.
        port: u16,
    },
    /// Any other host.
    Host {
        /// The host name or address.
        host: String,
        /// The port, 8149 unless given.
        port: u16,
    },
}

impl Target {
    /// Reads `c`'s word: nothing, `localhost`, `<host>`, `<host>:<port>` or
    /// `[<IPv6 address>]:<port>`. `Err` is the word's part that is not a port.
    pub fn parse(word: Option<&str>) -> Result<Target, String> {
        let Some(word) = word else {
            return Ok(Target::Local { port: DEFAULT_PORT });
        };
        let (host, port) = match word.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((host, "")) => (host, None),
                Some((host, tail)) => match tail.strip_prefix(':') {
                    Some(port) => (host, Some(port)),
                    None => return Err(word.to_owned()),
                },
                None => return Err(word.to_owned()),
            },
            None => match word.split_once(':') {
                // More than one colon without brackets: an IPv6 address alone.
                Some((_, tail)) if tail.contains(':') => (word, None),
                Some((host, port)) => (host, Some(port)),
                None => (word, None),
            },
        };
        let port = match port {
            None => DEFAULT_PORT,
            Some(text) => text
                .parse::<u16>()
                .ok()
                .filter(|&port| port > 0)
                .ok_or_else(|| text.to_owned())?,
        };
        if host.is_empty() {
            return Err(word.to_owned());
        }
        Ok(if host.eq_ignore_ascii_case("localhost") {
            Target::Local { port }
        } else {
            Target::Host {
                host: host.to_owned(),
                port,
            }
        })
    }

    fn host(&self) -> &str {
        match self {
            Target::Local { .. } => "127.0.0.1",
            Target::Host { host, .. } => host,
        }
    }

    fn port(&self) -> u16 {
        match self {
            Target::Local { port } | Target::Host { port, .. } => *port,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Local { port } => write!(f, "localhost:{port}"),
            Target::Host { host, port } if host.contains(':') => write!(f, "[{host}]:{port}"),
            Target::Host { host, port } => write!(f, "{host}:{port}"),
        }
    }
}

/// What the connection's thread reports.
#[derive(Debug)]
pub enum Event {
    /// A private server was started for `localhost`: its process id and port.
    Started {
        /// The server's process id.
        pid: u32,
        /// Its port.
        port: u16,
    },
    /// Connected; the server's name and version.
    Connected(String),
    /// The server was met for the first time: its certificate is pinned now.
    Pinned(NewPin),
    /// A message from the server (boxed: most events are small).
    Message(Box<ServerMessage>),
    /// The connection could not be made, or broke: why.
    Failed(String),
    /// The server closed the connection.
    Closed,
}

/// A connection to a server, carried by a thread of its own.
pub struct Remote {
    target: Target,
    outgoing: UnboundedSender<ClientMessage>,
    events: Receiver<Event>,
}

impl Remote {
    /// Starts connecting to `target` and returns at once; `home` holds the certificate
    /// pins (`~/.hnefatafl/known_servers`) and the private server's data
    /// (`~/.hnefatafl/local-server`). Messages sent before the connection is made wait
    /// for it. `notify` is called whenever [`Remote::poll`] has something.
    pub fn connect(target: Target, home: &Path, notify: Notify) -> Remote {
        let (outgoing, queue) = unbounded_channel();
        let (sender, events) = mpsc::channel();
        let pins = pins_file(home);
        let data = local_data(home);
        let thread_target = target.clone();
        std::thread::spawn(move || {
            let emit = move |event: Event| {
                if sender.send(event).is_ok() {
                    notify();
                }
            };
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => {
                    runtime.block_on(carry(thread_target, pins, data, queue, &emit));
                }
                Err(error) => emit(Event::Failed(error.to_string())),
            }
        });
        Remote {
            target,
            outgoing,
            events,
        }
    }

    /// Where it connects.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Sends a message (after the connection is made); `false` once the connection is
    /// gone.
    pub fn send(&self, message: ClientMessage) -> bool {
        self.outgoing.send(message).is_ok()
    }

    /// The next event, if one came.
    pub fn poll(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }
}

/// The data directory of the private server that `c localhost` starts.
pub fn local_data(home: &Path) -> PathBuf {
    home.join(".hnefatafl").join("local-server")
}

/// The server's program name.
const SERVER_PROGRAM: &str = "hnefataflserver";

/// The server binary: `hnefataflserver` beside the running program (as `cargo install`
/// and a build's target directory place them), else the first on `$PATH`.
///
/// # Errors
///
/// Neither place has it; the message says how to install it.
pub fn server_binary() -> Result<PathBuf, String> {
    let name = format!("{SERVER_PROGRAM}{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .map(|program| program.with_file_name(&name));
    let on_path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(&name))
                .collect()
        })
        .unwrap_or_default();
    beside
        .into_iter()
        .chain(on_path)
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| {
            format!(
                "{SERVER_PROGRAM} is not installed: it is looked for beside this program and \
                 on $PATH (install it with `cargo install --path server` from the source tree)"
            )
        })
}

/// Connects (starting a private server when `localhost` does not answer), then carries
/// messages both ways until either side closes.
async fn carry(
    target: Target,
    pins: PathBuf,
    data: PathBuf,
    mut queue: UnboundedReceiver<ClientMessage>,
    emit: &impl Fn(Event),
) {
    let connected = tokio::time::timeout(CONNECT_PATIENCE, open(&target, &pins, &data, emit)).await;
    let mut client = match connected {
        Ok(Ok(client)) => client,
        Ok(Err(reason)) => return emit(Event::Failed(reason)),
        Err(_) => return emit(Event::Failed("no answer in time".to_owned())),
    };
    if let Some(pin) = client.new_pin.take() {
        emit(Event::Pinned(pin));
    }
    emit(Event::Connected(client.server.clone()));
    loop {
        tokio::select! {
            message = queue.recv() => {
                let Some(message) = message else { return };
                if let Err(error) = client.send(&message).await {
                    return emit(if error.went_away() {
                        Event::Closed
                    } else {
                        Event::Failed(error.to_string())
                    });
                }
            }
            incoming = client.recv() => match incoming {
                Ok(Some(message)) => emit(Event::Message(Box::new(message))),
                Ok(None) => return emit(Event::Closed),
                Err(error) => return emit(Event::Failed(error.to_string())),
            },
        }
    }
}

async fn open(
    target: &Target,
    pins: &Path,
    data: &Path,
    emit: &impl Fn(Event),
) -> Result<Client, String> {
    let first = Client::connect(target.host(), target.port(), pins).await;
    let refused = matches!(&first, Err(ClientError::Io(error))
        if error.kind() == std::io::ErrorKind::ConnectionRefused);
    match (target, first) {
        (Target::Local { port }, Err(_)) if refused => {
            let (pid, port) = start_server(*port, data)?;
            emit(Event::Started { pid, port });
            Client::connect(target.host(), port, pins)
                .await
                .map_err(|error| error.to_string())
        }
        (_, first) => first.map_err(|error| error.to_string()),
    }
}

/// Starts a private server on 127.0.0.1 that stops when its last client leaves, and
/// waits for its first line, which says that it listens. Answers its process id and port.
///
/// It runs in a process group of its own, so that an interrupt typed at this program's
/// terminal does not stop it under the other players.
fn start_server(port: u16, data: &Path) -> Result<(u32, u16), String> {
    use std::os::unix::process::CommandExt;
    let binary = server_binary()?;
    let mut child = Command::new(&binary)
        .args(["--local", "--port", &port.to_string(), "--data"])
        .arg(data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|error| format!("{}: {error}", binary.display()))?;
    let pid = child.id();
    let stdout = child.stdout.take().ok_or("no standard output")?;
    let mut reader = BufReader::new(stdout);
    let mut first = String::new();
    let _ = reader.read_line(&mut first);
    let listening = first
        .strip_prefix("hnefataflserver listening on ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|address| address.rsplit(':').next())
        .and_then(|port| port.parse::<u16>().ok());
    let Some(port) = listening else {
        let mut reason = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut stderr, &mut reason);
        }
        let _ = child.wait();
        return Err(format!(
            "{} did not start: {}",
            binary.display(),
            reason.trim()
        ));
    };
    // The server's further output is read and dropped, and the process is waited for,
    // so that it never blocks on a full pipe nor lingers as a zombie.
    std::thread::spawn(move || {
        let mut sink = std::io::sink();
        let _ = std::io::copy(&mut reader, &mut sink);
        let _ = child.wait();
    });
    Ok((pid, port))
}

/// What a request waits for: the message that answers it, or an error.
#[derive(Clone, Debug, PartialEq)]
pub enum Awaited {
    /// `logged_in`.
    Login,
    /// `game_list`.
    Games,
    /// `archive_list`.
    Archive,
    /// `saved_game`, to be written to this path.
    Fetch(String),
    /// `game`.
    Game,
    /// `moved` of this number.
    Move(u32),
    /// `offered` from us, or `declined`.
    Offer,
    /// The answer's effect: `undone`, `declined` or `ended`.
    Answer,
    /// `ended`.
    Resign,
    /// `chat`.
    Say,
    /// `leaderboard`.
    Ratings,
    /// `account_ratings`.
    Rating,
    /// `rules_list`.
    Rules,
    /// `rules_added`.
    Upload,
    /// `tournament_list`.
    Tournaments,
    /// `tournament`.
    Tournament,
    /// `player_records`: a page of an account's records, written to files whose names
    /// are kept here until the last page.
    FetchPlayer {
        /// The account.
        account: String,
        /// The records' format.
        format: RecordFormat,
        /// The files written so far.
        written: Vec<String>,
    },
    /// `moderated`.
    Moderate,
    /// `moderation_log`.
    ModerationLog,
    /// `chat_lines`.
    ChatLog,
}

impl Awaited {
    /// Whether `message` answers this request.
    pub fn answered_by(&self, message: &ServerMessage) -> bool {
        matches!(
            (self, message),
            (_, ServerMessage::Error { .. })
                | (Awaited::Login, ServerMessage::LoggedIn { .. })
                | (Awaited::Games, ServerMessage::GameList { .. })
                | (Awaited::Archive, ServerMessage::ArchiveList { .. })
                | (Awaited::Fetch(_), ServerMessage::SavedGame { .. })
                | (Awaited::Game, ServerMessage::Game { .. })
                | (
                    Awaited::Offer,
                    ServerMessage::Offered { .. } | ServerMessage::Declined { .. }
                )
                | (
                    Awaited::Answer,
                    ServerMessage::Undone { .. }
                        | ServerMessage::Declined { .. }
                        | ServerMessage::Ended { .. }
                )
                | (Awaited::Resign, ServerMessage::Ended { .. })
                | (Awaited::Say, ServerMessage::Chat { .. })
                | (Awaited::Ratings, ServerMessage::Leaderboard { .. })
                | (Awaited::Rating, ServerMessage::AccountRatings { .. })
                | (Awaited::Rules, ServerMessage::RulesList { .. })
                | (Awaited::Upload, ServerMessage::RulesAdded { .. })
                | (Awaited::Tournaments, ServerMessage::TournamentList { .. })
                | (Awaited::Tournament, ServerMessage::Tournament { .. })
                | (
                    Awaited::FetchPlayer { .. },
                    ServerMessage::PlayerRecords { .. }
                )
                | (Awaited::Moderate, ServerMessage::Moderated { .. })
                | (Awaited::ModerationLog, ServerMessage::ModerationLog { .. })
                | (Awaited::ChatLog, ServerMessage::ChatLines { .. })
        ) || matches!((self, message), (Awaited::Move(number), ServerMessage::Moved { number: n, .. }) if n == number)
    }
}

/// A clock as the command line shows it: the window's [`clock_text`] (`4:58`, `1:02:03`
/// past an hour, `2d 11:59:58` past a day, a correspondence clock), with tenths of a
/// second under an hour: `4:58.2`.
pub fn format_clock(left: Duration) -> String {
    let whole = clock_text(left);
    if left.as_secs() < 3600 {
        format!("{whole}.{}", left.subsec_millis() / 100)
    } else {
        whole
    }
}

/// A length of time in seconds, as a byo-yomi period is given: `30`, `0.5`.
pub fn format_seconds(time: Duration) -> String {
    let millis = time.as_millis();
    if millis % 1000 == 0 {
        (millis / 1000).to_string()
    } else {
        format!("{}", time.as_secs_f64())
    }
}

/// The connection and what the interpreter knows of the server: the account, the game
/// on the table, the requests not answered yet.
pub struct Link {
    /// The connection.
    pub remote: Remote,
    /// Whether the connection is made.
    pub connected: bool,
    /// The account logged in, if any.
    pub account: Option<String>,
    /// The game played or watched, if any.
    pub table: Option<Table>,
    /// The requests sent and not answered yet, oldest first (the server answers in order).
    pub awaited: VecDeque<Awaited>,
}

impl Link {
    /// A link that starts connecting to `target`.
    pub fn connect(target: Target, home: &Path, notify: Notify) -> Link {
        Link {
            remote: Remote::connect(target, home, notify),
            connected: false,
            account: None,
            table: None,
            awaited: VecDeque::new(),
        }
    }

    /// Sends a request that `awaited` answers.
    pub fn request(&mut self, message: ClientMessage, awaited: Awaited) {
        if self.remote.send(message) {
            self.awaited.push_back(awaited);
        }
    }

    /// Whether the server is waited for: to connect, or to answer a request. (The
    /// interpreter also waits for the other side's move, which it knows from its board.)
    pub fn waiting(&self) -> bool {
        !self.connected || !self.awaited.is_empty()
    }

    /// Takes the request that `message` answers off the queue; answers it.
    pub fn answered(&mut self, message: &ServerMessage) -> Option<Awaited> {
        let first = self.awaited.front()?;
        if first.answered_by(message) {
            self.awaited.pop_front()
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_read() {
        assert_eq!(
            Target::parse(None),
            Ok(Target::Local { port: DEFAULT_PORT })
        );
        assert_eq!(
            Target::parse(Some("LocalHost:9000")),
            Ok(Target::Local { port: 9000 })
        );
        assert_eq!(
            Target::parse(Some("example.org")),
            Ok(Target::Host {
                host: "example.org".into(),
                port: DEFAULT_PORT
            })
        );
        assert_eq!(
            Target::parse(Some("[::1]:77")),
            Ok(Target::Host {
                host: "::1".into(),
                port: 77
            })
        );
        assert_eq!(
            Target::parse(Some("fe80::1")).map(|t| t.to_string()),
            Ok(format!("[fe80::1]:{DEFAULT_PORT}"))
        );
        for bad in ["host:", "host:x", "host:0", ":80", "[::1", "[::1]x"] {
            assert!(Target::parse(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_read() {
        assert_eq!(format_clock(Duration::from_millis(298_250)), "4:58.2");
        assert_eq!(format_clock(Duration::from_millis(3_723_000)), "1:02:03");
        assert_eq!(format_clock(Duration::ZERO), "0:00.0");
        let day = 86_400_000;
        assert_eq!(format_clock(Duration::from_millis(3 * day)), "3d 00:00:00");
        assert_eq!(
            format_clock(Duration::from_millis(2 * day + 43_198_900)),
            "2d 11:59:58"
        );
        assert_eq!(format_seconds(Duration::from_secs(30)), "30");
        assert_eq!(format_seconds(Duration::from_millis(2500)), "2.5");
    }
}
