//! What the window asks of the X server: the pixel format and the font it draws with, the
//! atoms it names, and each frame: the pixels, the text over them, and the property that
//! tells what was drawn.

use x11rb::connection::Connection;
use x11rb::errors::{ConnectionError, ReplyError, ReplyOrIdError};
use x11rb::image::{Image, PixelLayout};
use x11rb::protocol::xproto::{AtomEnum, ChangeGCAux, ConnectionExt as _, Font, PropMode, Screen};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::{DEFAULT_FONT, DRAWN_PROPERTY, LAST_FONT, XWindow};
use crate::x11::XError;
use crate::x11::host::XHost;
use crate::x11::keyboard::KeyboardMap;
use crate::x11::render::{Drag, Frame, Rgb, Scene, TextItem, TextMetrics};

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
pub(super) struct PixelFormat {
    pub(super) layout: PixelLayout,
    pub(super) depth: u8,
}

impl PixelFormat {
    pub(super) fn of_screen(screen: &Screen) -> Result<PixelFormat, XError> {
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

    pub(super) fn pixel(&self, colour: Rgb) -> u32 {
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
pub(super) struct TextFont {
    pub(super) font: Font,
    pub(super) metrics: TextMetrics,
}

pub(super) fn open_font(conn: &RustConnection) -> Result<Option<TextFont>, XError> {
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
pub(super) struct Atoms {
    pub(super) wm_protocols: u32,
    pub(super) wm_delete_window: u32,
    pub(super) net_wm_name: u32,
    pub(super) net_wm_pid: u32,
    pub(super) utf8_string: u32,
    pub(super) wake: u32,
    pub(super) drawn: u32,
}

impl Atoms {
    pub(super) fn new(conn: &RustConnection) -> Result<Atoms, XError> {
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

impl XWindow {
    /// Renders the scene into the back buffer and shows it.
    pub(super) fn draw(&mut self, host: &dyn XHost) -> Result<(), XError> {
        let view = host.view();
        self.drawn_view = Some(view.clone());
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
    pub(super) fn show(&self) -> Result<(), XError> {
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

pub(super) fn keyboard_map(conn: &RustConnection) -> Result<KeyboardMap, XError> {
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
pub(super) fn host_name() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
}

/// Text as Latin-1 bytes; characters beyond Latin-1 become `?`.
pub(super) fn latin1_bytes(text: &str) -> Vec<u8> {
    text.chars()
        .map(|letter| u8::try_from(u32::from(letter)).unwrap_or(b'?'))
        .collect()
}
