//! Shared helpers for the benchmarks and the match runner: rule files, random openings,
//! engine-against-engine games and the Elo arithmetic.

use aim::{Engine, EngineConfig, EvalWeights, Limits, Tuning};
use hnefatafl_core::{Game, Player, Rules};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The 11x11 Fetlar-style rules used when `data/rules/hnefatafl` is not at hand.
pub const FETLAR_11X11: &str = "
id	bench_fetlar
name	\"11x11 (bench)\"
width	11
height	11
pieces \\
0 0 0 1 1 1 1 1 0 0 0 \\
0 0 0 0 0 1 0 0 0 0 0 \\
0 0 0 0 0 0 0 0 0 0 0 \\
1 0 0 0 0 2 0 0 0 0 1 \\
1 0 0 0 2 2 2 0 0 0 1 \\
1 1 0 2 2 4 2 2 0 1 1 \\
1 0 0 0 2 2 2 0 0 0 1 \\
1 0 0 0 0 2 0 0 0 0 1 \\
0 0 0 0 0 0 0 0 0 0 0 \\
0 0 0 0 0 1 0 0 0 0 0 \\
0 0 0 1 1 1 1 1 0 0 0
squares \\
2 1 1 1 1 1 1 1 1 1 2 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 4 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
1 1 1 1 1 1 1 1 1 1 1 \\
2 1 1 1 1 1 1 1 1 1 2
piece bit 1
piece 1 owner 0
piece 1 captures 6
piece 1 custodial
piece 1 occupies 1
piece bit 2
piece 2 owner 1
piece 2 captures 1
piece 2 custodial
piece 2 occupies 1
piece bit 4
piece 4 owner 1
piece 4 escape
piece 4 capt_loss
piece 4 capt_sides 4
piece 4 captures 1
piece 4 occupies 7
square bit 1
square bit 2
square 2 captures 7
square 2 escape
square bit 4
square 4 captures 7
";

/// The 11x11 rules: `data/rules/hnefatafl` if it is there, else [`FETLAR_11X11`].
pub fn fetlar_rules() -> Rules {
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/rules/hnefatafl");
    if let Ok(text) = std::fs::read(shipped) {
        if let Ok(rules) = Rules::parse(&text) {
            return rules;
        }
    }
    Rules::parse(FETLAR_11X11.as_bytes()).expect("the built-in 11x11 rules are valid")
}

/// A small random number generator (splitmix64): reproducible openings from a seed.
#[derive(Clone, Debug)]
pub struct Random(pub u64);

impl Random {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A game after `plies` random legal moves from the start (fewer if it ends first).
pub fn random_opening(rules: &Rules, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(rules.clone());
    let mut random = Random(seed);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        if game.play(moves[random.below(moves.len())]).is_err() {
            break;
        }
    }
    game
}

/// One side of a match: its limits and engine settings.
#[derive(Clone, Debug)]
pub struct Side {
    /// Limits of every move.
    pub limits: Limits,
    /// Engine settings.
    pub config: EngineConfig,
    /// Search and evaluation knobs.
    pub tuning: Tuning,
}

/// Reads a side: words separated by commas or spaces, each a limit word (`d2`, `t0.5`,
/// `n100000`, `3`) or `key=value`: `level`, `depth`, `time` (seconds), `nodes`, `threads`,
/// `hash` (MiB), `reductions` (0/1), and the evaluation weights `piece`, `mobility`,
/// `open_move`, `open_one`, `open_two`, `two_moves`, `routes`, `guard`, `enclosure1`, `enclosure2`,
/// `threat`, `tempo`.
///
/// # Errors
///
/// The word that could not be read.
pub fn parse_side(text: &str) -> Result<Side, String> {
    let mut side = Side {
        limits: Limits::default(),
        config: EngineConfig {
            threads: 1,
            hash_mib: 16,
        },
        tuning: Tuning::default(),
    };
    let mut limit_words = Vec::new();
    for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
        let Some((key, value)) = word.split_once('=') else {
            limit_words.push(word.to_string());
            continue;
        };
        let number = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("bad value in `{word}`"))
        };
        let weights: &mut EvalWeights = &mut side.tuning.weights;
        match key {
            "level" => limit_words.push(value.to_string()),
            "depth" => limit_words.push(format!("d{value}")),
            "time" => limit_words.push(format!("t{value}")),
            "nodes" => limit_words.push(format!("n{value}")),
            "threads" => side.config.threads = number()? as usize,
            "hash" => side.config.hash_mib = number()? as usize,
            "reductions" => side.tuning.reductions = number()? != 0,
            "piece" => weights.piece = number()? as i32,
            "mobility" => weights.mobility = number()? as i32,
            "open_move" => weights.open_line_to_move = number()? as i32,
            "open_one" => weights.open_line_one = number()? as i32,
            "open_two" => weights.open_line_two = number()? as i32,
            "enclosure1" => weights.enclosure[0] = number()? as i32,
            "enclosure2" => weights.enclosure[1] = number()? as i32,
            "two_moves" => weights.two_moves_to_escape = number()? as i32,
            "routes" => weights.escape_route = number()? as i32,
            "guard" => weights.guard = number()? as i32,
            "threat" => weights.threat_percent = number()? as i32,
            "tempo" => weights.tempo = number()? as i32,
            _ => return Err(format!("unknown setting `{word}`")),
        }
    }
    let words: Vec<&str> = limit_words.iter().map(String::as_str).collect();
    side.limits = Limits::from_words(&words).map_err(|e| e.to_string())?;
    Ok(side)
}

/// How a game ended, for the side called A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// Neither (the ply cap).
    Draw,
    /// A lost.
    Loss,
}

/// Plays one game from `start`: `a` plays `a_player`, `b` the other; a game longer than
/// `max_plies` is a draw. With `verbose`, prints each move with its score and depth.
/// Returns the result for A and the plies played.
pub fn play_game(
    start: &Game,
    a: &Side,
    b: &Side,
    a_player: Player,
    max_plies: usize,
    seed: u64,
    verbose: bool,
) -> (GameResult, usize) {
    let mut game = start.clone();
    let mut engines = [a, b].map(|side| {
        let mut engine = Engine::with_tuning(side.config.clone(), side.tuning.clone());
        engine.seed(seed);
        engine
    });
    let mut plies = 0;
    while plies < max_plies {
        if let Some(outcome) = game.outcome() {
            let result = match outcome.winner {
                Some(winner) if winner == a_player => GameResult::Win,
                Some(_) => GameResult::Loss,
                None => GameResult::Draw,
            };
            return (result, plies);
        }
        let index = usize::from(game.side_to_move() != a_player);
        let side = [a, b][index];
        let found = engines[index].search(
            &game,
            &side.limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        if verbose {
            if let Some(mv) = found.best {
                println!(
                    "  ply {plies:3}: {} {} score {} depth {} nodes {}",
                    if index == 0 { 'A' } else { 'B' },
                    game.rules()
                        .format_move(mv, hnefatafl_core::Notation::Numeric),
                    found.score,
                    found.depth,
                    found.nodes
                );
            }
        }
        let Some(mv) = found.best else {
            // No move although the game is not over: cannot happen; count it as a loss.
            let result = if index == 0 {
                GameResult::Loss
            } else {
                GameResult::Win
            };
            return (result, plies);
        };
        if game.play(mv).is_err() {
            let result = if index == 0 {
                GameResult::Loss
            } else {
                GameResult::Win
            };
            return (result, plies);
        }
        plies += 1;
    }
    match game.outcome() {
        Some(outcome) if outcome.winner == Some(a_player) => (GameResult::Win, plies),
        Some(outcome) if outcome.winner.is_some() => (GameResult::Loss, plies),
        _ => (GameResult::Draw, plies),
    }
}

/// The Elo difference of a score fraction (0..1), if finite.
pub fn elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The Elo difference of A over B and its 95% error margin, from wins, draws and losses.
/// A score of 0% or 100% has no finite Elo: `None`.
pub fn elo_with_margin(wins: u32, draws: u32, losses: u32) -> Option<(f64, f64)> {
    let games = f64::from(wins + draws + losses);
    if games == 0.0 {
        return None;
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / games;
    let variance = (f64::from(wins) * (1.0 - score).powi(2)
        + f64::from(draws) * (0.5 - score).powi(2)
        + f64::from(losses) * score.powi(2))
        / games;
    let deviation = (variance / games).sqrt();
    let centre = elo(score)?;
    let low = elo((score - 1.96 * deviation).max(1e-6)).unwrap_or(f64::NEG_INFINITY);
    let high = elo((score + 1.96 * deviation).min(1.0 - 1e-6)).unwrap_or(f64::INFINITY);
    Some((centre, (high - low) / 2.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_uneven_scores() {
        assert_eq!(elo(0.5), Some(0.0));
        let (centre, margin) = elo_with_margin(30, 0, 10).expect("finite");
        assert!((centre - 190.8).abs() < 0.1, "{centre}");
        assert!(margin > 50.0 && margin < 200.0, "{margin}");
        assert_eq!(elo_with_margin(10, 0, 0), None);
    }

    #[test]
    fn sides_are_read() {
        let side = parse_side("level=3,threads=2 d4").expect("valid");
        assert_eq!(side.limits.level, Some(3));
        assert_eq!(side.limits.depth, Some(4));
        assert_eq!(side.config.threads, 2);
        assert!(parse_side("speed=3").is_err());
    }
}
