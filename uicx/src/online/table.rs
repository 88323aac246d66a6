//! The remote table: the game this client plays or watches on a server, as a state
//! machine of its own. Server messages go in ([`Table::receive`]); typed events come out,
//! moves as core's [`Move`], read once from the wire by serde. The interpreter only turns
//! the events into words and plays the moves on its board, which checks them.

use std::time::{Duration, Instant};

use hnefatafl_core::Move;

use crate::online::protocol::{EndCause, GameId, GameResult, OfferKind, ServerMessage};

/// What happened at the table, from a server message about its game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TableEvent {
    /// An account took a seat.
    Joined {
        /// The seat, 0 or 1.
        side: u8,
        /// The account.
        name: String,
    },
    /// The server accepted a move.
    Moved {
        /// Its number in the game, from 1.
        number: u32,
        /// The side that made it.
        side: u8,
        /// The move.
        mv: Move,
        /// Whether this client made it.
        mine: bool,
    },
    /// Moves were taken back; this many are left.
    Undone {
        /// The moves left in the game.
        moves: u32,
    },
    /// Someone at the table said something.
    Said {
        /// Who.
        from: String,
        /// What.
        text: String,
    },
    /// An offer was made (to take back a move, or a draw).
    Offer {
        /// What is offered.
        kind: OfferKind,
        /// Who offered it.
        from: String,
        /// Whether this client made it.
        mine: bool,
    },
    /// The opponent declined an offer.
    Declined {
        /// What was offered.
        kind: OfferKind,
    },
    /// The game is over.
    Ended {
        /// How it ended.
        result: GameResult,
    },
}

/// The game this client plays or watches on the server.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// The game's number on the server.
    pub(crate) game: GameId,
    /// This client's seat; `None` when watching.
    pub(crate) side: Option<u8>,
    /// The account at each seat, `None` while free.
    pub(crate) players: [Option<String>; 2],
    /// Each side's time left at `clocks_at`, when timed.
    pub(crate) clocks: Option<[u64; 2]>,
    /// When `clocks` was heard.
    pub(crate) clocks_at: Instant,
    /// Each side's byo-yomi periods left, when the clock has them.
    pub(crate) periods: Option<[u32; 2]>,
    /// The length of one byo-yomi period, when the clock has them.
    pub(crate) period: Option<Duration>,
    /// How it ended, once it did.
    pub(crate) result: Option<GameResult>,
    /// An offer of the opponent's that waits for `accept` or `decline`.
    pub(crate) open_offer: Option<OfferKind>,
}

impl Table {
    /// Whether both seats are taken and the game is not over: the clock of the side to
    /// move runs.
    pub(crate) fn running(&self) -> bool {
        self.result.is_none() && self.players.iter().all(Option::is_some)
    }

    /// Each side's time left now, counting down the side to move (`to_move`) since the
    /// last word from the server.
    pub(crate) fn clocks_now(&self, to_move: u8) -> Option<[Duration; 2]> {
        let clocks = self.clocks?;
        let mut left = clocks.map(Duration::from_millis);
        if self.running() {
            let side = usize::from(to_move.min(1));
            left[side] = left[side].saturating_sub(self.clocks_at.elapsed());
        }
        Some(left)
    }

    /// Takes the clocks and byo-yomi periods of a message, keeping those it leaves out.
    fn set_clocks(&mut self, clocks: Option<[u64; 2]>, periods: Option<[u32; 2]>) {
        if clocks.is_some() {
            self.clocks = clocks;
        }
        self.periods = periods.or(self.periods);
        self.clocks_at = Instant::now();
    }

    /// Stops the clocks where they stand now (`to_move`'s having run since the last word
    /// from the server), the loser's at nothing when the time ran out.
    fn stop_clocks(&mut self, to_move: u8, result: &GameResult) {
        if let Some(left) = self.clocks_now(to_move) {
            let mut left = left.map(|time| time.as_millis() as u64);
            if let (EndCause::Time, Some(winner)) = (result.reason, result.winner) {
                let loser = usize::from(1 - winner.min(1));
                left[loser] = 0;
                // Lost on time: the byo-yomi periods are spent too.
                if let Some(periods) = self.periods.as_mut() {
                    periods[loser] = 0;
                }
            }
            self.clocks = Some(left);
        }
        self.clocks_at = Instant::now();
    }

    /// Takes a server message: `None` when it is not about this table's game (an earlier
    /// one, or no game at all), else what happened. `account` is this client's account,
    /// which tells its own offers from the opponent's; `to_move` is the side to move on
    /// the client's board, whose clock runs.
    pub(crate) fn receive(
        &mut self,
        message: &ServerMessage,
        account: Option<&str>,
        to_move: u8,
    ) -> Option<TableEvent> {
        let event = match message.clone() {
            ServerMessage::Joined { game, side, name } if game == self.game => {
                if let Some(seat) = self.players.get_mut(usize::from(side)) {
                    *seat = Some(name.clone());
                }
                // The clock of the side to move starts now.
                self.set_clocks(None, None);
                TableEvent::Joined { side, name }
            }
            ServerMessage::Moved {
                game,
                number,
                side,
                mv,
                clocks,
                periods,
            } if game == self.game => {
                self.set_clocks(clocks, periods);
                TableEvent::Moved {
                    number,
                    side,
                    mv,
                    mine: self.side == Some(side),
                }
            }
            ServerMessage::Undone {
                game,
                moves,
                clocks,
                periods,
            } if game == self.game => {
                self.set_clocks(clocks, periods);
                TableEvent::Undone { moves }
            }
            ServerMessage::Chat {
                game, from, text, ..
            } if game == self.game => TableEvent::Said { from, text },
            ServerMessage::Offered { game, kind, from } if game == self.game => {
                let mine = account == Some(from.as_str());
                if !mine {
                    self.open_offer = Some(kind);
                }
                TableEvent::Offer { kind, from, mine }
            }
            ServerMessage::Declined { game, kind } if game == self.game => {
                self.open_offer = None;
                TableEvent::Declined { kind }
            }
            ServerMessage::Ended { game, result } if game == self.game => {
                self.stop_clocks(to_move, &result);
                self.result = Some(result);
                self.open_offer = None;
                TableEvent::Ended { result }
            }
            _ => return None,
        };
        Some(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            game: 7,
            side: Some(0),
            players: [Some("ann".to_owned()), None],
            clocks: Some([60_000, 60_000]),
            clocks_at: Instant::now(),
            periods: None,
            period: None,
            result: None,
            open_offer: None,
        }
    }

    #[test]
    fn a_move_brings_the_byo_yomi_periods_left_and_one_without_keeps_them() {
        let mut table = table();
        let moved = |periods| ServerMessage::Moved {
            game: 7,
            number: 1,
            side: 0,
            mv: Move::new(
                hnefatafl_core::Square::new(3, 0).expect("a square"),
                hnefatafl_core::Square::new(2, 0).expect("a square"),
            ),
            clocks: Some([0, 60_000]),
            periods,
        };
        table.receive(&moved(Some([2, 3])), Some("ann"), 0);
        assert_eq!(table.periods, Some([2, 3]));
        table.receive(&moved(None), Some("ann"), 1);
        assert_eq!(table.periods, Some([2, 3]));
    }

    #[test]
    fn a_seat_taken_starts_the_clocks() {
        let mut table = table();
        assert!(!table.running());
        let joined = ServerMessage::Joined {
            game: 7,
            side: 1,
            name: "bob".to_owned(),
        };
        let event = table.receive(&joined, Some("ann"), 0);
        assert_eq!(
            event,
            Some(TableEvent::Joined {
                side: 1,
                name: "bob".to_owned()
            })
        );
        assert!(table.running());
    }

    #[test]
    fn a_move_comes_out_as_it_came_in_with_its_side() {
        let mut table = table();
        let expected = Move::new(
            hnefatafl_core::Square::new(3, 0).expect("a square"),
            hnefatafl_core::Square::new(2, 0).expect("a square"),
        );
        let moved = |side: u8| ServerMessage::Moved {
            game: 7,
            number: 1,
            side,
            mv: expected,
            clocks: Some([59_000, 60_000]),
            periods: None,
        };
        assert_eq!(
            table.receive(&moved(0), Some("ann"), 0),
            Some(TableEvent::Moved {
                number: 1,
                side: 0,
                mv: expected,
                mine: true
            })
        );
        assert_eq!(table.clocks, Some([59_000, 60_000]));
        let Some(TableEvent::Moved { mine, .. }) = table.receive(&moved(1), None, 1) else {
            panic!("a move");
        };
        assert!(!mine, "the other side's move");
    }

    #[test]
    fn messages_about_another_game_pass_by() {
        let mut table = table();
        let other = ServerMessage::Chat {
            game: 8,
            from: "eve".to_owned(),
            text: "hello".to_owned(),
            line: 1,
        };
        assert_eq!(table.receive(&other, None, 0), None);
        let ended = ServerMessage::Ended {
            game: 8,
            result: GameResult {
                winner: Some(1),
                reason: EndCause::Resigned,
            },
        };
        assert_eq!(table.receive(&ended, None, 0), None);
        assert!(table.result.is_none());
    }

    #[test]
    fn offers_wait_for_an_answer_until_declined_or_the_end() {
        let mut table = table();
        let offered = |from: &str| ServerMessage::Offered {
            game: 7,
            kind: OfferKind::Draw,
            from: from.to_owned(),
        };
        let Some(TableEvent::Offer { mine: true, .. }) =
            table.receive(&offered("ann"), Some("ann"), 0)
        else {
            panic!("ann's own offer");
        };
        assert_eq!(table.open_offer, None, "one's own offer is not to answer");
        table.receive(&offered("bob"), Some("ann"), 0);
        assert_eq!(table.open_offer, Some(OfferKind::Draw));
        let declined = ServerMessage::Declined {
            game: 7,
            kind: OfferKind::Draw,
        };
        assert_eq!(
            table.receive(&declined, Some("ann"), 0),
            Some(TableEvent::Declined {
                kind: OfferKind::Draw
            })
        );
        assert_eq!(table.open_offer, None);
        table.receive(&offered("bob"), Some("ann"), 0);
        let result = GameResult {
            winner: None,
            reason: EndCause::DrawAgreed,
        };
        let ended = ServerMessage::Ended { game: 7, result };
        assert_eq!(
            table.receive(&ended, Some("ann"), 0),
            Some(TableEvent::Ended { result })
        );
        assert_eq!(table.result, Some(result));
        assert_eq!(table.open_offer, None);
        assert!(!table.running());
    }

    #[test]
    fn the_end_stops_the_clocks_the_loser_on_time_at_nothing() {
        let mut table = table();
        table.players[1] = Some("bob".to_owned());
        table.clocks_at = Instant::now() - Duration::from_secs(2);
        let ended = |reason| ServerMessage::Ended {
            game: 7,
            result: GameResult {
                winner: Some(1),
                reason,
            },
        };
        let mut resigned = table.clone();
        resigned.receive(&ended(EndCause::Resigned), Some("ann"), 0);
        let [ann, bob] = resigned.clocks.expect("timed");
        assert!(
            ann <= 58_000 && ann > 50_000,
            "ann's clock ran to the end: {ann}"
        );
        assert_eq!(bob, 60_000);
        let stopped = resigned.clocks_now(0);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(
            resigned.clocks_now(0),
            stopped,
            "stopped clocks stand still"
        );
        table.receive(&ended(EndCause::Time), Some("ann"), 0);
        assert_eq!(table.clocks, Some([0, 60_000]));
    }
}
