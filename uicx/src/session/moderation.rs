//! The moderators' command `mod`, `chatlog`, and `fetch` of a finished game or of a
//! player's whole archive, in either format, with what the server answers them.

use std::path::Path;

use crate::files;
use crate::lang::{Key, Message};
use crate::messages;
use crate::online::protocol::{
    ChatLine, ClientMessage, GameId, ModAction, ModLogEntry, Record, RecordFormat,
};
use crate::online::remote::Awaited;

use super::parse_game;
use super::{Outcome, Session};

/// Makes an action on the account it is given.
type OnAccount = fn(String) -> ModAction;

/// The words of `mod`'s actions on an account, and the action each makes.
const ACCOUNT_ACTIONS: [(&str, OnAccount); 6] = [
    ("promote", |account| ModAction::Promote { account }),
    ("demote", |account| ModAction::Demote { account }),
    ("unmute", |account| ModAction::Unmute { account }),
    ("kick", |account| ModAction::Kick { account }),
    ("ban", |account| ModAction::Ban { account }),
    ("unban", |account| ModAction::Unban { account }),
];

/// Reads a time as `mod mute` takes it: a whole number and its unit, `30s`, `10m`, `2h`
/// or `7d`; answers seconds.
fn duration_seconds(word: &str) -> Option<u64> {
    let unit = word.chars().last()?;
    let scale = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3_600,
        'd' => 86_400,
        _ => return None,
    };
    let count: u64 = word[..word.len() - 1].parse().ok()?;
    count.checked_mul(scale)
}

/// The words after an action's own, as its reason; none when there are none.
fn reason(words: &[&str]) -> Option<String> {
    (!words.is_empty()).then(|| words.join(" "))
}

/// The action and reason `mod <words>` asks for; `None` when the words are not one.
fn mod_action(words: &[&str]) -> Option<(ModAction, Option<String>)> {
    let (&verb, rest) = words.split_first()?;
    if let Some((_, make)) = ACCOUNT_ACTIONS.iter().find(|(word, _)| *word == verb) {
        let (account, rest) = rest.split_first()?;
        return Some((make((*account).to_owned()), reason(rest)));
    }
    let action = match (verb, rest) {
        ("mute", [account, rest @ ..]) => {
            let seconds = rest.first().and_then(|word| duration_seconds(word));
            let rest = if seconds.is_some() { &rest[1..] } else { rest };
            let account = (*account).to_owned();
            return Some((ModAction::Mute { account, seconds }, reason(rest)));
        }
        ("banip", [address, rest @ ..]) => (
            ModAction::BanAddress {
                address: (*address).to_owned(),
            },
            rest,
        ),
        ("unbanip", [address, rest @ ..]) => (
            ModAction::UnbanAddress {
                address: (*address).to_owned(),
            },
            rest,
        ),
        ("hide", [game, line, rest @ ..]) => (
            ModAction::Hide {
                game: game.parse().ok()?,
                line: line.parse().ok()?,
            },
            rest,
        ),
        ("abort", [game, rest @ ..]) => (
            ModAction::Abort {
                game: game.parse().ok()?,
            },
            rest,
        ),
        _ => return None,
    };
    Some((action.0, reason(action.1)))
}

/// An action as `mod` is typed to do it (the log shows it so).
fn action_words(action: &ModAction) -> String {
    let named = ACCOUNT_ACTIONS.iter().find_map(|(word, make)| {
        let account = action.account()?;
        (make(account.to_owned()) == *action).then(|| format!("{word} {account}"))
    });
    if let Some(named) = named {
        return named;
    }
    match action {
        ModAction::Mute {
            account,
            seconds: Some(seconds),
        } => format!("mute {account} {seconds}s"),
        ModAction::Mute { account, .. } => format!("mute {account}"),
        ModAction::BanAddress { address } => format!("banip {address}"),
        ModAction::UnbanAddress { address } => format!("unbanip {address}"),
        ModAction::Hide { game, line } => format!("hide {game} {line}"),
        ModAction::Abort { game } => format!("abort {game}"),
        other => format!("{other:?}"),
    }
}

impl Session {
    /// `fetch <n> <path>`, `fetch <n> otn [<path>]`, `fetch player <name> [otn]`.
    pub(super) fn command_fetch(&mut self, args: &[&str]) -> Outcome {
        let bad = || Message::new(Key::NetBadFetch, [args.join(" ")]);
        let (request, awaited) = match args {
            ["player", account, format @ ..] => {
                let format = match format {
                    [] => RecordFormat::Saved,
                    ["otn"] => RecordFormat::Otn,
                    _ => return Err(bad()),
                };
                let account = (*account).to_owned();
                let request = ClientMessage::FetchPlayer {
                    account: account.clone(),
                    format,
                    after: None,
                };
                let awaited = Awaited::FetchPlayer {
                    account,
                    format,
                    written: Vec::new(),
                };
                (request, awaited)
            }
            [game, "otn", path @ ..] if path.len() <= 1 => {
                let game = parse_game(game)?;
                let path = path
                    .first()
                    .map_or_else(|| format!("game-{game}.otn"), |path| (*path).to_owned());
                let format = RecordFormat::Otn;
                (ClientMessage::Fetch { game, format }, Awaited::Fetch(path))
            }
            [game, path] => {
                let game = parse_game(game)?;
                let format = RecordFormat::Saved;
                let request = ClientMessage::Fetch { game, format };
                (request, Awaited::Fetch((*path).to_owned()))
            }
            _ => return Err(bad()),
        };
        self.net_request(request, awaited)
    }

    /// `mod <action> ...` and `mod log [<page>]`.
    pub(super) fn command_mod(&mut self, args: &[&str]) -> Outcome {
        if let ["log", page @ ..] = args {
            let page = match page {
                [] => 0,
                [word] => word
                    .parse::<u32>()
                    .ok()
                    .and_then(|page| page.checked_sub(1))
                    .ok_or_else(|| Message::new(Key::NetBadPage, [*word]))?,
                _ => return Err(Message::new(Key::NetBadMod, [args.join(" ")])),
            };
            return self.net_request(
                ClientMessage::ModerationLog { page },
                Awaited::ModerationLog,
            );
        }
        let (action, reason) =
            mod_action(args).ok_or_else(|| Message::new(Key::NetBadMod, [args.join(" ")]))?;
        self.net_request(
            ClientMessage::Moderate { action, reason },
            Awaited::Moderate,
        )
    }

    /// `chatlog [<n>]`: the chat lines the server keeps of the game here, or of game n.
    pub(super) fn command_chatlog(&mut self, args: &[&str]) -> Outcome {
        let game = match args.first() {
            Some(word) => parse_game(word)?,
            None => self.table_game()?,
        };
        self.net_request(ClientMessage::ChatLog { game }, Awaited::ChatLog)
    }

    /// One entry of the moderation log, in words.
    fn entry_words(entry: &ModLogEntry) -> [String; 5] {
        [
            entry.number.to_string(),
            super::server_says::utc_minute(entry.at_ms),
            entry.by.clone(),
            action_words(&entry.action),
            entry
                .reason
                .as_ref()
                .map_or_else(String::new, |reason| format!(" ({reason})")),
        ]
    }

    /// A moderator's action was done.
    pub(super) fn show_moderated(&mut self, entry: &ModLogEntry) {
        self.say(Message::new(Key::NetModerated, Self::entry_words(entry)));
    }

    /// A page of the moderation log.
    pub(super) fn show_moderation_log(&mut self, page: u32, entries: &[ModLogEntry]) {
        let page = (page + 1).to_string();
        if entries.is_empty() {
            return self.say(Message::new(Key::NetModLogEmpty, [page]));
        }
        self.say(Message::new(Key::NetModLog, [page]));
        for entry in entries {
            self.say(Message::new(Key::NetModLogLine, Self::entry_words(entry)));
        }
    }

    /// A page of a game's kept chat lines, with their numbers (`mod hide` takes them).
    pub(super) fn show_chat_lines(&mut self, game: GameId, lines: &[ChatLine], first: bool) {
        if first && lines.is_empty() {
            return self.say(Message::new(Key::NetChatLogEmpty, [game.to_string()]));
        }
        for line in lines {
            let words = [line.line.to_string(), line.from.clone(), line.text.clone()];
            self.say(Message::new(Key::NetChatLogLine, words));
        }
    }

    /// A page of a player's records: each written to `<name>-<game>.<txt|otn>` here; the
    /// next page asked for while there are more, and the files named after the last.
    pub(super) fn take_records(
        &mut self,
        records: &[Record],
        left_out: &[GameId],
        more: bool,
        answered: Option<Awaited>,
    ) {
        let Some(Awaited::FetchPlayer {
            account,
            format,
            mut written,
        }) = answered
        else {
            return;
        };
        for record in records {
            let path = format!("{account}-{}.{}", record.game, format.extension());
            match files::write_atomically(Path::new(&path), record.text.as_bytes()) {
                Ok(()) => written.push(path),
                Err(error) => {
                    let message = messages::write_message(&self.language, &path, &error);
                    self.say(message);
                }
            }
        }
        for game in left_out {
            self.say(Message::new(Key::NetRecordLeftOut, [game.to_string()]));
        }
        let last = records
            .iter()
            .map(|r| r.game)
            .chain(left_out.iter().copied())
            .max();
        if let (true, Some(after)) = (more, last) {
            let request = ClientMessage::FetchPlayer {
                account: account.clone(),
                format,
                after: Some(after),
            };
            let awaited = Awaited::FetchPlayer {
                account,
                format,
                written,
            };
            let _ = self.net_request(request, awaited);
        } else if written.is_empty() {
            self.say(Message::new(Key::NetFetchedNone, [account]));
        } else {
            let count = written.len().to_string();
            self.say(Message::new(
                Key::NetFetchedPlayer,
                [count, account, written.join(", ")],
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_words_make_the_actions_and_the_log_shows_them_as_typed() {
        for typed in [
            "promote ann",
            "mute bob 600s",
            "mute bob",
            "kick eve",
            "ban eve",
            "banip 203.0.113.0/24",
            "unbanip 127.0.0.2",
            "hide 3 7",
            "abort 12",
        ] {
            let words: Vec<&str> = typed.split(' ').collect();
            let (action, reason) = mod_action(&words).expect(typed);
            assert_eq!(reason, None);
            assert_eq!(action_words(&action), typed);
        }
        let words = ["mute", "bob", "10m", "shouting", "again"];
        let (action, reason) = mod_action(&words).expect("a mute");
        assert_eq!(
            action,
            ModAction::Mute {
                account: "bob".into(),
                seconds: Some(600)
            }
        );
        assert_eq!(reason.as_deref(), Some("shouting again"));
        for bad in [&["dance", "bob"][..], &["ban"], &["hide", "x", "1"], &[]] {
            assert_eq!(mod_action(bad), None, "{bad:?}");
        }
        assert_eq!(duration_seconds("2h"), Some(7_200));
        assert_eq!(duration_seconds("h"), None);
        assert_eq!(duration_seconds("5"), None);
    }
}
