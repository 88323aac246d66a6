//! The computer's evaluation, driven through the real binary: the rule file's network
//! found in the user's data directory and used by default, `eval=classic` to turn it off,
//! a damaged network or one for another board refused in one line naming the file (and
//! the classic evaluation played), and a rule file with no network played as ever.

use std::path::{Path, PathBuf};

use aim::nnue::{Layout, Network, Weights};
use hnefatafl_core::Rules;

mod common;
use common::{data, home, on_rules, output_of, stdout_of, write};

/// The shipped rules of this name.
fn shipped(name: &str) -> Rules {
    let text = std::fs::read(data().join("rules").join(name)).expect("shipped rules");
    Rules::parse(&text).expect("valid rules")
}

/// A small network for these rules whose weights are not all zero, so that it scores
/// positions by its own lights (first-layer weights that differ from square to square).
fn network_for(rules: &Rules) -> Vec<u8> {
    let layout = Layout::of(rules);
    let weights = Network::zero(layout).weights();
    let hidden = weights.hidden_bias.len();
    let weights = Weights {
        input: (0..weights.input.len())
            .map(|i| (i % 29) as i16 - 14)
            .collect(),
        hidden_bias: vec![100; hidden],
        output: (0..2 * hidden)
            .map(|i| if i % 3 == 0 { 64 } else { -32 })
            .collect(),
        ..weights
    };
    Network::new("test", layout, &weights)
        .expect("a network of the layout")
        .to_bytes()
}

/// Where the user's own network for a rule file goes: `$HOME/hnefatafl/networks/`.
fn user_network(home: &Path, rules_file: &str) -> PathBuf {
    home.join("hnefatafl")
        .join("networks")
        .join(format!("{rules_file}.nnue"))
}

/// Writes a network made for the shipped rules `made_for` as the user's own network for
/// the rule file `rules_file`; where it is.
fn install_network(home: &Path, rules_file: &str, made_for: &str) -> PathBuf {
    let path = user_network(home, rules_file);
    write(&path, network_for(&shipped(made_for)));
    path
}

/// The program's standard output for these commands on these rules.
fn run(home: &Path, rules: &str, input: &str) -> String {
    stdout_of(&mut on_rules(home, rules), input)
}

/// Checks that `text` has a line that reads `line`.
fn assert_line(text: &str, line: &str) {
    assert!(
        text.lines().any(|l| l == line),
        "no line {line:?} in:\n{text}"
    );
}

/// The lines an analysis reports, less its timings: each depth's score and principal
/// variation, the best move and the evaluation.
fn analysis(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|line| {
            if let Some(rest) = line.strip_prefix("depth ") {
                let score = rest.split("  nodes").next().unwrap_or_default();
                let pv = rest.split(" pv ").nth(1).unwrap_or_default();
                Some(format!("depth {score} pv {pv}"))
            } else {
                (line.starts_with("Best move:") || line.starts_with("Evaluation:"))
                    .then(|| line.to_owned())
            }
        })
        .collect()
}

const REFUSED: &str = "the computer plays with the classic evaluation.";

#[test]
fn the_rule_file_s_network_in_the_user_s_data_directory_plays_by_default() {
    let home = home();
    let path = install_network(home.path(), "brandubh", "brandubh");
    let text = run(home.path(), "brandubh", "a d2\n");
    let line = format!("Evaluation: network {}.", path.display());
    assert_line(&text, &line);
    assert!(!text.contains(REFUSED), "{text}");

    // `eval=classic` turns it off, for one analysis or for a computer player.
    let text = run(
        home.path(),
        "brandubh",
        "a d2 eval=classic\np 1 c 3 eval=classic\np\n",
    );
    assert_line(&text, "Evaluation: classic.");
    assert!(text.contains("classic evaluation"), "{text}");
    let text = run(home.path(), "brandubh", "a d2 eval=network\n");
    assert_line(&text, &line);
    let output = output_of(&mut on_rules(home.path(), "brandubh"), "a d2 eval=neural\n");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("eval=neural"), "{said}");
}

#[test]
fn the_network_changes_the_play_and_classic_is_as_without_one() {
    // Ard ri: no network is shipped for it.
    let home = home();
    let without = analysis(&run(home.path(), "ard_ri", "a d3\n"));
    assert_eq!(
        without.last().map(String::as_str),
        Some("Evaluation: classic.")
    );
    install_network(home.path(), "ard_ri", "ard_ri");
    let classic = analysis(&run(home.path(), "ard_ri", "a d3 eval=classic\n"));
    assert_eq!(classic, without);
    let network = analysis(&run(home.path(), "ard_ri", "a d3\n"));
    assert_ne!(network[..3], without[..3], "the network's scores differ");
}

#[test]
fn a_damaged_network_is_named_once_and_the_classic_evaluation_plays() {
    let home = home();
    let path = user_network(home.path(), "brandubh");
    let mut bytes = network_for(&shipped("brandubh"));
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    write(&path, &bytes);
    // Two computer moves: the reason is said once, when the rules are read.
    let text = run(home.path(), "brandubh", "a d2\np 1 c d1\np 0 c d1\n");
    let refused: Vec<&str> = text.lines().filter(|l| l.contains(REFUSED)).collect();
    assert_eq!(refused.len(), 1, "{text}");
    let want = format!("network {}: the checksum does not match", path.display());
    assert!(refused[0].starts_with(&want), "{text}");
    assert_line(&text, "Evaluation: classic.");

    // Cut short, or no network at all.
    write(&path, &bytes[..100]);
    let text = run(home.path(), "brandubh", "a d2\n");
    assert!(text.contains("cut short"), "{text}");
    assert!(text.contains(REFUSED), "{text}");
    write(&path, "not a network\n");
    let text = run(home.path(), "brandubh", "a d2\n");
    assert!(text.contains("not a network file"), "{text}");
    assert_line(&text, "Evaluation: classic.");
}

#[test]
fn a_network_for_another_board_is_refused() {
    let home = home();
    let path = install_network(home.path(), "brandubh", "tablut");
    let text = run(home.path(), "brandubh", "a d2\n");
    let want = format!(
        "network {}: it was made for a 9x9 board with 3 piece types",
        path.display()
    );
    let refused: Vec<&str> = text.lines().filter(|l| l.contains(REFUSED)).collect();
    assert_eq!(refused.len(), 1, "{text}");
    assert!(refused[0].starts_with(&want), "{text}");
    assert!(refused[0].contains("`brandubh` has a 7x7 board"), "{text}");
    assert_line(&text, "Evaluation: classic.");
}

#[test]
fn the_shipped_networks_are_built_in_and_a_user_s_own_goes_first() {
    let home = home();
    let text = run(home.path(), "tablut", "a d1\n");
    let built_in = "Evaluation: network (built-in)/networks/tablut.nnue.";
    assert_line(&text, built_in);
    let text = run(home.path(), "brandubh", "a d2\n");
    let built_in = "Evaluation: network (built-in)/networks/brandubh.nnue.";
    assert_line(&text, built_in);
    assert!(!text.contains(REFUSED), "{text}");
    // A computer player says it plays with it, unless its limits turn it off.
    let text = run(home.path(), "brandubh", "p 1 c d1\np 0 c d1 eval=classic\n");
    let network = "Player 1: computer, depth 1, network (built-in)/networks/brandubh.nnue";
    assert_line(&text, network);
    let classic = "Player 0: computer, depth 1, classic evaluation";
    assert_line(&text, classic);
    let path = install_network(home.path(), "brandubh", "brandubh");
    let text = run(home.path(), "brandubh", "a d2\n");
    let line = format!("Evaluation: network {}.", path.display());
    assert_line(&text, &line);
}

#[test]
fn the_network_is_found_by_the_rule_file_s_name() {
    // A user's own rule file, read from a path, finds its network by its name in the
    // data directory; the shipped rules of another name do not.
    let home = home();
    let rules_path = home.path().join("mine");
    std::fs::copy(data().join("rules").join("ard_ri"), &rules_path).expect("copied");
    let path = install_network(home.path(), "mine", "ard_ri");
    let text = run(home.path(), &rules_path.display().to_string(), "a d2\n");
    let line = format!("Evaluation: network {}.", path.display());
    assert_line(&text, &line);
    let text = run(home.path(), "ard_ri", "a d2\n");
    assert_line(&text, "Evaluation: classic.");
}

#[test]
fn the_engine_protocol_plays_with_the_network_and_says_so() {
    let home = home();
    let path = install_network(home.path(), "brandubh", "brandubh");
    let output = common::program(home.path())
        .args(["-C", "--engine", "htp", "-r", "brandubh", "--limits", "d2"])
        .write_stdin("generate_move attacker\nquit\n")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let want = format!("hnefatafl: evaluation: network {}", path.display());
    assert_line(&stderr, &want);
    assert!(String::from_utf8_lossy(&output.stdout).contains('='));
}
