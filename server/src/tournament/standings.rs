//! The standings of a tournament from its finished matches, as the World Tafl
//! Federation's events count them: match points first, then game points,
//! Sonneborn-Berger and head-to-head. Players are numbers (their seeds, 0 first).
//!
//! Every pairing is a match of two games. A game won is 1 game point, a drawn game ½ each,
//! a game lost (or forfeited) 0. The match's winner, the one with more game points (2–0
//! or 1½–½), gets 2 match points and the loser none; a drawn match (1–1) gives 1 each.
//! A Swiss bye counts as a match won 2–0 (2 match points, 2 game points) against nobody.
//! Only finished matches count.
//!
//! Halves are kept as whole numbers: game points and Sonneborn-Berger are counted twice
//! (`_x2`), so that no fraction is ever rounded.

use std::cmp::Reverse;

/// A finished match: its players, and twice the game points each scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchScore {
    /// The two players.
    pub players: [usize; 2],
    /// Twice each one's game points (4 for both games won).
    pub points_x2: [u32; 2],
}

impl MatchScore {
    /// Each player's match points: 2 for the one with more game points, 1 each when
    /// equal.
    pub fn match_points(&self) -> [u32; 2] {
        let [first, second] = self.points_x2;
        match first.cmp(&second) {
            std::cmp::Ordering::Greater => [2, 0],
            std::cmp::Ordering::Equal => [1, 1],
            std::cmp::Ordering::Less => [0, 2],
        }
    }
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player.
    pub player: usize,
    /// The place, the first being 1; players equal on every tie-break share it.
    pub rank: usize,
    /// Match points.
    pub match_points: u32,
    /// Twice the game points.
    pub game_points_x2: u32,
    /// Twice the Sonneborn-Berger score: for each match, the opponent's final match
    /// points, whole for a match won, half for a match drawn (each match's own match
    /// points, halved, times the opponent's); byes count nothing.
    pub sonneborn_berger_x2: u32,
    /// Finished matches played, byes not counted.
    pub matches: u32,
}

/// The standings of `players` after `matches` and the Swiss `byes` (a player once per
/// bye), best first: by match points, game points, Sonneborn-Berger, then head-to-head
/// (the match points scored against the others of the tie), each higher first; players
/// still equal share a rank and are listed by seed.
pub fn standings(players: usize, matches: &[MatchScore], byes: &[usize]) -> Vec<Standing> {
    let mut rows: Vec<Standing> = (0..players)
        .map(|player| Standing {
            player,
            rank: 0,
            match_points: 0,
            game_points_x2: 0,
            sonneborn_berger_x2: 0,
            matches: 0,
        })
        .collect();
    let counted = |player: usize| player < players;
    for score in matches {
        if !score.players.iter().all(|&player| counted(player)) {
            continue;
        }
        let points = score.match_points();
        for side in 0..2 {
            let row = &mut rows[score.players[side]];
            row.match_points += points[side];
            row.game_points_x2 += score.points_x2[side];
            row.matches += 1;
        }
    }
    for &player in byes.iter().filter(|&&player| counted(player)) {
        rows[player].match_points += 2;
        rows[player].game_points_x2 += 4;
    }
    let totals: Vec<u32> = rows.iter().map(|row| row.match_points).collect();
    for score in matches {
        if !score.players.iter().all(|&player| counted(player)) {
            continue;
        }
        let points = score.match_points();
        for side in 0..2 {
            let opponent = score.players[1 - side];
            rows[score.players[side]].sonneborn_berger_x2 += points[side] * totals[opponent];
        }
    }
    rows.sort_by_key(|row| {
        (
            Reverse(row.match_points),
            Reverse(row.game_points_x2),
            Reverse(row.sonneborn_berger_x2),
            row.player,
        )
    });
    break_ties(&mut rows, matches);
    rows
}

/// Orders each run of players equal on match points, game points and Sonneborn-Berger by
/// head-to-head, and gives the ranks.
fn break_ties(rows: &mut [Standing], matches: &[MatchScore]) {
    let key = |row: &Standing| {
        (
            row.match_points,
            row.game_points_x2,
            row.sonneborn_berger_x2,
        )
    };
    let mut start = 0;
    while start < rows.len() {
        let end = start
            + rows[start..]
                .iter()
                .take_while(|row| key(row) == key(&rows[start]))
                .count();
        let tied: Vec<usize> = rows[start..end].iter().map(|row| row.player).collect();
        let head_to_head = |player: usize| -> u32 {
            matches
                .iter()
                .filter(|score| score.players.iter().all(|p| tied.contains(p)))
                .filter_map(|score| {
                    let side = score.players.iter().position(|&p| p == player)?;
                    Some(score.match_points()[side])
                })
                .sum()
        };
        let group = &mut rows[start..end];
        group.sort_by_key(|row| (Reverse(head_to_head(row.player)), row.player));
        let scored: Vec<u32> = group.iter().map(|row| head_to_head(row.player)).collect();
        let mut rank = start + 1;
        for (index, row) in group.iter_mut().enumerate() {
            if index > 0 && scored[index] != scored[index - 1] {
                rank = start + index + 1;
            }
            row.rank = rank;
        }
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(players: [usize; 2], points_x2: [u32; 2]) -> MatchScore {
        MatchScore { players, points_x2 }
    }

    /// Each row as (player, rank, match points, game points x2, Sonneborn-Berger x2).
    fn lines(rows: &[Standing]) -> Vec<(usize, usize, u32, u32, u32)> {
        rows.iter()
            .map(|row| {
                (
                    row.player,
                    row.rank,
                    row.match_points,
                    row.game_points_x2,
                    row.sonneborn_berger_x2,
                )
            })
            .collect()
    }

    #[test]
    fn match_points_are_two_for_a_match_won_and_one_for_a_match_drawn() {
        assert_eq!(score([0, 1], [4, 0]).match_points(), [2, 0]); // 2-0
        assert_eq!(score([0, 1], [3, 1]).match_points(), [2, 0]); // 1½-½
        assert_eq!(score([0, 1], [2, 2]).match_points(), [1, 1]); // 1-1
        assert_eq!(score([0, 1], [1, 3]).match_points(), [0, 2]); // ½-1½
    }

    #[test]
    fn sonneborn_berger_parts_a_tie_on_match_and_game_points() {
        // A round robin of A, B, C, D (seeds 0 to 3), every match worked by hand:
        //   A-D 1-1, A-C 2-0, A-B 0-2, D-B 2-0, D-C 0-2, B-C 1½-½.
        // Match points: A 1+2+0 = 3, D 1+2+0 = 3, B 2+0+2 = 4, C 0+2+0 = 2.
        // Game points: A 1+2+0 = 3, D 1+2+0 = 3, B 2+0+1½ = 3½, C 0+2+½ = 2½.
        // Sonneborn-Berger (opponent's match points, whole for a win, half for a draw):
        //   A: D drawn ½·3 + C won 2 = 3½;  D: A drawn ½·3 + B won 4 = 5½;
        //   B: A won 3 + C won 2 = 5;       C: D won 3 = 3.
        // So B first; D before A on Sonneborn-Berger; C last.
        let matches = [
            score([0, 3], [2, 2]),
            score([0, 2], [4, 0]),
            score([0, 1], [0, 4]),
            score([3, 1], [4, 0]),
            score([3, 2], [0, 4]),
            score([1, 2], [3, 1]),
        ];
        let rows = standings(4, &matches, &[]);
        assert_eq!(
            lines(&rows),
            vec![
                (1, 1, 4, 7, 10),
                (3, 2, 3, 6, 11),
                (0, 3, 3, 6, 7),
                (2, 4, 2, 5, 6),
            ]
        );
        assert!(rows.iter().all(|row| row.matches == 3));
    }

    #[test]
    fn head_to_head_parts_a_tie_on_everything_before_it() {
        // Two Swiss rounds of four, worked by hand:
        //   round 1: 0-1 1½-½, 2-3 2-0;  round 2: 1-2 1½-½, 0-3 ½-1½.
        // Match points: all four have 2.
        // Game points: 0 1½+½ = 2, 1 ½+1½ = 2, 2 2+½ = 2½, 3 0+1½ = 1½.
        // Sonneborn-Berger: 0 beat 1 (2) = 2, 1 beat 2 (2) = 2, 2 beat 3 (2) = 2,
        //   3 beat 0 (2) = 2.
        // 0 and 1 are equal on all three; 0 won their match, so 0 is second, 1 third.
        let matches = [
            score([0, 1], [3, 1]),
            score([2, 3], [4, 0]),
            score([1, 2], [3, 1]),
            score([0, 3], [1, 3]),
        ];
        let rows = standings(4, &matches, &[]);
        assert_eq!(
            lines(&rows),
            vec![
                (2, 1, 2, 5, 4),
                (0, 2, 2, 4, 4),
                (1, 3, 2, 4, 4),
                (3, 4, 2, 3, 4),
            ]
        );
    }

    #[test]
    fn players_equal_on_everything_share_a_rank() {
        // A cycle of three: each won one match 1½-½ and lost one, and nobody leads
        // the others head-to-head (2 match points each among them).
        let matches = [
            score([0, 1], [3, 1]),
            score([1, 2], [3, 1]),
            score([2, 0], [3, 1]),
        ];
        let rows = standings(3, &matches, &[]);
        assert_eq!(
            lines(&rows),
            vec![(0, 1, 2, 4, 4), (1, 1, 2, 4, 4), (2, 1, 2, 4, 4)]
        );
    }

    #[test]
    fn a_bye_counts_as_a_match_won_two_nil_against_nobody() {
        // 0 beat 1 2-0; 2 had the bye. Both have 2 match points and 2 game points; 0
        // has Sonneborn-Berger 0 (1 scored nothing), 2 none for the bye, so seed decides
        // the listing, and they share first place.
        let rows = standings(3, &[score([0, 1], [4, 0])], &[2]);
        assert_eq!(
            lines(&rows),
            vec![(0, 1, 2, 4, 0), (2, 1, 2, 4, 0), (1, 3, 0, 0, 0)]
        );
        assert_eq!(rows[1].matches, 0);
    }
}
