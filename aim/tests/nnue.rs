//! The learned evaluation's network: its accumulator kept move by move against one
//! computed from scratch, its file format, and its errors.

use aim::nnue::{
    ACTIVATION_SCALE, HIDDEN, Layout, Network, NetworkProblem, OUTPUT_SCALE, PIECE_SCALE, WIDTHS,
    Weights,
};
use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{Player, Position, Rules, Undo};

/// Every shipped rule file, with its name.
fn shipped_rules() -> Vec<(String, Rules)> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/rules");
    let mut all: Vec<(String, Rules)> = std::fs::read_dir(folder)
        .expect("data/rules")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let text = std::fs::read(&path).expect("a rule file");
            let name = path.file_name().expect("a name").to_string_lossy().into();
            let rules = Rules::parse(&text).expect("a shipped rule file parses");
            (name, rules)
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(all.len() >= 10, "the shipped rule files");
    all
}

/// A network of small random weights for a rule file's layout.
fn random_network(rules: &Rules, seed: u64) -> Network {
    random_network_of_width(rules, seed, HIDDEN)
}

/// A network of small random weights, `hidden` units wide.
fn random_network_of_width(rules: &Rules, seed: u64, hidden: usize) -> Network {
    let layout = Layout::of(rules);
    let mut random = SplitMix::new(seed);
    let mut small = |range: usize| random.below(2 * range + 1) as i16 - range as i16;
    let weights = Weights {
        piece_scale: PIECE_SCALE,
        classic_share: 0,
        input: (0..layout.inputs() * hidden).map(|_| small(60)).collect(),
        hidden_bias: (0..hidden).map(|_| small(200)).collect(),
        output: (0..2 * hidden).map(|_| small(100)).collect(),
        output_bias: [i32::from(small(1000)), i32::from(small(1000))],
    };
    Network::new("random", layout, &weights).expect("the right lengths")
}

/// Random moves played and taken back on every shipped board, the accumulator updated
/// with each and compared with one computed from all the pieces, at both widths.
#[test]
fn the_accumulator_kept_move_by_move_equals_a_fresh_one_on_every_shipped_board() {
    for ((name, rules), hidden) in shipped_rules()
        .into_iter()
        .flat_map(|rules| WIDTHS.map(|w| (rules.clone(), w)))
    {
        let network = random_network_of_width(&rules, 11, hidden);
        assert_eq!(network.hidden(), hidden);
        assert_eq!(
            network.refresh(&rules.start_position()).values().len(),
            hidden
        );
        let mut random = SplitMix::new(5);
        let (mut captures, mut jumps, mut checked) = (0, 0, 0);
        for game in 0..6 {
            let mut position = rules.start_position();
            let mut accumulator = network.refresh(&position);
            let mut stack: Vec<(Undo, Position)> = Vec::new();
            for _ in 0..160 {
                let moves: Vec<_> = position.moves().collect();
                let back = random.below(4) == 0 && !stack.is_empty();
                if back || moves.is_empty() || position.outcome_with(true).is_some() {
                    let Some((undo, before)) = stack.pop() else {
                        break;
                    };
                    position.take_back(&undo);
                    assert_eq!(position, before, "{name}: the position is taken back");
                    network.take_back(&mut accumulator, &position, &undo);
                } else {
                    let mv = moves[random.below(moves.len())];
                    let before = position.clone();
                    let undo = position.play_unchecked(mv);
                    captures += undo.captures().count();
                    jumps += usize::from(!mv.jumps().is_empty());
                    network.play(&mut accumulator, &position, &undo);
                    stack.push((undo, before));
                }
                assert_eq!(
                    accumulator,
                    network.refresh(&position),
                    "{name}, {hidden} wide, game {game}: kept and fresh accumulators differ"
                );
                let side = position.side_to_move();
                assert_eq!(
                    network.evaluate(&accumulator, side),
                    network.evaluate(&network.refresh(&position), side)
                );
                checked += 1;
            }
        }
        assert!(checked > 300, "{name}: {checked} positions checked");
        assert!(captures > 0, "{name}: no capture was played");
        if name == "halatafl" {
            assert!(jumps > 0, "halatafl: no jump capture was played");
        }
    }
}

/// A network whose value is worked out by hand: one hidden unit at full activation, at
/// both widths, the unit in the last block (so a wide network's second block is read).
#[test]
fn the_evaluation_is_the_hand_computed_value() {
    let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
    let layout = Layout::of(&rules);
    for hidden in WIDTHS {
        let (on, off) = (hidden - 2, hidden - 1);
        let mut hidden_bias = vec![0; hidden];
        // Unit `on` at 2.0 before the clip (1.0 after it), `off` below zero (0 after it).
        hidden_bias[on] = 2 * ACTIVATION_SCALE;
        hidden_bias[off] = -ACTIVATION_SCALE;
        let mut output = vec![0; 2 * hidden];
        // Player 0 to move: 0.5 * 1.0 = 0.5 units; player 1: -0.25 units, and unit `off`
        // at 0 contributes nothing whatever its weight.
        output[on] = (OUTPUT_SCALE / 2) as i16;
        output[off] = 1000;
        output[hidden + on] = -(OUTPUT_SCALE / 4) as i16;
        let weights = Weights {
            piece_scale: 400,
            classic_share: 0,
            input: vec![0; layout.inputs() * hidden],
            hidden_bias,
            output,
            output_bias: [0, i32::from(ACTIVATION_SCALE) * OUTPUT_SCALE],
        };
        let network = Network::new("hand", layout, &weights).expect("lengths");
        let accumulator = network.refresh(&rules.start_position());
        // 0.5 units of 400 hundredths, player 0's view.
        assert_eq!(
            network.evaluate(&accumulator, Player::Zero),
            200,
            "{hidden}"
        );
        // -0.25 + 1.0 (the bias) = 0.75 units for player 0: -300 for player 1 to move.
        assert_eq!(
            network.evaluate(&accumulator, Player::One),
            -300,
            "{hidden}"
        );
    }
}

/// Widths other than those of `WIDTHS`, and lists that do not fit the width, are refused.
#[test]
fn a_network_of_another_width_is_refused() {
    let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
    let layout = Layout::of(&rules);
    let narrow = random_network(&rules, 2).weights();
    for hidden in [0, 64, 192, 384] {
        let weights = Weights {
            input: vec![0; layout.inputs() * hidden],
            hidden_bias: vec![0; hidden],
            output: vec![0; 2 * hidden],
            ..narrow.clone()
        };
        let error = Network::new("w", layout, &weights).expect_err("refused");
        assert_eq!(
            error.problem,
            NetworkProblem::Shape {
                hidden: hidden as u16,
                outputs: 2
            }
        );
        assert!(Network::zero_of_width(layout, hidden).is_none());
    }
    // 256 biases with a narrow network's first layer.
    let weights = Weights {
        hidden_bias: vec![0; 256],
        output: vec![0; 512],
        ..narrow
    };
    let error = Network::new("w", layout, &weights).expect_err("refused");
    assert!(
        matches!(
            error.problem,
            NetworkProblem::WrongLength {
                what: "first layer weights",
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_saved_network_reads_back_the_same() {
    for (name, rules) in shipped_rules() {
        let network = random_network(&rules, 3);
        let wide = random_network_of_width(&rules, 3, 256);
        let read = Network::for_rules(&name, &wide.to_bytes(), &rules).expect("a wide one");
        assert_eq!((read.hidden(), &read), (256, &wide), "{name}");
        let bytes = network.to_bytes();
        let read = Network::for_rules(&name, &bytes, &rules).expect("its own bytes");
        assert_eq!(read, network, "{name}");
        let position = rules.start_position();
        assert_eq!(
            read.evaluate(&read.refresh(&position), Player::One),
            network.evaluate(&network.refresh(&position), Player::One)
        );
        // The checksum is the one the file ends with, and other weights have another.
        let end: [u8; 8] = bytes[bytes.len() - 8..].try_into().expect("8 bytes");
        assert_eq!(network.checksum(), u64::from_le_bytes(end), "{name}");
        assert_ne!(
            network.checksum(),
            random_network(&rules, 4).checksum(),
            "{name}"
        );
    }
}

/// The problem `Network::from_bytes` finds in these bytes, checking that its message
/// names the file.
fn problem(bytes: &[u8]) -> NetworkProblem {
    let error = Network::from_bytes("nets/brandubh.nnue", bytes).expect_err("refused");
    let message = error.to_string();
    assert!(
        message.starts_with("network nets/brandubh.nnue: "),
        "{message}"
    );
    error.problem
}

#[test]
fn a_damaged_network_gets_an_error_naming_the_file() {
    let rules = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
    let bytes = random_network(&rules, 9).to_bytes();

    assert_eq!(problem(b""), NetworkProblem::NotANetwork);
    assert_eq!(problem(b"P5\n7 7\n"), NetworkProblem::NotANetwork);
    // Cut short anywhere: in the header, in the weights, in the checksum.
    for cut in [10, 20, 40, 1000, bytes.len() - 1] {
        assert!(
            matches!(problem(&bytes[..cut]), NetworkProblem::Length { found, .. } if found == cut),
            "cut at {cut}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(problem(&longer), NetworkProblem::Length { .. }));
    // One weight changed.
    let mut damaged = bytes.clone();
    damaged[500] ^= 0x10;
    assert_eq!(problem(&damaged), NetworkProblem::Checksum);
    // Another version.
    let mut newer = bytes.clone();
    newer[8] = 3;
    assert_eq!(problem(&newer), NetworkProblem::Version { found: 3 });
    // Other layer sizes: a width this build does not have, and one it has that the
    // weights do not fit.
    let mut other = bytes.clone();
    other[28] = 192;
    other[29] = 0;
    assert!(matches!(
        problem(&other),
        NetworkProblem::Shape { hidden: 192, .. }
    ));
    other[28] = 0;
    other[29] = 1;
    assert!(matches!(problem(&other), NetworkProblem::Length { .. }));
    assert!(Network::from_bytes("ok", &bytes).is_ok());
}

#[test]
fn a_network_for_another_layout_is_refused_in_words() {
    let brandubh = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
    let tablut = Rules::parse(include_bytes!("../../data/rules/tablut")).expect("rules");
    let bytes = random_network(&brandubh, 1).to_bytes();
    let error = Network::for_rules("networks/tablut.nnue", &bytes, &tablut).expect_err("7x7");
    assert!(matches!(error.problem, NetworkProblem::Mismatch { .. }));
    let message = error.to_string();
    assert!(message.contains("networks/tablut.nnue"), "{message}");
    assert!(message.contains("a 7x7 board"), "{message}");
    assert!(message.contains("`tablut` has a 9x9 board"), "{message}");
    // The same board with other piece types (halatafl: 7x7, other owners) is refused too.
    let halatafl = Rules::parse(include_bytes!("../../data/rules/halatafl")).expect("rules");
    if Layout::of(&halatafl) != Layout::of(&brandubh) {
        assert!(Network::for_rules("x.nnue", &bytes, &halatafl).is_err());
    }
}

/// The engine searches with its network ([`aim::Engine::set_network`], the one place a
/// network is given) when it fits the rules and the limits do not ask for the classic
/// evaluation, and with the classic evaluation otherwise.
#[test]
fn the_engine_uses_a_fitting_network_and_the_classic_evaluation_otherwise() {
    use aim::{Engine, EngineConfig, Evaluation, Limits};
    use std::sync::Arc;

    let brandubh = Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules");
    let tablut = Rules::parse(include_bytes!("../../data/rules/tablut")).expect("rules");
    let config = EngineConfig {
        threads: 1,
        hash_mib: 1,
    };
    // A network that calls every position even: the search's score shows it was used.
    let zero = Arc::new(Network::zero(Layout::of(&brandubh)));
    let game = hnefatafl_core::Game::new(brandubh.clone());
    let search = |network: Option<&Arc<Network>>,
                  evaluation: Option<Evaluation>,
                  game: &hnefatafl_core::Game| {
        let mut engine = Engine::new(config.clone());
        engine.set_network(network.cloned());
        let limits = Limits {
            depth: Some(3),
            evaluation,
            ..Limits::default()
        };
        let found = engine.search_within(game, &limits);
        assert!(found.best.is_some_and(|mv| game.check(mv).is_ok()));
        (found.score.0, engine.evaluate(game.position()).0)
    };
    let with_network = search(Some(&zero), None, &game);
    let without = search(None, None, &game);
    assert_eq!(with_network, (0, 0), "the zero network scores everything 0");
    assert_eq!(
        search(Some(&zero), Some(Evaluation::Network), &game),
        (0, 0)
    );
    assert_ne!(without, (0, 0), "the classic evaluation does not");
    // Asked for the classic evaluation, the search does not use the network.
    let classic = search(Some(&zero), Some(Evaluation::Classic), &game);
    assert_eq!(classic.0, without.0);
    // On tablut the brandubh network does not fit: the classic evaluation plays.
    let game = hnefatafl_core::Game::new(tablut.clone());
    let mismatched = search(Some(&zero), None, &game);
    assert_eq!(mismatched, search(None, None, &game));
    assert_ne!(mismatched, (0, 0));
}

#[test]
fn a_network_trained_on_top_of_the_classic_evaluation_adds_to_it() {
    use aim::{Engine, EngineConfig, Limits, Tuning};
    use std::sync::Arc;

    let rules = Rules::parse(include_bytes!("../../data/rules/tablut")).expect("rules");
    let mut game = hnefatafl_core::Game::new(rules.clone());
    for _ in 0..5 {
        let mv = game.position().moves().nth(7).expect("a move");
        game.try_play(mv).expect("legal");
    }
    let with_share = |share: u16| {
        let mut weights = Network::zero(Layout::of(&rules)).weights();
        weights.classic_share = share;
        let network = Network::new("share", Layout::of(&rules), &weights).expect("lengths");
        // The share is kept in the file.
        let read = Network::from_bytes("share", &network.to_bytes()).expect("reads back");
        assert_eq!(read.classic_share(), share);
        Arc::new(read)
    };
    let search = |network: Option<Arc<Network>>| {
        let mut engine = Engine::with_tuning(
            EngineConfig {
                threads: 1,
                hash_mib: 1,
            },
            Tuning::default(),
        );
        engine.set_network(network);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let found = engine.search_within(&game, &limits);
        (found.score.0, found.pv, engine.evaluate(game.position()).0)
    };
    let classic = search(None);
    assert_ne!(classic.2, 0);
    // A zero network on all of the classic evaluation searches as the classic one alone.
    assert_eq!(search(Some(with_share(100))), classic);
    // On half of it, the static evaluation is half the classic one's.
    assert_eq!(search(Some(with_share(50))).2, classic.2 * 50 / 100);
    // Alone (share 0), the zero network scores everything 0.
    assert_eq!(search(Some(with_share(0))).2, 0);
}

#[test]
fn a_network_of_the_first_format_version_reads_as_one_that_scores_alone() {
    // An earlier brandubh network, written in version 1 before there was a classic share
    // (shipped until the network of 4 million positions replaced it).
    let bytes = include_bytes!("networks/brandubh-v1.nnue");
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 1);
    let network = Network::from_bytes("brandubh.nnue", bytes).expect("reads");
    assert_eq!(network.classic_share(), 0);
    // Written again, it is version 2 and the same network.
    let again = network.to_bytes();
    assert_eq!(u16::from_le_bytes([again[8], again[9]]), 2);
    assert_eq!(again.len(), bytes.len() + 2);
    assert_eq!(
        Network::from_bytes("again", &again).expect("reads"),
        network
    );
}

/// A random network drives a search on several threads through a game's moves without
/// losing track of its accumulators (each thread keeps its own).
#[test]
fn a_random_network_plays_legal_moves_on_several_threads() {
    use aim::{Engine, EngineConfig, Limits};
    use std::sync::Arc;

    let rules = Rules::parse(include_bytes!("../../data/rules/halatafl")).expect("rules");
    let mut engine = Engine::new(EngineConfig {
        threads: 2,
        hash_mib: 4,
    });
    engine.set_network(Some(Arc::new(random_network(&rules, 4))));
    let mut game = hnefatafl_core::Game::new(rules);
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    for _ in 0..12 {
        if game.outcome().is_some() {
            break;
        }
        let found = engine.search_within(&game, &limits);
        let mv = found.best.expect("a move");
        game.try_play(mv).expect("a legal move");
    }
    assert!(game.ply() > 0);
}

/// A wide network whose first block is a narrow network's and whose second block reads
/// nothing (zero output weights) scores every position as the narrow one: through the
/// engine's search, alone and on top of the classic evaluation, the two search the same
/// tree. A second block that does count (its output weights set) changes the search.
#[test]
fn a_wide_network_searches_through_its_own_evaluator() {
    use aim::{Engine, EngineConfig, Limits};
    use std::sync::Arc;

    let rules = Rules::parse(include_bytes!("../../data/rules/tablut")).expect("rules");
    let layout = Layout::of(&rules);
    for share in [0, 60] {
        let mut narrow = random_network(&rules, 8).weights();
        narrow.classic_share = share;
        let widen = |second_output: i16| {
            let mut wide = narrow.clone();
            wide.input = narrow
                .input
                .chunks_exact(HIDDEN)
                .flat_map(|row| row.iter().copied().chain(row.iter().map(|w| w / 2)))
                .collect();
            wide.hidden_bias
                .extend(narrow.hidden_bias.iter().map(|b| b / 2));
            wide.output = narrow.output[..HIDDEN]
                .iter()
                .copied()
                .chain(std::iter::repeat_n(second_output, HIDDEN))
                .chain(narrow.output[HIDDEN..].iter().copied())
                .chain(std::iter::repeat_n(second_output, HIDDEN))
                .collect();
            Network::new("wide", layout, &wide).expect("a wide network")
        };
        let search = |network: Network| {
            let mut engine = Engine::new(EngineConfig {
                threads: 1,
                hash_mib: 4,
            });
            assert_eq!(network.classic_share(), share);
            engine.set_network(Some(Arc::new(network)));
            let mut game = hnefatafl_core::Game::new(rules.clone());
            let mut line = Vec::new();
            for _ in 0..4 {
                let limits = Limits {
                    depth: Some(3),
                    ..Limits::default()
                };
                let found = engine.search_within(&game, &limits);
                line.push((found.score.0, found.nodes, found.best));
                game.play(found.best.expect("a move"));
            }
            line
        };
        let narrow_line = search(Network::new("narrow", layout, &narrow).expect("narrow"));
        assert_eq!(search(widen(0)), narrow_line, "share {share}");
        assert_ne!(search(widen(40)), narrow_line, "share {share}");
    }
}
