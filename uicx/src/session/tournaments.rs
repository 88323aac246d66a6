//! `tournament`: the server's tournaments listed, shown (pairings and standings), made,
//! entered, withdrawn from and started; and what the server sends about them in words.
//! The words after `tournament` are in the tables below, the one place they are named.

use crate::lang::{Key, Message};
use crate::online::protocol::{
    ClientMessage, ClockSpec, TournamentFormat, TournamentSpec, TournamentStatus,
    TournamentSummary, TournamentView,
};
use crate::online::remote::Awaited;

use super::network::parse_game;
use super::{Outcome, Session};

/// What a word after `tournament` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    New,
    Enter,
    Withdraw,
    Start,
}

/// The words after `tournament` and what each asks for.
const ACTIONS: [(&str, Action); 4] = [
    ("new", Action::New),
    ("enter", Action::Enter),
    ("withdraw", Action::Withdraw),
    ("start", Action::Start),
];

/// The formats' words after `tournament new`.
const FORMATS: [(&str, TournamentFormat); 2] = [
    ("roundrobin", TournamentFormat::RoundRobin),
    ("swiss", TournamentFormat::Swiss),
];

/// The word before a start time in minutes from now: `in 30`.
const START_IN: &str = "in";

/// Twice a score written out: `3`, `1½`, `½`.
fn halves(points_x2: u32) -> String {
    match (points_x2 / 2, points_x2 % 2) {
        (whole, 0) => whole.to_string(),
        (0, _) => "½".to_owned(),
        (whole, _) => format!("{whole}½"),
    }
}

impl Session {
    /// `tournament`, `tournament <n>`, `tournament new|enter|withdraw|start ...`.
    pub(super) fn command_tournament(&mut self, args: &[&str]) -> Outcome {
        let Some((&first, rest)) = args.split_first() else {
            return self.net_request(ClientMessage::Tournaments, Awaited::Tournaments);
        };
        let action = ACTIONS
            .iter()
            .find(|(word, _)| *word == first)
            .map(|&(_, action)| action);
        let message = match (action, rest) {
            (None, []) => ClientMessage::Tournament {
                tournament: parse_game(first)?,
            },
            (Some(Action::New), words) => ClientMessage::CreateTournament {
                spec: tournament_spec(words)?,
            },
            (Some(Action::Enter), [number]) => ClientMessage::EnterTournament {
                tournament: parse_game(number)?,
            },
            (Some(Action::Withdraw), [number]) => ClientMessage::WithdrawTournament {
                tournament: parse_game(number)?,
            },
            (Some(Action::Start), [number]) => ClientMessage::StartTournament {
                tournament: parse_game(number)?,
            },
            _ => return Err(Message::new(Key::CmdUsage, ["tournament"])),
        };
        self.net_request(message, Awaited::Tournament)
    }

    /// The tournaments listed, a line each.
    pub(super) fn show_tournament_list(&mut self, list: &[TournamentSummary], answer: bool) {
        // Lists come in pages; an empty last page after full ones is no news.
        if list.is_empty() && answer {
            self.say(Message::plain(Key::NetNoTournaments));
        }
        for summary in list {
            let line = self.tournament_line(summary);
            self.out.push(line);
        }
    }

    fn tournament_line(&self, summary: &TournamentSummary) -> String {
        let format = match summary.format {
            TournamentFormat::RoundRobin => Key::NetRoundRobin,
            TournamentFormat::Swiss => Key::NetSwiss,
        };
        let number = summary.tournament.to_string();
        let status = match summary.status {
            TournamentStatus::Registration => match summary.starts_at_ms {
                Some(at) => Message::new(
                    Key::NetTournamentStartsAt,
                    [number.clone(), super::server_says::utc_minute(at)],
                ),
                None => Message::new(Key::NetTournamentOpen, [number.clone()]),
            },
            TournamentStatus::Running => Message::new(
                Key::NetTournamentRunning,
                [summary.round.to_string(), summary.rounds.to_string()],
            ),
            TournamentStatus::Finished => Message::plain(Key::NetTournamentFinished),
            TournamentStatus::Cancelled => Message::plain(Key::NetTournamentCancelled),
        };
        self.text(&Message::new(
            Key::NetTournamentLine,
            [
                number,
                summary.name.clone(),
                self.text(&Message::plain(format)),
                summary.rules_id.clone(),
                summary.clock.to_string(),
                summary.players.to_string(),
                self.text(&status),
            ],
        ))
    }

    /// A tournament: whole when it answers a request; sent unasked to one of its
    /// players, the line of the game of theirs under way.
    pub(super) fn show_tournament(&mut self, view: &TournamentView, answer: bool) {
        let header = self.tournament_line(&view.summary);
        if !answer {
            return self.say_own_game(view);
        }
        self.out.push(header);
        for round in &view.rounds {
            self.say(Message::new(
                Key::NetTournamentRound,
                [round.round.to_string()],
            ));
            for paired in &round.matches {
                let games: Vec<String> = paired
                    .games
                    .iter()
                    .map(|game| game.map_or_else(|| "-".to_owned(), |game| game.to_string()))
                    .collect();
                self.say(Message::new(
                    Key::NetTournamentMatch,
                    [
                        paired.players[0].clone(),
                        paired.players[1].clone(),
                        halves(paired.points_x2[0]),
                        halves(paired.points_x2[1]),
                        games.join(", "),
                    ],
                ));
            }
            if let Some(bye) = &round.bye {
                self.say(Message::new(Key::NetTournamentBye, [bye.clone()]));
            }
        }
        if view.rounds.is_empty() {
            if !view.players.is_empty() {
                let players = view.players.join(", ");
                self.say(Message::new(Key::NetTournamentPlayers, [players]));
            }
            return;
        }
        self.say(Message::plain(Key::NetTournamentStandings));
        for row in &view.standings {
            let withdrawn = match row.withdrawn {
                true => self.text(&Message::plain(Key::NetTournamentWithdrawn)),
                false => String::new(),
            };
            self.say(Message::new(
                Key::NetTournamentStanding,
                [
                    row.rank.to_string(),
                    row.name.clone(),
                    row.match_points.to_string(),
                    halves(row.game_points_x2),
                    halves(row.sonneborn_berger_x2),
                    withdrawn,
                ],
            ));
        }
    }

    /// The game of this account under way in the tournament's round, if any.
    fn say_own_game(&mut self, view: &TournamentView) {
        let Some(account) = self.link.as_ref().and_then(|link| link.account.clone()) else {
            return;
        };
        let Some(round) = view.rounds.last() else {
            return;
        };
        for paired in round.matches.iter().filter(|paired| !paired.finished) {
            let Some(seat) = paired.players.iter().position(|name| *name == account) else {
                continue;
            };
            if let Some(Some(game)) = paired.games.last() {
                self.say(Message::new(
                    Key::NetTournamentYourGame,
                    [
                        view.summary.tournament.to_string(),
                        round.round.to_string(),
                        game.to_string(),
                        paired.players[1 - seat].clone(),
                    ],
                ));
            }
        }
    }
}

/// `new roundrobin|swiss <rules> <clock> [<rounds>] [in <minutes>] <name>`: a Swiss
/// event's rounds come after the clock; the name is the words left.
fn tournament_spec(words: &[&str]) -> Result<TournamentSpec, Message> {
    let usage = || Message::new(Key::CmdUsage, ["tournament"]);
    let [format, rules, clock, rest @ ..] = words else {
        return Err(usage());
    };
    let format = FORMATS
        .iter()
        .find(|(word, _)| word == format)
        .map(|&(_, format)| format)
        .ok_or_else(|| {
            let words: Vec<&str> = FORMATS.iter().map(|(word, _)| *word).collect();
            Message::new(
                Key::NetBadTournamentFormat,
                [(*format).to_owned(), words.join(" | ")],
            )
        })?;
    let clock = ClockSpec::parse(clock).ok_or_else(|| Message::new(Key::NetBadClock, [*clock]))?;
    let mut rest = rest;
    let mut rounds = None;
    if format == TournamentFormat::Swiss {
        let (&word, after) = rest.split_first().ok_or_else(usage)?;
        rounds = Some(
            word.parse::<u32>()
                .map_err(|_| Message::new(Key::CmdBadNumber, [word]))?,
        );
        rest = after;
    }
    let mut starts_at_ms = None;
    if let [START_IN, minutes, after @ ..] = rest {
        let minutes: i64 = minutes
            .parse()
            .map_err(|_| Message::new(Key::CmdBadNumber, [*minutes]))?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis() as i64);
        starts_at_ms = Some(now.saturating_add(minutes.saturating_mul(60_000)));
        rest = after;
    }
    if rest.is_empty() {
        return Err(usage());
    }
    Ok(TournamentSpec {
        name: rest.join(" "),
        format,
        rules: (*rules).to_owned(),
        clock,
        rounds,
        starts_at_ms,
        rated: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_in_halves() {
        assert_eq!(halves(0), "0");
        assert_eq!(halves(1), "½");
        assert_eq!(halves(3), "1½");
        assert_eq!(halves(8), "4");
    }

    #[test]
    fn a_new_tournament_reads_its_format_rules_clock_rounds_start_and_name() {
        let swiss =
            tournament_spec(&["swiss", "brandub", "10+5", "4", "Club", "night"]).expect("reads");
        assert_eq!(swiss.format, TournamentFormat::Swiss);
        assert_eq!(swiss.rounds, Some(4));
        assert_eq!(swiss.name, "Club night");
        assert_eq!(swiss.clock, ClockSpec::fischer(600_000, 5_000));
        assert_eq!(swiss.starts_at_ms, None);
        let robin =
            tournament_spec(&["roundrobin", "tablut", "3d", "in", "60", "Open"]).expect("reads");
        assert_eq!(robin.format, TournamentFormat::RoundRobin);
        assert_eq!(robin.rounds, None);
        assert!(robin.starts_at_ms.is_some());
        assert_eq!(robin.name, "Open");
        // A Swiss event without rounds, a format unknown, or no name is refused.
        assert!(tournament_spec(&["swiss", "brandub", "10+5", "Club"]).is_err());
        assert!(tournament_spec(&["knockout", "brandub", "10+5", "Club"]).is_err());
        assert!(tournament_spec(&["roundrobin", "brandub", "10+5"]).is_err());
    }
}
