//! Shards: the trainer's data files. One self-play run appends its games to one shard,
//! game by game, each game a block with a checksum of its own, so that a run that is
//! stopped loses at most the game it was writing and continues where it stopped; shards of
//! several runs (another machine's too) merge into one training set when their piece
//! layouts agree.
//!
//! All numbers little-endian. The header:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `HNEFDATA` |
//! | 2 | format version, [`VERSION`] |
//! | 1, 1 | board width and height |
//! | 8 | per piece type index: 0 undeclared, else 1 + its owner (as a network file) |
//! | 8 | the layout's fingerprint ([`Layout::fingerprint`]) |
//! | 4 | games in the file |
//! | 8 | positions in the file |
//! | 2 | bytes of the settings text |
//! | n | the settings the games were played with (UTF-8, [`crate::selfplay::SelfPlay::describe`]) |
//! | 8 | checksum: FNV-1a ([`aim::nnue::fnv1a`]) of every header byte before it |
//!
//! Then one block a game:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | bytes of the block after this field, up to the checksum |
//! | 4 | the game's number |
//! | 1 | player 0's result: 1 a win, 0 a draw, -1 (255) a loss |
//! | 4 | positions |
//! | ... | each position: 1 side to move (0 or 1), 2 the search's score (`i16`, player 0's view), the occupied squares as bits (row-major, `ceil(squares / 8)` bytes, lowest bit first), then the input slot of each occupied square's piece, a nibble each, low nibble first (`ceil(pieces / 2)` bytes) |
//! | 8 | checksum: FNV-1a of the block's bytes before it, its length included |
//!
//! A position of copenhagen's 11x11 board with 37 pieces takes 38 bytes.
//!
//! The header's counts are rewritten after each block; a run stopped between the two
//! leaves counts one game behind, and a run stopped inside a block leaves a block cut
//! short at the end. Both read as a shard of the complete games ([`Shard::stopped`]) and a
//! writer continuing the shard mends them; a block whose checksum does not match is an
//! error naming the file and the byte.

use crate::cursor::Cursor;
use crate::selfplay::{GameRecord, Sample};
use aim::nnue::{Layout, fnv1a};
use hnefatafl_core::Player;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every shard.
pub const MAGIC: &[u8; 8] = b"HNEFDATA";

/// The format version this code writes and reads.
pub const VERSION: u16 = 1;

/// Piece type indices a layout has (a network file's owner bytes).
const PIECE_TYPES: usize = 8;

/// Bytes of the header before the settings text.
const FIXED: usize = 8 + 2 + 1 + 1 + PIECE_TYPES + 8 + 4 + 8 + 2;

/// Bytes of a checksum.
const CHECKSUM: usize = 8;

/// The longest settings text a header holds.
const MAX_SETTINGS: usize = u16::MAX as usize;

/// What a shard's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The piece layout of its positions.
    pub layout: Layout,
    /// Complete games in the file.
    pub games: u32,
    /// Positions of those games.
    pub positions: u64,
    /// The self-play settings its games were played with.
    pub settings: String,
}

impl Header {
    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&[self.layout.width(), self.layout.height()]);
        bytes.extend(
            self.layout
                .owners()
                .map(|owner| owner.map_or(0, |p| 1 + p.index() as u8)),
        );
        bytes.extend_from_slice(&self.layout.fingerprint().to_le_bytes());
        bytes.extend_from_slice(&self.games.to_le_bytes());
        bytes.extend_from_slice(&self.positions.to_le_bytes());
        // Cut at a character's start, so that a long text still reads as UTF-8.
        let mut length = self.settings.len().min(MAX_SETTINGS);
        while !self.settings.is_char_boundary(length) {
            length -= 1;
        }
        let settings = &self.settings.as_bytes()[..length];
        bytes.extend_from_slice(&(settings.len() as u16).to_le_bytes());
        bytes.extend_from_slice(settings);
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads a header: it and the bytes it takes.
    fn read(bytes: &[u8]) -> Result<(Header, usize), String> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a shard of self-play data (no HNEFDATA at its start)".to_string());
        }
        let cut = || "cut short inside its header".to_string();
        if bytes.len() < FIXED + CHECKSUM {
            return Err(cut());
        }
        let mut cursor = Cursor { bytes, at: 8 };
        let version = cursor.u16().ok_or_else(cut)?;
        if version != VERSION {
            return Err(format!(
                "format version {version}, where this program reads version {VERSION}"
            ));
        }
        let [width, height] = cursor.take().ok_or_else(cut)?;
        let owner_bytes: [u8; PIECE_TYPES] = cursor.take().ok_or_else(cut)?;
        let fingerprint = cursor.u64().ok_or_else(cut)?;
        let games = cursor.u32().ok_or_else(cut)?;
        let positions = cursor.u64().ok_or_else(cut)?;
        let length = usize::from(cursor.u16().ok_or_else(cut)?);
        let settings = cursor.slice(length).ok_or_else(cut)?;
        let end = cursor.at;
        let sum = cursor.u64().ok_or_else(cut)?;
        if fnv1a(&bytes[..end]) != sum {
            return Err("the header's checksum does not match: the file is damaged".to_string());
        }
        let settings = String::from_utf8(settings.to_vec())
            .map_err(|_| "the settings in its header are not UTF-8".to_string())?;
        let owners = owner_bytes.map(|byte| match byte {
            0 => Ok(None),
            1 | 2 => Ok(Player::from_index(usize::from(byte - 1))),
            _ => Err(format!("owner byte {byte} in its header")),
        });
        let mut read = [None; PIECE_TYPES];
        for (slot, owner) in read.iter_mut().zip(owners) {
            *slot = owner?;
        }
        let layout = Layout::new(width, height, read);
        if layout.fingerprint() != fingerprint {
            return Err("its layout's fingerprint does not match its header".to_string());
        }
        if layout.squares() == 0 || layout.piece_types() == 0 {
            return Err("a layout of no squares or no piece types".to_string());
        }
        if layout.inputs() > usize::from(u16::MAX) + 1 {
            return Err(format!(
                "{}: more inputs than a position's 16-bit inputs can name",
                describe_layout(&layout)
            ));
        }
        let header = Header {
            layout,
            games,
            positions,
            settings,
        };
        Ok((header, cursor.at))
    }
}

/// A shard as read: its header and its complete games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The header, its counts as stored.
    pub header: Header,
    /// The complete games, in the order they were written.
    pub games: Vec<GameRecord>,
    /// Bytes of the header and the complete games.
    pub used: usize,
    /// Whether the run writing it was stopped: a game cut short at its end, or counts
    /// in the header that are not those of its games.
    pub stopped: bool,
}

/// Describes a layout in words, for errors.
pub fn describe_layout(layout: &Layout) -> String {
    // "an 8x8", "an 11x11", "an 18x18", "an 80x80": the sound of the first number.
    let width = layout.width();
    let article = if matches!(width, 8 | 11 | 18 | 80..=89) {
        "an"
    } else {
        "a"
    };
    format!(
        "{article} {}x{} board with {} piece types (layout {:016x})",
        width,
        layout.height(),
        layout.piece_types(),
        layout.fingerprint()
    )
}

/// Reads a shard's bytes; `name` names it in errors.
///
/// # Errors
///
/// Not a shard, another version, a damaged header or block (its checksum), or a block
/// whose positions are not of the header's layout; each error starts with `name`.
pub fn parse(name: &str, bytes: &[u8]) -> Result<Shard, String> {
    let (header, mut at) = Header::read(bytes).map_err(|e| format!("{name}: {e}"))?;
    let mut games = Vec::new();
    let mut positions = 0u64;
    loop {
        match read_block(bytes, at, &header.layout) {
            Ok(Some((game, end))) => {
                positions += game.samples.len() as u64;
                games.push(game);
                at = end;
            }
            Ok(None) => break,
            Err(e) => return Err(format!("{name}: at byte {at}: {e}")),
        }
    }
    let stopped =
        at != bytes.len() || header.games as usize != games.len() || header.positions != positions;
    Ok(Shard {
        header,
        games,
        used: at,
        stopped,
    })
}

/// Reads a shard file.
///
/// # Errors
///
/// A file that cannot be read, or as [`parse`].
pub fn read(path: &Path) -> Result<Shard, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    parse(&name, &bytes)
}

/// What [`read_each`] read: the header and the counts of the complete games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Streamed {
    /// The header, its counts as stored.
    pub header: Header,
    /// Complete games read.
    pub games: usize,
    /// Positions of those games.
    pub positions: u64,
    /// Whether the run writing it was stopped, as [`Shard::stopped`].
    pub stopped: bool,
    /// Bytes of the header and the complete games.
    pub used: u64,
}

/// Opens a file to read through a buffer of `capacity` bytes: the reader and the file's
/// length.
fn open_buffered(path: &Path, capacity: usize) -> std::io::Result<(BufReader<File>, u64)> {
    let file = File::open(path)?;
    let length = file.metadata()?.len();
    Ok((BufReader::with_capacity(capacity, file), length))
}

/// Reads a shard's header from the start of `reader`: it and the bytes it takes.
fn read_header(reader: &mut impl Read, name: &str) -> Result<(Header, usize), String> {
    let io = |e: std::io::Error| format!("{name}: {e}");
    let mut bytes = Vec::new();
    // The header's length is in its fixed part.
    if read_up_to(reader, FIXED as u64, &mut bytes).map_err(io)? {
        let settings = u16::from_le_bytes([bytes[FIXED - 2], bytes[FIXED - 1]]);
        let rest = u64::from(settings) + CHECKSUM as u64;
        read_up_to(reader, rest, &mut bytes).map_err(io)?;
    }
    Header::read(&bytes).map_err(|e| format!("{name}: {e}"))
}

/// Reads exactly `length` bytes onto `out`, or fewer where the file ends first; gives
/// whether all came.
fn read_up_to(reader: &mut impl Read, length: u64, out: &mut Vec<u8>) -> std::io::Result<bool> {
    let before = out.len();
    reader.take(length).read_to_end(out)?;
    Ok((out.len() - before) as u64 == length)
}

/// Reads a shard file game by game, handing each complete game to `each` as it is read:
/// a shard far larger than the games kept from it never stays in memory whole. `check`
/// sees the header before any game (to refuse a layout, say).
///
/// # Errors
///
/// As [`read`], or the first error of `check` or `each`.
pub fn read_each(
    path: &Path,
    check: impl FnOnce(&Header) -> Result<(), String>,
    mut each: impl FnMut(GameRecord) -> Result<(), String>,
) -> Result<Streamed, String> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| format!("{name}: {e}");
    let (mut reader, length) = open_buffered(path, 1 << 20).map_err(io)?;
    let (header, mut at) = read_header(&mut reader, &name)?;
    let mut bytes = Vec::new();
    check(&header)?;
    let (mut games, mut positions) = (0, 0u64);
    loop {
        bytes.clear();
        if !read_up_to(&mut reader, 4, &mut bytes).map_err(io)? {
            break;
        }
        let body = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        // A damaged length never asks for more than the file holds.
        let rest = (u64::from(body) + CHECKSUM as u64).min(length);
        if !read_up_to(&mut reader, rest, &mut bytes).map_err(io)? {
            break;
        }
        match read_block(&bytes, 0, &header.layout) {
            Ok(Some((game, end))) => {
                games += 1;
                positions += game.samples.len() as u64;
                at += end;
                each(game)?;
            }
            Ok(None) => break,
            Err(e) => return Err(format!("{name}: at byte {at}: {e}")),
        }
    }
    let stopped =
        at as u64 != length || header.games as usize != games || header.positions != positions;
    Ok(Streamed {
        header,
        games,
        positions,
        stopped,
        used: at as u64,
    })
}

/// Reads the complete games of a shard whose numbers `keep` takes, in the order of their
/// numbers (games of one number in the file's order), handing each to `each` as it is
/// read: first where each block starts, from its first bytes, then the blocks in order,
/// each checked against its checksum. A run of several threads writes its games in the
/// order they end; this gives them in the order they were asked for without holding them,
/// so that what is made of them does not depend on the threads. `check` sees the header
/// before any game. The counts given are of the games kept; `stopped` is [`read_each`]'s
/// where `keep` takes every number.
///
/// # Errors
///
/// As [`read`] for the header and the blocks read, or the first error of `check` or
/// `each`.
pub fn read_by_number(
    path: &Path,
    check: impl FnOnce(&Header) -> Result<(), String>,
    keep: impl Fn(u32) -> bool,
    mut each: impl FnMut(GameRecord) -> Result<(), String>,
) -> Result<Streamed, String> {
    let name = path.display().to_string();
    let io = |e: std::io::Error| format!("{name}: {e}");
    let (mut reader, length) = open_buffered(path, 1 << 16).map_err(io)?;
    let (header, start) = read_header(&mut reader, &name)?;
    check(&header)?;
    // Each block's number, where it starts and its bytes.
    let mut blocks: Vec<(u32, u64, u64)> = Vec::new();
    let (mut at, mut head) = (start as u64, Vec::new());
    loop {
        head.clear();
        if !read_up_to(&mut reader, 8, &mut head).map_err(io)? {
            break;
        }
        let [a, b, c, d, e, f, g, h] = head[..] else {
            break;
        };
        let body = u32::from_le_bytes([a, b, c, d]);
        let number = u32::from_le_bytes([e, f, g, h]);
        let size = 4 + u64::from(body) + CHECKSUM as u64;
        if at + size > length {
            break;
        }
        if keep(number) {
            blocks.push((number, at, size));
        }
        let skip =
            i64::try_from(size - 8).map_err(|_| format!("{name}: a block of {size} bytes"))?;
        reader.seek_relative(skip).map_err(io)?;
        at += size;
    }
    blocks.sort_by_key(|&(number, _, _)| number);
    let mut file = reader.into_inner();
    let mut bytes = Vec::new();
    let (mut games, mut positions) = (0, 0u64);
    for (_, at, size) in blocks {
        bytes.resize(size as usize, 0);
        file.seek(SeekFrom::Start(at))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(io)?;
        match read_block(&bytes, 0, &header.layout) {
            Ok(Some((game, _))) => {
                games += 1;
                positions += game.samples.len() as u64;
                each(game)?;
            }
            Ok(None) => return Err(format!("{name}: at byte {at}: a block cut short")),
            Err(e) => return Err(format!("{name}: at byte {at}: {e}")),
        }
    }
    let stopped = at != length || header.games as usize != games || header.positions != positions;
    Ok(Streamed {
        header,
        games,
        positions,
        stopped,
        used: at,
    })
}

/// Appends a game's block to `out`.
///
/// # Errors
///
/// A position whose inputs are not one piece a square of the layout.
pub fn write_block(layout: &Layout, game: &GameRecord, out: &mut Vec<u8>) -> Result<(), String> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&game.number.to_le_bytes());
    out.push(game.result as u8);
    out.extend_from_slice(&(game.samples.len() as u32).to_le_bytes());
    let squares = layout.squares();
    let mut slots = vec![u8::MAX; squares];
    for sample in &game.samples {
        slots.fill(u8::MAX);
        for &input in &sample.inputs {
            let (slot, square) = (usize::from(input) / squares, usize::from(input) % squares);
            if slot >= layout.piece_types() || slots[square] != u8::MAX {
                return Err(format!(
                    "game {}: input {input} is no piece of {}, or a second on its square",
                    game.number,
                    describe_layout(layout)
                ));
            }
            slots[square] = slot as u8;
        }
        out.push(sample.side.index() as u8);
        out.extend_from_slice(&sample.score.to_le_bytes());
        let mut occupied = vec![0u8; squares.div_ceil(8)];
        let mut nibbles = Vec::with_capacity(sample.inputs.len().div_ceil(2));
        for (square, &slot) in slots.iter().enumerate().filter(|(_, s)| **s != u8::MAX) {
            occupied[square / 8] |= 1 << (square % 8);
            nibbles.push(slot);
        }
        out.extend_from_slice(&occupied);
        out.extend(
            nibbles
                .chunks(2)
                .map(|pair| pair[0] | pair.get(1).map_or(0, |high| high << 4)),
        );
    }
    let length = (out.len() - start - 4) as u32;
    out[start..start + 4].copy_from_slice(&length.to_le_bytes());
    let sum = fnv1a(&out[start..]);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(())
}

/// Reads the block at `at`: the game and where the next block starts, `None` where the
/// bytes end before the block does.
fn read_block(
    bytes: &[u8],
    at: usize,
    layout: &Layout,
) -> Result<Option<(GameRecord, usize)>, String> {
    let mut cursor = Cursor { bytes, at };
    let Some(length) = cursor.u32() else {
        return Ok(None);
    };
    let Some(body) = cursor.slice(length as usize) else {
        return Ok(None);
    };
    let Some(sum) = cursor.u64() else {
        return Ok(None);
    };
    if fnv1a(&bytes[at..at + 4 + body.len()]) != sum {
        return Err("a game's checksum does not match: the file is damaged".to_string());
    }
    let game = read_game(body, layout)?;
    Ok(Some((game, cursor.at)))
}

/// Reads a block's body (its checksum checked).
fn read_game(body: &[u8], layout: &Layout) -> Result<GameRecord, String> {
    let mut cursor = Cursor { bytes: body, at: 0 };
    let short = || "a game's block is shorter than its positions".to_string();
    let number = cursor.u32().ok_or_else(short)?;
    let result = cursor.u8().ok_or_else(short)? as i8;
    if !(-1..=1).contains(&result) {
        return Err(format!("game {number}: result {result}"));
    }
    let count = cursor.u32().ok_or_else(short)?;
    let squares = layout.squares();
    let mut samples = Vec::new();
    for _ in 0..count {
        let side = cursor.u8().ok_or_else(short)?;
        let side = Player::from_index(usize::from(side))
            .ok_or_else(|| format!("game {number}: side to move {side}"))?;
        let score = cursor.u16().ok_or_else(short)? as i16;
        let occupied = cursor.slice(squares.div_ceil(8)).ok_or_else(short)?;
        let pieces: usize = occupied.iter().map(|b| b.count_ones() as usize).sum();
        let nibbles = cursor.slice(pieces.div_ceil(2)).ok_or_else(short)?;
        let mut inputs = Vec::with_capacity(pieces);
        let occupied_squares =
            (0..occupied.len() * 8).filter(|&s| occupied[s / 8] >> (s % 8) & 1 == 1);
        for (index, square) in occupied_squares.enumerate() {
            let slot = usize::from(nibbles[index / 2] >> (4 * (index % 2)) & 0xF);
            if square >= squares || slot >= layout.piece_types() {
                return Err(format!(
                    "game {number}: a piece of slot {slot} on square {square}, off {}",
                    describe_layout(layout)
                ));
            }
            inputs.push((slot * squares + square) as u16);
        }
        if pieces % 2 == 1 && nibbles[pieces / 2] >> 4 != 0 {
            return Err(format!(
                "game {number}: a piece's nibble after the last piece"
            ));
        }
        samples.push(Sample {
            side,
            score,
            inputs,
        });
    }
    if cursor.at != body.len() {
        return Err(format!("game {number}: bytes after its last position"));
    }
    Ok(GameRecord {
        number,
        result,
        samples,
    })
}

/// Writes games to a shard file, appending to what a stopped run left.
pub struct Writer {
    file: File,
    name: String,
    header: Header,
    /// Where the next block goes.
    end: u64,
}

impl Writer {
    /// Opens the shard at `path` to append to it, creating it when there is none (or only
    /// an empty file), and gives the numbers of the complete games already there, in the
    /// file's order (read game by game, never held whole). A block cut short by a stopped
    /// run is cut off and the header's counts mended.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or written, or that is no shard, is damaged, or holds
    /// games of another layout or other settings.
    pub fn open(path: &Path, layout: Layout, settings: &str) -> Result<(Writer, Vec<u32>), String> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| format!("{name}: {e}");
        let existing = match std::fs::metadata(path) {
            Ok(metadata) => metadata.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(e) => return Err(io(e)),
        };
        let mut numbers = Vec::new();
        let mut positions = 0;
        let (header, used) = if existing == 0 {
            let header = Header {
                layout,
                games: 0,
                positions: 0,
                settings: settings.to_string(),
            };
            (header, 0)
        } else {
            let check = |header: &Header| {
                if header.layout != layout {
                    return Err(format!(
                        "{name}: its games are of {}, not {}",
                        describe_layout(&header.layout),
                        describe_layout(&layout)
                    ));
                }
                if header.settings != settings {
                    return Err(format!(
                        "{name}: the data there was made with other settings ({}); use another --work",
                        header.settings
                    ));
                }
                Ok(())
            };
            let read = read_each(path, check, |game| {
                numbers.push(game.number);
                positions += game.samples.len() as u64;
                Ok(())
            })?;
            (read.header, read.used)
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        let mut writer = Writer {
            file,
            name: name.clone(),
            header,
            end: used,
        };
        writer.header.games = numbers.len() as u32;
        writer.header.positions = positions;
        if used == 0 {
            writer.end = writer.header.to_bytes().len() as u64;
        }
        writer.file.set_len(writer.end).map_err(io)?;
        writer.write_header()?;
        Ok((writer, numbers))
    }

    /// Writes the header at the start of the file.
    fn write_header(&mut self) -> Result<(), String> {
        let bytes = self.header.to_bytes();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.write_all(&bytes))
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// Appends a game, then counts it in the header.
    ///
    /// # Errors
    ///
    /// A file that cannot be written, or a position that is no position of the layout.
    pub fn append(&mut self, game: &GameRecord) -> Result<(), String> {
        let mut block = Vec::new();
        write_block(&self.header.layout, game, &mut block)
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.file
            .seek(SeekFrom::Start(self.end))
            .and_then(|_| self.file.write_all(&block))
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.end += block.len() as u64;
        self.header.games += 1;
        self.header.positions += game.samples.len() as u64;
        self.write_header()
    }
}

/// What [`merge`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Games written.
    pub games: u32,
    /// Positions written.
    pub positions: u64,
    /// The shards read that a stopped run had left (their complete games were taken).
    pub stopped: Vec<PathBuf>,
}

/// Merges shards into one at `out` (written whole, or not at all): their complete games,
/// numbered again from 0 in the order of the inputs (each input's games in the order of
/// their numbers), with the inputs' distinct settings as its settings.
///
/// # Errors
///
/// No input, a shard that cannot be read, one whose layout is not the first's (named),
/// or an output that cannot be written.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Merged, String> {
    let Some(first) = inputs.first() else {
        return Err("no shard to merge".to_string());
    };
    let first_shard = read(first)?;
    let layout = first_shard.header.layout;
    let mut settings: Vec<String> = Vec::new();
    let mut body = Vec::new();
    let mut merged = Merged {
        games: 0,
        positions: 0,
        stopped: Vec::new(),
    };
    for path in inputs {
        let shard = if path == first {
            first_shard.clone()
        } else {
            read(path)?
        };
        if shard.header.layout != layout {
            return Err(format!(
                "{}: its games are of {}, but {} holds {}: shards of different layouts do not merge",
                path.display(),
                describe_layout(&shard.header.layout),
                first.display(),
                describe_layout(&layout)
            ));
        }
        if shard.stopped {
            merged.stopped.push(path.clone());
        }
        if !settings.contains(&shard.header.settings) {
            settings.push(shard.header.settings.clone());
        }
        let mut games = shard.games;
        games.sort_by_key(|game| game.number);
        for mut game in games {
            game.number = merged.games;
            merged.games += 1;
            merged.positions += game.samples.len() as u64;
            write_block(&layout, &game, &mut body)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let header = Header {
        layout,
        games: merged.games,
        positions: merged.positions,
        settings: settings.join("\n"),
    };
    write_file(out, &header, &body)?;
    Ok(merged)
}

/// Writes games into a new shard at `out` (written whole, or not at all), with
/// `settings` in its header.
///
/// # Errors
///
/// A position that is no position of the layout, or an output that cannot be written.
pub fn write(
    out: &Path,
    layout: Layout,
    settings: &str,
    games: &[GameRecord],
) -> Result<(), String> {
    let mut body = Vec::new();
    for game in games {
        write_block(&layout, game, &mut body).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let header = Header {
        layout,
        games: games.len() as u32,
        positions: games.iter().map(|game| game.samples.len() as u64).sum(),
        settings: settings.to_string(),
    };
    write_file(out, &header, &body)
}

/// Writes a shard's header and blocks to `out`, whole.
fn write_file(out: &Path, header: &Header, body: &[u8]) -> Result<(), String> {
    let mut bytes = header.to_bytes();
    bytes.extend_from_slice(body);
    write_whole(out, &bytes)
}

/// Writes a file whole: to a temporary name beside it, then renamed over it, so that a
/// stopped run leaves the old file or the new one, never half of one.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests;
