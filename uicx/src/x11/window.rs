//! The window: connection, event loop, drawing to the server and input.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use x11rb::connection::{Connection, RequestConnection as _};
use x11rb::errors::{ConnectionError, ReplyError, ReplyOrIdError};
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    AtomEnum, BackingStore, ButtonPressEvent, ChangeGCAux, ClientMessageEvent, ConnectionExt as _,
    CreateGCAux, CreateWindowAux, EventMask, Font, Gcontext, ImageFormat, ImageOrder,
    KeyPressEvent, Pixmap, PropMode, Screen, VisualClass, Window, WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::XError;
use super::host::{Flow, Waker, XExit, XHost, XOptions};
use super::keyboard::{self, Key, KeyboardMap};
use super::render::{Frame, Renderer, Rgb, Scene, TextItem, TextMetrics};
use super::theme;

/// The font tried when `$HNEFATAFL_FONT` is unset or cannot be opened.
const DEFAULT_FONT: &str = "-misc-fixed-medium-r-normal-*-*-140-*-*-*-*-iso10646-*";
/// The last resort; every X server has it.
const LAST_FONT: &str = "fixed";
/// Control and Mod1 (Alt) in a key event's state.
const CHORD_MASK: u16 = 4 | 8;
/// How often the progress bar moves while a computer thinks.
const THINKING_REDRAW: Duration = Duration::from_millis(100);

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

/// How the server wants pixels: which bits hold red, green and blue in a 32-bit pixel.
#[derive(Clone, Copy, Debug)]
struct PixelFormat {
    red_mask: u32,
    green_mask: u32,
    blue_mask: u32,
    big_endian: bool,
    depth: u8,
}

impl PixelFormat {
    fn of_screen(conn: &RustConnection, screen: &Screen) -> Result<PixelFormat, XError> {
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
        let bits_per_pixel = conn
            .setup()
            .pixmap_formats
            .iter()
            .find(|format| format.depth == depth)
            .map(|format| format.bits_per_pixel);
        let true_colour = matches!(
            visual.class,
            VisualClass::TRUE_COLOR | VisualClass::DIRECT_COLOR
        );
        if !true_colour || bits_per_pixel != Some(32) {
            return Err(XError::Unsupported(format!(
                "depth {depth}, {bits_per_pixel:?} bits a pixel, {:?}: a 24- or 32-bit true-colour screen is needed",
                visual.class
            )));
        }
        Ok(PixelFormat {
            red_mask: visual.red_mask,
            green_mask: visual.green_mask,
            blue_mask: visual.blue_mask,
            big_endian: conn.setup().image_byte_order == ImageOrder::MSB_FIRST,
            depth,
        })
    }

    fn pixel(&self, colour: Rgb) -> u32 {
        fn place(value: u8, mask: u32) -> u32 {
            if mask == 0 {
                return 0;
            }
            let shift = mask.trailing_zeros();
            let bits = (mask >> shift).count_ones();
            ((u32::from(value) >> (8 - bits.min(8))) << shift) & mask
        }
        place(colour[0], self.red_mask)
            | place(colour[1], self.green_mask)
            | place(colour[2], self.blue_mask)
    }

    /// The frame's rows as the server's 32-bit pixels.
    fn encode(&self, frame: &Frame) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(frame.image.as_raw().len());
        for pixel in frame.image.pixels() {
            let value = self.pixel([pixel[0], pixel[1], pixel[2]]);
            if self.big_endian {
                bytes.extend_from_slice(&value.to_be_bytes());
            } else {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        bytes
    }
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
    utf8_string: u32,
    wake: u32,
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
            utf8_string: intern("UTF8_STRING")?,
            wake: intern("_HNEFATAFL_WAKE")?,
        })
    }
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
    selected: Option<usize>,
    targets: Vec<usize>,
    typed: Option<String>,
    message: String,
    layout: Option<super::render::Layout>,
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
        let format = PixelFormat::of_screen(&conn, &screen)?;
        let atoms = Atoms::new(&conn)?;
        let font = open_font(&conn)?;

        let (width, height) = (660u16, 760u16);
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
                .background_pixel(format.pixel(super::render::BACKGROUND))
                .backing_store(BackingStore::WHEN_MAPPED)
                .event_mask(
                    EventMask::EXPOSURE
                        | EventMask::STRUCTURE_NOTIFY
                        | EventMask::KEY_PRESS
                        | EventMask::BUTTON_PRESS,
                ),
        )?
        .check()?;
        let title = host.title();
        conn.change_property8(
            PropMode::REPLACE,
            window,
            AtomEnum::WM_NAME,
            AtomEnum::STRING,
            &latin1_bytes(&title),
        )?;
        conn.change_property8(
            PropMode::REPLACE,
            window,
            atoms.net_wm_name,
            atoms.utf8_string,
            title.as_bytes(),
        )?;
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

        let gc = conn.generate_id()?;
        let mut gc_values = CreateGCAux::new().graphics_exposures(0);
        if let Some(font) = &font {
            gc_values = gc_values.font(font.font);
        }
        conn.create_gc(gc, window, &gc_values)?;
        let pixmap = conn.generate_id()?;
        conn.create_pixmap(format.depth, pixmap, window, width, height)?;
        conn.map_window(window)?;
        conn.flush()?;

        let keyboard = keyboard_map(&conn)?;
        let message = loaded.warning.clone().unwrap_or_default();
        Ok(XWindow {
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
            selected: None,
            targets: Vec::new(),
            typed: None,
            message,
            layout: None,
        })
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

    fn event_loop(&mut self, host: &mut dyn XHost, waker: &Waker) -> Result<XExit, XError> {
        let mut dirty = true;
        loop {
            if let Some(line) = host.poll(waker) {
                self.message = line;
                self.selected = None;
                self.targets.clear();
                dirty = true;
            }
            let thinking = host.view().thinking.is_some();
            if dirty || thinking {
                self.draw(host)?;
                dirty = false;
            }
            let event = if thinking {
                match self.conn.poll_for_event()? {
                    Some(event) => event,
                    None => {
                        std::thread::sleep(THINKING_REDRAW);
                        continue;
                    }
                }
            } else {
                self.conn.wait_for_event()?
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

    fn handle(
        &mut self,
        host: &mut dyn XHost,
        event: Event,
        dirty: &mut bool,
    ) -> Result<Option<XExit>, XError> {
        match event {
            Event::Expose(expose) if expose.count == 0 => self.show()?,
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
            }
            Event::ClientMessage(message) => {
                let data = message.data.as_data32();
                if message.type_ == self.atoms.wm_protocols
                    && data[0] == self.atoms.wm_delete_window
                {
                    return Ok(Some(XExit::Closed));
                }
            }
            Event::ButtonPress(press) => {
                *dirty = true;
                return Ok(self.click(host, &press));
            }
            Event::KeyPress(press) => {
                *dirty = true;
                return Ok(self.key(host, &press));
            }
            Event::MappingNotify(_) => self.keyboard = keyboard_map(&self.conn)?,
            Event::Error(error) => {
                crate::terminal::print_error(&format!("FRX: {:?}", error.error_kind));
            }
            _ => {}
        }
        Ok(None)
    }

    fn click(&mut self, host: &mut dyn XHost, press: &ButtonPressEvent) -> Option<XExit> {
        if press.detail != 1 {
            return None;
        }
        let layout = self.layout?;
        let clicked = layout.square_at(i32::from(press.event_x), i32::from(press.event_y));
        let selected = self.selected.take();
        let targets = std::mem::take(&mut self.targets);
        let square = clicked?;
        if let Some(from) = selected.filter(|&from| from != square) {
            let own = host.targets(square);
            if !targets.contains(&square) && !own.is_empty() {
                // Another own piece: select it instead.
                self.selected = Some(square);
                self.targets = own;
                return None;
            }
            let columns = usize::from(layout.columns.max(1) as u16);
            let line = format!(
                "m {} {} {} {}",
                from % columns,
                from / columns,
                square % columns,
                square / columns
            );
            if !targets.contains(&square) {
                let _ = self.conn.bell(0);
            }
            return self.execute(host, &line);
        }
        if selected.is_none() {
            let targets = host.targets(square);
            if !targets.is_empty() {
                self.selected = Some(square);
                self.targets = targets;
            }
        }
        None
    }

    fn key(&mut self, host: &mut dyn XHost, press: &KeyPressEvent) -> Option<XExit> {
        let state = u16::from(press.state);
        let keysym = self.keyboard.keysym(press.detail, state);
        match keyboard::key(keysym)? {
            // Control and Alt chords are not text.
            Key::Char(_) if state & CHORD_MASK != 0 => {}
            Key::Char(letter) => self.typed.get_or_insert_with(String::new).push(letter),
            Key::Erase => {
                if let Some(typed) = &mut self.typed {
                    typed.pop();
                }
            }
            Key::Cancel => self.typed = None,
            Key::Enter => {
                let line = self.typed.take().unwrap_or_default();
                self.selected = None;
                self.targets.clear();
                return self.execute(host, &line);
            }
        }
        None
    }

    fn execute(&mut self, host: &mut dyn XHost, line: &str) -> Option<XExit> {
        let (output, flow) = host.execute(line);
        self.message = output;
        match flow {
            Flow::Continue => None,
            Flow::LeaveX => Some(XExit::LeaveX),
            Flow::Quit => Some(XExit::Quit),
        }
    }

    /// Renders the scene into the back buffer and shows it.
    fn draw(&mut self, host: &dyn XHost) -> Result<(), XError> {
        let view = host.view();
        let metrics = self
            .font
            .as_ref()
            .map(|font| font.metrics)
            .unwrap_or_default();
        let terminal = match &self.typed {
            Some(typed) => {
                // A line longer than the window shows its end, where the typing is.
                let room = (u32::from(self.width) / metrics.cell_width).saturating_sub(4) as usize;
                let skip = typed.chars().count().saturating_sub(room);
                format!("> {}_", typed.chars().skip(skip).collect::<String>())
            }
            None => self.message.clone(),
        };
        let scene = Scene {
            view: &view,
            selected: self.selected,
            targets: &self.targets,
            terminal: &terminal,
        };
        let frame = self.renderer.render(
            &scene,
            u32::from(self.width),
            u32::from(self.height),
            metrics,
        );
        self.put_frame(&frame)?;
        if self.font.is_some() {
            for item in &frame.texts {
                self.draw_text(item)?;
            }
        }
        self.layout = Some(frame.layout);
        self.show()
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

    /// Sends the frame with PutImage, in bands of rows that fit the server's largest request.
    fn put_frame(&self, frame: &Frame) -> Result<(), XError> {
        let width = frame.image.width() as usize;
        let height = frame.image.height() as usize;
        let data = self.format.encode(frame);
        let row_bytes = width * 4;
        let room = self.conn.maximum_request_bytes().saturating_sub(64);
        let rows_per_band = (room / row_bytes.max(1)).max(1);
        for (band, chunk) in data.chunks(rows_per_band * row_bytes).enumerate() {
            let rows = chunk.len() / row_bytes.max(1);
            let top = band * rows_per_band;
            debug_assert!(top + rows <= height);
            self.conn.put_image(
                ImageFormat::Z_PIXMAP,
                self.pixmap,
                self.gc,
                width as u16,
                rows as u16,
                0,
                top as i16,
                0,
                self.format.depth,
                chunk,
            )?;
        }
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

/// Text as Latin-1 bytes; characters beyond Latin-1 become `?`.
fn latin1_bytes(text: &str) -> Vec<u8> {
    text.chars()
        .map(|letter| u8::try_from(u32::from(letter)).unwrap_or(b'?'))
        .collect()
}
