//! New games and what they are played by: `new` and `join` (a game whose state could not
//! be sent is never stored), uploaded rule files (checked, and never taken for a shipped
//! or another upload's rule set), and the stored games resumed at a start.

use std::time::Instant;

use hnefatafl_core::{Game, Rules};
use hnefatafl_net::protocol::{self, ClockSpec, GameId, ServerMessage};

use super::rows::{live_clocks, stored_clock, stored_seek, wire_clock, wire_result, wire_seek};
use super::terms::LookedUp;
use super::{
    ConnectionId, LiveGame, MAX_LABEL, MAX_RULES_TEXT, OtherSeat, RuleSet, State, hash_text,
};
use crate::error::ServerError;
use crate::journal::Write;
use crate::storage::GameRecord;
use crate::text;

impl State {
    /// Rebuilds a stored game; its clock starts again when the server is up.
    pub(crate) fn resume(
        &mut self,
        record: GameRecord,
        _now: Instant,
    ) -> Result<LiveGame, ServerError> {
        let set = self.rules.get(&record.rules_hash).ok_or_else(|| {
            ServerError::Game(
                record.id,
                format!("no rules with hash {}", record.rules_hash),
            )
        })?;
        let mut game = Game::new(set.rules.clone());
        for stored in &record.moves {
            let words: Vec<&str> = stored.mv.split_whitespace().collect();
            let mv = set
                .rules
                .parse_move(&words)
                .map_err(|error| ServerError::Game(record.id, error.to_string()))?;
            game.try_play(mv)
                .map_err(|error| ServerError::Game(record.id, format!("{}: {error}", stored.mv)))?;
        }
        let clock = record.clock.map(wire_clock);
        // The terms matter only while a seat is free.
        let seat_free = record.players.iter().any(Option::is_none);
        let seek = record.seek.filter(|_| seat_free).map(wire_seek);
        let fresh = LiveGame::new(
            record.id,
            record.rules_hash,
            game,
            record.players,
            clock,
            record.rated,
            seek,
        );
        let left = record
            .moves
            .last()
            .map(|last| last.clocks)
            .or(record.first_clocks)
            .map_or(fresh.left, live_clocks);
        Ok(LiveGame {
            left,
            resumed_turn: record.turn_started,
            result: record
                .result
                .map(wire_result)
                .transpose()
                .map_err(|error| ServerError::Game(record.id, error))?,
            ..fresh
        })
    }

    pub(crate) fn find_rules(&self, name: &str) -> Result<String, String> {
        if self.rules.contains_key(name) {
            return Ok(name.to_owned());
        }
        self.rules
            .values()
            .find(|set| set.info.file == name)
            .or_else(|| {
                self.rules
                    .values()
                    .find(|set| set.info.id == name && !set.info.file.is_empty())
            })
            .or_else(|| self.rules.values().find(|set| set.info.id == name))
            .map(|set| set.info.hash.clone())
            .ok_or_else(|| format!("no rules `{name}` here; `rules` lists them"))
    }

    /// Refuses a game whose whole state, as `game` sends it to `side`, would make a line
    /// longer than the clients read.
    pub(super) fn fits(&self, live: &LiveGame, side: u8) -> Result<(), String> {
        let state = self.state_of(live, Some(side));
        let length = protocol::to_line(&ServerMessage::Game { state }).len() - 1;
        if length > protocol::MAX_LINE {
            return Err(format!(
                "the game would be {length} bytes as sent, more than a line may hold ({} \
                 bytes); nothing was done",
                protocol::MAX_LINE
            ));
        }
        Ok(())
    }

    pub(crate) fn create(
        &mut self,
        id: ConnectionId,
        rules: &str,
        clock: Option<ClockSpec>,
        side: u8,
        other: OtherSeat,
        rated: bool,
    ) -> Result<GameId, String> {
        let (opponent, seek) = match other {
            OtherSeat::Open => (None, None),
            OtherSeat::Computer(name) => (Some(name), None),
            OtherSeat::Seek(terms) => (None, Some(terms)),
        };
        let name = self.account(id)?;
        if side > 1 {
            return Err("the side is 0 or 1".to_owned());
        }
        self.check_open_games(&name)?;
        if let Some(clock) = clock {
            clock.check()?;
        }
        let hash = self.find_rules(rules)?;
        if let Some(opponent) = &opponent {
            if !self.computers.contains_key(opponent) {
                return Err(format!(
                    "`{opponent}` is no computer account of this server"
                ));
            }
        }
        let game = self.next_game;
        let mut players = [None, None];
        players[usize::from(side)] = Some(name.clone());
        if let Some(opponent) = &opponent {
            players[usize::from(1 - side)] = Some(opponent.clone());
        }
        let live = LiveGame::new(
            game,
            hash.clone(),
            Game::new(self.rules[&hash].rules.clone()),
            players,
            clock,
            rated,
            seek.clone(),
        );
        // Nothing is stored of a game whose state could not be sent.
        self.fits(&live, side)?;
        self.next_game += 1;
        self.journal.record(Write::CreateGame {
            game,
            rules_hash: hash.clone(),
            clock: clock.map(stored_clock),
            rated,
        });
        if let Some(terms) = &seek {
            self.journal.record(Write::SetSeek {
                game,
                seek: stored_seek(terms),
            });
        }
        self.journal.record(Write::SetPlayer {
            game,
            side,
            name: name.clone(),
        });
        if let Some(opponent) = &opponent {
            self.journal.record(Write::SetPlayer {
                game,
                side: 1 - side,
                name: opponent.clone(),
            });
        }
        self.games.insert(game, live);
        self.attend(id, game, Some(side));
        self.start_turn(game);
        Ok(game)
    }

    pub(crate) fn join(
        &mut self,
        id: ConnectionId,
        game: GameId,
        looked_up: &LookedUp,
    ) -> Result<(), String> {
        let name = self.account(id)?;
        let live = self.live(game)?;
        if live.result.is_some() {
            return Err(format!("game {game} is over; `watch` shows it"));
        }
        if let Some(side) = live.players.iter().position(|p| p.as_ref() == Some(&name)) {
            // Back at one's own seat, after a reconnect.
            self.attend(id, game, Some(side as u8));
            return Ok(());
        }
        let side = live
            .players
            .iter()
            .position(Option::is_none)
            .ok_or_else(|| format!("game {game} has two players; `watch` shows it"))?
            as u8;
        self.may_take(game, &name, looked_up)?;
        self.check_open_games(&name)?;
        // Seated only if the game's state, with the new player, can be sent.
        let live = self.live(game)?;
        live.players[usize::from(side)] = Some(name.clone());
        let live = &self.games[&game];
        if let Err(problem) = self.fits(live, side) {
            self.live(game)?.players[usize::from(side)] = None;
            return Err(problem);
        }
        self.journal.record(Write::SetPlayer {
            game,
            side,
            name: name.clone(),
        });
        let live = self.live(game)?;
        live.players[usize::from(side)] = Some(name.clone());
        live.seek = None;
        self.attend(id, game, Some(side));
        self.broadcast(game, &ServerMessage::Joined { game, side, name });
        self.start_turn(game);
        Ok(())
    }

    /// Takes an uploaded rule file: valid, within the sizes (as sent too), its id and name
    /// free of hidden characters and none of a shipped rule set's, its id none of another
    /// upload's. An error means nothing was kept.
    pub(crate) fn upload(&mut self, id: ConnectionId, text: String) -> Result<(), String> {
        let name = self.account(id)?;
        if text.len() > MAX_RULES_TEXT {
            return Err(format!(
                "the rule file has {} bytes; this server takes at most {MAX_RULES_TEXT}",
                text.len()
            ));
        }
        let sent = protocol::sent_len(&text);
        if sent > protocol::MAX_RULES_SENT {
            return Err(format!(
                "the rule file would take {sent} bytes as sent (a control character takes 6, \
                 a tab 2); this server takes at most {}",
                protocol::MAX_RULES_SENT
            ));
        }
        let parsed = Rules::parse(text.as_bytes()).map_err(|error| format!("rules: {error}"))?;
        for (what, label) in [("id", parsed.id()), ("name", parsed.name())] {
            if label.chars().count() > MAX_LABEL {
                return Err(format!(
                    "rules: the {what} is longer than {MAX_LABEL} characters"
                ));
            }
            if let Some(code) = text::first_hidden(label) {
                return Err(format!(
                    "rules: the {what} holds the hidden character {code}"
                ));
            }
        }
        let hash = hash_text(&text);
        if !self.rules.contains_key(&hash) {
            self.check_labels(parsed.id(), parsed.name())?;
            let limit = self.quotas.uploads_per_hour;
            if let Err(wait) = self.uploads.take(name.clone(), limit, Instant::now()) {
                return Err(format!(
                    "at most {limit} rule files an hour from one account; try again in {} s",
                    wait.as_secs() + 1
                ));
            }
            self.journal.record(Write::AddRules {
                hash: hash.clone(),
                text: text.clone(),
                uploader: Some(name.clone()),
            });
            let set = RuleSet::uploaded(parsed, text, hash.clone(), Some(name));
            self.rules.insert(hash.clone(), set);
        }
        let rules = self.rules[&hash].info.clone();
        self.send(id, &ServerMessage::RulesAdded { rules });
        Ok(())
    }

    /// Refuses a new upload's id or name when a shipped rule set has it (as its id, name
    /// or file name, in any case), and its id when another upload has it: a rule set is
    /// never taken for another.
    pub(super) fn check_labels(&self, id: &str, name: &str) -> Result<(), String> {
        for set in self.rules.values() {
            if set.is_shipped() {
                let shipped = [&set.info.id, &set.info.name, &set.info.file];
                for (what, label) in [("id", id), ("name", name)] {
                    if shipped
                        .iter()
                        .any(|taken| taken.eq_ignore_ascii_case(label))
                    {
                        return Err(format!(
                            "rules: the {what} `{label}` is a shipped rule set's ({}); \
                             give the upload its own",
                            set.info.file
                        ));
                    }
                }
            } else if set.info.id.eq_ignore_ascii_case(id) {
                let uploader = set.info.uploader.as_deref().unwrap_or("another account");
                return Err(format!(
                    "rules: the id `{id}` is taken by {uploader}'s upload (hash {}); \
                     give the upload its own",
                    &set.info.hash[..16.min(set.info.hash.len())]
                ));
            }
        }
        Ok(())
    }
}
