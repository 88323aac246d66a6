//! The parts of the export messages: a finished game's record in one of two formats
//! ([`RecordFormat`]), and a page of a player's records ([`Record`]).

use serde::{Deserialize, Serialize};

use super::GameId;

/// The most bytes of records' texts (as sent, JSON strings) in one
/// [`super::ServerMessage::PlayerRecords`] page: half of [`super::MAX_LINE`], so that the
/// rest of the message has room. A record longer than this alone is not sent but named in
/// the page's `left_out`.
pub const RECORDS_BYTES: usize = super::MAX_LINE / 2;

/// The most records, sent and left out together, in one page.
pub const RECORDS_PAGE: usize = 100;

/// The format of a finished game's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordFormat {
    /// The saved-game text that the engine replays (`e` loads it).
    #[default]
    Saved,
    /// An OpenTafl game record (OTN): tags, the rules string, numbered turns.
    Otn,
}

impl RecordFormat {
    /// The file name extension of the format: `txt` or `otn`.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Saved => "txt",
            RecordFormat::Otn => "otn",
        }
    }
}

/// One finished game's record, in a [`super::ServerMessage::PlayerRecords`] page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The game.
    pub game: GameId,
    /// The record's text.
    pub text: String,
}
