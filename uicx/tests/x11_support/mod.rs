//! Driving a real X server from tests: finding the window, reading it back, and sending
//! clicks and keys with the XTEST extension.
//!
//! Nothing here sleeps for a fixed time: after each input the driver waits until the window
//! says (in its `_HNEFATAFL_DRAWN` property) that it has handled that input and drawn the
//! result.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use image::{Rgba, RgbaImage};
use uicx::x11::keyboard::{self, KeyboardMap};
use uicx::x11::render::{Layout, Rgb, TextMetrics};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConnectionExt as _, EventMask, ImageFormat, Window,
};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

/// The display the tests use: they need a real X server and fail, never skip, without one.
///
/// The first call also opens a connection that stays open while the tests run: an X server
/// resets itself when its last client leaves, and refuses connections while it does, which
/// would make the next test's first connection fail.
pub fn require_display() -> String {
    let display = match std::env::var("DISPLAY") {
        Ok(display) if !display.is_empty() => display,
        _ => panic!(
            "DISPLAY is not set: the X interface tests need an X server; run them under \
             `xvfb-run -a cargo test -p uicx` (apt-get install -y xvfb xauth xfonts-base)"
        ),
    };
    static KEEP_SERVER: std::sync::OnceLock<RustConnection> = std::sync::OnceLock::new();
    KEEP_SERVER.get_or_init(|| connect_with_retry(None).0);
    display
}

/// One program window at a time (the keyboard goes to the window under the pointer).
static ONE_WINDOW: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Waits for the display to be free of other tests' windows and holds it; also checks
/// that there is a display (see [`require_display`]).
pub fn one_window() -> std::sync::MutexGuard<'static, ()> {
    require_display();
    ONE_WINDOW
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Connects to a display, trying again for a while when the server is busy resetting.
fn connect_with_retry(display: Option<&str>) -> (RustConnection, usize) {
    let start = Instant::now();
    loop {
        match x11rb::connect(display) {
            Ok(connected) => return connected,
            Err(error) if start.elapsed() < Duration::from_secs(20) => {
                eprintln!("note: the X server refused a connection ({error}); trying again");
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(error) => panic!("connect to the X server: {error}"),
        }
    }
}

/// The fonts the window tries when `$HNEFATAFL_FONT` is unset, in order.
const FONTS: [&str; 2] = [
    "-misc-fixed-medium-r-normal-*-*-140-*-*-*-*-iso10646-*",
    "fixed",
];

/// The default font's cell, read from the server as the window does.
pub fn server_metrics(driver: &Driver) -> TextMetrics {
    let font = driver.open_default_font();
    let info = driver
        .conn
        .query_font(font)
        .expect("request")
        .reply()
        .expect("font");
    driver.conn.close_font(font).expect("request");
    TextMetrics {
        cell_width: info.max_bounds.character_width.max(1) as u32,
        ascent: info.font_ascent.max(1) as u32,
        descent: info.font_descent.max(0) as u32,
    }
}

/// An image from the pixels of a 32-bit-per-pixel Z-format reply.
fn to_image(width: u32, height: u32, data: &[u8]) -> RgbaImage {
    assert_eq!(
        data.len(),
        (width * height * 4) as usize,
        "a 32-bit-per-pixel screen"
    );
    let mut image = RgbaImage::new(width, height);
    for (pixel, bytes) in image.pixels_mut().zip(data.chunks_exact(4)) {
        // Xvfb's default visual: 0x00RRGGBB, least significant byte first.
        *pixel = Rgba([bytes[2], bytes[1], bytes[0], 255]);
    }
    image
}

/// A second client of the X server that watches and drives the window under test.
pub struct Driver {
    /// The connection.
    pub conn: RustConnection,
    root: Window,
    keyboard: KeyboardMap,
    wm_protocols: u32,
    wm_delete_window: u32,
    net_wm_name: u32,
    drawn: u32,
}

/// How long the driver waits for the window to handle an input and draw.
const INPUT_WAIT: Duration = Duration::from_secs(20);

/// What a window's `_HNEFATAFL_DRAWN` property says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// Key and button events handled.
    pub inputs: u32,
    /// Frames drawn.
    pub frames: u32,
    /// The size of the last frame.
    pub size: (u32, u32),
}

impl Driver {
    /// Connects to `$DISPLAY`.
    pub fn connect() -> Driver {
        require_display();
        Driver::connect_to(None)
    }

    /// Connects to a display (`None`: `$DISPLAY`).
    pub fn connect_to(display: Option<&str>) -> Driver {
        let (conn, screen) = connect_with_retry(display);
        let root = conn.setup().roots[screen].root;
        let (first, last) = (conn.setup().min_keycode, conn.setup().max_keycode);
        let mapping = conn
            .get_keyboard_mapping(first, last - first + 1)
            .expect("request")
            .reply()
            .expect("mapping");
        let keyboard = KeyboardMap::new(first, mapping.keysyms_per_keycode, mapping.keysyms);
        let intern = |name: &str| {
            conn.intern_atom(false, name.as_bytes())
                .expect("request")
                .reply()
                .expect("atom")
                .atom
        };
        let (wm_protocols, wm_delete_window, net_wm_name, drawn) = (
            intern("WM_PROTOCOLS"),
            intern("WM_DELETE_WINDOW"),
            intern("_NET_WM_NAME"),
            intern("_HNEFATAFL_DRAWN"),
        );
        conn.xtest_get_version(2, 2)
            .expect("request")
            .reply()
            .expect("the XTEST extension");
        Driver {
            conn,
            root,
            keyboard,
            wm_protocols,
            wm_delete_window,
            net_wm_name,
            drawn,
        }
    }

    /// What the window has drawn, once it has drawn anything.
    pub fn drawn(&self, window: Window) -> Option<Drawn> {
        let reply = self
            .conn
            .get_property(false, window, self.drawn, AtomEnum::CARDINAL, 0, 4)
            .ok()?
            .reply()
            .ok()?;
        let values: Vec<u32> = reply.value32()?.collect();
        match values[..] {
            [inputs, frames, width, height] => Some(Drawn {
                inputs,
                frames,
                size: (width, height),
            }),
            _ => None,
        }
    }

    /// The window's count of handled inputs (0 before its first frame).
    fn inputs(&self, window: Window) -> u32 {
        self.drawn(window).map_or(0, |drawn| drawn.inputs)
    }

    /// Waits until the window has handled `count` more inputs than `before` and drawn the
    /// result, or is gone (the input closed it).
    fn wait_for_inputs(&self, window: Window, before: u32, count: u32) {
        wait_until("the window to handle the input", INPUT_WAIT, || {
            !self.exists(window) || self.inputs(window).wrapping_sub(before) >= count
        });
    }

    /// Waits until the window has drawn a new frame (after `frames`).
    pub fn wait_for_frame(&self, window: Window, frames: u32) {
        wait_until("a new frame", INPUT_WAIT, || {
            self.drawn(window)
                .is_some_and(|drawn| drawn.frames != frames)
        });
    }

    /// The frame count now.
    pub fn frames(&self, window: Window) -> u32 {
        self.drawn(window).map_or(0, |drawn| drawn.frames)
    }

    fn title(&self, window: Window) -> Option<String> {
        for property in [self.net_wm_name, u32::from(AtomEnum::WM_NAME)] {
            let reply = self
                .conn
                .get_property(false, window, property, AtomEnum::ANY, 0, 1024)
                .ok()?
                .reply()
                .ok()?;
            if !reply.value.is_empty() {
                return Some(String::from_utf8_lossy(&reply.value).into_owned());
            }
        }
        None
    }

    /// The mapped top-level windows whose title starts with `prefix`: children of the
    /// root, or under a window manager's frames (a few levels down).
    pub fn windows(&self, prefix: &str) -> Vec<Window> {
        let mut level = vec![self.root];
        let mut all = Vec::new();
        for _ in 0..3 {
            let children: Vec<Window> = level
                .iter()
                .filter_map(|&parent| self.conn.query_tree(parent).ok()?.reply().ok())
                .flat_map(|tree| tree.children)
                .collect();
            all.extend(children.iter().copied());
            level = children;
        }
        all.into_iter()
            .filter(|&window| {
                self.title(window)
                    .is_some_and(|title| title.starts_with(prefix))
            })
            .filter(|&window| {
                self.conn
                    .get_window_attributes(window)
                    .ok()
                    .and_then(|cookie| cookie.reply().ok())
                    .is_some_and(|attributes| {
                        attributes.map_state == x11rb::protocol::xproto::MapState::VIEWABLE
                    })
            })
            .collect()
    }

    /// Waits for a mapped window whose title starts with `prefix` (and that is not in
    /// `except`).
    pub fn find_window(&self, prefix: &str, except: &[Window], timeout: Duration) -> Window {
        let start = Instant::now();
        loop {
            // A window counts once it has drawn its first frame.
            if let Some(window) = self
                .windows(prefix)
                .into_iter()
                .find(|&window| !except.contains(&window) && self.drawn(window).is_some())
            {
                return window;
            }
            assert!(
                start.elapsed() < timeout,
                "no window titled {prefix:?} within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the drawn window of the program with this process id (by `_NET_WM_PID`),
    /// so that a window a previous test left behind is never taken for it.
    pub fn find_program_window(&self, pid: u32, timeout: Duration) -> Window {
        let start = Instant::now();
        loop {
            let found = self.windows("").into_iter().find(|&window| {
                let value = self.property(window, "_NET_WM_PID");
                value.len() == 4
                    && u32::from_le_bytes([value[0], value[1], value[2], value[3]]) == pid
                    && self.drawn(window).is_some()
            });
            if let Some(window) = found {
                return window;
            }
            assert!(
                start.elapsed() < timeout,
                "no window of process {pid} within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the window still exists.
    pub fn exists(&self, window: Window) -> bool {
        self.conn
            .get_geometry(window)
            .ok()
            .and_then(|cookie| cookie.reply().ok())
            .is_some()
    }

    /// The full title of a window.
    pub fn window_title(&self, window: Window) -> String {
        self.title(window).unwrap_or_default()
    }

    /// The window's size.
    pub fn size(&self, window: Window) -> (u32, u32) {
        let geometry = self
            .conn
            .get_geometry(window)
            .expect("request")
            .reply()
            .expect("geometry");
        (u32::from(geometry.width), u32::from(geometry.height))
    }

    /// The window's layout for a board of the given size, as the window computes it.
    pub fn layout(&self, window: Window, columns: u32, rows: u32) -> Layout {
        let (width, height) = self.size(window);
        Layout::new(columns, rows, width, height, server_metrics(self))
    }

    /// The window's pixels as the server has them.
    pub fn screenshot(&self, window: Window) -> RgbaImage {
        let (width, height) = self.size(window);
        self.read_image(window, width, height)
    }

    /// The pixels of a window or pixmap, from its top-left corner.
    fn read_image(&self, drawable: u32, width: u32, height: u32) -> RgbaImage {
        let reply = self
            .conn
            .get_image(
                ImageFormat::Z_PIXMAP,
                drawable,
                0,
                0,
                width as u16,
                height as u16,
                !0,
            )
            .expect("request")
            .reply()
            .expect("image");
        to_image(width, height, &reply.data)
    }

    /// One pixel of the window.
    pub fn pixel(&self, window: Window, x: u32, y: u32) -> Rgb {
        let reply = self
            .conn
            .get_image(ImageFormat::Z_PIXMAP, window, x as i16, y as i16, 1, 1, !0)
            .expect("request")
            .reply()
            .expect("image");
        [reply.data[2], reply.data[1], reply.data[0]]
    }

    fn to_root(&self, window: Window, x: u32, y: u32) -> (i16, i16) {
        let reply = self
            .conn
            .translate_coordinates(window, self.root, x as i16, y as i16)
            .expect("request")
            .reply()
            .expect("coordinates");
        (reply.dst_x, reply.dst_y)
    }

    /// Whether the window shows `text` somewhere, drawn as the window draws its text: in
    /// the default font, in `foreground` on `background`. The driver draws the text itself
    /// with the same font and looks for those pixels in the window's.
    pub fn shows_text(&self, window: Window, text: &str, foreground: Rgb, background: Rgb) -> bool {
        let wanted = self.drawn_text(text, foreground, background);
        let (width, height) = self.size(window);
        let (text_width, text_height) = (wanted.width(), wanted.height());
        if text_width > width || text_height > height {
            return false;
        }
        let shot = self.screenshot(window);
        (0..=height - text_height).any(|y| {
            (0..=width - text_width).any(|x| {
                (0..text_height).all(|row| {
                    (0..text_width).all(|column| {
                        shot.get_pixel(x + column, y + row) == wanted.get_pixel(column, row)
                    })
                })
            })
        })
    }

    /// Waits until the window shows `text` (see [`Driver::shows_text`]).
    pub fn wait_for_text(&self, window: Window, text: &str, foreground: Rgb, background: Rgb) {
        wait_until(&format!("the text {text:?}"), INPUT_WAIT, || {
            self.shows_text(window, text, foreground, background)
        });
    }

    /// `text` drawn with ImageText16 in the window's default font, as an image of its
    /// cells.
    fn drawn_text(&self, text: &str, foreground: Rgb, background: Rgb) -> RgbaImage {
        let metrics = server_metrics(self);
        let font = self.open_default_font();
        let screen = &self.conn.setup().roots[0];
        let chars: Vec<_> = text
            .chars()
            .map(|letter| {
                let [byte1, byte2] = (u32::from(letter) as u16).to_be_bytes();
                x11rb::protocol::xproto::Char2b { byte1, byte2 }
            })
            .collect();
        let width = metrics.cell_width * chars.len() as u32;
        let height = metrics.ascent + metrics.descent;
        let pixmap = self.conn.generate_id().expect("id");
        self.conn
            .create_pixmap(
                screen.root_depth,
                pixmap,
                self.root,
                width as u16,
                height as u16,
            )
            .expect("pixmap");
        let gc = self.conn.generate_id().expect("id");
        let pixel = |colour: Rgb| {
            (u32::from(colour[0]) << 16) | (u32::from(colour[1]) << 8) | u32::from(colour[2])
        };
        self.conn
            .create_gc(
                gc,
                pixmap,
                &x11rb::protocol::xproto::CreateGCAux::new()
                    .font(font)
                    .foreground(pixel(foreground))
                    .background(pixel(background))
                    .graphics_exposures(0),
            )
            .expect("gc");
        self.conn
            .image_text16(pixmap, gc, 0, metrics.ascent as i16, &chars)
            .expect("text");
        let image = self.read_image(pixmap, width, height);
        self.conn.free_gc(gc).expect("free");
        self.conn.free_pixmap(pixmap).expect("free");
        self.conn.close_font(font).expect("free");
        image
    }

    /// Opens the font the window uses when `$HNEFATAFL_FONT` is unset.
    fn open_default_font(&self) -> u32 {
        for name in FONTS {
            let font = self.conn.generate_id().expect("id");
            if self
                .conn
                .open_font(font, name.as_bytes())
                .expect("request")
                .check()
                .is_ok()
            {
                return font;
            }
        }
        panic!("the X server has neither the default font nor `fixed`");
    }

    /// Moves the pointer to a point of the window and clicks the first button; returns
    /// once the window has handled the click and drawn.
    pub fn click(&self, window: Window, x: u32, y: u32) {
        self.buttons_at(window, x, y, &[true, false]);
    }

    /// Presses the first button at one point, moves the pointer to another in a few
    /// steps and releases it there; returns once the window has handled the release.
    pub fn drag(&self, window: Window, from: (u32, u32), to: (u32, u32)) {
        self.press(window, from.0, from.1);
        // The last step, to `to` itself, is the release's.
        for step in 1..4 {
            let along =
                |a: u32, b: u32| (i64::from(a) + (i64::from(b) - i64::from(a)) * step / 4) as u32;
            self.move_pointer(window, along(from.0, to.0), along(from.1, to.1));
        }
        self.release(window, to.0, to.1);
    }

    /// Turns the mouse wheel one notch (down or up) with the pointer at a point of the
    /// window; returns once the window has handled it.
    pub fn wheel(&self, window: Window, x: u32, y: u32, down: bool) {
        let before = self.inputs(window);
        self.move_pointer(window, x, y);
        let button = if down { 5 } else { 4 };
        for kind in [4, 5] {
            self.conn
                .xtest_fake_input(kind, button, 0, self.root, 0, 0, 0)
                .expect("wheel");
        }
        self.conn.sync().expect("sync");
        self.wait_for_inputs(window, before, 2);
    }

    /// Moves the pointer to a point of the window and presses the first button, keeping
    /// it down; returns once the window has handled the press.
    pub fn press(&self, window: Window, x: u32, y: u32) {
        self.buttons_at(window, x, y, &[true]);
    }

    /// Moves the pointer to a point of the window and releases the first button there;
    /// returns once the window has handled the release.
    pub fn release(&self, window: Window, x: u32, y: u32) {
        self.buttons_at(window, x, y, &[false]);
    }

    /// Moves the pointer to a point of the window and presses (`true`) and releases the
    /// first button in this order; returns once the window has handled each of them.
    fn buttons_at(&self, window: Window, x: u32, y: u32, presses: &[bool]) {
        let before = self.inputs(window);
        self.move_pointer(window, x, y);
        for &down in presses {
            self.button(down);
        }
        self.conn.sync().expect("sync");
        self.wait_for_inputs(window, before, presses.len() as u32);
    }

    fn move_pointer(&self, window: Window, x: u32, y: u32) {
        let (root_x, root_y) = self.to_root(window, x, y);
        self.conn
            .xtest_fake_input(6, 0, 0, self.root, root_x, root_y, 0)
            .expect("motion");
    }

    fn button(&self, down: bool) {
        let kind = if down { 4 } else { 5 };
        self.conn
            .xtest_fake_input(kind, 1, 0, self.root, 0, 0, 0)
            .expect("button");
    }

    /// Types text into the window (the pointer is moved over it, so that it has the focus
    /// without a window manager); `\n` is Return, `\x1b` Escape, `\x08` BackSpace,
    /// `\u{2191}` and `\u{2193}` (arrows) Up and Down, `\u{2190}` and `\u{2192}` Left and
    /// Right. Returns once the window has handled
    /// every key and drawn (or closed).
    pub fn type_text(&self, window: Window, text: &str) {
        self.type_keys(window, text, 0);
    }

    /// Types one letter with Control held.
    pub fn control(&self, window: Window, letter: char) {
        let control = self.keyboard.find(0xffe3).expect("a Control key").0;
        self.type_keys(window, &letter.to_string(), control);
    }

    fn type_keys(&self, window: Window, text: &str, held: u8) {
        let before = self.inputs(window);
        let (root_x, root_y) = self.to_root(window, 5, 5);
        self.conn
            .xtest_fake_input(6, 0, 0, self.root, root_x, root_y, 0)
            .expect("motion");
        let shift = self.keyboard.find(0xffe1).expect("a Shift key").0;
        let mut presses = 0;
        if held != 0 {
            self.conn
                .xtest_fake_input(2, held, 0, self.root, 0, 0, 0)
                .expect("hold");
            presses += 1;
        }
        for letter in text.chars() {
            let keysym = match letter {
                '\n' => 0xff0d,
                '\x1b' => 0xff1b,
                '\x08' => 0xff08,
                '\u{2191}' => 0xff52,
                '\u{2193}' => 0xff54,
                '\u{2190}' => 0xff51,
                '\u{2192}' => 0xff53,
                other => keyboard::char_keysym(other),
            };
            let (keycode, state) = self
                .keyboard
                .find(keysym)
                .unwrap_or_else(|| panic!("no key types {letter:?}"));
            if state != 0 {
                self.conn
                    .xtest_fake_input(2, shift, 0, self.root, 0, 0, 0)
                    .expect("shift");
                presses += 1;
            }
            self.conn
                .xtest_fake_input(2, keycode, 0, self.root, 0, 0, 0)
                .expect("press");
            presses += 1;
            self.conn
                .xtest_fake_input(3, keycode, 0, self.root, 0, 0, 0)
                .expect("release");
            if state != 0 {
                self.conn
                    .xtest_fake_input(3, shift, 0, self.root, 0, 0, 0)
                    .expect("shift");
            }
        }
        if held != 0 {
            self.conn
                .xtest_fake_input(3, held, 0, self.root, 0, 0, 0)
                .expect("let go");
        }
        self.conn.sync().expect("sync");
        self.wait_for_inputs(window, before, presses);
    }

    /// Asks the window to close, as a window manager's close button does.
    pub fn close(&self, window: Window) {
        let event = ClientMessageEvent::new(
            32,
            window,
            self.wm_protocols,
            [self.wm_delete_window, 0, 0, 0, 0],
        );
        self.conn
            .send_event(false, window, EventMask::NO_EVENT, event)
            .expect("send");
        self.conn.sync().expect("sync");
    }

    /// Resizes the window; returns once it has drawn at the new size.
    pub fn resize(&self, window: Window, width: u32, height: u32) {
        let aux = x11rb::protocol::xproto::ConfigureWindowAux::new()
            .width(width)
            .height(height);
        self.conn.configure_window(window, &aux).expect("configure");
        self.conn.sync().expect("sync");
        wait_until("the window to draw at its new size", INPUT_WAIT, || {
            self.drawn(window)
                .is_some_and(|drawn| drawn.size == (width, height))
        });
    }

    /// A property of the window as bytes (empty when unset).
    pub fn property(&self, window: Window, name: &str) -> Vec<u8> {
        let atom = self
            .conn
            .intern_atom(false, name.as_bytes())
            .expect("request")
            .reply()
            .expect("atom")
            .atom;
        self.conn
            .get_property(false, window, atom, AtomEnum::ANY, 0, 1024)
            .expect("request")
            .reply()
            .map(|reply| reply.value)
            .unwrap_or_default()
    }
}

/// Waits until `check` holds, or fails with `what`.
pub fn wait_until(what: &str, timeout: Duration, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The mean colour of a square, a little inside its edges (away from the marks).
pub fn square_mean(image: &RgbaImage, layout: &Layout, index: usize) -> Rgb {
    let (x, y) = layout.square_origin(index);
    let inset = layout.square / 5;
    let mut sums = [0u64; 3];
    let mut count = 0;
    for row in y + inset..y + layout.square - inset {
        for column in x + inset..x + layout.square - inset {
            let pixel = image.get_pixel(column, row);
            for channel in 0..3 {
                sums[channel] += u64::from(pixel[channel]);
            }
            count += 1;
        }
    }
    sums.map(|sum| (sum / count.max(1)) as u8)
}

/// Whether two colours differ by at most `tolerance` in every channel.
pub fn near(a: Rgb, b: Rgb, tolerance: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tolerance)
}

/// The shipped data folder.
pub fn data_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// Where tests leave their screenshots: `target/tmp/x11-shots/` (docs/x11.md shows some).
pub fn save_shot(image: &RgbaImage, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("x11-shots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    image
        .save(dir.join(format!("{name}.png")))
        .expect("write the screenshot");
}

/// The real program under test; killed if a check fails before it ends.
pub struct Program(pub Option<std::process::Child>);

impl Drop for Program {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Program {
    /// Starts `hnefatafl` with the shipped data, a home of its own, no stray settings, and
    /// stdin piped (`stdin_open`) or already at its end.
    pub fn start(
        home: &std::path::Path,
        display: Option<&str>,
        arguments: &[&str],
        stdin_open: bool,
    ) -> Program {
        use std::process::{Command, Stdio};
        // `HNEFATAFL_TEST_BINARY` runs the tests against another build (an older one, to
        // see a test fail there).
        let binary = std::env::var_os("HNEFATAFL_TEST_BINARY")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_hnefatafl").into());
        let mut command = Command::new(binary);
        command
            .arg("-d")
            .arg(data_dir())
            .args(arguments)
            .env("HOME", home)
            .stdin(if stdin_open {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for variable in [
            "HNEFATAFL_FONT",
            "HNEFATAFL_LANG",
            "HNEFATAFL_PATH",
            "HNEFATAFL_RC",
            "HNEFATAFL_RULES",
        ] {
            command.env_remove(variable);
        }
        if let Some(display) = display {
            command.env("DISPLAY", display);
        }
        Program(Some(command.spawn().expect("start hnefatafl")))
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.0.as_ref().expect("running").id()
    }

    /// Writes to the program's stdin.
    pub fn send(&mut self, text: &str) {
        use std::io::Write;
        let child = self.0.as_mut().expect("running");
        let stdin = child.stdin.as_mut().expect("stdin");
        stdin.write_all(text.as_bytes()).expect("write to stdin");
        stdin.flush().expect("flush stdin");
    }

    /// Closes stdin and waits for the program to end; fails after `timeout`.
    pub fn finish(mut self, timeout: Duration) -> std::process::Output {
        let mut child = self.0.take().expect("running");
        drop(child.stdin.take());
        let start = Instant::now();
        while child.try_wait().expect("wait").is_none() {
            if start.elapsed() > timeout {
                let _ = child.kill();
                let output = child.wait_with_output().expect("output");
                panic!(
                    "hnefatafl did not end: {}",
                    String::from_utf8_lossy(&output.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().expect("output")
    }
}
