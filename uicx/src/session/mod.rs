//! The interpreter: rules, game, players, language and data directories, and the
//! commands that change them (docs/manual.md, "Commands").
//!
//! # The seam between the interpreter and its front ends
//!
//! The interpreter knows no front end. A front end (the command line in [`crate::cli`],
//! the X window through `crate::window_host`, and any later one) does four things only:
//!
//! 1. it hands over each command as words with [`Session::run_command`], saying where it
//!    came from ([`Source`]), and shows the [`Reply`]: its lines, the last one an error
//!    when `failed`;
//! 2. it obeys the reply's [`Action`]: go on, quit, or switch front end (`x` asks to
//!    open the window, `x` typed in the window asks to leave it); the front end that
//!    owns the loop makes the switch;
//! 3. it lets the computer play: `Session::start_computer` when nothing else is to
//!    run, and `Session::poll` whenever the `Notify` given to
//!    `Session::set_notify` is called from the search thread;
//! 4. it may stop the search (`Session::stop_thinking`, the `f` command) and read what
//!    it is doing (`Session::search_progress`).
//!
//! Everything else (files, messages, the board as text) is behind the session. What the
//! front ends show differently is said once, in the `frontend` module's `Frontend`
//! trait, never by testing where a command came from.
//!
//! The session's jobs live in modules of their own: `commands` (the table of commands,
//! which dispatches them and makes their help), `game`, `loading` (files), `computer`,
//! `network` (the client's side of a game on a server) and `words` (output wording).

use std::time::Duration;

use aim::Limits;
use hnefatafl_core::{Game, Move, Player};

use crate::data::DataDirs;
use crate::lang::{Key, Language, Message};
use crate::messages::Naming;
use crate::online::protocol::ClientMessage;
use crate::online::remote::{Awaited, Link};
use crate::thinker::{Notify, Purpose, Thinker};

pub(crate) mod commands;
mod computer;
mod frontend;
mod game;
mod heat;
mod loading;
mod moderation;
mod network;
mod pane;
mod review;
mod server_says;
mod tournaments;
mod words;

pub(crate) use computer::{Shown, read_network};
use game::read_limits;
pub(crate) use network::NetworkGame;
use network::parse_game;
pub(crate) use review::{Mark, ReviewShown};
pub(crate) use words::algebraic_move;
use words::{capture_line, describe_limits};

/// The command that logs in to the game server; the line after it is the password.
const ACCOUNT_LOGIN: &str = "login";
/// The command that makes an account on the game server; the line after it is the
/// password.
const ACCOUNT_REGISTER: &str = "register";

/// Where a command comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// An rc file: restricted (docs/manual.md, "rc files").
    Rc,
    /// The X terminal: one line of output.
    X,
}

/// What the arguments and environment set, so the rc file leaves it alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct Locks {
    /// `-e` was given: `e` in the rc file is ignored.
    pub saved: bool,
    /// `-d` or `$HNEFATAFL_PATH`: `d` in the rc file is ignored.
    pub data: bool,
    /// `-l` or `$HNEFATAFL_LANG`: `l` in the rc file is ignored.
    pub lang: bool,
    /// `-r` or `$HNEFATAFL_RULES`: `r` in the rc file is ignored.
    pub rules: bool,
}

/// The least time between two moves of a game between two computers that a person
/// watches (at a terminal, in the window), so that it can be followed: the searches of
/// the weak levels end long before their time is up.
pub(crate) const COMPUTER_PACE: std::time::Duration = std::time::Duration::from_millis(800);

/// A player's setting.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PlayerKind {
    /// Moves typed or clicked.
    Human,
    /// The computer, with its limits and the words they were given as.
    Computer(Limits, Vec<String>),
}

impl PlayerKind {
    /// The words a saved game keeps: `human`, or `computer` and the limit words.
    pub(crate) fn words(&self) -> Vec<String> {
        match self {
            PlayerKind::Human => vec!["human".to_owned()],
            PlayerKind::Computer(_, words) => std::iter::once("computer".to_owned())
                .chain(words.iter().cloned())
                .collect(),
        }
    }

    /// Reads the words of [`PlayerKind::words`]; no words at all is a human (a saved
    /// game without `player` records). `Err` says what is wrong.
    pub(crate) fn from_words(words: &[String]) -> Result<PlayerKind, Message> {
        match words.split_first() {
            None => Ok(PlayerKind::Human),
            Some((first, [])) if first == "human" => Ok(PlayerKind::Human),
            Some((first, rest)) if first == "computer" => {
                let refs: Vec<&str> = rest.iter().map(String::as_str).collect();
                Ok(PlayerKind::Computer(read_limits(&refs)?, rest.to_vec()))
            }
            Some((first, _)) => Err(Message::new(Key::SaveBadPlayer, [first.as_str()])),
        }
    }
}

/// What the caller does after a command.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Action {
    /// Go on.
    #[default]
    Continue,
    /// Quit the program.
    Quit,
    /// Open the X window, with this theme (`x` typed at the command line or in an rc
    /// file); the front end that runs the loop opens it.
    EnterX(Option<String>),
    /// Leave the X window (`x` typed there).
    LeaveX,
}

/// A command's output.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The lines to show.
    pub lines: Vec<String>,
    /// Whether the command failed (its last line says why).
    pub failed: bool,
    /// What to do next.
    pub action: Action,
}

/// The result of a command: `Err` is the message that says why it failed.
pub(crate) type Outcome = Result<(), Message>;

/// Everything the program holds between commands.
pub struct Session {
    language: Language,
    dirs: DataDirs,
    game: Option<Game>,
    rules_file: String,
    players: [PlayerKind; 2],
    thinker: Thinker,
    locks: Locks,
    latin1: bool,
    colour: bool,
    auto_board: bool,
    notify: Notify,
    /// What [`Session::set_notify`] set last, shared with the connection's thread, so that
    /// a connection made at the command line wakes the window opened after it.
    notify_now: std::sync::Arc<std::sync::Mutex<Notify>>,
    out: Vec<String>,
    action: Action,
    source: Source,
    progress: Option<aim::Progress>,
    /// The last analysis's best move, with the ply and position key it is for.
    analysis: Option<(Move, usize, u64)>,
    /// The limits of the live analysis (`live`) that follows the game, which any key
    /// stops at a terminal.
    live: Option<Limits>,
    /// The analysis pane of the window.
    pane: pane::Pane,
    /// The heat map of the piece held in the window.
    heat: heat::Heat,
    /// The last review, for the window's review view.
    reviewed: Option<review::Reviewed>,
    /// The connection to a game server (`c`), and the game there: the one seam between
    /// a local game and a remote one, whose moves the server referees.
    link: Option<Link>,
    /// Whether the server of the link is a private one that this program started (its
    /// certificate needs no operator to vouch for it).
    started_server: bool,
    /// The account name of a `login` or `register` whose password is the next line, and
    /// whether it registers. Kept here, not on the link, so that the line is taken as a
    /// password (and never run or echoed) even when there is no connection to send it on.
    secret_for: Option<(String, bool)>,
    /// The file of the `upload` waiting for its answer, which names it.
    uploading: Option<String>,
    /// The network of the rule file in play, when it has one that fits its rules.
    network: Option<computer::RulesNetwork>,
}

/// What the computer's running search is doing, for a progress line.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SearchProgress {
    /// The player who thinks.
    pub player: Player,
    /// The deepest finished depth (0 before the first).
    pub depth: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The most time the move may take, when a clock bounds it.
    pub budget: Option<Duration>,
    /// The best move so far, as the board names it (`e5-e7`).
    pub best: Option<String>,
}

impl Session {
    /// A session with no rules and no language.
    pub fn new(dirs: DataDirs, locks: Locks) -> Session {
        Session {
            language: Language::none(),
            dirs,
            game: None,
            rules_file: String::new(),
            players: [PlayerKind::Human, PlayerKind::Human],
            thinker: Thinker::new(),
            locks,
            latin1: false,
            colour: false,
            auto_board: false,
            notify: std::sync::Arc::new(|| {}),
            notify_now: std::sync::Arc::new(std::sync::Mutex::new(std::sync::Arc::new(|| {}))),
            out: Vec::new(),
            action: Action::Continue,
            source: Source::Stdin,
            progress: None,
            analysis: None,
            live: None,
            pane: pane::Pane::default(),
            heat: heat::Heat::default(),
            reviewed: None,
            link: None,
            started_server: false,
            secret_for: None,
            uploading: None,
            network: None,
        }
    }

    /// Sets how output looks: ANSI colours in the board, the board after every move,
    /// Latin-1 text in X.
    pub(crate) fn set_display(&mut self, colour: bool, auto_board: bool, latin1: bool) {
        self.colour = colour;
        self.auto_board = auto_board;
        self.latin1 = latin1;
    }

    /// Sets what the arguments and environment settled (a language that loaded from
    /// `-l` locks `l` in the rc file).
    pub(crate) fn set_locks(&mut self, locks: Locks) {
        self.locks = locks;
    }

    /// Sets what the search thread calls when it has news.
    pub(crate) fn set_notify(&mut self, notify: Notify) {
        if let Ok(mut now) = self.notify_now.lock() {
            *now = notify.clone();
        }
        self.notify = notify;
    }

    /// What the search thread calls now.
    pub(crate) fn notify(&self) -> Notify {
        self.notify.clone()
    }

    /// Sets where the next commands come from (the X window sets [`Source::X`] while it
    /// runs, so that replies are one line).
    pub(crate) fn set_source(&mut self, source: Source) {
        self.source = source;
    }

    /// Whether messages are drawn as Latin-1 in X (`-s`).
    pub(crate) fn latin1(&self) -> bool {
        self.latin1
    }

    /// The language in use.
    pub(crate) fn language(&self) -> &Language {
        &self.language
    }

    /// A message in the language in use.
    pub(crate) fn text(&self, message: &Message) -> String {
        self.language.text(message)
    }

    /// The data directories.
    pub(crate) fn dirs(&self) -> &DataDirs {
        &self.dirs
    }

    /// The game, once rules are loaded.
    pub(crate) fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The players' settings.
    pub(crate) fn players(&self) -> &[PlayerKind; 2] {
        &self.players
    }

    /// Whether a search is running.
    pub(crate) fn is_thinking(&self) -> bool {
        self.thinker.is_busy()
    }

    /// Whether the running search, if any, has no clock and no node limit: only its
    /// depth bounds it, so it may run for a very long time.
    pub(crate) fn search_unbounded(&self) -> bool {
        self.thinker.is_busy() && self.thinker.budget().is_none() && !self.thinker.has_node_limit()
    }

    /// How long the running search has been going.
    pub(crate) fn search_elapsed(&self) -> Duration {
        self.thinker.elapsed()
    }

    /// The best move the last analysis found, while the game is still in the position it
    /// analysed.
    pub(crate) fn analysed_move(&self) -> Option<Move> {
        let game = self.game.as_ref()?;
        self.analysis
            .filter(|&(_, ply, hash)| ply == game.ply() && hash == game.position().hash())
            .map(|(mv, ..)| mv)
    }

    /// Whether a live analysis (`live`) runs: at a terminal any key stops it.
    pub(crate) fn live_analysis(&self) -> bool {
        self.live.is_some() && self.thinker.purpose() == Some(Purpose::Analyse)
    }

    /// The fraction of the computer's budget its running search has used, for the
    /// window's progress bar.
    pub(crate) fn thinking_fraction(&self) -> Option<f32> {
        self.thinker
            .fraction()
            .filter(|_| self.thinker.purpose() == Some(Purpose::Play))
    }

    /// What the computer's running search is doing; `None` when it does not think.
    pub(crate) fn search_progress(&self) -> Option<SearchProgress> {
        if self.thinker.purpose() != Some(Purpose::Play) {
            return None;
        }
        let game = self.game.as_ref()?;
        let best = self
            .progress
            .as_ref()
            .and_then(|progress| progress.pv.first())
            .map(|&mv| algebraic_move(game.rules(), mv));
        Some(SearchProgress {
            player: game.side_to_move(),
            depth: self.progress.as_ref().map_or(0, |progress| progress.depth),
            elapsed: self.thinker.elapsed(),
            budget: self.thinker.budget(),
            best,
        })
    }

    /// How output names squares and moves: by the board's names alone in the window,
    /// whose board shows them, and with the numbers `m` reads back elsewhere.
    pub(super) fn naming(&self) -> Naming {
        self.source.frontend().naming()
    }

    /// Runs one command (its words as parsed).
    pub fn run_command(&mut self, words: &[String], source: Source) -> Reply {
        self.source = source;
        if let Some((name, register)) = self.secret_for.take() {
            // The line after `login` or `register` is the password, never a command; with
            // no connection to send it on it is forgotten.
            let password = words.join(" ");
            let message = match register {
                true => ClientMessage::Register { name, password },
                false => ClientMessage::Login { name, password },
            };
            if let Some(link) = &mut self.link {
                link.request(message, Awaited::Login);
            }
            return Reply::default();
        }
        self.apply(|session| session.dispatch(words))
    }

    /// Runs a line that was read as typed, without the command syntax, because the line
    /// before it asked for a password ([`Session::secret_follows`]): a password may hold
    /// quotes, `#` and backslashes. If the session wants no password after all (the
    /// `login` had no name the server could take), the line is read as a command.
    pub(crate) fn run_secret(&mut self, text: &str, source: Source) -> Reply {
        if self.secret_for.is_some() {
            return self.run_command(&[text.to_owned()], source);
        }
        match gleipnir::parse(text.as_bytes()) {
            Ok(lines) => {
                let words: Vec<String> = lines.into_iter().flat_map(|line| line.words).collect();
                self.run_command(&words, source)
            }
            Err(error) => {
                let input = source.frontend().input_name();
                self.apply(|_| Err(Message::new(Key::FrSyntax, [input, &error.to_string()])))
            }
        }
    }

    /// Whether the line after `words` is a password, to be read as typed
    /// ([`Session::run_secret`]): after `login <name>` and `register <name>`.
    pub(crate) fn secret_follows(words: &[String]) -> bool {
        matches!(words, [command, _] if command == ACCOUNT_LOGIN || command == ACCOUNT_REGISTER)
    }

    /// Whether the next line is a password (after `login` or `register`): a terminal
    /// should not echo it.
    pub(crate) fn wants_secret(&self) -> bool {
        self.secret_for.is_some()
    }

    /// Whether the session waits for something: the computer's search, or the game
    /// server (to connect, to answer a request, for the other side's move unless an
    /// offer of theirs waits for an answer, or, when watching, for the game's end). A
    /// script's commands wait while it does.
    pub(crate) fn is_busy(&self) -> bool {
        self.thinker.is_busy()
            || self.link.as_ref().is_some_and(|link| {
                link.waiting()
                    || link.table.as_ref().is_some_and(|table| {
                        let to_move = self.game.as_ref().map(|g| g.side_to_move().index());
                        table.result.is_none()
                            && table.open_offer.is_none()
                            && (!table.running()
                                || table
                                    .side
                                    .is_none_or(|side| Some(usize::from(side)) != to_move))
                    })
            })
    }

    /// The network game on the table, for a front end to show: its number, this
    /// client's seat (`None` when watching), the players' accounts, each side's time
    /// left now (counting down the side to move) when timed, and whether it is over.
    /// `None` when no network game is played or watched. Whose turn it is comes from
    /// [`Session::game`].
    pub(crate) fn network_game(&self) -> Option<NetworkGame> {
        let table = self.link.as_ref()?.table.as_ref()?;
        let to_move = self
            .game
            .as_ref()
            .map_or(0, |g| g.side_to_move().index() as u8);
        Some(NetworkGame {
            game: table.game,
            side: table.side,
            players: table.players.clone(),
            clocks: table.clocks_now(to_move),
            over: table.result.is_some(),
        })
    }

    /// Runs one of the session's operations (e.g. [`Session::load_rules`]) as a command.
    pub fn apply(&mut self, operation: impl FnOnce(&mut Session) -> Outcome) -> Reply {
        self.out.clear();
        self.action = Action::Continue;
        let failed = match operation(self) {
            Ok(()) => false,
            Err(message) => {
                let text = self.text(&message);
                self.out.push(text);
                true
            }
        };
        Reply {
            lines: std::mem::take(&mut self.out),
            failed,
            action: std::mem::take(&mut self.action),
        }
    }

    pub(super) fn say(&mut self, message: Message) {
        let text = self.text(&message);
        self.out.push(text);
    }
}
