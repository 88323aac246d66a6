//! Offers of a draw or an undo, and their answers: an accepted undo takes back moves but
//! gives no time back.

use hnefatafl_net::protocol::{EndCause, GameId, GameResult, OfferKind, ServerMessage};

use super::rows::{stored_clocks, wire_periods};
use super::{ConnectionId, State};
use crate::clock;
use crate::journal::Write;

impl State {
    pub(crate) fn offer(
        &mut self,
        id: ConnectionId,
        game: GameId,
        kind: OfferKind,
    ) -> Result<(), String> {
        let side = self.seat(id, game)?;
        let from = self.account(id)?;
        let live = self.live(game)?;
        if kind == OfferKind::Undo {
            let moves = live.game.moves().len();
            let own_moves = (moves + usize::from(1 - side)) / 2;
            if own_moves == 0 {
                return Err("you have no move to take back".to_owned());
            }
        }
        let opponent = live.players[usize::from(1 - side)].clone();
        if let Some(level) = opponent.as_ref().and_then(|name| self.computers.get(name)) {
            // The computer declines undos and accepts nothing but a lost cause: it declines.
            let _ = level;
            self.send(id, &ServerMessage::Declined { game, kind });
            return Ok(());
        }
        self.live(game)?.offer = Some((kind, side));
        self.broadcast(game, &ServerMessage::Offered { game, kind, from });
        Ok(())
    }

    pub(crate) fn answer(
        &mut self,
        id: ConnectionId,
        game: GameId,
        kind: OfferKind,
        accept: bool,
    ) -> Result<(), String> {
        let side = self.seat(id, game)?;
        let live = self.live(game)?;
        let offerer = match live.offer {
            Some((offered, by)) if offered == kind && by != side => by,
            _ => return Err(format!("no such offer is open in game {game}")),
        };
        live.offer = None;
        if !accept {
            self.broadcast(game, &ServerMessage::Declined { game, kind });
            return Ok(());
        }
        match kind {
            OfferKind::Draw => self.finish(
                game,
                GameResult {
                    winner: None,
                    reason: EndCause::DrawAgreed,
                },
            ),
            OfferKind::Undo => {
                // Take back the offerer's last move, and the reply to it if there was one.
                let replied = live.game.side_to_move().index() == usize::from(offerer);
                let count = if replied { 2 } else { 1 };
                let keep = live.game.moves().len().saturating_sub(count);
                // The time used stays used: the moves' own, and that of the turn the undo
                // cuts short.
                if let (Some(clock), Some(started)) = (live.clock, live.turn_started) {
                    let side = live.game.side_to_move().index();
                    match clock::spend(&clock, live.left[side], started.elapsed()) {
                        Some(left) => live.left[side] = left,
                        None => return self.lose_on_time(game),
                    }
                }
                while live.game.moves().len() > keep {
                    live.game.undo();
                }
                let kept = stored_clocks(&live.left);
                let clocks = live.clock.map(|_| kept.times);
                let periods = wire_periods(live.clock, &live.left);
                self.journal.record(Write::TruncateMoves {
                    game,
                    keep: keep as u32,
                    clocks: kept,
                });
                self.broadcast(
                    game,
                    &ServerMessage::Undone {
                        game,
                        moves: keep as u32,
                        clocks,
                        periods,
                    },
                );
                self.broadcast_position(game);
                self.start_turn(game);
                Ok(())
            }
        }
    }
}
