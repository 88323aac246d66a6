//! The server's data directory on disk: one server at a time, a certificate that survives a
//! start killed half-way, and files for their owner only.

mod server_support;

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use server_support::binaries::server_binary;
use server_support::{ServerProcess, TestClient, refused_start, started};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_data_directory_refuses_to_start() {
    let (data, home, first) = started(&[]);

    let mut second = Command::new(server_binary());
    second
        .args(["--bind", "127.0.0.1", "--port", "0", "--data"])
        .arg(data.path());
    let (status, message) = refused_start(second);
    assert!(!status.success(), "{status}: {message}");
    let lock_file = data.path().join("lock");
    for named in [
        format!("pid {}", first.pid()),
        format!("127.0.0.1:{}", first.port),
        lock_file.display().to_string(),
    ] {
        assert!(message.contains(&named), "{named:?} not in {message:?}");
    }

    // The first still serves.
    let mut ann = TestClient::connect(first.port, home.path()).await;
    ann.register("ann", "password a").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_left_without_its_certificate_is_replaced() {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    // What a first start killed between the key and the certificate leaves: part of a key.
    let stale = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n";
    std::fs::write(data.path().join("key.pem"), stale).expect("a stale key");

    let server = ServerProcess::start(data.path(), 0, &[]);
    let mut ann = TestClient::connect(server.port, home.path()).await;
    ann.register("ann", "password a").await;
    let key = std::fs::read_to_string(data.path().join("key.pem")).expect("the key");
    assert_ne!(key, stale);
    assert!(data.path().join("certificate.pem").is_file());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_directory_is_its_owners_only() {
    let parent = tempfile::tempdir().expect("a directory");
    let home = tempfile::tempdir().expect("home");
    let data = parent.path().join("server");
    let server = ServerProcess::start_under_umask("022", &data, 0);
    // A game makes the database write (and SQLite make its -wal and -shm files).
    let mut ann = TestClient::connect(server.port, home.path()).await;
    ann.register("ann", "password a").await;

    let mode = |name: &str| {
        let path = data.join(name);
        let metadata =
            std::fs::metadata(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        format!("{:o}", metadata.permissions().mode() & 0o777)
    };
    assert_eq!(mode(""), "700", "the data directory");
    for name in [
        "server.db",
        "server.db-wal",
        "server.db-shm",
        "key.pem",
        "lock",
    ] {
        assert_eq!(mode(name), "600", "{name}");
    }
}
