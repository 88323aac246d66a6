//! Accounts over the wire: `register` (its name checked, its address's quota counted)
//! and `login` (throttled before its hash, so that tries sent at once are all counted),
//! their passwords hashed on blocking threads, a core each at most.

use std::sync::Arc;
use std::time::Instant;

use hnefatafl_net::protocol::{COMPUTER_PREFIX, ServerMessage};

use super::Server;
use crate::accounts;
use crate::referee::{ConnectionId, GUEST_PREFIX, valid_name};

impl Server {
    pub(super) async fn register(
        self: Arc<Self>,
        id: ConnectionId,
        name: String,
        password: String,
    ) {
        if !valid_name(&name) {
            let problem = "an account name has 1 to 32 letters, digits, `-` or `_`";
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        // In any case: `COMPUTER1x` would pass for a computer account too.
        if name.to_ascii_lowercase().starts_with(COMPUTER_PREFIX) {
            let problem = format!(
                "names starting with `{COMPUTER_PREFIX}`, in any case, are kept for the computer"
            );
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        // A guest talks as `guest<N>`: no account may pass for one.
        if name.to_ascii_lowercase().starts_with(GUEST_PREFIX) {
            let problem =
                format!("names starting with `{GUEST_PREFIX}`, in any case, are kept for guests");
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        if !(4..=1024).contains(&password.chars().count()) {
            let problem = "a password has 4 to 1024 characters";
            return self.lock().send(id, &ServerMessage::error(problem));
        }
        {
            let mut state = self.lock();
            let Some(address) = state.connections.get(&id).map(|c| c.address) else {
                return;
            };
            let limit = state.quotas.registrations_per_hour;
            // An exempt address (`--exempt`, this computer's with `--local`) is not
            // counted.
            let counted = if state.quotas.counts(address) {
                state.registrations.take(address, limit, Instant::now())
            } else {
                Ok(())
            };
            if let Err(wait) = counted {
                let problem = format!(
                    "at most {limit} new accounts an hour from one address; try again in {} s",
                    wait.as_secs() + 1
                );
                return state.send(id, &ServerMessage::error(problem));
            }
        }
        let Ok(_permit) = self.hashing.acquire().await else {
            return;
        };
        let server = self.clone();
        let account = name.clone();
        // Hashed, then stored on the off-lock connection, both on a blocking thread.
        let created = tokio::task::spawn_blocking(move || {
            let hash = accounts::hash(&server.memory, &password)
                .map_err(|_| "the password could not be hashed".to_owned())?;
            server
                .storage_off_lock()
                .create_account(&account, &hash)
                .map_err(|error| error.to_string())
        })
        .await;
        let result = created.unwrap_or_else(|_| Err("the password could not be hashed".into()));
        let mut state = self.lock();
        match result {
            Ok(true) => state.logged_in(id, name),
            Ok(false) => state.send(
                id,
                &ServerMessage::error(format!("the name `{name}` is taken")),
            ),
            Err(problem) => state.send(id, &ServerMessage::error(problem)),
        }
    }

    pub(super) async fn login(self: Arc<Self>, id: ConnectionId, name: String, password: String) {
        let keys = {
            let mut state = self.lock();
            let Some(address) = state.connections.get(&id).map(|c| c.address) else {
                return;
            };
            if state.computers.contains_key(&name) {
                return state.send(id, &ServerMessage::error("that is a computer account"));
            }
            let keys = accounts::Keys::new(&name, address);
            // Booked as failed now, before the hash: tries sent at once are counted.
            if let Err(wait) = state.throttle.start(&keys, Instant::now()) {
                let problem = format!(
                    "too many failed logins for `{name}` from this address; try again in {} s",
                    wait.as_secs() + 1
                );
                return state.send(id, &ServerMessage::error(problem));
            }
            keys
        };
        let server = self.clone();
        let account = name.clone();
        let read =
            tokio::task::spawn_blocking(move || server.storage_off_lock().password_hash(&account))
                .await;
        let stored = match read {
            Ok(Ok(stored)) => stored,
            Ok(Err(error)) => {
                return self
                    .lock()
                    .send(id, &ServerMessage::error(error.to_string()));
            }
            Err(_) => {
                return self
                    .lock()
                    .send(id, &ServerMessage::error("the account could not be read"));
            }
        };
        let Ok(_permit) = self.hashing.acquire().await else {
            return;
        };
        let server = self.clone();
        let checked = tokio::task::spawn_blocking(move || {
            // An unknown name costs as much as a wrong password, so that it does not show.
            accounts::verify(&server.memory, &password, stored.as_deref())
        })
        .await
        .unwrap_or(false);
        let mut state = self.lock();
        if checked {
            state.throttle.succeed(&keys);
            // Told only to who knows the password: a ban is nobody else's business.
            if let Some(problem) = state.moderation.banned(&name) {
                return state.send(id, &ServerMessage::error(problem));
            }
            state.logged_in(id, name);
        } else {
            state.send(id, &ServerMessage::error("wrong name or password"));
        }
    }
}
