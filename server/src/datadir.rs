//! The server's data directory: made for its owner only, and locked for the server's life
//! so that a second server cannot run on the same database.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, flock};

/// The lock file in the data directory.
pub const LOCK_FILE: &str = "lock";

/// Makes the data directory (and any missing parents) readable by its owner only (0700,
/// whatever the umask); an existing directory is left as it is.
///
/// # Errors
///
/// The directory cannot be made; the message names it.
pub fn create_private_dir(data: &Path) -> Result<(), String> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(data)
        .map_err(|error| format!("{}: {error}", data.display()))
}

/// Makes an existing file readable and writable by its owner only (0600), as the server
/// makes its own files; answers the mode it had when it was open to others, `None` when
/// it was private already or is not there.
///
/// # Errors
///
/// The file's mode cannot be read or set; the message names it.
pub fn make_private(path: &Path) -> Result<Option<u32>, String> {
    use std::os::unix::fs::PermissionsExt;
    let named = |error: std::io::Error| format!("{}: {error}", path.display());
    let mode = match fs::metadata(path) {
        Ok(metadata) => metadata.permissions().mode() & 0o777,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(named(error)),
    };
    if mode & 0o077 == 0 {
        return Ok(None);
    }
    fs::set_permissions(path, fs::Permissions::from_mode(mode & 0o700)).map_err(named)?;
    Ok(Some(mode))
}

/// The data directory's lock, held (an advisory `flock` on its lock file) until dropped.
pub struct DataLock {
    file: File,
    path: PathBuf,
}

impl DataLock {
    /// Takes the lock of the data directory `data`, writing this process's id into it.
    ///
    /// # Errors
    ///
    /// Another server holds it (the message names that server's pid and address, as it
    /// wrote them, and the lock file), or the lock file cannot be opened or written.
    pub fn acquire(data: &Path) -> Result<DataLock, String> {
        let path = data.join(LOCK_FILE);
        let named = |error: std::io::Error| format!("{}: {error}", path.display());
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(&path)
            .map_err(named)?;
        if let Err(error) = flock(&file, FlockOperation::NonBlockingLockExclusive) {
            if error != rustix::io::Errno::WOULDBLOCK {
                return Err(named(error.into()));
            }
            let mut holder = String::new();
            // What the other server wrote; it may not have written yet.
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() {
                "a server that is starting".to_owned()
            } else {
                format!("the server {holder}")
            };
            return Err(format!(
                "{} is in use by {holder} (its lock file is {}); stop it, or give another \
                 --data directory",
                data.display(),
                path.display()
            ));
        }
        let mut lock = DataLock { file, path };
        lock.record(&format!("pid {}", std::process::id()))?;
        Ok(lock)
    }

    /// Writes what names the holder (its pid and, once it listens, its address) into the
    /// lock file, in place of what was there.
    ///
    /// # Errors
    ///
    /// The lock file cannot be written; the message names it.
    pub fn record(&mut self, holder: &str) -> Result<(), String> {
        let file = &mut self.file;
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| writeln!(file, "{holder}"))
            .and_then(|()| file.sync_data())
            .map_err(|error| format!("{}: {error}", self.path.display()))
    }
}
