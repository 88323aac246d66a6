//! The web port (`--web-port`): the page and its assets, embedded in the binary, over
//! HTTPS, and the protocol's JSON messages over a WebSocket at `/ws`, one message a line;
//! and the same in plain HTTP (`--web-plain`) for a reverse proxy that ends TLS.
//! A stream accepted here goes through the same admission as one on the TLS port (the
//! connections open at once, the PROXY header, the address's share, the TLS handshake
//! with its deadline); its WebSocket goes through the same conversation
//! (`connections::converse`): the greeting, the line limit, the idle timeout, the quotas
//! and the referee. HTTP is hyper's, the WebSocket tokio-tungstenite's (`docs/web.md`
//! says why).

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures_util::{SinkExt, StreamExt};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use include_dir::{Dir, include_dir};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::OwnedSemaphorePermit;
use tokio_rustls::TlsAcceptor;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Message, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as SocketError, error::CapacityError};

use super::Server;
use super::connections::{AddressShare, Unread};

mod forwarded;
mod linger;
mod themes;
use hnefatafl_net::protocol::{MAX_LINE, PROTOCOL_VERSION};
use linger::{Returning, linger};

/// The page and its assets (`server/web/`), in the binary.
static PAGE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web");

/// The path of the WebSocket.
pub const SOCKET_PATH: &str = "/ws";

/// The page's Content-Security-Policy: its own scripts, styles, images and socket only;
/// no inline script or style, no plugins, no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// How long an HTTP connection may take to send a request's headers.
const HEADER_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// What an accepted web stream holds while it is open, its WebSocket included: a permit
/// of `--max-connections`, its address's share (none on a plain port whose proxy is
/// trusted: each WebSocket there takes its client's), and its place among the server's
/// clients (a server that stops when empty waits for it).
struct Held {
    server: Arc<Server>,
    _permit: Option<OwnedSemaphorePermit>,
    _share: Option<AddressShare>,
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.server.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.server.empty.notify_one();
        }
    }
}

/// How a web port's streams come.
#[derive(Clone)]
pub enum WebPort {
    /// Over TLS (`--web-port`), with this configuration.
    Tls(TlsAcceptor),
    /// In plain HTTP from a reverse proxy that ends TLS (`--web-plain`); with
    /// `trust_forwarded`, the client's address is the one the proxy's `Forwarded` or
    /// `X-Forwarded-For` header gives.
    Plain {
        /// Whether the proxy's address headers are believed.
        trust_forwarded: bool,
    },
}

/// What a request's answer needs to know of its stream.
#[derive(Clone, Copy)]
struct Seen {
    /// The address that connected (on a TLS port, the PROXY header's when given).
    address: IpAddr,
    /// Whether the stream is TLS: a page of an `https://` origin only then; a plain port
    /// takes `http://` (a test on loopback) and `https://` (behind its proxy).
    secure: bool,
    /// Whether the proxy's address headers are believed.
    trust_forwarded: bool,
}

impl Server {
    /// Accepts connections on a web port until the server stops, each as the TLS port
    /// does: at most `--max-connections` open at once, every port together, a failed
    /// accept waiting before the next. Runs beside [`Server::serve`], which stops the
    /// server.
    pub async fn serve_web(self: Arc<Self>, listener: TcpListener, port: WebPort) {
        let mut closing = self.closing.subscribe();
        loop {
            let (permit, stream, peer) = tokio::select! {
                next = self.accept_next(&listener) => next,
                _ = closing.wait_for(|closing| *closing) => return,
            };
            self.clients.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(
                self.clone()
                    .web_connection(stream, peer, port.clone(), permit),
            );
        }
    }

    /// One stream of a web port: admitted as on the TLS port (or, plain, counted against
    /// its address unless a trusted proxy names the address of each WebSocket), then
    /// HTTP/1.1 requests until it closes or becomes a WebSocket.
    async fn web_connection(
        self: Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        port: WebPort,
        permit: Option<OwnedSemaphorePermit>,
    ) {
        match port {
            WebPort::Tls(tls) => {
                if let Some((stream, address, share)) = self.admit(stream, peer, &tls).await {
                    let seen = Seen {
                        address,
                        secure: true,
                        trust_forwarded: false,
                    };
                    return self.serve_http(stream, seen, Some(share), permit).await;
                }
            }
            WebPort::Plain { trust_forwarded } => {
                let _ = stream.set_nodelay(true);
                let share = if trust_forwarded {
                    None
                } else {
                    self.address_share(peer.ip())
                };
                if trust_forwarded || share.is_some() {
                    let seen = Seen {
                        address: peer.ip(),
                        secure: false,
                        trust_forwarded,
                    };
                    return self.serve_http(stream, seen, share, permit).await;
                }
            }
        }
        if self.clients.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.empty.notify_one();
        }
    }

    /// HTTP/1.1 requests on an admitted stream until it closes, becomes a WebSocket, or
    /// the server stops.
    async fn serve_http<S>(
        self: Arc<Self>,
        stream: S,
        seen: Seen,
        share: Option<AddressShare>,
        permit: Option<OwnedSemaphorePermit>,
    ) where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let held = Arc::new(Held {
            server: self.clone(),
            _permit: permit,
            _share: share,
        });
        let server = self.clone();
        let service = service_fn(move |request| {
            let answer = server.clone().answer(request, seen, held.clone());
            async move { Ok::<_, Infallible>(answer) }
        });
        let mut closing = self.closing.subscribe();
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_TIME)
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::pin!(connection);
        tokio::select! {
            _ = connection.as_mut() => {}
            _ = closing.wait_for(|closing| *closing) => {}
        }
    }

    /// The answer to one request: the page, an asset, a language file, or the WebSocket's
    /// upgrade.
    fn answer(
        self: Arc<Self>,
        mut request: Request<Incoming>,
        seen: Seen,
        held: Arc<Held>,
    ) -> Response<Full<Bytes>> {
        if request.method() != Method::GET {
            return plain(StatusCode::METHOD_NOT_ALLOWED, "only GET is answered here");
        }
        let path = request.uri().path().to_owned();
        if path == SOCKET_PATH {
            let response = match upgrade_answer(&request, seen.secure) {
                Ok(response) => response,
                Err((status, words)) => return plain(status, words),
            };
            // Behind a trusted proxy, each WebSocket counts against its client's address.
            let (address, share) = if seen.trust_forwarded {
                let address = forwarded::client_address(request.headers()).unwrap_or(seen.address);
                match self.address_share(address) {
                    Some(share) => (address, Some(share)),
                    None => {
                        return plain(
                            StatusCode::TOO_MANY_REQUESTS,
                            "too many connections from your address",
                        );
                    }
                }
            } else {
                (seen.address, None)
            };
            let upgrade = hyper::upgrade::on(&mut request);
            tokio::spawn(async move {
                let Ok(upgraded) = upgrade.await else { return };
                let (stream, returned) = Returning::new(TokioIo::new(upgraded));
                let socket =
                    WebSocketStream::from_raw_socket(stream, Role::Server, Some(socket_config()))
                        .await;
                self.web_socket(socket, address).await;
                // The socket is dropped, and its stream back: closed gently.
                if let Ok(stream) = returned.await {
                    linger(stream).await;
                }
                drop(share);
                drop(held);
            });
            return response;
        }
        if path == "/server.json" {
            return self.about();
        }
        asset(&path)
    }

    /// `/server.json`, what the page needs to speak to the server: the protocol's
    /// version, the WebSocket's path and the computer accounts on offer, by level.
    fn about(&self) -> Response<Full<Bytes>> {
        let mut computers: Vec<(u32, String)> = self
            .lock()
            .computers
            .iter()
            .map(|(name, level)| (*level, name.clone()))
            .collect();
        computers.sort();
        // The names are `computer<level>`: nothing in them needs escaping.
        let names: Vec<String> = computers
            .into_iter()
            .map(|(_, name)| format!("\"{name}\""))
            .collect();
        // The themes' names are those of `data/xlib`'s folders: plain words.
        let themes: Vec<String> = themes::names()
            .into_iter()
            .map(|name| format!("\"{name}\""))
            .collect();
        let text = format!(
            "{{\"version\":{PROTOCOL_VERSION},\"socket\":\"{SOCKET_PATH}\",\"computers\":[{}],\
             \"themes\":[{}]}}",
            names.join(","),
            themes.join(",")
        );
        let mut response = Response::new(Full::new(Bytes::from(text)));
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        with_headers(response)
    }

    /// A WebSocket's conversation: each text message is one line of the protocol, each
    /// line the server sends one text message.
    async fn web_socket<S>(self: Arc<Self>, socket: WebSocketStream<S>, address: IpAddr)
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let (writer, reader) = socket.split();
        let lines = reader.filter_map(|message| {
            std::future::ready(match message {
                Ok(Message::Text(text)) => Some(Ok(Bytes::copy_from_slice(text.as_bytes()))),
                Ok(Message::Binary(bytes)) => Some(Ok(bytes)),
                Ok(Message::Close(_)) => Some(Err(Unread::Closed)),
                Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => None,
                Err(SocketError::Capacity(
                    CapacityError::MessageTooLong { .. } | CapacityError::TooManyHeaders,
                )) => Some(Err(Unread::TooLong)),
                Err(_) => Some(Err(Unread::Closed)),
            })
        });
        let writer = writer.with(|line: String| {
            let text = line.trim_end_matches('\n').to_owned();
            std::future::ready(Ok::<_, SocketError>(Message::text(text)))
        });
        self.converse(address, Box::pin(lines), writer).await;
    }
}

/// How many bytes a WebSocket reads at a time, and keeps for that: tungstenite's default
/// of 128 KiB, filled at the first read, would cost every idle socket 128 KiB. A message
/// longer than this grows the buffer to the message (at most [`MAX_LINE`]).
const READ_BUFFER: usize = 4096;

/// The WebSocket's limits: a message at most a protocol line, read a few KiB at a time.
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(MAX_LINE))
        .max_frame_size(Some(MAX_LINE))
}

/// The `101 Switching Protocols` answer to a WebSocket's opening request, or the status
/// and words that refuse a request that is not one or comes from a page of another
/// origin.
fn upgrade_answer(
    request: &Request<Incoming>,
    secure: bool,
) -> Result<Response<Full<Bytes>>, (StatusCode, &'static str)> {
    let headers = request.headers();
    let says = |name: header::HeaderName, word: &str| {
        headers.get_all(name).iter().any(|value| {
            value.to_str().is_ok_and(|value| {
                value
                    .split(',')
                    .any(|part| part.trim().eq_ignore_ascii_case(word))
            })
        })
    };
    let key = headers.get(header::SEC_WEBSOCKET_KEY);
    let (true, true, Some(key)) = (
        says(header::CONNECTION, "upgrade"),
        says(header::UPGRADE, "websocket"),
        key,
    ) else {
        return Err((
            StatusCode::BAD_REQUEST,
            "this address is the game's WebSocket; open the page at / instead",
        ));
    };
    if !same_origin(request, secure) {
        return Err((
            StatusCode::FORBIDDEN,
            "the WebSocket opens only for this server's own page (its Origin)",
        ));
    }
    let accept = derive_accept_key(key.as_bytes());
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    if let Ok(accept) = HeaderValue::from_str(&accept) {
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    Ok(response)
}

/// Whether a WebSocket's request comes from this server's own page: its `Origin` is the
/// host it asked for (`Host`), over `https://`, or on a plain port (behind a proxy that
/// ends TLS, or tried on loopback) over `https://` or `http://`. A request without an
/// `Origin` (no browser sends one) is refused too.
fn same_origin(request: &Request<Incoming>, secure: bool) -> bool {
    let headers = request.headers();
    let (Some(origin), Some(host)) = (headers.get(header::ORIGIN), headers.get(header::HOST))
    else {
        return false;
    };
    let (Ok(origin), Ok(host)) = (origin.to_str(), host.to_str()) else {
        return false;
    };
    let origin_host = match origin.strip_prefix("https://") {
        Some(origin_host) => Some(origin_host),
        None if !secure => origin.strip_prefix("http://"),
        None => None,
    };
    origin_host.is_some_and(|origin_host| origin_host.eq_ignore_ascii_case(host))
}

/// An asset of the page by its path (`/` is `index.html`), with its type and the
/// headers of every answer; the language files of the data (`/lang/eng`) as text.
fn asset(path: &str) -> Response<Full<Bytes>> {
    let relative = path.trim_start_matches('/');
    let relative = if relative.is_empty() {
        "index.html"
    } else {
        relative
    };
    if let Some(image) = relative.strip_prefix("theme/") {
        let Some(png) = themes::png(image) else {
            return plain(StatusCode::NOT_FOUND, "no such image");
        };
        let mut response = Response::new(Full::new(Bytes::from(png)));
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
        return with_headers(response);
    }
    let found = if let Some(language) = relative.strip_prefix("lang/") {
        let valid = !language.is_empty() && language.chars().all(|c| c.is_ascii_lowercase());
        valid
            .then(|| hnefatafl_data::embedded(&format!("lang/{language}")))
            .flatten()
    } else {
        PAGE.get_file(relative).map(include_dir::File::contents)
    };
    let Some(contents) = found else {
        return plain(StatusCode::NOT_FOUND, "no such page");
    };
    let mut response = Response::new(Full::new(Bytes::from_static(contents)));
    let kind = content_type(relative);
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    with_headers(response)
}

/// The media type of an asset, by its name's ending.
fn content_type(relative: &str) -> &'static str {
    match relative.rsplit_once('.').map(|(_, ending)| ending) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "text/plain; charset=utf-8",
    }
}

/// A short answer in words.
fn plain(status: StatusCode, words: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(words.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    with_headers(response)
}

/// The headers of every answer: the Content-Security-Policy, no sniffing of types, no
/// caching (the page is small, and a new server's page must never meet an old script),
/// no referrer, no framing.
fn with_headers(mut response: Response<Full<Bytes>>) -> Response<Full<Bytes>> {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}
