//! The messages between `hnefataflserver` and its clients: one JSON object per line.
//!
//! Every message is an object whose `type` field names it. The client's first message is
//! [`ClientMessage::Hello`] with the [`PROTOCOL_VERSION`] it speaks; the server answers
//! [`ServerMessage::Welcome`] or an error and closes. A line longer than [`MAX_LINE`]
//! closes the connection; any other bad line gets a [`ServerMessage::Error`] and the
//! connection goes on. `docs/protocol.md` describes every message with an example session.

use hnefatafl_core::{EndReason, Move};
use serde::{Deserialize, Serialize};
use tokio_util::codec::AnyDelimiterCodec;

pub use crate::clock::{ClockKind, ClockSpec};
pub use lines::{masked, parse_client, parse_server, to_line};
pub use moderation::{CHAT_PAGE, ChatLine, MAX_REASON, MODERATION_PAGE, ModAction, ModLogEntry};
pub use position::{BoardPosition, LegalMoves, MAX_LEGAL_JSON, POSITIONS_VERSION, SquareIndex};
pub use records::{RECORDS_BYTES, RECORDS_PAGE, Record, RecordFormat};
pub use tournament::{
    MAX_TOURNAMENT_NAME, TournamentFormat, TournamentId, TournamentMatch, TournamentRound,
    TournamentSpec, TournamentStanding, TournamentStatus, TournamentSummary, TournamentView,
};

mod lines;
mod moderation;
mod position;
mod records;
mod tournament;

/// The version of the protocol that this program speaks. Version 4 adds tournaments,
/// moderation (with `chat_hidden` sent unasked to a game's audience) and the export of
/// records (`format` of `fetch` and `saved_game`, `fetch_player`). Version 3 adds byo-yomi and
/// correspondence clocks (`periods`, `period_ms`, `move_ms`), the byo-yomi periods left
/// (`periods` of `game`, `moved`, `undone`), and sends why a game ended as an [`EndCause`]
/// (version 2 sent it as English words; version 1 also sent moves as text).
pub const PROTOCOL_VERSION: u32 = 4;

/// The longest line either side accepts, newline excluded: 64 KiB, room for any rule file.
pub const MAX_LINE: usize = 64 * 1024;

/// The framing both ends read with: lines split at `\n`, none longer than [`MAX_LINE`].
pub fn line_codec() -> AnyDelimiterCodec {
    AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), MAX_LINE)
}

/// The largest rule file a server takes in [`ClientMessage::UploadRules`], in bytes: a
/// quarter of [`MAX_LINE`], so that a `game` message, which carries the text, has room for
/// thousands of moves.
pub const MAX_RULES_TEXT: usize = 16 * 1024;

/// The longest an uploaded rule file may be as it is sent, a JSON string (each control
/// character takes six bytes there, a tab, quote or backslash two): twice
/// [`MAX_RULES_TEXT`], so that a `game` message still has room for its moves.
pub const MAX_RULES_SENT: usize = 2 * MAX_RULES_TEXT;

/// The length of `text` as a JSON string, quotes included: what it takes in a line.
pub fn sent_len(text: &str) -> usize {
    serde_json::to_string(text).map_or(usize::MAX, |json| json.len())
}

/// The longest `id` or `name` of an uploaded rule file, in characters.
pub const MAX_RULES_LABEL: usize = 64;

/// The name prefix of the server's computer accounts (`computer3` plays at level 3), which
/// nobody may register.
pub const COMPUTER_PREFIX: &str = "computer";

/// A game's number on its server.
pub type GameId = u64;

/// What a player may offer the other, who accepts or declines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// Take back the last move of the player who asks.
    Undo,
    /// End the game as a draw.
    Draw,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the protocol version and the client's name.
    Hello {
        /// [`PROTOCOL_VERSION`] of the client.
        version: u32,
        /// The program, for the server's log.
        client: String,
        /// The version of the position addition the client reads
        /// ([`POSITIONS_VERSION`]): with it, every position it sees comes with its board
        /// and legal moves ([`ServerMessage::Position`]); none when left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        positions: Option<u32>,
    },
    /// Makes an account and logs in to it.
    Register {
        /// Account name: 1 to 32 letters, digits, `-` or `_`.
        name: String,
        /// Password: at least 4 characters.
        password: String,
    },
    /// Logs in.
    Login {
        /// Account name.
        name: String,
        /// Password.
        password: String,
    },
    /// Asks for the rule sets the server offers.
    Rules,
    /// Offers a rule file; the server validates it and answers its id and hash.
    UploadRules {
        /// The rule file's text.
        text: String,
    },
    /// Asks for the games being played or waiting for a player.
    Games,
    /// Creates a game and takes a seat in it.
    New {
        /// A shipped rule file's name or id, or the hash of an uploaded one.
        rules: String,
        /// The clock; none for an untimed game.
        #[serde(default)]
        clock: Option<ClockSpec>,
        /// The side to play, 0 or 1 (player 0 moves first); 0 when left out.
        #[serde(default)]
        side: u8,
        /// A computer account to play the other side at once.
        #[serde(default)]
        opponent: Option<String>,
        /// Whether the result counts for both players' ratings; false when left out.
        #[serde(default)]
        rated: bool,
    },
    /// Takes the free seat of a game, or comes back to one's own seat after a reconnect.
    Join {
        /// The game.
        game: GameId,
    },
    /// Watches a game (guests may).
    Watch {
        /// The game.
        game: GameId,
    },
    /// Stops watching or playing a game on this connection; the seat stays one's own.
    Leave {
        /// The game.
        game: GameId,
    },
    /// Makes a move.
    Move {
        /// The game.
        game: GameId,
        /// The move in core's serde form: `{"from":[x,y],"to":[x,y]}`, with `"jumps"`
        /// for a jump capture, and no other field; the server checks it against the
        /// game's rules.
        #[serde(rename = "move", deserialize_with = "strict_move")]
        mv: Move,
    },
    /// Chat to the players and spectators of a game.
    Say {
        /// The game.
        game: GameId,
        /// The text.
        text: String,
    },
    /// Offers the opponent an undo or a draw.
    Offer {
        /// The game.
        game: GameId,
        /// What is offered.
        kind: OfferKind,
    },
    /// Answers the opponent's offer.
    Answer {
        /// The game.
        game: GameId,
        /// What was offered.
        kind: OfferKind,
        /// Whether it is accepted.
        accept: bool,
    },
    /// Gives up the game.
    Resign {
        /// The game.
        game: GameId,
    },
    /// Asks for the finished games.
    Archive,
    /// Asks for a finished game's record: [`ServerMessage::SavedGame`].
    Fetch {
        /// The game.
        game: GameId,
        /// The record's format; the saved game when left out.
        #[serde(default)]
        format: RecordFormat,
    },
    /// Asks for a page of a rule set's leaderboard: [`ServerMessage::Leaderboard`].
    Ratings {
        /// A shipped rule file's name or id, or the hash of an uploaded one.
        rules: String,
        /// The page, the first being 0; pages hold [`RATINGS_PAGE`] entries.
        #[serde(default)]
        page: u32,
    },
    /// Asks for an account's ratings and recent history: [`ServerMessage::AccountRatings`].
    Rating {
        /// The account.
        account: String,
    },
    /// Posts a seek: a game as [`ClientMessage::New`] makes it, whose free seat only who
    /// meets `terms` may take; answered as `new` is.
    Seek {
        /// A shipped rule file's name or id, or the hash of an uploaded one.
        rules: String,
        /// The clock; none for an untimed game.
        #[serde(default)]
        clock: Option<ClockSpec>,
        /// The side to play, 0 or 1; the server draws it when left out.
        #[serde(default)]
        side: Option<u8>,
        /// Whether the result counts for both players' ratings; false when left out.
        #[serde(default)]
        rated: bool,
        /// Who may take the other seat; anyone when left out.
        #[serde(default)]
        terms: SeekTerms,
    },
    /// Offers the opponent of a finished game another with the same rules, clock and
    /// rating, the sides swapped: a challenge to them (at once against a computer).
    Rematch {
        /// The finished game.
        game: GameId,
    },
    /// Asks for the tournaments: [`ServerMessage::TournamentList`].
    Tournaments,
    /// Asks for one tournament's players, pairings and standings:
    /// [`ServerMessage::Tournament`].
    Tournament {
        /// The tournament.
        tournament: TournamentId,
    },
    /// Makes a tournament, open for entries; answered with [`ServerMessage::Tournament`].
    CreateTournament {
        /// Its format, rules, clock and start.
        spec: TournamentSpec,
    },
    /// Enters a tournament before it starts.
    EnterTournament {
        /// The tournament.
        tournament: TournamentId,
    },
    /// Leaves a tournament: before it starts, the entry is taken back; once it runs, the
    /// game under way is resigned and every game left is forfeited.
    WithdrawTournament {
        /// The tournament.
        tournament: TournamentId,
    },
    /// Starts a tournament now (its creator, or whoever may manage it).
    StartTournament {
        /// The tournament.
        tournament: TournamentId,
    },
    /// A moderator's action (the owner's, a moderator's): [`ServerMessage::Moderated`].
    Moderate {
        /// What is done, and to whom.
        action: ModAction,
        /// Why, in at most [`MAX_REASON`] characters; logged with the action.
        #[serde(default)]
        reason: Option<String>,
    },
    /// Asks a page of the moderation log (moderators only):
    /// [`ServerMessage::ModerationLog`].
    ModerationLog {
        /// The page, the first (the latest entries) being 0.
        #[serde(default)]
        page: u32,
    },
    /// Asks a game's chat lines kept by the server, those hidden left out:
    /// [`ServerMessage::ChatLines`].
    ChatLog {
        /// The game.
        game: GameId,
    },
    /// Asks a page of an account's finished games' records, oldest first:
    /// [`ServerMessage::PlayerRecords`].
    FetchPlayer {
        /// The account.
        account: String,
        /// The records' format; saved games when left out.
        #[serde(default)]
        format: RecordFormat,
        /// Only games after this one (the last of the page before); from the first
        /// when left out.
        #[serde(default)]
        after: Option<GameId>,
    },
    /// Asks for a game's position after its first `ply` moves (the position addition,
    /// to replay a game move by move): [`ServerMessage::Position`].
    Position {
        /// The game.
        game: GameId,
        /// The moves played before it (0: the start).
        ply: u32,
    },
}

/// Who may take the free seat of a seek ([`ClientMessage::Seek`], a rematch).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekTerms {
    /// The one account that may take it (a challenge); anyone when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The lowest rating in the game's rules that may take it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i32>,
    /// The highest rating in the game's rules that may take it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<i32>,
}

/// Entries in one page of a leaderboard, and the most rule sets and history rows in one
/// account's [`ServerMessage::AccountRatings`]: every entry is bounded (names of 32 characters,
/// rules' ids of 64, hashes of 64), so that an answer stays far below [`MAX_LINE`].
pub const RATINGS_PAGE: usize = 100;

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// The place, the first being 1.
    pub rank: u32,
    /// The account.
    pub name: String,
    /// The Glicko-2 rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub deviation: u32,
    /// Rated games counted so far.
    pub games: u32,
}

/// An account's rating in one rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesRating {
    /// The rules' id.
    pub rules_id: String,
    /// The SHA-256 of the rule file's text, in hex.
    pub rules_hash: String,
    /// The Glicko-2 rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded (it grows while the account does not play).
    pub deviation: u32,
    /// Rated games counted so far.
    pub games: u32,
}

/// An account's rating after a rating period in which it played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingHistory {
    /// The SHA-256 of the rule file's text, in hex.
    pub rules_hash: String,
    /// The end of the period, in milliseconds since the Unix epoch.
    pub period_end_ms: i64,
    /// The rating after the period, rounded.
    pub rating: i32,
    /// The rating deviation after the period, rounded.
    pub deviation: u32,
    /// Rated games of the account in the period.
    pub games: u32,
}

/// A rule set the server offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesInfo {
    /// The rule file's `id`.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The file name of a shipped rule file; empty for an uploaded one.
    pub file: String,
    /// The SHA-256 of its text, in hex.
    pub hash: String,
    /// The account that uploaded it; none for a shipped rule file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uploader: Option<String>,
}

/// A game as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game.
    pub game: GameId,
    /// The rules' id.
    pub rules_id: String,
    /// The account at each seat; `None` for a free seat.
    pub players: [Option<String>; 2],
    /// The clock; none when untimed.
    pub clock: Option<ClockSpec>,
    /// Moves made.
    pub moves: u32,
    /// How it ended, if it did.
    pub result: Option<GameResult>,
    /// Whether the result counts for both players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// Who may take the free seat of a seek; none for a game anyone may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seek: Option<SeekTerms>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The winner; `None` for a draw.
    pub winner: Option<u8>,
    /// Why.
    pub reason: EndCause,
}

/// Why a game on the server ended: its rules, or what the players or the clock did.
///
/// On the wire: `"resigned"`, `"time"`, `"draw_agreed"`, or `{"rules": …}` with core's
/// [`EndReason`] in its serde form (`"NoMoves"`, `{"Escape": 1}`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCause {
    /// The rules ended it: an escape, a capture, no moves left, a repetition, …
    Rules(EndReason),
    /// The loser resigned.
    Resigned,
    /// The loser's time ran out.
    Time,
    /// The players agreed to a draw.
    DrawAgreed,
    /// A moderator ended it, with no winner and no change to anybody's rating.
    Aborted,
}

/// The words of the causes that are not the rules', as [`EndCause`] writes and reads them.
const CAUSE_WORDS: [(EndCause, &str); 4] = [
    (EndCause::Resigned, "resigned"),
    (EndCause::Time, "time"),
    (EndCause::DrawAgreed, "draw agreed"),
    (EndCause::Aborted, "aborted"),
];

impl std::fmt::Display for EndCause {
    /// `resigned`, `time`, `draw agreed`, or the rules' reason as core writes it (`no
    /// moves`, `escape of piece 1`, …): the text the server's database keeps.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndCause::Rules(reason) => reason.fmt(f),
            other => {
                let word = CAUSE_WORDS
                    .iter()
                    .find(|(cause, _)| cause == other)
                    .map_or("", |(_, word)| word);
                f.write_str(word)
            }
        }
    }
}

impl std::str::FromStr for EndCause {
    type Err = hnefatafl_core::ParseError;

    /// Reads what [`EndCause`]'s `Display` writes.
    fn from_str(text: &str) -> Result<EndCause, Self::Err> {
        match CAUSE_WORDS.iter().find(|(_, word)| *word == text.trim()) {
            Some((cause, _)) => Ok(*cause),
            None => text.parse().map(EndCause::Rules),
        }
    }
}

/// Everything about one game: sent on create, join, watch and reconnect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The game and its seats.
    pub summary: GameSummary,
    /// The hash of the rule file's text; fetch the text with [`ClientMessage::Rules`] or
    /// use a shipped file of that id.
    pub rules_hash: String,
    /// The rule file's text, so that the client can play any uploaded rules.
    pub rules_text: String,
    /// Every move so far, oldest first.
    pub moves: Vec<Move>,
    /// Each player's time left in milliseconds, when timed (correspondence: for the
    /// current move).
    pub clocks: Option<[u64; 2]>,
    /// Each player's byo-yomi periods left, when the clock has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<[u32; 2]>,
    /// Whose turn it is, 0 or 1.
    pub to_move: u8,
    /// The seat of this connection's account; `None` for a spectator.
    pub your_side: Option<u8>,
}

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to [`ClientMessage::Hello`].
    Welcome {
        /// [`PROTOCOL_VERSION`] of the server.
        version: u32,
        /// The server's name and version.
        server: String,
        /// The version of the position addition this connection will be sent, when its
        /// `hello` asked for one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        positions: Option<u32>,
    },
    /// A request could not be done; the connection goes on.
    Error {
        /// What was wrong, in words.
        message: String,
    },
    /// Logged in (after register or login).
    LoggedIn {
        /// The account.
        name: String,
        /// The unfinished games with a seat of this account, to join again.
        games: Vec<GameId>,
    },
    /// The rule sets on offer.
    RulesList {
        /// Each one.
        rules: Vec<RulesInfo>,
    },
    /// An uploaded rule file was accepted.
    RulesAdded {
        /// Its id, name and hash.
        rules: RulesInfo,
    },
    /// The games being played or waiting.
    GameList {
        /// Each game.
        games: Vec<GameSummary>,
    },
    /// The whole state of a game this connection now plays or watches.
    Game {
        /// The state.
        state: GameState,
    },
    /// A player took a seat.
    Joined {
        /// The game.
        game: GameId,
        /// The seat.
        side: u8,
        /// The account.
        name: String,
    },
    /// A move was made, and is stored.
    Moved {
        /// The game.
        game: GameId,
        /// The move's number, the first being 1.
        number: u32,
        /// Who moved, 0 or 1.
        side: u8,
        /// The move, in core's serde form.
        #[serde(rename = "move")]
        mv: Move,
        /// Each player's time left in milliseconds, when timed.
        clocks: Option<[u64; 2]>,
        /// Each player's byo-yomi periods left, when the clock has them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        periods: Option<[u32; 2]>,
    },
    /// Moves were taken back.
    Undone {
        /// The game.
        game: GameId,
        /// Moves left in the game.
        moves: u32,
        /// Each player's time left in milliseconds, when timed: the time spent on the
        /// moves taken back stays spent.
        clocks: Option<[u64; 2]>,
        /// Each player's byo-yomi periods left, when the clock has them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        periods: Option<[u32; 2]>,
    },
    /// A chat line.
    Chat {
        /// The game.
        game: GameId,
        /// Who said it.
        from: String,
        /// The text.
        text: String,
        /// The line's number in its game, the first being 1 (a moderator hides it by it).
        #[serde(default)]
        line: u64,
    },
    /// The opponent offers an undo or a draw.
    Offered {
        /// The game.
        game: GameId,
        /// What.
        kind: OfferKind,
        /// Who offers.
        from: String,
    },
    /// The opponent declined an offer.
    Declined {
        /// The game.
        game: GameId,
        /// What was offered.
        kind: OfferKind,
    },
    /// The game is over.
    Ended {
        /// The game.
        game: GameId,
        /// How.
        result: GameResult,
    },
    /// The finished games.
    ArchiveList {
        /// Each one.
        games: Vec<GameSummary>,
    },
    /// A page of a rule set's leaderboard, highest rating first; a page shorter than
    /// [`RATINGS_PAGE`] is the last.
    Leaderboard {
        /// The rules' id.
        rules_id: String,
        /// The page, the first being 0.
        page: u32,
        /// Its entries.
        entries: Vec<LeaderboardEntry>,
    },
    /// An account's ratings, the most played rule sets first, and its latest history rows,
    /// the latest first (at most [`RATINGS_PAGE`] of each).
    AccountRatings {
        /// The account.
        account: String,
        /// Its rating in each rule set it played rated games of.
        ratings: Vec<RulesRating>,
        /// Its ratings after the latest periods in which it played.
        history: Vec<RatingHistory>,
    },
    /// Another player challenges this account: the game waits for it to `join`.
    Challenged {
        /// Who challenges.
        from: String,
        /// The game offered.
        summary: GameSummary,
    },
    /// A position of a game this connection plays or watches, with the legal moves of
    /// the side to move: sent after `game`, `moved` and `undone`, only to a connection
    /// whose `hello` asked for positions; and the answer to [`ClientMessage::Position`].
    Position {
        /// The game.
        game: GameId,
        /// The position.
        position: BoardPosition,
    },
    /// A finished game's record: the saved-game text that `e` loads, or OTN.
    SavedGame {
        /// The game.
        game: GameId,
        /// The rules' file name (shipped) or id (uploaded).
        rules_file: String,
        /// The record's text.
        text: String,
        /// Its format; the saved game when left out.
        #[serde(default)]
        format: RecordFormat,
    },
    /// A moderator's action was done and logged: the log's entry.
    Moderated {
        /// The entry.
        entry: ModLogEntry,
    },
    /// A page of the moderation log, the latest entries first; a page shorter than
    /// [`MODERATION_PAGE`] is the last.
    ModerationLog {
        /// The page, the first being 0.
        page: u32,
        /// Its entries.
        entries: Vec<ModLogEntry>,
    },
    /// A moderator hid a chat line of a game: it is to be shown no more.
    ChatHidden {
        /// The game.
        game: GameId,
        /// The line's number.
        line: u64,
    },
    /// A game's chat lines kept by the server (the latest 50), oldest first, in pages of
    /// [`CHAT_PAGE`], the last one shorter (empty when the count is a multiple of it).
    ChatLines {
        /// The game.
        game: GameId,
        /// The lines of this page.
        lines: Vec<ChatLine>,
    },
    /// A page of an account's finished games' records, oldest first: at most
    /// [`RECORDS_PAGE`] games and [`RECORDS_BYTES`] of text.
    PlayerRecords {
        /// The account.
        account: String,
        /// The records' format.
        format: RecordFormat,
        /// The records of this page.
        records: Vec<Record>,
        /// Games of this page whose record is not sent: alone longer than a page may
        /// hold, or (OTN) in rules that OTN cannot express.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        left_out: Vec<GameId>,
        /// Whether more follow: ask again with `after` the last game of this page.
        more: bool,
    },
    /// The tournaments, in pages as the game list is sent.
    TournamentList {
        /// Each one.
        tournaments: Vec<TournamentSummary>,
    },
    /// One tournament whole: the answer to a tournament request, and sent to its players
    /// when it starts, when a game of theirs begins and when it ends.
    Tournament {
        /// The tournament.
        tournament: TournamentView,
    },
}

impl ServerMessage {
    /// An error reply.
    pub fn error(message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            message: message.into(),
        }
    }
}

/// The fields of a move's serde form; any other is refused.
const MOVE_FIELDS: [&str; 3] = ["from", "to", "jumps"];

/// Reads a client's move as core's serde form does, refusing fields it does not have
/// (core's form lets them pass, for saves written by other versions).
fn strict_move<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
    use serde::de::Error;
    let value = serde_json::Value::deserialize(deserializer)?;
    if let serde_json::Value::Object(fields) = &value {
        if let Some(field) = fields
            .keys()
            .find(|key| !MOVE_FIELDS.contains(&key.as_str()))
        {
            return Err(D::Error::unknown_field(field, &MOVE_FIELDS));
        }
    }
    serde_json::from_value(value).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests;
