//! Which side each player is, as the rules tell it ([`Role`], [`roles`]): the window draws
//! the sides by it and the analysis names the side whose win chance it gives.

use hnefatafl_core::{Player, Rules};

/// Which side a player is in the game, as the rules tell it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Role {
    /// The side without a piece that escapes (the attackers of a tafl game).
    Attackers,
    /// The side whose king escapes.
    Defenders,
    /// Neither: both sides are alike (petteia-like games), or both have escaping pieces.
    #[default]
    Plain,
}

/// Each player's side: by the rule file's piece names when it gives them (a side with
/// `attacker`s attacks, one with a `king` or `defender`s defends), else the side whose
/// pieces escape defends and the other attacks; a game where that tells nothing has plain
/// sides.
pub fn roles(rules: &Rules) -> [Role; 2] {
    let named = |player: Player, names: &[&str]| {
        rules.piece_rules().iter().any(|rule| {
            rule.owner() == player && rule.name().is_some_and(|name| names.contains(&name))
        })
    };
    let by_name = Player::BOTH.map(|player| {
        if named(player, &["attacker"]) {
            Some(Role::Attackers)
        } else if named(player, &["king", "defender"]) {
            Some(Role::Defenders)
        } else {
            None
        }
    });
    match by_name {
        [Some(Role::Attackers), Some(Role::Defenders)] => {
            return [Role::Attackers, Role::Defenders];
        }
        [Some(Role::Defenders), Some(Role::Attackers)] => {
            return [Role::Defenders, Role::Attackers];
        }
        _ => {}
    }
    let escapes = Player::BOTH.map(|player| {
        rules
            .piece_rules()
            .iter()
            .any(|rule| rule.owner() == player && rule.escape())
    });
    match escapes {
        [false, true] => [Role::Attackers, Role::Defenders],
        [true, false] => [Role::Defenders, Role::Attackers],
        _ => [Role::Plain, Role::Plain],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::fixtures::shipped_rules as rules;

    #[test]
    fn sides_follow_the_piece_names_then_the_escaping_piece() {
        for name in ["hnefatafl", "brandub", "copenhagen", "tablut"] {
            assert_eq!(
                roles(&rules(name)),
                [Role::Attackers, Role::Defenders],
                "{name}"
            );
        }
        assert_eq!(roles(&rules("petteia")), [Role::Plain, Role::Plain]);
        // Names say it even where no piece escapes; without names, the escaping piece.
        let file = |names: bool, escape: bool| {
            let mut text = String::from(
                "id t\nname T\nwidth 3\nheight 1\npieces 1 0 2\nsquares 1 1 1\n\
                 piece bit 1\npiece 1 owner 0\npiece 1 occupies 1\n\
                 piece bit 2\npiece 2 owner 1\npiece 2 occupies 1\nsquare bit 1\n",
            );
            if names {
                text.push_str("piece 1 name defender\npiece 2 name attacker\n");
            }
            if escape {
                text.push_str("piece 2 escape\nsquare 1 escape\n");
            }
            Rules::parse(text.as_bytes()).expect("valid rules")
        };
        assert_eq!(
            roles(&file(true, false)),
            [Role::Defenders, Role::Attackers]
        );
        assert_eq!(
            roles(&file(false, true)),
            [Role::Attackers, Role::Defenders]
        );
        assert_eq!(roles(&file(false, false)), [Role::Plain, Role::Plain]);
    }
}
