//! The sequential probability ratio test that decides a match: is A at least `elo1`
//! stronger than B, or at most `elo0`?
//!
//! This is the generalized SPRT with the normal approximation of the log-likelihood ratio
//! that chess engine testing uses (fishtest's "GSPRT"), over the scores of game pairs
//! (pentanomial: a pair of games from one opening, colours swapped, scores 0, ½, 1, 1½ or
//! 2), so that the advantage of one colour from an opening cancels within its pair. Written
//! here because it is twenty lines of arithmetic; no maintained Rust crate offers it.

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis (A is no better than this).
    pub elo0: f64,
    /// Elo of the alternative (A is at least this much better).
    pub elo1: f64,
    /// The chance of accepting `elo1` when `elo0` holds.
    pub alpha: f64,
    /// The chance of accepting `elo0` when `elo1` holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A is at least `elo1` stronger: accept the change.
    H1,
    /// A is at most `elo0` stronger: reject the change.
    H0,
    /// Not yet decided: play on.
    Continue,
}

/// Counts of game pairs by A's points in the pair: 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

/// The pseudo-count added to each of the five pair results.
const PRIOR: f64 = 0.2;

/// Pairs fewer than this never decide: the normal approximation needs a few samples.
const MIN_PAIRS: u32 = 10;

/// The expected score of a side that is `elo` stronger.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Pentanomial {
    /// Books a pair from A's points in it, in half points (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Pairs booked.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// A's mean score per game and the variance of the per-pair score, with one pseudo-pair
    /// spread evenly over the five results (0.2 each). Without it a run of equal pairs has
    /// no variance and decides at once: on brandub, where from most openings each side
    /// wins its games with the king, ten pairs of 1-1 would "prove" two engines equal.
    fn mean_and_variance(&self) -> (f64, f64) {
        let counts = self.0.map(|count| f64::from(count) + PRIOR);
        let total: f64 = counts.iter().sum();
        let value = |index: usize| index as f64 / 4.0;
        let mean = (0..5).map(|i| counts[i] * value(i)).sum::<f64>() / total;
        let variance = (0..5)
            .map(|i| counts[i] * (value(i) - mean).powi(2))
            .sum::<f64>()
            / total;
        (mean, variance)
    }
}

impl Sprt {
    /// The usual test of a change: elo0 0, elo1 10, alpha = beta = 0.05.
    pub const DEFAULT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };

    /// Reads `elo0,elo1` or `elo0,elo1,alpha,beta`.
    ///
    /// # Errors
    ///
    /// Not two or four numbers, `elo1` not above `elo0`, or an error rate outside 0..0.5.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let bad = || format!("bad SPRT `{text}` (elo0,elo1 or elo0,elo1,alpha,beta: 0,10)");
        let numbers: Vec<f64> = text
            .split(',')
            .map(|part| part.trim().parse::<f64>().ok().filter(|n| n.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        let sprt = match numbers[..] {
            [elo0, elo1] => Sprt {
                elo0,
                elo1,
                ..Sprt::DEFAULT
            },
            [elo0, elo1, alpha, beta] => Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            },
            _ => return Err(bad()),
        };
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if sprt.elo1 <= sprt.elo0 || !rate(sprt.alpha) || !rate(sprt.beta) {
            return Err(bad());
        }
        Ok(sprt)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `elo1` against `elo0` after these pairs.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let n = f64::from(pairs.pairs());
        if n == 0.0 {
            return 0.0;
        }
        let (mean, variance) = pairs.mean_and_variance();
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Whether the pairs decide the test.
    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        if pairs.pairs() < MIN_PAIRS {
            return Verdict::Continue;
        }
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_of_five_percent() {
        let (lower, upper) = Sprt::DEFAULT.bounds();
        assert!((lower + 2.944).abs() < 1e-3, "{lower}");
        assert!((upper - 2.944).abs() < 1e-3, "{upper}");
    }

    #[test]
    fn even_results_favour_neither_and_clear_ones_decide() {
        let sprt = Sprt::DEFAULT;
        // Exactly halfway between 0 and 10 Elo the ratio is zero.
        let mut even = Pentanomial::default();
        for half_points in [0, 1, 2, 3, 4, 2, 2, 1, 3, 2] {
            even.add(half_points);
        }
        assert!(sprt.llr(&even) < 0.0, "a 50% score leans to elo0");
        assert_eq!(sprt.verdict(&even), Verdict::Continue);

        // 40 pairs won 2-0: decided for A; 40 pairs lost: decided against.
        let wins = Pentanomial([0, 0, 0, 0, 40]);
        assert_eq!(sprt.verdict(&wins), Verdict::H1);
        let losses = Pentanomial([40, 0, 0, 0, 0]);
        assert_eq!(sprt.verdict(&losses), Verdict::H0);
        // Ten pairs of 1-1 say little: play on.
        assert_eq!(
            sprt.verdict(&Pentanomial([0, 0, 10, 0, 0])),
            Verdict::Continue
        );
        // Too few pairs never decide.
        assert_eq!(
            sprt.verdict(&Pentanomial([0, 0, 0, 0, 9])),
            Verdict::Continue
        );
    }

    #[test]
    fn llr_matches_the_normal_approximation_by_hand() {
        // 100 pairs: 10, 20, 40, 20, 10, and the prior's 0.2 each: 101 pairs, mean 0.5,
        // variance of the pair score (10.2 * 2 * 0.25 + 20.2 * 2 * 0.0625) / 101.
        let pairs = Pentanomial([10, 20, 40, 20, 10]);
        let variance = (10.2 * 2.0 * 0.25 + 20.2 * 2.0 * 0.0625) / 101.0;
        let (s0, s1) = (0.5, 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0)));
        let by_hand = 100.0 * (s1 - s0) * (1.0 - s0 - s1) / (2.0 * variance);
        let llr = Sprt::DEFAULT.llr(&pairs);
        assert!((llr - by_hand).abs() < 1e-3, "{llr} against {by_hand}");
    }

    #[test]
    fn parses_hypotheses() {
        assert_eq!(Sprt::parse("0,10"), Ok(Sprt::DEFAULT));
        assert_eq!(
            Sprt::parse("-5,5,0.1,0.2"),
            Ok(Sprt {
                elo0: -5.0,
                elo1: 5.0,
                alpha: 0.1,
                beta: 0.2
            })
        );
        for bad in ["", "10", "10,0", "0,10,0.5,0.05", "0,10,0.05", "a,b"] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }
}
