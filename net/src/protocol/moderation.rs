//! The parts of the moderation messages: what a moderator does ([`ModAction`]), the
//! entries of the moderation log ([`ModLogEntry`]) and the chat lines a moderator may hide
//! ([`ChatLine`]).

use serde::{Deserialize, Serialize};

use super::GameId;

/// Entries in one page of the moderation log ([`super::ServerMessage::ModerationLog`]):
/// every entry is bounded (names of 32 characters, a reason of [`MAX_REASON`]), so that a
/// page stays far below [`super::MAX_LINE`].
pub const MODERATION_PAGE: usize = 40;

/// The longest reason of a moderator's action, in characters; a longer one is cut.
pub const MAX_REASON: usize = 200;

/// Chat lines in one [`super::ServerMessage::ChatLines`] message: a chat line has at most
/// 500 characters, so that ten stay far below [`super::MAX_LINE`].
pub const CHAT_PAGE: usize = 10;

/// What a moderator does to an account, an address, a chat line or a game. The owner
/// (`--admin`) may do everything, to anybody but an owner; a moderator everything but
/// making and unmaking moderators, to plain accounts only.
///
/// On the wire an object whose `kind` names the action: `{"kind":"mute","account":"bob",
/// "seconds":600}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ModAction {
    /// Makes an account a moderator (the owner only).
    Promote {
        /// The account.
        account: String,
    },
    /// Makes a moderator a plain account again (the owner only).
    Demote {
        /// The account.
        account: String,
    },
    /// Forbids an account to chat, for a time or until it is lifted.
    Mute {
        /// The account.
        account: String,
        /// For how long, in seconds; until `unmute` when left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds: Option<u64>,
    },
    /// Lets a muted account chat again.
    Unmute {
        /// The account.
        account: String,
    },
    /// Closes every connection of an account (it may log in again).
    Kick {
        /// The account.
        account: String,
    },
    /// Closes every connection of an account and refuses its logins; its games and
    /// ratings stay.
    Ban {
        /// The account.
        account: String,
    },
    /// Lets a banned account log in again.
    Unban {
        /// The account.
        account: String,
    },
    /// Closes every connection from an address, or a range of them, and refuses new ones:
    /// `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`.
    BanAddress {
        /// The address or range.
        address: String,
    },
    /// Lifts the ban of an address or range, written as it was banned.
    UnbanAddress {
        /// The address or range.
        address: String,
    },
    /// Hides a chat line of a game from everybody: its audience is told, and it is no
    /// longer listed.
    Hide {
        /// The game.
        game: GameId,
        /// The line's number ([`super::ServerMessage::Chat`]'s `line`).
        line: u64,
    },
    /// Ends an unfinished game with no winner; it changes nobody's rating.
    Abort {
        /// The game.
        game: GameId,
    },
}

impl ModAction {
    /// The action as its JSON object, as the wire has it (the server's log keeps it so).
    pub fn to_json(&self) -> String {
        // Serializing this plain enum to a string cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads an action written by [`ModAction::to_json`].
    ///
    /// # Errors
    ///
    /// Not an action's JSON object, in words.
    pub fn from_json(text: &str) -> Result<ModAction, String> {
        serde_json::from_str(text).map_err(|error| error.to_string())
    }

    /// The account the action is done to, if it is done to one.
    pub fn account(&self) -> Option<&str> {
        match self {
            ModAction::Promote { account }
            | ModAction::Demote { account }
            | ModAction::Mute { account, .. }
            | ModAction::Unmute { account }
            | ModAction::Kick { account }
            | ModAction::Ban { account }
            | ModAction::Unban { account } => Some(account),
            ModAction::BanAddress { .. }
            | ModAction::UnbanAddress { .. }
            | ModAction::Hide { .. }
            | ModAction::Abort { .. } => None,
        }
    }
}

/// One moderator's action, as the moderation log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModLogEntry {
    /// The entry's number, the first being 1.
    pub number: u64,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// Who did it.
    pub by: String,
    /// What was done, and to whom.
    pub action: ModAction,
    /// Why, when the moderator said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A chat line of a game, as [`super::ServerMessage::ChatLines`] lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatLine {
    /// The line's number in its game, the first being 1.
    pub line: u64,
    /// Who said it.
    pub from: String,
    /// The text.
    pub text: String,
}
