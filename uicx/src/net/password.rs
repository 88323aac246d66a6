//! Passwords: argon2id hashes, and the slow-down of failed logins per account and per
//! address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// Hashes a password with argon2id (the crate's default cost) and a random salt, in the
/// PHC string form that [`verify`] reads.
///
/// # Errors
///
/// The hasher refuses the input (it does not for passwords of sane length).
pub fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// A hash of nothing, checked against when the account is unknown, so that an unknown
/// name costs as much time as a wrong password and does not show.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| hash("").unwrap_or_default());

/// Whether the password matches the stored hash; with no hash, the work is done anyway
/// and the answer is no.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    let Ok(parsed) = PasswordHash::new(stored.unwrap_or(&DUMMY_HASH)) else {
        return false;
    };
    let matches = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    stored.is_some() && matches
}

/// The throttle's keys for one login attempt.
#[derive(Clone, Debug)]
pub struct Keys {
    account: String,
    address: IpAddr,
}

impl Keys {
    /// The keys of an attempt on `account` from `address`.
    pub fn new(account: &str, address: IpAddr) -> Keys {
        Keys {
            account: account.to_owned(),
            address,
        }
    }
}

/// Failures free of any wait, per account.
const FREE_PER_ACCOUNT: u32 = 3;
/// Failures free of any wait, per address (many people may share one).
const FREE_PER_ADDRESS: u32 = 10;
/// The longest wait.
const LONGEST_WAIT: Duration = Duration::from_secs(300);
/// Entries kept before old ones are dropped.
const MAX_ENTRIES: usize = 100_000;

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    until: Instant,
}

/// Failed logins: after a few free ones, each failure doubles a wait (1 s, 2 s, 4 s, up
/// to 5 minutes) during which that account, or that address, may not try again.
#[derive(Debug, Default)]
pub struct Throttle {
    accounts: HashMap<String, Failures>,
    addresses: HashMap<IpAddr, Failures>,
}

fn wait_after(count: u32, free: u32) -> Duration {
    match count.checked_sub(free + 1) {
        None => Duration::ZERO,
        Some(doublings) => Duration::from_secs(1u64 << doublings.min(20)).min(LONGEST_WAIT),
    }
}

fn bump(failures: &mut Failures, free: u32, now: Instant) {
    failures.count = failures.count.saturating_add(1);
    failures.until = now + wait_after(failures.count, free);
}

impl Throttle {
    /// How long the attempt must wait, if it must.
    pub fn wait(&self, keys: &Keys, now: Instant) -> Option<Duration> {
        let account = self.accounts.get(&keys.account).map(|f| f.until);
        let address = self.addresses.get(&keys.address).map(|f| f.until);
        let until = account.into_iter().chain(address).max()?;
        (until > now).then(|| until - now)
    }

    /// Books a failed attempt.
    pub fn fail(&mut self, keys: &Keys, now: Instant) {
        if self.accounts.len() + self.addresses.len() > MAX_ENTRIES {
            let stale = |f: &Failures| f.until + LONGEST_WAIT > now;
            self.accounts.retain(|_, f| stale(f));
            self.addresses.retain(|_, f| stale(f));
        }
        let fresh = Failures {
            count: 0,
            until: now,
        };
        let account = self.accounts.entry(keys.account.clone()).or_insert(fresh);
        bump(account, FREE_PER_ACCOUNT, now);
        let address = self.addresses.entry(keys.address).or_insert(fresh);
        bump(address, FREE_PER_ADDRESS, now);
    }

    /// Books a successful login: the account's failures are forgotten.
    pub fn succeed(&mut self, keys: &Keys) {
        self.accounts.remove(&keys.account);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify() {
        let hashed = hash("correct horse").expect("hash");
        assert!(hashed.starts_with("$argon2id$"));
        assert!(verify("correct horse", Some(&hashed)));
        assert!(!verify("wrong", Some(&hashed)));
        assert!(!verify("correct horse", None));
    }

    #[test]
    fn failures_make_logins_wait() {
        let mut throttle = Throttle::default();
        let now = Instant::now();
        let keys = Keys::new("ann", IpAddr::from([127, 0, 0, 1]));
        for _ in 0..FREE_PER_ACCOUNT {
            throttle.fail(&keys, now);
            assert_eq!(throttle.wait(&keys, now), None);
        }
        throttle.fail(&keys, now);
        assert_eq!(throttle.wait(&keys, now), Some(Duration::from_secs(1)));
        throttle.fail(&keys, now);
        assert_eq!(throttle.wait(&keys, now), Some(Duration::from_secs(2)));
        assert_eq!(throttle.wait(&keys, now + Duration::from_secs(3)), None);
        // Another account from the same address is not held up yet ...
        let other = Keys::new("bob", IpAddr::from([127, 0, 0, 1]));
        assert_eq!(throttle.wait(&other, now), None);
        // ... until the address has failed too often.
        for _ in 0..FREE_PER_ADDRESS {
            throttle.fail(&Keys::new("x", IpAddr::from([127, 0, 0, 1])), now);
        }
        assert!(throttle.wait(&other, now).is_some());
        throttle.succeed(&keys);
        assert!(!throttle.accounts.contains_key("ann"));
    }
}
