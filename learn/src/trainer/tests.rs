//! The trainer's tests.
use super::*;
use crate::selfplay::{GameRecord, Sample, inputs_of};
use hnefatafl_core::Rules;

/// A dataset the network can learn: player 0 wins exactly when input 0 is on.
fn toy(layout: &Layout) -> Dataset {
    Dataset::from_games(toy_games(layout), 0.5, |_| 0.0).expect("a dataset")
}

/// The games of [`toy`].
fn toy_games(layout: &Layout) -> Vec<GameRecord> {
    let mut random = SplitMix::new(3);
    let mut games = Vec::new();
    for number in 0..40 {
        let mut samples = Vec::new();
        let marked = number % 2 == 0;
        for _ in 0..20 {
            let mut inputs: Vec<u16> = (0..6)
                .map(|_| 1 + random.below(layout.inputs() - 1) as u16)
                .collect();
            if marked {
                inputs.push(0);
            }
            samples.push(Sample {
                side: Player::Zero,
                score: if marked { 800 } else { -800 },
                inputs,
            });
        }
        games.push(GameRecord {
            number,
            result: if marked { 1 } else { -1 },
            samples,
        });
    }
    games
}

#[test]
fn training_lowers_the_loss_and_the_quantised_network_agrees_at_every_width() {
    let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh")).expect("rules");
    let layout = Layout::of(&rules);
    let data = toy(&layout);
    for width in WIDTHS {
        let mut trainer = Trainer::with_hidden(layout.inputs(), width, 13, 1).expect("a width");
        let before = trainer.loss(&data);
        let mut work = trainer.workspace();
        for epoch in 0..30 {
            for batch in epoch_order(data.len() as u32, 1, epoch).chunks(32) {
                trainer.step(&data, batch, 0.01, &mut work);
            }
        }
        let after = trainer.loss(&data);
        assert!(
            after < before / 4.0,
            "{width} units: loss {before} to {after}"
        );
        // The integer network gives the float one's winning chance on real positions.
        let network = trainer.quantise("toy", layout, false).expect("its layout");
        assert_eq!(network.hidden(), width);
        let mut hidden = vec![0.0; width];
        for seed in 0..20 {
            let game = hnefatafl_core::random::random_opening(&rules, 10, seed);
            let position = game.position();
            let side = position.side_to_move();
            let float = trainer.forward(&inputs_of(&layout, position), side, 0.0, &mut hidden);
            let raw = network.output_raw(&network.refresh(position), side);
            let integer = sigmoid(raw as f32 / (f32::from(ACTIVATION_SCALE) * OUTPUT_SCALE as f32));
            assert!(
                (integer - float).abs() < 0.02,
                "{width} units: {integer} against {float}"
            );
        }
    }
}

#[test]
fn only_the_networks_widths_are_trained() {
    for width in [0, 64, 200, 384, 512] {
        assert!(Trainer::with_hidden(20, width, 5, 1).is_none(), "{width}");
    }
    let wide = Trainer::with_hidden(20, 256, 5, 1).expect("a width");
    assert_eq!(wide.hidden(), 256);
    assert_eq!(wide.params.len(), 20 * 256 + 256 + 2 * 256 + 3);
    assert_eq!(Trainer::new(20, 5, 1).hidden(), 128);
}

#[test]
fn a_network_on_a_base_learns_its_share_and_records_it() {
    let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh")).expect("rules");
    let layout = Layout::of(&rules);
    // The base alone tells the winner, at a third of the logit the targets need.
    let base = |sample: &Sample| {
        if sample.inputs.contains(&0) {
            1.0
        } else {
            -1.0
        }
    };
    let games: Vec<GameRecord> = toy_games(&layout);
    let data = Dataset::from_games(&games, 0.5, base).expect("a dataset");
    let mut trainer = Trainer::new(layout.inputs(), 13, 1);
    // Only the share learns: the network stays at zero.
    trainer.params.fill(0.0);
    let share = trainer.params.len() - 1;
    let mut work = trainer.workspace();
    let before = trainer.loss(&data);
    for epoch in 0..30 {
        for batch in epoch_order(data.len() as u32, 1, epoch).chunks(32) {
            trainer.step(&data, batch, 0.05, &mut work);
            let kept = trainer.params[share];
            trainer.params.fill(0.0);
            trainer.params[share] = kept;
        }
    }
    assert!(trainer.loss(&data) < before / 4.0);
    assert!(trainer.classic_share() > 2.0, "{}", trainer.classic_share());
    let network = trainer.quantise("toy", layout, true).expect("its layout");
    let percent = (100.0 * trainer.classic_share()).round() as u16;
    assert_eq!(network.classic_share(), percent);
    let alone = trainer.quantise("toy", layout, false).expect("its layout");
    assert_eq!(alone.classic_share(), 0);
}

#[test]
fn each_sides_wins_weigh_alike_within_the_cap() {
    let game = |result: i8, positions: usize| GameRecord {
        number: 0,
        result,
        samples: vec![
            Sample {
                side: Player::Zero,
                score: 0,
                inputs: vec![1],
            };
            positions
        ],
    };
    // 30 positions of player 0's wins, 10 of player 1's, 5 drawn: 40 decisive, so
    // 40 / (2 x 30) and 40 / (2 x 10).
    let games = [game(1, 20), game(-1, 10), game(0, 5), game(1, 10)];
    let weights = ResultWeights::balancing(&games);
    assert_eq!(weights.of(1), 40.0 / 60.0);
    assert_eq!(weights.of(-1), 2.0);
    assert_eq!(weights.of(0), 1.0);
    // 1 against 99: 100 / 2 is over the cap.
    let lopsided = ResultWeights::balancing(&[game(1, 99), game(-1, 1)]);
    assert_eq!(lopsided.of(-1), ResultWeights::MOST);
    assert_eq!(lopsided.of(1), 100.0 / 198.0);
    assert_eq!(ResultWeights::balancing(&[game(1, 5)]), ResultWeights::EVEN);
    // The loss counts a position by its weight: a network answering 1/2 everywhere
    // misses each win by 1/4 (squared) whatever the weights, each draw by 0.
    let mut half = Trainer::new(3, 1, 0);
    half.params.fill(0.0);
    let data = Dataset::weighted(&games, 0.0, weights, |_| 0.0).expect("a dataset");
    let decisive = 30.0 * weights.of(1) + 10.0 * weights.of(-1);
    let expected = 0.25 * decisive / (decisive + 5.0);
    assert!((half.loss(&data) - f64::from(expected)).abs() < 1e-6);
    // Weighted, the wins count 20 and 20, the draws 5 at a half: a half on the whole.
    assert!((data.mean_target() - (20.0 + 2.5) / 45.0).abs() < 1e-6);
}

#[test]
fn a_network_gives_back_a_trainer_that_quantises_to_it_and_trains_on() {
    let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh")).expect("rules");
    let layout = Layout::of(&rules);
    let data = toy(&layout);
    for width in WIDTHS {
        let mut trained = Trainer::with_hidden(layout.inputs(), width, 13, 2).expect("a width");
        let mut work = trained.workspace();
        for batch in epoch_order(data.len() as u32, 1, 0).chunks(32) {
            trained.step(&data, batch, 0.01, &mut work);
        }
        let network = trained.quantise("n", layout, false).expect("its layout");
        let mut from = Trainer::from_network(&network, layout.inputs(), 13).expect("fits");
        assert_eq!(from.hidden(), width);
        assert_eq!(from.steps, 0, "a fresh optimiser");
        assert!(
            from.quantise("n", layout, false).expect("its layout") == network,
            "{width} units: the same network back"
        );
        // It goes on from where the network was: its loss is the trained one's, and
        // training lowers it.
        let (before, trained_loss) = (from.loss(&data), trained.loss(&data));
        // (Within what rounding to integers moves; an untrained network's is far above.)
        let untrained = Trainer::with_hidden(layout.inputs(), width, 13, 2).expect("a width");
        assert!(untrained.loss(&data) > trained_loss + 0.05);
        assert!(
            (before - trained_loss).abs() < 0.005,
            "{before} {trained_loss}"
        );
        let mut work = from.workspace();
        for epoch in 0..5 {
            for batch in epoch_order(data.len() as u32, 1, epoch).chunks(32) {
                from.step(&data, batch, 0.01, &mut work);
            }
        }
        assert!(from.loss(&data) < before);
    }
    let network = Trainer::new(layout.inputs(), 13, 1)
        .quantise("n", layout, false)
        .expect("its layout");
    let error = Trainer::from_network(&network, layout.inputs() + 1, 13).expect_err("inputs");
    assert!(
        error.contains(&format!("not {}", layout.inputs() + 1)),
        "{error}"
    );
}

#[test]
fn a_checkpoint_reads_back() {
    let mut trainer = Trainer::new(20, 5, 9);
    trainer.steps = 7;
    let read = Trainer::from_bytes(&trainer.to_bytes(), 20, 5).expect("its own bytes");
    assert_eq!(read, trainer);
    assert!(Trainer::from_bytes(&trainer.to_bytes(), 21, 5).is_err());
    assert!(Trainer::from_bytes(&trainer.to_bytes()[..100], 20, 5).is_err());
}

#[test]
fn a_checkpoint_keeps_its_width_and_one_of_the_earlier_form_is_128_wide() {
    let mut wide = Trainer::with_hidden(20, 256, 5, 9).expect("a width");
    wide.steps = 3;
    let bytes = wide.to_bytes();
    let read = Trainer::from_bytes(&bytes, 20, 5).expect("its own bytes");
    assert_eq!(read.hidden(), 256);
    assert_eq!(read, wide);
    // The width is in the bytes: 8 bytes of the format's name, then a u32.
    assert_eq!(&bytes[..8], b"HNEFCKPW");
    assert_eq!(bytes[8..12], 256u32.to_le_bytes());
    // A width no network has is refused in words, not read as another.
    let mut odd = bytes.clone();
    odd[8..12].copy_from_slice(&200u32.to_le_bytes());
    let error = Trainer::from_bytes(&odd, 20, 5).expect_err("refused");
    assert!(error.contains("200 hidden units"), "{error}");
    // The earlier form: the name, the steps, the floats, no width; 128 units.
    let mut narrow = Trainer::new(20, 5, 4);
    narrow.steps = 11;
    let mut earlier = b"HNEFCKPT".to_vec();
    earlier.extend_from_slice(&11u64.to_le_bytes());
    for value in narrow.params.iter().chain(&narrow.m).chain(&narrow.v) {
        earlier.extend_from_slice(&value.to_le_bytes());
    }
    let read = Trainer::from_bytes(&earlier, 20, 5).expect("the earlier form");
    assert_eq!(read, narrow);
    assert_eq!(read.hidden(), 128);
    let error = Trainer::from_bytes(b"HNEFCKPW\x00", 20, 5).expect_err("cut short");
    assert!(error.contains("cut short"), "{error}");
}

#[test]
fn the_shuffle_is_a_permutation_fixed_by_seed_and_epoch() {
    let order = epoch_order(100, 4, 2);
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..100).collect::<Vec<u32>>());
    assert_eq!(order, epoch_order(100, 4, 2));
    // The order of the samples as it was when it was of `usize`s: runs reproduce.
    for (len, seed, epoch) in [(1000, 1, 0), (37, 5, 9), (1, 1, 1), (0, 1, 1)] {
        let mut wide: Vec<usize> = (0..len).collect();
        let mut random = SplitMix::new(seed ^ u64::from(epoch).wrapping_mul(0xA24B_AED4_963E_E407));
        for i in (1..len).rev() {
            wide.swap(i, random.below(i + 1));
        }
        let order = epoch_order(len as u32, seed, epoch);
        assert!(order.iter().map(|&s| s as usize).eq(wide), "{len}");
    }
    assert_ne!(order, epoch_order(100, 4, 3));
}

/// One Adam step as the trainer took it before it ran on threads and read images as
/// it went: sample after sample over inputs given whole, each sum in the batch's order.
fn sequential_step(
    trainer: &mut Trainer,
    samples: &[(Vec<u16>, Player, f32, f32, f32)],
    batch: &[u32],
    lr: f32,
) {
    let (bias, output, output_bias) = trainer.offsets();
    let mut gradient = vec![0.0f32; trainer.params.len()];
    let mut hidden = [0.0; HIDDEN];
    let scale = 1.0 / batch.len().max(1) as f32;
    for &index in batch {
        let (inputs, side, target, base, weight) = &samples[index as usize];
        let p = trainer.forward(inputs, *side, *base, &mut hidden);
        let error = p - target;
        let g = 2.0 * weight * error * p * (1.0 - p) * scale;
        let share = gradient.len() - 1;
        gradient[share] += g * base;
        let out_at = output + side.index() * HIDDEN;
        gradient[output_bias + side.index()] += g;
        let mut back = [0.0f32; HIDDEN];
        for unit in 0..HIDDEN {
            let value = hidden[unit];
            gradient[out_at + unit] += g * value.clamp(0.0, 1.0);
            if value > 0.0 && value < 1.0 {
                back[unit] = g * trainer.params[out_at + unit];
            }
        }
        for (sum, b) in gradient[bias..bias + HIDDEN].iter_mut().zip(&back) {
            *sum += b;
        }
        for &input in inputs {
            let row = &mut gradient[usize::from(input) * HIDDEN..][..HIDDEN];
            for (sum, b) in row.iter_mut().zip(&back) {
                *sum += b;
            }
        }
    }
    trainer.steps += 1;
    let adam = Adam::new(lr, trainer.steps);
    let first = trainer.inputs * HIDDEN + HIDDEN;
    let clips = [trainer.clip, f32::from(i16::MAX) / OUTPUT_SCALE as f32];
    for (index, param) in trainer.params.iter_mut().enumerate() {
        let (m, v) = (&mut trainer.m[index..=index], &mut trainer.v[index..=index]);
        let clip = clips[usize::from(index >= first)];
        adam.apply(
            std::slice::from_mut(param),
            m,
            v,
            &gradient[index..=index],
            clip,
        );
    }
}

#[test]
fn steps_are_the_same_bit_for_bit_on_any_threads_and_as_summed_sample_by_sample() {
    let rules = Rules::parse(include_bytes!("../../../data/rules/brandubh")).expect("rules");
    let layout = Layout::of(&rules);
    let games = toy_games(&layout);
    // A base, weights and images, so that every part of the gradient is exercised.
    let base = |sample: &Sample| sample.inputs.len() as f32 / 10.0 - 0.6;
    let weights = ResultWeights([1.5, 1.0, 0.5]);
    let maps = crate::symmetry::input_maps(&rules, true);
    let data = Dataset::weighted(&games, 0.5, weights, base)
        .expect("a dataset")
        .with_images(maps.clone());
    assert_eq!(data.len(), 8 * data.positions());
    // Every image stored whole, in the order the samples are numbered.
    let mut whole = Vec::new();
    for game in &games {
        for sample in &game.samples {
            let score = f32::from(sample.score) / f32::from(PIECE_SCALE);
            let result = (f32::from(game.result) + 1.0) / 2.0;
            let target = 0.5 * sigmoid(score) + 0.5 * result;
            let labels = (sample.side, target, base(sample), weights.of(game.result));
            let identity: Vec<u16> = (0..layout.inputs() as u16).collect();
            for map in std::iter::once(&identity).chain(&maps) {
                let inputs = sample.inputs.iter().map(|&i| map[usize::from(i)]).collect();
                whole.push((inputs, labels.0, labels.1, labels.2, labels.3));
            }
        }
    }
    let start = Trainer::new(layout.inputs(), 13, 7);
    let on_threads = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| {
            let mut trainer = start.clone();
            let mut work = trainer.workspace();
            for epoch in 0..2 {
                for batch in epoch_order(data.len() as u32, 3, epoch).chunks(100) {
                    trainer.step(&data, batch, 0.01, &mut work);
                }
            }
            trainer
        })
    };
    let mut sequential = start.clone();
    for epoch in 0..2 {
        for batch in epoch_order(data.len() as u32, 3, epoch).chunks(100) {
            sequential_step(&mut sequential, &whole, batch, 0.01);
        }
    }
    let one = on_threads(1);
    assert_ne!(one.to_bytes(), start.to_bytes());
    assert!(
        one.to_bytes() == sequential.to_bytes(),
        "as sample by sample"
    );
    assert!(one.to_bytes() == on_threads(3).to_bytes(), "on 3 threads");
    // The loss, sample by sample too.
    let expected: f64 = whole
        .iter()
        .map(|(inputs, side, target, base, weight)| {
            let p = one.forward(inputs, *side, *base, &mut [0.0; HIDDEN]);
            f64::from(weight * (p - target).powi(2))
        })
        .sum::<f64>()
        / whole.iter().map(|sample| f64::from(sample.4)).sum::<f64>();
    assert_eq!(one.loss(&data).to_bits(), expected.to_bits());
}
