//! Input: the pointer's presses, drags and releases on the board, the wheel, and the keys
//! of the one-line terminal, turned into selections, moves and command lines.

use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    ButtonPressEvent, ButtonReleaseEvent, ConnectionExt as _, KeyPressEvent, MotionNotifyEvent,
};

use super::display::keyboard_map;
use super::{
    CHORD_MASK, CONTROL_MASK, FIRST_BUTTON, Press, WHEEL_DOWN, WHEEL_LINES, WHEEL_UP, XWindow,
};
use crate::x11::XError;
use crate::x11::host::{XExit, XHost};
use crate::x11::keyboard::{self, Key};
use crate::x11::render::{GraphArea, Layout};

impl XWindow {
    pub(super) fn handle(
        &mut self,
        host: &mut dyn XHost,
        event: Event,
        dirty: &mut bool,
    ) -> Result<Option<XExit>, XError> {
        let exit = match event {
            Event::Expose(expose) if expose.count == 0 => {
                self.show()?;
                None
            }
            Event::ConfigureNotify(configure)
                if (configure.width, configure.height) != (self.width, self.height) =>
            {
                self.width = configure.width.max(1);
                self.height = configure.height.max(1);
                self.conn.free_pixmap(self.pixmap)?;
                self.pixmap = self.conn.generate_id()?;
                self.conn.create_pixmap(
                    self.format.depth,
                    self.pixmap,
                    self.window,
                    self.width,
                    self.height,
                )?;
                *dirty = true;
                None
            }
            Event::ClientMessage(message) => {
                let data = message.data.as_data32();
                if message.type_ == self.atoms.wm_protocols
                    && data[0] == self.atoms.wm_delete_window
                {
                    return Ok(Some(XExit::Closed));
                }
                None
            }
            Event::ButtonPress(press) => {
                self.inputs = self.inputs.wrapping_add(1);
                *dirty = true;
                self.button_press(host, &press)?
            }
            Event::ButtonRelease(release) => {
                self.inputs = self.inputs.wrapping_add(1);
                *dirty = true;
                self.button_release(host, &release)?
            }
            Event::MotionNotify(motion) => {
                *dirty |= self.motion(&motion);
                None
            }
            Event::KeyPress(press) => {
                self.inputs = self.inputs.wrapping_add(1);
                *dirty = true;
                self.key(host, &press)?
            }
            Event::MappingNotify(_) => {
                self.keyboard = keyboard_map(&self.conn)?;
                None
            }
            Event::Error(error) => {
                crate::terminal::print_error(&format!("FRX: {:?}", error.error_kind));
                None
            }
            _ => None,
        };
        Ok(exit)
    }

    /// The first button goes down: pick up (select) a piece, or finish a move.
    fn button_press(
        &mut self,
        host: &mut dyn XHost,
        press: &ButtonPressEvent,
    ) -> Result<Option<XExit>, XError> {
        // The wheel scrolls long output shown over the board, as PageUp and PageDown do.
        match press.detail {
            FIRST_BUTTON => {}
            WHEEL_UP => {
                self.scroll = self.scroll.saturating_sub(WHEEL_LINES);
                return Ok(None);
            }
            WHEEL_DOWN => {
                self.scroll_down(WHEEL_LINES);
                return Ok(None);
            }
            _ => return Ok(None),
        }
        if self.collapse_output() {
            // The click closes the long output that covered the board.
            return Ok(None);
        }
        let Some(layout) = self.layout else {
            return Ok(None);
        };
        let Some(square) = layout.square_at(i32::from(press.event_x), i32::from(press.event_y))
        else {
            self.deselect();
            self.click_graph(host, &layout, press);
            return Ok(None);
        };
        match self.selected {
            Some(from) if from == square => {
                self.press = Some(Press {
                    from,
                    was_selected: true,
                    pointer: None,
                });
                Ok(None)
            }
            Some(from) => self.move_or_reselect(host, from, square),
            None => {
                self.pick_up(host, square);
                Ok(None)
            }
        }
    }

    /// A click on the review view's graph shows the position nearest to it.
    fn click_graph(&self, host: &mut dyn XHost, layout: &Layout, press: &ButtonPressEvent) {
        let (Some(panel), Some(review)) = (layout.panel, host.view().review) else {
            return;
        };
        let area = GraphArea::of(panel);
        let (x, y) = (i32::from(press.event_x), i32::from(press.event_y));
        if let Some(at) = area.position_at(review.first.len(), x, y) {
            host.review_move(0, Some(at));
        }
    }

    /// The first button comes up: a drag ends with the move to the square under it.
    fn button_release(
        &mut self,
        host: &mut dyn XHost,
        release: &ButtonReleaseEvent,
    ) -> Result<Option<XExit>, XError> {
        if release.detail != FIRST_BUTTON {
            return Ok(None);
        }
        let Some(press) = self.press.take() else {
            return Ok(None);
        };
        let square = self.layout.and_then(|layout| {
            layout.square_at(i32::from(release.event_x), i32::from(release.event_y))
        });
        match square {
            Some(square) if square == press.from => {
                // A click: the first selects (done at the press), the second deselects.
                if press.was_selected && press.pointer.is_none() {
                    self.deselect();
                }
                Ok(None)
            }
            Some(square) if self.selected == Some(press.from) => {
                self.move_or_reselect(host, press.from, square)
            }
            // Dropped outside the board: the piece goes back and stays selected.
            _ => Ok(None),
        }
    }

    /// The pointer moves with the first button down: drag the picked-up piece.
    fn motion(&mut self, motion: &MotionNotifyEvent) -> bool {
        let Some(press) = &mut self.press else {
            return false;
        };
        let point = (i32::from(motion.event_x), i32::from(motion.event_y));
        let over = self
            .layout
            .and_then(|layout| layout.square_at(point.0, point.1));
        if press.pointer.is_none() && over == Some(press.from) {
            return false;
        }
        press.pointer = Some(point);
        true
    }

    pub(super) fn deselect(&mut self) {
        self.selected = None;
        self.targets.clear();
        self.paths.clear();
        self.landed.clear();
        self.press = None;
    }

    /// Selects the piece on a square when it may move, ready to be dragged.
    fn pick_up(&mut self, host: &dyn XHost, square: usize) {
        let paths = host.paths(square);
        if paths.is_empty() {
            self.deselect();
            return;
        }
        self.selected = Some(square);
        self.landed.clear();
        self.targets = next_targets(&paths, &self.landed);
        self.paths = paths;
        self.press = Some(Press {
            from: square,
            was_selected: false,
            pointer: None,
        });
    }

    /// With a piece selected, a square was chosen: another own piece is selected instead,
    /// anything else is sent as the move (an illegal one is refused, with a beep, and the
    /// interpreter says why).
    fn move_or_reselect(
        &mut self,
        host: &mut dyn XHost,
        from: usize,
        square: usize,
    ) -> Result<Option<XExit>, XError> {
        let landings = match step(&self.paths, &self.landed, square) {
            Step::Play(landings) => landings,
            Step::Land => {
                // A square in the middle of a jump chain: wait for the next one.
                self.landed.push(square);
                self.targets = next_targets(&self.paths, &self.landed);
                return Ok(None);
            }
            Step::Other => {
                if !host.targets(square).is_empty() {
                    self.pick_up(host, square);
                    return Ok(None);
                }
                // Not a move of the piece (or several jump chains end there): sent as it
                // is, so that the interpreter says why it is refused.
                self.conn.bell(0)?;
                vec![square]
            }
        };
        self.deselect();
        let Some(layout) = self.layout else {
            return Ok(None);
        };
        let columns = layout.columns.max(1) as usize;
        let mut line = format!("m {} {}", from % columns, from / columns);
        for square in landings {
            line += &format!(" {} {}", square % columns, square / columns);
        }
        self.execute(host, &line, false)
    }

    fn key(
        &mut self,
        host: &mut dyn XHost,
        press: &KeyPressEvent,
    ) -> Result<Option<XExit>, XError> {
        let state = u16::from(press.state);
        let keysym = self.keyboard.keysym(press.detail, state);
        let Some(key) = keyboard::key(keysym) else {
            return Ok(None);
        };
        match key {
            Key::Char('f' | 'F') if state & CONTROL_MASK != 0 => self.flipped = !self.flipped,
            // Other Control and Alt chords are not text.
            Key::Char(_) if state & CHORD_MASK != 0 => {}
            Key::Char(letter) => self.typed.get_or_insert_with(String::new).push(letter),
            Key::Erase => {
                if let Some(typed) = &mut self.typed {
                    typed.pop();
                }
            }
            Key::Cancel => {
                // With nothing typed or shown over the board: stop a live analysis,
                // close the review view.
                if self.typed.is_none() && !self.expanded {
                    host.interrupt();
                }
                self.typed = None;
                self.recalled = self.history.len();
                self.collapse_output();
            }
            Key::Left => host.review_move(-1, None),
            Key::Right => host.review_move(1, None),
            Key::Up => self.recall(-1),
            Key::Down => self.recall(1),
            Key::PageUp => self.scroll = self.scroll.saturating_sub(self.page()),
            Key::PageDown => self.scroll_down(self.page()),
            Key::Enter => {
                let line = self.typed.take().unwrap_or_default();
                // A password is never kept to be brought back with Up.
                let secret = host.wants_secret();
                if !secret && !line.trim().is_empty() && self.history.last() != Some(&line) {
                    self.history.push(line.clone());
                }
                self.recalled = self.history.len();
                self.deselect();
                if secret {
                    // Whatever the password is, it is no window command.
                    return self.execute(host, &line, true);
                }
                return self.run_line(host, &line);
            }
        }
        Ok(None)
    }
}

/// What a click on a square means for the selected piece.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Make the move that lands on these squares.
    Play(Vec<usize>),
    /// The square is the next landing of a jump chain that goes on from there.
    Land,
    /// Neither: not a move of the piece, or the last square of several jump chains.
    Other,
}

/// A click on `square` after the landings `landed` of the piece's moves `paths` (each the
/// squares a move lands on): a move that lands exactly on those squares is made; a chain
/// that goes on from there waits for the next click; the last square of exactly one
/// chain that goes through them makes that chain, so an unambiguous chain takes one click.
fn step(paths: &[Vec<usize>], landed: &[usize], square: usize) -> Step {
    let mut clicked = landed.to_vec();
    clicked.push(square);
    let candidates = || paths.iter().filter(|path| path.starts_with(landed));
    if let Some(exact) = candidates().find(|path| **path == clicked) {
        return Step::Play(exact.clone());
    }
    if candidates().any(|path| path.starts_with(&clicked)) {
        return Step::Land;
    }
    let mut ending = candidates().filter(|path| path.last() == Some(&square));
    match (ending.next(), ending.next()) {
        (Some(only), None) => Step::Play(only.clone()),
        _ => Step::Other,
    }
}

/// The squares to mark for the selected piece after the landings `landed`: the next
/// landing and the last square of each move that goes through them.
pub(super) fn next_targets(paths: &[Vec<usize>], landed: &[usize]) -> Vec<usize> {
    let mut targets: Vec<usize> = paths
        .iter()
        .filter(|path| path.starts_with(landed) && path.len() > landed.len())
        .flat_map(|path| [path[landed.len()], path[path.len() - 1]])
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets
}

#[cfg(test)]
mod tests {
    use super::{Step, next_targets, step};

    #[test]
    fn jump_chains_are_clicked_landing_by_landing_or_by_their_end() {
        // Two ordinary moves (to 1 and 2) and two chains: 10 then 20, and 10 then 12.
        let paths = vec![vec![1], vec![2], vec![10, 20], vec![10, 12]];
        assert_eq!(step(&paths, &[], 2), Step::Play(vec![2]));
        assert_eq!(step(&paths, &[], 10), Step::Land);
        assert_eq!(step(&paths, &[], 20), Step::Play(vec![10, 20]));
        assert_eq!(step(&paths, &[10], 12), Step::Play(vec![10, 12]));
        assert_eq!(step(&paths, &[10], 2), Step::Other);
        assert_eq!(step(&paths, &[], 7), Step::Other);
        assert_eq!(next_targets(&paths, &[]), [1, 2, 10, 12, 20]);
        assert_eq!(next_targets(&paths, &[10]), [12, 20]);
        // Two chains that end on one square: the end alone does not tell which.
        let paths = vec![vec![10, 30], vec![12, 30]];
        assert_eq!(step(&paths, &[], 30), Step::Other);
        assert_eq!(step(&paths, &[12], 30), Step::Play(vec![12, 30]));
    }
}
