//! Who meets whom in a round: the Berger tables of a round robin, and the Monrad pairing
//! of a Swiss event with no repeat while one can be avoided. Players are numbers: their
//! places in the tournament's list (their seeds, 0 first); nothing here knows of games.
//!
//! A pair's first player takes side 0 in the first game of the match and side 1 in the
//! second (every pairing is a two-game match with the sides swapped).

/// Two players who meet, the first taking side 0 in the match's first game.
pub type Pair = [usize; 2];

/// One round's pairings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPairing {
    /// The matches, in the order the table lists them.
    pub pairs: Vec<Pair>,
    /// The player who sits the round out, when the number of players is odd.
    pub bye: Option<usize>,
}

/// The rounds of a round robin of `players`: one fewer than the players when they are
/// even, as many as they are when odd (each round one of them has a bye); none for fewer
/// than two.
pub fn round_robin_rounds(players: usize) -> usize {
    match players {
        0 | 1 => 0,
        even if even % 2 == 0 => even - 1,
        odd => odd,
    }
}

/// Round `round` (the first being 1) of the Berger table of `players` (FIDE Handbook,
/// C.05 annex 1), in seeds from 0: player number `k` of the table is seed `k - 1`. For an
/// odd number of players the table of one more is used, and whoever meets the missing
/// last player has the bye. `None` when the round is not in the table.
///
/// In the table of `n` players (even) player `n` stays put and the others turn: in round
/// `r` player `p = (r - 1) * n / 2 mod (n - 1) + 1` meets `n` (`p` has side 0 in odd
/// rounds), and `p + k` meets `p - k` for `k` from 1 to `n / 2 - 1`, counted round
/// `1..=n-1`, the first of each pair having side 0.
pub fn berger(players: usize, round: usize) -> Option<RoundPairing> {
    if round == 0 || round > round_robin_rounds(players) {
        return None;
    }
    let table = players + players % 2;
    let turning = table - 1;
    let fixed_meets = (round - 1) * (table / 2) % turning + 1;
    let mut numbered = Vec::with_capacity(table / 2);
    numbered.push(if round % 2 == 1 {
        [fixed_meets, table]
    } else {
        [table, fixed_meets]
    });
    for step in 1..table / 2 {
        let first = (fixed_meets - 1 + step) % turning + 1;
        let second = (fixed_meets - 1 + turning - step) % turning + 1;
        numbered.push([first, second]);
    }
    let mut pairing = RoundPairing::default();
    for [first, second] in numbered {
        if second > players {
            pairing.bye = Some(first - 1);
        } else if first > players {
            pairing.bye = Some(second - 1);
        } else {
            pairing.pairs.push([first - 1, second - 1]);
        }
    }
    Some(pairing)
}

/// How many steps the search for a pairing without repeats may take before it settles for
/// repeats: far more than any field this server allows needs, and a bound on the time
/// under the lock.
pub const SEARCH_STEPS: u32 = 200_000;

/// A Swiss round by the Monrad system: `order` is the players to pair, best placed first
/// (after match points, game points, then seed); `met` says whether two have met already,
/// `had_bye` whether one has had a bye.
///
/// With an odd number of players, the lowest placed one who has had no bye gets it (if
/// all have had one, the lowest placed). Then the best placed player left meets the best
/// placed one left whom they have not met, and so on down; when that leaves players who
/// cannot be paired without a repeat, the choice before is taken back and the next one
/// tried (and, for the bye, the next candidate up). Only when no pairing without a repeat
/// exists at all (or the search runs past [`SEARCH_STEPS`]) are repeats allowed, and then
/// the players are paired straight down the order.
pub fn swiss(
    order: &[usize],
    met: impl Fn(usize, usize) -> bool,
    had_bye: impl Fn(usize) -> bool,
) -> RoundPairing {
    let candidates: Vec<Option<usize>> = if order.len() % 2 == 0 {
        vec![None]
    } else {
        let fresh = order.iter().rev().filter(|&&player| !had_bye(player));
        let again = order.iter().rev().filter(|&&player| had_bye(player));
        fresh.chain(again).map(|&player| Some(player)).collect()
    };
    let mut steps = SEARCH_STEPS;
    for &bye in &candidates {
        let rest: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&player| Some(player) != bye)
            .collect();
        let mut pairs = Vec::with_capacity(rest.len() / 2);
        if monrad(&rest, &met, &mut steps, &mut pairs) {
            return RoundPairing { pairs, bye };
        }
    }
    let bye = candidates.first().copied().flatten();
    let rest: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&player| Some(player) != bye)
        .collect();
    RoundPairing {
        pairs: rest.chunks(2).map(|two| [two[0], two[1]]).collect(),
        bye,
    }
}

/// Pairs `rest` (best placed first) without a repeat, the best placed with the best
/// placed they may meet, backtracking; false when it cannot, or the steps ran out.
fn monrad(
    rest: &[usize],
    met: &impl Fn(usize, usize) -> bool,
    steps: &mut u32,
    pairs: &mut Vec<Pair>,
) -> bool {
    let Some((&top, others)) = rest.split_first() else {
        return true;
    };
    if *steps == 0 {
        return false;
    }
    *steps -= 1;
    for (index, &other) in others.iter().enumerate() {
        if met(top, other) {
            continue;
        }
        let left: Vec<usize> = others
            .iter()
            .enumerate()
            .filter(|&(at, _)| at != index)
            .map(|(_, &player)| player)
            .collect();
        pairs.push([top, other]);
        if monrad(&left, met, steps, pairs) {
            return true;
        }
        pairs.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table as the FIDE Handbook prints it, player numbers from 1, into seeds.
    fn printed(rounds: &[&[[usize; 2]]]) -> Vec<Vec<Pair>> {
        rounds
            .iter()
            .map(|pairs| pairs.iter().map(|[a, b]| [a - 1, b - 1]).collect())
            .collect()
    }

    fn table(players: usize) -> Vec<Vec<Pair>> {
        (1..=round_robin_rounds(players))
            .map(|round| berger(players, round).expect("a round").pairs)
            .collect()
    }

    #[test]
    fn the_berger_tables_of_four_six_and_eight_are_fides() {
        // FIDE Handbook C.05, annex 1, copied by hand.
        let four: &[&[[usize; 2]]] = &[&[[1, 4], [2, 3]], &[[4, 3], [1, 2]], &[[2, 4], [3, 1]]];
        assert_eq!(table(4), printed(four));
        let six: &[&[[usize; 2]]] = &[
            &[[1, 6], [2, 5], [3, 4]],
            &[[6, 4], [5, 3], [1, 2]],
            &[[2, 6], [3, 1], [4, 5]],
            &[[6, 5], [1, 4], [2, 3]],
            &[[3, 6], [4, 2], [5, 1]],
        ];
        assert_eq!(table(6), printed(six));
        let eight: &[&[[usize; 2]]] = &[
            &[[1, 8], [2, 7], [3, 6], [4, 5]],
            &[[8, 5], [6, 4], [7, 3], [1, 2]],
            &[[2, 8], [3, 1], [4, 7], [5, 6]],
            &[[8, 6], [7, 5], [1, 4], [2, 3]],
            &[[3, 8], [4, 2], [5, 1], [6, 7]],
            &[[8, 7], [1, 6], [2, 5], [3, 4]],
            &[[4, 8], [5, 3], [6, 2], [7, 1]],
        ];
        assert_eq!(table(8), printed(eight));
    }

    #[test]
    fn an_odd_field_plays_the_next_table_with_a_bye_for_the_missing_player() {
        // Five players use the table of six: whoever meets number 6 rests.
        assert_eq!(round_robin_rounds(5), 5);
        let byes: Vec<Option<usize>> = (1..=5).map(|r| berger(5, r).expect("round").bye).collect();
        // Rounds 1 to 5 of the table of six: 1-6, 6-4, 2-6, 6-5, 3-6.
        assert_eq!(byes, vec![Some(0), Some(3), Some(1), Some(4), Some(2)]);
        assert_eq!(
            berger(5, 2).expect("round").pairs,
            vec![[4, 2], [0, 1]],
            "5-3 and 1-2"
        );
        assert_eq!(berger(5, 6), None);
        assert_eq!(berger(1, 1), None);
        assert_eq!(berger(4, 0), None);
    }

    #[test]
    fn every_pair_of_a_round_robin_meets_once() {
        for players in 2..=12 {
            let mut seen = std::collections::HashSet::new();
            for round in 1..=round_robin_rounds(players) {
                for [a, b] in berger(players, round).expect("round").pairs {
                    assert!(
                        seen.insert((a.min(b), a.max(b))),
                        "{players}: {a}-{b} twice"
                    );
                }
            }
            assert_eq!(seen.len(), players * (players - 1) / 2, "{players}");
        }
    }

    fn never_met(_: usize, _: usize) -> bool {
        false
    }

    #[test]
    fn the_first_swiss_round_pairs_down_the_order_and_the_last_one_rests() {
        let round = swiss(&[0, 1, 2, 3, 4], never_met, |_| false);
        assert_eq!(round.pairs, vec![[0, 1], [2, 3]]);
        assert_eq!(round.bye, Some(4));
    }

    #[test]
    fn a_swiss_round_steps_past_opponents_already_met() {
        // Four players after two rounds: round 1 was 0-1 and 2-3, round 2 0-2 and 3-1,
        // and the order is now 2, 3, 0, 1. 2 has met 3 and 0, so meets 1; then 3 meets 0.
        let played = [[0, 1], [2, 3], [0, 2], [3, 1]];
        let met = |a: usize, b: usize| played.iter().any(|p| *p == [a, b] || *p == [b, a]);
        let round = swiss(&[2, 3, 0, 1], met, |_| false);
        assert_eq!(round.pairs, vec![[2, 1], [3, 0]]);
        assert_eq!(round.bye, None);
    }

    #[test]
    fn a_swiss_round_takes_back_a_choice_that_strands_a_player() {
        // 2 has met 3, 4 and 5: were 0 to meet 1, 2 could meet nobody. So 0 meets 2, then
        // 1 meets 3 and 4 meets 5.
        let played = [[2, 3], [2, 4], [2, 5]];
        let met = |a: usize, b: usize| played.iter().any(|p| *p == [a, b] || *p == [b, a]);
        let round = swiss(&[0, 1, 2, 3, 4, 5], met, |_| false);
        assert_eq!(round.pairs, vec![[0, 2], [1, 3], [4, 5]]);
    }

    #[test]
    fn the_bye_goes_up_the_order_past_those_who_had_one() {
        // 4 and 3 have had a bye: 2 gets it, and 0-1, 3-4 are paired.
        let round = swiss(&[0, 1, 2, 3, 4], never_met, |p| p >= 3);
        assert_eq!(round.bye, Some(2));
        assert_eq!(round.pairs, vec![[0, 1], [3, 4]]);
        // When the lowest's bye would force a repeat, the next one up rests: 3 has met
        // 0, 1 and 2, so with 4 resting 3 could meet nobody new; 3 rests instead.
        let played = [[3, 0], [3, 1], [3, 2]];
        let met = |a: usize, b: usize| played.iter().any(|p| *p == [a, b] || *p == [b, a]);
        let round = swiss(&[0, 1, 2, 3, 4], met, |_| false);
        assert_eq!(round.bye, Some(3));
        assert_eq!(round.pairs, vec![[0, 1], [2, 4]]);
    }

    #[test]
    fn repeats_come_only_when_nothing_else_is_left() {
        // Two players who have met meet again: there is nobody else.
        let round = swiss(&[1, 0], |_, _| true, |_| false);
        assert_eq!(round.pairs, vec![[1, 0]]);
    }
}
