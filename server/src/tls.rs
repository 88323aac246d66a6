//! The server's side of TLS: its self-signed certificate, made (rcgen) on the first start
//! and kept in its data directory, and the configuration it accepts connections with.
//! What both ends share (the provider, fingerprints, errors) is in `hnefatafl_net::tls`.

use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hnefatafl_net::tls::{TlsError, fingerprint, provider};
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

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
    let pem = fs::read(&certificate_path).map_err(file_error(&certificate_path))?;
    let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<_, _>>()
        .map_err(|error| {
            TlsError::Setup(format!(
                "{}: {}",
                certificate_path.display(),
                pem_words(&error)
            ))
        })?;
    let first = certificates.first().ok_or_else(|| {
        TlsError::Setup(format!("{}: no certificate", certificate_path.display()))
    })?;
    let fingerprint = fingerprint(first);
    let key_pem = fs::read(&key_path).map_err(file_error(&key_path))?;
    let key = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|error| {
        TlsError::Setup(format!("{}: {}", key_path.display(), pem_words(&error)))
    })?;
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
