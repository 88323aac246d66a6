//! The tournaments' part of the protocol: what a creator asks for, and the lists,
//! pairings and standings the server sends. `docs/protocol.md` ("Tournaments") describes
//! the messages.

use serde::{Deserialize, Serialize};

use super::GameId;
use crate::clock::ClockSpec;

/// A tournament's number on its server.
pub type TournamentId = u64;

/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME: usize = 64;

/// How a tournament pairs its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// Everyone meets everyone once, by the Berger tables.
    RoundRobin,
    /// A fixed number of rounds, players of like scores meeting, never twice while it
    /// can be avoided.
    Swiss,
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Players may enter and withdraw; it has not begun.
    Registration,
    /// Its rounds are being played.
    Running,
    /// Its last round is over.
    Finished,
    /// It came to its start time with fewer than two players.
    Cancelled,
}

/// A tournament as its creator asks for it ([`super::ClientMessage::CreateTournament`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSpec {
    /// Its name: up to [`MAX_TOURNAMENT_NAME`] characters.
    pub name: String,
    /// Round robin or Swiss.
    pub format: TournamentFormat,
    /// A shipped rule file's name or id, or the hash of an uploaded one: every game's.
    pub rules: String,
    /// Every game's clock (any kind, correspondence included). A game's clock runs from
    /// the moment it is paired, so a player who does not come loses on time.
    pub clock: ClockSpec,
    /// A Swiss event's rounds; a round robin has as many as its players need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// When it starts by itself, in milliseconds since the Unix epoch; without one the
    /// creator starts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at_ms: Option<i64>,
    /// Whether its games count for the ratings; true when left out.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
}

fn rated_by_default() -> bool {
    true
}

/// A tournament as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    /// The tournament.
    pub tournament: TournamentId,
    /// Its name.
    pub name: String,
    /// The account that made it.
    pub creator: String,
    /// Round robin or Swiss.
    pub format: TournamentFormat,
    /// The rules' id.
    pub rules_id: String,
    /// The SHA-256 of the rule file's text, in hex.
    pub rules_hash: String,
    /// Every game's clock.
    pub clock: ClockSpec,
    /// Whether its games count for the ratings.
    pub rated: bool,
    /// Where it stands.
    pub status: TournamentStatus,
    /// The players entered (withdrawn ones included once it runs).
    pub players: u32,
    /// The rounds it will have (a Swiss event's planned ones until it starts; a round
    /// robin's once it starts, 0 before).
    pub rounds: u32,
    /// The rounds begun.
    pub round: u32,
    /// When it starts by itself, in milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at_ms: Option<i64>,
}

/// One match of a round: two players, two games with the sides swapped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentMatch {
    /// The players; the first plays side 0 in the first game and side 1 in the second.
    pub players: [String; 2],
    /// The games begun, in order; a game forfeited without being played (a withdrawal)
    /// has none.
    pub games: Vec<Option<GameId>>,
    /// Twice each player's game points so far in the match (a game won is 2, drawn 1).
    pub points_x2: [u32; 2],
    /// Whether both games are over.
    pub finished: bool,
}

/// One round's pairings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRound {
    /// The round, the first being 1.
    pub round: u32,
    /// Its matches.
    pub matches: Vec<TournamentMatch>,
    /// The player who sits it out, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<String>,
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentStanding {
    /// The place, the first being 1; players equal on every tie-break share it.
    pub rank: u32,
    /// The account.
    pub name: String,
    /// Match points: 2 for a match won, 1 for a match drawn (a Swiss bye counts 2).
    pub match_points: u32,
    /// Twice the game points (a game won is 2, drawn 1).
    pub game_points_x2: u32,
    /// Twice the Sonneborn-Berger score.
    pub sonneborn_berger_x2: u32,
    /// Finished matches played.
    pub matches: u32,
    /// Whether the player withdrew.
    pub withdrawn: bool,
}

/// Everything about one tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentView {
    /// What the list shows.
    pub summary: TournamentSummary,
    /// The players, in the order they entered (their seeds).
    pub players: Vec<String>,
    /// The rounds begun, the first first.
    pub rounds: Vec<TournamentRound>,
    /// The standings after the finished matches, best first.
    pub standings: Vec<TournamentStanding>,
}

#[cfg(test)]
mod tests {
    use super::super::{ClientMessage, parse_client};
    use super::*;

    #[test]
    fn a_tournament_is_rated_unless_told_and_takes_no_unknown_field() {
        let line = r#"{"type":"create_tournament","spec":{"name":"Club","format":"swiss","rules":"brandub","clock":{"main_ms":600000,"increment_ms":0},"rounds":3}}"#;
        let ClientMessage::CreateTournament { spec } = parse_client(line).expect("reads") else {
            panic!("not a create_tournament");
        };
        assert!(spec.rated);
        assert_eq!(spec.format, TournamentFormat::Swiss);
        assert_eq!((spec.rounds, spec.starts_at_ms), (Some(3), None));
        let extra = line.replace(r#""rounds":3"#, r#""rounds":3,"prize":1"#);
        let error = parse_client(&extra).expect_err("an unknown field");
        assert!(error.contains("prize"), "{error}");
        let bare = r#"{"type":"tournaments","page":1}"#;
        assert!(parse_client(bare).is_err());
    }
}
