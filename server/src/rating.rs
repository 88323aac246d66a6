//! Glicko-2 ratings, as Mark Glickman's paper "Example of the Glicko-2 system" (2013)
//! specifies them: a rating, a rating deviation (RD) and a volatility per player, updated
//! once per rating period from all the games of that period.
//!
//! The arithmetic is written here rather than taken from a crate: it is the paper's steps
//! 2 to 8 in about a hundred lines, each checkable against the paper's worked example, and
//! the server needs the period with no games (which only widens the deviation) as much as
//! the period with games.

/// The factor between the Glicko scale (ratings around 1500) and the Glicko-2 scale.
const SCALE: f64 = 173.7178;

/// The rating every new player starts with.
pub const DEFAULT_RATING: f64 = 1500.0;

/// The rating deviation of a new player: the paper's 350.
pub const DEFAULT_DEVIATION: f64 = 350.0;

/// The volatility of a new player: the paper's 0.06.
pub const DEFAULT_VOLATILITY: f64 = 0.06;

/// The system constant τ, which bounds how fast the volatility moves. The paper advises
/// 0.3 to 1.2; 0.5 is its worked example's value.
pub const DEFAULT_TAU: f64 = 0.5;

/// The convergence tolerance of the volatility's iteration (the paper's ε).
const TOLERANCE: f64 = 0.000_001;

/// The deviation never grows past a new player's: a player long away is as uncertain as a
/// new one, not more.
const MAX_DEVIATION: f64 = DEFAULT_DEVIATION;

/// One player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, 1500 for a new player.
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is.
    pub deviation: f64,
    /// The volatility: how erratic the player's results have been.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Self {
            rating: DEFAULT_RATING,
            deviation: DEFAULT_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
        }
    }
}

/// One game of a rating period, from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// The opponent's rating at the start of the period.
    pub opponent: Rating,
    /// The score: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

/// The paper's g(φ): how much a game against an opponent of deviation φ counts.
fn weight(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The paper's E(μ, μj, φj): the expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-weight(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The rating after one rating period with these games (steps 2 to 8 of the paper),
    /// with the system constant `tau`. With no games only the deviation grows (step 6).
    pub fn after_period(self, games: &[GameResult], tau: f64) -> Rating {
        let mu = (self.rating - DEFAULT_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            return Rating {
                deviation: ((phi * phi + sigma * sigma).sqrt() * SCALE).min(MAX_DEVIATION),
                ..self
            };
        }
        // Step 3 and 4: the estimated variance and the estimated improvement.
        let mut inverse_variance = 0.0;
        let mut improvement_sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let g = weight(phi_j);
            let e = expected(mu, mu_j, phi_j);
            inverse_variance += g * g * e * (1.0 - e);
            improvement_sum += g * (game.score - e);
        }
        let variance = 1.0 / inverse_variance;
        let delta = variance * improvement_sum;
        // Step 5: the new volatility.
        let sigma = new_volatility(sigma, phi, variance, delta, tau);
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / variance).sqrt();
        let mu = mu + phi * phi * improvement_sum;
        // Step 8: back to the Glicko scale.
        Rating {
            rating: SCALE * mu + DEFAULT_RATING,
            deviation: (SCALE * phi).min(MAX_DEVIATION),
            volatility: sigma,
        }
    }
}

impl Rating {
    /// The rating after `periods` rating periods without games: step 6 of the paper
    /// `periods` times, which adds the volatility's square to the deviation's square once
    /// a period, here in one step, bounded by a new player's deviation.
    pub fn after_idle_periods(self, periods: u32) -> Rating {
        let phi = self.deviation / SCALE;
        let growth = f64::from(periods) * self.volatility * self.volatility;
        Rating {
            deviation: ((phi * phi + growth).sqrt() * SCALE).min(MAX_DEVIATION),
            ..self
        }
    }
}

/// Step 5 of the paper: the new volatility, by the Illinois algorithm on f(x).
fn new_volatility(sigma: f64, phi: f64, variance: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi * phi + variance + ex;
        ex * (delta * delta - phi * phi - variance - ex) / (2.0 * denominator * denominator)
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + variance {
        (delta * delta - phi * phi - variance).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > TOLERANCE {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn player(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: DEFAULT_VOLATILITY,
        }
    }

    /// The worked example of Glickman's paper, section "Example calculation".
    #[test]
    fn the_papers_worked_example() {
        let games = [
            GameResult {
                opponent: player(1400.0, 30.0),
                score: 1.0,
            },
            GameResult {
                opponent: player(1550.0, 100.0),
                score: 0.0,
            },
            GameResult {
                opponent: player(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = player(1500.0, 200.0).after_period(&games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_widens_the_deviation_only() {
        let before = player(1700.0, 50.0);
        let after = before.after_period(&[], DEFAULT_TAU);
        assert_eq!(after.rating, before.rating);
        assert_eq!(after.volatility, before.volatility);
        let expected = (50.0f64.powi(2) + (0.06 * SCALE).powi(2)).sqrt();
        assert!((after.deviation - expected).abs() < 1e-9);
        // Long inactivity never makes a rating less certain than a new player's.
        let mut rating = before;
        for _ in 0..10_000 {
            rating = rating.after_period(&[], DEFAULT_TAU);
        }
        assert_eq!(rating.deviation, DEFAULT_DEVIATION);
    }

    #[test]
    fn idle_periods_at_once_are_idle_periods_one_by_one() {
        for periods in [0, 1, 2, 7, 300, 5000] {
            let mut one_by_one = player(1620.0, 40.0);
            for _ in 0..periods {
                one_by_one = one_by_one.after_period(&[], DEFAULT_TAU);
            }
            let at_once = player(1620.0, 40.0).after_idle_periods(periods);
            assert_eq!(at_once.rating, one_by_one.rating);
            assert!(
                (at_once.deviation - one_by_one.deviation).abs() < 1e-6,
                "{periods}"
            );
        }
    }

    proptest! {
        /// A win never lowers a rating, and a loss never raises it.
        #[test]
        fn a_win_never_lowers_a_rating(
            rating in 100.0f64..3000.0, deviation in 30.0f64..350.0,
            volatility in 0.01f64..0.2,
            opponent in 100.0f64..3000.0, opponent_deviation in 30.0f64..350.0,
        ) {
            let me = Rating { rating, deviation, volatility };
            let them = player(opponent, opponent_deviation);
            let won = me.after_period(&[GameResult { opponent: them, score: 1.0 }], DEFAULT_TAU);
            let lost = me.after_period(&[GameResult { opponent: them, score: 0.0 }], DEFAULT_TAU);
            prop_assert!(won.rating >= me.rating, "{won:?}");
            prop_assert!(lost.rating <= me.rating, "{lost:?}");
            prop_assert!(won.deviation.is_finite() && won.volatility.is_finite());
        }
    }
}
