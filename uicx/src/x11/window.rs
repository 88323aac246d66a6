//! The window: connection, event loop, drawing to the server and input.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::errors::{ConnectionError, ReplyError, ReplyOrIdError};
use x11rb::image::{Image, PixelLayout};
use x11rb::properties::WmSizeHints;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    AtomEnum, BackingStore, ButtonPressEvent, ButtonReleaseEvent, ChangeGCAux, ClientMessageEvent,
    ConnectionExt as _, CreateGCAux, CreateWindowAux, EventMask, Font, Gcontext, KeyPressEvent,
    MotionNotifyEvent, Pixmap, PropMode, Screen, Window, WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::XError;
use super::host::{BoardView, Flow, Waker, XExit, XHost, XOptions};
use super::keyboard::{self, Key, KeyboardMap};
use super::render::{self, Drag, Frame, Layout, Renderer, Rgb, Scene, TextItem, TextMetrics};
use super::theme;

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

impl From<ConnectionError> for XError {
    fn from(error: ConnectionError) -> XError {
        XError::Connection(error.to_string())
    }
}

impl From<ReplyError> for XError {
    fn from(error: ReplyError) -> XError {
        match error {
            ReplyError::ConnectionError(error) => error.into(),
            ReplyError::X11Error(error) => XError::Request(format!("{:?}", error.error_kind)),
        }
    }
}

impl From<ReplyOrIdError> for XError {
    fn from(error: ReplyOrIdError) -> XError {
        match error {
            ReplyOrIdError::ConnectionError(error) => error.into(),
            ReplyOrIdError::X11Error(error) => XError::Request(format!("{:?}", error.error_kind)),
            ReplyOrIdError::IdsExhausted => XError::Request("out of resource ids".to_owned()),
        }
    }
}

/// How the server wants pixels, from x11rb's image helpers: the root visual's colour
/// layout and its depth. Any true-colour depth works (16, 24, 32 bits a pixel).
#[derive(Clone, Copy, Debug)]
struct PixelFormat {
    layout: PixelLayout,
    depth: u8,
}

impl PixelFormat {
    fn of_screen(screen: &Screen) -> Result<PixelFormat, XError> {
        let visual = screen
            .allowed_depths
            .iter()
            .flat_map(|depth| {
                depth
                    .visuals
                    .iter()
                    .map(move |visual| (depth.depth, visual))
            })
            .find(|(_, visual)| visual.visual_id == screen.root_visual);
        let Some((depth, visual)) = visual else {
            return Err(XError::Unsupported(
                "the root visual is not listed".to_owned(),
            ));
        };
        let layout = PixelLayout::from_visual_type(*visual).map_err(|_| {
            XError::Unsupported(format!(
                "depth {depth}, {:?}: a true-colour screen is needed",
                visual.class
            ))
        })?;
        Ok(PixelFormat { layout, depth })
    }

    fn pixel(&self, colour: Rgb) -> u32 {
        let wide = |value: u8| u16::from(value) * 257;
        self.layout
            .encode((wide(colour[0]), wide(colour[1]), wide(colour[2])))
    }

    /// The frame as an image in the server's own format.
    fn encode(&self, frame: &Frame, conn: &RustConnection) -> Result<Image<'static>, XError> {
        let (width, height) = frame.image.dimensions();
        let (width, height) = (clamp_u16(width), clamp_u16(height));
        let mut image = Image::allocate_native(width, height, self.depth, conn.setup())
            .map_err(|error| XError::Unsupported(error.to_string()))?;
        for (x, y, pixel) in frame.image.enumerate_pixels() {
            if x < u32::from(width) && y < u32::from(height) {
                let value = self.pixel([pixel[0], pixel[1], pixel[2]]);
                image.put_pixel(x as u16, y as u16, value);
            }
        }
        Ok(image)
    }
}

fn clamp_u16(value: u32) -> u16 {
    u16::try_from(value).unwrap_or(u16::MAX)
}

/// The font used for all text, with its cell size.
struct TextFont {
    font: Font,
    metrics: TextMetrics,
}

fn open_font(conn: &RustConnection) -> Result<Option<TextFont>, XError> {
    let from_environment = std::env::var("HNEFATAFL_FONT")
        .ok()
        .filter(|name| !name.is_empty());
    for name in from_environment
        .iter()
        .map(String::as_str)
        .chain([DEFAULT_FONT, LAST_FONT])
    {
        let font = conn.generate_id()?;
        if conn.open_font(font, name.as_bytes())?.check().is_err() {
            continue;
        }
        let info = conn.query_font(font)?.reply()?;
        let metrics = TextMetrics {
            cell_width: u32::try_from(info.max_bounds.character_width)
                .unwrap_or(0)
                .max(1),
            ascent: u32::try_from(info.font_ascent).unwrap_or(0).max(1),
            descent: u32::try_from(info.font_descent).unwrap_or(0),
        };
        return Ok(Some(TextFont { font, metrics }));
    }
    Ok(None)
}

/// The atoms the window uses.
struct Atoms {
    wm_protocols: u32,
    wm_delete_window: u32,
    net_wm_name: u32,
    net_wm_pid: u32,
    utf8_string: u32,
    wake: u32,
    drawn: u32,
}

impl Atoms {
    fn new(conn: &RustConnection) -> Result<Atoms, XError> {
        let intern = |name: &str| -> Result<u32, XError> {
            Ok(conn.intern_atom(false, name.as_bytes())?.reply()?.atom)
        };
        Ok(Atoms {
            wm_protocols: intern("WM_PROTOCOLS")?,
            wm_delete_window: intern("WM_DELETE_WINDOW")?,
            net_wm_name: intern("_NET_WM_NAME")?,
            net_wm_pid: intern("_NET_WM_PID")?,
            utf8_string: intern("UTF8_STRING")?,
            wake: intern("_HNEFATAFL_WAKE")?,
            drawn: intern(DRAWN_PROPERTY)?,
        })
    }
}

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
        hints.set_normal_hints(&conn, window)?;
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
            if dirty || redraw_in.is_some() {
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

    fn handle(
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

    fn deselect(&mut self) {
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

    /// Closes long output shown over the board; returns whether there was any.
    fn collapse_output(&mut self) -> bool {
        let was = self.expanded;
        self.expanded = false;
        self.scroll = 0;
        was
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
                self.typed = None;
                self.recalled = self.history.len();
                self.collapse_output();
            }
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

    /// Renders the scene into the back buffer and shows it.
    fn draw(&mut self, host: &dyn XHost) -> Result<(), XError> {
        let view = host.view();
        let metrics = self
            .font
            .as_ref()
            .map(|font| font.metrics)
            .unwrap_or_default();
        let drag = self.press.and_then(|press| {
            press
                .pointer
                .map(|(x, y)| Drag {
                    from: press.from,
                    x,
                    y,
                })
                .filter(|_| self.selected == Some(press.from))
        });
        // A password is shown as one star a character.
        let masked = self
            .typed
            .as_ref()
            .filter(|_| host.wants_secret())
            .map(|typed| "*".repeat(typed.chars().count()));
        let scene = Scene {
            view: &view,
            selected: self.selected,
            targets: &self.targets,
            typed: masked.as_deref().or(self.typed.as_deref()),
            messages: &self.messages,
            expanded: self.expanded,
            scroll: self.scroll,
            flipped: self.flipped,
            drag,
        };
        let frame = self.renderer.render(
            &scene,
            u32::from(self.width),
            u32::from(self.height),
            metrics,
        );
        self.format
            .encode(&frame, &self.conn)?
            .put(&self.conn, self.pixmap, self.gc, 0, 0)?;
        if self.font.is_some() {
            for item in &frame.texts {
                self.draw_text(item)?;
            }
        }
        self.layout = Some(frame.layout);
        self.frames = self.frames.wrapping_add(1);
        self.show()?;
        self.publish()
    }

    /// Tells tools (and the tests) what the window has drawn: the key and button events
    /// handled so far, the frames drawn, and the size of the last frame.
    fn publish(&self) -> Result<(), XError> {
        self.conn.change_property32(
            PropMode::REPLACE,
            self.window,
            self.atoms.drawn,
            AtomEnum::CARDINAL,
            &[
                self.inputs,
                self.frames,
                u32::from(self.width),
                u32::from(self.height),
            ],
        )?;
        self.conn.flush()?;
        Ok(())
    }

    /// Copies the back buffer to the window.
    fn show(&self) -> Result<(), XError> {
        self.conn.copy_area(
            self.pixmap,
            self.window,
            self.gc,
            0,
            0,
            0,
            0,
            self.width,
            self.height,
        )?;
        self.conn.flush()?;
        Ok(())
    }

    fn draw_text(&self, item: &TextItem) -> Result<(), XError> {
        if item.text.is_empty() {
            return Ok(());
        }
        let cell = self
            .font
            .as_ref()
            .map_or(7, |font| font.metrics.cell_width)
            .max(1);
        let fits = (u32::from(self.width).saturating_sub(item.x.max(0) as u32) / cell) as usize;
        // ImageText takes at most 255 characters.
        let count = fits.min(255);
        self.conn.change_gc(
            self.gc,
            &ChangeGCAux::new()
                .foreground(self.format.pixel(item.foreground))
                .background(self.format.pixel(item.background)),
        )?;
        let (x, y) = (item.x as i16, item.y as i16);
        if self.latin1 {
            let bytes: Vec<u8> = latin1_bytes(&item.text).into_iter().take(count).collect();
            self.conn.image_text8(self.pixmap, self.gc, x, y, &bytes)?;
        } else {
            let chars: Vec<_> = item
                .text
                .chars()
                .take(count)
                .map(|letter| {
                    let code = u16::try_from(u32::from(letter)).unwrap_or(u16::from(b'?'));
                    let [byte1, byte2] = code.to_be_bytes();
                    x11rb::protocol::xproto::Char2b { byte1, byte2 }
                })
                .collect();
            self.conn.image_text16(self.pixmap, self.gc, x, y, &chars)?;
        }
        Ok(())
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
fn next_targets(paths: &[Vec<usize>], landed: &[usize]) -> Vec<usize> {
    let mut targets: Vec<usize> = paths
        .iter()
        .filter(|path| path.starts_with(landed) && path.len() > landed.len())
        .flat_map(|path| [path[landed.len()], path[path.len() - 1]])
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets
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

fn keyboard_map(conn: &RustConnection) -> Result<KeyboardMap, XError> {
    let setup = conn.setup();
    let (first, last) = (setup.min_keycode, setup.max_keycode);
    let reply = conn
        .get_keyboard_mapping(first, last - first + 1)?
        .reply()?;
    Ok(KeyboardMap::new(
        first,
        reply.keysyms_per_keycode,
        reply.keysyms,
    ))
}

/// The machine's name for `WM_CLIENT_MACHINE`, from the kernel (no C library call).
fn host_name() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
}

/// Text as Latin-1 bytes; characters beyond Latin-1 become `?`.
fn latin1_bytes(text: &str) -> Vec<u8> {
    text.chars()
        .map(|letter| u8::try_from(u32::from(letter)).unwrap_or(b'?'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
