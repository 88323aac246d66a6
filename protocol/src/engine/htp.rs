//! The Hnefatafl Text Protocol (HTP), engine side.
//!
//! The protocol of the hnefatafl-copenhagen engines (`src/message.rs` of that project):
//! one command a line, `#` starts a comment, blank lines are ignored; a success is answered
//! `= ` and its text, a failure `? ` and a message. Each answer here ends with an empty
//! line, as in GTP, so that answers of several lines (`show_board`, `list_commands`) are
//! delimited. Squares are a letter and a number, `a1` the bottom-left square (upper case
//! is read too); roles are `a`, `attacker`, `d` or `defender`.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use hnefatafl_core::otn::Roles;
use hnefatafl_core::{Game, MoveError, Notation, Player, Rules};

use super::send;

/// The version of the protocol that hnefatafl-copenhagen answers, which this follows.
pub const PROTOCOL_VERSION: &str = "1-beta";

/// Every command, in the order `list_commands` gives them: the one table of them.
pub const COMMANDS: [&str; 15] = [
    "board_size",
    "final_status",
    "first_move",
    "generate_move",
    "known_command",
    "list_commands",
    "name",
    "play",
    "play_undo",
    "protocol_version",
    "quit",
    "show_board",
    "show_board_open_tafl",
    "time_settings",
    "version",
];

/// `time_settings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSettings {
    /// `un-timed`.
    Untimed,
    /// `fischer MINUTES ADD_SECONDS`: each side starts with the minutes and gains the
    /// seconds after each move.
    Fischer {
        /// Starting time of each side.
        start: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

/// The engine's state between lines.
pub struct Htp {
    player: super::Player,
    rules: Rules,
    game: Game,
    attackers: Player,
    time: TimeSettings,
    /// The clocks of player 0 and player 1 under Fischer time.
    clocks: [aim::Clock; 2],
    /// A resignation: the winner.
    resigned: Option<Player>,
}

/// An answer: `Ok` for `= `, `Err` for `? `.
type Answer = Result<String, String>;

impl Htp {
    /// An engine playing these rules.
    pub fn new(player: super::Player, rules: Rules) -> Htp {
        let attackers = Roles::of(&rules).map_or(Player::Zero, |roles| roles.attackers);
        Htp {
            player,
            game: Game::new(rules.clone()),
            rules,
            attackers,
            time: TimeSettings::Untimed,
            clocks: [aim::Clock::default(); 2],
            resigned: None,
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn reset(&mut self) {
        self.game = Game::new(self.rules.clone());
        self.resigned = None;
        self.player.clear();
        if let TimeSettings::Fischer { start, increment } = self.time {
            self.clocks = [aim::Clock::fischer(start, increment); 2];
        }
    }

    fn role(&self, word: &str) -> Result<Player, String> {
        match word.to_ascii_lowercase().as_str() {
            "a" | "attacker" => Ok(self.attackers),
            "d" | "defender" => Ok(self.attackers.opponent()),
            _ => Err(format!("`{word}` is not a role (attacker or defender)")),
        }
    }

    fn role_name(&self, player: Player) -> &'static str {
        if player == self.attackers {
            "attacker"
        } else {
            "defender"
        }
    }

    fn square(&self, word: &str) -> Result<hnefatafl_core::Square, String> {
        self.rules
            .parse_square(&[word])
            .map_err(|_| format!("`{word}` is not a square of the board"))
    }

    fn status(&self) -> &'static str {
        let winner = match (self.resigned, self.game.outcome()) {
            (Some(winner), _) => Some(winner),
            (None, Some(outcome)) => match outcome.winner {
                Some(winner) => Some(winner),
                None => return "draw",
            },
            (None, None) => None,
        };
        match winner {
            None => "ongoing",
            Some(player) if player == self.attackers => "attacker_wins",
            Some(_) => "defender_wins",
        }
    }

    fn over(&self) -> bool {
        self.resigned.is_some() || self.game.outcome().is_some()
    }

    /// Answers one line; `None` for a line with nothing to answer (blank or a comment).
    /// The second value is true after `quit`.
    pub fn handle(&mut self, line: &str) -> (Option<Answer>, bool) {
        let line = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, arguments)) = words.split_first() else {
            return (None, false);
        };
        let answer = match command {
            "protocol_version" => Ok(PROTOCOL_VERSION.to_owned()),
            "name" => Ok("hnefatafl-rs".to_owned()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_owned()),
            "known_command" => match arguments {
                [name] => Ok(COMMANDS.contains(name).to_string()),
                _ => Err("expected: known_command COMMAND".to_owned()),
            },
            "list_commands" => Ok(format!("\n{}", COMMANDS.join("\n"))),
            "board_size" => self.board_size(arguments),
            "first_move" => match arguments {
                [role] => self.role(role).and_then(|player| {
                    if player == Player::Zero {
                        self.reset();
                        Ok(String::new())
                    } else {
                        Err(format!(
                            "in {} the {} moves first",
                            self.rules.name(),
                            self.role_name(Player::Zero)
                        ))
                    }
                }),
                _ => Err("expected: first_move ROLE".to_owned()),
            },
            "play" => self.play(arguments),
            "play_undo" => match self.game.undo() {
                Some(_) => {
                    self.resigned = None;
                    Ok(String::new())
                }
                None => Err("there is no move to take back".to_owned()),
            },
            "generate_move" => self.generate(arguments),
            "show_board" => Ok(format!("\n{}", self.board_text())),
            "show_board_open_tafl" => {
                hnefatafl_core::otn::position_to_otn(&self.rules, self.game.position())
                    .map(|board| board.to_string())
                    .map_err(|e| e.to_string())
            }
            "time_settings" => self.time_settings(arguments),
            "final_status" => Ok(self.status().to_owned()),
            "quit" => return (Some(Ok(String::new())), true),
            other => Err(format!(
                "unrecognized command: {}",
                other.chars().take(40).collect::<String>()
            )),
        };
        (Some(answer), false)
    }

    fn board_size(&mut self, arguments: &[&str]) -> Answer {
        let [size] = arguments else {
            return Err("expected: board_size SIZE".to_owned());
        };
        let size: u8 = size
            .parse()
            .map_err(|_| format!("`{size}` is not a board size"))?;
        if size == self.rules.width() && size == self.rules.height() {
            self.reset();
            Ok(String::new())
        } else {
            Err(format!(
                "this engine plays {} on {}x{}",
                self.rules.name(),
                self.rules.width(),
                self.rules.height()
            ))
        }
    }

    fn time_settings(&mut self, arguments: &[&str]) -> Answer {
        self.time = match arguments {
            ["un-timed"] => TimeSettings::Untimed,
            ["fischer", minutes, seconds] => {
                let number = |word: &str| {
                    word.parse::<u64>()
                        .ok()
                        .filter(|&n| n <= 1_000_000)
                        .ok_or_else(|| format!("`{word}` is not a whole number"))
                };
                TimeSettings::Fischer {
                    start: Duration::from_secs(number(minutes)? * 60),
                    increment: Duration::from_secs(number(seconds)?),
                }
            }
            _ => {
                return Err(
                    "expected: time_settings un-timed | fischer MINUTES ADD_SECONDS".to_owned(),
                );
            }
        };
        self.reset();
        Ok(String::new())
    }

    fn play(&mut self, arguments: &[&str]) -> Answer {
        let error = "expected: play ROLE FROM TO | play ROLE resign";
        let (role, rest) = arguments.split_first().ok_or(error)?;
        let player = self.role(role)?;
        if self.over() {
            return Err("the game is over".to_owned());
        }
        if player != self.game.side_to_move() {
            return Err(format!(
                "it is the {}'s turn",
                self.role_name(self.game.side_to_move())
            ));
        }
        match rest {
            ["resign" | "resigns", ..] => {
                self.resigned = Some(player.opponent());
                Ok(String::new())
            }
            [from, to] => {
                let mv = hnefatafl_core::Move::new(self.square(from)?, self.square(to)?);
                let undo = self.game.try_play(mv).map_err(|error| match error {
                    // The host's words for the square, so that it sees where it went wrong.
                    MoveError::NoPiece => format!(
                        "there is no piece to move on {}",
                        self.rules.format_square(mv.from(), Notation::Algebraic)
                    ),
                    other => other.to_string(),
                })?;
                let captures: Vec<String> = undo
                    .captures()
                    .map(|(square, _)| self.rules.format_square(square, Notation::Algebraic))
                    .collect();
                Ok(captures.join(" "))
            }
            _ => Err(error.to_owned()),
        }
    }

    fn generate(&mut self, arguments: &[&str]) -> Answer {
        let mover = self.game.side_to_move();
        if let [role] = arguments
            && self.role(role)? != mover
        {
            return Err(format!("it is the {}'s turn", self.role_name(mover)));
        }
        if arguments.len() > 1 {
            return Err("expected: generate_move [ROLE]".to_owned());
        }
        if self.over() {
            return Err("the game is over".to_owned());
        }
        let index = mover.index();
        let clock = match self.time {
            TimeSettings::Untimed => None,
            TimeSettings::Fischer { .. } => Some(self.clocks[index]),
        };
        let started = Instant::now();
        let result = self.player.search(&self.game, clock, &mut |_| {});
        let Some(mv) = result.best else {
            return Err("no legal move".to_owned());
        };
        if clock.is_some() {
            // Out of time or not, the host judges the clock; ours only plans the moves.
            let _ = self.clocks[index].spend(started.elapsed());
        }
        self.game.try_play(mv).map_err(|e| e.to_string())?;
        Ok(format!(
            "play {} {}",
            self.role_name(mover),
            self.rules.format_move(mv, Notation::Algebraic)
        ))
    }

    /// The board as text: rows from the top, `A` attackers, `D` defenders, `K` the king,
    /// `#` an escape square, `.` any other square.
    fn board_text(&self) -> String {
        let roles = Roles::of(&self.rules).ok();
        let width = usize::from(self.rules.width());
        let height = usize::from(self.rules.height());
        let mut text = String::new();
        for y in 0..height {
            text += &format!("{:>2} ", height - y);
            for x in 0..width {
                let Some(square) = self.rules.square_at(x as u8, y as u8) else {
                    continue;
                };
                let piece = self.game.position().piece_at(square);
                let symbol = match (piece, roles) {
                    (Some(p), Some(r)) if p == r.king => 'K',
                    (Some(p), _) if self.rules.owner(p) == Some(self.attackers) => 'A',
                    (Some(_), _) => 'D',
                    (None, _) if self.rules.escape_squares().any(|s| s == square) => '#',
                    (None, _) => '.',
                };
                text.push(' ');
                text.push(symbol);
            }
            text.push('\n');
        }
        text += "   ";
        for x in 0..width {
            text.push(' ');
            // Boards are at most 31 wide: letters a to z, then the rest of ASCII.
            text.push(char::from(b'a' + x as u8));
        }
        text
    }
}

/// Runs the protocol on these streams until `quit` or the end of the input.
pub fn run(
    player: super::Player,
    rules: Rules,
    input: impl BufRead + Send + 'static,
    output: &mut dyn Write,
) -> i32 {
    let lines = super::read_lines(input);
    let mut engine = Htp::new(player, rules);
    for line in lines {
        let (answer, quit) = match line {
            Ok(text) => engine.handle(&text),
            Err(message) => (Some(Err(message)), false),
        };
        match answer {
            Some(Ok(text)) => send(output, &format!("= {text}\n")),
            Some(Err(message)) => send(output, &format!("? {message}\n")),
            None => {}
        }
        if quit {
            break;
        }
    }
    0
}
