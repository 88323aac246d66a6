//! Loading and saving: rule and language files, the data directory, saved games.

use std::path::Path;

use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{Game, Rules};

use crate::data::{Found, LookupError, Origin};
use crate::files;
use crate::lang::{Key, Language, Message};
use crate::messages;

use super::{Outcome, PlayerKind, Session, Source};

impl Session {
    pub(super) fn lookup(
        &self,
        kind: &str,
        name: &str,
        origin: Origin,
    ) -> Result<(Found, Vec<u8>), Message> {
        self.dirs
            .read_named(kind, name, origin)
            .map_err(|error| messages::lookup_message(&self.language, name, &error))
    }

    /// Loads a rule file by lookup and starts a new game; on error nothing changes.
    pub fn load_rules(&mut self, name: &str, origin: Origin) -> Outcome {
        if name.is_empty() {
            return Err(Message::new(Key::CmdEmptyName, ["r"]));
        }
        let (found, bytes) = match self.dirs.read_named("rules", name, origin) {
            Ok(read) => read,
            // A name that is nowhere: say which names there are.
            Err(LookupError::NotFound) => {
                let names = crate::data::rule_names().join(", ");
                return Err(Message::new(Key::FrRulesNotFound, [name.to_owned(), names]));
            }
            Err(error) => return Err(messages::lookup_message(&self.language, name, &error)),
        };
        let rules =
            Rules::parse(&bytes).map_err(|error| messages::rules_message(&found, &error))?;
        self.use_rules(rules, name, &found.to_string());
        Ok(())
    }

    /// Starts a new game on rules already read, as `r` does once it has read its file:
    /// `name` is what `r` would be given, `place` where the rules came from (both are
    /// shown and saved). For a program that holds parsed rules and makes many sessions.
    pub fn use_rules(&mut self, rules: Rules, name: &str, place: &str) {
        self.thinker.clear();
        self.say(Message::new(
            Key::RulesLoaded,
            [rules.name().to_owned(), place.to_owned()],
        ));
        self.game = Some(Game::new(rules));
        self.rules_file = name.to_owned();
        self.find_network();
        self.after_move();
    }

    /// Loads a language file by lookup; on error the language stays.
    pub fn load_language(&mut self, name: &str, origin: Origin) -> Outcome {
        if name.is_empty() {
            return Err(Message::new(Key::CmdEmptyName, ["l"]));
        }
        let (found, bytes) = self.lookup("lang", name, origin)?;
        let language = Language::parse(&bytes).map_err(|error| {
            // The line goes before the message, as in every `file:line: message`.
            let reason = error.to_string();
            let reason = error
                .line()
                .and_then(|line| reason.strip_prefix(&format!("line {line}: ")))
                .unwrap_or(&reason)
                .to_owned();
            Message::new(Key::FrLang, [messages::place(&found, error.line()), reason])
        })?;
        self.language = language;
        self.say(Message::new(Key::LangLoaded, [name]));
        Ok(())
    }

    pub(super) fn command_data_dir(&mut self, path: &str) -> Outcome {
        let dir = Path::new(path);
        if !dir.is_dir() {
            return Err(Message::new(Key::FrNotDir, [path]));
        }
        match self.source {
            Source::Rc => self.dirs.rc = Some(dir.to_owned()),
            Source::Stdin | Source::X => self.dirs.user = Some(dir.to_owned()),
        }
        self.say(Message::new(Key::DataDir, [path]));
        Ok(())
    }

    /// Loads a saved game from a path (as given); on error nothing changes. Every
    /// refusal names the file, and the line where there is one.
    pub(crate) fn load_saved(&mut self, path: &str) -> Outcome {
        if path.is_empty() {
            return Err(Message::new(Key::CmdEmptyName, ["e"]));
        }
        let bytes = files::read(Path::new(path))
            .map_err(|error| messages::read_message(&self.language, path, &error))?;
        let refused = |at: String, reason: String| Message::new(Key::FrSave, [at, reason]);
        if crate::otg::is_record(path, &bytes) {
            let current = self.game.as_ref().map(|game| game.rules().clone());
            let game = crate::otg::read(&bytes, current.as_ref())
                .map_err(|reason| refused(path.to_owned(), reason))?;
            let (rules_file, players) = (self.rules_file.clone(), self.players.clone());
            return self.take_loaded(path, game, rules_file, players);
        }
        let parsed = if is_json(path) {
            serde_json::from_slice(&bytes).map_err(|error: serde_json::Error| {
                refused(format!("{path}:{}", error.line()), error.to_string())
            })
        } else {
            SavedGame::parse(&bytes).map_err(|error| match &error {
                hnefatafl_core::save::SaveError::Read { line, message } => {
                    refused(format!("{path}:{line}"), message.clone())
                }
                hnefatafl_core::save::SaveError::Syntax(syntax) => refused(
                    format!("{path}:{}", syntax.line()),
                    syntax.reason().to_owned(),
                ),
                _ => refused(path.to_owned(), error.to_string()),
            })
        };
        let saved = parsed?;
        let mut players = [PlayerKind::Human, PlayerKind::Human];
        for (index, (slot, words)) in players.iter_mut().zip(&saved.players).enumerate() {
            *slot = PlayerKind::from_words(words).map_err(|reason| {
                let at = match player_line(&bytes, index) {
                    Some(line) => format!("{path}:{line}"),
                    None => path.to_owned(),
                };
                refused(at, self.text(&reason))
            })?;
        }
        let rules = match self
            .dirs
            .read_named("rules", &saved.rules_file, Origin::Indirect)
        {
            Ok((found, bytes)) => {
                Rules::parse(&bytes).map_err(|error| messages::rules_message(&found, &error))?
            }
            Err(error) => match &self.game {
                Some(game) if game.rules().id() == saved.rules_id => game.rules().clone(),
                _ => {
                    let reason = match &error {
                        LookupError::NotFound => None,
                        LookupError::File(_, _) => Some(self.text(&messages::lookup_message(
                            &self.language,
                            &saved.rules_file,
                            &error,
                        ))),
                    };
                    return Err(match reason {
                        None => Message::new(
                            Key::FrSaveNoRules,
                            [path.to_owned(), saved.rules_file.clone()],
                        ),
                        Some(reason) => refused(path.to_owned(), reason),
                    });
                }
            },
        };
        if rules.id() != saved.rules_id {
            return Err(Message::new(
                Key::FrSaveRules,
                [
                    path.to_owned(),
                    saved.rules_id.clone(),
                    rules.id().to_owned(),
                ],
            ));
        }
        let game = saved
            .replay(&rules)
            .map_err(|error| refused(path.to_owned(), error.to_string()))?;
        self.take_loaded(path, game, saved.rules_file, players)
    }

    /// A loaded game replaces the current one.
    pub(super) fn take_loaded(
        &mut self,
        path: &str,
        game: Game,
        rules_file: String,
        players: [PlayerKind; 2],
    ) -> Outcome {
        self.thinker.clear();
        let count = game.ply();
        self.game = Some(game);
        self.rules_file = rules_file;
        self.players = players;
        self.find_network();
        let key = if count == 1 {
            Key::LoadedOne
        } else {
            Key::Loaded
        };
        self.say(Message::new(key, [path.to_owned(), count.to_string()]));
        self.after_move();
        Ok(())
    }

    pub(super) fn save(&mut self, path: &str) -> Outcome {
        let game = self.game_or_error()?;
        let players = [self.players[0].words(), self.players[1].words()];
        let text = if crate::otg::is_otg(path) {
            crate::otg::write(game)
                .map_err(|reason| Message::new(Key::FrWrite, [path.to_owned(), reason]))?
        } else {
            let saved = SavedGame::from_game(game, &self.rules_file, players);
            write_saved(path, &saved, game.rules())
        };
        files::write_atomically(Path::new(path), text.as_bytes())
            .map_err(|error| messages::write_message(&self.language, path, &error))?;
        self.say(Message::new(Key::Saved, [path]));
        Ok(())
    }
}

/// Whether a saved game's path names the JSON form (`.json`) rather than the text one.
pub(super) fn is_json(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("json"))
}

/// Writes a saved game in the form its path names.
pub(super) fn write_saved(path: &str, saved: &SavedGame, rules: &Rules) -> String {
    if is_json(path) {
        // A SavedGame is plain strings, numbers and lists: it always serializes.
        let mut text = serde_json::to_string_pretty(saved).unwrap_or_default();
        text.push('\n');
        text
    } else {
        saved.to_text(rules)
    }
}

/// The line of a saved game's `player <index>` record, to name it in an error.
pub(super) fn player_line(text: &[u8], index: usize) -> Option<u32> {
    let wanted = index.to_string();
    gleipnir::parse(text).ok()?.into_iter().find_map(|line| {
        (line.words.first().map(String::as_str) == Some("player")
            && line.words.get(1) == Some(&wanted))
        .then_some(line.number)
    })
}
