//! What one client may take of the server: the limits (set on the command line, with
//! defaults for a club's server) and the counters that keep them.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The limits. [`Quotas::default`] gives the values that `hnefataflserver --help` and
/// `docs/protocol.md` document.
#[derive(Clone, Debug, PartialEq)]
pub struct Quotas {
    /// Connections open at once (TLS handshakes included); more wait to be accepted.
    pub connections: usize,
    /// Connections open at once from one address; more are closed at once.
    pub connections_per_address: usize,
    /// Accounts registered from one address in an hour.
    pub registrations_per_hour: usize,
    /// Unfinished games in which one account has a seat.
    pub open_games: usize,
    /// Rule files one account may upload in an hour.
    pub uploads_per_hour: usize,
    /// Challenges (seeks to a named player, rematches) one account may send in an hour.
    pub challenges_per_hour: usize,
    /// Chat lines one connection may send in a second (and in a burst).
    pub chat_per_second: u32,
    /// Chat lines the connections of one address may send in a second, together.
    pub chat_per_address: u32,
    /// Chat lines the watchers of one game may send in it in a second, together (its
    /// players are not counted).
    pub chat_per_game: u32,
    /// Addresses held to none of the per-address quotas (new accounts, connections,
    /// chat): a load test's on this computer, say.
    pub exempt: Vec<IpAddr>,
    /// Time a connection has to say `hello`.
    pub hello_timeout: Duration,
    /// Time a greeted connection may stay silent before it is closed.
    pub idle_timeout: Duration,
}

impl Quotas {
    /// Whether `address` is held to the per-address quotas.
    pub fn counts(&self, address: IpAddr) -> bool {
        !self.exempt.contains(&address)
    }
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            connections: 5000,
            connections_per_address: 50,
            registrations_per_hour: 5,
            open_games: 20,
            uploads_per_hour: 10,
            challenges_per_hour: 30,
            chat_per_second: 2,
            chat_per_address: 4,
            chat_per_game: 10,
            exempt: Vec::new(),
            hello_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(3600),
        }
    }
}

/// The length of the window of the hourly quotas.
const HOUR: Duration = Duration::from_secs(3600);

/// Keys kept by a [`Window`] before those with nothing in the last hour are dropped.
const MAX_KEYS: usize = 100_000;

/// Events per key in the last hour (registrations per address, uploads per account).
#[derive(Debug)]
pub struct Window<K> {
    events: HashMap<K, VecDeque<Instant>>,
}

impl<K> Default for Window<K> {
    fn default() -> Window<K> {
        Window {
            events: HashMap::new(),
        }
    }
}

impl<K: Eq + Hash> Window<K> {
    /// Books an event of `key` at `now` if fewer than `limit` fell in the hour before;
    /// otherwise answers how long until one more is allowed.
    pub fn take(&mut self, key: K, limit: usize, now: Instant) -> Result<(), Duration> {
        if self.events.len() > MAX_KEYS {
            self.events
                .retain(|_, times| times.back().is_some_and(|&t| now - t < HOUR));
        }
        let times = self.events.entry(key).or_default();
        while times.front().is_some_and(|&t| now - t >= HOUR) {
            times.pop_front();
        }
        if times.len() >= limit {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(HOUR.saturating_sub(now - oldest));
        }
        times.push_back(now);
        Ok(())
    }
}

/// A token bucket: `rate` events a second, in bursts of up to `rate`.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: u32, now: Instant) -> Bucket {
        Bucket {
            tokens: f64::from(rate),
            last: now,
        }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, rate: u32, now: Instant) -> bool {
        let rate = f64::from(rate);
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate).min(rate);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A [`Bucket`] per key (chat per address), the full ones dropped when many are kept.
#[derive(Debug)]
pub struct Buckets<K> {
    buckets: HashMap<K, Bucket>,
}

impl<K> Default for Buckets<K> {
    fn default() -> Buckets<K> {
        Buckets {
            buckets: HashMap::new(),
        }
    }
}

impl<K: Eq + Hash> Buckets<K> {
    /// Takes a token of `key`'s bucket, if it has one.
    pub fn take(&mut self, key: K, rate: u32, now: Instant) -> bool {
        if self.buckets.len() > MAX_KEYS {
            // A bucket idle for a second is full again: as good as a new one.
            self.buckets.retain(|_, bucket| {
                now.saturating_duration_since(bucket.last) < Duration::from_secs(1)
            });
        }
        self.buckets
            .entry(key)
            .or_insert_with(|| Bucket::new(rate, now))
            .take(rate, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_counts_an_hour() {
        let mut window = Window::default();
        let now = Instant::now();
        assert_eq!(window.take("a", 2, now), Ok(()));
        assert_eq!(window.take("a", 2, now + Duration::from_secs(10)), Ok(()));
        assert_eq!(
            window.take("a", 2, now + Duration::from_secs(20)),
            Err(Duration::from_secs(3580))
        );
        assert_eq!(window.take("b", 2, now), Ok(()));
        assert_eq!(window.take("a", 2, now + HOUR), Ok(()));
    }

    #[test]
    fn the_bucket_refills_at_its_rate() {
        let now = Instant::now();
        let mut bucket = Bucket::new(2, now);
        assert!(bucket.take(2, now));
        assert!(bucket.take(2, now));
        assert!(!bucket.take(2, now));
        assert!(bucket.take(2, now + Duration::from_millis(500)));
        assert!(!bucket.take(2, now + Duration::from_millis(600)));
        assert!(bucket.take(2, now + Duration::from_secs(10)));
    }
}
