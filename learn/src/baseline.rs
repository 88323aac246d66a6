//! What a network made by `train` is tested against ([`Baseline`]: the evaluation that
//! played its games, at their nodes) and its SPRT as the match runner takes it
//! ([`sprt_match`]), printed as a command line ([`command_line`]) or run at once.

use crate::options::Options;
use crate::selfplay::Players;
use hnefatafl_matches::runner::{self, Written};
use hnefatafl_matches::sprt::Sprt;
use std::path::PathBuf;

/// What a new network is tested against: the evaluation that played its games, at the
/// nodes (or depth) they were played at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Baseline {
    /// The search both sides of the test play with: the games' nodes or depth, less the
    /// evaluation (`n500`, `d3,nodes0=300`).
    pub search: String,
    /// The other side's network, or `None` for the classic evaluation.
    pub network: Option<PathBuf>,
    /// What the other side is, in words, for the closing hint.
    pub what: String,
}

/// The baseline of a run's network, from its options and the engines of its `--data`
/// shards ([`crate::training::Collector::data_players`]). The run's own games were played
/// by `--network` or the classic evaluation; a run on `--data` alone (`--games 0`) is
/// tested against the network it started from (`--init`), else against the engine its
/// data names when that is the classic evaluation.
///
/// # Errors
///
/// A run on `--data` alone whose games were played (or scored) by a network it was not
/// given a file of: the words say which and how to name it.
pub fn baseline(options: &Options, data: &[Players]) -> Result<Baseline, String> {
    let own_games = options.games > 0 || data.is_empty();
    let search = match data.first() {
        // The data's nodes, where every shard was played at the same.
        Some(first) if !own_games && data.iter().all(|players| players.side() == first.side()) => {
            first.side()
        }
        _ => Players::of(&options.selfplay).side(),
    };
    let with = |network: &PathBuf, what: String| {
        Ok(Baseline {
            search: search.clone(),
            network: Some(network.clone()),
            what,
        })
    };
    if let Some(network) = &options.network {
        let checksum = Players::of(&options.selfplay).network;
        let played = own_games || data.iter().all(|players| players.network == checksum);
        let what = if played {
            "which played its games"
        } else {
            "which --network names"
        };
        return with(network, format!("{}, {what}", network.display()));
    }
    if !own_games && let Some(init) = &options.init {
        return with(init, format!("{}, which it started from", init.display()));
    }
    let networks: Vec<u64> = if own_games {
        Vec::new()
    } else {
        let mut networks: Vec<u64> = data.iter().filter_map(|players| players.network).collect();
        networks.sort_unstable();
        networks.dedup();
        networks
    };
    if networks.is_empty() {
        return Ok(Baseline {
            search,
            network: None,
            what: "the classic evaluation, which played its games".to_string(),
        });
    }
    let names: Vec<String> = networks
        .iter()
        .map(|checksum| format!("{checksum:016x}"))
        .collect();
    let classic = if data.iter().any(|players| players.network.is_none()) {
        " and the classic evaluation"
    } else {
        ""
    };
    Err(format!(
        "its data was played (or scored) by the network{} of checksum {}{classic}, whose file \
         this run was not given: name the one to test against with --network (with --games 0 \
         it plays no game) or --init",
        if networks.len() > 1 { "s" } else { "" },
        names.join(", ")
    ))
}

/// The SPRT of the network against `baseline`, as the match runner takes it.
///
/// # Errors
///
/// A side the match runner does not take (a path it cannot read as a side's value).
pub fn sprt_match(options: &Options, baseline: &Baseline) -> Result<runner::Arguments, String> {
    let search = &baseline.search;
    let a = Written::parse(&format!("{search},network={}", options.out.display()))?;
    let b = Written::parse(&match &baseline.network {
        Some(network) => format!("{search},network={}", network.display()),
        None => search.clone(),
    })?;
    let mut arguments = runner::Arguments::new(options.rules_path.clone(), a, b);
    arguments.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 50.0,
        ..Sprt::DEFAULT
    });
    arguments.games = Some(800);
    arguments.jobs = 1;
    Ok(arguments)
}

/// The match runner's command line for `arguments` as [`sprt_match`] makes them.
pub fn command_line(arguments: &runner::Arguments) -> String {
    let sprt = arguments
        .sprt
        .map(|sprt| format!(" --sprt {},{}", sprt.elo0, sprt.elo1))
        .unwrap_or_default();
    format!(
        "--rules {} --a {} --b {}{sprt} --games {} --jobs {}",
        arguments.rules.display(),
        arguments.a.text,
        arguments.b.text,
        arguments.games.unwrap_or_default(),
        arguments.jobs
    )
}
