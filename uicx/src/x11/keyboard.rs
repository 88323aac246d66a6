//! Keys: from the server's keyboard mapping to what the one-line terminal does.
//!
//! Keysym names, the choice of a keycode's keysym by column and the keysym-to-character
//! table come from the `xkeysym` crate; this module only adds Lock and what each key does.

use xkeysym::{KeyCode, Keysym};

/// What a key press means to the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A character to add to the line.
    Char(char),
    /// Run the line (Return, keypad Enter).
    Enter,
    /// Cancel the line (Escape).
    Cancel,
    /// Erase a character (BackSpace, Delete).
    Erase,
    /// The line typed before (Up).
    Up,
    /// The line typed after (Down).
    Down,
    /// Scroll long output back (Page Up).
    PageUp,
    /// Scroll long output on (Page Down).
    PageDown,
    /// A move back in the review view (Left).
    Left,
    /// A move on in the review view (Right).
    Right,
}

const SHIFT_MASK: u16 = 1;
const LOCK_MASK: u16 = 2;

/// The keysyms of each keycode, as `GetKeyboardMapping` returns them.
#[derive(Clone, Debug, Default)]
pub struct KeyboardMap {
    first_keycode: u8,
    per_keycode: u8,
    keysyms: Vec<u32>,
}

impl KeyboardMap {
    /// A map from a `GetKeyboardMapping` reply for keycodes from `first_keycode` on.
    pub fn new(first_keycode: u8, per_keycode: u8, keysyms: Vec<u32>) -> KeyboardMap {
        KeyboardMap {
            first_keycode,
            per_keycode,
            keysyms,
        }
    }

    /// The keysym of a keycode in a modifier state: the second column with Shift, the
    /// first otherwise (as the core protocol describes for the first group); Lock makes
    /// letters upper case. 0 (`NoSymbol`) for a keycode the map does not have.
    pub fn keysym(&self, keycode: u8, state: u16) -> u32 {
        let per_keycode = usize::from(self.per_keycode);
        let known = keycode
            .checked_sub(self.first_keycode)
            .is_some_and(|offset| (usize::from(offset) + 1) * per_keycode <= self.keysyms.len());
        if !known || per_keycode == 0 {
            return 0;
        }
        let shifted = state & SHIFT_MASK != 0;
        let keysym = xkeysym::keysym(
            KeyCode::new(u32::from(keycode)),
            u8::from(shifted),
            KeyCode::new(u32::from(self.first_keycode)),
            self.per_keycode,
            &self.keysyms,
        )
        .map_or(0, Keysym::raw);
        if state & LOCK_MASK != 0 && !shifted {
            if let Some(letter) = keysym_char(keysym).filter(|letter| letter.is_lowercase()) {
                return letter.to_uppercase().next().map_or(keysym, char_keysym);
            }
        }
        keysym
    }

    /// The keycode and modifier state that give a keysym (for sending synthetic keys).
    pub fn find(&self, keysym: u32) -> Option<(u8, u16)> {
        if self.per_keycode == 0 {
            return None;
        }
        for (index, chunk) in self
            .keysyms
            .chunks(usize::from(self.per_keycode))
            .enumerate()
        {
            let keycode = u8::try_from(usize::from(self.first_keycode) + index).ok()?;
            if chunk.first() == Some(&keysym) {
                return Some((keycode, 0));
            }
            if chunk.get(1) == Some(&keysym) {
                return Some((keycode, SHIFT_MASK));
            }
        }
        None
    }
}

/// What a keysym does in the terminal, if anything.
pub fn key(keysym: u32) -> Option<Key> {
    use xkeysym::key;
    match keysym {
        key::Return | key::KP_Enter => Some(Key::Enter),
        key::Escape => Some(Key::Cancel),
        key::BackSpace | key::Delete | key::KP_Delete => Some(Key::Erase),
        key::Up | key::KP_Up => Some(Key::Up),
        key::Down | key::KP_Down => Some(Key::Down),
        key::Page_Up | key::KP_Page_Up => Some(Key::PageUp),
        key::Page_Down | key::KP_Page_Down => Some(Key::PageDown),
        key::Left | key::KP_Left => Some(Key::Left),
        key::Right | key::KP_Right => Some(Key::Right),
        _ => keysym_char(keysym).map(Key::Char),
    }
}

/// The printable character of a keysym (Latin-1, Unicode, keypad and the named keysyms of
/// other scripts); `None` for keys that print nothing.
pub fn keysym_char(keysym: u32) -> Option<char> {
    Keysym::new(keysym)
        .key_char()
        .filter(|letter| !letter.is_control())
}

/// The keysym of a character.
pub fn char_keysym(letter: char) -> u32 {
    Keysym::from_char(letter).raw()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> KeyboardMap {
        // Keycode 10: a/A, 11: 1/!, 12: Return, 13: adiaeresis, 14: a Unicode-only key.
        KeyboardMap::new(
            10,
            2,
            vec![
                0x61,
                0x41,
                0x31,
                0x21,
                0xff0d,
                0,
                0xe4,
                0xc4,
                0x0100_0416,
                0,
            ],
        )
    }

    #[test]
    fn shift_and_lock_choose_the_column() {
        let map = map();
        assert_eq!(map.keysym(10, 0), 0x61);
        assert_eq!(map.keysym(10, SHIFT_MASK), 0x41);
        assert_eq!(map.keysym(10, LOCK_MASK), 0x41);
        assert_eq!(map.keysym(11, LOCK_MASK), 0x31);
        assert_eq!(map.keysym(11, SHIFT_MASK), 0x21);
        assert_eq!(map.keysym(12, SHIFT_MASK), 0xff0d);
        assert_eq!(map.keysym(13, LOCK_MASK), 0xc4);
        assert_eq!(map.keysym(9, 0), 0);
        assert_eq!(map.keysym(200, 0), 0);
        assert_eq!(KeyboardMap::default().keysym(10, 0), 0);
    }

    #[test]
    fn keys_and_characters() {
        assert_eq!(key(0x61), Some(Key::Char('a')));
        assert_eq!(key(0xe4), Some(Key::Char('ä')));
        assert_eq!(key(0x0100_0416), Some(Key::Char('Ж')));
        assert_eq!(key(0xffb5), Some(Key::Char('5')));
        assert_eq!(key(0xff0d), Some(Key::Enter));
        assert_eq!(key(0xff1b), Some(Key::Cancel));
        assert_eq!(key(0xff08), Some(Key::Erase));
        assert_eq!(key(0xffff), Some(Key::Erase));
        assert_eq!(key(0xff52), Some(Key::Up));
        assert_eq!(key(0xff54), Some(Key::Down));
        assert_eq!(key(0xff55), Some(Key::PageUp));
        assert_eq!(key(0xff56), Some(Key::PageDown));
        assert_eq!(key(0xffe1), None, "Shift alone types nothing");
        assert_eq!(key(0xff09), None, "Tab types nothing");
        assert_eq!(map().find(0x21), Some((11, SHIFT_MASK)));
        assert_eq!(map().find(0x0100_0416), Some((14, 0)));
        assert_eq!(map().find(char_keysym('!')), Some((11, SHIFT_MASK)));
        assert_eq!(map().find(0x7a), None);
    }
}
