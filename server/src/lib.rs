//! hnefatafl-server: the game server behind the `hnefataflserver` binary.
//!
//! [`server`] holds the connections (TLS, framing, a task each way, limits); `referee`
//! the games they play (moves checked by the engine, clocks, offers, spectators, chat)
//! behind one lock, the clocks' arithmetic in `clock`, its storage writes committed in order off the lock by `journal`'s
//! thread; [`storage`] keeps accounts, games and moves in SQLite behind the
//! [`storage::Storage`] trait; [`accounts`] hashes and checks passwords; [`tls`] makes and
//! loads the server's certificate; [`quotas`] keeps what one client may take; [`text`]
//! decides which characters of chat and names are hidden; [`datadir`] makes and locks the data directory; [`rating`] is the Glicko-2 arithmetic of players' ratings and
//! [`periods`] applies it to the rated games of each rating period. The wire itself is `hnefatafl_net`'s, shared with the
//! clients. `docs/architecture.md` shows how the crates fit together.

#![deny(missing_docs)]

pub mod accounts;
mod clock;
pub mod computer;
pub mod datadir;
pub mod error;
mod journal;
pub mod periods;
pub mod quotas;
pub mod rating;
mod referee;
pub mod server;
pub mod storage;
pub use hnefatafl_net::text;
pub mod tls;
