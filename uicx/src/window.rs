//! The X window as a front end of the interpreter: [`Host`] shows a [`Session`] to the
//! window through [`XHost`], and [`run`] opens the window and runs it until it closes.
//!
//! This is the only place where the interpreter and the X module meet; the session
//! itself knows no window.

use hnefatafl_core::Game;

use crate::board;
use crate::lang::{Key, Message};
use crate::session::{Action, PlayerKind, Session, Source};
use crate::x11::{self, BoardView, Flow, Waker, XExit, XHost, XOptions};

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
    let rules = game.rules();
    let position = game.position();
    let count = rules.square_count();
    let mut view = BoardView {
        width: rules.width(),
        height: rules.height(),
        squares: Vec::with_capacity(count),
        pieces: Vec::with_capacity(count),
        owners: Vec::with_capacity(count),
        last_move: game
            .last_move()
            .and_then(|mv| rules.index(mv.from).zip(rules.index(mv.to))),
        side_to_move: game.side_to_move().index() as u8,
        status: session.status(),
        thinking: session.thinking_fraction(),
    };
    for square in rules.squares() {
        view.squares.push(
            rules
                .square_type(square)
                .map_or(0, |kind| board::shown_square(rules, kind).bit()),
        );
        let piece = position.piece_at(square);
        view.pieces
            .push(piece.map_or(0, |piece| board::shown_piece(rules, piece).bit()));
        let owner = piece
            .and_then(|piece| rules.piece_rule(piece))
            .map(|rule| rule.owner());
        view.owners
            .push(owner.map_or(0, |owner| owner.index() as u8));
    }
    view
}

impl XHost for Host<'_> {
    fn title(&self) -> String {
        match self.session.game() {
            Some(game) => format!("Hnefatafl: {}", game.rules().name()),
            None => "Hnefatafl".to_owned(),
        }
    }

    fn view(&self) -> BoardView {
        match self.session.game() {
            Some(game) => view_of(self.session, game),
            None => BoardView {
                status: self.session.status(),
                ..BoardView::default()
            },
        }
    }

    fn targets(&self, from: usize) -> Vec<usize> {
        let Some(game) = self.session.game() else {
            return Vec::new();
        };
        let rules = game.rules();
        let Some(from) = rules.square_of_index(from) else {
            return Vec::new();
        };
        if game.outcome().is_some()
            || self.session.players()[game.side_to_move().index()] != PlayerKind::Human
        {
            return Vec::new();
        }
        game.legal_moves()
            .filter(|mv| mv.from == from)
            .filter_map(|mv| rules.index(mv.to))
            .collect()
    }

    fn execute(&mut self, line: &str) -> (String, Flow) {
        let words = match gleipnir::parse(line.as_bytes()) {
            Ok(lines) => lines
                .into_iter()
                .flat_map(|line| line.words)
                .collect::<Vec<_>>(),
            Err(error) => {
                let message = Message::new(Key::FrSyntax, ["X".to_owned(), error.to_string()]);
                return (self.session.text(&message), Flow::Continue);
            }
        };
        let reply = self.session.run_command(&words, Source::X);
        let text = reply.lines.last().cloned().unwrap_or_default();
        let flow = match reply.action {
            Action::Continue | Action::EnterX(_) => Flow::Continue,
            Action::LeaveX => Flow::LeaveX,
            Action::Quit => Flow::Quit,
        };
        (text, flow)
    }

    fn poll(&mut self, wake: &Waker) -> Option<String> {
        self.session.set_notify(wake.clone());
        self.session.set_source(Source::X);
        let mut lines = self.session.poll_thinker();
        self.session.start_computer();
        lines.retain(|line| !line.is_empty());
        lines.pop()
    }

    fn read_data(&self, relative: &str) -> Option<Vec<u8>> {
        self.session
            .dirs()
            .read(None, relative)
            .ok()
            .map(|(_, bytes)| bytes)
    }

    fn suggested_theme(&self) -> Option<String> {
        self.session
            .game()
            .and_then(|game| game.rules().ui_theme().map(str::to_owned))
    }
}
