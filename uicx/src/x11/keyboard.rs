//! Keys: from the server's keyboard mapping to what the one-line terminal does.

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
}

const SHIFT_MASK: u16 = 1;
const LOCK_MASK: u16 = 2;

/// The keysyms of each keycode, as `GetKeyboardMapping` returns them.
#[derive(Clone, Debug, Default)]
pub struct KeyboardMap {
    first_keycode: u8,
    per_keycode: usize,
    keysyms: Vec<u32>,
}

impl KeyboardMap {
    /// A map from a `GetKeyboardMapping` reply for keycodes from `first_keycode` on.
    pub fn new(first_keycode: u8, per_keycode: u8, keysyms: Vec<u32>) -> KeyboardMap {
        KeyboardMap {
            first_keycode,
            per_keycode: usize::from(per_keycode),
            keysyms,
        }
    }

    /// The keysym of a keycode in a modifier state: the second column with Shift, the
    /// first otherwise (as the core protocol describes for the first group); Lock makes
    /// letters upper case.
    pub fn keysym(&self, keycode: u8, state: u16) -> u32 {
        let Some(offset) = keycode.checked_sub(self.first_keycode) else {
            return 0;
        };
        let start = usize::from(offset) * self.per_keycode;
        let column = |index: usize| {
            if index < self.per_keycode {
                self.keysyms.get(start + index).copied().unwrap_or(0)
            } else {
                0
            }
        };
        let lower = column(0);
        let upper = match column(1) {
            0 => lower,
            upper => upper,
        };
        let shifted = state & SHIFT_MASK != 0;
        let keysym = if shifted { upper } else { lower };
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
        for (index, chunk) in self.keysyms.chunks(self.per_keycode).enumerate() {
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
    match keysym {
        0xff0d | 0xff8d => Some(Key::Enter),
        0xff1b => Some(Key::Cancel),
        0xff08 | 0xffff | 0xff9f => Some(Key::Erase),
        _ => keysym_char(keysym).map(Key::Char),
    }
}

/// The printable character of a keysym: Latin-1 keysyms are their code, Unicode keysyms
/// are `0x0100_0000` plus the code point, keypad digits and operators are their character.
pub fn keysym_char(keysym: u32) -> Option<char> {
    let code = match keysym {
        0x20..=0x7e | 0xa0..=0xff => keysym,
        0x0100_00a0..=0x0110_ffff => keysym - 0x0100_0000,
        0xff80 => u32::from(b' '),
        0xffaa..=0xffb9 => keysym - 0xff80,
        _ => return None,
    };
    char::from_u32(code).filter(|letter| !letter.is_control())
}

/// The keysym of a character.
pub fn char_keysym(letter: char) -> u32 {
    let code = u32::from(letter);
    match code {
        0x20..=0x7e | 0xa0..=0xff => code,
        _ => 0x0100_0000 + code,
    }
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
        assert_eq!(key(0xffe1), None, "Shift alone types nothing");
        assert_eq!(map().find(0x21), Some((11, SHIFT_MASK)));
        assert_eq!(map().find(char_keysym('Ж')), Some((14, 0)));
        assert_eq!(map().find(0x7a), None);
    }
}
