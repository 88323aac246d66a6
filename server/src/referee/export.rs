//! A finished game's record, in the saved-game text the engine replays or as an OpenTafl
//! record (OTN, core's writer): one game (`fetch`), or an account's finished games in
//! pages bounded by bytes (`fetch_player`).

use hnefatafl_core::otn::{GameRecord, Roles};
use hnefatafl_core::save::SavedGame;
use hnefatafl_net::protocol::{
    self, GameId, RECORDS_BYTES, RECORDS_PAGE, Record, RecordFormat, ServerMessage,
};

use super::{ConnectionId, LiveGame, State};

/// An OTN tag's value: its brackets would end the tag.
fn tag_value(text: &str) -> String {
    text.chars().filter(|&c| c != '[' && c != ']').collect()
}

impl State {
    /// The rules' file name (shipped) or id (uploaded), as a saved game names them.
    fn rules_file(&self, live: &LiveGame) -> String {
        let set = &self.rules[&live.rules_hash];
        if set.info.file.is_empty() {
            set.info.id.clone()
        } else {
            set.info.file.clone()
        }
    }

    /// The saved-game text of a game, with a comment that names its players and end.
    fn saved_text(&self, live: &LiveGame) -> String {
        let kinds = live.players.clone().map(|player| match player {
            Some(name) => match self.computers.get(&name) {
                Some(level) => vec!["computer".to_owned(), level.to_string()],
                None => vec!["human".to_owned()],
            },
            None => vec!["human".to_owned()],
        });
        let saved = SavedGame::from_game(&live.game, &self.rules_file(live), kinds);
        let mut text = saved.to_text(live.game.rules());
        let names = live.players.clone().map(|p| p.unwrap_or_default());
        let result = live.result.map(|r| match r.winner {
            Some(winner) => format!("player {winner} won ({})", r.reason),
            None => format!("draw ({})", r.reason),
        });
        let note = format!(
            "# server game {}: {} (player 0) against {} (player 1), {}\n",
            live.id,
            names[0],
            names[1],
            result.unwrap_or_default()
        );
        let first_line_end = text.find('\n').map_or(text.len(), |end| end + 1);
        text.insert_str(first_line_end, &note);
        text
    }

    /// The OTN record of a game: its variant, the players of each side and how it ended
    /// as tags, then the rules string and the moves.
    fn otn_text(live: &LiveGame) -> Result<String, String> {
        let rules = live.game.rules();
        let roles = Roles::of(rules).map_err(|error| format!("game {}: {error}", live.id))?;
        let attackers = roles.attackers.index();
        let name = |side: usize| live.players[side].clone().unwrap_or_default();
        let mut tags = vec![
            ("variant".to_owned(), tag_value(rules.name())),
            (
                "site".to_owned(),
                format!("hnefataflserver game {}", live.id),
            ),
            ("attackers".to_owned(), name(attackers)),
            ("defenders".to_owned(), name(1 - attackers)),
        ];
        if let Some(result) = live.result {
            tags.push((
                "termination".to_owned(),
                tag_value(&result.reason.to_string()),
            ));
        }
        let record = GameRecord::from_game(&live.game, tags)
            .map_err(|error| format!("game {} cannot be written as OTN: {error}", live.id))?;
        Ok(record.to_text())
    }

    /// A finished game's record in `format`.
    fn record_text(&self, live: &LiveGame, format: RecordFormat) -> Result<String, String> {
        match format {
            RecordFormat::Saved => Ok(self.saved_text(live)),
            RecordFormat::Otn => Self::otn_text(live),
        }
    }

    /// Sends a finished game's record.
    pub(super) fn fetch(
        &mut self,
        id: ConnectionId,
        game: GameId,
        format: RecordFormat,
    ) -> Result<(), String> {
        let live = self.finished_game(game)?;
        let text = self.record_text(live, format)?;
        let rules_file = self.rules_file(live);
        self.send(
            id,
            &ServerMessage::SavedGame {
                game,
                rules_file,
                text,
                format,
            },
        );
        Ok(())
    }

    /// Sends a page of an account's finished games' records (its seat's name as written,
    /// without regard to case), oldest first, after game `after`: as many as fit in
    /// [`RECORDS_BYTES`], at most [`RECORDS_PAGE`].
    pub(super) fn fetch_player(
        &mut self,
        id: ConnectionId,
        account: &str,
        format: RecordFormat,
        after: Option<GameId>,
    ) -> Result<(), String> {
        if !super::valid_name(account) {
            return Err(format!("`{account}` is not an account's name"));
        }
        let wanted = account.to_ascii_lowercase();
        let mut games = self
            .games
            .range(after.map_or(0, |after| after.saturating_add(1))..)
            .map(|(_, live)| live)
            .filter(|live| live.result.is_some())
            .filter(|live| {
                live.players
                    .iter()
                    .flatten()
                    .any(|name| name.to_ascii_lowercase() == wanted)
            })
            .peekable();
        let (mut records, mut left_out, mut bytes) = (Vec::new(), Vec::new(), 0);
        while let Some(live) = games.peek() {
            if records.len() + left_out.len() == RECORDS_PAGE {
                break;
            }
            // A game OTN cannot write is left out, as one too long is: the others come.
            let text = self.record_text(live, format).unwrap_or_default();
            let size = protocol::sent_len(&text);
            if text.is_empty() || size > RECORDS_BYTES {
                left_out.push(live.id);
            } else if bytes + size > RECORDS_BYTES {
                break;
            } else {
                bytes += size;
                records.push(Record {
                    game: live.id,
                    text,
                });
            }
            games.next();
        }
        let more = games.peek().is_some();
        let message = ServerMessage::PlayerRecords {
            account: account.to_owned(),
            format,
            records,
            left_out,
            more,
        };
        self.send(id, &message);
        Ok(())
    }
}
