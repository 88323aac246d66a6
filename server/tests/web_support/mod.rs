//! Helpers for the tests of the web port: its address from the server's output, HTTPS
//! requests, and WebSocket clients that speak the protocol's JSON messages, all over real
//! TLS with the server's own certificate (pinned on first use, as the clients do).

#![allow(dead_code)]

use std::path::Path;

use futures_util::{SinkExt, StreamExt};
use hnefatafl_net::client::pins_file;
use hnefatafl_net::protocol::{
    self, BoardPosition, ClientMessage, GameId, POSITIONS_VERSION, PROTOCOL_VERSION, ServerMessage,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};

use crate::server_support::{PATIENCE, ServerProcess};

/// The web port of a server started with `--web-port 0`, from its second line of output.
pub fn web_port(server: &ServerProcess) -> u16 {
    let output = server.output_until(|text| text.contains("web page at https://"));
    let line = output
        .lines()
        .find(|line| line.contains("web page at https://"))
        .unwrap_or_else(|| panic!("no web page line in {output:?}"));
    let address = line
        .rsplit("https://")
        .next()
        .expect("an address")
        .trim_end_matches('/');
    address
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"))
}

/// The plain web port of a server started with `--web-plain 0`, from what it printed.
pub fn plain_port(server: &ServerProcess) -> u16 {
    let marker = "for a proxy at http://";
    let output = server.output_until(|text| text.contains(marker));
    let line = output
        .lines()
        .find(|line| line.contains(marker))
        .unwrap_or_else(|| panic!("no plain web page line in {output:?}"));
    line.rsplit(':')
        .next()
        .and_then(|port| port.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"))
}

/// The fingerprint of the certificate a TLS port shows a new connection (trusted on
/// first use, from a home of its own).
pub async fn served_fingerprint(port: u16) -> String {
    let home = tempfile::tempdir().expect("home");
    let stream = tls(port, home.path()).await;
    let (_, connection) = stream.get_ref();
    let certificate = connection
        .peer_certificates()
        .and_then(|chain| chain.first())
        .expect("a certificate");
    hnefatafl_net::tls::fingerprint(certificate)
}

/// `GET path` in plain HTTP/1.1 with extra headers, the connection closed after the
/// answer.
pub async fn get_plain(port: u16, path: &str, extra: &str) -> Answer {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    request(stream, port, path, extra).await
}

/// `GET path` with extra headers on a stream to `port`, and its answer, read to the end
/// of the stream (the request asks for the connection to be closed after it).
async fn request<S>(mut stream: S, port: u16, path: &str, extra: &str) -> Answer
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}Connection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut bytes = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut bytes))
        .await
        .expect("an answer in time")
        .expect("an answer");
    Answer::read(&bytes)
}

/// A WebSocket to a plain web port with these headers besides the request's own; the
/// refusal's error if it is refused.
pub async fn open_plain(
    port: u16,
    headers: &[(&str, &str)],
) -> Result<WebSocketStream<TcpStream>, tungstenite::Error> {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let mut request = format!("ws://127.0.0.1:{port}/ws")
        .into_client_request()
        .expect("a request");
    for (name, value) in headers {
        request.headers_mut().insert(
            tungstenite::http::HeaderName::from_bytes(name.as_bytes()).expect("a name"),
            HeaderValue::from_str(value).expect("a value"),
        );
    }
    let (socket, _) = tokio_tungstenite::client_async(request, stream).await?;
    Ok(socket)
}

/// A TLS connection to the web port, the server's certificate pinned in `home`.
pub async fn tls(port: u16, home: &Path) -> TlsStream<TcpStream> {
    try_tls(port, home).await.expect("handshake")
}

/// A TLS connection to a port, or `None` when the server closes it before the handshake
/// is done.
pub async fn try_tls(port: u16, home: &Path) -> Option<TlsStream<TcpStream>> {
    let setup = hnefatafl_net::tls::client_config(&format!("127.0.0.1:{port}"), &pins_file(home))
        .expect("tls");
    let tcp = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
    tokio::time::timeout(
        PATIENCE,
        tokio_rustls::TlsConnector::from(setup.config).connect(name, tcp),
    )
    .await
    .expect("a handshake or a refusal in time")
    .ok()
}

/// An answer to an HTTP request: its status, its headers (names in lower case) and body.
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Answer {
    /// The value of a header, if it came.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header == name)
            .map(|(_, value)| value.as_str())
    }
}

/// `GET path` over HTTPS/1.1, the connection closed after the answer.
pub async fn get(port: u16, home: &Path, path: &str) -> Answer {
    request(tls(port, home).await, port, path, "").await
}

impl Answer {
    /// Reads an HTTP/1.1 answer.
    fn read(bytes: &[u8]) -> Answer {
        let split = bytes
            .windows(4)
            .position(|window| window == b"\r\n\r\n")
            .expect("the end of the headers");
        let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .expect("a status");
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        Answer {
            status,
            headers,
            body: bytes[split + 4..].to_vec(),
        }
    }
}

/// A WebSocket client of the web port.
pub struct WebClient {
    socket: WebSocketStream<TlsStream<TcpStream>>,
}

/// Opens the WebSocket with `origin` as its `Origin` (none if `None`); the refusal's
/// error if the server refuses it.
pub async fn open(
    port: u16,
    home: &Path,
    origin: Option<&str>,
) -> Result<WebClient, tungstenite::Error> {
    let stream = tls(port, home).await;
    let mut request = format!("wss://127.0.0.1:{port}/ws")
        .into_client_request()
        .expect("a request");
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", HeaderValue::from_str(origin).expect("an origin"));
    }
    let (socket, _) = tokio_tungstenite::client_async(request, stream).await?;
    Ok(WebClient { socket })
}

/// The page's own origin on `port`.
pub fn own_origin(port: u16) -> String {
    format!("https://127.0.0.1:{port}")
}

impl WebClient {
    /// Opens the WebSocket from the page's own origin and says hello, asking for
    /// positions as the page does.
    pub async fn greeted(port: u16, home: &Path) -> WebClient {
        let mut client = open(port, home, Some(&own_origin(port)))
            .await
            .expect("the WebSocket opens");
        client
            .send(&ClientMessage::Hello {
                version: PROTOCOL_VERSION,
                client: "web test".into(),
                positions: Some(POSITIONS_VERSION),
            })
            .await;
        let welcome = client.next().await;
        assert!(
            matches!(
                welcome,
                Some(ServerMessage::Welcome {
                    positions: Some(POSITIONS_VERSION),
                    ..
                })
            ),
            "{welcome:?}"
        );
        client
    }

    /// Opens, says hello and registers `name` with the password `<name> secret`.
    pub async fn registered(port: u16, home: &Path, name: &str) -> WebClient {
        let mut client = WebClient::greeted(port, home).await;
        client
            .send(&ClientMessage::Register {
                name: name.into(),
                password: format!("{name} secret"),
            })
            .await;
        let logged = client
            .expect(|message| match message {
                ServerMessage::LoggedIn { name: logged, .. } => Some(logged.clone()),
                ServerMessage::Error { message } => panic!("refused: {message}"),
                _ => None,
            })
            .await;
        assert_eq!(logged, name);
        client
    }

    /// Sends a message as one text message.
    pub async fn send(&mut self, message: &ClientMessage) {
        let line = protocol::to_line(message);
        self.send_text(line.trim_end()).await;
    }

    /// Sends a text message as it is.
    pub async fn send_text(&mut self, text: &str) {
        self.socket
            .send(Message::text(text.to_owned()))
            .await
            .expect("send");
    }

    /// The next message of the protocol, within [`PATIENCE`]; `None` once the server
    /// has closed the socket.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.socket.next())
                .await
                .expect("a message in time");
            match message {
                Some(Ok(Message::Text(text))) => {
                    return Some(protocol::parse_server(&text).expect("a server message"));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(other)) if !other.is_close() => panic!("not text: {other:?}"),
                _ => return None,
            }
        }
    }

    /// Reads messages until one passes `pick`.
    pub async fn expect<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let message = self.next().await.expect("the socket open");
            if let Some(found) = pick(&message) {
                return found;
            }
        }
    }

    /// The next position of `game`, skipping other messages.
    pub async fn position(&mut self, game: GameId) -> BoardPosition {
        self.expect(|message| match message {
            ServerMessage::Position { game: of, position } if *of == game => Some(position.clone()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
    }

    /// The next error's text, skipping other messages.
    pub async fn error(&mut self) -> String {
        self.expect(|message| match message {
            ServerMessage::Error { message } => Some(message.clone()),
            _ => None,
        })
        .await
    }
}
