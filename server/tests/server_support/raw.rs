//! A connection from a chosen loopback address (127.0.0.2, ...) speaking raw lines, for
//! the server's own tests, which include it beside `server_support` (`#[path]`); the
//! client's tests include `server_support` without it.

#![allow(dead_code)]

use std::net::IpAddr;
use std::path::Path;

use futures_util::StreamExt;
use hnefatafl_net::protocol::{self, ClientMessage, GameId, ServerMessage};
use tokio::io::{AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::client::TlsStream;
use tokio_util::codec::{AnyDelimiterCodec, FramedRead};

use crate::server_support::{PATIENCE, tls_over};

/// A greeted connection from a chosen address.
pub struct Raw {
    lines: FramedRead<ReadHalf<TlsStream<TcpStream>>, AnyDelimiterCodec>,
    writer: WriteHalf<TlsStream<TcpStream>>,
}

impl Raw {
    /// Connects from `from` to the server on 127.0.0.1 and says hello.
    pub async fn connect(from: [u8; 4], port: u16, home: &Path) -> Raw {
        let raw = Raw::handshake(from, port, home)
            .await
            .expect("a TLS connection");
        raw.greeted("abuse test").await
    }

    /// Connects from `from`, says hello and watches `game`.
    pub async fn watching(from: [u8; 4], port: u16, home: &Path, game: GameId) -> Raw {
        let mut raw = Raw::connect(from, port, home).await;
        raw.send(&ClientMessage::Watch { game }).await;
        assert!(matches!(raw.next().await, Some(ServerMessage::Game { .. })));
        raw
    }

    /// Connects from `from` and finishes the TLS handshake, saying nothing; `None` when
    /// the server closes the connection first.
    pub async fn handshake(from: [u8; 4], port: u16, home: &Path) -> Option<Raw> {
        let socket = TcpSocket::new_v4().expect("socket");
        socket
            .bind((IpAddr::from(from), 0).into())
            .expect("bind the source address");
        let tcp = socket
            .connect(([127, 0, 0, 1], port).into())
            .await
            .expect("connect");
        let stream = tls_over(tcp, port, home).await.ok()?;
        Some(Raw::over(stream))
    }

    /// Connects from 127.0.0.1 as a reverse proxy would, its PROXY protocol header giving
    /// `client` as the client's address, and says hello.
    pub async fn through_proxy(client: &str, port: u16, home: &Path) -> Raw {
        let mut tcp = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        let header = format!("PROXY TCP4 {client} 127.0.0.1 40000 {port}\r\n");
        tcp.write_all(header.as_bytes()).await.expect("the header");
        let stream = tls_over(tcp, port, home).await.expect("handshake");
        Raw::over(stream).greeted("behind a proxy").await
    }

    /// Lines over a TLS connection.
    fn over(stream: TlsStream<TcpStream>) -> Raw {
        let (reader, writer) = tokio::io::split(stream);
        Raw {
            lines: FramedRead::new(reader, protocol::line_codec()),
            writer,
        }
    }

    /// Says hello as the program `client`, and is welcomed.
    async fn greeted(mut self, client: &str) -> Raw {
        self.send(&ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            client: client.into(),
            positions: None,
        })
        .await;
        assert!(matches!(
            self.next().await,
            Some(ServerMessage::Welcome { .. })
        ));
        self
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) {
        let line = protocol::to_line(message);
        self.send_line(&line).await;
    }

    /// Sends a line as it is (with its own newline).
    pub async fn send_line(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).await.expect("send");
        self.writer.flush().await.expect("flush");
    }

    /// The next message, or `None` once the server has closed.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        let frame = tokio::time::timeout(PATIENCE, self.lines.next())
            .await
            .expect("a message in time")?;
        let bytes = frame.ok()?;
        Some(protocol::parse_server(&String::from_utf8_lossy(&bytes)).expect("readable"))
    }

    /// The answer to a request: an error's text, or `None` for anything else.
    pub async fn answer(&mut self, message: &ClientMessage) -> Option<String> {
        self.send(message).await;
        match self.next().await.expect("an answer") {
            ServerMessage::Error { message } => Some(message),
            _ => None,
        }
    }
}
