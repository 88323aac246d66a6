//! Passwords: argon2id hashes, and the slow-down of failed logins per account and address
//! pair and per address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// The working memory of argon2id hashes (19 MiB each at the default cost), kept and
/// reused: a server that hashed into fresh memory each time grew by most of a hash's
/// memory per login (the allocator keeps the freed blocks around, fragmented), 360 MB
/// after 40 hashes. Each hash takes one block set from here and gives it back.
#[derive(Default)]
pub struct Memory {
    free: Mutex<Vec<Vec<Block>>>,
}

impl Memory {
    /// Runs `work` with a block set of at least `blocks` blocks, taken from the kept ones
    /// (grown if needed) or made, and kept again afterwards.
    fn with<T>(&self, blocks: usize, work: impl FnOnce(&mut [Block]) -> T) -> T {
        let kept = self.free.lock().ok().and_then(|mut free| free.pop());
        let mut memory = kept.unwrap_or_default();
        if memory.len() < blocks {
            memory.resize(blocks, Block::default());
        }
        let result = work(&mut memory[..blocks]);
        if let Ok(mut free) = self.free.lock() {
            free.push(memory);
        }
        result
    }
}

/// Hashes a password with argon2id (the crate's default cost) and a random salt, in the
/// PHC string form that [`verify`] reads, working in memory kept in `memory`.
///
/// # Errors
///
/// The hasher refuses the input (it does not for passwords of sane length).
pub fn hash(memory: &Memory, password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_bytes = [0; 64];
    let salt_bytes = salt.decode_b64(&mut salt_bytes)?;
    let params = Params::default();
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut output = [0; Params::DEFAULT_OUTPUT_LEN];
    memory.with(params.block_count(), |blocks| {
        argon2.hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut output, blocks)
    })?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params)?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&output)?),
    };
    Ok(phc.to_string())
}

/// A hash of nothing, checked against when the account is unknown, so that an unknown
/// name costs as much time as a wrong password and does not show.
static DUMMY_HASH: LazyLock<String> =
    LazyLock::new(|| hash(&Memory::default(), "").unwrap_or_default());

/// Whether the password matches the stored hash (argon2 in PHC string form, with the
/// algorithm, version and cost it names); with no hash, the work is done anyway and the
/// answer is no.
pub fn verify(memory: &Memory, password: &str, stored: Option<&str>) -> bool {
    let check = || -> Result<bool, argon2::password_hash::Error> {
        let parsed = PasswordHash::new(stored.unwrap_or(&DUMMY_HASH))?;
        let algorithm = Algorithm::try_from(parsed.algorithm)?;
        let version = parsed
            .version
            .map_or(Ok(Version::default()), Version::try_from)?;
        let params = Params::try_from(&parsed)?;
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return Ok(false);
        };
        let mut salt_bytes = [0; 64];
        let salt_bytes = salt.decode_b64(&mut salt_bytes)?;
        let mut output = vec![0; expected.len()];
        let argon2 = Argon2::new(algorithm, version, params.clone());
        memory.with(params.block_count(), |blocks| {
            argon2.hash_password_into_with_memory(
                password.as_bytes(),
                salt_bytes,
                &mut output,
                blocks,
            )
        })?;
        // `Output` compares in constant time.
        Ok(Output::new(&output)? == expected)
    };
    let matches = check().unwrap_or(false);
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

/// Failures free of any wait, per account and address pair.
const FREE_PER_PAIR: u32 = 3;
/// Failures free of any wait, per address (many people may share one).
const FREE_PER_ADDRESS: u32 = 10;
/// The longest wait.
const LONGEST_WAIT: Duration = Duration::from_secs(300);
/// Entries kept before old ones are dropped.
const MAX_ENTRIES: usize = 100_000;

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    /// When the last one was booked: the wait runs from there.
    last: Instant,
}

impl Failures {
    /// The end of the wait after these failures, `free` of them free of any wait.
    fn until(&self, free: u32) -> Instant {
        self.last + wait_after(self.count, free)
    }
}

/// Failed logins: after a few free ones, each failure doubles a wait (1 s, 2 s, 4 s, up
/// to 5 minutes) during which that account may not be tried from that address, or that
/// address may not try at all.
///
/// A try counts as failed from the moment it starts ([`Throttle::start`]), before its
/// password is hashed, and is taken back only when it succeeds: tries sent at once do not
/// all pass the check while the first are still being hashed.
///
/// The account's wait is kept per address, not for the account as a whole: failures from
/// one address must not lock the owner out from another (a lockout anyone could use
/// against anyone). A guesser spread over many addresses still gets only a few tries
/// from each, each an argon2id hash of work for the server, one per core at a time.
#[derive(Debug, Default)]
pub struct Throttle {
    pairs: HashMap<(String, IpAddr), Failures>,
    addresses: HashMap<IpAddr, Failures>,
}

fn wait_after(count: u32, free: u32) -> Duration {
    match count.checked_sub(free + 1) {
        None => Duration::ZERO,
        Some(doublings) => Duration::from_secs(1u64 << doublings.min(20)).min(LONGEST_WAIT),
    }
}

fn bump(failures: &mut Failures, now: Instant) {
    failures.count = failures.count.saturating_add(1);
    failures.last = now;
}

impl Throttle {
    /// How long the attempt must wait, if it must.
    pub fn wait(&self, keys: &Keys, now: Instant) -> Option<Duration> {
        let account = self
            .pairs
            .get(&(keys.account.clone(), keys.address))
            .map(|f| f.until(FREE_PER_PAIR));
        let address = self
            .addresses
            .get(&keys.address)
            .map(|f| f.until(FREE_PER_ADDRESS));
        let until = account.into_iter().chain(address).max()?;
        (until > now).then(|| until - now)
    }

    /// Starts an attempt: refused with the wait when one is due, otherwise booked as a
    /// failure at once, until [`Throttle::succeed`] takes it back.
    ///
    /// # Errors
    ///
    /// The wait before the account may be tried from that address again.
    pub fn start(&mut self, keys: &Keys, now: Instant) -> Result<(), Duration> {
        if let Some(wait) = self.wait(keys, now) {
            return Err(wait);
        }
        self.fail(keys, now);
        Ok(())
    }

    /// Books a failed attempt.
    fn fail(&mut self, keys: &Keys, now: Instant) {
        if self.pairs.len() + self.addresses.len() > MAX_ENTRIES {
            let pair_stale = |f: &Failures| f.until(FREE_PER_PAIR) + LONGEST_WAIT > now;
            let address_stale = |f: &Failures| f.until(FREE_PER_ADDRESS) + LONGEST_WAIT > now;
            self.pairs.retain(|_, f| pair_stale(f));
            self.addresses.retain(|_, f| address_stale(f));
        }
        let fresh = Failures {
            count: 0,
            last: now,
        };
        let pair = self
            .pairs
            .entry((keys.account.clone(), keys.address))
            .or_insert(fresh);
        bump(pair, now);
        let address = self.addresses.entry(keys.address).or_insert(fresh);
        bump(address, now);
    }

    /// Books a successful login, an attempt that [`Throttle::start`] booked as failed:
    /// the failures of the account from that address are forgotten, and the address's
    /// count goes back by the one booked.
    pub fn succeed(&mut self, keys: &Keys) {
        self.pairs.remove(&(keys.account.clone(), keys.address));
        if let Some(address) = self.addresses.get_mut(&keys.address) {
            address.count = address.count.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify() {
        let memory = Memory::default();
        let hashed = hash(&memory, "correct horse").expect("hash");
        assert!(
            hashed.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hashed}"
        );
        assert!(verify(&memory, "correct horse", Some(&hashed)));
        assert!(!verify(&memory, "wrong", Some(&hashed)));
        assert!(!verify(&memory, "correct horse", None));
        assert!(!verify(&memory, "correct horse", Some("not a hash")));
        // One block set served every hash, and is kept.
        assert_eq!(memory.free.lock().map(|free| free.len()).ok(), Some(1));
    }

    #[test]
    fn hashes_agree_with_the_argon2_crates_own_hasher_both_ways() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let memory = Memory::default();
        let ours = hash(&memory, "it's a secret").expect("hash");
        let parsed = PasswordHash::new(&ours).expect("a PHC string");
        let crate_check = Argon2::default().verify_password(b"it's a secret", &parsed);
        assert!(crate_check.is_ok());
        assert!(
            Argon2::default()
                .verify_password(b"it's a secreT", &parsed)
                .is_err()
        );
        // Hashes stored by the crate's hasher, at another cost too, still verify.
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"old password", &salt)
            .expect("hash")
            .to_string();
        assert!(verify(&memory, "old password", Some(&theirs)));
        assert!(!verify(&memory, "old passworD", Some(&theirs)));
        let cheap = Params::new(1024, 1, 1, Some(16)).expect("params");
        let other = Argon2::new(Algorithm::Argon2i, Version::V0x10, cheap)
            .hash_password(b"old password", &salt)
            .expect("hash")
            .to_string();
        assert!(verify(&memory, "old password", Some(&other)));
        assert!(!verify(&memory, "wrong", Some(&other)));
    }

    #[test]
    fn failures_make_logins_wait() {
        let mut throttle = Throttle::default();
        let now = Instant::now();
        let keys = Keys::new("ann", IpAddr::from([127, 0, 0, 1]));
        for _ in 0..FREE_PER_PAIR {
            assert_eq!(throttle.start(&keys, now), Ok(()));
        }
        assert_eq!(throttle.start(&keys, now), Ok(()));
        // Tries booked at the start: the next one waits, whatever the last one's result.
        assert_eq!(throttle.start(&keys, now), Err(Duration::from_secs(1)));
        throttle.fail(&keys, now);
        assert_eq!(throttle.wait(&keys, now), Some(Duration::from_secs(2)));
        assert_eq!(throttle.wait(&keys, now + Duration::from_secs(3)), None);
        // The same account from another address is not held up ...
        let owner = Keys::new("ann", IpAddr::from([192, 0, 2, 7]));
        assert_eq!(throttle.wait(&owner, now), None);
        // Another account from the same address is not held up yet ...
        let other = Keys::new("bob", IpAddr::from([127, 0, 0, 1]));
        assert_eq!(throttle.wait(&other, now), None);
        // ... until the address has failed too often.
        for _ in 0..FREE_PER_ADDRESS {
            throttle.fail(&Keys::new("x", IpAddr::from([127, 0, 0, 1])), now);
        }

        assert!(throttle.wait(&other, now).is_some());
        throttle.succeed(&keys);
        assert!(
            !throttle
                .pairs
                .contains_key(&("ann".to_owned(), IpAddr::from([127, 0, 0, 1])))
        );
    }

    #[test]
    fn a_success_gives_back_what_its_start_booked() {
        let mut throttle = Throttle::default();
        let now = Instant::now();
        let address = IpAddr::from([192, 0, 2, 1]);
        // Many people behind one address log in, one after another, all day.
        for index in 0..100 {
            let keys = Keys::new(&format!("player{index}"), address);
            assert_eq!(throttle.start(&keys, now), Ok(()));
            throttle.succeed(&keys);
        }
        assert_eq!(throttle.addresses[&address].count, 0);
    }
}
