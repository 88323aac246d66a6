//! Moderation: who may moderate, and what stands now (banned accounts and addresses,
//! muted accounts), all of it read from the moderation log.
//!
//! The log is the one source of truth: every action is an entry ([`ModLogEntry`]), stored
//! in order, and [`Moderation::new`] replays the stored entries at start, so that a
//! restart keeps the moderators, the bans and the mutes. The owners are given at start
//! (`--admin`). Names are compared without regard to case, as accounts are told apart.
//! Nothing here does I/O: the referee records each new entry's storage write.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

use hnefatafl_net::protocol::{MODERATION_PAGE, ModAction, ModLogEntry};

use crate::storage::StoredTime;

/// Who an account is to the moderation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// An account like any other.
    Plain,
    /// Made a moderator by an owner.
    Moderator,
    /// Given at start (`--admin`).
    Owner,
}

/// An address or a range of them: a prefix of its bits (`203.0.113.0/24`); a lone
/// address is the range of its full length. std has no such type, and the one thing it
/// must do, a comparison of leading bits, is a mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AddressRange {
    base: IpAddr,
    prefix: u8,
}

impl AddressRange {
    /// Reads `ADDRESS` or `ADDRESS/PREFIX` (IPv4 or IPv6).
    ///
    /// # Errors
    ///
    /// Not an address, or a prefix longer than the address's bits, in words.
    pub fn parse(text: &str) -> Result<AddressRange, String> {
        let bad = || {
            format!(
                "`{text}` is not an address nor a range (like 203.0.113.7, 203.0.113.0/24 or \
                 2001:db8::/32)"
            )
        };
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text.trim(), None),
        };
        let base: IpAddr = address.parse().map_err(|_| bad())?;
        let bits = if base.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix.parse::<u8>().map_err(|_| bad())?,
            None => bits,
        };
        if prefix > bits {
            return Err(bad());
        }
        Ok(AddressRange { base, prefix })
    }

    /// Whether `address` is in the range. An IPv4 address mapped into IPv6
    /// (`::ffff:203.0.113.7`) is taken as the IPv4 one.
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = match address {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
            v4 => v4,
        };
        let (base, address, bits) = match (self.base, address) {
            (IpAddr::V4(base), IpAddr::V4(address)) => (
                u128::from(base.to_bits()),
                u128::from(address.to_bits()),
                32,
            ),
            (IpAddr::V6(base), IpAddr::V6(address)) => (base.to_bits(), address.to_bits(), 128),
            _ => return false,
        };
        let shift = bits - u32::from(self.prefix);
        shift >= 128 || base >> shift == address >> shift
    }
}

impl std::fmt::Display for AddressRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bits = if self.base.is_ipv4() { 32 } else { 128 };
        if self.prefix == bits {
            write!(f, "{}", self.base)
        } else {
            write!(f, "{}/{}", self.base, self.prefix)
        }
    }
}

/// A ban or a mute, as it stands: why, and until when (mutes only; `None`: until lifted).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Standing {
    reason: Option<String>,
    until: Option<StoredTime>,
}

/// The moderators, bans and mutes, and the log they come from.
#[derive(Debug, Default)]
pub struct Moderation {
    owners: BTreeSet<String>,
    moderators: BTreeSet<String>,
    banned: BTreeMap<String, Standing>,
    banned_addresses: BTreeMap<AddressRange, Standing>,
    muted: BTreeMap<String, Standing>,
    log: Vec<ModLogEntry>,
}

/// An account's name as moderation keys it: without regard to case.
fn key(account: &str) -> String {
    account.to_ascii_lowercase()
}

impl Moderation {
    /// The owners (`--admin`), and what the stored log, oldest first, leaves standing.
    pub fn new(owners: &[String], log: Vec<ModLogEntry>) -> Moderation {
        let mut moderation = Moderation {
            owners: owners.iter().map(|owner| key(owner)).collect(),
            ..Moderation::default()
        };
        for entry in log {
            moderation.apply(&entry);
            moderation.log.push(entry);
        }
        moderation
    }

    /// Who `account` is to the moderation.
    pub fn rank(&self, account: &str) -> Rank {
        let account = key(account);
        if self.owners.contains(&account) {
            Rank::Owner
        } else if self.moderators.contains(&account) {
            Rank::Moderator
        } else {
            Rank::Plain
        }
    }

    /// Whether `account` is a moderator or an owner.
    pub fn is_moderator(&self, account: &str) -> bool {
        self.rank(account) > Rank::Plain
    }

    /// Whether `actor` may do `action`: a moderator or an owner, acting on an account of a
    /// lower rank; making and unmaking moderators is the owners' alone.
    ///
    /// # Errors
    ///
    /// Why not, in words.
    pub fn permit(&self, actor: &str, action: &ModAction) -> Result<(), String> {
        let rank = self.rank(actor);
        if rank == Rank::Plain {
            return Err("only moderators may do that".to_owned());
        }
        if matches!(action, ModAction::Promote { .. } | ModAction::Demote { .. })
            && rank != Rank::Owner
        {
            return Err("only the owner makes and unmakes moderators".to_owned());
        }
        if let Some(account) = action.account() {
            match self.rank(account) {
                Rank::Owner => return Err(format!("`{account}` is an owner of the server")),
                Rank::Moderator if rank != Rank::Owner => {
                    return Err(format!(
                        "`{account}` is a moderator: only the owner acts on moderators"
                    ));
                }
                _ => {}
            }
        }
        if let ModAction::BanAddress { address } | ModAction::UnbanAddress { address } = action {
            AddressRange::parse(address)?;
        }
        Ok(())
    }

    /// Adds an action to the log, and to what stands; answers its entry.
    pub fn record(
        &mut self,
        by: &str,
        action: ModAction,
        reason: Option<String>,
        at_ms: StoredTime,
    ) -> ModLogEntry {
        let entry = ModLogEntry {
            number: self.log.len() as u64 + 1,
            at_ms,
            by: by.to_owned(),
            action,
            reason,
        };
        self.apply(&entry);
        self.log.push(entry.clone());
        entry
    }

    /// What an entry changes in what stands.
    fn apply(&mut self, entry: &ModLogEntry) {
        let standing = |until| Standing {
            reason: entry.reason.clone(),
            until,
        };
        match &entry.action {
            ModAction::Promote { account } => {
                self.moderators.insert(key(account));
            }
            ModAction::Demote { account } => {
                self.moderators.remove(&key(account));
            }
            ModAction::Mute { account, seconds } => {
                let until = seconds.map(|seconds| {
                    let millis = i64::try_from(seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
                    entry.at_ms.saturating_add(millis)
                });
                self.muted.insert(key(account), standing(until));
            }
            ModAction::Unmute { account } => {
                self.muted.remove(&key(account));
            }
            ModAction::Ban { account } => {
                self.banned.insert(key(account), standing(None));
            }
            ModAction::Unban { account } => {
                self.banned.remove(&key(account));
            }
            ModAction::BanAddress { address } => {
                if let Ok(range) = AddressRange::parse(address) {
                    self.banned_addresses.insert(range, standing(None));
                }
            }
            ModAction::UnbanAddress { address } => {
                if let Ok(range) = AddressRange::parse(address) {
                    self.banned_addresses.remove(&range);
                }
            }
            ModAction::Kick { .. } | ModAction::Hide { .. } | ModAction::Abort { .. } => {}
        }
    }

    /// Why `account` may not log in, when it is banned.
    pub fn banned(&self, account: &str) -> Option<String> {
        let standing = self.banned.get(&key(account))?;
        Some(format!(
            "the account `{account}` is banned from this server{}",
            because(standing.reason.as_deref())
        ))
    }

    /// Why a connection from `address` is refused, when a banned range holds it.
    pub fn address_banned(&self, address: IpAddr) -> Option<String> {
        let (range, standing) = self
            .banned_addresses
            .iter()
            .find(|(range, _)| range.contains(address))?;
        Some(format!(
            "connections from {range} are banned from this server{}",
            because(standing.reason.as_deref())
        ))
    }

    /// Why `account` may not chat now (`now` in milliseconds since the Unix epoch), when
    /// it is muted.
    pub fn muted(&self, account: &str, now: StoredTime) -> Option<String> {
        let standing = self.muted.get(&key(account))?;
        let until = match standing.until {
            Some(until) if until <= now => return None,
            Some(until) => format!(" for {} s more", (until - now + 999) / 1000),
            None => " until a moderator lifts it".to_owned(),
        };
        Some(format!(
            "you are muted{until}{}: this line was not sent",
            because(standing.reason.as_deref())
        ))
    }

    /// Page `page` of the log, the latest entries first, [`MODERATION_PAGE`] a page.
    pub fn page(&self, page: u32) -> Vec<ModLogEntry> {
        self.log
            .iter()
            .rev()
            .skip((page as usize).saturating_mul(MODERATION_PAGE))
            .take(MODERATION_PAGE)
            .cloned()
            .collect()
    }
}

/// `: <reason>` when there is one.
fn because(reason: Option<&str>) -> String {
    reason.map_or_else(String::new, |reason| format!(" ({reason})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(name: &str) -> String {
        name.to_owned()
    }

    #[test]
    fn ranges_hold_their_prefixs_addresses_only() {
        let range = AddressRange::parse("203.0.113.0/24").expect("a range");
        assert!(range.contains("203.0.113.200".parse().expect("an address")));
        assert!(!range.contains("203.0.114.1".parse().expect("an address")));
        assert!(range.contains("::ffff:203.0.113.9".parse().expect("a mapped address")));
        let one = AddressRange::parse("127.0.0.2").expect("an address");
        assert!(one.contains("127.0.0.2".parse().expect("an address")));
        assert!(!one.contains("127.0.0.1".parse().expect("an address")));
        let v6 = AddressRange::parse("2001:db8::/32").expect("a range");
        assert!(v6.contains("2001:db8:1::5".parse().expect("an address")));
        assert!(!v6.contains("2001:db9::5".parse().expect("an address")));
        assert!(
            AddressRange::parse("0.0.0.0/0")
                .is_ok_and(|all| all.contains("198.51.100.1".parse().expect("an address")))
        );
        for bad in ["example.org", "10.0.0.0/33", "10.0.0.0/x", ""] {
            let problem = AddressRange::parse(bad).expect_err("refused");
            assert!(problem.contains("not an address"), "{problem}");
        }
        assert_eq!(range.to_string(), "203.0.113.0/24");
        assert_eq!(one.to_string(), "127.0.0.2");
    }

    #[test]
    fn ranks_decide_who_acts_on_whom() {
        let mut moderation = Moderation::new(&[account("Owner")], Vec::new());
        let promote = ModAction::Promote {
            account: account("mod"),
        };
        assert!(moderation.permit("plain", &promote).is_err());
        assert!(moderation.permit("owner", &promote).is_ok());
        moderation.record("owner", promote, None, 0);
        assert!(moderation.is_moderator("MOD"));
        let demote_other = ModAction::Demote {
            account: account("other"),
        };
        assert!(moderation.permit("mod", &demote_other).is_err());
        let ban_owner = ModAction::Ban {
            account: account("owner"),
        };
        assert!(moderation.permit("mod", &ban_owner).is_err());
        let kick_mod = ModAction::Kick {
            account: account("mod"),
        };
        assert!(moderation.permit("mod", &kick_mod).is_err());
        assert!(moderation.permit("owner", &kick_mod).is_ok());
        let bad_address = ModAction::BanAddress {
            address: "nowhere".into(),
        };
        assert!(moderation.permit("mod", &bad_address).is_err());
    }

    #[test]
    fn the_log_replayed_leaves_the_same_standing() {
        let mut moderation = Moderation::new(&[account("owner")], Vec::new());
        moderation.record(
            "owner",
            ModAction::Ban {
                account: account("Bob"),
            },
            Some("spam".into()),
            1_000,
        );
        moderation.record(
            "owner",
            ModAction::Mute {
                account: account("carol"),
                seconds: Some(60),
            },
            None,
            1_000,
        );
        moderation.record(
            "owner",
            ModAction::BanAddress {
                address: "10.1.0.0/16".into(),
            },
            None,
            2_000,
        );
        let replayed = Moderation::new(
            &[account("owner")],
            moderation.page(0).into_iter().rev().collect(),
        );
        let banned = replayed.banned("bob").expect("still banned");
        assert!(banned.contains("spam"), "{banned}");
        assert!(replayed.muted("carol", 30_000).is_some());
        assert!(replayed.muted("carol", 61_000).is_none());
        assert!(
            replayed
                .address_banned("10.1.2.3".parse().expect("an address"))
                .is_some()
        );
        assert_eq!(replayed.page(0).len(), 3);
        assert_eq!(replayed.page(0)[0].number, 3);
        assert!(replayed.page(1).is_empty());
    }
}
