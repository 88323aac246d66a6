//! A client's connection to a server: TLS with the certificate pinned, the hello
//! exchange, then messages both ways.

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use tokio::io::{AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};

use crate::protocol::{self, ClientMessage, PROTOCOL_VERSION, ServerMessage};
use crate::tls::{self, TlsError};

/// Why talking to a server failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The network.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// TLS, the certificate pin among it.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The server said something this client cannot read, or refused the hello.
    #[error("{0}")]
    Protocol(String),
}

impl ClientError {
    /// Whether the error only says that the other end is gone: the connection was reset
    /// or broken, or ended without TLS's goodbye (`close_notify`), as it does when a
    /// server is killed or its computer goes down. Say "closed" to the user, not the
    /// library's words.
    pub fn went_away(&self) -> bool {
        use std::io::ErrorKind;
        matches!(self, ClientError::Io(error) if matches!(
            error.kind(),
            ErrorKind::UnexpectedEof
                | ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::BrokenPipe
        ))
    }
}

/// The file of pinned server certificates under a home directory.
pub fn pins_file(home: &Path) -> PathBuf {
    home.join(".hnefatafl").join("known_servers")
}

/// A connection to a server.
pub struct Client {
    lines: FramedRead<ReadHalf<TlsStream<TcpStream>>, AnyDelimiterCodec>,
    writer: WriteHalf<TlsStream<TcpStream>>,
    /// What the server said in its welcome.
    pub server: String,
    /// The server's certificate, when this connection was the first to it and pinned it.
    pub new_pin: Option<tls::NewPin>,
}

impl Client {
    /// Connects, checks the certificate against the pins in `pins` (pinning it on first
    /// use) and says hello.
    ///
    /// # Errors
    ///
    /// The server cannot be reached, its certificate differs from its pin
    /// ([`TlsError::Changed`]), or it refuses this protocol version.
    pub async fn connect(host: &str, port: u16, pins: &Path) -> Result<Client, ClientError> {
        let server = if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let setup = tls::client_config(&server, pins)?;
        let stream = TcpStream::connect((host, port)).await?;
        stream.set_nodelay(true)?;
        let name = rustls::pki_types::ServerName::try_from(host.to_owned())
            .map_err(|error| ClientError::Protocol(format!("{host}: {error}")))?;
        let stream = match TlsConnector::from(setup.config).connect(name, stream).await {
            Ok(stream) => stream,
            Err(error) => {
                let refused = setup.refused.lock().ok().and_then(|mut r| r.take());
                return Err(match refused {
                    Some(changed) => ClientError::Tls(changed),
                    None => ClientError::Io(error),
                });
            }
        };
        let (reader, writer) = tokio::io::split(stream);
        let codec = protocol::line_codec();
        let mut client = Client {
            lines: FramedRead::new(reader, codec),
            writer,
            server: String::new(),
            new_pin: setup
                .pinned
                .lock()
                .ok()
                .and_then(|mut pinned| pinned.take()),
        };
        client
            .send(&ClientMessage::Hello {
                version: PROTOCOL_VERSION,
                client: format!("hnefatafl {}", env!("CARGO_PKG_VERSION")),
                positions: None,
            })
            .await?;
        match client.recv().await? {
            Some(ServerMessage::Welcome { server, .. }) => {
                client.server = server;
                Ok(client)
            }
            Some(ServerMessage::Error { message }) => Err(ClientError::Protocol(message)),
            other => Err(ClientError::Protocol(format!(
                "the server did not welcome us: {other:?}"
            ))),
        }
    }

    /// Sends a message.
    ///
    /// # Errors
    ///
    /// The connection is broken.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), ClientError> {
        self.send_line(&protocol::to_line(message)).await
    }

    /// Sends raw text, as it is (tests send broken lines with it).
    ///
    /// # Errors
    ///
    /// The connection is broken.
    pub async fn send_line(&mut self, text: &str) -> Result<(), ClientError> {
        self.writer.write_all(text.as_bytes()).await?;
        self.writer.flush().await?;
        Ok(())
    }

    /// The next message; `None` once the server has closed the connection or gone away
    /// (see [`ClientError::went_away`]).
    ///
    /// # Errors
    ///
    /// The connection broke, or the server sent a line this client cannot read.
    pub async fn recv(&mut self) -> Result<Option<ServerMessage>, ClientError> {
        loop {
            let bytes = match self.lines.next().await {
                None => return Ok(None),
                Some(Ok(bytes)) => bytes,
                Some(Err(AnyDelimiterCodecError::MaxChunkLengthExceeded)) => {
                    return Err(ClientError::Protocol(
                        "line over 64 KiB from the server".into(),
                    ));
                }
                Some(Err(AnyDelimiterCodecError::Io(error))) => {
                    let error = ClientError::from(error);
                    // A server that went away ended the connection, however it ended.
                    return if error.went_away() {
                        Ok(None)
                    } else {
                        Err(error)
                    };
                }
            };
            let line = String::from_utf8_lossy(&bytes);
            if line.trim().is_empty() {
                continue;
            }
            return protocol::parse_server(line.trim_end())
                .map(Some)
                .map_err(ClientError::Protocol);
        }
    }
}
