//! The window: its state, opening and closing it, the event loop and the output area.
//!
//! Its other jobs have rooms of their own: `input` turns the pointer's and the keyboard's
//! events into selections, moves and command lines, and `display` is what the window asks
//! of the X server (the pixel format, the font, the atoms, the frame and its text).

mod display;
mod input;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::properties::WmSizeHints;
use x11rb::protocol::xproto::{
    AtomEnum, BackingStore, ClientMessageEvent, ConnectionExt as _, CreateGCAux, CreateWindowAux,
    EventMask, Gcontext, Pixmap, PropMode, Window, WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::XError;
use super::host::{BoardView, Flow, Waker, XExit, XHost, XOptions};
use super::keyboard::KeyboardMap;
use super::render::{self, Layout, Renderer};
use super::theme;
use display::{Atoms, PixelFormat, TextFont, host_name, keyboard_map, latin1_bytes, open_font};
use input::next_targets;

/// The font tried when `$HNEFATAFL_FONT` is unset or cannot be opened.
const DEFAULT_FONT: &str = "-misc-fixed-medium-r-normal-*-*-140-*-*-*-*-iso10646-*";
/// The last resort; every X server has it.
const LAST_FONT: &str = "fixed";
/// Control and Mod1 (Alt) in a key event's state.
const CHORD_MASK: u16 = 4 | 8;
/// Control in a key event's state.
const CONTROL_MASK: u16 = 4;
/// How often the progress bar moves while a computer thinks.
const THINKING_REDRAW: Duration = Duration::from_millis(100);
/// Lines of output that came by themselves kept in the message area (it shows the last).
const KEPT_MESSAGES: usize = 8;
/// How long after a clock's second changes the window draws it.
const CLOCK_MARGIN: Duration = Duration::from_millis(5);
/// The window's size when it opens.
const START_SIZE: (u16, u16) = (840, 760);
/// The smallest size the window manager should give the window.
const MIN_SIZE: (i32, i32) = (360, 360);
/// The pause between two computer moves, so that a person can follow a computer game.
const DEFAULT_DELAY: Duration = crate::session::COMPUTER_PACE;
/// The property in which the window tells what it has drawn (see [`XWindow::publish`]).
pub const DRAWN_PROPERTY: &str = "_HNEFATAFL_DRAWN";
/// Commands the window runs itself, without the interpreter.
const FLIP_COMMAND: &str = "flip";
/// Sets the pause between two computer moves: `delay <seconds>`.
const DELAY_COMMAND: &str = "delay";
/// Lines of long output that one notch of the mouse wheel scrolls.
const WHEEL_LINES: usize = 3;
/// The pointer's buttons: the first, and the wheel turned up and down.
const FIRST_BUTTON: u8 = 1;
const WHEEL_UP: u8 = 4;
const WHEEL_DOWN: u8 = 5;

/// A press of the first button on the board that may become a drag.
#[derive(Clone, Copy, Debug)]
struct Press {
    /// The square the piece was picked up from.
    from: usize,
    /// Whether that square was already selected (releasing there deselects it).
    was_selected: bool,
    /// Where the pointer is now, once it has left the square.
    pointer: Option<(i32, i32)>,
}

/// What the window remembers between events.
struct XWindow {
    conn: RustConnection,
    window: Window,
    gc: Gcontext,
    pixmap: Pixmap,
    width: u16,
    height: u16,
    format: PixelFormat,
    font: Option<TextFont>,
    latin1: bool,
    renderer: Renderer,
    keyboard: KeyboardMap,
    atoms: Atoms,
    title: String,
    selected: Option<usize>,
    targets: Vec<usize>,
    /// The selected piece's moves, each as the squares it lands on.
    paths: Vec<Vec<usize>>,
    /// The landings of a jump chain clicked so far.
    landed: Vec<usize>,
    press: Option<Press>,
    typed: Option<String>,
    history: Vec<String>,
    /// Where Up/Down are in the history (`history.len()`: the new line).
    recalled: usize,
    messages: Vec<String>,
    expanded: bool,
    scroll: usize,
    flipped: bool,
    delay: Duration,
    last_computer_move: Option<Instant>,
    layout: Option<Layout>,
    /// Key and button events handled, for [`XWindow::publish`].
    inputs: u32,
    /// Frames drawn.
    frames: u32,
    /// The square of the piece the host was last told is held.
    held: Option<usize>,
    /// The view drawn last: the analysis pane, the arrow and the heat map change by
    /// themselves, and a changed view is drawn again.
    drawn_view: Option<BoardView>,
}

pub(super) fn run(host: &mut dyn XHost, options: &XOptions) -> Result<XExit, XError> {
    let (conn, screen_number) =
        x11rb::connect(None).map_err(|error| XError::Connect(error.to_string()))?;
    let loaded = theme::load(
        &|relative| host.read_data(relative),
        options.theme.as_deref(),
        host.suggested_theme().as_deref(),
    );
    if let Some(warning) = &loaded.warning {
        // A closed standard error must not end the window: `print_error` never panics.
        crate::terminal::print_error(warning);
    }
    let mut window = XWindow::open(conn, screen_number, host, options, loaded)?;
    let waker = window.waker()?;
    let result = window.event_loop(host, &waker);
    window.close();
    result
}

impl XWindow {
    fn open(
        conn: RustConnection,
        screen_number: usize,
        host: &dyn XHost,
        options: &XOptions,
        loaded: theme::LoadedTheme,
    ) -> Result<XWindow, XError> {
        let screen = conn
            .setup()
            .roots
            .get(screen_number)
            .cloned()
            .ok_or_else(|| XError::Unsupported(format!("no screen {screen_number}")))?;
        let format = PixelFormat::of_screen(&screen)?;
        let atoms = Atoms::new(&conn)?;
        let font = open_font(&conn)?;

        let (width, height) = START_SIZE;
        let window = conn.generate_id()?;
        conn.create_window(
            format.depth,
            window,
            screen.root,
            0,
            0,
            width,
            height,
            0,
            WindowClass::INPUT_OUTPUT,
            screen.root_visual,
            &CreateWindowAux::new()
                .background_pixel(format.pixel(render::BACKGROUND))
                .backing_store(BackingStore::WHEN_MAPPED)
                .event_mask(
                    EventMask::EXPOSURE
                        | EventMask::STRUCTURE_NOTIFY
                        | EventMask::KEY_PRESS
                        | EventMask::BUTTON_PRESS
                        | EventMask::BUTTON_RELEASE
                        | EventMask::BUTTON1_MOTION,
                ),
        )?
        .check()?;
        set_properties(&conn, window, &atoms)?;

        let gc = conn.generate_id()?;
        let mut gc_values = CreateGCAux::new().graphics_exposures(0);
        if let Some(font) = &font {
            gc_values = gc_values.font(font.font);
        }
        conn.create_gc(gc, window, &gc_values)?;
        let pixmap = conn.generate_id()?;
        conn.create_pixmap(format.depth, pixmap, window, width, height)?;

        let keyboard = keyboard_map(&conn)?;
        let messages = loaded.warning.clone().into_iter().collect();
        let mut opened = XWindow {
            conn,
            window,
            gc,
            pixmap,
            width,
            height,
            format,
            font,
            latin1: options.latin1,
            renderer: Renderer::new(loaded.theme),
            keyboard,
            atoms,
            title: String::new(),
            selected: None,
            targets: Vec::new(),
            paths: Vec::new(),
            landed: Vec::new(),
            press: None,
            typed: None,
            history: Vec::new(),
            recalled: 0,
            messages,
            expanded: false,
            scroll: 0,
            flipped: false,
            delay: DEFAULT_DELAY,
            last_computer_move: None,
            layout: None,
            inputs: 0,
            frames: 0,
            held: None,
            drawn_view: None,
        };
        opened.retitle(host)?;
        opened.conn.map_window(window)?;
        opened.conn.flush()?;
        Ok(opened)
    }

    /// A waker that sends the window a client message over a connection of its own, so
    /// that any thread can end the event loop's wait.
    fn waker(&self) -> Result<Waker, XError> {
        let (conn, _) = x11rb::connect(None).map_err(|error| XError::Connect(error.to_string()))?;
        let conn = Mutex::new(conn);
        let (window, wake) = (self.window, self.atoms.wake);
        Ok(Arc::new(move || {
            let Ok(conn) = conn.lock() else { return };
            let event = ClientMessageEvent::new(32, window, wake, [0u32; 5]);
            // A closed window or a lost server only means nobody waits any more.
            let _ = conn.send_event(false, window, EventMask::NO_EVENT, event);
            let _ = conn.flush();
        }))
    }

    fn close(&self) {
        let _ = self.conn.destroy_window(self.window);
        let _ = self.conn.free_pixmap(self.pixmap);
        let _ = self.conn.free_gc(self.gc);
        let _ = self.conn.flush();
    }

    /// Sets the window's title when the host's has changed (after `r` or `e`).
    fn retitle(&mut self, host: &dyn XHost) -> Result<(), XError> {
        let title = host.title();
        if title == self.title {
            return Ok(());
        }
        self.conn.change_property8(
            PropMode::REPLACE,
            self.window,
            AtomEnum::WM_NAME,
            AtomEnum::STRING,
            &latin1_bytes(&title),
        )?;
        self.conn.change_property8(
            PropMode::REPLACE,
            self.window,
            self.atoms.net_wm_name,
            self.atoms.utf8_string,
            title.as_bytes(),
        )?;
        self.title = title;
        Ok(())
    }

    /// Whether the host may apply a finished computer move now: computer moves come at
    /// most one per `delay`, so that a game between two computers can be followed.
    fn may_poll(&self, view: &BoardView) -> bool {
        view.thinking.is_none()
            || self
                .last_computer_move
                .is_none_or(|last| last.elapsed() >= self.delay)
    }

    fn event_loop(&mut self, host: &mut dyn XHost, waker: &Waker) -> Result<XExit, XError> {
        let mut dirty = true;
        loop {
            let before = host.view();
            if self.selected != self.held {
                // A piece picked up or put down: its heat map is worked out or dropped.
                self.held = self.selected;
                host.hold(self.held, waker);
            }
            if self.may_poll(&before) {
                let lines = host.poll(waker);
                if !lines.is_empty() {
                    let after = host.view();
                    if after.moves != before.moves {
                        self.last_computer_move = Some(Instant::now());
                    }
                    self.add_output(lines);
                    self.keep_selection(host, &before, &after);
                    self.retitle(host)?;
                    dirty = true;
                }
            }
            let view = host.view();
            // Something on the screen changes by itself: the progress bar or a clock.
            let redraw_in = redraw_in(&view);
            if dirty || redraw_in.is_some() || self.drawn_view.as_ref() != Some(&view) {
                self.draw(host)?;
                dirty = false;
            }
            let event = match (self.conn.poll_for_event()?, redraw_in) {
                (Some(event), _) => event,
                (None, None) => self.conn.wait_for_event()?,
                (None, Some(timeout)) => {
                    self.wait_readable(timeout)?;
                    match self.conn.poll_for_event()? {
                        Some(event) => event,
                        None => continue,
                    }
                }
            };
            let mut next = Some(event);
            // Handle everything that is queued before drawing once.
            while let Some(event) = next {
                if let Some(exit) = self.handle(host, event, &mut dirty)? {
                    return Ok(exit);
                }
                next = self.conn.poll_for_event()?;
            }
        }
    }

    /// Waits until the server has sent something or `timeout` has passed.
    fn wait_readable(&self, timeout: Duration) -> Result<(), XError> {
        use rustix::event::{PollFd, PollFlags, Timespec};
        let timeout = Timespec {
            tv_sec: timeout.as_secs().min(3600) as i64,
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        let mut fds = [PollFd::new(self.conn.stream(), PollFlags::IN)];
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => Ok(()),
            Err(error) => Err(XError::Connection(error.to_string())),
        }
    }

    /// Output came from the host without a click or key (the computer's move, the other
    /// player's, a chat line, the analysis's progress): a piece the user has picked up
    /// stays picked up when the position did not change, with its targets read again;
    /// after a move it is put down.
    fn keep_selection(&mut self, host: &dyn XHost, before: &BoardView, after: &BoardView) {
        let Some(from) = self.selected else {
            return;
        };
        let paths = host.paths(from);
        if after.moves != before.moves || after.pieces != before.pieces || paths.is_empty() {
            self.deselect();
        } else {
            self.paths = paths;
            self.targets = next_targets(&self.paths, &self.landed);
        }
    }

    /// Closes long output shown over the board; returns whether there was any.
    fn collapse_output(&mut self) -> bool {
        let was = self.expanded;
        self.expanded = false;
        self.scroll = 0;
        was
    }

    /// Lines to scroll by: most of what the expanded output shows.
    fn page(&self) -> usize {
        let line = self
            .font
            .as_ref()
            .map_or(14, |font| font.metrics.line_height())
            .max(1);
        (u32::from(self.height) / line / 2).max(1) as usize
    }

    /// Scrolls the output shown over the board down, at most until its last line is at
    /// the top.
    fn scroll_down(&mut self, lines: usize) {
        let last = self.output_rows().saturating_sub(1);
        self.scroll = (self.scroll + lines).min(last);
    }

    /// The lines the output shown takes, wrapped as the message area wraps it.
    fn output_rows(&self) -> usize {
        let columns = self.layout.map_or(80, |layout| layout.text_columns());
        self.messages
            .iter()
            .map(|message| render::wrap_output(message, columns).len())
            .sum()
    }

    /// Up (-1) or Down (+1) through the lines typed before.
    fn recall(&mut self, step: isize) {
        let end = self.history.len();
        let position = self.recalled.saturating_add_signed(step).min(end);
        self.recalled = position;
        self.typed = if position == end {
            None
        } else {
            self.history.get(position).cloned()
        };
    }

    /// Runs a typed line: the window's own commands here, the rest by the interpreter.
    fn run_line(&mut self, host: &mut dyn XHost, line: &str) -> Result<Option<XExit>, XError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [FLIP_COMMAND] => {
                self.flipped = !self.flipped;
                self.show_output(Vec::new(), false);
                Ok(None)
            }
            [DELAY_COMMAND, seconds] => {
                let delay = seconds
                    .parse::<f64>()
                    .ok()
                    .filter(|seconds| (0.0..=3600.0).contains(seconds));
                match delay {
                    Some(seconds) => {
                        self.delay = Duration::from_secs_f64(seconds);
                        self.show_output(vec![format!("{DELAY_COMMAND} {seconds}")], false);
                    }
                    None => self.show_output(
                        vec![format!(
                            "{DELAY_COMMAND} <seconds>: 0 to 3600, e.g. {DELAY_COMMAND} 1.5"
                        )],
                        false,
                    ),
                }
                Ok(None)
            }
            _ => self.execute(host, line, true),
        }
    }

    /// Runs a command line by the interpreter. Output of typed lines may open over the
    /// board; output of clicks never does, so that the next click is never taken from the
    /// board.
    fn execute(
        &mut self,
        host: &mut dyn XHost,
        line: &str,
        typed: bool,
    ) -> Result<Option<XExit>, XError> {
        let (output, flow) = host.execute(line);
        // The pause is between two computer moves: the user's command ends a run of them.
        self.last_computer_move = None;
        self.show_output(output, typed);
        self.retitle(host)?;
        Ok(match flow {
            Flow::Continue => None,
            Flow::Theme(name) => {
                let loaded = theme::load(
                    &|relative| host.read_data(relative),
                    Some(&name),
                    host.suggested_theme().as_deref(),
                );
                if let Some(warning) = loaded.warning {
                    self.show_output(vec![warning], typed);
                }
                self.renderer = Renderer::new(loaded.theme);
                None
            }
            Flow::LeaveX => Some(XExit::LeaveX),
            Flow::Quit => Some(XExit::Quit),
        })
    }

    /// Shows a command's output; when `open` and it is longer than the message area, it
    /// opens over the board.
    fn show_output(&mut self, lines: Vec<String>, open: bool) {
        self.messages = lines;
        self.scroll = 0;
        if !open {
            self.expanded = false;
            return;
        }
        self.expanded = self.output_rows() > render::MESSAGE_ROWS as usize;
    }

    /// Adds output that came without a command (the computer's move, the server's news,
    /// a chat line) below what is shown, so that one line does not wipe out the one before
    /// it; the message area shows the last lines.
    fn add_output(&mut self, lines: Vec<String>) {
        if self.expanded {
            self.messages.clear();
        }
        self.messages.extend(lines);
        let excess = self.messages.len().saturating_sub(KEPT_MESSAGES);
        self.messages.drain(..excess);
        self.expanded = false;
        self.scroll = 0;
    }
}

/// How soon the frame changes by itself: every [`THINKING_REDRAW`] while a computer
/// thinks (the progress bar), when the running clock's seconds change; `None` when
/// nothing moves without input.
fn redraw_in(view: &BoardView) -> Option<Duration> {
    let thinking = view.thinking.map(|_| THINKING_REDRAW);
    let clock = view
        .clocks
        .filter(|_| view.clock_running)
        .map(|clocks| render::clock_change(clocks[usize::from(view.side_to_move.min(1))]))
        .filter(|&change| change != Duration::MAX)
        // A little after the change, so that the frame shows the new second.
        .map(|change| change + CLOCK_MARGIN);
    match (thinking, clock) {
        (Some(thinking), Some(clock)) => Some(thinking.min(clock)),
        (thinking, clock) => thinking.or(clock),
    }
}

/// The window's properties for the window manager: its class, the close protocol, its
/// least size and, where the machine's name is known, the machine and process it belongs to.
fn set_properties(conn: &RustConnection, window: Window, atoms: &Atoms) -> Result<(), XError> {
    conn.change_property8(
        PropMode::REPLACE,
        window,
        AtomEnum::WM_CLASS,
        AtomEnum::STRING,
        b"hnefatafl\0Hnefatafl\0",
    )?;
    conn.change_property32(
        PropMode::REPLACE,
        window,
        atoms.wm_protocols,
        AtomEnum::ATOM,
        &[atoms.wm_delete_window],
    )?;
    let hints = WmSizeHints {
        min_size: Some(MIN_SIZE),
        ..WmSizeHints::new()
    };
    hints.set_normal_hints(conn, window)?;
    // _NET_WM_PID is only meaningful with the machine it belongs to (EWMH).
    if let Some(machine) = host_name() {
        conn.change_property8(
            PropMode::REPLACE,
            window,
            AtomEnum::WM_CLIENT_MACHINE,
            AtomEnum::STRING,
            machine.as_bytes(),
        )?;
        conn.change_property32(
            PropMode::REPLACE,
            window,
            atoms.net_wm_pid,
            AtomEnum::CARDINAL,
            &[std::process::id()],
        )?;
    }
    Ok(())
}
