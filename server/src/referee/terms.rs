//! What the seeks keep and what a `seek` asks, apart from their handling (`seeks`), so
//! that the referee names them without importing its own parts.

use hnefatafl_net::protocol::{ClockSpec, SeekTerms};

use crate::quotas::Window;
use crate::storage::StoredRating;

/// What a message's seek terms need from storage, read before the referee handles it.
#[derive(Debug, Default)]
pub(crate) struct LookedUp {
    /// Whether the account a challenge or a moderator's action names exists (read for
    /// `seek` with a name, and `moderate`).
    pub(crate) challenged_exists: Option<bool>,
    /// The sender's ratings in every rule set (read for `join`).
    pub(crate) ratings: Vec<StoredRating>,
}

/// What the seeks keep besides their games: the challenges each account sent in the
/// last hour.
#[derive(Debug, Default)]
pub(crate) struct Seeks {
    pub(super) challenges: Window<String>,
}

/// What a seek asks for, as [`State::seek`] takes it.
pub(crate) struct SeekRequest<'a> {
    /// The rules, as `new` names them.
    pub(crate) rules: &'a str,
    /// The clock; none for an untimed game.
    pub(crate) clock: Option<ClockSpec>,
    /// The poster's side; the server draws it when `None`.
    pub(crate) side: Option<u8>,
    /// Whether the game is rated.
    pub(crate) rated: bool,
    /// Who may take the other seat.
    pub(crate) terms: SeekTerms,
}
