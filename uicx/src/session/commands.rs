//! The interpreter's commands, in one table: each command's name, the arguments it
//! takes, the language key of its help line (which begins with its usage), the function
//! that runs it, and what it may do in an rc file and while the computer thinks.
//!
//! The table makes the dispatch ([`Session::dispatch`](super::Session)), the usage
//! message of a command given the wrong arguments, `h` and `h <command>` in every
//! language, and the list of commands at the top of `h` in the X window. Adding a
//! command is one entry here and its help line in each `data/lang` file.

use crate::data::Origin;
use crate::lang::{Key, Message};
use crate::online::protocol::{ClientMessage, OfferKind};
use crate::online::remote::Awaited;

use super::{Action, Outcome, Session, Source};

/// How many arguments a command takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// Exactly this many.
    Exactly(usize),
    /// Between the two, both included.
    Between(usize, usize),
    /// At least this many.
    AtLeast(usize),
    /// None, or at least this many (`p`, `p 1 c 3`).
    NoneOrAtLeast(usize),
}

impl Arity {
    /// Whether `count` arguments fit.
    pub(crate) fn fits(self, count: usize) -> bool {
        match self {
            Arity::Exactly(wanted) => count == wanted,
            Arity::Between(least, most) => (least..=most).contains(&count),
            Arity::AtLeast(least) => count >= least,
            Arity::NoneOrAtLeast(least) => count == 0 || count >= least,
        }
    }
}

/// What a setting given on the command line or in the environment locks: the rc file's
/// command that would change it is ignored (docs/manual.md, "rc files").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lock {
    /// `-e`.
    Saved,
    /// `-d` or `$HNEFATAFL_PATH`.
    Data,
    /// `-l` or `$HNEFATAFL_LANG`.
    Lang,
    /// `-r` or `$HNEFATAFL_RULES`.
    Rules,
}

/// What a command may do when it comes from an rc file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InRc {
    /// It runs.
    Runs,
    /// It is refused (it writes a file the user did not name at the prompt).
    Forbidden,
    /// It is ignored when the argument or environment locks what it changes.
    Unless(Lock),
}

/// How a command typed while the computer thinks is handled (the command line's queue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WhileThinking {
    /// It runs at once, even behind queued commands (`f`, `q`).
    Now,
    /// It runs at once when nothing is queued; behind queued commands it makes the
    /// search move now and waits its turn (`u`, `n`).
    StopsSearch,
    /// It runs at once when nothing is queued, else in order.
    WhenNothingQueued,
    /// It waits for the computer's move, so that scripts run in order.
    Waits,
}

/// Which commands a command only reads with: at a terminal they answer at once while
/// the computer thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reads {
    /// It changes something.
    Never,
    /// It only reads, whatever its arguments.
    Always,
    /// It only reads when given no arguments (`b`, `p`).
    Bare,
}

/// Where a command belongs, for the short list at the top of `h` in the X window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// The game at hand, its files and the program.
    Local,
    /// A game on a server.
    Network,
}

/// One command of the interpreter.
pub(crate) struct Command {
    /// What is typed.
    pub(crate) name: &'static str,
    /// The arguments it takes; others get the usage message.
    pub(crate) arity: Arity,
    /// Its help line, which begins with its usage (`m <from> <to>   move: ...`).
    pub(crate) help: Key,
    /// Runs it, with its arguments.
    pub(crate) run: fn(&mut Session, &[&str]) -> Outcome,
    /// In an rc file.
    pub(crate) in_rc: InRc,
    /// While the computer thinks.
    pub(crate) while_thinking: WhileThinking,
    /// Whether it only reads.
    pub(crate) reads: Reads,
    /// Whether an empty word as its one argument is refused (a file or theme name).
    pub(crate) names_something: bool,
    /// Whether it leaves the network game on the table first: a local game replaces it.
    pub(crate) leaves_table: bool,
    /// Where it belongs.
    pub(crate) group: Group,
}

impl Command {
    /// Whether it only reads when given `count` arguments.
    pub(crate) fn reads_only(&self, count: usize) -> bool {
        match self.reads {
            Reads::Never => false,
            Reads::Always => true,
            Reads::Bare => count == 0,
        }
    }
}

/// A command that changes the game at hand and waits while the computer thinks; the
/// other fields are set where they differ.
const fn local(
    name: &'static str,
    arity: Arity,
    help: Key,
    run: fn(&mut Session, &[&str]) -> Outcome,
) -> Command {
    Command {
        name,
        arity,
        help,
        run,
        in_rc: InRc::Runs,
        while_thinking: WhileThinking::Waits,
        reads: Reads::Never,
        names_something: false,
        leaves_table: false,
        group: Group::Local,
    }
}

/// A command of the network game.
const fn network(
    name: &'static str,
    arity: Arity,
    help: Key,
    run: fn(&mut Session, &[&str]) -> Outcome,
) -> Command {
    Command {
        group: Group::Network,
        ..local(name, arity, help, run)
    }
}

/// Every command, in the order `h` lists them.
pub(crate) static COMMANDS: [Command; 43] = [
    Command {
        reads: Reads::Always,
        ..local("h", Arity::Between(0, 1), Key::HelpCmdH, |session, args| {
            session.help(args.first().copied())
        })
    },
    local(
        "m",
        Arity::AtLeast(1),
        Key::HelpCmdM,
        |session, args| match session.at_table() {
            true => session.net_move(args),
            false => session.command_move(args),
        },
    ),
    Command {
        reads: Reads::Bare,
        ..local("b", Arity::Exactly(0), Key::HelpCmdB, |session, _| {
            session.command_board()
        })
    },
    Command {
        reads: Reads::Bare,
        while_thinking: WhileThinking::WhenNothingQueued,
        ..local(
            "p",
            Arity::NoneOrAtLeast(2),
            Key::HelpCmdP,
            |session, args| match args {
                [player, kind, limits @ ..] => session.command_player(player, kind, limits),
                _ => {
                    session.list_players();
                    Ok(())
                }
            },
        )
    },
    Command {
        while_thinking: WhileThinking::Now,
        ..local("f", Arity::Exactly(0), Key::HelpCmdF, |session, _| {
            session.command_force()
        })
    },
    local("a", Arity::AtLeast(0), Key::HelpCmdA, |session, args| {
        session.command_analyse(args)
    }),
    local(
        "live",
        Arity::AtLeast(0),
        Key::HelpCmdLive,
        |session, args| session.command_live(args),
    ),
    Command {
        while_thinking: WhileThinking::Now,
        ..local("s", Arity::Exactly(0), Key::HelpCmdS, |session, _| {
            session.command_stop_analysis()
        })
    },
    Command {
        names_something: true,
        ..local(
            "review",
            Arity::AtLeast(0),
            Key::HelpCmdReview,
            |session, args| session.command_review(args),
        )
    },
    Command {
        while_thinking: WhileThinking::StopsSearch,
        ..local(
            "u",
            Arity::Between(0, 1),
            Key::HelpCmdU,
            |session, args| match (args.first(), session.at_table()) {
                (None, true) => session.command_offer(OfferKind::Undo),
                (count, _) => session.command_undo(count.copied()),
            },
        )
    },
    Command {
        while_thinking: WhileThinking::StopsSearch,
        leaves_table: true,
        ..local("n", Arity::Exactly(0), Key::HelpCmdN, |session, _| {
            session.command_new()
        })
    },
    Command {
        in_rc: InRc::Unless(Lock::Rules),
        names_something: true,
        leaves_table: true,
        ..local("r", Arity::Exactly(1), Key::HelpCmdR, |session, args| {
            let origin = session.origin();
            session.load_rules(args[0], origin)
        })
    },
    Command {
        in_rc: InRc::Unless(Lock::Lang),
        while_thinking: WhileThinking::WhenNothingQueued,
        names_something: true,
        ..local("l", Arity::Exactly(1), Key::HelpCmdL, |session, args| {
            let origin = session.origin();
            session.load_language(args[0], origin)
        })
    },
    Command {
        in_rc: InRc::Unless(Lock::Data),
        while_thinking: WhileThinking::WhenNothingQueued,
        names_something: true,
        ..local("d", Arity::Exactly(1), Key::HelpCmdD, |session, args| {
            session.command_data_dir(args[0])
        })
    },
    Command {
        in_rc: InRc::Unless(Lock::Saved),
        names_something: true,
        leaves_table: true,
        ..local("e", Arity::Exactly(1), Key::HelpCmdE, |session, args| {
            session.load_saved(args[0])
        })
    },
    Command {
        in_rc: InRc::Forbidden,
        while_thinking: WhileThinking::WhenNothingQueued,
        names_something: true,
        ..local("w", Arity::Exactly(1), Key::HelpCmdW, |session, args| {
            session.save(args[0])
        })
    },
    Command {
        names_something: true,
        ..local("x", Arity::Between(0, 1), Key::HelpCmdX, |session, args| {
            session.command_x(args.first().copied())
        })
    },
    Command {
        while_thinking: WhileThinking::Now,
        ..local("q", Arity::Exactly(0), Key::HelpCmdQ, |session, _| {
            session.action = Action::Quit;
            Ok(())
        })
    },
    network("c", Arity::Between(0, 1), Key::HelpCmdC, |session, args| {
        session.command_connect(args.first().copied())
    }),
    network(
        super::ACCOUNT_LOGIN,
        Arity::Exactly(1),
        Key::HelpCmdLogin,
        |session, args| session.command_account(args[0], false),
    ),
    network(
        super::ACCOUNT_REGISTER,
        Arity::Exactly(1),
        Key::HelpCmdRegister,
        |session, args| session.command_account(args[0], true),
    ),
    network(
        "games",
        Arity::Exactly(0),
        Key::HelpCmdGames,
        |session, _| session.net_request(ClientMessage::Games, Awaited::Games),
    ),
    network(
        "new",
        Arity::Between(1, 5),
        Key::HelpCmdNew,
        |session, args| session.command_net_new(args[0], &args[1..]),
    ),
    network(
        "join",
        Arity::Exactly(1),
        Key::HelpCmdJoin,
        |session, args| {
            let game = super::parse_game(args[0])?;
            session.net_request(ClientMessage::Join { game }, Awaited::Game)
        },
    ),
    network(
        "watch",
        Arity::Exactly(1),
        Key::HelpCmdWatch,
        |session, args| {
            let game = super::parse_game(args[0])?;
            session.net_request(ClientMessage::Watch { game }, Awaited::Game)
        },
    ),
    network(
        "say",
        Arity::AtLeast(1),
        Key::HelpCmdSay,
        |session, args| {
            let game = session.table_game()?;
            let text = args.join(" ");
            session.net_request(ClientMessage::Say { game, text }, Awaited::Say)
        },
    ),
    network("draw", Arity::Exactly(0), Key::HelpCmdDraw, |session, _| {
        session.command_offer(OfferKind::Draw)
    }),
    network(
        "accept",
        Arity::Exactly(0),
        Key::HelpCmdAccept,
        |session, _| session.command_answer(true),
    ),
    network(
        "decline",
        Arity::Exactly(0),
        Key::HelpCmdDecline,
        |session, _| session.command_answer(false),
    ),
    network(
        "resign",
        Arity::Exactly(0),
        Key::HelpCmdResign,
        |session, _| {
            let game = session.table_game()?;
            session.net_request(ClientMessage::Resign { game }, Awaited::Resign)
        },
    ),
    network(
        "archive",
        Arity::Exactly(0),
        Key::HelpCmdArchive,
        |session, _| session.net_request(ClientMessage::Archive, Awaited::Archive),
    ),
    Command {
        // `fetch player` writes files whose names the user did not type.
        in_rc: InRc::Forbidden,
        ..network(
            "fetch",
            Arity::Between(2, 3),
            Key::HelpCmdFetch,
            |session, args| session.command_fetch(args),
        )
    },
    network(
        "ratings",
        Arity::Between(1, 2),
        Key::HelpCmdRatings,
        |session, args| session.command_ratings(args[0], args.get(1).copied()),
    ),
    network(
        "rating",
        Arity::Between(0, 1),
        Key::HelpCmdRating,
        |session, args| session.command_rating(args.first().copied()),
    ),
    network(
        "rules",
        Arity::Exactly(0),
        Key::HelpCmdRules,
        |session, _| session.net_request(ClientMessage::Rules, Awaited::Rules),
    ),
    Command {
        names_something: true,
        ..network(
            "upload",
            Arity::Exactly(1),
            Key::HelpCmdUpload,
            |session, args| session.command_upload(args[0]),
        )
    },
    network(
        "leave",
        Arity::Exactly(0),
        Key::HelpCmdLeave,
        |session, _| session.command_leave(),
    ),
    network(
        "seek",
        Arity::Between(1, 5),
        Key::HelpCmdSeek,
        |session, args| session.command_seek(None, args[0], &args[1..]),
    ),
    network(
        "challenge",
        Arity::Between(2, 5),
        Key::HelpCmdChallenge,
        |session, args| session.command_seek(Some(args[0]), args[1], &args[2..]),
    ),
    network(
        "rematch",
        Arity::Between(0, 1),
        Key::HelpCmdRematch,
        |session, args| session.command_rematch(args.first().copied()),
    ),
    network(
        "tournament",
        Arity::AtLeast(0),
        Key::HelpCmdTournament,
        |session, args| session.command_tournament(args),
    ),
    network(
        "chatlog",
        Arity::Between(0, 1),
        Key::HelpCmdChatlog,
        |session, args| session.command_chatlog(args),
    ),
    network(
        "mod",
        Arity::AtLeast(1),
        Key::HelpCmdMod,
        |session, args| session.command_mod(args),
    ),
];

/// The command named `name`.
pub(crate) fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|command| command.name == name)
}

/// The names of the commands of a group, as the X window's `h` lists them: `h m b p ...`.
pub(crate) fn names(group: Group) -> String {
    let names: Vec<&str> = COMMANDS
        .iter()
        .filter(|command| command.group == group)
        .map(|command| command.name)
        .collect();
    names.join(" ")
}

impl Session {
    /// Where a file named by the command at hand is looked up from: an rc file's names
    /// are indirect (docs/manual.md, "rc files").
    fn origin(&self) -> Origin {
        match self.source {
            Source::Rc => Origin::Indirect,
            Source::Stdin | Source::X => Origin::Typed,
        }
    }

    /// Runs one command, its name first, through the table.
    pub(super) fn dispatch(&mut self, words: &[String]) -> Outcome {
        let Some((name, args)) = words.split_first() else {
            return Ok(());
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let Some(command) = find(name) else {
            return Err(match name.as_str() {
                "" => Message::plain(Key::CmdEmptyCommand),
                _ => Message::new(Key::CmdUnknown, [name.as_str()]),
            });
        };
        if self.source == Source::Rc {
            match command.in_rc {
                InRc::Runs => {}
                InRc::Forbidden => return Err(Message::new(Key::CmdRcForbidden, [name.as_str()])),
                InRc::Unless(lock) => {
                    let locked = match lock {
                        Lock::Saved => self.locks.saved,
                        Lock::Data => self.locks.data,
                        Lock::Lang => self.locks.lang,
                        Lock::Rules => self.locks.rules,
                    };
                    if locked {
                        self.say(Message::new(Key::CmdRcIgnored, [name.as_str()]));
                        return Ok(());
                    }
                }
            }
        }
        if command.names_something && args == [""] {
            return Err(Message::new(Key::CmdEmptyName, [name.as_str()]));
        }
        if command.leaves_table && self.at_table() {
            // A local game replaces the network one, which goes on on the server.
            self.leave_table();
        }
        if !command.arity.fits(args.len()) {
            return Err(Message::new(Key::CmdUsage, [name.as_str()]));
        }
        (command.run)(self, &args)
    }

    /// `h`: every command's help line, or one command's (`h m`).
    fn help(&mut self, topic: Option<&str>) -> Outcome {
        let frontend = self.source.frontend();
        match topic {
            Some(topic) => {
                let command =
                    find(topic).ok_or_else(|| Message::new(Key::CmdNoSuchCommand, [topic]))?;
                self.say(Message::plain(command.help));
                if topic == "b" && frontend.board_as_text() {
                    self.say(Message::plain(Key::HelpBoard));
                }
                if ["a", "live", "review"].contains(&command.name) {
                    self.say(Message::plain(Key::HelpWinChance));
                }
            }
            None => {
                self.say(frontend.help_intro());
                for command in &COMMANDS {
                    self.say(Message::plain(command.help));
                }
                self.say(Message::plain(frontend.help_outro()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::DataDirs;
    use crate::lang::Language;
    use crate::session::Locks;

    fn language(name: &str) -> Language {
        let bytes = crate::data::embedded(&format!("lang/{name}")).expect("a shipped language");
        Language::parse(bytes).expect("the shipped language parses")
    }

    #[test]
    fn every_command_has_help_in_each_language() {
        for name in ["eng", "swe"] {
            let language = language(name);
            for command in &COMMANDS {
                let help = language.text(&Message::plain(command.help));
                assert!(
                    help.starts_with(command.name),
                    "{name}: the help of `{}` reads {help:?}",
                    command.name
                );
            }
        }
    }

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for command in &COMMANDS {
            assert!(seen.insert(command.name), "`{}` twice", command.name);
        }
    }

    /// Each command, given arguments its arity refuses, gets its usage message; given
    /// ones it takes, it reaches its own function, whose answer is never the usage or
    /// the unknown-command message.
    #[test]
    fn dispatch_reaches_every_command() {
        let dirs = DataDirs::default();
        for command in &COMMANDS {
            let mut session = Session::new(dirs.clone(), Locks::default());
            let usage = session.text(&Message::new(Key::CmdUsage, [command.name]));
            let unknown = session.text(&Message::new(Key::CmdUnknown, [command.name]));
            let wrong = (0..4).find(|&count| !command.arity.fits(count));
            if let Some(count) = wrong {
                let mut words = vec![command.name.to_owned()];
                words.extend((0..count).map(|_| "9".to_owned()));
                let reply = session.run_command(&words, Source::Stdin);
                assert_eq!(reply.lines.last(), Some(&usage), "{words:?}");
            }
            let right = (0..4)
                .find(|&count| command.arity.fits(count))
                .expect("some arity");
            if command.name == "q" || command.name == "x" || command.name == "c" {
                // Quitting, opening the window and connecting act outside the session.
                continue;
            }
            let mut words = vec![command.name.to_owned()];
            words.extend((0..right).map(|_| "9".to_owned()));
            let reply = session.run_command(&words, Source::Stdin);
            for line in &reply.lines {
                assert_ne!(line, &usage, "{words:?}");
                assert_ne!(line, &unknown, "{words:?}");
            }
        }
    }

    #[test]
    fn help_lists_every_command() {
        let mut session = Session::new(DataDirs::default(), Locks::default());
        session.language = language("eng");
        let reply = session.run_command(&["h".to_owned()], Source::Stdin);
        let english = language("eng");
        for command in &COMMANDS {
            let line = english.text(&Message::plain(command.help));
            assert!(reply.lines.contains(&line), "`h` lacks {line:?}");
        }
    }

    #[test]
    fn the_window_lists_the_local_commands() {
        assert_eq!(
            names(Group::Local),
            "h m b p f a live s review u n r l d e w x q"
        );
    }
}
