//! The Hnefatafl Text Protocol, host side: over standard input and output, and in
//! hnefatafl-copenhagen's `--host` mode over the connection the engine opens.

use std::time::Duration;

use aim::Clock;
use hnefatafl_core::otn::Roles;
use hnefatafl_core::{Game, Move, Notation, Outcome, Player, Rules};

use super::process::Process;
use super::{Mover, START_WAIT, answer_wait, checked};

/// The Hnefatafl Text Protocol's words for the game: its roles and `play` lines.
struct HtpWords {
    attackers: Player,
}

impl HtpWords {
    pub(crate) fn new(rules: &Rules) -> HtpWords {
        HtpWords {
            attackers: Roles::of(rules).map_or(Player::Zero, |roles| roles.attackers),
        }
    }

    fn role(&self, player: Player) -> &'static str {
        if player == self.attackers {
            "attacker"
        } else {
            "defender"
        }
    }

    /// `play ROLE FROM TO` for `mv` played on `game`.
    fn play_line(&self, game: &Game, mv: Move) -> String {
        format!(
            "play {} {}",
            self.role(game.side_to_move()),
            game.rules().format_move(mv, Notation::Algebraic)
        )
    }

    /// The engine's move in `answer` (`play ROLE FROM TO`, perhaps followed by
    /// `, comments`), checked on `game`; `None` for `play ROLE resign(s)`.
    fn read_play(&self, game: &Game, answer: &str) -> Result<Option<Move>, String> {
        let answer = answer.split(',').next().unwrap_or("");
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.as_slice() {
            ["play", _, "resign" | "resigns", ..] => Ok(None),
            ["play", role, from, to] => {
                if *role != self.role(game.side_to_move()) {
                    return Err(format!("moved for the {role}, not the side to move"));
                }
                let mv = game
                    .rules()
                    .parse_move(&[from, to])
                    .map_err(|e| format!("`{answer}`: {e}"))?;
                checked(game, mv, answer).map(Some)
            }
            _ => Err(format!("`{answer}` is not `play ROLE FROM TO`")),
        }
    }
}

pub(crate) struct Htp {
    process: Process,
    words: HtpWords,
}

impl Htp {
    pub(crate) fn new(command: &[String], rules: &Rules) -> Result<Htp, String> {
        Ok(Htp {
            process: Process::spawn(command)?,
            words: HtpWords::new(rules),
        })
    }

    /// Sends a command and returns its answer: `Ok` after `=`, `Err` after `?`.
    fn ask(&mut self, command: &str, wait: Duration) -> Result<Result<String, String>, String> {
        self.process.send(command)?;
        let line = self
            .process
            .until(wait, |line| line.starts_with('=') || line.starts_with('?'))?;
        let text = line[1..].trim().to_owned();
        Ok(if line.starts_with('=') {
            Ok(text)
        } else {
            Err(text)
        })
    }

    fn must(&mut self, command: &str) -> Result<String, String> {
        self.ask(command, START_WAIT)?
            .map_err(|message| format!("`{command}`: {message}"))
    }
}

impl Mover for Htp {
    fn start(&mut self, start: &Game, clock: Option<Clock>) -> Result<(), String> {
        let rules = start.rules();
        self.must(&format!("board_size {}", rules.width()))?;
        match clock {
            None => self.must("time_settings un-timed")?,
            // The protocol counts whole minutes and seconds; the runner's clock is the
            // one that judges.
            Some(clock) => self.must(&format!(
                "time_settings fischer {} {}",
                clock.remaining.as_secs().div_ceil(60).max(1),
                clock.increment.as_secs_f64().round()
            ))?,
        };
        let mut replay = Game::new(rules.clone());
        for mv in start.moves() {
            let line = self.words.play_line(&replay, mv);
            self.must(&line)?;
            replay.try_play(mv).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String> {
        let line = self.words.play_line(before, mv);
        self.must(&line).map(|_| ())
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        let answer = self
            .ask("generate_move", wait)?
            .map_err(|message| format!("generate_move: {message}"))?;
        self.words.read_play(game, &answer)
    }

    fn finish(&mut self, _: Option<Outcome>) {
        let _ = self.process.send("quit");
        self.process.close();
    }
}

/// An engine in hnefatafl-copenhagen's `--host` mode. It answers nothing but its moves:
/// `play` lines are taken silently, other commands (`board_size`, `first_move`, `quit`)
/// are answered on its standard output, and a line it cannot take ends it with the
/// reason on its standard error, which the report quotes. It keeps no clock of its own
/// here (no `time_settings` is sent); the runner's judges.
pub(crate) struct HtpHost {
    process: Process,
    words: HtpWords,
}

impl HtpHost {
    pub(crate) fn new(command: &[String], rules: &Rules) -> Result<HtpHost, String> {
        Ok(HtpHost {
            process: Process::host(command)?,
            words: HtpWords::new(rules),
        })
    }
}

impl Mover for HtpHost {
    fn start(&mut self, start: &Game, _: Option<Clock>) -> Result<(), String> {
        let rules = start.rules();
        let mut replay = Game::new(rules.clone());
        // Its 7x7 game has the defenders move first; ours may not.
        self.process
            .send(&format!("board_size {}", rules.width()))?;
        self.process.send(&format!(
            "first_move {}",
            self.words.role(replay.side_to_move())
        ))?;
        for mv in start.moves() {
            let line = self.words.play_line(&replay, mv);
            self.process.send(&line)?;
            replay.try_play(mv).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String> {
        let line = self.words.play_line(before, mv);
        self.process.send(&line)
    }

    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String> {
        let wait = answer_wait(clocks.map(|c| c[game.side_to_move().index()]));
        self.process.send("generate_move")?;
        let answer = self.process.until(wait, |_| true)?;
        self.words.read_play(game, &answer)
    }

    fn finish(&mut self, _: Option<Outcome>) {
        // It has left already when its own rules ended the game.
        let _ = self.process.send("quit");
        self.process.close();
    }
}
