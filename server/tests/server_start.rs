//! What the server says at its start about its files and its options: errors that name the
//! file (a full disk, a key that does not match its certificate, a key cut short), a
//! database open to others made private, `--help`'s networks from the data, and the
//! addresses exempt from the per-address quotas only when told.

#[path = "server_support/raw.rs"]
mod raw;
mod server_support;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use hnefatafl_net::protocol::{ClientMessage, ServerMessage};
use server_support::binaries::server_binary;
use server_support::{PATIENCE, ServerProcess, TestClient, refused_start};

/// Runs the server on `data` by `sh -c <script>` (the server is `"$@"`), and answers its
/// exit status and standard error once it ends, within [`PATIENCE`].
fn failed_start(script: &str, data: &Path) -> (std::process::ExitStatus, String) {
    let mut command = Command::new("sh");
    command
        .args(["-c", script, "sh"])
        .arg(server_binary())
        .args(["--bind", "127.0.0.1", "--port", "0", "--data"])
        .arg(data);
    refused_start(command)
}

/// Starts the server on `data` and stops it once it listens, answering what it said on
/// standard error before then.
fn start_and_stop(data: &Path) -> String {
    let mut child: Child = Command::new(server_binary())
        .args(["--bind", "127.0.0.1", "--port", "0", "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefataflserver");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("its first line");
    assert!(first.contains("listening"), "{first}");
    let _ = child.kill();
    let _ = child.wait();
    let mut said = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut said)
        .expect("its messages");
    said
}

#[test]
fn a_full_disk_at_the_first_start_names_the_database() {
    let data = tempfile::tempdir().expect("data dir");
    // Files of at most 300 blocks: room for the certificate, not for the database; the
    // signal that would kill the server instead is ignored, so its writes fail.
    let script = "trap '' XFSZ; ulimit -f 300 && exec \"$@\"";
    let (status, message) = failed_start(script, data.path());
    assert!(!status.success(), "{message}");
    let database = data.path().join("server.db");
    assert!(
        message.contains(&database.display().to_string()),
        "{message}"
    );
}

#[test]
fn a_key_that_is_not_the_certificates_names_both_files() {
    let first = tempfile::tempdir().expect("data dir");
    let second = tempfile::tempdir().expect("data dir");
    start_and_stop(first.path());
    start_and_stop(second.path());
    std::fs::copy(second.path().join("key.pem"), first.path().join("key.pem")).expect("copy");
    let (status, message) = failed_start("exec \"$@\"", first.path());
    assert!(!status.success(), "{message}");
    for file in ["key.pem", "certificate.pem"] {
        let path = first.path().join(file).display().to_string();
        assert!(message.contains(&path), "{path} not in {message}");
    }
    assert!(message.contains("does not match"), "{message}");
    assert!(!message.contains("KeyMismatch"), "{message}");

    // A key cut short is said in words, not as a list of bytes.
    let key = std::fs::read_to_string(second.path().join("key.pem")).expect("the key");
    std::fs::write(first.path().join("key.pem"), &key[..key.len() / 2]).expect("cut");
    let (status, message) = failed_start("exec \"$@\"", first.path());
    assert!(!status.success(), "{message}");
    let path = first.path().join("key.pem").display().to_string();
    assert!(message.contains(&path), "{path} not in {message}");
    assert!(message.contains("-----END PRIVATE KEY-----"), "{message}");
    assert!(!message.contains("[45, 45"), "{message}");
}

#[test]
fn a_database_open_to_others_is_made_private_and_said() {
    let data = tempfile::tempdir().expect("data dir");
    start_and_stop(data.path());
    let database = data.path().join("server.db");
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let said = start_and_stop(data.path());
    let mode = std::fs::metadata(&database)
        .expect("the database")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{said}");
    assert!(
        said.contains(&database.display().to_string()) && said.contains("0644"),
        "{said}"
    );
    // Private already: nothing to say.
    assert!(!start_and_stop(data.path()).contains("server.db"));
}

#[test]
fn help_names_the_networks_that_ship() {
    let output = Command::new(server_binary())
        .arg("--help")
        .output()
        .expect("run --help");
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let shipped = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/networks"))
        .expect("data/networks");
    let mut networks = 0;
    for entry in shipped {
        let name = entry
            .expect("a file")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let Some(rules) = name.strip_suffix(".nnue") else {
            continue;
        };
        networks += 1;
        assert!(help.contains(rules), "{rules} not in --help: {help}");
    }
    assert!(networks >= 7, "{networks} networks");
}

/// Registers `name` from this computer (127.0.0.1): `None` when it is done, the error
/// otherwise.
async fn register(port: u16, home: &Path, name: &str) -> Option<String> {
    let mut client = TestClient::connect(port, home).await;
    client
        .send(ClientMessage::Register {
            name: name.into(),
            password: "password".into(),
        })
        .await;
    client
        .expect(|m| match m {
            ServerMessage::LoggedIn { .. } => Some(None),
            ServerMessage::Error { message } => Some(Some(message.clone())),
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn this_computers_registrations_count_unless_it_is_exempt() {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    // Behind a reverse proxy on this computer every client comes from 127.0.0.1.
    let counted = ServerProcess::start_bare(data.path(), &["--registrations-per-hour", "2"]);
    for name in ["one", "two"] {
        assert_eq!(register(counted.port, home.path(), name).await, None);
    }
    let refused = register(counted.port, home.path(), "three").await;
    assert!(
        refused
            .as_deref()
            .is_some_and(|r| r.contains("at most 2 new accounts an hour")),
        "{refused:?}"
    );
    drop(counted);
    // Exempt when told.
    let other = tempfile::tempdir().expect("data dir");
    let exempt = ServerProcess::start_bare(
        other.path(),
        &["--registrations-per-hour", "2", "--exempt", "127.0.0.1"],
    );
    for name in ["one", "two", "three", "four"] {
        assert_eq!(register(exempt.port, home.path(), name).await, None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_the_address_comes_from_its_header_when_told() {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    let server = ServerProcess::start_bare(
        data.path(),
        &["--proxy-protocol", "--registrations-per-hour", "1"],
    );
    let register = |name: &str| ClientMessage::Register {
        name: name.into(),
        password: "password".into(),
    };
    // Every connection comes from the proxy, at 127.0.0.1; the quota counts the clients.
    let mut first = raw::Raw::through_proxy("192.0.2.1", server.port, home.path()).await;
    assert_eq!(first.answer(&register("one")).await, None);
    let mut again = raw::Raw::through_proxy("192.0.2.1", server.port, home.path()).await;
    let refused = again.answer(&register("two")).await.expect("refused");
    assert!(
        refused.contains("at most 1 new accounts an hour"),
        "{refused}"
    );
    let mut other = raw::Raw::through_proxy("192.0.2.2", server.port, home.path()).await;
    assert_eq!(other.answer(&register("three")).await, None);
    // A connection without the header is not served.
    let pins = hnefatafl_net::client::pins_file(home.path());
    let direct = hnefatafl_net::client::Client::connect("127.0.0.1", server.port, &pins);
    let served = tokio::time::timeout(PATIENCE, direct)
        .await
        .expect("an answer in time");
    assert!(served.is_err(), "served without a PROXY header");
}
