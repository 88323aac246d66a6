//! `hnefatafl --engine otep|htp`: the engine protocols (the `hnefatafl-protocol` crate's
//! engine side) on standard input and output, with the rules and the network found in
//! the data directories.

use aim::Limits;
use hnefatafl_core::Rules;
use hnefatafl_protocol::engine::{Player, Protocol, htp, otep};

use crate::data::{DataDirs, LookupError, Origin};

/// The rules HTP plays when none are named.
pub const HTP_RULES: &str = "hnefatafl";

/// `hnefatafl --engine <protocol> [--limits <words>] [-r <rules>]`: plays over the
/// protocol on standard input and output; returns the exit status. Only a failure to
/// start (an unknown protocol, bad limits, rules that cannot be read) is reported, on
/// standard error, before any protocol is spoken.
pub fn serve(protocol: &str, limits: Option<&str>, rules: Option<String>, dirs: &DataDirs) -> i32 {
    // The rules come with the name they were read by, which finds their network.
    type Named = (Rules, String);
    let start = || -> Result<(Protocol, Limits, Option<Named>), String> {
        let protocol: Protocol = protocol.parse()?;
        let words: Vec<&str> = limits
            .unwrap_or("")
            .split([',', ' '])
            .filter(|w| !w.is_empty())
            .collect();
        let limits = Limits::from_words(&words).map_err(|e| format!("--limits: {e}"))?;
        let rules = match (protocol, rules) {
            (Protocol::Otep, None) => None,
            (_, named) => {
                let (name, origin) = match named {
                    Some(name) => (name, Origin::Typed),
                    None => (HTP_RULES.to_owned(), Origin::Indirect),
                };
                let (_, bytes) =
                    dirs.read_named("rules", &name, origin)
                        .map_err(|error| match error {
                            LookupError::NotFound => format!("{name}: no such rule file"),
                            LookupError::File(path, error) => {
                                format!("{}: {error}", path.display())
                            }
                        })?;
                let rules = Rules::parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
                Some((rules, name))
            }
        };
        Ok((protocol, limits, rules))
    };
    let (protocol, limits, rules) = match start() {
        Ok(started) => started,
        Err(message) => {
            eprintln!("hnefatafl: {message}");
            return 1;
        }
    };
    let mut player = Player::new(limits);
    let input = std::io::BufReader::new(std::io::stdin());
    let mut output = std::io::stdout();
    match (protocol, rules) {
        (Protocol::Htp, Some((rules, name))) => {
            // Said on standard error, which is no part of the protocol.
            let language = crate::lang::Language::none();
            match crate::session::read_network(dirs, &language, &name, &rules) {
                Ok(Some(found)) => {
                    eprintln!("hnefatafl: evaluation: network {}", found.place);
                    player.set_network(Some(found.network));
                }
                // No network: the classic evaluation, as ever, and nothing to say.
                Ok(None) => {}
                Err(why) => eprintln!("hnefatafl: evaluation: classic ({why})"),
            }
            htp::run(player, rules, input, &mut output)
        }
        (_, _) => otep::run(player, input, &mut output),
    }
}
