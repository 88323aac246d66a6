//! A WebSocket's gentle close. The socket reads with a small buffer (a few KiB an idle
//! connection, not tungstenite's 128 KiB), so when it refuses a message over the limit by
//! its frame header, most of that message is still unread. Closing the TCP stream then
//! would make the kernel answer with a reset, and the client could lose the error and
//! the close frame sent just before. So the stream comes back once the WebSocket is done
//! with it ([`Returning`]), and [`linger`] ends it the way a TCP connection should be
//! ended: our side shut (TLS's `close_notify`, then a FIN), and what the client still
//! sends read and thrown away until it closes too, within a bound of bytes and time.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::oneshot;

/// The most a closed WebSocket's client may still send before its stream is dropped
/// anyway: a few messages over the limit.
const LINGER_BYTES: usize = 1 << 20;

/// How long a closed WebSocket's client has to close its side.
const LINGER_TIME: Duration = Duration::from_secs(2);

/// A stream that hands itself back through a channel when it is dropped, so that what
/// wrapped it (a WebSocket, split into halves) can end without taking it along.
pub struct Returning<S> {
    stream: Option<S>,
    back: Option<oneshot::Sender<S>>,
}

impl<S> Returning<S> {
    /// Wraps `stream`, and the receiver that gets it back.
    pub fn new(stream: S) -> (Returning<S>, oneshot::Receiver<S>) {
        let (back, returned) = oneshot::channel();
        let wrapped = Returning {
            stream: Some(stream),
            back: Some(back),
        };
        (wrapped, returned)
    }

    /// The stream, as long as it has not been handed back (only a drop does that).
    fn stream(&mut self) -> io::Result<Pin<&mut S>>
    where
        S: Unpin,
    {
        match self.stream.as_mut() {
            Some(stream) => Ok(Pin::new(stream)),
            None => Err(io::ErrorKind::NotConnected.into()),
        }
    }
}

impl<S> Drop for Returning<S> {
    fn drop(&mut self) {
        if let (Some(stream), Some(back)) = (self.stream.take(), self.back.take()) {
            // Nobody waiting for it: it is dropped here after all.
            let _ = back.send(stream);
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Returning<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buffer: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut().stream() {
            Ok(stream) => stream.poll_read(context, buffer),
            Err(error) => Poll::Ready(Err(error)),
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Returning<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut().stream() {
            Ok(stream) => stream.poll_write(context, bytes),
            Err(error) => Poll::Ready(Err(error)),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().stream() {
            Ok(stream) => stream.poll_flush(context),
            Err(error) => Poll::Ready(Err(error)),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().stream() {
            Ok(stream) => stream.poll_shutdown(context),
            Err(error) => Poll::Ready(Err(error)),
        }
    }
}

/// Ends a stream whose WebSocket has closed: shuts our side, then reads and drops what
/// the client still sends until it closes its side, at most [`LINGER_BYTES`] within
/// [`LINGER_TIME`].
pub async fn linger<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S) {
    let drained = async {
        let _ = stream.shutdown().await;
        let mut buffer = [0; 4096];
        let mut left = LINGER_BYTES;
        while left > 0 {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => left = left.saturating_sub(read),
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, drained).await;
}
