//! The X window as a front end of the interpreter: [`Host`] shows a [`Session`] to the
//! window through [`XHost`], and [`run`] opens the window and runs it until it closes.
//!
//! This is the only place where the interpreter and the X module meet; the session
//! itself knows no window.

use hnefatafl_core::{Game, Player};

use crate::lang::{Key, Message};
use crate::session::ReviewShown;
use crate::session::{Action, PlayerKind, Session, Source};
use crate::x11::{
    self, BoardView, Flow, ReviewGraph, ReviewMark, Role, Waker, XExit, XHost, XOptions,
};

/// A session as the window sees it.
pub struct Host<'a> {
    session: &'a mut Session,
}

impl<'a> Host<'a> {
    /// Shows this session to a window.
    pub fn new(session: &'a mut Session) -> Host<'a> {
        Host { session }
    }
}

/// Opens the X window on the session and runs it until it closes; `Err` is the FRX
/// message. Afterwards the session takes commands from standard input again, and the
/// search thread calls what it called before.
pub fn run(session: &mut Session, theme: Option<String>) -> Result<XExit, Message> {
    let options = XOptions {
        theme,
        latin1: session.latin1(),
    };
    let notify = session.notify();
    let result = x11::run(&mut Host::new(session), &options);
    session.left_window(notify);
    result.map_err(|error| Message::new(Key::Frx, [error.to_string()]))
}

fn view_of(session: &Session, game: &Game) -> BoardView {
    let mut view = x11::view::board_view(game);
    let thinking = session
        .thinking_fraction()
        .filter(|_| game.outcome().is_none());
    view.status = match thinking {
        Some(_) => {
            let side = game.side_to_move().index().to_string();
            session.text(&Message::new(Key::Thinking, [side]))
        }
        None => session.status(),
    };
    view.thinking = thinking;
    view.sides =
        Player::BOTH.map(|player| side_label(session, player, view.roles[player.index()], false));
    view.sides_short =
        Player::BOTH.map(|player| side_label(session, player, view.roles[player.index()], true));
    // A network game may end by its server's word (a resignation, the time, an agreed
    // draw) with no end on the board; there `n` and `u` do not go on.
    let network = session.network_game();
    view.game_over = match &network {
        Some(network) if network.over || game.outcome().is_some() => {
            Some(session.language().get(Key::XGameOverNetwork))
        }
        Some(_) => None,
        None => game
            .outcome()
            .map(|_| session.language().get(Key::XGameOver)),
    };
    let rules = game.rules();
    view.best_move = session
        .analysed_move()
        .and_then(|mv| rules.index(mv.from()).zip(rules.index(mv.to())));
    view.hint = session.language().get(Key::XHint);
    view.more = session.language().get(Key::XMore);
    if let Some(network) = network {
        view.clocks = network.clocks;
        view.clock_running = network.clocks.is_some()
            && !network.over
            && network.players.iter().all(Option::is_some);
    }
    view.analysis = session.analysis_pane();
    view.heat = session.heat();
    view
}

/// The review view: the reviewed game at the position chosen, with its graph, the
/// review's line of the move that led there as the status, and the search's best move
/// there as the arrow.
fn review_view(session: &Session, shown: ReviewShown) -> BoardView {
    let mut view = view_of(session, &shown.game);
    let rules = shown.game.rules();
    view.best_move = shown
        .best
        .and_then(|mv| rules.index(mv.from()).zip(rules.index(mv.to())));
    view.status = shown.caption;
    view.game_over = None;
    view.thinking = None;
    view.analysis.clear();
    view.heat.clear();
    view.hint = session.language().get(Key::XReviewHint);
    view.review = Some(ReviewGraph {
        first: shown.first.iter().map(|&chance| chance as f32).collect(),
        marks: shown
            .marks
            .iter()
            .map(|mark| match mark {
                crate::session::Mark::None => ReviewMark::None,
                crate::session::Mark::Mistake => ReviewMark::Mistake,
                crate::session::Mark::Blunder => ReviewMark::Blunder,
            })
            .collect(),
        at: shown.at,
    });
    view
}

/// The name of a side that is neither attackers nor defenders, from the rule file: the
/// one `name` all its piece types share (halatafl's `white` and `black`), capitalised.
fn side_name(rules: &hnefatafl_core::Rules, player: Player) -> Option<String> {
    let mut names = rules
        .piece_rules()
        .iter()
        .filter(|rule| rule.owner() == player)
        .map(|rule| rule.name());
    let first = names.next()??;
    if names.any(|name| name != Some(first)) {
        return None;
    }
    let mut chars = first.chars();
    let initial = chars.next()?;
    Some(initial.to_uppercase().chain(chars).collect())
}

/// A player's side and who plays it, for the window; `short`: the side's name without
/// the player's number, for a narrow window.
fn side_label(session: &Session, player: Player, role: Role, short: bool) -> String {
    let index = player.index().to_string();
    let key = match (role, short) {
        (Role::Attackers, false) => Key::SideAttackers,
        (Role::Attackers, true) => Key::XSideAttackersShort,
        (Role::Defenders, false) => Key::SideDefenders,
        (Role::Defenders, true) => Key::XSideDefendersShort,
        (Role::Plain, _) => Key::SidePlayer,
    };
    let side = session
        .game()
        .and_then(|game| side_name(game.rules(), player));
    let name = match (role, side) {
        (Role::Plain, Some(side)) if short => side,
        (Role::Plain, Some(side)) => session.text(&Message::new(Key::SideNamed, [index, side])),
        _ => session.text(&Message::new(key, [index])),
    };
    if let Some(network) = session.network_game() {
        // A network game: the account at each seat, and which one is this client's.
        let account = network.players[player.index()]
            .clone()
            .unwrap_or_else(|| session.language().get(Key::NetFree));
        let key = match network.side == Some(player.index() as u8) {
            true => Key::XSideYou,
            false => Key::XSideNetwork,
        };
        return session.text(&Message::new(key, [name, account]));
    }
    let message = match &session.players()[player.index()] {
        PlayerKind::Human => Message::new(Key::XSideHuman, [name]),
        PlayerKind::Computer(_, words) => Message::new(Key::XSideComputer, [name, words.join(" ")]),
    };
    session.text(&message)
}

impl XHost for Host<'_> {
    fn title(&self) -> String {
        match self.session.game() {
            Some(game) => format!("Hnefatafl: {}", game.rules().name()),
            None => "Hnefatafl".to_owned(),
        }
    }

    fn view(&self) -> BoardView {
        if let Some(shown) = self.session.review_shown() {
            return review_view(self.session, shown);
        }
        match self.session.game() {
            Some(game) => view_of(self.session, game),
            None => BoardView {
                status: self.session.status(),
                more: self.session.language().get(Key::XMore),
                ..BoardView::default()
            },
        }
    }

    fn targets(&self, from: usize) -> Vec<usize> {
        self.paths(from)
            .into_iter()
            .filter_map(|path| path.last().copied())
            .collect()
    }

    fn paths(&self, from: usize) -> Vec<Vec<usize>> {
        let Some(game) = self.session.game() else {
            return Vec::new();
        };
        // The review view shows a position of the review, where nothing moves.
        if self.session.reviewing() {
            return Vec::new();
        }
        let rules = game.rules();
        let Some(from) = rules.square_of_index(from) else {
            return Vec::new();
        };
        let side = game.side_to_move().index();
        // In a network game only this client's seat moves, and only in its turn.
        let may_move = match self.session.network_game() {
            Some(network) => !network.over && network.side == Some(side as u8),
            None => self.session.players()[side] == PlayerKind::Human,
        };
        if game.outcome().is_some() || !may_move {
            return Vec::new();
        }
        game.legal_moves()
            .filter(|mv| mv.from() == from)
            .map(|mv| mv.landings().filter_map(|to| rules.index(to)).collect())
            .collect()
    }

    fn execute(&mut self, line: &str) -> (Vec<String>, Flow) {
        if self.session.wants_secret() {
            // A password is taken as typed, so that it may hold any character.
            let reply = self.session.run_secret(line, Source::X);
            return (reply.lines, Flow::Continue);
        }
        let words = match gleipnir::parse(line.as_bytes()) {
            Ok(lines) => lines
                .into_iter()
                .flat_map(|line| line.words)
                .collect::<Vec<_>>(),
            Err(error) => {
                let message = Message::new(Key::FrSyntax, ["X".to_owned(), error.to_string()]);
                return (vec![self.session.text(&message)], Flow::Continue);
            }
        };
        // `x <theme>` in the window changes the theme there; `x` alone leaves.
        if let [command, theme] = words.as_slice() {
            if command == "x" {
                return (Vec::new(), Flow::Theme(theme.clone()));
            }
        }
        let reply = self.session.run_command(&words, Source::X);
        let flow = match reply.action {
            Action::Continue | Action::EnterX(_) => Flow::Continue,
            Action::LeaveX => Flow::LeaveX,
            Action::Quit => Flow::Quit,
        };
        (reply.lines, flow)
    }

    fn poll(&mut self, wake: &Waker) -> Vec<String> {
        self.session.set_notify(wake.clone());
        self.session.set_source(Source::X);
        let mut lines = self.session.poll();
        self.session.start_computer();
        lines.retain(|line| !line.is_empty());
        lines
    }

    fn read_data(&self, relative: &str) -> Option<Vec<u8>> {
        self.session
            .dirs()
            .read(None, relative)
            .ok()
            .map(|(_, bytes)| bytes)
    }

    fn wants_secret(&self) -> bool {
        self.session.wants_secret()
    }

    fn hold(&mut self, from: Option<usize>, wake: &Waker) {
        self.session.hold(from, wake.clone());
    }

    fn interrupt(&mut self) -> bool {
        let live = self.session.live_analysis();
        if live {
            self.session.stop_thinking();
        }
        self.session.close_review() || live
    }

    fn review_move(&mut self, by: isize, to: Option<usize>) {
        match to {
            Some(at) => self.session.review_go_to(at),
            None => self.session.review_step(by),
        }
    }

    fn suggested_theme(&self) -> Option<String> {
        self.session
            .game()
            .and_then(|game| game.rules().ui_theme().map(str::to_owned))
    }
}

#[cfg(test)]
mod tests;
