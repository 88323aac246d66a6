//! Tournaments on the referee's side: their messages (list, show, create, enter,
//! withdraw, start), the games of each round made with both players seated (the clock
//! runs from then on, so a player who does not come loses on time), the second game of a
//! match begun when the first ends, the next round paired when a round is over, and every
//! change stored whole ([`Write::SaveTournament`]). The pairing and standings arithmetic
//! is `crate::tournament`'s.

use std::time::{Duration, Instant};

use hnefatafl_core::Game;
use hnefatafl_net::protocol::{
    ClientMessage, EndCause, GameId, GameResult, MAX_TOURNAMENT_NAME, ServerMessage,
    TournamentFormat, TournamentId, TournamentMatch, TournamentRound, TournamentSpec,
    TournamentStanding, TournamentStatus, TournamentSummary, TournamentView,
};

use super::rows::stored_clock;
use super::{ConnectionId, Followup, LiveGame, State};
use crate::error::ServerError;
use crate::journal::Write;
use crate::storage::stored_now;
use crate::text;
use crate::tournament::pairing::{RoundPairing, round_robin_rounds};
use crate::tournament::{
    MATCH_GAMES, MAX_ROUND_ROBIN, MAX_SWISS, MAX_SWISS_ROUNDS, Match, MatchGame, Round, Tournament,
};

/// The most tournaments one account may have in registration or running at once.
const OPEN_PER_CREATOR: usize = 3;

/// The furthest ahead a start time may be: a year.
const LONGEST_WAIT_MS: i64 = 366 * 24 * 3600 * 1000;

/// What the next step of a tournament is, worked out before anything changes.
enum Step {
    /// The round is over and another follows.
    Pair(RoundPairing),
    /// The last round is over.
    Finish,
    /// Match `index` of the round under way begins its next game, or forfeits it.
    NextGame(usize),
    /// Nothing is to be done until a game ends.
    Wait,
}

impl State {
    /// Whether `name` may start the tournament: its creator, or an owner or moderator of
    /// the server.
    pub(crate) fn may_manage_tournament(&self, name: &str, tournament: &Tournament) -> bool {
        tournament.creator == name || self.is_moderator(name)
    }

    /// Handles the tournaments' messages.
    pub(crate) fn tournament_message(
        &mut self,
        id: ConnectionId,
        message: ClientMessage,
    ) -> Result<(), String> {
        match message {
            ClientMessage::Tournaments => {
                let list: Vec<TournamentSummary> = self
                    .tournaments
                    .values()
                    .map(|tournament| self.tournament_summary(tournament))
                    .collect();
                self.send_pages(id, &list, |tournaments| ServerMessage::TournamentList {
                    tournaments,
                });
                Ok(())
            }
            ClientMessage::Tournament { tournament } => self.show_tournament(id, tournament),
            ClientMessage::CreateTournament { spec } => self.create_tournament(id, spec),
            ClientMessage::EnterTournament { tournament }
            | ClientMessage::WithdrawTournament { tournament } => {
                let name = self.account(id)?;
                if let ClientMessage::EnterTournament { .. } = message {
                    self.enter_tournament(name, tournament)?;
                } else {
                    self.withdraw_tournament(&name, tournament)?;
                }
                self.save_tournament(tournament);
                self.show_tournament(id, tournament)
            }
            ClientMessage::StartTournament { tournament } => {
                let name = self.account(id)?;
                let held = self.held_tournament(tournament)?;
                if !self.may_manage_tournament(&name, held) {
                    return Err(format!(
                        "only {} may start tournament {tournament}",
                        held.creator
                    ));
                }
                if held.status != TournamentStatus::Registration {
                    return Err(format!("tournament {tournament} has started already"));
                }
                let player = held.seed(&name).is_some();
                self.begin_tournament(tournament);
                // Its players have been sent it; one who manages it without playing is
                // answered here.
                if player {
                    Ok(())
                } else {
                    self.show_tournament(id, tournament)
                }
            }
            _ => Ok(()),
        }
    }

    /// Sends a tournament's view to the connection.
    fn show_tournament(
        &mut self,
        id: ConnectionId,
        tournament: TournamentId,
    ) -> Result<(), String> {
        let view = self.tournament_view(tournament)?;
        self.send(id, &view);
        Ok(())
    }

    fn held_tournament(&self, tournament: TournamentId) -> Result<&Tournament, String> {
        self.tournaments
            .get(&tournament)
            .ok_or_else(|| format!("there is no tournament {tournament}; `tournament` lists them"))
    }

    fn create_tournament(&mut self, id: ConnectionId, spec: TournamentSpec) -> Result<(), String> {
        let creator = self.account(id)?;
        let name = spec.name.trim().to_owned();
        if name.is_empty() || name.chars().count() > MAX_TOURNAMENT_NAME {
            return Err(format!(
                "a tournament's name has 1 to {MAX_TOURNAMENT_NAME} characters"
            ));
        }
        if let Some(code) = text::first_hidden(&name) {
            return Err(format!(
                "the tournament's name holds the hidden character {code}"
            ));
        }
        spec.clock.check()?;
        let rules_hash = self.find_rules(&spec.rules)?;
        let rounds = match (spec.format, spec.rounds) {
            (TournamentFormat::RoundRobin, None) => 0,
            (TournamentFormat::RoundRobin, Some(_)) => {
                return Err("a round robin has as many rounds as its players need".to_owned());
            }
            (TournamentFormat::Swiss, Some(rounds)) if (1..=MAX_SWISS_ROUNDS).contains(&rounds) => {
                rounds
            }
            (TournamentFormat::Swiss, _) => {
                return Err(format!(
                    "a Swiss tournament needs its rounds, 1 to {MAX_SWISS_ROUNDS}"
                ));
            }
        };
        if let Some(at) = spec.starts_at_ms {
            let now = stored_now();
            if at <= now || at - now > LONGEST_WAIT_MS {
                return Err("the start time is in the past or more than a year ahead".to_owned());
            }
        }
        let open = self
            .tournaments
            .values()
            .filter(|held| held.creator == creator)
            .filter(|held| {
                matches!(
                    held.status,
                    TournamentStatus::Registration | TournamentStatus::Running
                )
            })
            .count();
        if open >= OPEN_PER_CREATOR {
            return Err(format!(
                "you have {OPEN_PER_CREATOR} tournaments open, as many as this server allows"
            ));
        }
        let number = self
            .tournaments
            .keys()
            .next_back()
            .map_or(1, |last| last + 1);
        let tournament = Tournament {
            id: number,
            name,
            creator,
            format: spec.format,
            rules_hash,
            clock: spec.clock,
            rated: spec.rated,
            rounds_planned: rounds,
            starts_at: spec.starts_at_ms,
            status: TournamentStatus::Registration,
            players: Vec::new(),
            withdrawn: Vec::new(),
            rounds: Vec::new(),
        };
        self.tournaments.insert(number, tournament);
        self.save_tournament(number);
        self.schedule_start(number);
        self.show_tournament(id, number)
    }

    /// Asks for the timer of a tournament's start time, if it has one.
    pub(crate) fn schedule_start(&mut self, tournament: TournamentId) {
        let Some(held) = self.tournaments.get(&tournament) else {
            return;
        };
        let Some(starts_at) = held
            .starts_at
            .filter(|_| held.status == TournamentStatus::Registration)
        else {
            return;
        };
        let wait = u64::try_from(starts_at - stored_now()).unwrap_or(0);
        if let Some(at) = Instant::now().checked_add(Duration::from_millis(wait)) {
            self.followups
                .push(Followup::TournamentStart { tournament, at });
        }
    }

    /// A start time's timer went off: the tournament begins, if it still waits.
    pub(crate) fn tournament_due(&mut self, tournament: TournamentId) {
        if self.stopping {
            return;
        }
        let due = self.tournaments.get(&tournament).is_some_and(|held| {
            held.status == TournamentStatus::Registration
                && held.starts_at.is_some_and(|at| at <= stored_now())
        });
        if due {
            self.begin_tournament(tournament);
        }
    }

    /// `name` enters a tournament that takes entries.
    fn enter_tournament(&mut self, name: String, tournament: TournamentId) -> Result<(), String> {
        let held = self.held_tournament(tournament)?;
        if held.status != TournamentStatus::Registration {
            return Err(format!("tournament {tournament} takes no more entries"));
        }
        if held.seed(&name).is_some() {
            return Err(format!("you have entered tournament {tournament} already"));
        }
        let most = match held.format {
            TournamentFormat::RoundRobin => MAX_ROUND_ROBIN,
            TournamentFormat::Swiss => MAX_SWISS,
        };
        if held.players.len() >= most {
            return Err(format!("tournament {tournament} is full ({most} players)"));
        }
        if let Some(held) = self.tournaments.get_mut(&tournament) {
            held.players.push(name);
        }
        Ok(())
    }

    /// `name` leaves a tournament: before it starts, the entry is gone; while it runs,
    /// the game under way is resigned and the rest forfeited.
    fn withdraw_tournament(&mut self, name: &str, tournament: TournamentId) -> Result<(), String> {
        let held = self.held_tournament(tournament)?;
        let seed = held
            .seed(name)
            .ok_or_else(|| format!("you have not entered tournament {tournament}"))?;
        let (status, withdrawn) = (held.status, held.has_withdrawn(seed));
        match status {
            TournamentStatus::Registration => {
                if let Some(held) = self.tournaments.get_mut(&tournament) {
                    held.players.remove(seed);
                }
            }
            TournamentStatus::Running if !withdrawn => {
                let running = self.running_game(tournament, seed);
                if let Some(held) = self.tournaments.get_mut(&tournament) {
                    held.withdrawn.push(seed);
                }
                // Resigning the game under way ends it, and the rest is forfeited.
                match running {
                    Some((game, side)) => {
                        let result = GameResult {
                            winner: Some(1 - side),
                            reason: EndCause::Resigned,
                        };
                        self.finish(game, result)?;
                    }
                    None => self.advance_tournament(tournament),
                }
            }
            _ => return Err(format!("tournament {tournament} is over for you")),
        }
        Ok(())
    }

    /// The game a seed plays in the round under way, not over yet, and its side there.
    fn running_game(&self, tournament: TournamentId, seed: usize) -> Option<(GameId, u8)> {
        let held = self.tournaments.get(&tournament)?;
        let round = held.rounds.last()?;
        round.matches.iter().find_map(|played| {
            let MatchGame::Played(game) = *played.games.last()? else {
                return None;
            };
            let live = self.games.get(&game).filter(|live| live.result.is_none())?;
            let name = &held.players[seed];
            let side = live.side_of(name)?;
            Some((game, side as u8))
        })
    }

    /// Begins a tournament: cancelled with fewer than two players, else its rounds
    /// settled and the first one paired.
    fn begin_tournament(&mut self, tournament: TournamentId) {
        let Some(held) = self.tournaments.get_mut(&tournament) else {
            return;
        };
        let players = held.players.len();
        if players < 2 {
            held.status = TournamentStatus::Cancelled;
        } else {
            held.status = TournamentStatus::Running;
            let most = round_robin_rounds(players) as u32;
            held.rounds_planned = match held.format {
                TournamentFormat::RoundRobin => most,
                TournamentFormat::Swiss => held.rounds_planned.min(most),
            };
        }
        self.save_tournament(tournament);
        self.advance_tournament(tournament);
        self.notify_tournament(tournament);
    }

    /// A game ended: its tournament, if it has one, goes on.
    pub(crate) fn tournament_game_over(&mut self, game: GameId) {
        let found = self.tournaments.values().find(|held| {
            held.status == TournamentStatus::Running
                && held.rounds.last().is_some_and(|round| {
                    round
                        .matches
                        .iter()
                        .any(|played| played.games.contains(&MatchGame::Played(game)))
                })
        });
        if let Some(tournament) = found.map(|held| held.id) {
            self.advance_tournament(tournament);
        }
    }

    /// What comes next in a running tournament.
    fn next_step(&self, tournament: TournamentId) -> Step {
        let Some(held) = self
            .tournaments
            .get(&tournament)
            .filter(|held| held.status == TournamentStatus::Running)
        else {
            return Step::Wait;
        };
        let result = |game: GameId| self.games.get(&game).and_then(|live| live.result);
        if held.round_over(&result) {
            return match held.next_pairing(&result) {
                Some(pairing) => Step::Pair(pairing),
                None => Step::Finish,
            };
        }
        let Some(round) = held.rounds.last() else {
            return Step::Wait;
        };
        round
            .matches
            .iter()
            .position(|played| played.games.len() < MATCH_GAMES && played.last_game_over(&result))
            .map_or(Step::Wait, Step::NextGame)
    }

    /// Does everything a tournament can do now: begins the next games, pairs the next
    /// rounds, and finishes it after the last; stores it and tells its players when
    /// anything changed.
    pub(crate) fn advance_tournament(&mut self, tournament: TournamentId) {
        let mut changed = false;
        loop {
            match self.next_step(tournament) {
                Step::Wait => break,
                Step::Finish => {
                    if let Some(held) = self.tournaments.get_mut(&tournament) {
                        held.status = TournamentStatus::Finished;
                    }
                    changed = true;
                    break;
                }
                Step::Pair(pairing) => {
                    let round = Round {
                        matches: pairing
                            .pairs
                            .iter()
                            .map(|&players| Match {
                                players,
                                games: Vec::new(),
                            })
                            .collect(),
                        bye: pairing.bye,
                    };
                    if let Some(held) = self.tournaments.get_mut(&tournament) {
                        held.rounds.push(round);
                    }
                }
                Step::NextGame(index) => self.next_match_game(tournament, index),
            }
            changed = true;
        }
        if changed {
            self.save_tournament(tournament);
            self.notify_tournament(tournament);
        }
    }

    /// Begins the next game of match `index` of the round under way, seated and with its
    /// clock running, or forfeits it when a player has withdrawn.
    fn next_match_game(&mut self, tournament: TournamentId, index: usize) {
        let Some(held) = self.tournaments.get(&tournament) else {
            return;
        };
        let Some(played) = held
            .rounds
            .last()
            .and_then(|round| round.matches.get(index))
        else {
            return;
        };
        let number = played.games.len();
        let gone = played.players.map(|seed| held.has_withdrawn(seed));
        let next = match gone {
            [false, false] => {
                let seats = [0, 1].map(|side| {
                    Some(held.players[played.players[Match::player_at(number, side)]].clone())
                });
                let (hash, clock, rated) = (held.rules_hash.clone(), held.clock, held.rated);
                MatchGame::Played(self.seated_game(hash, clock, rated, seats))
            }
            [true, true] => MatchGame::Forfeit { winner: None },
            [true, false] => MatchGame::Forfeit { winner: Some(1) },
            [false, true] => MatchGame::Forfeit { winner: Some(0) },
        };
        if let Some(played) = self
            .tournaments
            .get_mut(&tournament)
            .and_then(|held| held.rounds.last_mut())
            .and_then(|round| round.matches.get_mut(index))
        {
            played.games.push(next);
        }
    }

    /// Makes a game with both seats taken, its clock running; answers its number.
    fn seated_game(
        &mut self,
        rules_hash: String,
        clock: hnefatafl_net::protocol::ClockSpec,
        rated: bool,
        players: [Option<String>; 2],
    ) -> GameId {
        let game = self.next_game;
        self.next_game += 1;
        let rules = self.rules[&rules_hash].rules.clone();
        self.journal.record(Write::CreateGame {
            game,
            rules_hash: rules_hash.clone(),
            clock: Some(stored_clock(clock)),
            rated,
        });
        for (side, name) in players.iter().enumerate() {
            self.journal.record(Write::SetPlayer {
                game,
                side: side as u8,
                name: name.clone().unwrap_or_default(),
            });
        }
        let live = LiveGame::new(
            game,
            rules_hash,
            Game::new(rules),
            players,
            Some(clock),
            rated,
            None,
        );
        self.games.insert(game, live);
        self.start_turn(game);
        game
    }

    /// Records a tournament whole, to be stored.
    fn save_tournament(&mut self, tournament: TournamentId) {
        let Some(held) = self.tournaments.get(&tournament) else {
            return;
        };
        // A record of plain strings and numbers always serializes.
        let record = serde_json::to_string(held).unwrap_or_default();
        self.journal.record(Write::SaveTournament {
            id: tournament,
            record,
        });
    }

    /// Sends a tournament whole to every connection of its players.
    fn notify_tournament(&mut self, tournament: TournamentId) {
        let Ok(view) = self.tournament_view(tournament) else {
            return;
        };
        let Some(held) = self.tournaments.get(&tournament) else {
            return;
        };
        let connections: Vec<ConnectionId> = self
            .connections
            .iter()
            .filter(|(_, connection)| {
                connection
                    .account
                    .as_ref()
                    .is_some_and(|name| held.players.contains(name))
            })
            .map(|(&id, _)| id)
            .collect();
        for id in connections {
            self.send(id, &view);
        }
    }

    fn tournament_summary(&self, held: &Tournament) -> TournamentSummary {
        TournamentSummary {
            tournament: held.id,
            name: held.name.clone(),
            creator: held.creator.clone(),
            format: held.format,
            rules_id: self
                .rules
                .get(&held.rules_hash)
                .map(|set| set.info.id.clone())
                .unwrap_or_default(),
            rules_hash: held.rules_hash.clone(),
            clock: held.clock,
            rated: held.rated,
            status: held.status,
            players: held.players.len() as u32,
            rounds: held.rounds_planned,
            round: held.rounds.len() as u32,
            starts_at_ms: held.starts_at,
        }
    }

    /// A tournament whole, as [`ServerMessage::Tournament`] sends it.
    fn tournament_view(&self, tournament: TournamentId) -> Result<ServerMessage, String> {
        let held = self.held_tournament(tournament)?;
        let result = |game: GameId| self.games.get(&game).and_then(|live| live.result);
        let name = |seed: usize| held.players[seed].clone();
        let rounds = held
            .rounds
            .iter()
            .enumerate()
            .map(|(index, round)| TournamentRound {
                round: index as u32 + 1,
                matches: round
                    .matches
                    .iter()
                    .map(|played| TournamentMatch {
                        players: played.players.map(name),
                        games: played
                            .games
                            .iter()
                            .map(|game| match game {
                                MatchGame::Played(game) => Some(*game),
                                MatchGame::Forfeit { .. } => None,
                            })
                            .collect(),
                        points_x2: played.points_x2(&result),
                        finished: played.finished(&result),
                    })
                    .collect(),
                bye: round.bye.map(name),
            })
            .collect();
        let standings = held
            .standings(&result)
            .into_iter()
            .map(|row| TournamentStanding {
                rank: row.rank as u32,
                name: name(row.player),
                match_points: row.match_points,
                game_points_x2: row.game_points_x2,
                sonneborn_berger_x2: row.sonneborn_berger_x2,
                matches: row.matches,
                withdrawn: held.has_withdrawn(row.player),
            })
            .collect();
        Ok(ServerMessage::Tournament {
            tournament: TournamentView {
                summary: self.tournament_summary(held),
                players: held.players.clone(),
                rounds,
                standings,
            },
        })
    }

    /// Takes the stored tournaments at a start (after the games are resumed): each
    /// running one goes on where it stood (a game that ended while its record was not yet
    /// stored included), and each start time gets its timer.
    pub(crate) fn resume_tournaments(
        &mut self,
        records: Vec<(u64, String)>,
    ) -> Result<(), ServerError> {
        for (id, record) in records {
            let held: Tournament = serde_json::from_str(&record).map_err(|error| {
                ServerError::Tournament(id, format!("its stored record: {error}"))
            })?;
            if !self.rules.contains_key(&held.rules_hash) {
                return Err(ServerError::Tournament(
                    id,
                    format!("no rules with hash {}", held.rules_hash),
                ));
            }
            self.tournaments.insert(id, held);
        }
        let ids: Vec<TournamentId> = self.tournaments.keys().copied().collect();
        for id in ids {
            self.advance_tournament(id);
            self.schedule_start(id);
        }
        Ok(())
    }
}
