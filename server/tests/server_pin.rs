//! The certificate pin: a client trusts a server on first use and refuses it once its
//! certificate has changed.

mod server_support;

use hnefatafl_net::client::{Client, ClientError, pins_file};
use hnefatafl_net::tls::TlsError;
use hnefatafl_server::tls::{CERTIFICATE_FILE, KEY_FILE};
use server_support::{ServerProcess, TestClient, started};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_certificate_is_refused() {
    let (data, home, mut server) = started(&[]);
    let port = server.port;

    // First use: pinned.
    TestClient::connect(port, home.path()).await;
    let pins = std::fs::read_to_string(pins_file(home.path())).expect("pins written");
    assert!(
        pins.starts_with(&format!("127.0.0.1:{port} sha256:")),
        "{pins}"
    );
    // The same server again: accepted.
    TestClient::connect(port, home.path()).await;

    // The server restarts on the same port with a new certificate.
    server.kill();
    std::fs::remove_file(data.path().join(CERTIFICATE_FILE)).expect("remove certificate");
    std::fs::remove_file(data.path().join(KEY_FILE)).expect("remove key");
    let _server = ServerProcess::start(data.path(), port, &[]);
    let refused = Client::connect("127.0.0.1", port, &pins_file(home.path())).await;
    match refused {
        Err(ClientError::Tls(error @ TlsError::Changed { .. })) => {
            let message = error.to_string();
            assert!(message.contains(&format!("127.0.0.1:{port}")), "{message}");
            assert!(message.contains("has changed"), "{message}");
            assert!(message.contains("line 1"), "{message}");
        }
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("a changed certificate was accepted"),
    }
    // The pin is unchanged: a refusal never trusts the new certificate.
    assert_eq!(
        std::fs::read_to_string(pins_file(home.path())).expect("pins"),
        pins
    );
}
