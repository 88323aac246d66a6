//! Networks for the learned evaluation ([`aim::nnue`]) as the match runner finds them:
//! `data/networks/<rule file name>.nnue` beside the rule file's folder
//! ([`hnefatafl_data::network_beside`]), or a file a side names with `network=<path>`.

use crate::Side;
use aim::Evaluation;
use aim::nnue::Network;
use hnefatafl_core::Rules;
use hnefatafl_data::network_beside;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Gives a side that asks for the network (`eval=network` or `network=<path>`) its
/// network, read and checked against the rules; any problem leaves it the classic
/// evaluation. Returns what the side evaluates with, in words, for the report: the
/// network's file, or `classic`, with the reason when a network was asked for.
pub fn load_network(side: &mut Side, rules: &Rules, rules_path: &Path) -> String {
    if side.limits.evaluation != Some(Evaluation::Network) {
        return "classic".to_string();
    }
    let path = side
        .network_file
        .as_ref()
        .map_or_else(|| network_beside(rules_path), PathBuf::from);
    let name = path.display().to_string();
    let read = std::fs::read(&path)
        .map_err(|e| format!("network {name}: {e}"))
        .and_then(|bytes| Network::for_rules(&name, &bytes, rules).map_err(|e| e.to_string()));
    match read {
        Ok(network) => {
            side.network = Some(Arc::new(network));
            format!("network {name}")
        }
        Err(why) => {
            side.network = None;
            format!("classic ({why})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aim::nnue::Layout;

    fn brandubh() -> Rules {
        Rules::parse(include_bytes!("../../data/rules/brandubh")).expect("rules")
    }

    #[test]
    fn a_side_gets_its_network_or_the_classic_evaluation_with_the_reason() {
        let rules = brandubh();
        let folder = tempfile::tempdir().expect("a folder");
        let rules_path = folder.path().join("rules").join("brandubh");
        let good = folder.path().join("good.nnue");
        std::fs::write(&good, Network::zero(Layout::of(&rules)).to_bytes()).expect("written");
        let side = |text: &str| crate::parse_side(text).expect("a side");

        let mut classic = side("n100");
        assert_eq!(load_network(&mut classic, &rules, &rules_path), "classic");

        let mut named = side(&format!("n100,network={}", good.display()));
        let said = load_network(&mut named, &rules, &rules_path);
        assert_eq!(said, format!("network {}", good.display()));
        assert!(named.network.is_some());

        // No network for the rule file: the classic evaluation, saying why.
        let mut missing = side("n100,eval=network");
        let said = load_network(&mut missing, &rules, &rules_path);
        assert!(said.starts_with("classic (network "), "{said}");
        assert!(said.contains("brandubh.nnue"), "{said}");
        assert!(missing.network.is_none());

        // A damaged one.
        let bad = folder.path().join("bad.nnue");
        std::fs::write(&bad, b"HNEFNNUE").expect("written");
        let mut damaged = side(&format!("n100,network={}", bad.display()));
        let said = load_network(&mut damaged, &rules, &rules_path);
        assert!(said.contains("cut short"), "{said}");
        assert!(damaged.network.is_none());

        // One for another board.
        let tablut = Rules::parse(include_bytes!("../../data/rules/tablut")).expect("rules");
        let mut other = side(&format!("n100,network={}", good.display()));
        let said = load_network(&mut other, &tablut, &rules_path);
        assert!(said.contains("`tablut` has a 9x9 board"), "{said}");
        assert!(other.network.is_none());
    }
}
