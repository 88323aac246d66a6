//! Every file the program reads or writes goes through here: data files, rc files and
//! saved games are read with [`read`], saved games are written with [`write_atomically`].
//!
//! Reading never blocks and never eats the memory: a fifo, a device, a socket or a
//! directory is refused at once with what it is, and a file is read up to [`MAX_SIZE`].
//! Writing never destroys anything: only a regular file (or the regular file a symlink
//! leads to) is replaced, whole and at once, keeping its permissions.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};

/// The largest file the program reads: far above any rule file, language file or saved
/// game, and small enough that `-e /dev/zero` or a huge file cannot eat the memory.
pub const MAX_SIZE: u64 = 16 * 1024 * 1024;

/// What is wrong with a path the program was asked to read or write.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The system refused (not found, no permission ...).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A directory, not a file.
    #[error("it is a directory")]
    Directory,
    /// A fifo (named pipe): reading it could wait forever.
    #[error("it is a fifo")]
    Fifo,
    /// A character or block device.
    #[error("it is a device")]
    Device,
    /// A socket.
    #[error("it is a socket")]
    Socket,
    /// Larger than [`MAX_SIZE`].
    #[error("it is larger than {} MiB", MAX_SIZE >> 20)]
    TooLarge,
}

impl FileError {
    /// Whether the path does not exist (as opposed to existing and being unusable).
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileError::Io(error) if error.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Why a path that exists is not a regular file, if it is not.
fn refuse_special(file_type: std::fs::FileType) -> Result<(), FileError> {
    if file_type.is_dir() {
        Err(FileError::Directory)
    } else if file_type.is_fifo() {
        Err(FileError::Fifo)
    } else if file_type.is_char_device() || file_type.is_block_device() {
        Err(FileError::Device)
    } else if file_type.is_socket() {
        Err(FileError::Socket)
    } else {
        Ok(())
    }
}

/// Whether a path names something that exists (a dangling symlink does not).
pub fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

/// Reads a whole regular file, at most [`MAX_SIZE`] bytes.
///
/// The file is opened without blocking, so a fifo is refused instead of waiting for a
/// writer, and its type is checked on the open file, so nothing can swap it in between.
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(OFlags::NONBLOCK.bits() as i32)
        .open(path)?;
    let metadata = file.metadata()?;
    refuse_special(metadata.file_type())?;
    let mut bytes = Vec::new();
    // One byte more than allowed tells a file at the limit from a larger one; a file
    // that grows while it is read is caught the same way.
    file.take(MAX_SIZE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SIZE {
        return Err(FileError::TooLarge);
    }
    Ok(bytes)
}

/// How many symlinks [`write_atomically`] follows before it gives up (as the kernel does).
const MAX_LINKS: usize = 40;

/// The path a symlink chain ends at (the path itself when it is no symlink).
fn resolve_links(path: &Path) -> Result<PathBuf, FileError> {
    let mut current = path.to_owned();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(FileError::Io(std::io::Error::other(
        "too many levels of symbolic links",
    )))
}

/// The marker in the names of the temporary files of [`write_atomically`].
const TEMPORARY_MARK: &str = ".hnefatafl-tmp";

/// The name of the temporary file a process uses while it replaces `name`.
fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.{pid}{TEMPORARY_MARK}")
}

/// The process id in a temporary file's name for `name`, if the name is one.
fn temporary_pid(entry: &str, name: &str) -> Option<u32> {
    entry
        .strip_prefix('.')?
        .strip_prefix(name)?
        .strip_prefix('.')?
        .strip_suffix(TEMPORARY_MARK)?
        .parse()
        .ok()
}

/// Removes the temporary files that processes which died while saving over `name` left
/// in `dir`. A running process's file is left alone.
fn remove_stale(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let own = std::process::id();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|entry| temporary_pid(entry, name))
        else {
            continue;
        };
        let alive = pid != own && Path::new("/proc").join(pid.to_string()).exists();
        if !alive {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes a file whole and at once: afterwards the path holds either its old content or
/// the new content complete, whatever happens meanwhile (a crash, a kill, a full disk).
///
/// The path must be a regular file or not exist yet; a symlink is followed and the file
/// it leads to is replaced. An existing file keeps its permissions (and, where the
/// program may, its owner); a new one gets the usual permissions under the umask. The
/// new content is written to a temporary file in the same directory, which has no name
/// at all where the system allows it (`O_TMPFILE`), is given one only to be renamed over
/// the target, and is removed by the next save if the program dies in between. Errors
/// never name the temporary file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    // `saves/` names a directory, even one that does not exist yet.
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(FileError::Directory);
    }
    let target = resolve_links(path)?;
    let existing = match std::fs::metadata(&target) {
        Ok(metadata) => {
            refuse_special(metadata.file_type())?;
            Some(metadata)
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(error.into()),
    };
    let name = target
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or(FileError::Directory)?
        .to_owned();
    let dir = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    remove_stale(&dir, &name);
    let temporary = dir.join(temporary_name(&name, std::process::id()));
    let _ = std::fs::remove_file(&temporary);

    let (mut file, named) = match unnamed_file(&dir) {
        Ok(file) => (file, false),
        // Not every file system has unnamed files: a named one, created exclusively.
        Err(_) => (
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(&temporary)?,
            true,
        ),
    };
    let written = fill(&mut file, bytes, existing.as_ref());
    let result = written.and_then(|()| {
        if !named {
            link_unnamed(&file, &temporary)?;
        }
        std::fs::rename(&temporary, &target)?;
        Ok(())
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// Opens a file with no name in `dir`, with the usual permissions under the umask.
fn unnamed_file(dir: &Path) -> std::io::Result<File> {
    let fd = rustix::fs::open(
        dir,
        OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o666),
    )?;
    Ok(File::from(fd))
}

/// Gives an unnamed file a name, so that it can be renamed over the target.
fn link_unnamed(file: &File, name: &Path) -> Result<(), FileError> {
    use std::os::fd::AsRawFd;
    let by_fd = format!("/proc/self/fd/{}", file.as_raw_fd());
    rustix::fs::linkat(
        rustix::fs::CWD,
        by_fd.as_str(),
        rustix::fs::CWD,
        name,
        AtFlags::SYMLINK_FOLLOW,
    )
    .map_err(std::io::Error::from)?;
    Ok(())
}

/// Writes the content and, for a file that is replaced, its permissions and owner; then
/// waits until it is on the disk.
fn fill(
    file: &mut File,
    bytes: &[u8],
    existing: Option<&std::fs::Metadata>,
) -> Result<(), FileError> {
    file.write_all(bytes)?;
    if let Some(metadata) = existing {
        use std::os::unix::fs::MetadataExt;
        // Only root may give a file away; others keep their own ownership.
        let _ = std::os::unix::fs::fchown(&*file, Some(metadata.uid()), Some(metadata.gid()));
        let mode = metadata.permissions().mode() & 0o7777;
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    file.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_read_back() {
        let name = temporary_name("game.sav", 4242);
        assert_eq!(temporary_pid(&name, "game.sav"), Some(4242));
        assert_eq!(temporary_pid(&name, "game"), None);
        assert_eq!(temporary_pid("game.sav", "game.sav"), None);
    }

    #[test]
    fn stale_files_of_dead_processes_go() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Process ids above the kernel's largest are never alive.
        let dead = dir.path().join(temporary_name("x", 4_999_999));
        std::fs::write(&dead, "old").expect("write");
        let other = dir.path().join(temporary_name("y", 4_999_999));
        std::fs::write(&other, "old").expect("write");
        write_atomically(&dir.path().join("x"), b"new").expect("saves");
        assert!(!dead.exists());
        assert!(other.exists(), "another file's temporary file stays");
        assert_eq!(std::fs::read(dir.path().join("x")).expect("read"), b"new");
    }

    #[test]
    fn special_files_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(matches!(read(dir.path()), Err(FileError::Directory)));
        assert!(matches!(
            read(Path::new("/dev/null")),
            Err(FileError::Device)
        ));
        assert!(read(&dir.path().join("none")).is_err_and(|error| error.is_not_found()));
        assert!(matches!(
            write_atomically(dir.path(), b"x"),
            Err(FileError::Directory)
        ));
    }
}
