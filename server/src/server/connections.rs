//! The connections: each accepted stream's TLS handshake with its deadline, its share of
//! its address's connections, a reading and a writing task, the greeting, the limits of
//! lines and time, and the messages handed to the referee or to the work done off its
//! lock. The conversation is the same whatever carries the lines: TLS on the server's
//! port, or a WebSocket on the web port (`web`).

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use hnefatafl_net::protocol::{self, ClientMessage, PROTOCOL_VERSION, ServerMessage};
use tokio::net::TcpStream;
use tokio::sync::{Notify, mpsc};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;
use tokio_util::bytes::Bytes;
use tokio_util::codec::{AnyDelimiterCodecError, BytesCodec, FramedRead, FramedWrite};

use super::Server;
use crate::journal::Line;
use crate::quotas::Bucket;
use crate::referee::{Connection, ConnectionId, LookedUp};
use crate::text;

/// How long a new connection may take to finish the TLS handshake.
const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// Messages queued for one connection before it counts as too slow and is closed.
const QUEUE_LENGTH: usize = 4096;

/// A line a connection answers by itself (to a line it cannot read, before `hello`): it
/// follows no write, and its queue keeps it behind every line queued before it.
fn own_line(message: &ServerMessage) -> Line {
    Line {
        after: 0,
        text: protocol::to_line(message),
    }
}

/// The longest PROXY protocol (version 1) header, its CR LF included.
const PROXY_HEADER: usize = 107;

/// Reads a PROXY protocol (version 1) header, `PROXY TCP4 <source> <destination>
/// <source port> <destination port>\r\n` (or `TCP6`), sent by a reverse proxy before the
/// client's bytes, and answers the client's address; `None` for anything else (`PROXY
/// UNKNOWN` too), and the connection is closed.
async fn proxy_header(stream: &mut TcpStream) -> Option<IpAddr> {
    use tokio::io::AsyncReadExt;
    let mut header = Vec::with_capacity(PROXY_HEADER);
    // A byte at a time: nothing after the header may be taken from the TLS handshake.
    while !header.ends_with(b"\r\n") {
        if header.len() == PROXY_HEADER {
            return None;
        }
        header.push(stream.read_u8().await.ok()?);
    }
    let text = std::str::from_utf8(&header).ok()?;
    let words: Vec<&str> = text.trim_end().split(' ').collect();
    match words.as_slice() {
        ["PROXY", "TCP4" | "TCP6", source, _destination, _, _] => source.parse().ok(),
        _ => None,
    }
}

/// Why a connection's next line could not be read.
pub(super) enum Unread {
    /// The line is longer than the protocol's limit (64 KiB).
    TooLong,
    /// The connection failed or was closed mid-line.
    Closed,
}

/// What a connection's first message does to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Greeting {
    /// A `hello` of this protocol's version: the connection is greeted.
    Welcome,
    /// Anything else: it must say `hello` yet.
    Again,
    /// A `hello` of a version not spoken here: it is closed.
    Close,
}

/// The answer to a connection's first message, and what it does to the connection.
fn greeting(message: &ClientMessage) -> (ServerMessage, Greeting) {
    match message {
        ClientMessage::Hello {
            version, positions, ..
        } if *version == PROTOCOL_VERSION => (
            ServerMessage::Welcome {
                version: PROTOCOL_VERSION,
                server: format!("hnefataflserver {}", env!("CARGO_PKG_VERSION")),
                positions: crate::referee::positions_sent(*positions),
            },
            Greeting::Welcome,
        ),
        ClientMessage::Hello { version, .. } => (
            ServerMessage::error(format!(
                "protocol version {version} is not spoken here; this server speaks version \
                 {PROTOCOL_VERSION}"
            )),
            Greeting::Close,
        ),
        _ => (
            ServerMessage::error("the first message must be `hello`"),
            Greeting::Again,
        ),
    }
}

/// A connection's place in its address's count of open connections, given back when
/// dropped; `address` is `None` for an address that is not counted.
pub(super) struct AddressShare {
    server: Arc<Server>,
    address: Option<IpAddr>,
}

impl Drop for AddressShare {
    fn drop(&mut self) {
        let Some(address) = self.address else {
            return;
        };
        let mut open = self
            .server
            .per_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = open.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&address);
            }
        }
    }
}

impl Server {
    /// Counts a connection of `address`, unless its address holds its quota already
    /// (`--connections-per-address`); the count goes down when the answer is dropped.
    pub(super) fn address_share(self: &Arc<Self>, address: IpAddr) -> Option<AddressShare> {
        if !self.quotas.counts(address) {
            return Some(AddressShare {
                server: self.clone(),
                address: None,
            });
        }
        let mut open = self
            .per_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = open.entry(address).or_insert(0);
        if *count >= self.quotas.connections_per_address {
            return None;
        }
        *count += 1;
        Some(AddressShare {
            server: self.clone(),
            address: Some(address),
        })
    }

    pub(super) fn traffic(&self, connection: ConnectionId, arrow: &str, line: &str) {
        if self.show_traffic {
            let time = humantime::format_rfc3339_millis(SystemTime::now());
            let shown = protocol::masked(line);
            println!("{time} #{connection} {arrow} {}", text::escaped(&shown));
        }
    }

    /// A connection's writing task: its queue's lines, each once the writes recorded
    /// before it are committed, until the queue is dropped (the connection is closed) or
    /// the client stops reading. `writer` takes whole lines, their `\n` included, whatever
    /// carries them (TLS, a WebSocket's text messages).
    async fn write_lines<W>(
        self: Arc<Self>,
        id: ConnectionId,
        mut writer: W,
        mut outgoing: mpsc::Receiver<Line>,
    ) where
        W: Sink<String> + Unpin,
    {
        let mut committed = self.committed.clone();
        while let Some(line) = outgoing.recv().await {
            // Nothing is told before the writes recorded before it are stored.
            if committed.reached(line.after).await.is_err() {
                break;
            }
            let line = line.text;
            self.traffic(id, "->", line.trim_end());
            if writer.feed(line).await.is_err() {
                break;
            }
            if outgoing.is_empty() && writer.flush().await.is_err() {
                break;
            }
        }
        let _ = writer.close().await;
    }

    /// A connection accepted on the TLS port: its PROXY header when the server is behind
    /// a proxy, its address's share, the TLS handshake, then its lines.
    pub(super) async fn connection(
        self: Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        tls: TlsAcceptor,
    ) {
        let Some((stream, address, _share)) = self.admit(stream, peer, &tls).await else {
            return;
        };
        let (reader, writer) = tokio::io::split(stream);
        let lines = FramedRead::new(reader, protocol::line_codec()).map(|frame| {
            frame.map_err(|error| match error {
                AnyDelimiterCodecError::MaxChunkLengthExceeded => Unread::TooLong,
                AnyDelimiterCodecError::Io(_) => Unread::Closed,
            })
        });
        let writer = FramedWrite::new(writer, BytesCodec::new())
            .with(|line: String| std::future::ready(Ok::<_, std::io::Error>(Bytes::from(line))));
        self.converse(address, lines, writer).await;
    }

    /// What every accepted stream goes through before it speaks, on either port: the
    /// PROXY header when the server is behind a proxy (and the address it gives), the
    /// address's share of connections (over it the stream is closed at once, before the
    /// handshake's work), and the TLS handshake within its deadline. `None`: the stream
    /// is closed.
    pub(super) async fn admit(
        self: &Arc<Self>,
        mut stream: TcpStream,
        peer: SocketAddr,
        tls: &TlsAcceptor,
    ) -> Option<(TlsStream<TcpStream>, IpAddr, AddressShare)> {
        let _ = stream.set_nodelay(true);
        let address = if self.proxy_protocol {
            let header = tokio::time::timeout(HANDSHAKE_TIME, proxy_header(&mut stream)).await;
            header.ok()??
        } else {
            peer.ip()
        };
        let share = self.address_share(address)?;
        let stream = tokio::time::timeout(HANDSHAKE_TIME, tls.accept(stream))
            .await
            .ok()?
            .ok()?;
        Some((stream, address, share))
    }

    /// A connection's conversation, whatever carries its lines (TLS, a WebSocket): the
    /// greeting, the limits of lines and time, the messages handed to the referee, and
    /// the writing task that sends `writer` the lines queued for it.
    pub(super) async fn converse<L, W>(self: Arc<Self>, address: IpAddr, mut lines: L, writer: W)
    where
        L: Stream<Item = Result<Bytes, Unread>> + Unpin,
        W: Sink<String> + Unpin + Send + 'static,
    {
        let id = self.next_connection.fetch_add(1, Ordering::SeqCst);
        let (queue, outgoing) = mpsc::channel::<Line>(QUEUE_LENGTH);
        let kick = Arc::new(Notify::new());
        let refused = {
            let mut state = self.lock();
            let chat = Bucket::new(state.quotas.chat_per_second, Instant::now());
            state.connections.insert(
                id,
                Connection {
                    queue: queue.clone(),
                    account: None,
                    games: HashSet::new(),
                    address,
                    chat,
                    kick: kick.clone(),
                    positions: false,
                },
            );
            state.address_refused(address)
        };
        let writing = tokio::spawn(self.clone().write_lines(id, writer, outgoing));
        if let Some(problem) = refused {
            // A banned address is told why, and closed at once.
            let _ = queue.try_send(own_line(&ServerMessage::error(problem)));
            kick.notify_one();
        }
        let mut greeted = false;
        // `hello` must come within the hello timeout of the handshake, whatever else is
        // sent before it; after it, each line within the idle timeout of the last.
        let hello_by = tokio::time::Instant::now() + self.quotas.hello_timeout;
        // A blank line does not count as a message: it puts the idle deadline off no more
        // than silence does.
        let mut last_heard = tokio::time::Instant::now();
        let mut closing = self.closing.subscribe();
        loop {
            let deadline = if greeted {
                last_heard + self.quotas.idle_timeout
            } else {
                hello_by
            };
            let next = tokio::select! {
                next = tokio::time::timeout_at(deadline, lines.next()) => next,
                // The server stops: what this connection was told is written, then it ends.
                _ = closing.wait_for(|closing| *closing) => break,
                // A moderator closes it, or its address is banned: the same.
                () = kick.notified() => break,
            };
            let Ok(frame) = next else {
                let reply = ServerMessage::error(if greeted {
                    format!(
                        "no message for {} s: closing",
                        self.quotas.idle_timeout.as_secs()
                    )
                } else {
                    format!(
                        "no `hello` within {} s: closing",
                        self.quotas.hello_timeout.as_secs()
                    )
                });
                let _ = queue.try_send(own_line(&reply));
                break;
            };
            let Some(frame) = frame else { break };
            let bytes = match frame {
                Ok(bytes) => bytes,
                Err(Unread::TooLong) => {
                    self.traffic(id, "<-", "<line over 64 KiB>");
                    let reply = ServerMessage::error("line longer than 64 KiB: closing");
                    let _ = queue.try_send(own_line(&reply));
                    break;
                }
                Err(Unread::Closed) => break,
            };
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            last_heard = tokio::time::Instant::now();
            self.traffic(id, "<-", line);
            let message = match protocol::parse_client(line) {
                Ok(message) => message,
                Err(problem) => {
                    let _ = queue.try_send(own_line(&ServerMessage::error(problem)));
                    continue;
                }
            };
            if !greeted {
                let (reply, greeting) = greeting(&message);
                let _ = queue.try_send(own_line(&reply));
                if let ServerMessage::Welcome { positions, .. } = reply {
                    self.lock().wants_positions(id, positions.is_some());
                }
                match greeting {
                    Greeting::Welcome => greeted = true,
                    Greeting::Again => {}
                    Greeting::Close => break,
                }
                continue;
            }
            self.clone().message(id, message).await;
        }
        self.lock().disconnect(id);
        drop(queue);
        let _ = writing.await;
    }

    /// Handles one message of a greeted connection.
    pub(super) async fn message(self: Arc<Self>, id: ConnectionId, message: ClientMessage) {
        match message {
            ClientMessage::Register { name, password } => self.register(id, name, password).await,
            ClientMessage::Login { name, password } => self.login(id, name, password).await,
            ClientMessage::Ratings { .. } | ClientMessage::Rating { .. } => {
                self.rating_query(id, message).await;
            }
            other => {
                let looked_up = match self.look_up(id, &other).await {
                    Ok(looked_up) => looked_up,
                    Err(problem) => {
                        return self.lock().send(id, &ServerMessage::error(problem));
                    }
                };
                let mut state = self.lock();
                if let Err(problem) = state.handle(id, other, &looked_up) {
                    state.send(id, &ServerMessage::error(problem));
                }
                drop(state);
                self.start_followups();
            }
        }
    }

    /// Reads what a message's seek terms need from storage, off the referee's lock and on
    /// a blocking thread: whether a challenged account exists, and a joining player's
    /// ratings. Most messages need nothing.
    pub(super) async fn look_up(
        self: &Arc<Self>,
        id: ConnectionId,
        message: &ClientMessage,
    ) -> Result<LookedUp, String> {
        let challenged = match message {
            ClientMessage::Seek { terms, .. } => terms.to.clone(),
            // A moderator's action on an account needs the account to exist.
            ClientMessage::Moderate { action, .. } => action.account().map(str::to_owned),
            _ => None,
        };
        let joining = match message {
            ClientMessage::Join { .. } => self.lock().account(id).ok(),
            _ => None,
        };
        if challenged.is_none() && joining.is_none() {
            return Ok(LookedUp::default());
        }
        let server = self.clone();
        let read = tokio::task::spawn_blocking(move || {
            let mut storage = server.storage_off_lock();
            let challenged_exists = match challenged {
                Some(to) => Some(storage.password_hash(&to)?.is_some()),
                None => None,
            };
            let ratings = match joining {
                Some(name) => storage.account_ratings(&name, u32::MAX)?,
                None => Vec::new(),
            };
            Ok::<_, crate::storage::StorageError>(LookedUp {
                challenged_exists,
                ratings,
            })
        })
        .await;
        match read {
            Ok(Ok(looked_up)) => Ok(looked_up),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err("the server could not read its storage".to_owned()),
        }
    }
}
