//! The engine side: the computer player answers a host on a pair of streams.
//!
//! - [`otep`]: the OpenTafl Engine Protocol (`hnefatafl --engine otep`), with which
//!   OpenTafl runs external engines.
//! - [`htp`]: the Hnefatafl Text Protocol (`hnefatafl --engine htp`), the GTP-like
//!   protocol of the hnefatafl-copenhagen engines.
//!
//! Both print nothing that is not protocol: every failure is a protocol error reply, and
//! a malformed line never ends the engine. The sources of both protocols are cited in
//! `docs/protocols.md`.

pub mod htp;
pub mod otep;

use std::io::{BufRead, Read, Write};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};

use aim::nnue::Network;
use aim::{Clock, Engine, EngineConfig, Limits, Progress, SearchResult};
use hnefatafl_core::Game;

/// The protocols of `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `otep`: the OpenTafl Engine Protocol.
    Otep,
    /// `htp`: the Hnefatafl Text Protocol.
    Htp,
}

impl FromStr for Protocol {
    type Err = String;

    fn from_str(text: &str) -> Result<Protocol, String> {
        match text {
            "otep" => Ok(Protocol::Otep),
            "htp" => Ok(Protocol::Htp),
            other => Err(format!("`{other}` is not an engine protocol (otep or htp)")),
        }
    }
}

/// The longest line read; a longer one is answered as malformed.
const MAX_LINE: usize = 1 << 20;

/// One line from the host, or a line that could not be read as text.
pub(crate) type Line = Result<String, String>;

/// Reads lines on a thread, so that the engine can wait for one with a timeout. The
/// channel closes at the end of the input.
pub(crate) fn read_lines(input: impl BufRead + Send + 'static) -> Receiver<Line> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut bytes = Vec::new();
            let read = Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes);
            match read {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = if bytes.len() > MAX_LINE {
                // Skip the rest of the long line.
                let mut rest = Vec::new();
                if input.read_until(b'\n', &mut rest).is_err() {
                    break;
                }
                Err(format!("a line longer than {MAX_LINE} bytes"))
            } else {
                String::from_utf8(bytes)
                    .map(|text| text.trim_end_matches(['\n', '\r']).to_owned())
                    .map_err(|_| "a line that is not UTF-8 text".to_owned())
            };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// The computer player behind both protocols: aim's engine with a cap on every move.
pub struct Player {
    engine: Engine,
    /// The limits of a move when the host gives no clock, and a cap on every move.
    pub limits: Limits,
}

impl Player {
    /// A player searching with these limits (empty limits: the default level).
    pub fn new(limits: Limits) -> Player {
        Player::with_config(limits, EngineConfig::default())
    }

    /// A player whose engine has this configuration: its threads and the size of its
    /// table, which a tool making a player for every short game (a fuzz target) keeps
    /// small, as the default table takes longer to make than a shallow search.
    pub fn with_config(limits: Limits, config: EngineConfig) -> Player {
        Player {
            engine: Engine::new(config),
            limits,
        }
    }

    /// Searches the game's position within the clock of the side to move, if the host
    /// gives one (besides the player's own limits), calling `progress` after each depth.
    pub fn search(
        &mut self,
        game: &Game,
        clock: Option<Clock>,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let limits = match clock {
            // No limits of our own: the clock's time at full strength.
            Some(clock) if self.limits == Limits::default() => Limits::from_clock(clock),
            Some(clock) => Limits {
                clock: Some(clock),
                ..self.limits.clone()
            },
            None => self.limits.clone(),
        };
        self.engine
            .search(game, &limits, Arc::new(AtomicBool::new(false)), progress)
    }

    /// The network the engine evaluates with, unless the limits ask for the classic
    /// evaluation (`eval=classic`); `None`: the classic evaluation.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.engine.set_network(network);
    }

    /// Forgets what the engine learned (new rules or a new game).
    pub fn clear(&mut self) {
        self.engine.clear();
    }
}

/// Writes one line and flushes it; a closed output is not an error the engine can report.
pub(crate) fn send(output: &mut dyn Write, line: &str) {
    let _ = writeln!(output, "{line}");
    let _ = output.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_are_named() {
        assert_eq!("otep".parse::<Protocol>(), Ok(Protocol::Otep));
        assert_eq!("htp".parse::<Protocol>(), Ok(Protocol::Htp));
        assert!("uci".parse::<Protocol>().is_err());
    }
}
