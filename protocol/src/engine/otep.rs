//! The OpenTafl Engine Protocol (OTEP), engine side.
//!
//! OpenTafl's `opentafl-engine-protocol.txt`: the engine says `hello`; the host sends
//! `rules`, `position`, `side`, `clock`, `play`, `analyze`, `move`, `opponent-move`,
//! `error`, `finish` and `goodbye`; the engine answers `move`, `analysis`, `status` and
//! `error`. Moves go in OpenTafl's simple notation (`a4-a6`); full OTN moves from the host
//! are read too.
//!
//! The engine's game follows the host: a move of ours counts once the host confirms it
//! (`move <position>`), and every position the host sends wins over ours, so rules that
//! our language only approaches (see [`RulesString::to_rules_nearest`]) never leave the
//! two boards apart.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use hnefatafl_core::otn::{self, Board, OtnMove, Roles, RulesString, Side};
use hnefatafl_core::{Game, Player, Rules};

use super::{Line, send};

/// How long `play` waits for the `clock` line that the specification sends right after
/// it, when none came since the last move (OpenTafl itself sends it just before `play`).
const CLOCK_WAIT: Duration = Duration::from_millis(200);

/// Time kept back from the host's clock for what the search does not see: the host
/// starts the clock when it sends `play` and stops it when it has read `move`, so the
/// pipes, a host busy elsewhere, and the wait for `clock` all count on it. The larger of
/// this and one part in `HOST_RESERVE_PARTS` of the time is kept back.
const HOST_RESERVE: Duration = Duration::from_millis(200);

/// The time is kept back one part in this many: OpenTafl, hosting on a busy machine,
/// counted a little more than a search stopped 50 ms before the end of an overtime period
/// (the engine lost its periods), so the reserve grows with the time. On a machine
/// loaded past its cores, a search stopped at its limit answered up to 190 ms late on a
/// 1.5 s period, hence the tenth and the 200 ms floor.
const HOST_RESERVE_PARTS: u32 = 10;

/// The clock as the host last gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Milliseconds left to the attackers and the defenders (in the current overtime
    /// period when `overtime` is set).
    pub millis: [u64; 2],
    /// Whether each side's main time is spent (the `*` after its time).
    pub overtime: [bool; 2],
    /// The length of an overtime period, in seconds.
    pub period_seconds: u64,
    /// The overtime periods left to the attackers and the defenders.
    pub periods: [u32; 2],
}

impl Clock {
    /// Reads the arguments of `clock`: `<attackers ms>[*] <defenders ms>[*] <overtime s>
    /// <attackers overtimes> <defenders overtimes>`.
    ///
    /// # Errors
    ///
    /// What is wrong with the arguments.
    pub fn parse(words: &[&str]) -> Result<Clock, String> {
        let [attackers, defenders, period, periods @ ..] = words else {
            return Err("clock takes the times of both sides and the overtime".to_owned());
        };
        let time = |word: &str| -> Result<(u64, bool), String> {
            let (digits, star) = match word.strip_suffix('*') {
                Some(digits) => (digits, true),
                None => (word, false),
            };
            digits
                .parse::<u64>()
                .map(|ms| (ms, star))
                .map_err(|_| format!("`{word}` is not a time in milliseconds"))
        };
        let count = |word: Option<&&str>| -> Result<u32, String> {
            word.map_or(Ok(0), |w| {
                w.parse::<u32>()
                    .map_err(|_| format!("`{w}` is not a number of overtime periods"))
            })
        };
        if periods.len() > 2 {
            return Err("clock takes five values".to_owned());
        }
        let (a, a_star) = time(attackers)?;
        let (d, d_star) = time(defenders)?;
        let period_seconds = period
            .parse::<u64>()
            .map_err(|_| format!("`{period}` is not an overtime length in seconds"))?;
        Ok(Clock {
            millis: [a, d],
            overtime: [a_star, d_star],
            period_seconds,
            periods: [count(periods.first())?, count(periods.get(1))?],
        })
    }

    /// The clock of `side`, for the search's time management, less a reserve for the
    /// time the host counts but the search does not see. OTEP sends no increment, so
    /// none is counted on: what the host adds after the move comes in the next `clock`.
    pub fn of(&self, side: Side) -> aim::Clock {
        let index = usize::from(side == Side::Defenders);
        let given = Duration::from_millis(self.millis[index]);
        let left = given.saturating_sub(HOST_RESERVE.max(given / HOST_RESERVE_PARTS));
        let periods = self.periods[index];
        if self.overtime[index] {
            // `left` is what remains of the current period.
            aim::Clock::byo_yomi(Duration::ZERO, left, periods.max(1))
        } else {
            aim::Clock::byo_yomi(left, Duration::from_secs(self.period_seconds), periods)
        }
    }
}

/// The engine's state between lines.
pub struct Otep {
    player: super::Player,
    rules: Option<(RulesString, Rules)>,
    game: Option<Game>,
    /// The side named by `side`, for analysis and replays.
    side: Option<Side>,
    clock: Option<Clock>,
    /// Whether `clock` came since the last move was thought of.
    clock_fresh: bool,
    /// A `play` waiting for its `clock`.
    pending: Option<Side>,
    /// The move we sent, played once the host confirms it.
    sent: Option<hnefatafl_core::Move>,
}

/// What the loop does after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `play` came: wait briefly for the `clock` line, then think.
    AwaitClock,
    /// `play` came after its `clock`: think now.
    Think,
    /// `goodbye`: end.
    Quit,
}

fn critical(output: &mut dyn Write, message: &str) {
    send(output, &format!("error -1 {message}"));
}

fn warn(output: &mut dyn Write, message: &str) {
    send(output, &format!("error 0 {message}"));
}

impl Otep {
    /// An engine with no rules yet.
    pub fn new(player: super::Player) -> Otep {
        Otep {
            player,
            rules: None,
            game: None,
            side: None,
            clock: None,
            clock_fresh: false,
            pending: None,
            sent: None,
        }
    }

    /// The current game, once rules came.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    fn roles(&self) -> Option<Roles> {
        self.rules
            .as_ref()
            .and_then(|(_, rules)| Roles::of(rules).ok())
    }

    /// Handles one line from the host, writing any answer.
    pub fn handle(&mut self, line: &str, output: &mut dyn Write) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, arguments)) = words.split_first() else {
            return Flow::Continue;
        };
        match command {
            "rules" => self.set_rules(line.trim_start()["rules".len()..].trim(), output),
            "position" => match arguments {
                [record] => self.set_position(record, self.side, output),
                _ => warn(output, "position takes one position record"),
            },
            "side" => match arguments {
                [word] => match Side::from_word(word) {
                    Some(side) => {
                        self.side = Some(side);
                        if let Some(board) = self.current_board() {
                            self.set_position(&board.to_string(), Some(side), output);
                        }
                    }
                    None => warn(output, &format!("`{word}` is not attackers or defenders")),
                },
                _ => warn(output, "side takes attackers or defenders"),
            },
            "clock" => match Clock::parse(arguments) {
                Ok(clock) => {
                    self.clock = Some(clock);
                    self.clock_fresh = true;
                    if self.pending.is_some() {
                        return Flow::AwaitClock;
                    }
                }
                Err(message) => warn(output, &message),
            },
            "play" => match arguments {
                [word] => match Side::from_word(word) {
                    Some(side) => {
                        self.pending = Some(side);
                        return if self.clock_fresh {
                            Flow::Think
                        } else {
                            Flow::AwaitClock
                        };
                    }
                    None => warn(output, &format!("`{word}` is not attackers or defenders")),
                },
                _ => warn(output, "play takes attackers or defenders"),
            },
            "analyze" => match arguments {
                // One line is found per search: the count asks for up to that many, and
                // one is enough.
                [count, seconds] => match (count.parse::<usize>(), seconds.parse::<f64>()) {
                    (Ok(_), Ok(seconds)) if seconds.is_finite() && seconds >= 0.0 => {
                        self.analyze(Duration::from_secs_f64(seconds.min(1e6)), output);
                    }
                    _ => warn(output, "analyze takes a number of moves and seconds"),
                },
                _ => warn(output, "analyze takes a number of moves and seconds"),
            },
            "move" => match arguments {
                [record] => self.confirmed(record, output),
                _ => warn(output, "move takes the position after the move"),
            },
            "opponent-move" => match arguments {
                [moves, record] => self.opponent_move(moves, record, output),
                _ => warn(output, "opponent-move takes the moves and the position"),
            },
            // The host refused our move: the `opponent-move` and `play` that follow
            // say where the game stands.
            "error" => self.sent = None,
            // The game is over; the engine waits for another or for `goodbye`.
            "finish" => self.pending = None,
            "goodbye" => return Flow::Quit,
            // Our own words coming back, or their acknowledgements: nothing to do.
            "hello" | "simple-moves" | "status" | "analysis" => {}
            other => warn(output, &format!("unknown command `{}`", otn_shorten(other))),
        }
        Flow::Continue
    }

    fn set_rules(&mut self, text: &str, output: &mut dyn Write) {
        let read = RulesString::parse(text).and_then(|otn| {
            let (rules, approximations) = otn.to_rules_nearest()?;
            Ok((otn, rules, approximations))
        });
        match read {
            Ok((otn, rules, approximations)) => {
                if !approximations.is_empty() {
                    let keys: Vec<&str> = approximations.iter().map(|a| a.key).collect();
                    send(
                        output,
                        &format!(
                            "status playing the nearest rules: {} are not in the rule language",
                            keys.join(", ")
                        ),
                    );
                }
                if Roles::of(&rules).is_err() {
                    critical(output, "the rules have no king");
                    return;
                }
                self.player.clear();
                self.game = Some(Game::new(rules.clone()));
                self.rules = Some((otn, rules));
            }
            Err(error) => critical(output, &error.to_string()),
        }
    }

    fn current_board(&self) -> Option<Board> {
        let game = self.game.as_ref()?;
        otn::position_to_otn(game.rules(), game.position()).ok()
    }

    /// Takes the host's position, with `side` to move (or the side to move now).
    fn set_position(&mut self, record: &str, side: Option<Side>, output: &mut dyn Write) {
        let (Some((_, rules)), Some(roles)) = (&self.rules, self.roles()) else {
            warn(output, "position before rules");
            return;
        };
        let board = match record.parse::<Board>() {
            Ok(board) => board,
            Err(error) => {
                warn(output, &error.to_string());
                return;
            }
        };
        let to_move = side.map_or_else(
            || self.game.as_ref().map_or(Player::Zero, Game::side_to_move),
            |side| roles.player(side),
        );
        match otn::position_from_otn(rules, &board, to_move) {
            Ok(position) => {
                let game = self.game.get_or_insert_with(|| Game::new(rules.clone()));
                if game.position() != &position {
                    *game = Game::from_position(position);
                }
            }
            Err(error) => warn(output, &error.to_string()),
        }
    }

    /// The host confirmed our move: play it (the game keeps its history for the search's
    /// repetition rules), then take the host's position, which wins if they differ.
    fn confirmed(&mut self, record: &str, output: &mut dyn Write) {
        if let (Some(mv), Some(game)) = (self.sent.take(), self.game.as_mut()) {
            let _ = game.try_play(mv);
        }
        self.set_position(record, None, output);
    }

    fn opponent_move(&mut self, moves: &str, record: &str, output: &mut dyn Write) {
        let Some(game) = self.game.as_mut() else {
            warn(output, "opponent-move before rules");
            return;
        };
        let mover = game.side_to_move();
        for text in moves.split('|') {
            let played = OtnMove::parse(game.rules(), text)
                .map_err(|e| e.to_string())
                .and_then(|m| game.try_play(m.mv).map(|_| ()).map_err(|e| e.to_string()));
            if played.is_err() {
                // Our rules do not allow it (or the notation is new to us): the position
                // that follows is the truth.
                break;
            }
        }
        let next = mover.opponent();
        let side = self.roles().map(|roles| roles.side(next));
        self.set_position(record, side, output);
    }

    /// Thinks for the side that `play` named and sends the move.
    pub fn think(&mut self, output: &mut dyn Write) {
        let Some(side) = self.pending.take() else {
            return;
        };
        self.clock_fresh = false;
        let Some(roles) = self.roles() else {
            critical(output, "play before rules");
            return;
        };
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let player = roles.player(side);
        if game.side_to_move() != player {
            // The host knows best whose turn it is: play from its board for that side.
            if let Ok(board) = otn::position_to_otn(game.rules(), game.position())
                && let Ok(position) = otn::position_from_otn(game.rules(), &board, player)
            {
                *game = Game::from_position(position);
            }
        }
        let clock = self.clock.map(|clock| clock.of(side));
        let result = self.player.search(game, clock, &mut |progress| {
            let pv: Vec<String> = progress
                .pv
                .iter()
                .map(|&mv| otn::format_simple_move(mv))
                .collect();
            send(
                output,
                &format!(
                    "status depth {} score {} win {:.0}% nodes {} pv {}",
                    progress.depth,
                    progress.score,
                    progress.win_chance() * 100.0,
                    progress.nodes,
                    pv.join(" ")
                ),
            );
        });
        match result.best {
            Some(mv) => {
                self.sent = Some(mv);
                send(output, &format!("move {}", otn::format_simple_move(mv)));
            }
            None => warn(output, "no legal move"),
        }
    }

    fn analyze(&mut self, time: Duration, output: &mut dyn Write) {
        let Some(game) = self.game.as_ref() else {
            warn(output, "analyze before rules");
            return;
        };
        if let Some(side) = self.side
            && let Some(roles) = self.roles()
            && game.side_to_move() != roles.player(side)
        {
            let board = self.current_board();
            if let Some(board) = board {
                self.set_position(&board.to_string(), Some(side), output);
            }
        }
        let Some(game) = self.game.as_ref() else {
            return;
        };
        // The time of an analysis is a move's whole time: a clock of that much with no
        // more moves to come.
        let clock = aim::Clock {
            remaining: time + aim::Clock::MARGIN,
            moves_to_go: Some(1),
            ..aim::Clock::default()
        };
        let result = self.player.search(game, Some(clock), &mut |_| {});
        if result.best.is_none() {
            warn(output, "no legal move to analyse");
            return;
        }
        let line: Vec<String> = result
            .pv
            .iter()
            .map(|&mv| otn::format_simple_move(mv))
            .collect();
        let line = if line.is_empty() {
            result.best.map(otn::format_simple_move).unwrap_or_default()
        } else {
            line.join("|")
        };
        send(output, &format!("analysis 1 {line} {}", result.score.0));
    }
}

fn otn_shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Runs the protocol on these streams until `goodbye` or the end of the input.
pub fn run(
    player: super::Player,
    input: impl BufRead + Send + 'static,
    output: &mut dyn Write,
) -> i32 {
    let lines = super::read_lines(input);
    let mut engine = Otep::new(player);
    send(output, "hello");
    serve(&mut engine, &lines, output);
    0
}

fn serve(engine: &mut Otep, lines: &Receiver<Line>, output: &mut dyn Write) {
    let mut waiting = false;
    loop {
        let line = if waiting {
            match lines.recv_timeout(CLOCK_WAIT) {
                Ok(line) => Some(line),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => {
                    engine.think(output);
                    return;
                }
            }
        } else {
            match lines.recv() {
                Ok(line) => Some(line),
                Err(_) => return,
            }
        };
        let flow = match line {
            None => {
                waiting = false;
                engine.think(output);
                continue;
            }
            Some(Err(message)) => {
                warn(output, &message);
                Flow::Continue
            }
            Some(Ok(text)) => {
                let is_clock = text.split_whitespace().next() == Some("clock");
                let flow = engine.handle(&text, output);
                if waiting && is_clock {
                    waiting = false;
                    engine.think(output);
                    continue;
                }
                flow
            }
        };
        match flow {
            Flow::Continue => {}
            Flow::AwaitClock => waiting = true,
            Flow::Think => engine.think(output),
            Flow::Quit => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_the_protocol_writes_them() {
        let clock = Clock::parse(&["1500*", "60000", "30", "2", "3"]).expect("reads");
        assert_eq!(clock.millis, [1500, 60000]);
        assert_eq!(clock.overtime, [true, false]);
        assert_eq!((clock.period_seconds, clock.periods), (30, [2, 3]));
        // Without overtime, the last two values may be left out.
        let plain = Clock::parse(&["1000", "2000", "0"]).expect("reads");
        assert_eq!(plain.periods, [0, 0]);
        for bad in [
            &["1000"][..],
            &["x", "1", "0"],
            &["1", "2", "3", "4", "5", "6"],
            &["1", "2", "-3"],
        ] {
            assert!(Clock::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_move_is_budgeted_within_the_side_s_clock() {
        let clock = Clock::parse(&["1500*", "60000", "30", "2", "3"]).expect("reads");
        // In overtime: within what is left of the current period.
        let attackers = clock.of(Side::Attackers).budget();
        assert!(
            attackers.hard < Duration::from_millis(1500),
            "{attackers:?}"
        );
        // The defenders' main time, with a period in hand.
        let defenders = clock.of(Side::Defenders).budget();
        assert!(defenders.hard < Duration::from_secs(90), "{defenders:?}");
        assert!(defenders.target >= Duration::from_secs(2), "{defenders:?}");
    }
}
