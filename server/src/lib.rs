//! hnefatafl-server: the game server behind the `hnefataflserver` binary.
//!
//! [`server`] holds the connections (TLS, framing, a task each way, limits per connection
//! and per address), the accounts' logins, the ratings read off the lock and the work a
//! message leaves behind (`server/connections`, `logins`, `ratings`, `followups`), the web
//! page and its WebSocket on `--web-port` (`server/web`), and the shutdown on SIGTERM; `referee` the games they play behind one lock, a file per family
//! of messages (`play`, `seats`, `create` and join, `offers`, `chat`, `lists`, `seeks`);
//! the clocks' arithmetic is in `clock`, and the referee's storage writes are committed in
//! order off the lock by `journal`'s thread; [`computer`] runs the computer players'
//! searches on a bounded pool; [`error`] says why the server could not start or stopped;
//! [`storage`] keeps accounts, games and moves in SQLite behind the [`storage::Storage`]
//! trait; [`accounts`] hashes and checks passwords and throttles failed logins; [`tls`]
//! makes and loads the server's certificate; [`quotas`] keeps what one client may take;
//! [`text`] decides which characters of chat and names are hidden; [`datadir`] makes and
//! locks the data directory; [`rating`] is the Glicko-2 arithmetic of players' ratings
//! and [`periods`] applies it to the rated games of each rating period; [`tournament`]
//! pairs and ranks the players of round robins and Swiss events (`referee/tournaments`
//! runs them). The wire itself is
//! `hnefatafl_net`'s, shared with the clients. `docs/architecture.md` shows how the crates
//! fit together.

#![deny(missing_docs)]

pub mod accounts;
mod clock;
pub mod computer;
pub mod datadir;
pub mod error;
mod journal;
pub mod moderation;
pub mod periods;
pub mod quotas;
pub mod rating;
mod referee;
pub mod server;
pub mod storage;
pub use hnefatafl_net::text;
pub mod tls;
pub mod tournament;
