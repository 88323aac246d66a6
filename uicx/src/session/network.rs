//! The network client's side of the interpreter: the commands of a game on a server.
//! What the server says, in words, is in `server_says`.

use std::path::Path;
use std::time::Duration;

use hnefatafl_core::Rules;

use crate::data::Found;
use crate::files;
use crate::lang::{Key, Message};
use crate::messages;
use crate::online::protocol::{
    COMPUTER_PREFIX, ClientMessage, ClockSpec, GameResult, MAX_RULES_LABEL, MAX_RULES_TEXT,
    OfferKind, SeekTerms,
};
use crate::online::remote::{self, Awaited, Link, Target};
use crate::thinker::Notify;

use super::{Outcome, Session};

impl Session {
    /// Whether a network game is played or watched: its moves go to the server.
    pub(super) fn at_table(&self) -> bool {
        self.link.as_ref().is_some_and(|link| link.table.is_some())
    }

    pub(super) fn link_or_error(&mut self) -> Result<&mut Link, Message> {
        self.link
            .as_mut()
            .ok_or_else(|| Message::plain(Key::NetNotConnected))
    }

    pub(super) fn table_game(&self) -> Result<u64, Message> {
        let link = self
            .link
            .as_ref()
            .ok_or_else(|| Message::plain(Key::NetNotConnected))?;
        link.table
            .as_ref()
            .map(|table| table.game)
            .ok_or_else(|| Message::plain(Key::NetNoTable))
    }

    /// Stops hearing about the network game; it goes on on the server.
    pub(super) fn leave_table(&mut self) {
        let Some(link) = &mut self.link else { return };
        if let Some(table) = link.table.take() {
            if table.result.is_none() {
                link.remote.send(ClientMessage::Leave { game: table.game });
                self.say(Message::new(Key::NetLeft, [table.game.to_string()]));
            }
        }
    }

    pub(super) fn net_request(&mut self, message: ClientMessage, awaited: Awaited) -> Outcome {
        self.link_or_error()?.request(message, awaited);
        Ok(())
    }

    pub(super) fn command_connect(&mut self, word: Option<&str>) -> Outcome {
        let target = Target::parse(word).map_err(|bad| Message::new(Key::NetBadTarget, [bad]))?;
        let home = self
            .dirs
            .home
            .clone()
            .ok_or_else(|| Message::plain(Key::NetNoHome))?;
        self.leave_table();
        self.say(Message::new(Key::NetConnecting, [target.to_string()]));
        let now = std::sync::Arc::clone(&self.notify_now);
        let relay: Notify = std::sync::Arc::new(move || {
            let current = now.lock().map(|notify| notify.clone());
            if let Ok(notify) = current {
                notify();
            }
        });
        self.link = Some(Link::connect(target, &home, relay));
        self.started_server = false;
        Ok(())
    }

    pub(super) fn command_account(&mut self, name: &str, register: bool) -> Outcome {
        // The next line is the password whatever happens: it must never run as a command
        // (and show in an error) because a connection failed.
        self.secret_for = Some((name.to_owned(), register));
        if self.link.is_none() {
            return Err(Message::new(Key::NetPasswordUnsent, [name]));
        }
        self.say(Message::new(Key::NetPassword, [name]));
        Ok(())
    }

    /// `new <rules> [<clock>] [0|1] [computer<level>] [rated]`: the words after the
    /// rules are told apart by their shape, in any order, each at most once.
    pub(super) fn command_net_new(&mut self, rules: &str, words: &[&str]) -> Outcome {
        let terms = GameWords::read(words, WordsOf::New)?;
        let message = ClientMessage::New {
            rules: rules.to_owned(),
            clock: terms.clock,
            side: terms.side.unwrap_or(0),
            opponent: terms.opponent,
            rated: terms.rated,
        };
        self.net_request(message, Awaited::Game)
    }

    /// `seek <rules> [<clock>] [0|1] [rated] [<lowest>-<highest>]`, and `challenge
    /// <name> <rules> [<clock>] [0|1] [rated]` (`to`): a game posted for others to take,
    /// the side drawn by the server unless given.
    pub(super) fn command_seek(
        &mut self,
        to: Option<&str>,
        rules: &str,
        words: &[&str],
    ) -> Outcome {
        let of = match to {
            Some(_) => WordsOf::Challenge,
            None => WordsOf::Seek,
        };
        let read = GameWords::read(words, of)?;
        let message = ClientMessage::Seek {
            rules: rules.to_owned(),
            clock: read.clock,
            side: read.side,
            rated: read.rated,
            terms: SeekTerms {
                to: to.map(str::to_owned),
                min_rating: read.range.and_then(|range| range.0),
                max_rating: read.range.and_then(|range| range.1),
            },
        };
        self.net_request(message, Awaited::Game)
    }

    /// `rematch [<game>]`: the same game again against the same opponent, sides
    /// swapped; the finished game on the table unless another is named.
    pub(super) fn command_rematch(&mut self, game: Option<&str>) -> Outcome {
        let game = match game {
            Some(word) => parse_game(word)?,
            None => self.table_game()?,
        };
        self.net_request(ClientMessage::Rematch { game }, Awaited::Game)
    }

    /// `ratings <rules> [<page>]`: a page of the leaderboard, the first being 1.
    pub(super) fn command_ratings(&mut self, rules: &str, page: Option<&str>) -> Outcome {
        let page = match page {
            None => 0,
            Some(word) => word
                .parse::<u32>()
                .ok()
                .and_then(|page| page.checked_sub(1))
                .ok_or_else(|| Message::new(Key::NetBadPage, [word]))?,
        };
        let rules = rules.to_owned();
        self.net_request(ClientMessage::Ratings { rules, page }, Awaited::Ratings)
    }

    /// `rating [<name>]`: an account's ratings, one's own without a name.
    pub(super) fn command_rating(&mut self, name: Option<&str>) -> Outcome {
        let account = match name {
            Some(name) => name.to_owned(),
            None => self
                .link_or_error()?
                .account
                .clone()
                .ok_or_else(|| Message::plain(Key::NetWhoseRating))?,
        };
        self.net_request(ClientMessage::Rating { account }, Awaited::Rating)
    }

    /// `upload <file>`: offers a rule file of one's own to the server, to play it with
    /// `new`. The file is read as every file is (no device, no FIFO, no giant) and refused
    /// here, naming it, when the server would refuse it: not text, larger than the wire's
    /// limit, not valid rules, or an `id` or `name` too long or with a hidden character
    /// (the server's own test of them, `hnefatafl_net::text`).
    pub(super) fn command_upload(&mut self, path: &str) -> Outcome {
        self.link_or_error()?;
        let bytes = files::read(Path::new(path))
            .map_err(|error| messages::read_message(&self.language, path, &error))?;
        if bytes.len() > MAX_RULES_TEXT {
            return Err(Message::new(
                Key::NetUploadTooLarge,
                [
                    path.to_owned(),
                    bytes.len().to_string(),
                    MAX_RULES_TEXT.to_string(),
                ],
            ));
        }
        let rules = Rules::parse(&bytes).map_err(|error| {
            messages::rules_message(&Found::File(Path::new(path).to_owned()), &error)
        })?;
        for (keyword, label) in [("id", rules.id()), ("name", rules.name())] {
            if label.chars().count() > MAX_RULES_LABEL {
                return Err(Message::new(
                    Key::NetUploadLabel,
                    [path, keyword, &MAX_RULES_LABEL.to_string()],
                ));
            }
            if let Some(code) = hnefatafl_net::text::first_hidden(label) {
                return Err(Message::new(Key::NetUploadHidden, [path, keyword, &code]));
            }
        }
        let text =
            String::from_utf8(bytes).map_err(|_| Message::new(Key::NetUploadNotText, [path]))?;
        self.uploading = Some(path.to_owned());
        self.net_request(ClientMessage::UploadRules { text }, Awaited::Upload)
    }

    /// `leave`: stops playing or watching the network game here; it goes on on the
    /// server, and `join` or `watch` comes back to it.
    pub(super) fn command_leave(&mut self) -> Outcome {
        let game = self.table_game()?;
        let over = self
            .link
            .as_ref()
            .and_then(|link| link.table.as_ref())
            .is_some_and(|table| table.result.is_some());
        self.leave_table();
        if over {
            self.say(Message::new(Key::NetLeftOver, [game.to_string()]));
        }
        Ok(())
    }

    /// A move at the network game: checked here when it is this side's turn, so that a
    /// bad one is explained at once; the server referees it and the move is played when
    /// it says so (`moved`).
    pub(super) fn net_move(&mut self, words: &[&str]) -> Outcome {
        let (game_id, side) = {
            let Some(table) = self.link.as_ref().and_then(|link| link.table.as_ref()) else {
                return Err(Message::plain(Key::NetNoTable));
            };
            if table.result.is_some() {
                return Err(Message::plain(Key::CmdGameOver));
            }
            let side = table
                .side
                .ok_or_else(|| Message::new(Key::NetWatcher, [table.game.to_string()]))?;
            (table.game, side)
        };
        let mv = self.move_in_game(words)?;
        let game = self.game_or_error()?;
        if game.side_to_move().index() == usize::from(side) {
            let mut trial = game.clone();
            trial.try_play(mv).map_err(|error| {
                messages::move_message(&self.language, game, mv, &error, self.naming())
            })?;
        }
        let number = game.ply() as u32 + 1;
        self.net_request(
            ClientMessage::Move { game: game_id, mv },
            Awaited::Move(number),
        )
    }

    pub(super) fn command_offer(&mut self, kind: OfferKind) -> Outcome {
        let game = self.table_game()?;
        self.net_request(ClientMessage::Offer { game, kind }, Awaited::Offer)
    }

    pub(super) fn command_answer(&mut self, accept: bool) -> Outcome {
        let game = self.table_game()?;
        let link = self.link_or_error()?;
        let kind = link
            .table
            .as_mut()
            .and_then(|table| table.open_offer.take())
            .ok_or_else(|| Message::plain(Key::NetNoOffer))?;
        link.request(
            ClientMessage::Answer { game, kind, accept },
            Awaited::Answer,
        );
        Ok(())
    }

    /// How the network game on the table ended, once it did, with its rules' id.
    pub(super) fn network_result(&self) -> Option<(String, GameResult)> {
        let result = self.link.as_ref()?.table.as_ref()?.result?;
        Some((self.rules_file.clone(), result))
    }

    /// The clocks line of a timed network game.
    pub(super) fn show_clocks(&mut self) {
        let Some(clocks) = self.network_game().and_then(|game| game.clocks) else {
            return;
        };
        let table = self.link.as_ref().and_then(|link| link.table.as_ref());
        let byo_yomi = table.and_then(|table| Some((table.periods?, table.period?)));
        let [first, second] = [0, 1].map(|side| {
            let time = remote::format_clock(clocks[side]);
            match byo_yomi {
                Some((periods, period)) => self.text(&Message::new(
                    Key::NetClockPeriods,
                    [
                        time,
                        periods[side].to_string(),
                        remote::format_seconds(period),
                    ],
                )),
                None => time,
            }
        });
        self.say(Message::new(Key::NetClocks, [first, second]));
    }
}

/// A network game as a front end shows it ([`Session::network_game`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NetworkGame {
    /// The game's number on the server.
    pub game: u64,
    /// This client's seat, 0 or 1; `None` when watching.
    pub side: Option<u8>,
    /// The account at each seat; `None` while the seat is free.
    pub players: [Option<String>; 2],
    /// Each side's time left now, when the game is timed.
    pub clocks: Option<[Duration; 2]>,
    /// Whether the game is over.
    pub over: bool,
}

/// The word of `new` and `seek` that makes a game rated.
const RATED: &str = "rated";

/// Which command's words [`GameWords::read`] reads: each takes some of them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordsOf {
    /// `new`: a computer opponent, no rating range.
    New,
    /// `seek`: a rating range, no opponent.
    Seek,
    /// `challenge`: neither.
    Challenge,
}

/// The words after the rules of `new`, `seek` and `challenge`, told apart by their
/// shape, in any order, each at most once.
#[derive(Default)]
struct GameWords {
    clock: Option<ClockSpec>,
    side: Option<u8>,
    opponent: Option<String>,
    rated: bool,
    /// The lowest and highest rating, either left open.
    range: Option<(Option<i32>, Option<i32>)>,
}

impl GameWords {
    fn read(words: &[&str], of: WordsOf) -> Result<GameWords, Message> {
        let mut read = GameWords::default();
        for &word in words {
            let bad = || {
                let key = match of {
                    WordsOf::New => Key::NetBadNewWord,
                    WordsOf::Seek => Key::NetBadSeekWord,
                    WordsOf::Challenge => Key::NetBadChallengeWord,
                };
                Message::new(key, [word])
            };
            match word {
                "0" | "1" if read.side.is_none() => read.side = Some(u8::from(word == "1")),
                RATED if !read.rated => read.rated = true,
                _ if of == WordsOf::New
                    && word.starts_with(COMPUTER_PREFIX)
                    && read.opponent.is_none() =>
                {
                    read.opponent = Some(word.to_owned());
                }
                // `5+3`, `10+3x30`, `3d`: ClockSpec::parse says which.
                _ if read.clock.is_none()
                    && (word.contains('+')
                        || word.ends_with('d')
                            && word.starts_with(|c: char| c.is_ascii_digit() || c == '.')) =>
                {
                    read.clock = Some(
                        ClockSpec::parse(word)
                            .ok_or_else(|| Message::new(Key::NetBadClock, [word]))?,
                    );
                }
                _ if of == WordsOf::Seek && word.contains('-') && read.range.is_none() => {
                    read.range = Some(
                        rating_range(word).ok_or_else(|| Message::new(Key::NetBadRange, [word]))?,
                    );
                }
                _ => return Err(bad()),
            }
        }
        Ok(read)
    }
}

/// A rating range as typed: `1400-1800`, `1400-` (at least), `-1800` (at most).
fn rating_range(word: &str) -> Option<(Option<i32>, Option<i32>)> {
    let (low, high) = word.split_once('-')?;
    let bound = |text: &str| match text {
        "" => Some(None),
        _ => text.parse::<u16>().ok().map(|value| Some(i32::from(value))),
    };
    let range = (bound(low)?, bound(high)?);
    match range {
        (None, None) => None,
        (Some(low), Some(high)) if low > high => None,
        range => Some(range),
    }
}

/// A game's number as typed: `join 3`.
pub(super) fn parse_game(word: &str) -> Result<u64, Message> {
    word.parse::<u64>()
        .map_err(|_| Message::new(Key::CmdBadNumber, [word]))
}

#[cfg(test)]
mod tests {
    use super::rating_range;

    #[test]
    fn rating_ranges_read_either_end_open() {
        assert_eq!(rating_range("1400-1800"), Some((Some(1400), Some(1800))));
        assert_eq!(rating_range("1400-"), Some((Some(1400), None)));
        assert_eq!(rating_range("-1800"), Some((None, Some(1800))));
        for bad in ["-", "1800-1400", "a-b", "1400", "1-2-3", "99999-"] {
            assert_eq!(rating_range(bad), None, "{bad}");
        }
    }
}
