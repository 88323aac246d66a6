//! A running engine: its process, where the host writes to it (a pipe, or the
//! connection it opened in `--host` mode), the lines it answers, and what it says on its
//! standard error, which a failure quotes.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Ipv4Addr, Shutdown, TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::START_WAIT;

/// Where the runner writes to an engine: its standard input, or the connection it opened.
enum Input {
    Pipe(ChildStdin),
    Socket(TcpStream),
}

impl Input {
    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Input::Pipe(pipe) => pipe,
            Input::Socket(socket) => socket,
        }
    }

    /// Tells the engine that no more comes: the pipe is closed, the connection shut down
    /// (which also ends the thread that reads it).
    pub(crate) fn close(self) {
        if let Input::Socket(socket) = self {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }
}

/// The port hnefatafl-copenhagen's engine connects to in `--host` mode: it adds its
/// server's port to the host it is given, so the runner must listen there.
pub const HOST_PORT: u16 = 49152;

/// How many lines of an engine's standard error the reports quote, at its start and at
/// its end.
const ERROR_LINES: usize = 3;

/// What an engine wrote on its standard error, as much as a report quotes: the first
/// lines (a program that stops says why first, before any backtrace) and the last.
#[derive(Default)]
struct ErrorLines {
    first: Vec<String>,
    last: VecDeque<String>,
    /// Whether lines were left out between the two.
    skipped: bool,
}

impl ErrorLines {
    pub(crate) fn push(&mut self, line: String) {
        if line.trim().is_empty() {
            return;
        }
        if self.first.len() < ERROR_LINES {
            self.first.push(line);
            return;
        }
        if self.last.len() == ERROR_LINES {
            self.last.pop_front();
            self.skipped = true;
        }
        self.last.push_back(line);
    }

    /// The lines kept, as the end of a message (empty without any).
    pub(crate) fn quote(&self) -> String {
        if self.first.is_empty() {
            return String::new();
        }
        let mut quote = format!(": {}", self.first.join(" / "));
        if self.skipped {
            quote.push_str(" / ...");
        }
        for line in &self.last {
            quote.push_str(" / ");
            quote.push_str(line);
        }
        quote
    }
}

/// A running external engine: where to write to it, and what it answers line by line.
pub(crate) struct Process {
    pub(crate) name: String,
    child: Child,
    input: Option<Input>,
    lines: Receiver<String>,
    /// Its standard error, for the report when it ends.
    errors: Arc<Mutex<ErrorLines>>,
}

/// Sends the lines of `from` to the receiver it answers, until `from` ends.
fn read_lines(from: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Keeps what a report quotes of `from`, which is drained to its end.
fn keep_errors(from: impl Read + Send + 'static) -> Arc<Mutex<ErrorLines>> {
    let errors = Arc::new(Mutex::new(ErrorLines::default()));
    let kept = Arc::clone(&errors);
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { break };
            kept.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(line);
        }
    });
    errors
}

/// A loopback address of its own with [`HOST_PORT`] open on it.
///
/// The engine fixes the port, so games played at once (`--jobs`, tests run side by side)
/// each take another address of 127.0.0.0/8, all of which are loopback on Linux; where
/// the system has 127.0.0.1 alone, that is the one, and only one game at a time can host.
fn listen() -> Result<TcpListener, String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // Another process starts elsewhere in the range.
    let first = std::process::id().wrapping_mul(4099);
    let mut refused = None;
    for _ in 0..64 {
        let n = first.wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed));
        // 127.0.0.2 to 127.255.255.254.
        let host = Ipv4Addr::from(0x7f00_0002 + n % 0x00ff_fffd);
        match TcpListener::bind((host, HOST_PORT)) {
            Ok(listener) => return Ok(listener),
            Err(error) if error.kind() == ErrorKind::AddrNotAvailable => {
                return TcpListener::bind((Ipv4Addr::LOCALHOST, HOST_PORT)).map_err(|error| {
                    format!("cannot listen on 127.0.0.1:{HOST_PORT} for the engine: {error}")
                });
            }
            Err(error) => refused = Some(format!("{host}:{HOST_PORT}: {error}")),
        }
    }
    Err(format!(
        "cannot listen for the engine on port {HOST_PORT} of any loopback address tried \
         (last {})",
        refused.unwrap_or_default()
    ))
}

impl Process {
    /// Runs `command` with its standard input and output as the protocol's channel.
    pub(crate) fn spawn(command: &[String]) -> Result<Process, String> {
        let mut child = Self::command(command)?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", command.join(" ")))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let errors = keep_errors(child.stderr.take().ok_or("no stderr")?);
        Ok(Process {
            name: command.join(" "),
            child,
            input: Some(Input::Pipe(stdin)),
            lines: read_lines(stdout),
            errors,
        })
    }

    /// Runs `command --host <address>` and waits, up to [`START_WAIT`], for it to connect
    /// to that address at [`HOST_PORT`]; the connection is the protocol's channel. What the
    /// engine prints on its standard output is not read.
    pub(crate) fn host(command: &[String]) -> Result<Process, String> {
        let listener = listen()?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let mut command = command.to_vec();
        command.extend(["--host".to_owned(), address.ip().to_string()]);
        let name = command.join(" ");
        let mut child = Self::command(&command)?
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{name}: {e}"))?;
        let errors = keep_errors(child.stderr.take().ok_or("no stderr")?);
        let mut process = Process {
            name,
            child,
            input: None,
            lines: mpsc::channel().1,
            errors,
        };
        let socket = process.accept(&listener)?;
        // Each line is a whole message: send it at once.
        socket.set_nodelay(true).map_err(|e| e.to_string())?;
        let reader = socket.try_clone().map_err(|e| e.to_string())?;
        process.lines = read_lines(reader);
        process.input = Some(Input::Socket(socket));
        Ok(process)
    }

    pub(crate) fn command(command: &[String]) -> Result<Command, String> {
        let (program, arguments) = command.split_first().ok_or("no command")?;
        let mut command = Command::new(program);
        command.args(arguments);
        Ok(command)
    }

    /// The engine's connection, while it runs and within [`START_WAIT`].
    pub(crate) fn accept(&mut self, listener: &TcpListener) -> Result<TcpStream, String> {
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + START_WAIT;
        loop {
            match listener.accept() {
                Ok((socket, _)) => {
                    socket.set_nonblocking(false).map_err(|e| e.to_string())?;
                    return Ok(socket);
                }
                Err(error) if error.kind() == ErrorKind::WouldBlock => {}
                Err(error) => return Err(format!("{}: {address}: {error}", self.name)),
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "{}: ended ({status}) without connecting to {address}{}",
                    self.name,
                    self.last_words()
                ));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{}: did not connect to {address} within {START_WAIT:?}",
                    self.name
                ));
            }
            // The engine is starting; a blocking accept could not also watch it end.
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// What the engine last said on its standard error, as the end of a message.
    pub(crate) fn last_words(&self) -> String {
        // The thread that reads them may still be at it when the engine has just ended.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Arc::strong_count(&self.errors) > 1 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.errors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .quote()
    }

    pub(crate) fn send(&mut self, line: &str) -> Result<(), String> {
        let writer = self.input.as_mut().ok_or("input closed")?.writer();
        let Err(error) = writeln!(writer, "{line}").and_then(|()| writer.flush()) else {
            return Ok(());
        };
        Err(if self.wait_exit(Duration::from_millis(500)) {
            self.ended()
        } else {
            format!("{}: {error}", self.name)
        })
    }

    /// The engine has ended: the message, with its last words.
    pub(crate) fn ended(&self) -> String {
        format!("{}: the engine ended{}", self.name, self.last_words())
    }

    /// The next line for which `wanted` is true, skipping others, within `wait`.
    pub(crate) fn until(
        &mut self,
        wait: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(&line) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no answer within {wait:?}", self.name));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // Its standard error may still be on its way.
                    let _ = self.wait_exit(Duration::from_millis(500));
                    return Err(self.ended());
                }
            }
        }
    }

    /// Waits up to `wait` for the engine to end; whether it did.
    pub(crate) fn wait_exit(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes the engine's input, gives it a moment to leave, then ends it.
    pub(crate) fn close(&mut self) {
        if let Some(input) = self.input.take() {
            input.close();
        }
        if !self.wait_exit(Duration::from_secs(2)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(input) = self.input.take() {
            input.close();
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorLines;

    #[test]
    fn an_engines_last_words_are_quoted_from_their_start_and_end() {
        let mut errors = ErrorLines::default();
        assert_eq!(errors.quote(), "");
        for line in ["Error: why", "", "trace:", "0", "1", "2", "3", "4"] {
            errors.push(line.to_owned());
        }
        assert_eq!(
            errors.quote(),
            ": Error: why / trace: / 0 / ... / 2 / 3 / 4"
        );
        let mut short = ErrorLines::default();
        short.push("Error: why".to_owned());
        assert_eq!(short.quote(), ": Error: why");
    }
}
