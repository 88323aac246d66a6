//! The interpreter: rules, game, players, language and data directories, and the
//! commands that change them (SPEC 6.4).
//!
//! # The seam between the interpreter and its front ends
//!
//! The interpreter knows no front end. A front end (the command line in [`crate::cli`],
//! the X window through [`crate::window`], and any later one) does four things only:
//!
//! 1. it hands over each command as words with [`Session::run_command`], saying where it
//!    came from ([`Source`]), and shows the [`Reply`]: its lines, the last one an error
//!    when `failed`;
//! 2. it obeys the reply's [`Action`]: go on, quit, or switch front end (`x` asks to
//!    open the window, `x` typed in the window asks to leave it); the front end that
//!    owns the loop makes the switch;
//! 3. it lets the computer play: [`Session::start_computer`] when nothing else is to
//!    run, and [`Session::poll_thinker`] whenever the [`Notify`] given to
//!    [`Session::set_notify`] is called from the search thread;
//! 4. it may stop the search ([`Session::stop_thinking`], the `f` command) and read what
//!    it is doing ([`Session::search_progress`]).
//!
//! Everything else (files, messages, the board as text) is behind the session.

use std::path::Path;
use std::time::Duration;

use aim::{Limits, MAX_DEPTH};
use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{EndReason, Game, Move, Notation, PieceType, Player, Rules, Undo};

use crate::board;
use crate::data::{DataDirs, Found, LookupError, Origin};
use crate::files;
use crate::lang::{Key, Language, Message};
use crate::messages::{self, Naming};
use crate::net::protocol::{ClientMessage, ClockSpec, GameSummary, OfferKind, ServerMessage};
use crate::net::remote::{self, Awaited, Link, Table, Target};
use crate::thinker::{Event, Notify, Purpose, Thinker};

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
    /// An rc file: restricted (SPEC 6.2).
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
pub const COMPUTER_PACE: std::time::Duration = std::time::Duration::from_millis(800);

/// A player's setting.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// Moves typed or clicked.
    Human,
    /// The computer, with its limits and the words they were given as.
    Computer(Limits, Vec<String>),
}

impl PlayerKind {
    /// The words a saved game keeps: `human`, or `computer` and the limit words.
    pub fn words(&self) -> Vec<String> {
        match self {
            PlayerKind::Human => vec!["human".to_owned()],
            PlayerKind::Computer(_, words) => std::iter::once("computer".to_owned())
                .chain(words.iter().cloned())
                .collect(),
        }
    }

    /// Reads the words of [`PlayerKind::words`]; no words at all is a human (a saved
    /// game without `player` records). `Err` says what is wrong.
    pub fn from_words(words: &[String]) -> Result<PlayerKind, Message> {
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

/// Reads limit words, refusing a depth the engine cannot search.
fn read_limits(words: &[&str]) -> Result<Limits, Message> {
    let limits =
        Limits::from_words(words).map_err(|error| Message::new(Key::CmdBadLimits, [error.0]))?;
    match limits.depth {
        Some(depth) if depth > MAX_DEPTH => Err(Message::new(
            Key::CmdTooDeep,
            [depth.to_string(), MAX_DEPTH.to_string()],
        )),
        _ => Ok(limits),
    }
}

/// How a computer player's limits read in a message: `level 3 (1.5 s a move)`,
/// `depth 4, 10 s a move`.
fn describe_limits(language: &Language, limits: &Limits) -> String {
    let seconds = |time: Duration| {
        let text = format!("{:.2}", time.as_secs_f64());
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    let mut parts = Vec::new();
    let level = match (limits.level, limits.depth, limits.time, limits.nodes) {
        (Some(level), _, _, _) => Some(level),
        // No limit at all plays at the default level.
        (None, None, None, None) => Some(aim::DEFAULT_LEVEL),
        _ => None,
    };
    match (level, limits.move_time()) {
        (Some(level), Some(time)) if limits.time.is_none() => parts.push(language.text(
            &Message::new(Key::LimitLevelTime, [level.to_string(), seconds(time)]),
        )),
        (Some(level), _) => {
            parts.push(language.text(&Message::new(Key::LimitLevel, [level.to_string()])))
        }
        (None, _) => {}
    }
    if let Some(depth) = limits.depth {
        parts.push(language.text(&Message::new(Key::LimitDepth, [depth.to_string()])));
    }
    if let Some(time) = limits.time {
        parts.push(language.text(&Message::new(Key::LimitTime, [seconds(time)])));
    }
    if let Some(nodes) = limits.nodes {
        parts.push(language.text(&Message::new(Key::LimitNodes, [nodes.to_string()])));
    }
    if let Some(threads) = limits.threads {
        parts.push(language.text(&Message::new(Key::LimitThreads, [threads.to_string()])));
    }
    parts.join(", ")
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
pub type Outcome = Result<(), Message>;

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
    /// The connection to a game server (`c`), and the game there: the one seam between
    /// a local game and a remote one, whose moves the server referees.
    link: Option<Link>,
}

/// What the computer's running search is doing, for a progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchProgress {
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
            link: None,
        }
    }

    /// Sets how output looks: ANSI colours in the board, the board after every move,
    /// Latin-1 text in X.
    pub fn set_display(&mut self, colour: bool, auto_board: bool, latin1: bool) {
        self.colour = colour;
        self.auto_board = auto_board;
        self.latin1 = latin1;
    }

    /// Sets what the arguments and environment settled (a language that loaded from
    /// `-l` locks `l` in the rc file).
    pub fn set_locks(&mut self, locks: Locks) {
        self.locks = locks;
    }

    /// Sets what the search thread calls when it has news.
    pub fn set_notify(&mut self, notify: Notify) {
        if let Ok(mut now) = self.notify_now.lock() {
            *now = notify.clone();
        }
        self.notify = notify;
    }

    /// What the search thread calls now.
    pub fn notify(&self) -> Notify {
        self.notify.clone()
    }

    /// Sets where the next commands come from (the X window sets [`Source::X`] while it
    /// runs, so that replies are one line).
    pub fn set_source(&mut self, source: Source) {
        self.source = source;
    }

    /// Whether messages are drawn as Latin-1 in X (`-s`).
    pub fn latin1(&self) -> bool {
        self.latin1
    }

    /// The language in use.
    pub fn language(&self) -> &Language {
        &self.language
    }

    /// A message in the language in use.
    pub fn text(&self, message: &Message) -> String {
        self.language.text(message)
    }

    /// The data directories.
    pub fn dirs(&self) -> &DataDirs {
        &self.dirs
    }

    /// The game, once rules are loaded.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The players' settings.
    pub fn players(&self) -> &[PlayerKind; 2] {
        &self.players
    }

    /// Whether a search is running.
    pub fn is_thinking(&self) -> bool {
        self.thinker.is_busy()
    }

    /// Whether the running search, if any, has no clock and no node limit: only its
    /// depth bounds it, so it may run for a very long time.
    pub fn search_unbounded(&self) -> bool {
        self.thinker.is_busy() && self.thinker.budget().is_none() && !self.thinker.has_node_limit()
    }

    /// How long the running search has been going.
    pub fn search_elapsed(&self) -> Duration {
        self.thinker.elapsed()
    }

    /// The best move the last analysis found, while the game is still in the position it
    /// analysed.
    pub fn analysed_move(&self) -> Option<Move> {
        let game = self.game.as_ref()?;
        self.analysis
            .filter(|&(_, ply, hash)| ply == game.ply() && hash == game.position().hash())
            .map(|(mv, ..)| mv)
    }

    /// The fraction of the computer's budget its running search has used, for the
    /// window's progress bar.
    pub fn thinking_fraction(&self) -> Option<f32> {
        self.thinker
            .fraction()
            .filter(|_| self.thinker.purpose() == Some(Purpose::Play))
    }

    /// What the computer's running search is doing; `None` when it does not think.
    pub fn search_progress(&self) -> Option<SearchProgress> {
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
    fn naming(&self) -> Naming {
        match self.source {
            Source::X => Naming::Board,
            Source::Stdin | Source::Rc => Naming::Both,
        }
    }

    /// Runs one command (its words as parsed).
    pub fn run_command(&mut self, words: &[String], source: Source) -> Reply {
        self.source = source;
        if let Some(link) = &mut self.link {
            if let Some((name, register)) = link.secret_for.take() {
                // The line after `login` or `register` is the password, never a command.
                let password = words.join(" ");
                let message = match register {
                    true => ClientMessage::Register { name, password },
                    false => ClientMessage::Login { name, password },
                };
                link.request(message, Awaited::Login);
                return Reply::default();
            }
        }
        self.apply(|session| session.dispatch(words, source))
    }

    /// Runs a line that was read as typed, without the command syntax, because the line
    /// before it asked for a password ([`Session::secret_follows`]): a password may hold
    /// quotes, `#` and backslashes. If the session wants no password after all (the
    /// `login` failed: no server), the line is read as a command.
    pub fn run_secret(&mut self, text: &str, source: Source) -> Reply {
        if let Some(link) = &mut self.link {
            if link.secret_for.is_some() {
                return self.run_command(&[text.to_owned()], source);
            }
        }
        match gleipnir::parse(text.as_bytes()) {
            Ok(lines) => {
                let words: Vec<String> = lines.into_iter().flat_map(|line| line.words).collect();
                self.run_command(&words, source)
            }
            Err(error) => {
                let input = match source {
                    Source::X => "X",
                    Source::Stdin | Source::Rc => "stdin",
                };
                self.apply(|_| Err(Message::new(Key::FrSyntax, [input, &error.to_string()])))
            }
        }
    }

    /// Whether the line after `words` is a password, to be read as typed
    /// ([`Session::run_secret`]): after `login <name>` and `register <name>`.
    pub fn secret_follows(words: &[String]) -> bool {
        matches!(words, [command, _] if command == ACCOUNT_LOGIN || command == ACCOUNT_REGISTER)
    }

    /// Whether the next line is a password (after `login` or `register`): a terminal
    /// should not echo it.
    pub fn wants_secret(&self) -> bool {
        self.link
            .as_ref()
            .is_some_and(|link| link.secret_for.is_some())
    }

    /// Whether the session waits for something: the computer's search, or the game
    /// server (to connect, to answer a request, for the other side's move, or, when
    /// watching, for the game's end). A script's commands wait while it does.
    pub fn is_busy(&self) -> bool {
        self.thinker.is_busy()
            || self.link.as_ref().is_some_and(|link| {
                link.waiting()
                    || link.table.as_ref().is_some_and(|table| {
                        let to_move = self.game.as_ref().map(|g| g.side_to_move().index());
                        table.result.is_none()
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
    pub fn network_game(&self) -> Option<NetworkGame> {
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

    fn say(&mut self, message: Message) {
        let text = self.text(&message);
        self.out.push(text);
    }

    fn dispatch(&mut self, words: &[String], source: Source) -> Outcome {
        let Some((command, args)) = words.split_first() else {
            return Ok(());
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let locked = match command.as_str() {
            "e" => self.locks.saved,
            "d" => self.locks.data,
            "l" => self.locks.lang,
            "r" => self.locks.rules,
            _ => false,
        };
        if source == Source::Rc {
            if command == "w" {
                return Err(Message::new(Key::CmdRcForbidden, [command.as_str()]));
            }
            if locked {
                self.say(Message::new(Key::CmdRcIgnored, [command.as_str()]));
                return Ok(());
            }
        }
        let origin = if source == Source::Rc {
            Origin::Indirect
        } else {
            Origin::Typed
        };
        if let ("r" | "l" | "d" | "e" | "w" | "x", [""]) = (command.as_str(), args.as_slice()) {
            return Err(Message::new(Key::CmdEmptyName, [command.as_str()]));
        }
        match (command.as_str(), args.as_slice()) {
            ("h", []) => self.help(None),
            ("h", [topic]) => self.help(Some(topic)),
            ("m", [_, ..]) if self.at_table() => self.net_move(&args),
            ("m", [_, ..]) => self.command_move(&args),
            ("b", []) => self.command_board(),
            ("p", []) => {
                self.list_players();
                Ok(())
            }
            ("p", [player, kind, limits @ ..]) => self.command_player(player, kind, limits),
            ("f", []) => self.command_force(),
            ("a", limits) => self.command_analyse(limits),
            ("u", []) if self.at_table() => self.command_offer(OfferKind::Undo),
            ("u", []) => self.command_undo(None),
            ("u", [count]) => self.command_undo(Some(count)),
            ("n" | "r" | "e", [..]) if self.at_table() => {
                // A local game replaces the network one, which goes on on the server.
                self.leave_table();
                self.dispatch(words, source)
            }
            ("n", []) => self.command_new(),
            ("r", [file]) => self.load_rules(file, origin),
            ("l", [file]) => self.load_language(file, origin),
            ("d", [path]) => self.command_data_dir(path, source),
            ("e", [path]) => self.load_saved(path),
            ("w", [path]) => self.save(path),
            ("x", []) => self.command_x(None),
            ("x", [theme]) => self.command_x(Some(theme)),
            ("q", []) => {
                self.action = Action::Quit;
                Ok(())
            }
            ("c", []) => self.command_connect(None),
            ("c", [target]) => self.command_connect(Some(target)),
            (ACCOUNT_LOGIN, [name]) => self.command_account(name, false),
            (ACCOUNT_REGISTER, [name]) => self.command_account(name, true),
            ("games", []) => self.net_request(ClientMessage::Games, Awaited::Games),
            ("archive", []) => self.net_request(ClientMessage::Archive, Awaited::Archive),
            ("fetch", [game, path]) => {
                let game = parse_game(game)?;
                let path = (*path).to_owned();
                self.net_request(ClientMessage::Fetch { game }, Awaited::Fetch(path))
            }
            ("new", [rules]) => self.command_net_new(rules, None),
            ("new", [rules, clock]) => self.command_net_new(rules, Some(clock)),
            ("join", [game]) => {
                let game = parse_game(game)?;
                self.net_request(ClientMessage::Join { game }, Awaited::Game)
            }
            ("watch", [game]) => {
                let game = parse_game(game)?;
                self.net_request(ClientMessage::Watch { game }, Awaited::Game)
            }
            ("say", [_, ..]) => {
                let game = self.table_game()?;
                let text = args.join(" ");
                self.net_request(ClientMessage::Say { game, text }, Awaited::Say)
            }
            ("draw", []) => self.command_offer(OfferKind::Draw),
            ("accept", []) => self.command_answer(true),
            ("decline", []) => self.command_answer(false),
            ("resign", []) => {
                let game = self.table_game()?;
                self.net_request(ClientMessage::Resign { game }, Awaited::Resign)
            }
            (
                "h" | "m" | "b" | "p" | "f" | "u" | "n" | "r" | "l" | "d" | "e" | "w" | "x" | "q"
                | "c" | "login" | "register" | "games" | "archive" | "fetch" | "new" | "join"
                | "watch" | "say" | "draw" | "accept" | "decline" | "resign",
                _,
            ) => Err(Message::new(Key::CmdUsage, [command.as_str()])),
            ("", _) => Err(Message::plain(Key::CmdEmptyCommand)),
            _ => Err(Message::new(Key::CmdUnknown, [command.as_str()])),
        }
    }

    // ---- help ----

    const COMMANDS: [(&'static str, Key); 29] = [
        ("h", Key::HelpCmdH),
        ("m", Key::HelpCmdM),
        ("b", Key::HelpCmdB),
        ("p", Key::HelpCmdP),
        ("f", Key::HelpCmdF),
        ("a", Key::HelpCmdA),
        ("u", Key::HelpCmdU),
        ("n", Key::HelpCmdN),
        ("r", Key::HelpCmdR),
        ("l", Key::HelpCmdL),
        ("d", Key::HelpCmdD),
        ("e", Key::HelpCmdE),
        ("w", Key::HelpCmdW),
        ("x", Key::HelpCmdX),
        ("q", Key::HelpCmdQ),
        ("c", Key::HelpCmdC),
        ("login", Key::HelpCmdLogin),
        ("register", Key::HelpCmdRegister),
        ("games", Key::HelpCmdGames),
        ("new", Key::HelpCmdNew),
        ("join", Key::HelpCmdJoin),
        ("watch", Key::HelpCmdWatch),
        ("say", Key::HelpCmdSay),
        ("draw", Key::HelpCmdDraw),
        ("accept", Key::HelpCmdAccept),
        ("decline", Key::HelpCmdDecline),
        ("resign", Key::HelpCmdResign),
        ("archive", Key::HelpCmdArchive),
        ("fetch", Key::HelpCmdFetch),
    ];

    fn help(&mut self, topic: Option<&str>) -> Outcome {
        match topic {
            Some(topic) => {
                let key = Self::COMMANDS
                    .iter()
                    .find(|(name, _)| *name == topic)
                    .map(|&(_, key)| key)
                    .ok_or_else(|| Message::new(Key::CmdNoSuchCommand, [topic]))?;
                self.say(Message::plain(key));
                if topic == "b" && self.source != Source::X {
                    self.say(Message::plain(Key::HelpBoard));
                }
            }
            None if self.source == Source::X => {
                // Shorter than on the command line (no board key), but every command.
                self.say(Message::plain(Key::HelpX));
                for (_, key) in Self::COMMANDS {
                    self.say(Message::plain(key));
                }
                self.say(Message::plain(Key::XHelpWindow));
            }
            None => {
                self.say(Message::plain(Key::HelpIntro));
                for (_, key) in Self::COMMANDS {
                    self.say(Message::plain(key));
                }
                self.say(Message::plain(Key::HelpBoard));
            }
        }
        Ok(())
    }

    // ---- the game ----

    fn game_or_error(&self) -> Result<&Game, Message> {
        self.game
            .as_ref()
            .ok_or_else(|| Message::plain(Key::CmdNoRules))
    }

    /// The line that says whose turn it is, or who won and why.
    pub fn status(&self) -> String {
        match &self.game {
            None => self.language.get(Key::CmdNoRules),
            Some(game) => match game.outcome() {
                None => self.text(&Message::new(
                    Key::Turn,
                    [game.side_to_move().index().to_string()],
                )),
                Some(outcome) => {
                    let message = self.outcome_message(game, outcome);
                    self.text(&message)
                }
            },
        }
    }

    /// The message that says who won and why, or why the game is drawn.
    fn outcome_message(&self, game: &Game, outcome: hnefatafl_core::Outcome) -> Message {
        let piece = |piece| self.piece_name(game.rules(), piece);
        let Some(winner) = outcome.winner else {
            return match outcome.reason {
                EndReason::Repetition => Message::new(
                    Key::DrawRepetition,
                    [game
                        .rules()
                        .repetition()
                        .map_or(0, |rule| rule.count)
                        .to_string()],
                ),
                EndReason::NoCapture => Message::new(
                    Key::DrawNoCapture,
                    [game.rules().draw_plies().unwrap_or(0).to_string()],
                ),
                _ => Message::plain(Key::DrawNoWin),
            };
        };
        let loser = winner.opponent().index().to_string();
        let winner = winner.index().to_string();
        match outcome.reason {
            EndReason::Escape(type_) => Message::new(Key::WinEscape, [winner, piece(type_)]),
            EndReason::CaptureLoss(type_) => {
                Message::new(Key::WinCaptureLoss, [winner, loser, piece(type_)])
            }
            EndReason::ExitFort(type_) => Message::new(Key::WinExitFort, [winner, piece(type_)]),
            EndReason::Encircled => Message::new(Key::WinEncircled, [winner, loser]),
            EndReason::LosingSquare(type_) => {
                Message::new(Key::WinLosingSquare, [winner, loser, piece(type_)])
            }
            EndReason::Repetition => Message::new(
                Key::WinRepetition,
                [
                    winner,
                    game.rules()
                        .repetition()
                        .map_or(0, |rule| rule.count)
                        .to_string(),
                ],
            ),
            _ => Message::new(Key::WinNoMoves, [winner, loser]),
        }
    }

    /// A piece type as messages name it: the rule file's `name` (the usual English names
    /// translated by the language file, any other as a piece of that name: `black
    /// piece`), else its board letter.
    fn piece_name(&self, rules: &Rules, piece: PieceType) -> String {
        let Some(name) = rules.piece_name(piece) else {
            return rules.piece_letter(piece).to_string();
        };
        let key = match name {
            "king" => Key::PieceKing,
            "defender" => Key::PieceDefender,
            "attacker" => Key::PieceAttacker,
            _ => return self.language.text(&Message::new(Key::PieceNamed, [name])),
        };
        self.language.get(key)
    }

    fn after_move(&mut self) {
        if self.auto_board && self.source != Source::X {
            if let Some(game) = &self.game {
                let text = board::render(game, self.colour);
                self.out.push(text.trim_end().to_owned());
            }
        }
        // The window shows whose turn it is and the clocks in strips of their own.
        if self.source != Source::X {
            let status = self.status();
            self.out.push(status);
            self.show_clocks();
        }
    }

    /// The move that `words` name in the game at hand, which must not be over.
    fn move_in_game(&self, words: &[&str]) -> Result<Move, Message> {
        let game = self.game_or_error()?;
        if game.outcome().is_some() {
            return Err(Message::plain(Key::CmdGameOver));
        }
        game.rules().parse_move(words).map_err(|error| {
            Message::new(
                Key::CmdBadMove,
                [self.language.text(&messages::notation_message(&error))],
            )
        })
    }

    fn command_move(&mut self, words: &[&str]) -> Outcome {
        let mv = self.move_in_game(words)?;
        // The position must not change under a running search.
        if self.thinker.purpose() == Some(Purpose::Play) {
            self.thinker.cancel();
        }
        let naming = self.naming();
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| Message::plain(Key::CmdNoRules))?;
        let rules = game.rules().clone();
        let undo = match game.try_play(mv) {
            Ok(undo) => undo,
            Err(error) => {
                return Err(messages::move_message(
                    &self.language,
                    game,
                    mv,
                    &error,
                    naming,
                ));
            }
        };
        if let Some(line) = capture_line(&self.language, &rules, undo, false, naming) {
            self.out.push(line);
        }
        // An analysis of the position before the move has nothing left to tell, and would
        // keep the computer from answering the move until it ended.
        if self.thinker.purpose() == Some(Purpose::Analyse) {
            self.thinker.cancel();
        }
        self.after_move();
        Ok(())
    }

    fn command_board(&mut self) -> Outcome {
        let game = self.game_or_error()?;
        if self.source == Source::X {
            let status = self.status();
            self.out.push(status);
            return Ok(());
        }
        let text = board::render(game, self.colour);
        self.out.push(text.trim_end().to_owned());
        let status = self.status();
        self.out.push(status);
        self.show_clocks();
        Ok(())
    }

    fn list_players(&mut self) {
        for player in Player::BOTH {
            let message = self.player_message(player);
            self.say(message);
        }
    }

    fn player_message(&self, player: Player) -> Message {
        let index = player.index().to_string();
        match &self.players[player.index()] {
            PlayerKind::Human => Message::new(Key::PlayerHuman, [index]),
            PlayerKind::Computer(limits, _) => Message::new(
                Key::PlayerComputer,
                [index, describe_limits(&self.language, limits)],
            ),
        }
    }

    fn command_player(&mut self, player: &str, kind: &str, limits: &[&str]) -> Outcome {
        let player = player
            .parse::<usize>()
            .ok()
            .and_then(Player::from_index)
            .ok_or_else(|| Message::new(Key::CmdBadPlayer, [player]))?;
        let setting = match (kind, limits) {
            ("h", []) => PlayerKind::Human,
            ("c", words) => {
                let parsed = read_limits(words)?;
                PlayerKind::Computer(parsed, words.iter().map(|&word| word.to_owned()).collect())
            }
            _ => return Err(Message::new(Key::CmdUsage, ["p"])),
        };
        if self.thinker.purpose() == Some(Purpose::Play)
            && self
                .game
                .as_ref()
                .is_some_and(|game| game.side_to_move() == player)
        {
            self.thinker.cancel();
        }
        self.players[player.index()] = setting;
        let message = self.player_message(player);
        self.say(message);
        Ok(())
    }

    fn command_force(&mut self) -> Outcome {
        if !self.thinker.is_busy() {
            return Err(Message::plain(Key::CmdNotThinking));
        }
        self.thinker.stop();
        Ok(())
    }

    fn command_analyse(&mut self, words: &[&str]) -> Outcome {
        let game = self.game_or_error()?;
        if game.outcome().is_some() {
            return Err(Message::plain(Key::CmdGameOver));
        }
        let limits = read_limits(words)?;
        if self.thinker.is_busy() {
            return Err(Message::new(
                Key::Thinking,
                [game.side_to_move().index().to_string()],
            ));
        }
        let game = game.clone();
        self.thinker
            .start(&game, limits, Purpose::Analyse, self.notify.clone());
        Ok(())
    }

    fn command_undo(&mut self, count: Option<&str>) -> Outcome {
        let wanted = match count {
            None => None,
            Some(word) => Some(
                word.parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| Message::new(Key::CmdBadNumber, [word]))?,
            ),
        };
        let game = self.game_or_error()?;
        if game.ply() == 0 {
            return Err(Message::plain(Key::CmdNothingToUndo));
        }
        self.thinker.cancel();
        let players = self.players.clone();
        let Some(game) = self.game.as_mut() else {
            return Err(Message::plain(Key::CmdNoRules));
        };
        let mut undone = 0;
        match wanted {
            Some(count) => {
                while undone < count && game.undo().is_some() {
                    undone += 1;
                }
            }
            None => {
                // Back to the last position where a human was to move, when a human plays.
                let human_plays = players.contains(&PlayerKind::Human);
                while game.undo().is_some() {
                    undone += 1;
                    let human_to_move = players[game.side_to_move().index()] == PlayerKind::Human;
                    if !human_plays || human_to_move {
                        break;
                    }
                }
            }
        }
        let key = if undone == 1 {
            Key::UndoneOne
        } else {
            Key::Undone
        };
        self.say(Message::new(key, [undone.to_string()]));
        self.after_move();
        Ok(())
    }

    fn command_new(&mut self) -> Outcome {
        let rules = self.game_or_error()?.rules().clone();
        self.thinker.clear();
        self.game = Some(Game::new(rules));
        self.say(Message::plain(Key::NewGame));
        self.after_move();
        Ok(())
    }

    // ---- files ----

    fn lookup(&self, kind: &str, name: &str, origin: Origin) -> Result<(Found, Vec<u8>), Message> {
        self.dirs
            .read_named(kind, name, origin)
            .map_err(|error| messages::lookup_message(&self.language, name, &error))
    }

    /// Loads a rule file by lookup and starts a new game; on error nothing changes.
    pub fn load_rules(&mut self, name: &str, origin: Origin) -> Outcome {
        if name.is_empty() {
            return Err(Message::new(Key::CmdEmptyName, ["r"]));
        }
        let (found, bytes) = self.lookup("rules", name, origin)?;
        let rules =
            Rules::parse(&bytes).map_err(|error| messages::rules_message(&found, &error))?;
        self.thinker.clear();
        self.say(Message::new(
            Key::RulesLoaded,
            [rules.name().to_owned(), found.to_string()],
        ));
        self.game = Some(Game::new(rules));
        self.rules_file = name.to_owned();
        self.after_move();
        Ok(())
    }

    /// Loads a language file by lookup; on error the language stays.
    pub fn load_language(&mut self, name: &str, origin: Origin) -> Outcome {
        if name.is_empty() {
            return Err(Message::new(Key::CmdEmptyName, ["l"]));
        }
        let (found, bytes) = self.lookup("lang", name, origin)?;
        let language = Language::parse(&bytes).map_err(|error| {
            // The line goes before the message, as in every `file:line: message`.
            let reason = error.to_string();
            let reason = error
                .line()
                .and_then(|line| reason.strip_prefix(&format!("line {line}: ")))
                .unwrap_or(&reason)
                .to_owned();
            Message::new(Key::FrLang, [messages::place(&found, error.line()), reason])
        })?;
        self.language = language;
        self.say(Message::new(Key::LangLoaded, [name]));
        Ok(())
    }

    fn command_data_dir(&mut self, path: &str, source: Source) -> Outcome {
        let dir = Path::new(path);
        if !dir.is_dir() {
            return Err(Message::new(Key::FrNotDir, [path]));
        }
        match source {
            Source::Rc => self.dirs.rc = Some(dir.to_owned()),
            Source::Stdin | Source::X => self.dirs.user = Some(dir.to_owned()),
        }
        self.say(Message::new(Key::DataDir, [path]));
        Ok(())
    }

    /// Loads a saved game from a path (as given); on error nothing changes. Every
    /// refusal names the file, and the line where there is one.
    pub fn load_saved(&mut self, path: &str) -> Outcome {
        if path.is_empty() {
            return Err(Message::new(Key::CmdEmptyName, ["e"]));
        }
        let bytes = files::read(Path::new(path))
            .map_err(|error| messages::read_message(&self.language, path, &error))?;
        let refused = |at: String, reason: String| Message::new(Key::FrSave, [at, reason]);
        if crate::otg::is_otg(path) {
            let current = self.game.as_ref().map(|game| game.rules().clone());
            let game = crate::otg::read(&bytes, current.as_ref())
                .map_err(|reason| refused(path.to_owned(), reason))?;
            let (rules_file, players) = (self.rules_file.clone(), self.players.clone());
            return self.take_loaded(path, game, rules_file, players);
        }
        let parsed = if is_json(path) {
            serde_json::from_slice(&bytes).map_err(|error: serde_json::Error| {
                refused(format!("{path}:{}", error.line()), error.to_string())
            })
        } else {
            SavedGame::parse(&bytes).map_err(|error| match &error {
                hnefatafl_core::save::SaveError::Read { line, message } => {
                    refused(format!("{path}:{line}"), message.clone())
                }
                hnefatafl_core::save::SaveError::Syntax(syntax) => refused(
                    format!("{path}:{}", syntax.line()),
                    syntax.reason().to_owned(),
                ),
                _ => refused(path.to_owned(), error.to_string()),
            })
        };
        let saved = parsed?;
        let mut players = [PlayerKind::Human, PlayerKind::Human];
        for (index, (slot, words)) in players.iter_mut().zip(&saved.players).enumerate() {
            *slot = PlayerKind::from_words(words).map_err(|reason| {
                let at = match player_line(&bytes, index) {
                    Some(line) => format!("{path}:{line}"),
                    None => path.to_owned(),
                };
                refused(at, self.text(&reason))
            })?;
        }
        let rules = match self
            .dirs
            .read_named("rules", &saved.rules_file, Origin::Indirect)
        {
            Ok((found, bytes)) => {
                Rules::parse(&bytes).map_err(|error| messages::rules_message(&found, &error))?
            }
            Err(error) => match &self.game {
                Some(game) if game.rules().id() == saved.rules_id => game.rules().clone(),
                _ => {
                    let reason = match &error {
                        LookupError::NotFound => None,
                        LookupError::File(_, _) => Some(self.text(&messages::lookup_message(
                            &self.language,
                            &saved.rules_file,
                            &error,
                        ))),
                    };
                    return Err(match reason {
                        None => Message::new(
                            Key::FrSaveNoRules,
                            [path.to_owned(), saved.rules_file.clone()],
                        ),
                        Some(reason) => refused(path.to_owned(), reason),
                    });
                }
            },
        };
        if rules.id() != saved.rules_id {
            return Err(Message::new(
                Key::FrSaveRules,
                [
                    path.to_owned(),
                    saved.rules_id.clone(),
                    rules.id().to_owned(),
                ],
            ));
        }
        let game = saved
            .replay(&rules)
            .map_err(|error| refused(path.to_owned(), error.to_string()))?;
        self.take_loaded(path, game, saved.rules_file, players)
    }

    /// A loaded game replaces the current one.
    fn take_loaded(
        &mut self,
        path: &str,
        game: Game,
        rules_file: String,
        players: [PlayerKind; 2],
    ) -> Outcome {
        self.thinker.clear();
        let count = game.ply();
        self.game = Some(game);
        self.rules_file = rules_file;
        self.players = players;
        let key = if count == 1 {
            Key::LoadedOne
        } else {
            Key::Loaded
        };
        self.say(Message::new(key, [path.to_owned(), count.to_string()]));
        self.after_move();
        Ok(())
    }

    fn save(&mut self, path: &str) -> Outcome {
        let game = self.game_or_error()?;
        let players = [self.players[0].words(), self.players[1].words()];
        let text = if crate::otg::is_otg(path) {
            crate::otg::write(game)
                .map_err(|reason| Message::new(Key::FrWrite, [path.to_owned(), reason]))?
        } else {
            let saved = SavedGame::from_game(game, &self.rules_file, players);
            write_saved(path, &saved, game.rules())
        };
        files::write_atomically(Path::new(path), text.as_bytes())
            .map_err(|error| messages::write_message(&self.language, path, &error))?;
        self.say(Message::new(Key::Saved, [path]));
        Ok(())
    }

    // ---- the X window ----

    fn command_x(&mut self, theme: Option<&str>) -> Outcome {
        self.action = match self.source {
            Source::X => Action::LeaveX,
            Source::Stdin | Source::Rc => Action::EnterX(theme.map(str::to_owned)),
        };
        Ok(())
    }

    /// Back from the X window: a search started for the window reports to it, so it
    /// stops, and commands come from standard input again.
    pub fn left_window(&mut self, notify: Notify) {
        self.thinker.cancel();
        self.progress = None;
        self.set_notify(notify);
        self.source = Source::Stdin;
    }

    // ---- the network ----

    /// Whether a network game is played or watched: its moves go to the server.
    fn at_table(&self) -> bool {
        self.link.as_ref().is_some_and(|link| link.table.is_some())
    }

    fn link_or_error(&mut self) -> Result<&mut Link, Message> {
        self.link
            .as_mut()
            .ok_or_else(|| Message::plain(Key::NetNotConnected))
    }

    fn table_game(&self) -> Result<u64, Message> {
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
    fn leave_table(&mut self) {
        let Some(link) = &mut self.link else { return };
        if let Some(table) = link.table.take() {
            if table.result.is_none() {
                link.remote.send(ClientMessage::Leave { game: table.game });
                self.say(Message::new(Key::NetLeft, [table.game.to_string()]));
            }
        }
    }

    fn net_request(&mut self, message: ClientMessage, awaited: Awaited) -> Outcome {
        self.link_or_error()?.request(message, awaited);
        Ok(())
    }

    fn command_connect(&mut self, word: Option<&str>) -> Outcome {
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

    fn command_account(&mut self, name: &str, register: bool) -> Outcome {
        self.link_or_error()?.secret_for = Some((name.to_owned(), register));
        self.say(Message::new(Key::NetPassword, [name]));
        Ok(())
    }

    fn command_net_new(&mut self, rules: &str, clock: Option<&str>) -> Outcome {
        let clock = match clock {
            None => None,
            Some(word) => {
                Some(ClockSpec::parse(word).ok_or_else(|| Message::new(Key::NetBadClock, [word]))?)
            }
        };
        let message = ClientMessage::New {
            rules: rules.to_owned(),
            clock,
            side: 0,
            opponent: None,
            rated: false,
        };
        self.net_request(message, Awaited::Game)
    }

    /// A move at the network game: checked here when it is this side's turn, so that a
    /// bad one is explained at once; the server referees it and the move is played when
    /// it says so (`moved`).
    fn net_move(&mut self, words: &[&str]) -> Outcome {
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
        let text = format_move(game.rules(), mv);
        self.net_request(
            ClientMessage::Move {
                game: game_id,
                mv: text,
            },
            Awaited::Move(number),
        )
    }

    fn command_offer(&mut self, kind: OfferKind) -> Outcome {
        let game = self.table_game()?;
        self.net_request(ClientMessage::Offer { game, kind }, Awaited::Offer)
    }

    fn command_answer(&mut self, accept: bool) -> Outcome {
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
    fn show_clocks(&mut self) {
        let Some(clocks) = self.network_game().and_then(|game| game.clocks) else {
            return;
        };
        let [first, second] = clocks.map(remote::format_clock);
        self.say(Message::new(Key::NetClocks, [first, second]));
    }

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

    /// A player's name as listed: the account, or a word for a free seat.
    fn seat_name(&self, player: &Option<String>) -> String {
        player
            .clone()
            .unwrap_or_else(|| self.language.get(Key::NetFree))
    }

    fn summary_line(&self, summary: &GameSummary, archive: bool) -> String {
        let clock = summary
            .clock
            .map_or_else(|| self.language.get(Key::NetUntimed), |c| c.to_string());
        let mut args = vec![
            summary.game.to_string(),
            summary.rules_id.clone(),
            self.seat_name(&summary.players[0]),
            self.seat_name(&summary.players[1]),
            clock,
            summary.moves.to_string(),
        ];
        if archive {
            let result = summary
                .result
                .as_ref()
                .map(|result| self.result_text(summary.game, result))
                .unwrap_or_default();
            args.push(result);
            self.text(&Message::new(Key::NetArchiveLine, args))
        } else {
            self.text(&Message::new(Key::NetGameLine, args))
        }
    }

    /// How a game on the server ended, in words.
    fn result_text(&self, game: u64, result: &crate::net::protocol::GameResult) -> String {
        let reason = match result.reason.as_str() {
            "resigned" => self.language.get(Key::NetReasonResigned),
            "time" => self.language.get(Key::NetReasonTime),
            "draw agreed" => self.language.get(Key::NetReasonDraw),
            other => other.to_owned(),
        };
        let message = match result.winner {
            Some(winner) => Message::new(
                Key::NetEndedWin,
                [game.to_string(), winner.to_string(), reason],
            ),
            None => Message::new(Key::NetEndedDraw, [game.to_string(), reason]),
        };
        self.text(&message)
    }

    /// Whether a message from the server is about the game on the table.
    fn on_table(&self, game: u64) -> bool {
        self.link
            .as_ref()
            .and_then(|link| link.table.as_ref())
            .is_some_and(|table| table.game == game)
    }

    fn table_mut(&mut self) -> Option<&mut Table> {
        self.link.as_mut().and_then(|link| link.table.as_mut())
    }

    fn apply_server(&mut self, message: ServerMessage, answered: Option<Awaited>) {
        match message {
            ServerMessage::Welcome { .. } | ServerMessage::RulesList { .. } => {}
            // No command asks for ratings yet.
            ServerMessage::Leaderboard { .. } | ServerMessage::AccountRatings { .. } => {}
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
            ServerMessage::Joined { game, side, name } if self.on_table(game) => {
                if let Some(table) = self.table_mut() {
                    if let Some(seat) = table.players.get_mut(usize::from(side)) {
                        *seat = Some(name.clone());
                    }
                    // The clock of the side to move starts now.
                    table.set_clocks(None);
                }
                self.say(Message::new(
                    Key::NetJoined,
                    [side.to_string(), name, game.to_string()],
                ));
            }
            ServerMessage::Moved {
                game,
                number,
                side,
                mv,
                clocks,
            } if self.on_table(game) => self.take_move(number, side, &mv, clocks),
            ServerMessage::Undone {
                game,
                moves,
                clocks,
            } if self.on_table(game) => {
                let mut undone = 0;
                if let Some(local) = self.game.as_mut() {
                    while local.ply() > moves as usize && local.undo().is_some() {
                        undone += 1;
                    }
                }
                if let Some(table) = self.table_mut() {
                    table.set_clocks(clocks);
                }
                let key = if undone == 1 {
                    Key::UndoneOne
                } else {
                    Key::Undone
                };
                self.say(Message::new(key, [undone.to_string()]));
                self.after_move();
            }
            ServerMessage::Chat { game, from, text } if self.on_table(game) => {
                self.say(Message::new(Key::NetChat, [from, text]));
            }
            ServerMessage::Offered { game, kind, from } if self.on_table(game) => {
                let mine = self.link.as_ref().and_then(|link| link.account.as_deref())
                    == Some(from.as_str());
                if mine {
                    let what = self.offer_word(kind);
                    self.say(Message::new(Key::NetOfferSent, [what]));
                } else {
                    if let Some(table) = self.table_mut() {
                        table.open_offer = Some(kind);
                    }
                    let key = match kind {
                        OfferKind::Undo => Key::NetOfferedUndo,
                        OfferKind::Draw => Key::NetOfferedDraw,
                    };
                    self.say(Message::new(key, [from]));
                }
            }
            ServerMessage::Declined { game, kind } if self.on_table(game) => {
                if let Some(table) = self.table_mut() {
                    table.open_offer = None;
                }
                let what = self.offer_word(kind);
                self.say(Message::new(Key::NetDeclined, [what]));
            }
            ServerMessage::Ended { game, result } if self.on_table(game) => {
                let line = self.result_text(game, &result);
                if let Some(table) = self.table_mut() {
                    table.result = Some(result);
                    table.open_offer = None;
                    table.set_clocks(None);
                }
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

    fn offer_word(&self, kind: OfferKind) -> String {
        self.language.get(match kind {
            OfferKind::Undo => Key::NetKindUndo,
            OfferKind::Draw => Key::NetKindDraw,
        })
    }

    /// A game from the server (created, joined or watched) replaces the local one.
    fn take_table(&mut self, state: crate::net::protocol::GameState) {
        let rules = match Rules::parse(state.rules_text.as_bytes()) {
            Ok(rules) => rules,
            Err(error) => {
                let found = Found::Embedded(format!("server:{}", state.summary.rules_id));
                let message = messages::rules_message(&found, &error);
                return self.say(message);
            }
        };
        let mut game = Game::new(rules.clone());
        for text in &state.moves {
            let words: Vec<&str> = text.split_whitespace().collect();
            let played = rules
                .parse_move(&words)
                .ok()
                .and_then(|mv| game.try_play(mv).ok().map(|_| ()));
            if played.is_none() {
                let reason = format!(
                    "move {} of game {}: {text}",
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
            rules_id: summary.rules_id.clone(),
            side: state.your_side,
            players: summary.players.clone(),
            clock: summary.clock,
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
    fn take_move(&mut self, number: u32, side: u8, text: &str, clocks: Option<[u64; 2]>) {
        if let Some(table) = self.table_mut() {
            table.set_clocks(clocks);
        }
        let mine = self
            .link
            .as_ref()
            .and_then(|link| link.table.as_ref())
            .is_some_and(|table| table.side == Some(side));
        let naming = self.naming();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if number as usize != game.ply() + 1 {
            return;
        }
        let rules = game.rules().clone();
        let words: Vec<&str> = text.split_whitespace().collect();
        let played = match rules.parse_move(&words) {
            Ok(mv) => match game.try_play(mv) {
                Ok(undo) => Ok(capture_line(&self.language, &rules, undo, !mine, naming)),
                Err(error) => Err(messages::move_message(
                    &self.language,
                    game,
                    mv,
                    &error,
                    naming,
                )),
            },
            Err(error) => Err(Message::new(
                Key::CmdBadMove,
                [self.language.text(&messages::notation_message(&error))],
            )),
        };
        match played {
            Ok(line) => {
                if let Some(line) = line {
                    self.out.push(line);
                }
                self.after_move();
            }
            Err(message) => self.say(message),
        }
    }

    // ---- the computer ----

    /// The limits of the computer to move, when a computer is to move in a game not over.
    fn computer_to_move(&self) -> Option<Limits> {
        let game = self.game.as_ref()?;
        if game.outcome().is_some() || self.at_table() {
            return None;
        }
        match &self.players[game.side_to_move().index()] {
            PlayerKind::Computer(limits, _) => Some(limits.clone()),
            PlayerKind::Human => None,
        }
    }

    /// Whether a computer is to move (and will think).
    pub fn computer_will_move(&self) -> bool {
        self.computer_to_move().is_some()
    }

    /// Starts the computer's search when a computer is to move and nothing runs yet.
    /// Returns whether a search was started.
    pub fn start_computer(&mut self) -> bool {
        if self.thinker.is_busy() {
            return false;
        }
        let (Some(limits), Some(game)) = (self.computer_to_move(), self.game.as_ref()) else {
            return false;
        };
        self.thinker
            .start(game, limits, Purpose::Play, self.notify.clone());
        true
    }

    /// Whether both players are the computer: a game that a person watching it (at a
    /// terminal, in the window) sees at [`COMPUTER_PACE`].
    pub fn computers_only(&self) -> bool {
        self.players
            .iter()
            .all(|player| matches!(player, PlayerKind::Computer(..)))
    }

    /// Asks the running search to move now (`f`).
    pub fn stop_thinking(&self) {
        self.thinker.stop();
    }

    /// Applies what the search reported since the last call; returns the lines to show.
    ///
    /// What came from the game server is applied here too: its thread calls the same
    /// [`Notify`], so a front end fetches the other side's moves as the computer's.
    pub fn poll_thinker(&mut self) -> Vec<String> {
        self.out.clear();
        while let Some(event) = self.thinker.poll() {
            self.apply_event(event);
        }
        while let Some(event) = self.link.as_ref().and_then(|link| link.remote.poll()) {
            self.apply_network(event);
        }
        std::mem::take(&mut self.out)
    }

    fn apply_event(&mut self, event: Event) {
        match event {
            Event::Progress(progress) => {
                if self.thinker.purpose() != Some(Purpose::Analyse) {
                    self.progress = Some(progress);
                    return;
                }
                let Some(game) = &self.game else { return };
                let seconds = progress.elapsed.as_secs_f64();
                let speed = if seconds > 0.0 {
                    (progress.nodes as f64 / seconds) as u64
                } else {
                    0
                };
                let pv = self.naming().line(game.rules(), &progress.pv);
                self.say(Message::new(
                    Key::AnalysisDepth,
                    [
                        progress.depth.to_string(),
                        progress.score.to_string(),
                        progress.nodes.to_string(),
                        speed.to_string(),
                        format!("{seconds:.2}"),
                        pv,
                    ],
                ));
            }
            Event::Done {
                result,
                purpose,
                ply,
                hash,
            } => {
                self.progress = None;
                let Some(game) = &self.game else { return };
                let current = game.ply() == ply && game.position().hash() == hash;
                match (purpose, result.best) {
                    (Purpose::Analyse, Some(best)) if current => {
                        self.analysis = Some((best, ply, hash));
                        let line = self.naming().move_text(game.rules(), best);
                        self.say(Message::new(
                            Key::AnalysisBest,
                            [line, result.score.to_string()],
                        ));
                    }
                    (Purpose::Analyse, _) => self.say(Message::plain(Key::AnalysisNone)),
                    (Purpose::Play, Some(best)) if current && self.computer_will_move() => {
                        let naming = self.naming();
                        let Some(game) = self.game.as_mut() else {
                            return;
                        };
                        let rules = game.rules().clone();
                        match game.try_play(best) {
                            Ok(undo) => {
                                let line = capture_line(&self.language, &rules, undo, true, naming);
                                self.out.push(line.unwrap_or_default());
                                self.after_move();
                            }
                            Err(error) => {
                                let message = messages::move_message(
                                    &self.language,
                                    game,
                                    best,
                                    &error,
                                    naming,
                                );
                                self.say(message);
                            }
                        }
                    }
                    (Purpose::Play, _) => {}
                }
            }
        }
    }

    /// Cancels any search (before quitting).
    pub fn shutdown(&mut self) {
        self.thinker.cancel();
    }
}

/// A network game as a front end shows it ([`Session::network_game`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkGame {
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
fn parse_game(word: &str) -> Result<u64, Message> {
    word.parse::<u64>()
        .map_err(|_| Message::new(Key::CmdBadNumber, [word]))
}

/// A move as `m` reads it back: `x1 y1 x2 y2`.
pub fn format_move(rules: &Rules, mv: Move) -> String {
    rules.format_move(mv, Notation::Numeric)
}

/// A move as the board names it: `e5-e7`.
pub fn algebraic_move(rules: &Rules, mv: Move) -> String {
    let from = rules.format_square(mv.from(), Notation::Algebraic);
    let to = rules.format_square(mv.to(), Notation::Algebraic);
    format!("{from}-{to}")
}

/// The line that shows a move played: always for the computer's move (`m 4 6 4 8
/// (e5-e7)`, in the window `m e5 e7`), for a human's only when it captured; with what it
/// captured (`: captures d8, f8`).
fn capture_line(
    language: &Language,
    rules: &Rules,
    undo: &Undo,
    always: bool,
    naming: Naming,
) -> Option<String> {
    let captured: Vec<String> = undo
        .captures()
        .map(|(square, _)| rules.format_square(square, Notation::Algebraic))
        .collect();
    let played = format!("m {}", naming.move_text(rules, undo.mv()));
    if captured.is_empty() {
        return always.then_some(played);
    }
    Some(language.text(&Message::new(
        Key::MoveCaptures,
        [played, captured.join(", ")],
    )))
}

/// Whether a saved game's path names the JSON form (`.json`) rather than the text one.
fn is_json(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"))
}

/// Writes a saved game in the form its path names.
fn write_saved(path: &str, saved: &SavedGame, rules: &Rules) -> String {
    if is_json(path) {
        // A SavedGame is plain strings, numbers and lists: it always serializes.
        let mut text = serde_json::to_string_pretty(saved).unwrap_or_default();
        text.push('\n');
        text
    } else {
        saved.to_text(rules)
    }
}

/// The line of a saved game's `player <index>` record, to name it in an error.
fn player_line(text: &[u8], index: usize) -> Option<u32> {
    let wanted = index.to_string();
    gleipnir::parse(text).ok()?.into_iter().find_map(|line| {
        (line.words.first().map(String::as_str) == Some("player")
            && line.words.get(1) == Some(&wanted))
        .then_some(line.number)
    })
}
