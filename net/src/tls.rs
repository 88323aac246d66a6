//! TLS 1.3 for the server and its clients (rustls with the ring provider; nothing else is
//! offered, no plain-text mode): what both ends share, and the client's pinning.
//!
//! The server makes a self-signed certificate on its first start and keeps it in its data
//! directory (see the server crate). A client trusts a server's certificate on first use and pins its
//! SHA-256 fingerprint in a file of known servers (`~/.hnefatafl/known_servers`), as ssh
//! does; a server whose certificate has changed since is refused with a clear message.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

/// Why TLS could not be set up, or a server was refused.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The certificate or key is unusable.
    #[error("{0}")]
    Setup(String),
    /// The server's certificate is not the one pinned for it.
    #[error(
        "the certificate of {server} has changed: it is {seen}, but {pins} line {line} pins \
         {pinned}. Someone may be intercepting the connection, or the server's certificate \
         was made anew; if you trust the server, remove that line and connect again."
    )]
    Changed {
        /// The server, `host:port`.
        server: String,
        /// The fingerprint it showed.
        seen: String,
        /// The fingerprint pinned.
        pinned: String,
        /// The file of pins.
        pins: PathBuf,
        /// The line of the pin.
        line: usize,
    },
}

/// The cryptography both ends use: ring's.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The SHA-256 fingerprint of a certificate, as `sha256:` and lower-case hex.
pub fn fingerprint(certificate: &[u8]) -> String {
    let digest = Sha256::digest(certificate);
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// The pins of known servers: one `host:port fingerprint` a line.
#[derive(Debug)]
struct Pins {
    path: PathBuf,
}

impl Pins {
    /// The pinned fingerprint of a server, with its line number.
    fn find(&self, server: &str) -> Option<(usize, String)> {
        let text = fs::read_to_string(&self.path).ok()?;
        text.lines().enumerate().find_map(|(index, line)| {
            let mut words = line.split_whitespace();
            (words.next() == Some(server))
                .then(|| words.next().map(|pin| (index + 1, pin.to_owned())))
                .flatten()
        })
    }

    fn add(&self, server: &str, fingerprint: &str) -> std::io::Result<()> {
        if let Some(parent) = self.path.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut file = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&self.path)?;
        writeln!(file, "{server} {fingerprint}")
    }
}

/// A server's certificate pinned at this connection, the first to that server: what a
/// player should compare with the fingerprint the server's operator gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPin {
    /// The certificate's fingerprint (`sha256:` and hex).
    pub fingerprint: String,
    /// The file of known servers it was written to.
    pub pins: PathBuf,
}

/// Checks the server's certificate against its pin, and pins it on first use.
#[derive(Debug)]
struct PinVerifier {
    server: String,
    pins: Pins,
    provider: Arc<CryptoProvider>,
    refused: Arc<Mutex<Option<TlsError>>>,
    pinned: Arc<Mutex<Option<NewPin>>>,
}

impl ServerCertVerifier for PinVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = fingerprint(end_entity);
        match self.pins.find(&self.server) {
            Some((_, pinned)) if pinned == seen => Ok(ServerCertVerified::assertion()),
            Some((line, pinned)) => {
                let error = TlsError::Changed {
                    server: self.server.clone(),
                    seen,
                    pinned,
                    pins: self.pins.path.clone(),
                    line,
                };
                let message = error.to_string();
                if let Ok(mut refused) = self.refused.lock() {
                    *refused = Some(error);
                }
                Err(rustls::Error::General(message))
            }
            None => {
                self.pins
                    .add(&self.server, &seen)
                    .map_err(|error| rustls::Error::General(error.to_string()))?;
                if let Ok(mut pinned) = self.pinned.lock() {
                    *pinned = Some(NewPin {
                        fingerprint: seen,
                        pins: self.pins.path.clone(),
                    });
                }
                Ok(ServerCertVerified::assertion())
            }
        }
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        // Only TLS 1.3 is offered, so this is never asked.
        Err(rustls::Error::PeerIncompatible(
            rustls::PeerIncompatible::Tls13RequiredForQuic,
        ))
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A client's TLS setup for one server: the configuration and where a refusal is told.
pub struct ClientTls {
    /// The configuration to connect with.
    pub config: Arc<ClientConfig>,
    /// Set when the server's certificate did not match its pin.
    pub refused: Arc<Mutex<Option<TlsError>>>,
    /// Set when the server was met for the first time and its certificate pinned.
    pub pinned: Arc<Mutex<Option<NewPin>>>,
}

/// The TLS setup to connect to `server` (`host:port`), pinning in the file `pins`.
///
/// # Errors
///
/// The TLS library refuses the setup (it does not in practice).
pub fn client_config(server: &str, pins: &Path) -> Result<ClientTls, TlsError> {
    let provider = provider();
    let refused = Arc::new(Mutex::new(None));
    let pinned = Arc::new(Mutex::new(None));
    let verifier = PinVerifier {
        server: server.to_owned(),
        pins: Pins {
            path: pins.to_owned(),
        },
        provider: provider.clone(),
        refused: refused.clone(),
        pinned: pinned.clone(),
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|error| TlsError::Setup(error.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(ClientTls {
        config: Arc::new(config),
        refused,
        pinned,
    })
}
