//! Scores: evaluation units (100 = one ordinary piece) and decisive scores.

/// A score from the side to move's point of view.
///
/// Ordinary scores are in hundredths of an ordinary piece. A decisive score is
/// `±(`[`Score::MATE`]` - plies)`: the faster the win, the higher the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

/// Hundredths of a piece per unit of logit in the win chance of a classic evaluation's
/// score: `chance = 1 / (1 + e^(-score / CLASSIC_WIN_SCALE))`, the mapping the networks
/// are trained with (their `piece_scale`, 400 by default), so a score of one piece
/// (`+1.00`) is a 56% chance, of four pieces 73%, whichever evaluation gave it.
pub const CLASSIC_WIN_SCALE: u16 = 400;

/// Scores at least this far from zero are decisive (a forced win or loss).
const MATE_BOUND: i32 = Score::MATE - 10_000;

impl Score {
    /// The score of a win on the board now (0 plies away).
    pub const MATE: i32 = 1_000_000;

    /// A win `plies` plies from now.
    pub const fn win_in(plies: i32) -> Score {
        Score(Score::MATE - plies)
    }

    /// A loss `plies` plies from now.
    pub const fn loss_in(plies: i32) -> Score {
        Score(-(Score::MATE - plies))
    }

    /// The chance, from 0 to 1, that the side to move wins, with `scale` hundredths of a
    /// piece per unit of logit (a network's [`piece_scale`](crate::nnue::Network::piece_scale),
    /// or [`CLASSIC_WIN_SCALE`]): the logistic `1 / (1 + e^(-score / scale))`. A forced win
    /// is 1, a forced loss 0; a scale of 0 is taken as 1.
    ///
    /// ```
    /// use aim::Score;
    ///
    /// assert_eq!(Score(0).win_chance(400), 0.5);
    /// assert!((Score(400).win_chance(400) - 0.731).abs() < 0.001);
    /// assert_eq!(Score::win_in(3).win_chance(400), 1.0);
    /// assert_eq!(Score::loss_in(2).win_chance(400), 0.0);
    /// ```
    pub fn win_chance(self, scale: u16) -> f64 {
        match self.mate_plies() {
            Some(_) if self.0 > 0 => 1.0,
            Some(_) => 0.0,
            None => 1.0 / (1.0 + (-f64::from(self.0) / f64::from(scale.max(1))).exp()),
        }
    }

    /// Plies to a forced win (positive) or loss (negative), if the score is decisive. A
    /// game already lost (`loss_in(0)`) gives `Some(0)`, like a game already won.
    pub fn mate_plies(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some(Score::MATE - self.0)
        } else if self.0 <= -MATE_BOUND {
            Some(-(Score::MATE + self.0))
        } else {
            None
        }
    }
}

/// Whether a raw score is decisive.
pub(crate) const fn is_decisive(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

impl std::fmt::Display for Score {
    /// `+1.25` in pawn-like units, or `win in N` / `loss in N` (plies).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mate_plies() {
            Some(plies) if self.0 > 0 => write!(f, "win in {plies}"),
            Some(plies) => write!(f, "loss in {}", -plies),
            None => {
                let sign = if self.0 < 0 { '-' } else { '+' };
                let abs = self.0.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_of_ordinary_scores() {
        assert_eq!(Score(125).to_string(), "+1.25");
        assert_eq!(Score(-7).to_string(), "-0.07");
        assert_eq!(Score(0).to_string(), "+0.00");
        assert_eq!(Score(-300).to_string(), "-3.00");
    }

    #[test]
    fn decisive_scores() {
        assert_eq!(Score::win_in(1).mate_plies(), Some(1));
        assert_eq!(Score::loss_in(2).mate_plies(), Some(-2));
        assert_eq!(Score(12345).mate_plies(), None);
        assert_eq!(Score::win_in(3).to_string(), "win in 3");
        assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
        assert_eq!(Score::loss_in(0).to_string(), "loss in 0");
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::loss_in(4) > Score::loss_in(2));
        assert!(is_decisive(Score::loss_in(50).0));
        assert!(!is_decisive(50_000));
    }

    #[test]
    fn win_chances_are_symmetric_and_rise_with_the_score() {
        for score in [1, 40, 100, 400, 1_000, 5_000] {
            let up = Score(score).win_chance(CLASSIC_WIN_SCALE);
            let down = Score(-score).win_chance(CLASSIC_WIN_SCALE);
            assert!((up + down - 1.0).abs() < 1e-12, "{score}");
            assert!(up > 0.5 && up < 1.0, "{score}");
        }
        assert!(Score(100).win_chance(400) < Score(101).win_chance(400));
        assert!((Score(100).win_chance(400) - 0.562).abs() < 0.001);
        assert_eq!(Score(10).win_chance(0), Score(10).win_chance(1));
    }
}
