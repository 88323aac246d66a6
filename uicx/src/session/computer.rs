//! The computer player: its search started, stopped and its moves played, and the
//! learned evaluation it plays with.

use std::sync::Arc;

use aim::nnue::Network;
use aim::{Evaluation, Limits, Progress};

use hnefatafl_core::{Player, Rules};

use crate::data::{DataDirs, LookupError};
use crate::lang::{Key, Language, Message};
use crate::messages;
use crate::roles::{Role, roles};
use crate::thinker::{Event, Purpose};

use super::{PlayerKind, Session, capture_line};

/// What arrived by itself, as [`Session::poll_shown`] gives it to the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shown {
    /// A line to print once.
    Line(String),
    /// A finished depth of a live analysis: `line` as a pipe prints it, and `block`, the
    /// latest depth of each of the analysis's lines so far, best line first, which a
    /// terminal writes in place of the block before it.
    Depth {
        /// The depth's line.
        line: String,
        /// The block it updates.
        block: Vec<String>,
    },
}

/// The network of the rule file in play: where it was found, and the network, shared
/// with every search.
#[derive(Clone, Debug)]
pub(crate) struct RulesNetwork {
    /// Where it was found: a path, or `(built-in)/networks/<name>.nnue`.
    pub(crate) place: String,
    /// The network, read and checked against the rules once.
    pub(crate) network: Arc<Network>,
}

/// Reads the network of a rule file ([`crate::data::network_file`]) from the data directories and
/// checks it against the rules: `Ok(None)` when there is none, `Err` with one line, in
/// `language`, naming the file and saying why it cannot be used.
pub(crate) fn read_network(
    dirs: &DataDirs,
    language: &Language,
    rules_file: &str,
    rules: &Rules,
) -> Result<Option<RulesNetwork>, String> {
    let relative = crate::data::network_file(rules_file);
    let (found, bytes) = match dirs.read(None, &relative) {
        Ok(found) => found,
        Err(LookupError::NotFound) => return Ok(None),
        Err(error) => {
            let message = messages::lookup_message(language, &relative, &error);
            return Err(language.text(&message));
        }
    };
    let place = found.to_string();
    match Network::for_rules(&place, &bytes, rules) {
        Ok(network) => Ok(Some(RulesNetwork {
            place,
            network: Arc::new(network),
        })),
        Err(error) => Err(error.to_string()),
    }
}

impl Session {
    /// Finds the network of the rule file in play, once when its rules are loaded, and
    /// gives it to the computer player. No network: the classic evaluation, as always. A
    /// network that cannot be used (unreadable, damaged, made for another board) is named
    /// in one line saying why, and the computer plays with the classic evaluation.
    pub(super) fn find_network(&mut self) {
        self.network = None;
        if let Some(game) = &self.game {
            match read_network(&self.dirs, &self.language, &self.rules_file, game.rules()) {
                Ok(network) => self.network = network,
                Err(why) => self.say(Message::new(Key::NetworkRefused, [why])),
            }
        }
        let network = self
            .network
            .as_ref()
            .map(|found| Arc::clone(&found.network));
        self.thinker.set_network(network);
    }

    /// Which evaluation a search used, in words: `network <place>` or `classic`.
    pub(super) fn evaluation_words(&self, evaluation: Evaluation) -> String {
        match (evaluation, &self.network) {
            (Evaluation::Network, Some(found)) => {
                self.text(&Message::new(Key::EvalNetwork, [found.place.as_str()]))
            }
            _ => self.language.get(Key::EvalClassic),
        }
    }

    /// A win chance for a named side, in words: `attackers 63%` (`chance` from 0 to 1).
    pub(crate) fn win_words(&self, player: Player, chance: f64) -> String {
        let roles = self
            .game
            .as_ref()
            .map_or([Role::Plain; 2], |game| roles(game.rules()));
        self.win_words_of(roles, player, chance)
    }

    /// [`Session::win_words`] for a game of `rules`.
    pub(crate) fn win_words_in(&self, rules: &Rules, player: Player, chance: f64) -> String {
        self.win_words_of(roles(rules), player, chance)
    }

    /// The side a win chance is for, in words: `attackers`, `defenders`, `player 0`.
    pub(crate) fn chance_side(&self, player: Player) -> String {
        let roles = self
            .game
            .as_ref()
            .map_or([Role::Plain; 2], |game| roles(game.rules()));
        self.side_words(roles, player)
    }

    fn side_words(&self, roles: [Role; 2], player: Player) -> String {
        let index = player.index().to_string();
        match roles[player.index()] {
            Role::Attackers => self.language.get(Key::WinSideAttackers),
            Role::Defenders => self.language.get(Key::WinSideDefenders),
            Role::Plain => self.text(&Message::new(Key::WinSidePlayer, [index])),
        }
    }

    fn win_words_of(&self, roles: [Role; 2], player: Player, chance: f64) -> String {
        let side = self.side_words(roles, player);
        let percent = format!("{:.0}", (chance * 100.0).clamp(0.0, 100.0));
        self.text(&Message::new(Key::WinChance, [side, percent]))
    }

    /// The limits of the computer to move, when a computer is to move in a game not over.
    pub(super) fn computer_to_move(&self) -> Option<Limits> {
        let game = self.game.as_ref()?;
        if game.outcome().is_some() || self.at_table() {
            return None;
        }
        match &self.players[game.side_to_move().index()] {
            PlayerKind::Computer(limits, _) => Some(limits.clone()),
            PlayerKind::Human => None,
        }
    }

    /// Whether a computer is to move (and will think).
    pub(crate) fn computer_will_move(&self) -> bool {
        self.computer_to_move().is_some()
    }

    /// Starts the computer's search when a computer is to move and nothing runs yet.
    /// Returns whether a search was started.
    pub(crate) fn start_computer(&mut self) -> bool {
        if self.thinker.is_busy() {
            return false;
        }
        let (Some(limits), Some(game)) = (self.computer_to_move(), self.game.as_ref()) else {
            return false;
        };
        self.thinker
            .start(game, limits, Purpose::Play, self.notify.clone());
        true
    }

    /// Whether both players are the computer: a game that a person watching it (at a
    /// terminal, in the window) sees at [`COMPUTER_PACE`].
    pub(crate) fn computers_only(&self) -> bool {
        self.players
            .iter()
            .all(|player| matches!(player, PlayerKind::Computer(..)))
    }

    /// Asks the running search to move now (`f`).
    pub(crate) fn stop_thinking(&self) {
        self.thinker.stop();
    }

    /// Applies what arrived by itself since the last call, and returns the lines to
    /// show: the search's reports and the computer's move, then what the game server said
    /// (its connection's thread calls the same [`Notify`]).
    pub(crate) fn poll(&mut self) -> Vec<String> {
        self.out.clear();
        self.pane.clear_marks();
        while let Some(event) = self.thinker.poll() {
            self.apply_event(event);
        }
        self.poll_network();
        std::mem::take(&mut self.out)
    }

    pub(super) fn apply_event(&mut self, event: Event) {
        match event {
            Event::Progress(progress) => {
                if self.thinker.purpose() != Some(Purpose::Analyse) {
                    self.progress = Some(progress);
                    return;
                }
                self.pane_progress(&progress);
                if self.source.frontend().analysis_as_text() {
                    self.say_depth(&progress);
                }
            }
            Event::Done {
                result,
                purpose,
                ply,
                hash,
                others,
            } => {
                self.progress = None;
                let Some(game) = &self.game else { return };
                let current = game.ply() == ply && game.position().hash() == hash;
                match (purpose, result.best) {
                    (Purpose::Analyse, Some(best)) if current => {
                        self.live = None;
                        self.analysis = Some((best, ply, hash));
                        self.pane_done(&result, &others);
                        let Some(game) = &self.game else { return };
                        let line = self.naming().move_text(game.rules(), best);
                        let evaluation = self.evaluation_words(result.evaluation);
                        let chance = self.win_words(game.side_to_move(), result.win_chance());
                        self.say(Message::new(
                            Key::AnalysisBest,
                            [line, result.score.to_string(), chance],
                        ));
                        self.say(Message::new(Key::AnalysisEvaluation, [evaluation]));
                        if !others.is_empty() {
                            self.say_lines(std::iter::once(&result).chain(&others));
                        }
                    }
                    (Purpose::Analyse, _) => {
                        self.live = None;
                        self.say(Message::plain(Key::AnalysisNone));
                    }
                    (Purpose::Play, Some(best)) if current && self.computer_will_move() => {
                        let naming = self.naming();
                        let Some(game) = self.game.as_mut() else {
                            return;
                        };
                        let rules = game.rules().clone();
                        match game.try_play(best) {
                            Ok(undo) => {
                                let line = capture_line(&self.language, &rules, undo, true, naming);
                                self.out.push(line.unwrap_or_default());
                                self.after_move();
                            }
                            Err(error) => {
                                let message = messages::move_message(
                                    &self.language,
                                    game,
                                    best,
                                    &error,
                                    naming,
                                );
                                self.say(message);
                            }
                        }
                    }
                    (Purpose::Play, _) => {}
                }
            }
        }
    }

    /// Says a finished depth of an analysis's line: `depth 6  score ...`, or `line 2
    /// depth 4  score ...` for a later line. During a live analysis it also becomes the
    /// line's entry in the block of its latest depths, which a terminal rewrites in
    /// place ([`Session::poll_shown`]).
    fn say_depth(&mut self, progress: &Progress) {
        let Some(game) = &self.game else { return };
        let seconds = progress.elapsed.as_secs_f64();
        let speed = if seconds > 0.0 {
            (progress.nodes as f64 / seconds) as u64
        } else {
            0
        };
        let pv = self.naming().line(game.rules(), &progress.pv);
        let chance = self.win_words(game.side_to_move(), progress.win_chance());
        let depth = Message::new(
            Key::AnalysisDepth,
            [
                progress.depth.to_string(),
                progress.score.to_string(),
                progress.nodes.to_string(),
                speed.to_string(),
                format!("{seconds:.2}"),
                pv,
                chance,
            ],
        );
        let mut text = self.text(&depth);
        if progress.line > 0 {
            let number = (progress.line + 1).to_string();
            text = self.text(&Message::new(Key::AnalysisLineDepth, [number, text]));
        }
        if self.live.is_some() {
            let at = self.out.len();
            self.pane.depth_block(progress.line, &text, at);
        }
        self.out.push(text);
    }

    /// [`Session::poll`], with each finished depth of a live analysis marked: a
    /// terminal rewrites the block of the latest depths in place where a pipe prints
    /// one line a depth.
    pub(crate) fn poll_shown(&mut self) -> Vec<Shown> {
        let lines = self.poll();
        let mut marks = self.pane.take_marks().into_iter().peekable();
        lines
            .into_iter()
            .enumerate()
            .map(
                |(index, line)| match marks.next_if(|(at, _)| *at == index) {
                    Some((_, block)) => Shown::Depth { line, block },
                    None => Shown::Line(line),
                },
            )
            .collect()
    }

    /// The lines of an analysis of several, best first: each one's move, score, win
    /// chance and line of play, in both notations.
    fn say_lines<'r>(&mut self, lines: impl Iterator<Item = &'r aim::SearchResult>) {
        let Some(game) = &self.game else { return };
        let naming = self.naming();
        let mover = game.side_to_move();
        let texts: Vec<Message> = lines
            .enumerate()
            .filter_map(|(index, line)| {
                let best = line.best?;
                Some(Message::new(
                    Key::AnalysisLine,
                    [
                        (index + 1).to_string(),
                        naming.move_text(game.rules(), best),
                        line.score.to_string(),
                        self.win_words(mover, line.win_chance()),
                        naming.line(game.rules(), &line.pv),
                    ],
                ))
            })
            .collect();
        for text in texts {
            self.say(text);
        }
    }

    /// Cancels any search (before quitting).
    pub fn shutdown(&mut self) {
        self.thinker.cancel();
    }
}
