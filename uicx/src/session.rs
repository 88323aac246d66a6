//! The session: rules, game, players, language and data directories, and the commands
//! that change them (SPEC 6.4). The command line and the X window both drive it.

use std::io::Write;
use std::path::Path;

use aim::Limits;
use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{
    EndReason, Game, Move, MoveError, Notation, NotationError, Player, Rules, RulesErrorKind,
    Square,
};

use crate::board;
use crate::data::{DataDirs, Found, LookupError, Origin};
use crate::lang::{Key, Language, Message};
use crate::thinker::{Event, Notify, Purpose, Thinker};
use crate::x11::{self, BoardView, Flow, Waker, XExit, XHost, XOptions};

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

    /// Reads the words of [`PlayerKind::words`].
    pub fn from_words(words: &[String]) -> Option<PlayerKind> {
        match words.split_first() {
            Some((first, [])) if first == "human" => Some(PlayerKind::Human),
            Some((first, rest)) if first == "computer" => {
                let refs: Vec<&str> = rest.iter().map(String::as_str).collect();
                let limits = Limits::from_words(&refs).ok()?;
                Some(PlayerKind::Computer(limits, rest.to_vec()))
            }
            _ => None,
        }
    }
}

/// What the caller does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Action {
    /// Go on.
    #[default]
    Continue,
    /// Quit the program.
    Quit,
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
    out: Vec<String>,
    action: Action,
    source: Source,
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
            out: Vec::new(),
            action: Action::Continue,
            source: Source::Stdin,
        }
    }

    /// Sets how output looks: ANSI colours in the board, the board after every move,
    /// Latin-1 text in X.
    pub fn set_display(&mut self, colour: bool, auto_board: bool, latin1: bool) {
        self.colour = colour;
        self.auto_board = auto_board;
        self.latin1 = latin1;
    }

    /// Sets what the search thread calls when it has news.
    pub fn set_notify(&mut self, notify: Notify) {
        self.notify = notify;
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

    /// Runs one command (its words as parsed).
    pub fn run_command(&mut self, words: &[String], source: Source) -> Reply {
        self.source = source;
        self.apply(|session| session.dispatch(words, source))
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
            action: self.action,
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
        match (command.as_str(), args.as_slice()) {
            ("h", []) => self.help(None),
            ("h", [topic]) => self.help(Some(topic)),
            ("m", [_, ..]) => self.command_move(&args),
            ("b", []) => self.command_board(),
            ("p", []) => {
                self.list_players();
                Ok(())
            }
            ("p", [player, kind, limits @ ..]) => self.command_player(player, kind, limits),
            ("f", []) => self.command_force(),
            ("a", limits) => self.command_analyse(limits),
            ("u", []) => self.command_undo(None),
            ("u", [count]) => self.command_undo(Some(count)),
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
            (
                "h" | "m" | "b" | "p" | "f" | "u" | "n" | "r" | "l" | "d" | "e" | "w" | "x" | "q",
                _,
            ) => Err(Message::new(Key::CmdUsage, [command.as_str()])),
            _ => Err(Message::new(Key::CmdUnknown, [command.as_str()])),
        }
    }

    // ---- help ----

    const COMMANDS: [(&'static str, Key); 15] = [
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
            None if self.source == Source::X => self.say(Message::plain(Key::HelpX)),
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
                    let winner = outcome.winner.index().to_string();
                    let loser = outcome.winner.opponent().index().to_string();
                    let message = match outcome.reason {
                        EndReason::NoMoves => Message::new(Key::WinNoMoves, [winner, loser]),
                        EndReason::Escape(piece) => Message::new(
                            Key::WinEscape,
                            [winner, board::piece_letter(game.rules(), piece).to_string()],
                        ),
                        EndReason::CaptureLoss(piece) => Message::new(
                            Key::WinCaptureLoss,
                            [
                                winner,
                                loser,
                                board::piece_letter(game.rules(), piece).to_string(),
                            ],
                        ),
                        // A reason that core adds later reads as the plainest win.
                        _ => Message::new(Key::WinNoMoves, [winner, loser]),
                    };
                    self.text(&message)
                }
            },
        }
    }

    fn after_move(&mut self) {
        if self.auto_board && self.source != Source::X {
            if let Some(game) = &self.game {
                let text = board::render(game, self.colour);
                self.out.push(text.trim_end().to_owned());
            }
        }
        let status = self.status();
        self.out.push(status);
    }

    fn command_move(&mut self, words: &[&str]) -> Outcome {
        let game = self.game_or_error()?;
        if game.outcome().is_some() {
            return Err(Message::plain(Key::CmdGameOver));
        }
        let mv = game.rules().parse_move(words).map_err(|error| {
            Message::new(
                Key::CmdBadMove,
                [self.language.text(&notation_message(&error))],
            )
        })?;
        // The position must not change under a running search.
        if self.thinker.purpose() == Some(Purpose::Play) {
            self.thinker.cancel();
        }
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| Message::plain(Key::CmdNoRules))?;
        let rules = game.rules().clone();
        game.try_play(mv)
            .map_err(|error| move_message(&self.language, &rules, &error))?;
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
            PlayerKind::Computer(_, words) => {
                Message::new(Key::PlayerComputer, [index, words.join(" ")])
            }
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
                let parsed = Limits::from_words(words)
                    .map_err(|error| Message::new(Key::CmdBadLimits, [error.0]))?;
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
        let limits = Limits::from_words(words)
            .map_err(|error| Message::new(Key::CmdBadLimits, [error.0]))?;
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
        self.say(Message::new(Key::Undone, [undone.to_string()]));
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
            .map_err(|error| lookup_message(name, error))
    }

    /// Loads a rule file by lookup and starts a new game; on error nothing changes.
    pub fn load_rules(&mut self, name: &str, origin: Origin) -> Outcome {
        let (found, bytes) = self.lookup("rules", name, origin)?;
        let rules = Rules::parse(&bytes).map_err(|error| rules_message(&found, &error))?;
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
        let (found, bytes) = self.lookup("lang", name, origin)?;
        let language = Language::parse(&bytes)
            .map_err(|error| Message::new(Key::FrLang, [found.to_string(), error.to_string()]))?;
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

    /// Loads a saved game from a path (as given); on error nothing changes.
    pub fn load_saved(&mut self, path: &str) -> Outcome {
        let bytes = std::fs::read(path)
            .map_err(|error| Message::new(Key::FrIo, [path.to_owned(), error.to_string()]))?;
        let saved = SavedGame::parse(&bytes)
            .map_err(|error| Message::new(Key::FrSave, [path.to_owned(), error.to_string()]))?;
        let rules = match self
            .dirs
            .read_named("rules", &saved.rules_file, Origin::Indirect)
        {
            Ok((found, bytes)) => {
                Rules::parse(&bytes).map_err(|error| rules_message(&found, &error))?
            }
            Err(error) => match &self.game {
                Some(game) if game.rules().id() == saved.rules_id => game.rules().clone(),
                _ => return Err(lookup_message(&saved.rules_file, error)),
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
            .map_err(|error| Message::new(Key::FrSave, [path.to_owned(), error.to_string()]))?;
        let mut players = [PlayerKind::Human, PlayerKind::Human];
        for (slot, words) in players.iter_mut().zip(&saved.players) {
            *slot = PlayerKind::from_words(words)
                .ok_or_else(|| Message::new(Key::FrSave, [path.to_owned(), words.join(" ")]))?;
        }
        self.thinker.clear();
        let count = game.ply();
        self.game = Some(game);
        self.rules_file = saved.rules_file;
        self.players = players;
        self.say(Message::new(
            Key::Loaded,
            [path.to_owned(), count.to_string()],
        ));
        self.after_move();
        Ok(())
    }

    fn save(&mut self, path: &str) -> Outcome {
        let game = self.game_or_error()?;
        let players = [self.players[0].words(), self.players[1].words()];
        let text = SavedGame::from_game(game, &self.rules_file, players).to_text(game.rules());
        write_atomically(Path::new(path), text.as_bytes())
            .map_err(|error| Message::new(Key::FrWrite, [path.to_owned(), error.to_string()]))?;
        self.say(Message::new(Key::Saved, [path]));
        Ok(())
    }

    // ---- the X window ----

    fn command_x(&mut self, theme: Option<&str>) -> Outcome {
        if self.source == Source::X {
            self.action = Action::LeaveX;
            return Ok(());
        }
        match self.run_x(theme.map(str::to_owned))? {
            XExit::Quit => self.action = Action::Quit,
            XExit::Closed | XExit::LeaveX => self.say(Message::plain(Key::BackFromX)),
        }
        Ok(())
    }

    /// Opens the X window and runs it until it closes; `Err` is the FRX message.
    pub fn run_x(&mut self, theme: Option<String>) -> Result<XExit, Message> {
        let options = XOptions {
            theme,
            latin1: self.latin1,
        };
        let notify = self.notify.clone();
        let saved_out = std::mem::take(&mut self.out);
        let result = x11::run(self, &options);
        // A search started for the window reports to it: start afresh on the command line.
        self.thinker.cancel();
        self.notify = notify;
        self.out = saved_out;
        self.source = Source::Stdin;
        result.map_err(|error| Message::new(Key::Frx, [error.to_string()]))
    }

    // ---- the computer ----

    /// The limits of the computer to move, when a computer is to move in a game not over.
    fn computer_to_move(&self) -> Option<Limits> {
        let game = self.game.as_ref()?;
        if game.outcome().is_some() {
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

    /// Asks the running search to move now (`f`).
    pub fn stop_thinking(&self) {
        self.thinker.stop();
    }

    /// Applies what the search reported since the last call; returns the lines to show.
    pub fn poll_thinker(&mut self) -> Vec<String> {
        self.out.clear();
        while let Some(event) = self.thinker.poll() {
            self.apply_event(event);
        }
        std::mem::take(&mut self.out)
    }

    fn apply_event(&mut self, event: Event) {
        match event {
            Event::Progress(progress) => {
                if self.thinker.purpose() != Some(Purpose::Analyse) {
                    return;
                }
                let Some(game) = &self.game else { return };
                let seconds = progress.elapsed.as_secs_f64();
                let speed = if seconds > 0.0 {
                    (progress.nodes as f64 / seconds) as u64
                } else {
                    0
                };
                let pv = format_line(game.rules(), &progress.pv);
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
                let Some(game) = &self.game else { return };
                let current = game.ply() == ply && game.position().hash() == hash;
                match (purpose, result.best) {
                    (Purpose::Analyse, Some(best)) if current => {
                        let line = format_move(game.rules(), best);
                        self.say(Message::new(
                            Key::AnalysisBest,
                            [line, result.score.to_string()],
                        ));
                    }
                    (Purpose::Analyse, _) => self.say(Message::plain(Key::AnalysisNone)),
                    (Purpose::Play, Some(best)) if current && self.computer_will_move() => {
                        let Some(game) = self.game.as_mut() else {
                            return;
                        };
                        let rules = game.rules().clone();
                        match game.try_play(best) {
                            Ok(_) => {
                                self.out.push(format!("m {}", format_move(&rules, best)));
                                self.after_move();
                            }
                            Err(error) => {
                                let message = move_message(&self.language, &rules, &error);
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

    fn view_of(&self, game: &Game) -> BoardView {
        let rules = game.rules();
        let position = game.position();
        let count = rules.square_count();
        let mut view = BoardView {
            width: rules.width(),
            height: rules.height(),
            squares: Vec::with_capacity(count),
            pieces: Vec::with_capacity(count),
            owners: Vec::with_capacity(count),
            last_move: game
                .last_move()
                .and_then(|mv| rules.index(mv.from).zip(rules.index(mv.to))),
            side_to_move: game.side_to_move().index() as u8,
            status: self.status(),
            thinking: self
                .thinker
                .fraction()
                .filter(|_| self.thinker.purpose() == Some(Purpose::Play)),
        };
        for square in rules.squares() {
            view.squares.push(
                rules
                    .square_type(square)
                    .map_or(0, |kind| board::shown_square(rules, kind).bit()),
            );
            let piece = position.piece_at(square);
            view.pieces
                .push(piece.map_or(0, |piece| board::shown_piece(rules, piece).bit()));
            let owner = piece
                .and_then(|piece| rules.piece_rule(piece))
                .map(|rule| rule.owner());
            view.owners
                .push(owner.map_or(0, |owner| owner.index() as u8));
        }
        view
    }
}

impl XHost for Session {
    fn title(&self) -> String {
        match &self.game {
            Some(game) => format!("Hnefatafl: {}", game.rules().name()),
            None => "Hnefatafl".to_owned(),
        }
    }

    fn view(&self) -> BoardView {
        match &self.game {
            Some(game) => self.view_of(game),
            None => BoardView {
                status: self.status(),
                ..BoardView::default()
            },
        }
    }

    fn targets(&self, from: usize) -> Vec<usize> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        let rules = game.rules();
        let Some(from) = rules.square_of_index(from) else {
            return Vec::new();
        };
        if game.outcome().is_some()
            || self.players[game.side_to_move().index()] != PlayerKind::Human
        {
            return Vec::new();
        }
        game.legal_moves()
            .filter(|mv| mv.from == from)
            .filter_map(|mv| rules.index(mv.to))
            .collect()
    }

    fn execute(&mut self, line: &str) -> (String, Flow) {
        let words = match gleipnir::parse(line.as_bytes()) {
            Ok(lines) => lines
                .into_iter()
                .flat_map(|line| line.words)
                .collect::<Vec<_>>(),
            Err(error) => {
                let message = Message::new(Key::FrSyntax, ["X".to_owned(), error.to_string()]);
                return (self.text(&message), Flow::Continue);
            }
        };
        let reply = self.run_command(&words, Source::X);
        let text = reply.lines.last().cloned().unwrap_or_default();
        let flow = match reply.action {
            Action::Continue => Flow::Continue,
            Action::LeaveX => Flow::LeaveX,
            Action::Quit => Flow::Quit,
        };
        (text, flow)
    }

    fn poll(&mut self, wake: &Waker) -> Option<String> {
        self.notify = wake.clone();
        self.source = Source::X;
        let mut lines = self.poll_thinker();
        self.start_computer();
        lines.retain(|line| !line.is_empty());
        lines.pop()
    }

    fn read_data(&self, relative: &str) -> Option<Vec<u8>> {
        self.dirs.read(None, relative).ok().map(|(_, bytes)| bytes)
    }

    fn suggested_theme(&self) -> Option<String> {
        self.game
            .as_ref()
            .and_then(|game| game.rules().ui_theme().map(str::to_owned))
    }
}

/// A move as `m` reads it back: `x1 y1 x2 y2`.
pub fn format_move(rules: &Rules, mv: Move) -> String {
    rules.format_move(mv, Notation::Numeric)
}

fn format_line(rules: &Rules, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&mv| format_move(rules, mv))
        .collect::<Vec<_>>()
        .join(", ")
}

fn lookup_message(name: &str, error: LookupError) -> Message {
    match error {
        LookupError::NotFound => Message::new(Key::FrNotFound, [name]),
        LookupError::Io(path, error) => {
            Message::new(Key::FrIo, [path.display().to_string(), error.to_string()])
        }
    }
}

fn rules_message(found: &Found, error: &hnefatafl_core::RulesError) -> Message {
    match error.kind() {
        RulesErrorKind::Read => Message::new(
            Key::Rread,
            [
                found.to_string(),
                error.line().unwrap_or(0).to_string(),
                error.reason(),
            ],
        ),
        // The file and, where the rule is written, its line: `tablut.rules:7`.
        _ => {
            let place = match error.line() {
                Some(line) => format!("{found}:{line}"),
                None => found.to_string(),
            };
            Message::new(Key::Rvalid, [place, error.reason()])
        }
    }
}

fn notation_message(error: &NotationError) -> Message {
    match error {
        NotationError::WordCount => Message::plain(Key::NotationWordCount),
        NotationError::BadWord(word) => Message::new(Key::NotationBadWord, [word.as_str()]),
        NotationError::OutOfBoard(word) => Message::new(Key::NotationOutOfBoard, [word.as_str()]),
        // A kind that core adds later is shown in its own (English) words.
        other => Message::new(Key::NotationBadWord, [other.to_string()]),
    }
}

fn move_message(language: &Language, rules: &Rules, error: &MoveError) -> Message {
    let square = |square: &Square| rules.format_square(*square, Notation::Numeric);
    let reason = match error {
        MoveError::OutOfBoard(_) => Message::plain(Key::MoveOutOfBoard),
        MoveError::SameSquare => Message::plain(Key::MoveSameSquare),
        MoveError::NotStraight => Message::plain(Key::MoveNotStraight),
        MoveError::NoPiece => Message::plain(Key::MoveNoPiece),
        MoveError::NotYourPiece => Message::plain(Key::MoveNotYours),
        MoveError::Blocked(at) => Message::new(Key::MoveBlocked, [square(at)]),
        MoveError::CannotEnter(at) => Message::new(Key::MoveCannotEnter, [square(at)]),
        MoveError::NoReturn(at) => Message::new(Key::MoveNoReturn, [square(at)]),
        MoveError::Repetition => Message::plain(Key::MoveRepetition),
        MoveError::GameOver => Message::plain(Key::MoveGameOver),
        // A reason that core adds later is shown in its own (English) words.
        other => return Message::new(Key::CmdIllegalMove, [other.to_string()]),
    };
    Message::new(Key::CmdIllegalMove, [language.text(&reason)])
}

/// Writes a file atomically: a temporary file in the same directory, then a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|error| error.error)?;
    Ok(())
}
