//! A connection from a chosen loopback address (127.0.0.2, ...) speaking raw lines, for
//! the server's own tests, which include it beside `server_support` (`#[path]`); the
//! client's tests include `server_support` without it.

#![allow(dead_code)]

use std::net::IpAddr;
use std::path::Path;

use futures_util::StreamExt;
use hnefatafl_net::client::pins_file;
use hnefatafl_net::protocol::{self, ClientMessage, ServerMessage};
use tokio::io::{AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::client::TlsStream;
use tokio_util::codec::{AnyDelimiterCodec, FramedRead};

use crate::server_support::PATIENCE;

/// A greeted connection from a chosen address.
pub struct Raw {
    lines: FramedRead<ReadHalf<TlsStream<TcpStream>>, AnyDelimiterCodec>,
    writer: WriteHalf<TlsStream<TcpStream>>,
}

impl Raw {
    /// Connects from `from` to the server on 127.0.0.1 and says hello.
    pub async fn connect(from: [u8; 4], port: u16, home: &Path) -> Raw {
        let mut raw = Raw::handshake(from, port, home)
            .await
            .expect("a TLS connection");
        raw.send(&ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            client: "abuse test".into(),
            positions: None,
        })
        .await;
        assert!(matches!(
            raw.next().await,
            Some(ServerMessage::Welcome { .. })
        ));
        raw
    }

    /// Connects from `from` and finishes the TLS handshake, saying nothing; `None` when
    /// the server closes the connection first.
    pub async fn handshake(from: [u8; 4], port: u16, home: &Path) -> Option<Raw> {
        let setup =
            hnefatafl_net::tls::client_config(&format!("127.0.0.1:{port}"), &pins_file(home))
                .expect("tls");
        let socket = TcpSocket::new_v4().expect("socket");
        socket
            .bind((IpAddr::from(from), 0).into())
            .expect("bind the source address");
        let tcp = socket
            .connect(([127, 0, 0, 1], port).into())
            .await
            .expect("connect");
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
        let stream = tokio_rustls::TlsConnector::from(setup.config)
            .connect(name, tcp)
            .await
            .ok()?;
        let (reader, writer) = tokio::io::split(stream);
        Some(Raw {
            lines: FramedRead::new(reader, protocol::line_codec()),
            writer,
        })
    }

    /// Connects from 127.0.0.1 as a reverse proxy would, its PROXY protocol header giving
    /// `client` as the client's address, and says hello.
    pub async fn through_proxy(client: &str, port: u16, home: &Path) -> Raw {
        let setup =
            hnefatafl_net::tls::client_config(&format!("127.0.0.1:{port}"), &pins_file(home))
                .expect("tls");
        let mut tcp = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        let header = format!("PROXY TCP4 {client} 127.0.0.1 40000 {port}\r\n");
        tcp.write_all(header.as_bytes()).await.expect("the header");
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
        let stream = tokio_rustls::TlsConnector::from(setup.config)
            .connect(name, tcp)
            .await
            .expect("handshake");
        let (reader, writer) = tokio::io::split(stream);
        let mut raw = Raw {
            lines: FramedRead::new(reader, protocol::line_codec()),
            writer,
        };
        raw.send(&ClientMessage::Hello {
            version: protocol::PROTOCOL_VERSION,
            client: "behind a proxy".into(),
            positions: None,
        })
        .await;
        assert!(matches!(
            raw.next().await,
            Some(ServerMessage::Welcome { .. })
        ));
        raw
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
