//! The host side: a program that speaks an engine protocol is started, told the game and
//! asked for its moves, each checked against the rules before it is played.
//!
//! A hosted engine speaks the OpenTafl Engine Protocol ([`Protocol::Otep`]), the Hnefatafl
//! Text Protocol ([`Protocol::Htp`]) or hnefatafl-copenhagen's `--host` mode
//! ([`Protocol::HtpHost`]); [`start`] runs its command line (split at spaces, no shell)
//! and gives back a [`Mover`], the interface a game loop drives every player through.
//!
//! `htp-host` is hnefatafl-copenhagen's `--host` mode, the only one in which its engine
//! takes `--ai`, `--depth` and `--seconds` (over standard input it always searches depth
//! 4): the host listens on a loopback address at [`HOST_PORT`], adds `--host <address>`
//! to the command line, and sends the game over the connection the engine opens.
//!
//! The host keeps the game, checks every move the engine sends, and its caller books the
//! time each answer takes (pipe or connection included) on the engine's clock. A move the
//! rules refuse, an engine that stops answering or breaks the protocol is an error that
//! says why, which loses the game.

mod htp;
mod otep;
mod process;

use std::time::Duration;

use aim::Clock;
use hnefatafl_core::{Game, Move, Outcome, Rules};

pub use process::HOST_PORT;

/// The protocols a hosted engine may speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The OpenTafl Engine Protocol.
    Otep,
    /// The Hnefatafl Text Protocol.
    Htp,
    /// hnefatafl-copenhagen's `--host` mode: the engine connects to the runner, which
    /// sends it `play ROLE FROM TO` for the other side's moves and `generate_move`, and
    /// reads back its move as `play ROLE FROM TO`.
    HtpHost,
}

impl Protocol {
    /// Every protocol, in the order their words are listed.
    pub const ALL: [Protocol; 3] = [Protocol::Otep, Protocol::Htp, Protocol::HtpHost];

    /// The word that names it before a command line: `otep`, `htp` or `htp-host`.
    pub fn word(self) -> &'static str {
        match self {
            Protocol::Otep => "otep",
            Protocol::Htp => "htp",
            Protocol::HtpHost => "htp-host",
        }
    }
}

/// How long to wait for an answer when no clock bounds it.
const NO_CLOCK_WAIT: Duration = Duration::from_secs(300);
/// Extra time an answer may take past the clock before the engine is given up.
const GRACE: Duration = Duration::from_secs(5);
/// How long an engine may take to start (`hello` in OTEP).
pub(crate) const START_WAIT: Duration = Duration::from_secs(10);

/// A player of a game the host keeps, behind one interface: a hosted engine, or any
/// other player its caller drives the same way.
pub trait Mover {
    /// The game starts (after the opening) from `start`.
    fn start(&mut self, start: &Game, clock: Option<Clock>) -> Result<(), String>;
    /// The other side played `mv` on `before`.
    fn moved(&mut self, before: &Game, mv: Move) -> Result<(), String>;
    /// The move for the side to move; `None` is a resignation. `clocks` are the clocks
    /// of player 0 and player 1.
    fn choose(&mut self, game: &Game, clocks: Option<[Clock; 2]>) -> Result<Option<Move>, String>;
    /// The game is over (or abandoned).
    fn finish(&mut self, outcome: Option<Outcome>);
}

/// Starts the engine that `command` runs, speaking `protocol`, to play a game of `rules`.
///
/// # Errors
///
/// The engine could not be started, or did not greet the host as its protocol says.
pub fn start(
    protocol: Protocol,
    command: &[String],
    rules: &Rules,
) -> Result<Box<dyn Mover>, String> {
    Ok(match protocol {
        Protocol::Otep => Box::new(otep::Otep::new(command, rules)?),
        Protocol::Htp => Box::new(htp::Htp::new(command, rules)?),
        Protocol::HtpHost => Box::new(htp::HtpHost::new(command, rules)?),
    })
}

/// How long an engine may take for a move on this clock.
pub(crate) fn answer_wait(clock: Option<Clock>) -> Duration {
    clock.map_or(NO_CLOCK_WAIT, |clock| {
        let overtime = if clock.overtimes > 0 {
            clock.overtime
        } else {
            Duration::ZERO
        };
        clock.remaining + overtime + GRACE
    })
}

/// The move an engine sent, checked against the game.
pub(crate) fn checked(game: &Game, mv: Move, text: &str) -> Result<Move, String> {
    game.check(mv)
        .map(|()| mv)
        .map_err(|e| format!("illegal move `{text}`: {e}"))
}
