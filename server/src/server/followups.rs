//! The work a message leaves for after the referee's lock: clock timers, and computer
//! moves searched on the pool of `crate::computer`.

use std::sync::Arc;

use hnefatafl_net::protocol::GameId;

use super::Server;
use crate::referee::Followup;

impl Server {
    /// Queues a computer's search in the pool; its move is played when found, if the
    /// turn is still on. The position is taken when a thread is free, so a search whose
    /// turn ended while it waited is never run.
    pub(super) fn computer_search(
        self: &Arc<Self>,
        game: GameId,
        turn: u64,
        level: u32,
        player: &str,
    ) {
        let (found, answer) = tokio::sync::oneshot::channel();
        let server = self.clone();
        self.computers.submit(
            player,
            Box::new(move |engine: &mut aim::Engine| {
                let Some(task) = server.lock().computer_task(game, turn, level) else {
                    return;
                };
                // A fresh table for each search, as a new engine would have.
                engine.clear();
                engine.set_network(task.network);
                let best = engine
                    .search(&task.game, &task.limits, task.stop, &mut |_| {})
                    .best;
                let _ = found.send(best);
            }),
        );
        let server = self.clone();
        tokio::spawn(async move {
            if let Ok(Some(best)) = answer.await {
                server.lock().computer_move(game, turn, best);
                server.start_followups();
            }
        });
    }

    /// Starts the work the last messages left: computer moves and clock timers.
    pub(super) fn start_followups(self: Arc<Self>) {
        let followups = std::mem::take(&mut self.lock().followups);
        for followup in followups {
            let server = self.clone();
            match followup {
                Followup::Flag { game, turn, at } => {
                    tokio::spawn(async move {
                        tokio::time::sleep_until(at.into()).await;
                        server.lock().flag(game, turn);
                        server.start_followups();
                    });
                }
                Followup::TournamentStart { tournament, at } => {
                    tokio::spawn(async move {
                        tokio::time::sleep_until(at.into()).await;
                        server.lock().tournament_due(tournament);
                        server.start_followups();
                    });
                }
                Followup::Computer {
                    game,
                    turn,
                    level,
                    player,
                } => self.computer_search(game, turn, level, &player),
            }
        }
    }
}
