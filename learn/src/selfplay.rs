//! Self-play data for training a network: games of the engine at fixed nodes (or a fixed
//! depth), each position stored with the search's score and the game's result.
//!
//! A game depends only on the rules, the [`SelfPlay`] settings and its number, so the
//! data is the same for the same seed whatever the number of threads, and a run that was
//! stopped plays only the games its shard ([`crate::shard`]) does not hold yet.
//!
//! [`read_games`] reads the data file of runs before shards (`games.bin`): a list of
//! games, all numbers little-endian: `u32` game number, `i8` result (player 0's: 1 win,
//! 0 draw, -1 loss), `u32` positions, then each position: `u8` side to move, `i16` score
//! (player 0's view, hundredths of a piece), `u16` inputs, the inputs (`u16` each,
//! [`aim::nnue::Layout::input`]); `train` turns such a file into a shard once.

use crate::cursor::Cursor;
use aim::nnue::{Layout, Network, fnv1a};
use aim::{Engine, EngineConfig, Limits, Tuning};
use hnefatafl_core::random::random_opening;
use hnefatafl_core::{Game, Player, Position, Rules, Setup, Square};
use hnefatafl_matches::openings::{opening_line, random_plies, read_openings};
use std::path::Path;
use std::sync::Arc;

/// How the settings of a shard of recorded games start ([`crate::import`]): games that
/// no one engine played, which [`players_key`] does not take for repeats.
pub const RECORDED: &str = "recorded games";

/// Search scores are clamped to this before they are stored (decisive ones too): a
/// winning chance of about 99.3% at the usual scale.
pub const MAX_STORED_SCORE: i32 = 2000;

/// How self-play games are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Nodes a move.
    pub nodes: u64,
    /// Nodes a move for player 0 or player 1 instead (the match runner's `nodes0` and
    /// `nodes1` handicap), to balance a rule file one side wins at equal nodes.
    pub nodes_as: [Option<u64>; 2],
    /// A fixed depth a move instead of the nodes (the handicap's nodes still cap it).
    pub depth: Option<u32>,
    /// Random plies before the engine plays: from the start, or after an opening of
    /// [`SelfPlay::openings`].
    pub opening_plies: usize,
    /// The openings games start from, game `n` from opening `n` modulo their number.
    pub openings: Option<Arc<Openings>>,
    /// A game longer than this is a draw.
    pub max_plies: usize,
    /// Seed of the openings and of the engine.
    pub seed: u64,
    /// The network both sides evaluate with, or `None` for the classic evaluation: a
    /// network plays the games its successor learns from.
    pub network: Option<Arc<Network>>,
}

/// An opening set (the match runner's form, [`hnefatafl_matches::openings`]), read for
/// self-play. Two sets are equal when their lines are.
#[derive(Clone, Debug)]
pub struct Openings {
    /// The openings, each a game of its moves.
    pub games: Vec<Game>,
    /// FNV-1a of the openings' lines: names the set in the settings of its games.
    pub checksum: u64,
}

impl Openings {
    /// Reads an opening set for these rules.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, or a line that is not an opening of the rules, named
    /// with the file.
    pub fn read(rules: &Rules, path: &Path) -> Result<Openings, String> {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let games = read_openings(rules, &text).map_err(|e| format!("{name}: {e}"))?;
        let lines: Vec<String> = games.iter().map(opening_line).collect();
        Ok(Openings {
            checksum: fnv1a(lines.join("\n").as_bytes()),
            games,
        })
    }
}

impl PartialEq for Openings {
    fn eq(&self, other: &Openings) -> bool {
        (self.checksum, self.games.len()) == (other.checksum, other.games.len())
    }
}

impl Eq for Openings {}

impl SelfPlay {
    /// The settings as one line, stored in the data's shard so that a continued run is
    /// known to make the same kind of data.
    pub fn describe(&self, rules: &Rules) -> String {
        let nodes_as = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
        let mut line = format!(
            "rules {} layout {:016x} nodes {} nodes0 {} nodes1 {} opening {} plies {} seed {}",
            rules.id(),
            Layout::of(rules).fingerprint(),
            self.nodes,
            nodes_as(self.nodes_as[0]),
            nodes_as(self.nodes_as[1]),
            self.opening_plies,
            self.max_plies,
            self.seed
        );
        if let Some(network) = &self.network {
            line += &format!(" network {:016x}", network.checksum());
        }
        if let Some(depth) = self.depth {
            line += &format!(" depth {depth}");
        }
        if let Some(openings) = &self.openings {
            let count = openings.games.len();
            line += &format!(" openings {count} {:016x}", openings.checksum);
        }
        line
    }

    /// The search limits of a move of `side`.
    fn limits(&self, side: Player) -> Limits {
        let handicap = self.nodes_as[side.index()];
        Limits {
            depth: self.depth,
            nodes: match self.depth {
                Some(_) => handicap,
                None => Some(handicap.unwrap_or(self.nodes)),
            },
            ..Limits::default()
        }
    }

    /// The position game `number` starts from before the engine plays: an opening of the
    /// set (if any), then the random plies.
    fn start(&self, rules: &Rules, number: u32, seed: u64) -> Game {
        match &self.openings {
            Some(openings) if !openings.games.is_empty() => {
                let mut game = openings.games[number as usize % openings.games.len()].clone();
                random_plies(&mut game, self.opening_plies, seed);
                game
            }
            _ => random_opening(rules, self.opening_plies, seed),
        }
    }
}

/// One position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move.
    pub side: Player,
    /// The search's score, player 0's view, clamped to [`MAX_STORED_SCORE`].
    pub score: i16,
    /// The network's inputs that are on: one per piece.
    pub inputs: Vec<u16>,
}

/// A played game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Its number.
    pub number: u32,
    /// Player 0's result: 1 a win, 0 a draw, -1 a loss.
    pub result: i8,
    /// The positions the engine moved in.
    pub samples: Vec<Sample>,
}

/// The inputs of a position that are on.
pub fn inputs_of(layout: &Layout, position: &Position) -> Vec<u16> {
    position
        .board()
        .enumerate()
        .filter_map(|(index, piece)| layout.input(piece?, index))
        .map(|input| input as u16)
        .collect()
}

/// The position a sample was taken in, rebuilt from its inputs (the pieces) and side to
/// move, or `None` where they do not make a position of these rules.
pub fn position_of(rules: &Rules, layout: &Layout, sample: &Sample) -> Option<Position> {
    let squares = layout.squares();
    let width = usize::from(layout.width());
    let mut pieces = Vec::with_capacity(sample.inputs.len());
    for &input in &sample.inputs {
        let (slot, index) = (usize::from(input) / squares, usize::from(input) % squares);
        let piece = rules
            .piece_rules()
            .iter()
            .map(|rule| rule.piece())
            .find(|&piece| layout.input(piece, 0) == Some(slot * squares))?;
        let square = Square::new((index % width) as u8, (index / width) as u8)?;
        pieces.push((square, piece));
    }
    Position::from_setup(rules, &Setup::new(pieces, sample.side)).ok()
}

/// The classic evaluation of a sample's position as a logit of player 0's winning chance
/// (hundredths of a piece over [`aim::nnue::PIECE_SCALE`]): what a network trained on top
/// of it adds to. 0 where the inputs make no position.
pub fn classic_logit(engine: &mut Engine, rules: &Rules, layout: &Layout, sample: &Sample) -> f32 {
    let Some(position) = position_of(rules, layout, sample) else {
        return 0.0;
    };
    let score = engine.evaluate(&position).0;
    let score = if sample.side == Player::Zero {
        score
    } else {
        -score
    };
    score as f32 / f32::from(aim::nnue::PIECE_SCALE)
}

/// Plays game `number`: its start ([`SelfPlay::openings`] and random plies from the seed
/// and the number), then the engine (one thread, a fresh table, the settings' network or
/// the classic evaluation) for both sides at fixed nodes or depth. Every position the
/// engine moved in is kept, with the score of the search that chose the move.
pub fn play_game(rules: &Rules, settings: &SelfPlay, number: u32) -> GameRecord {
    let layout = Layout::of(rules);
    let seed = settings
        .seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(number));
    let mut game = settings.start(rules, number, seed);
    let mut engine = Engine::with_tuning(
        EngineConfig {
            threads: 1,
            hash_mib: 8,
        },
        Tuning::default(),
    );
    engine.seed(seed);
    engine.set_network(settings.network.clone());
    let mut samples = Vec::new();
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner {
                Some(Player::Zero) => 1,
                Some(Player::One) => -1,
                None => 0,
            };
        }
        if game.ply() >= settings.max_plies {
            break 0;
        }
        let side = game.side_to_move();
        let limits = settings.limits(side);
        let found = engine.search_within(&game, &limits);
        let Some(mv) = found.best else {
            // No move although the game goes on: a loss for the side to move.
            break if side == Player::Zero { -1 } else { 1 };
        };
        let score = found.score.0.clamp(-MAX_STORED_SCORE, MAX_STORED_SCORE);
        let score = if side == Player::Zero { score } else { -score };
        samples.push(Sample {
            side,
            score: score as i16,
            inputs: inputs_of(&layout, game.position()),
        });
        if game.try_play(mv).is_err() {
            break if side == Player::Zero { -1 } else { 1 };
        }
    };
    GameRecord {
        number,
        result,
        samples,
    }
}

/// Drops each game that starts where an earlier one did, and says how many went. The
/// engine plays a position the same way each time, so such a game repeats the earlier
/// one move for move: its positions teach nothing new, and when one of the two is held
/// out and the other trained on, the validation loss says the network knows what it has
/// only seen. Few random opening plies on a board with few first moves (halatafl's
/// compulsory jumps) give such games.
pub fn drop_repeated_games(games: &mut Vec<GameRecord>) -> usize {
    let before = games.len();
    let mut seen = std::collections::HashSet::new();
    games.retain(|game| {
        game.samples
            .first()
            .is_none_or(|first| seen.insert((first.side.index(), first.inputs.clone())))
    });
    before - games.len()
}

/// Which engine played a run's games, from its settings line ([`SelfPlay::describe`], a
/// shard's header): the line less its seed, which picks the starts only. Games from one
/// start repeat each other only when the same engine played them: a shard of another
/// network, depth or node count starts where this run's games do and goes elsewhere.
/// `None` for recorded games ([`crate::import`]): people's games from one start are not
/// repeats of each other.
pub fn players_key(settings: &str) -> Option<u64> {
    if settings.starts_with(RECORDED) {
        return None;
    }
    let mut words = settings.split_whitespace();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    while let Some(word) = words.next() {
        if word == "seed" {
            words.next();
            continue;
        }
        for byte in word.bytes().chain([b' ']) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }
    Some(hash)
}

/// The engine that played a shard's games (or, for recorded games, scored their
/// positions), read back from its settings line ([`SelfPlay::describe`],
/// [`crate::import::Import::describe`]): what a network trained on them is tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Players {
    /// Nodes a move, or of the search that scored each recorded position.
    pub nodes: u64,
    /// The node handicap of player 0 and player 1, if any.
    pub nodes_as: [Option<u64>; 2],
    /// The fixed depth a move, if any.
    pub depth: Option<u32>,
    /// The checksum of the network it evaluated with ([`Network::checksum`]), `None` for
    /// the classic evaluation.
    pub network: Option<u64>,
    /// People played the games; the engine only scored their positions.
    pub recorded: bool,
}

impl Players {
    /// The engine of `settings`, which play a run's games.
    pub fn of(settings: &SelfPlay) -> Players {
        Players {
            nodes: settings.nodes,
            nodes_as: settings.nodes_as,
            depth: settings.depth,
            network: settings.network.as_ref().map(|network| network.checksum()),
            recorded: false,
        }
    }

    /// The engine named by a shard's settings line. Each setting is a word and its value;
    /// of recorded games, only those after the file's name (which may hold any word) are
    /// read. A value that does not read is left as none (nodes 0): every line is written
    /// by this program, and the shard's checksum keeps it whole.
    pub fn of_settings(line: &str) -> Players {
        let recorded = line.starts_with(RECORDED);
        let mut players = Players {
            nodes: 0,
            nodes_as: [None, None],
            depth: None,
            network: None,
            recorded,
        };
        let settings = match line.rfind(" rules ") {
            Some(at) if recorded => &line[at..],
            _ => line,
        };
        let words: Vec<&str> = settings.split_whitespace().collect();
        for pair in words.windows(2) {
            let value = pair[1];
            match pair[0] {
                "nodes" => players.nodes = value.parse().unwrap_or(players.nodes),
                "nodes0" => players.nodes_as[0] = value.parse().ok(),
                "nodes1" => players.nodes_as[1] = value.parse().ok(),
                "depth" => players.depth = value.parse().ok(),
                "network" => players.network = u64::from_str_radix(value, 16).ok(),
                _ => {}
            }
        }
        players
    }

    /// The match runner's side of this engine, less its evaluation: `n500`,
    /// `d3,nodes0=300`.
    pub fn side(&self) -> String {
        let mut side = match self.depth {
            Some(depth) => format!("d{depth}"),
            None => format!("n{}", self.nodes),
        };
        for (player, nodes) in self.nodes_as.iter().enumerate() {
            if let Some(nodes) = nodes {
                side.push_str(&format!(",nodes{player}={nodes}"));
            }
        }
        side
    }
}

/// Appends a game to the bytes of a data file of the form before shards (for tests of
/// [`read_games`]).
pub fn write_game(record: &GameRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(&record.number.to_le_bytes());
    out.push(record.result as u8);
    out.extend_from_slice(&(record.samples.len() as u32).to_le_bytes());
    for sample in &record.samples {
        out.push(sample.side.index() as u8);
        out.extend_from_slice(&sample.score.to_le_bytes());
        out.extend_from_slice(&(sample.inputs.len() as u16).to_le_bytes());
        for input in &sample.inputs {
            out.extend_from_slice(&input.to_le_bytes());
        }
    }
}

/// Reads the games of the bytes of a data file of the form before shards (`games.bin`):
/// the complete ones, and the length of the
/// bytes they take (a run stopped while writing leaves a partial game after them).
///
/// # Errors
///
/// A game out of its place or a position with a side or input that cannot be: the file
/// is not one of these settings' data.
pub fn read_games(bytes: &[u8], inputs: usize) -> Result<(Vec<GameRecord>, usize), String> {
    let mut games = Vec::new();
    let mut at = 0;
    while let Some((record, end)) = read_game(bytes, at, inputs)? {
        if record.number as usize != games.len() {
            return Err(format!(
                "game {} where game {} belongs (at byte {at})",
                record.number,
                games.len()
            ));
        }
        games.push(record);
        at = end;
    }
    Ok((games, at))
}

/// Reads one game at `at`: `None` when the bytes end before it does.
fn read_game(
    bytes: &[u8],
    at: usize,
    inputs: usize,
) -> Result<Option<(GameRecord, usize)>, String> {
    let mut cursor = Cursor { bytes, at };
    let (Some(number), Some(result), Some(count)) = (cursor.u32(), cursor.u8(), cursor.u32())
    else {
        return Ok(None);
    };
    let result = result as i8;
    if !(-1..=1).contains(&result) {
        return Err(format!("game {number}: result {result} (at byte {at})"));
    }
    let mut samples = Vec::new();
    for _ in 0..count {
        let (Some(side), Some(score), Some(active)) = (cursor.u8(), cursor.u16(), cursor.u16())
        else {
            return Ok(None);
        };
        let side = Player::from_index(usize::from(side))
            .ok_or_else(|| format!("game {number}: side to move {side}"))?;
        let mut list = Vec::with_capacity(usize::from(active));
        for _ in 0..active {
            let Some(input) = cursor.u16() else {
                return Ok(None);
            };
            if usize::from(input) >= inputs {
                return Err(format!("game {number}: input {input} of {inputs}"));
            }
            list.push(input);
        }
        samples.push(Sample {
            side,
            score: score as i16,
            inputs: list,
        });
    }
    let record = GameRecord {
        number,
        result,
        samples,
    };
    Ok(Some((record, cursor.at)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brandubh() -> Rules {
        Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules")
    }

    fn settings(seed: u64) -> SelfPlay {
        SelfPlay {
            nodes: 200,
            nodes_as: [Some(400), None],
            depth: None,
            opening_plies: 4,
            openings: None,
            max_plies: 120,
            seed,
            network: None,
        }
    }

    #[test]
    fn a_sample_gives_back_the_position_it_was_taken_in() {
        // Tablut: 9x9, its three types; the positions of a game as it is played.
        let rules = Rules::parse(include_bytes!("../../data/rules/tablut")).expect("rules");
        let layout = Layout::of(&rules);
        let mut game = random_opening(&rules, 12, 7);
        let mut engine = Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib: 1,
            },
            Tuning::default(),
        );
        for _ in 0..6 {
            let position = game.position().clone();
            let sample = Sample {
                side: position.side_to_move(),
                score: 0,
                inputs: inputs_of(&layout, &position),
            };
            let rebuilt = position_of(&rules, &layout, &sample).expect("a position");
            assert_eq!(
                rebuilt.board().collect::<Vec<_>>(),
                position.board().collect::<Vec<_>>()
            );
            assert_eq!(rebuilt.side_to_move(), position.side_to_move());
            // The logit is the classic evaluation of the position, from player 0's view.
            let own = engine.evaluate(&position).0 as f32 / f32::from(aim::nnue::PIECE_SCALE);
            let own = if sample.side == Player::Zero {
                own
            } else {
                -own
            };
            assert_eq!(classic_logit(&mut engine, &rules, &layout, &sample), own);
            let mv = position.moves().nth(3).expect("a move");
            game.try_play(mv).expect("legal");
        }
        // Inputs that are no position of the rules (two pieces on one square) give none.
        let mut sample = Sample {
            side: Player::Zero,
            score: 0,
            inputs: inputs_of(&layout, game.position()),
        };
        sample.inputs.push(sample.inputs[0]);
        assert!(position_of(&rules, &layout, &sample).is_none());
    }

    #[test]
    fn the_same_seed_gives_the_same_data() {
        let rules = brandubh();
        let games = |seed| -> Vec<GameRecord> {
            (0..3)
                .map(|number| play_game(&rules, &settings(seed), number))
                .collect()
        };
        let first = games(1);
        assert_eq!(first, games(1));
        assert_ne!(first, games(2));
        assert!(first.iter().all(|game| !game.samples.is_empty()));
        // Every stored position has the pieces of a brandubh position: 1 to 13.
        for sample in first.iter().flat_map(|game| &game.samples) {
            assert!((1..=13).contains(&sample.inputs.len()), "{sample:?}");
        }
    }

    #[test]
    fn a_network_plays_its_own_games_the_same_each_time() {
        let rules = brandubh();
        // A network of zero weights: every position even, so the engine plays otherwise
        // than with the classic evaluation.
        let with = SelfPlay {
            network: Some(Arc::new(Network::zero(Layout::of(&rules)))),
            ..settings(1)
        };
        let games = |settings: &SelfPlay| -> Vec<GameRecord> {
            (0..2)
                .map(|number| play_game(&rules, settings, number))
                .collect()
        };
        let first = games(&with);
        assert_eq!(first, games(&with));
        assert_ne!(first, games(&settings(1)));
        // Its settings line names the network, so its data is not mixed with another's.
        let line = with.describe(&rules);
        assert!(line.starts_with(&settings(1).describe(&rules)), "{line}");
        assert!(line.contains(" network "), "{line}");
    }

    #[test]
    fn games_start_from_the_openings_of_a_set_and_play_to_a_depth() {
        let rules = brandubh();
        let path = format!(
            "{}/../matches/openings/brandub.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let openings = Arc::new(Openings::read(&rules, Path::new(&path)).expect("the set"));
        assert_eq!(openings.games.len(), 50);
        let layout = Layout::of(&rules);
        let from_set = SelfPlay {
            opening_plies: 0,
            openings: Some(Arc::clone(&openings)),
            depth: Some(2),
            max_plies: 12,
            ..settings(1)
        };
        for number in [0, 1, 51] {
            let game = play_game(&rules, &from_set, number);
            let opening = &openings.games[number as usize % 50];
            assert_eq!(
                game.samples[0].inputs,
                inputs_of(&layout, opening.position()),
                "game {number} starts where its opening ends"
            );
            assert_eq!(game.samples[0].side, opening.side_to_move());
        }
        // Random plies after the opening make other games of the same opening.
        let varied = SelfPlay {
            opening_plies: 2,
            ..from_set.clone()
        };
        assert_ne!(
            play_game(&rules, &varied, 0),
            play_game(&rules, &varied, 50)
        );
        // The settings line names the set and the depth; without them it is as before.
        let line = varied.describe(&rules);
        assert!(
            line.ends_with(&format!(" depth 2 openings 50 {:016x}", openings.checksum)),
            "{line}"
        );
        assert!(!settings(1).describe(&rules).contains("openings"));
        // A missing set is named.
        let error = Openings::read(&rules, Path::new("/no/such.txt")).expect_err("refused");
        assert!(error.starts_with("/no/such.txt: "), "{error}");
    }

    #[test]
    fn a_game_from_an_earlier_games_start_is_dropped() {
        let rules = brandubh();
        let short = |opening_plies| SelfPlay {
            opening_plies,
            max_plies: 6,
            ..settings(5)
        };
        let mut same: Vec<GameRecord> = (0..3).map(|n| play_game(&rules, &short(0), n)).collect();
        assert_eq!(
            same[0].samples, same[2].samples,
            "no opening: every game alike"
        );
        assert_eq!(drop_repeated_games(&mut same), 2);
        assert_eq!(same.iter().map(|g| g.number).collect::<Vec<_>>(), [0]);
        let varied: Vec<GameRecord> = (0..3).map(|n| play_game(&rules, &short(4), n)).collect();
        let firsts: Vec<_> = varied.iter().map(|g| g.samples[0].inputs.clone()).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let mut repeated = varied.clone();
        repeated.push(varied[1].clone());
        assert_eq!(drop_repeated_games(&mut repeated), 1);
        assert_eq!(repeated, varied, "the first of each start is kept");
    }

    #[test]
    fn the_players_key_is_the_settings_but_the_seed() {
        let rules = brandubh();
        let key = |settings: &SelfPlay| players_key(&settings.describe(&rules));
        assert_eq!(key(&settings(1)), key(&settings(2)));
        let deeper = SelfPlay {
            depth: Some(3),
            ..settings(1)
        };
        assert_ne!(key(&deeper), key(&settings(1)));
        let more_nodes = SelfPlay {
            nodes: settings(1).nodes + 1,
            ..settings(1)
        };
        assert_ne!(key(&more_nodes), key(&settings(1)));
        // Words, not characters: a value cannot run into the next word.
        assert_ne!(players_key("nodes 50 0"), players_key("nodes 500"));
        assert!(key(&settings(1)).is_some());
        assert_eq!(players_key("recorded games of people.csv nodes 500"), None);
    }

    #[test]
    fn the_players_read_back_from_a_settings_line_are_those_that_wrote_it() {
        let rules = brandubh();
        let network = Network::zero(Layout::of(&rules));
        let checksum = network.checksum();
        let engines = [
            settings(1),
            SelfPlay {
                depth: Some(3),
                nodes_as: [None, Some(90)],
                network: Some(Arc::new(network)),
                ..settings(2)
            },
        ];
        for engine in &engines {
            let read = Players::of_settings(&engine.describe(&rules));
            assert_eq!(read, Players::of(engine));
        }
        let [handicap, deep] = engines.map(|engine| Players::of(&engine));
        assert_eq!(handicap.side(), "n200,nodes0=400");
        assert_eq!(
            (deep.side(), deep.network),
            ("d3,nodes1=90".to_string(), Some(checksum))
        );
        // Recorded games: the scoring search's, whatever words the file's name holds.
        let import = |network: Option<Arc<Network>>| crate::import::Import {
            nodes: 500,
            network,
        };
        let scored_by = Some(Arc::new(Network::zero(Layout::of(&rules))));
        let name = "x/depth 2 network 00000000000000ab rules nodes 7.csv";
        let recorded = Players {
            nodes: 500,
            nodes_as: [None, None],
            depth: None,
            network: Some(checksum),
            recorded: true,
        };
        let line = import(scored_by).describe(&rules, name);
        assert_eq!(Players::of_settings(&line), recorded);
        let line = import(None).describe(&rules, name);
        assert_eq!(
            Players::of_settings(&line),
            Players {
                network: None,
                ..recorded
            }
        );
        assert!(!Players::of_settings("rules brandubh nodes 500").recorded);
    }

    #[test]
    fn games_are_written_and_read_back_and_a_cut_file_keeps_its_whole_games() {
        let rules = brandubh();
        let inputs = Layout::of(&rules).inputs();
        let games: Vec<GameRecord> = (0..2)
            .map(|number| play_game(&rules, &settings(5), number))
            .collect();
        let mut bytes = Vec::new();
        for game in &games {
            write_game(game, &mut bytes);
        }
        let (read, used) = read_games(&bytes, inputs).expect("valid");
        assert_eq!((read.as_slice(), used), (games.as_slice(), bytes.len()));
        let mut first = Vec::new();
        write_game(&games[0], &mut first);
        let (read, used) = read_games(&bytes[..bytes.len() - 3], inputs).expect("valid");
        assert_eq!((read.len(), used), (1, first.len()));
        // Data of a bigger board is refused, not misread.
        assert!(read_games(&bytes, 3).is_err());
    }
}
