//! The game at hand: moves, the board, the players, analysis, undo and a new game.

use aim::{Limits, MAX_DEPTH, MAX_LEVEL};
use hnefatafl_core::{EndReason, Game, Move, PieceType, Player, Rules};

use crate::board;
use crate::lang::{Key, Message};
use crate::messages;
use crate::thinker::{Notify, Purpose};

use super::{Outcome, PlayerKind, Session, Source, capture_line, describe_limits};

/// Reads limit words, refusing a depth the engine cannot search.
pub(super) fn read_limits(words: &[&str]) -> Result<Limits, Message> {
    let limits = Limits::from_words(words)
        .map_err(|error| Message::new(Key::CmdBadLimits, [error.0, MAX_LEVEL.to_string()]))?;
    match limits.depth {
        Some(depth) if depth > MAX_DEPTH => Err(Message::new(
            Key::CmdTooDeep,
            [depth.to_string(), MAX_DEPTH.to_string()],
        )),
        _ => Ok(limits),
    }
}

impl Session {
    pub(super) fn game_or_error(&self) -> Result<&Game, Message> {
        self.game
            .as_ref()
            .ok_or_else(|| Message::plain(Key::CmdNoRules))
    }

    /// The line that says whose turn it is, or who won and why (at a network game, as
    /// its server says: a resignation, a time loss or an agreed draw as well).
    pub(crate) fn status(&self) -> String {
        if let Some((rules_id, result)) = self.network_result() {
            return self.result_words(&rules_id, &result);
        }
        match &self.game {
            None => self.language.get(Key::CmdNoRules),
            Some(game) => match game.outcome() {
                None => self.text(&Message::new(
                    Key::Turn,
                    [game.side_to_move().index().to_string()],
                )),
                Some(outcome) => {
                    let message = self.outcome_message(game.rules(), outcome);
                    self.text(&message)
                }
            },
        }
    }

    /// The message that says who won and why, or why the game is drawn.
    pub(super) fn outcome_message(
        &self,
        rules: &Rules,
        outcome: hnefatafl_core::Outcome,
    ) -> Message {
        let piece = |piece| self.piece_name(rules, piece);
        let Some(winner) = outcome.winner else {
            return match outcome.reason {
                EndReason::Repetition => Message::new(
                    Key::DrawRepetition,
                    [rules.repetition().map_or(0, |rule| rule.count).to_string()],
                ),
                EndReason::NoCapture => Message::new(
                    Key::DrawNoCapture,
                    [rules.draw_plies().unwrap_or(0).to_string()],
                ),
                _ => Message::plain(Key::DrawNoWin),
            };
        };
        let loser = winner.opponent().index().to_string();
        let winner = winner.index().to_string();
        match outcome.reason {
            // A type that wins on some square types only (halatafl's corners of the other
            // side) wins on squares the file need not think of as escapes.
            EndReason::Escape(type_) => {
                let some_only = rules
                    .piece_rule(type_)
                    .is_some_and(|rule| rule.escape_on().bits() != u8::MAX);
                let key = if some_only {
                    Key::WinEscapeOn
                } else {
                    Key::WinEscape
                };
                Message::new(key, [winner, piece(type_)])
            }
            EndReason::CaptureLoss(type_) => {
                Message::new(Key::WinCaptureLoss, [winner, loser, piece(type_)])
            }
            EndReason::ExitFort(type_) => Message::new(Key::WinExitFort, [winner, piece(type_)]),
            EndReason::Encircled => Message::new(Key::WinEncircled, [winner, loser]),
            EndReason::LosingSquare(type_) => {
                Message::new(Key::WinLosingSquare, [winner, loser, piece(type_)])
            }
            EndReason::Repetition => Message::new(
                Key::WinRepetition,
                [
                    winner,
                    rules.repetition().map_or(0, |rule| rule.count).to_string(),
                ],
            ),
            _ => Message::new(Key::WinNoMoves, [winner, loser]),
        }
    }

    /// A piece type as messages name it: the rule file's `name` (the usual English names
    /// translated by the language file, any other as a piece of that name: `black
    /// piece`), else its board letter.
    pub(super) fn piece_name(&self, rules: &Rules, piece: PieceType) -> String {
        let Some(name) = rules.piece_name(piece) else {
            return rules.piece_letter(piece).to_string();
        };
        let key = match name {
            "king" => Key::PieceKing,
            "defender" => Key::PieceDefender,
            "attacker" => Key::PieceAttacker,
            _ => return self.language.text(&Message::new(Key::PieceNamed, [name])),
        };
        self.language.get(key)
    }

    pub(super) fn after_move(&mut self) {
        let as_text = self.source.frontend().board_as_text();
        if self.auto_board && as_text {
            if let Some(game) = &self.game {
                let text = board::render(game, self.colour);
                self.out.push(text.trim_end().to_owned());
            }
        }
        if as_text {
            let status = self.status();
            self.out.push(status);
            self.show_clocks();
        }
        // The position changed: a review shown is over, a live analysis goes on here.
        self.reviewed = None;
        self.resume_live();
    }

    /// The move that `words` name in the game at hand, which must not be over.
    pub(super) fn move_in_game(&self, words: &[&str]) -> Result<Move, Message> {
        let game = self.game_or_error()?;
        if game.outcome().is_some() {
            return Err(Message::plain(Key::CmdGameOver));
        }
        game.rules().parse_move(words).map_err(|error| {
            Message::new(
                Key::CmdBadMove,
                [self.language.text(&messages::notation_message(&error))],
            )
        })
    }

    pub(super) fn command_move(&mut self, words: &[&str]) -> Outcome {
        let mv = self.move_in_game(words)?;
        // The position must not change under a running search.
        if self.thinker.purpose() == Some(Purpose::Play) {
            self.thinker.cancel();
        }
        let naming = self.naming();
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| Message::plain(Key::CmdNoRules))?;
        let rules = game.rules().clone();
        let undo = match game.try_play(mv) {
            Ok(undo) => undo,
            Err(error) => {
                return Err(messages::move_message(
                    &self.language,
                    game,
                    mv,
                    &error,
                    naming,
                ));
            }
        };
        if let Some(line) = capture_line(&self.language, &rules, undo, false, naming) {
            self.out.push(line);
        }
        // An analysis of the position before the move has nothing left to tell, and would
        // keep the computer from answering the move until it ended.
        if self.thinker.purpose() == Some(Purpose::Analyse) {
            self.thinker.cancel();
        }
        self.after_move();
        Ok(())
    }

    pub(super) fn command_board(&mut self) -> Outcome {
        let game = self.game_or_error()?;
        if !self.source.frontend().board_as_text() {
            let status = self.status();
            self.out.push(status);
            return Ok(());
        }
        let text = board::render(game, self.colour);
        self.out.push(text.trim_end().to_owned());
        let status = self.status();
        self.out.push(status);
        self.show_clocks();
        Ok(())
    }

    pub(super) fn list_players(&mut self) {
        for player in Player::BOTH {
            let message = self.player_message(player);
            self.say(message);
        }
    }

    pub(super) fn player_message(&self, player: Player) -> Message {
        let index = player.index().to_string();
        match &self.players[player.index()] {
            PlayerKind::Human => Message::new(Key::PlayerHuman, [index]),
            PlayerKind::Computer(limits, _) => {
                let mut described = describe_limits(&self.language, limits);
                // The rule file's network plays unless the limits turn it off.
                if limits.evaluation != Some(aim::Evaluation::Classic) && self.network.is_some() {
                    let words = self.evaluation_words(aim::Evaluation::Network);
                    described = format!("{described}, {words}");
                }
                Message::new(Key::PlayerComputer, [index, described])
            }
        }
    }

    pub(super) fn command_player(&mut self, player: &str, kind: &str, limits: &[&str]) -> Outcome {
        let player = player
            .parse::<usize>()
            .ok()
            .and_then(Player::from_index)
            .ok_or_else(|| Message::new(Key::CmdBadPlayer, [player]))?;
        let setting = match (kind, limits) {
            ("h", []) => PlayerKind::Human,
            ("c", words) => {
                let parsed = read_limits(words)?;
                PlayerKind::Computer(parsed, words.iter().map(|&word| word.to_owned()).collect())
            }
            _ => return Err(Message::new(Key::CmdUsage, ["p"])),
        };
        if self.thinker.purpose() == Some(Purpose::Play)
            && self
                .game
                .as_ref()
                .is_some_and(|game| game.side_to_move() == player)
        {
            self.thinker.cancel();
        }
        self.players[player.index()] = setting;
        let message = self.player_message(player);
        self.say(message);
        Ok(())
    }

    pub(super) fn command_force(&mut self) -> Outcome {
        if !self.thinker.is_busy() {
            return Err(Message::plain(Key::CmdNotThinking));
        }
        self.thinker.stop();
        Ok(())
    }

    pub(super) fn command_analyse(&mut self, words: &[&str]) -> Outcome {
        let limits = read_limits(words)?;
        self.start_analysis(limits, false)
    }

    /// `live [<limits>]`: an analysis that deepens until it is stopped (`s`), unless
    /// the limits bound it.
    pub(super) fn command_live(&mut self, words: &[&str]) -> Outcome {
        let mut limits = read_limits(words)?;
        if limits.depth.is_none()
            && limits.time.is_none()
            && limits.nodes.is_none()
            && limits.level.is_none()
        {
            limits.depth = Some(MAX_DEPTH);
        }
        self.start_analysis(limits, true)
    }

    /// `s`: stops the running analysis; it reports its best move so far.
    pub(super) fn command_stop_analysis(&mut self) -> Outcome {
        if self.thinker.purpose() != Some(Purpose::Analyse) {
            return Err(Message::plain(Key::CmdNotAnalysing));
        }
        self.thinker.stop();
        Ok(())
    }

    /// Refuses the computer's help to a player seated in a network game not over: only
    /// a spectator, or a player after the game, may analyse it.
    pub(super) fn refuse_help_at_play(&self) -> Outcome {
        let seated = self
            .link
            .as_ref()
            .and_then(|link| link.table.as_ref())
            .is_some_and(|table| table.side.is_some() && table.result.is_none());
        if seated {
            return Err(Message::plain(Key::AnalysisWhilePlaying));
        }
        Ok(())
    }

    /// Starts an analysis of the position in play; `live`: one that any key stops.
    fn start_analysis(&mut self, limits: Limits, live: bool) -> Outcome {
        self.refuse_help_at_play()?;
        let game = self.game_or_error()?;
        if game.outcome().is_some() {
            return Err(Message::plain(Key::CmdGameOver));
        }
        if self.thinker.is_busy() {
            return Err(Message::new(
                Key::Thinking,
                [game.side_to_move().index().to_string()],
            ));
        }
        let game = game.clone();
        self.live = live.then(|| limits.clone());
        self.clear_pane();
        self.thinker
            .start(&game, limits, Purpose::Analyse, self.notify.clone());
        Ok(())
    }

    pub(super) fn command_undo(&mut self, count: Option<&str>) -> Outcome {
        let wanted = match count {
            None => None,
            Some(word) => Some(
                word.parse::<usize>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| Message::new(Key::CmdBadNumber, [word]))?,
            ),
        };
        let game = self.game_or_error()?;
        if game.ply() == 0 {
            return Err(Message::plain(Key::CmdNothingToUndo));
        }
        self.thinker.cancel();
        let players = self.players.clone();
        let Some(game) = self.game.as_mut() else {
            return Err(Message::plain(Key::CmdNoRules));
        };
        let mut undone = 0;
        match wanted {
            Some(count) => {
                while undone < count && game.undo().is_some() {
                    undone += 1;
                }
            }
            None => {
                // Back to the last position where a human was to move, when a human plays.
                let human_plays = players.contains(&PlayerKind::Human);
                while game.undo().is_some() {
                    undone += 1;
                    let human_to_move = players[game.side_to_move().index()] == PlayerKind::Human;
                    if !human_plays || human_to_move {
                        break;
                    }
                }
            }
        }
        self.say_undone(undone);
        Ok(())
    }

    /// Says how many moves were taken back (`u` here, or the server's undo) and shows the
    /// position they leave.
    pub(super) fn say_undone(&mut self, undone: usize) {
        let key = if undone == 1 {
            Key::UndoneOne
        } else {
            Key::Undone
        };
        self.say(Message::new(key, [undone.to_string()]));
        self.after_move();
    }

    pub(super) fn command_new(&mut self) -> Outcome {
        let rules = self.game_or_error()?.rules().clone();
        self.thinker.clear();
        self.game = Some(Game::new(rules));
        self.say(Message::plain(Key::NewGame));
        self.after_move();
        Ok(())
    }

    pub(super) fn command_x(&mut self, theme: Option<&str>) -> Outcome {
        self.action = self.source.frontend().x(theme);
        Ok(())
    }

    /// Back from the X window: a search started for the window reports to it, so it
    /// stops, and commands come from standard input again.
    pub(crate) fn left_window(&mut self, notify: Notify) {
        self.thinker.cancel();
        // No piece is held any more: its heat map's searches stop; a live analysis
        // stopped with the window does not start again.
        self.hold(None, notify.clone());
        self.live = None;
        self.progress = None;
        self.set_notify(notify);
        self.source = Source::Stdin;
    }
}
