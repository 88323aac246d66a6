//! Output wording: moves, limits, games on a server and their results, in words.

use std::time::Duration;

use aim::Limits;
use hnefatafl_core::{EndReason, Move, Notation, Outcome, Player, Rules, Undo};

use crate::lang::{Key, Language, Message};
use crate::messages::Naming;
use crate::online::protocol::{EndCause, GameResult, GameSummary, OfferKind};

use super::Session;

impl Session {
    /// A player's name as listed: the account, or a word for a free seat.
    pub(super) fn seat_name(&self, player: &Option<String>) -> String {
        player
            .clone()
            .unwrap_or_else(|| self.language.get(Key::NetFree))
    }

    pub(super) fn summary_line(&self, summary: &GameSummary, archive: bool) -> String {
        let clock = summary
            .clock
            .map_or_else(|| self.language.get(Key::NetUntimed), |c| c.to_string());
        let mut args = vec![
            summary.game.to_string(),
            summary.rules_id.clone(),
            self.seat_name(&summary.players[0]),
            self.seat_name(&summary.players[1]),
            clock,
            self.moves_text(summary.moves) + &self.seek_words(summary),
        ];
        if archive {
            let result = summary
                .result
                .as_ref()
                .map(|result| self.result_words(&summary.rules_id, result))
                .unwrap_or_default();
            args.push(result);
            self.text(&Message::new(Key::NetArchiveLine, args))
        } else {
            self.text(&Message::new(Key::NetGameLine, args))
        }
    }

    /// Who may take a seek's free seat, after its moves: `, for bob`, `, ratings
    /// 1400-1800`; nothing for a game anyone may join.
    fn seek_words(&self, summary: &GameSummary) -> String {
        let Some(terms) = &summary.seek else {
            return String::new();
        };
        let mut words = String::new();
        if let Some(to) = &terms.to {
            words += &self.text(&Message::new(Key::NetSeekFor, [to]));
        }
        if terms.min_rating.is_some() || terms.max_rating.is_some() {
            let bound = |value: Option<i32>| value.map(|v| v.to_string()).unwrap_or_default();
            let range = format!("{}-{}", bound(terms.min_rating), bound(terms.max_rating));
            words += &self.text(&Message::new(Key::NetSeekRange, [range]));
        }
        words
    }

    /// The line that tells of a challenge: who, which game, its rules and clock.
    pub(super) fn challenge_line(&self, from: &str, summary: &GameSummary) -> String {
        let clock = summary
            .clock
            .map_or_else(|| self.language.get(Key::NetUntimed), |c| c.to_string());
        let game = summary.game.to_string();
        let key = match summary.rated {
            true => Key::NetChallengedRated,
            false => Key::NetChallenged,
        };
        self.text(&Message::new(
            key,
            [from.to_owned(), game, summary.rules_id.clone(), clock],
        ))
    }

    /// A count of moves: `1 move`, `12 moves`.
    fn moves_text(&self, moves: u32) -> String {
        let key = match moves {
            1 => Key::NetMovesOne,
            _ => Key::NetMoves,
        };
        self.text(&Message::new(key, [moves.to_string()]))
    }

    /// How a game on the server ended, in the words of a local game's end: `Player 0
    /// wins: player 1 resigned.`, `Player 1 wins: the king reached an escape square.`
    /// The rules' own ends need the rules (for their pieces' names): those of the game on
    /// the board when they are the same, else the shipped rule file of that id.
    pub(super) fn result_words(&self, rules_id: &str, result: &GameResult) -> String {
        let winner = result
            .winner
            .and_then(|side| Player::from_index(usize::from(side)));
        let message = match (result.reason, winner) {
            (EndCause::DrawAgreed, _) => Message::plain(Key::NetDrawAgreed),
            (EndCause::Aborted, _) => Message::plain(Key::NetAborted),
            (EndCause::Resigned | EndCause::Time, Some(winner)) => {
                let key = match result.reason {
                    EndCause::Time => Key::NetWinTime,
                    _ => Key::NetWinResigned,
                };
                let sides = [winner, winner.opponent()].map(|side| side.index().to_string());
                Message::new(key, sides)
            }
            (reason, winner) => {
                let reason = match reason {
                    EndCause::Rules(reason) => reason,
                    // A resignation or a time loss without a winner: the engine's nearest.
                    _ => EndReason::NoWin,
                };
                let outcome = Outcome { winner, reason };
                match self.rules_named(rules_id) {
                    Some(rules) => self.outcome_message(&rules, outcome),
                    None => self.outcome_without_rules(outcome),
                }
            }
        };
        self.text(&message)
    }

    /// A rules' end in words when the rules are not at hand (an upload this client has
    /// not seen): the pieces are each a `piece`, and the counts are left out.
    fn outcome_without_rules(&self, outcome: Outcome) -> Message {
        let piece = || self.language.get(Key::PieceAny);
        let Some(winner) = outcome.winner else {
            return Message::plain(match outcome.reason {
                EndReason::Repetition => Key::DrawRepetitionAny,
                EndReason::NoCapture => Key::DrawNoCaptureAny,
                _ => Key::DrawNoWin,
            });
        };
        let loser = winner.opponent().index().to_string();
        let winner = winner.index().to_string();
        match outcome.reason {
            EndReason::Escape(_) => Message::new(Key::WinEscape, [winner, piece()]),
            EndReason::CaptureLoss(_) => {
                Message::new(Key::WinCaptureLoss, [winner, loser, piece()])
            }
            EndReason::ExitFort(_) => Message::new(Key::WinExitFort, [winner, piece()]),
            EndReason::Encircled => Message::new(Key::WinEncircled, [winner, loser]),
            EndReason::LosingSquare(_) => {
                Message::new(Key::WinLosingSquare, [winner, loser, piece()])
            }
            EndReason::Repetition => Message::new(Key::WinRepetitionAny, [winner]),
            _ => Message::new(Key::WinNoMoves, [winner, loser]),
        }
    }

    /// The rules of that id: the game's on the board, or a shipped rule file.
    fn rules_named(&self, id: &str) -> Option<Rules> {
        if let Some(game) = self.game.as_ref().filter(|game| game.rules().id() == id) {
            return Some(game.rules().clone());
        }
        // Only a plain name: an id from the server never leads out of the rules folder.
        let plain = id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !plain || id.is_empty() {
            return None;
        }
        let (_, bytes) = self.dirs.read(None, &format!("rules/{id}")).ok()?;
        Rules::parse(&bytes).ok()
    }

    /// The line that says a game on the server is over, and how it ended.
    pub(super) fn result_text(&self, game: u64, rules_id: &str, result: &GameResult) -> String {
        let words = self.result_words(rules_id, result);
        self.text(&Message::new(Key::NetEnded, [game.to_string(), words]))
    }

    pub(super) fn offer_word(&self, kind: OfferKind) -> String {
        self.language.get(match kind {
            OfferKind::Undo => Key::NetKindUndo,
            OfferKind::Draw => Key::NetKindDraw,
        })
    }
}

/// How a computer player's limits read in a message: `level 3 (1.5 s a move)`,
/// `depth 4, 10 s a move`.
pub(super) fn describe_limits(language: &Language, limits: &Limits) -> String {
    let seconds = |time: Duration| {
        let text = format!("{:.2}", time.as_secs_f64());
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    let mut parts = Vec::new();
    let level = match (limits.level, limits.depth, limits.time, limits.nodes) {
        (Some(level), _, _, _) => Some(level),
        // No limit at all plays at the default level.
        (None, None, None, None) => Some(aim::DEFAULT_LEVEL),
        _ => None,
    };
    match (level, limits.move_time()) {
        (Some(level), Some(time)) if limits.time.is_none() => parts.push(language.text(
            &Message::new(Key::LimitLevelTime, [level.to_string(), seconds(time)]),
        )),
        (Some(level), _) => {
            parts.push(language.text(&Message::new(Key::LimitLevel, [level.to_string()])))
        }
        (None, _) => {}
    }
    if let Some(depth) = limits.depth {
        parts.push(language.text(&Message::new(Key::LimitDepth, [depth.to_string()])));
    }
    if let Some(time) = limits.time {
        parts.push(language.text(&Message::new(Key::LimitTime, [seconds(time)])));
    }
    if let Some(nodes) = limits.nodes {
        parts.push(language.text(&Message::new(Key::LimitNodes, [nodes.to_string()])));
    }
    if let Some(threads) = limits.threads {
        parts.push(language.text(&Message::new(Key::LimitThreads, [threads.to_string()])));
    }
    if let Some(evaluation) = limits.evaluation {
        parts.push(language.text(&Message::new(Key::LimitEvaluation, [evaluation.word()])));
    }
    parts.join(", ")
}

/// A move as the board names it: `e5-e7`.
pub(crate) fn algebraic_move(rules: &Rules, mv: Move) -> String {
    let from = rules.format_square(mv.from(), Notation::Algebraic);
    let to = rules.format_square(mv.to(), Notation::Algebraic);
    format!("{from}-{to}")
}

/// The line that shows a move played: always for the computer's move (`m 4 6 4 8
/// (e5-e7)`, in the window `m e5 e7`), for a human's only when it captured; with what it
/// captured (`: captures d8, f8`).
pub(super) fn capture_line(
    language: &Language,
    rules: &Rules,
    undo: &Undo,
    always: bool,
    naming: Naming,
) -> Option<String> {
    let captured: Vec<String> = undo
        .captures()
        .map(|(square, _)| rules.format_square(square, Notation::Algebraic))
        .collect();
    let played = format!("m {}", naming.move_text(rules, undo.mv()));
    if captured.is_empty() {
        return always.then_some(played);
    }
    Some(language.text(&Message::new(
        Key::MoveCaptures,
        [played, captured.join(", ")],
    )))
}
