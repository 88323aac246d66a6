//! One client's connection to the server, over either transport: the TLS port's lines
//! (the wire's own client) or the web port's WebSocket (over TLS, from the page's own
//! origin, as a browser opens it), both speaking the protocol's JSON messages.

use std::path::Path;

use clap::ValueEnum;
use futures_util::{SinkExt, StreamExt};
use hnefatafl_net::client::Client;
use hnefatafl_net::protocol::{self, ClientMessage, PROTOCOL_VERSION, ServerMessage};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// The way the clients reach the server.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Transport {
    /// The TLS port: one JSON message a line.
    Tls,
    /// The web port's WebSocket at /ws (the server started with `--web-port 0`): one
    /// JSON message a text message.
    Websocket,
}

impl Transport {
    /// The server's words before the address of this transport's port on its output:
    /// the first line names the TLS port, the second the web page's.
    pub fn announcement(self) -> &'static str {
        match self {
            Transport::Tls => "hnefataflserver listening on ",
            Transport::Websocket => "hnefataflserver web page at https://",
        }
    }

    /// The server's arguments this transport needs.
    pub fn server_arguments(self) -> &'static [&'static str] {
        match self {
            Transport::Tls => &[],
            Transport::Websocket => &["--web-port", "0"],
        }
    }
}

/// A connection that has said hello and been welcomed.
pub enum Connection {
    /// Lines over TLS.
    Lines(Client),
    /// A WebSocket over TLS.
    Socket(Box<WebSocketStream<TlsStream<TcpStream>>>),
}

impl Connection {
    /// Connects to the loopback's `port` by `transport`, the certificate pinned in `pins`,
    /// and says hello.
    pub async fn open(transport: Transport, port: u16, pins: &Path) -> Result<Self, String> {
        match transport {
            Transport::Tls => Client::connect("127.0.0.1", port, pins)
                .await
                .map(Connection::Lines)
                .map_err(|e| e.to_string()),
            Transport::Websocket => {
                let socket = open_socket(port, pins).await?;
                let mut connection = Connection::Socket(Box::new(socket));
                connection
                    .send(&ClientMessage::Hello {
                        version: PROTOCOL_VERSION,
                        client: "server_load".into(),
                        positions: None,
                    })
                    .await?;
                match connection.recv().await? {
                    Some(ServerMessage::Welcome { .. }) => Ok(connection),
                    Some(ServerMessage::Error { message }) => Err(message),
                    other => Err(format!("the server did not welcome us: {other:?}")),
                }
            }
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        match self {
            Connection::Lines(client) => client.send(message).await.map_err(|e| e.to_string()),
            Connection::Socket(socket) => {
                let line = protocol::to_line(message);
                socket
                    .send(Message::text(line.trim_end().to_owned()))
                    .await
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// The next message; `None` once the server has closed the connection.
    pub async fn recv(&mut self) -> Result<Option<ServerMessage>, String> {
        match self {
            Connection::Lines(client) => client.recv().await.map_err(|e| e.to_string()),
            Connection::Socket(socket) => loop {
                match socket.next().await {
                    Some(Ok(Message::Text(text))) => {
                        return protocol::parse_server(&text)
                            .map(Some)
                            .map_err(|e| format!("{e}: {}", text.as_str()));
                    }
                    // Pings are answered by the socket itself.
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(_))) | None => return Ok(None),
                    Some(Ok(other)) => return Err(format!("not a text message: {other:?}")),
                    Some(Err(error)) => return Err(error.to_string()),
                }
            },
        }
    }
}

/// Opens the WebSocket at /ws of the web port on the loopback, over TLS with the
/// server's certificate pinned in `pins`, with the page's own `Origin`.
async fn open_socket(
    port: u16,
    pins: &Path,
) -> Result<WebSocketStream<TlsStream<TcpStream>>, String> {
    let host = format!("127.0.0.1:{port}");
    let setup = hnefatafl_net::tls::client_config(&host, pins).map_err(|e| e.to_string())?;
    let tcp = TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("{host}: {e}"))?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").map_err(|e| e.to_string())?;
    let tls = tokio_rustls::TlsConnector::from(setup.config)
        .connect(name, tcp)
        .await
        .map_err(|e| format!("{host}: {e}"))?;
    let mut request = format!("wss://{host}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let origin = HeaderValue::from_str(&format!("https://{host}")).map_err(|e| e.to_string())?;
    request.headers_mut().insert("origin", origin);
    let (socket, _) = tokio_tungstenite::client_async(request, tls)
        .await
        .map_err(|e| format!("{host}/ws: {e}"))?;
    Ok(socket)
}
