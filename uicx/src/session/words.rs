//! Output wording: moves, limits, games on a server and their results, in words.

use std::time::Duration;

use aim::Limits;
use hnefatafl_core::{Move, Notation, Rules, Undo};

use crate::lang::{Key, Language, Message};
use crate::messages::Naming;
use crate::net::protocol::{GameSummary, OfferKind};

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
            self.moves_text(summary.moves),
        ];
        if archive {
            let result = summary
                .result
                .as_ref()
                .map(|result| self.result_words(result))
                .unwrap_or_default();
            args.push(result);
            self.text(&Message::new(Key::NetArchiveLine, args))
        } else {
            self.text(&Message::new(Key::NetGameLine, args))
        }
    }

    /// A count of moves: `1 move`, `12 moves`.
    fn moves_text(&self, moves: u32) -> String {
        let key = match moves {
            1 => Key::NetMovesOne,
            _ => Key::NetMoves,
        };
        self.text(&Message::new(key, [moves.to_string()]))
    }

    /// How a game on the server ended: `player 1 wins (the other resigned)`.
    fn result_words(&self, result: &crate::net::protocol::GameResult) -> String {
        let reason = match result.reason.as_str() {
            "resigned" => self.language.get(Key::NetReasonResigned),
            "time" => self.language.get(Key::NetReasonTime),
            "draw agreed" => self.language.get(Key::NetReasonDraw),
            other => other.to_owned(),
        };
        let message = match result.winner {
            Some(winner) => Message::new(Key::NetResultWin, [winner.to_string(), reason]),
            None => Message::new(Key::NetResultDraw, [reason]),
        };
        self.text(&message)
    }

    /// The line that says a game on the server is over, and how it ended.
    pub(super) fn result_text(
        &self,
        game: u64,
        result: &crate::net::protocol::GameResult,
    ) -> String {
        let words = self.result_words(result);
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
