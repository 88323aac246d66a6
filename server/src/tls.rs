//! The server's side of TLS: its self-signed certificate, made (rcgen) on the first start
//! and kept in its data directory, and the configuration it accepts connections with; and
//! a certificate the operator gives the web port (`--cert`, `--key`), read again on
//! SIGHUP.
//! What both ends share (the provider, fingerprints, errors) is in `hnefatafl_net::tls`.

use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use hnefatafl_net::tls::{TlsError, fingerprint, provider};
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

/// The certificate's file in the server's data directory.
pub const CERTIFICATE_FILE: &str = "certificate.pem";
/// The private key's file in the server's data directory.
pub const KEY_FILE: &str = "key.pem";

fn file_error(path: &Path) -> impl FnOnce(std::io::Error) -> TlsError + '_ {
    move |source| TlsError::File {
        path: path.to_owned(),
        source,
    }
}

/// Loads the server's certificate and key from `data`, making them on the first start.
/// Answers the configuration and the certificate's fingerprint.
///
/// # Errors
///
/// The files cannot be read or written, or do not hold a certificate and key.
pub fn server_config(data: &Path) -> Result<(Arc<ServerConfig>, String), TlsError> {
    let certificate_path = data.join(CERTIFICATE_FILE);
    let key_path = data.join(KEY_FILE);
    if !certificate_path.exists() {
        // A key without its certificate is what a first start killed half-way leaves: it is
        // replaced, as both are made anew. Each file appears whole or not at all, the
        // certificate last, so a certificate is never there without its key.
        let names = vec!["localhost".to_owned(), "hnefataflserver".to_owned()];
        let made = rcgen::generate_simple_self_signed(names)
            .map_err(|error| TlsError::Setup(error.to_string()))?;
        write_atomically(
            &key_path,
            made.signing_key.serialize_pem().as_bytes(),
            0o600,
        )?;
        write_atomically(&certificate_path, made.cert.pem().as_bytes(), 0o644)?;
    }
    let certificates = read_certificates(&certificate_path)?;
    let fingerprint = fingerprint(&certificates[0]);
    let key = read_key(&key_path)?;
    let config = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|error| TlsError::Setup(error.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certificates, key)
        .map_err(|error| {
            let certificate = certificate_path.display();
            let problem = match error {
                rustls::Error::InconsistentKeys(_) => {
                    format!("the key does not match the certificate {certificate}")
                }
                other => format!("{other} (with the certificate {certificate})"),
            };
            TlsError::Setup(format!(
                "{}: {problem}; remove both to have a new pair made (clients that pinned \
                 the old certificate will refuse the new one)",
                key_path.display()
            ))
        })?;
    Ok((Arc::new(config), fingerprint))
}

/// The certificates of a PEM file, the server's own first (a chain, such as Let's
/// Encrypt's `fullchain.pem`, has the others after it); at least one.
fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let pem = fs::read(path).map_err(file_error(path))?;
    let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<_, _>>()
        .map_err(|error| TlsError::Setup(format!("{}: {}", path.display(), pem_words(&error))))?;
    if certificates.is_empty() {
        return Err(TlsError::Setup(format!(
            "{}: no certificate",
            path.display()
        )));
    }
    Ok(certificates)
}

/// The private key of a PEM file (PKCS #8, PKCS #1 or SEC1).
fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let pem = fs::read(path).map_err(file_error(path))?;
    PrivateKeyDer::from_pem_slice(&pem)
        .map_err(|error| TlsError::Setup(format!("{}: {}", path.display(), pem_words(&error))))
}

/// A certificate and key the operator gives for the web port (`--cert`, `--key`: PEM
/// files, such as Let's Encrypt's `fullchain.pem` and `privkey.pem`), read again on
/// SIGHUP ([`reload_on_hangup`]): each new connection's handshake takes the pair read
/// last, and connections already open go on undisturbed.
pub struct GivenCertificate {
    certificate: PathBuf,
    key: PathBuf,
    current: RwLock<Arc<CertifiedKey>>,
}

impl std::fmt::Debug for GivenCertificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GivenCertificate")
            .field("certificate", &self.certificate)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl GivenCertificate {
    /// Reads the certificate (its chain) and its key.
    ///
    /// # Errors
    ///
    /// A file cannot be read, holds no certificate or key, or the key does not belong to
    /// the certificate; the error names the file.
    pub fn load(certificate: &Path, key: &Path) -> Result<Arc<GivenCertificate>, TlsError> {
        let pair = certified(certificate, key)?;
        Ok(Arc::new(GivenCertificate {
            certificate: certificate.to_owned(),
            key: key.to_owned(),
            current: RwLock::new(Arc::new(pair)),
        }))
    }

    /// Reads the files again and, when they are good, serves the new pair from the next
    /// handshake on; answers its fingerprint. A bad pair leaves the one in use.
    ///
    /// # Errors
    ///
    /// As for [`GivenCertificate::load`].
    pub fn reload(&self) -> Result<String, TlsError> {
        let pair = Arc::new(certified(&self.certificate, &self.key)?);
        let fingerprint = fingerprint(&pair.cert[0]);
        *self
            .current
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = pair;
        Ok(fingerprint)
    }

    /// The fingerprint of the certificate in use.
    pub fn fingerprint(&self) -> String {
        let current = self
            .current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        fingerprint(&current.cert[0])
    }

    /// The configuration of a port that serves this certificate (TLS 1.3, as the
    /// server's own port).
    ///
    /// # Errors
    ///
    /// The TLS library refuses the setup.
    pub fn server_config(self: &Arc<Self>) -> Result<Arc<ServerConfig>, TlsError> {
        let config = ServerConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(|error| TlsError::Setup(error.to_string()))?
            .with_no_client_auth()
            .with_cert_resolver(self.clone());
        Ok(Arc::new(config))
    }
}

impl ResolvesServerCert for GivenCertificate {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        let current = self
            .current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Some(current.clone())
    }
}

/// A certificate's chain and its key, checked to belong together.
fn certified(certificate: &Path, key: &Path) -> Result<CertifiedKey, TlsError> {
    let chain = read_certificates(certificate)?;
    let private = read_key(key)?;
    CertifiedKey::from_der(chain, private, &provider()).map_err(|error| {
        let problem = match error {
            rustls::Error::InconsistentKeys(_) => {
                format!(
                    "the key does not belong to the certificate {}",
                    certificate.display()
                )
            }
            other => other.to_string(),
        };
        TlsError::Setup(format!("{}: {problem}", key.display()))
    })
}

/// Reads the given certificate and key again each time the server gets SIGHUP (as a
/// renewal hook runs `kill -HUP`), saying on standard error what it now serves, or why
/// it keeps the pair it had. Runs until the server ends.
pub async fn reload_on_hangup(given: Arc<GivenCertificate>) {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut hangups) = signal(SignalKind::hangup()) else {
        eprintln!("hnefataflserver: cannot listen for SIGHUP: the certificate is never read again");
        return;
    };
    while hangups.recv().await.is_some() {
        match given.reload() {
            Ok(fingerprint) => eprintln!(
                "hnefataflserver: SIGHUP: the web port now serves {}, certificate {fingerprint}",
                given.certificate.display()
            ),
            Err(error) => eprintln!(
                "hnefataflserver: SIGHUP: {error}; the web port keeps the certificate it had"
            ),
        }
    }
}

/// A PEM file's problem in words (rustls prints the markers as lists of bytes).
fn pem_words(error: &rustls::pki_types::pem::Error) -> String {
    use rustls::pki_types::pem::Error;
    match error {
        Error::MissingSectionEnd { end_marker } => format!(
            "the section has no end line `-----END {}-----` (is the file cut short?)",
            String::from_utf8_lossy(end_marker)
        ),
        Error::IllegalSectionStart { line } => format!(
            "a section starts with the bad line `{}`",
            String::from_utf8_lossy(line)
        ),
        Error::NoItemsFound => "nothing of the kind expected in it".to_owned(),
        other => other.to_string(),
    }
}

/// Writes `path` whole or not at all, with permissions `mode` (less the umask): the bytes
/// go to a temporary file beside it, are flushed to disk and renamed over it, and the
/// rename is flushed too. Errors name `path`. (`hnefatafl_data::files::write_atomically`
/// keeps an existing file's permissions and gives a new one the umask's, which is not
/// private enough for the key.)
fn write_atomically(path: &Path, bytes: &[u8], mode: u32) -> Result<(), TlsError> {
    let directory = path.parent().unwrap_or(Path::new("."));
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".new");
    let temporary = PathBuf::from(temporary);
    // One left by a start killed while writing.
    let _ = fs::remove_file(&temporary);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&temporary)
        .and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        })
        .and_then(|()| fs::rename(&temporary, path))
        .and_then(|()| fs::File::open(directory)?.sync_all());
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.map_err(file_error(path))
}
