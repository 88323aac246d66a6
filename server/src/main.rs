//! `hnefataflserver`: the game server. It runs until killed, or, started by a client for
//! `c localhost`, until the last client leaves.

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser};
use hnefatafl_net::DEFAULT_PORT;
use hnefatafl_server::computer;
use hnefatafl_server::datadir::{self, DataLock};
use hnefatafl_server::quotas::Quotas;
use hnefatafl_server::server::{Options, Server, ServerError, WebPort};
use hnefatafl_server::storage::SqliteStorage;
use hnefatafl_server::tls;

/// The hnefatafl game server: accounts, games refereed by the engine, clocks (Fischer,
/// byo-yomi, correspondence), spectators, chat and an archive, over TLS 1.3.
#[derive(Parser, Debug)]
#[command(name = "hnefataflserver", version, about)]
struct Arguments {
    /// The TCP port to listen on (0: any free port, printed at start).
    #[arg(long, short = 'p', default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The web ports.
    #[command(flatten)]
    web: WebArguments,
    /// The address to listen on; 127.0.0.1 keeps the server to this computer.
    #[arg(long, default_value = "0.0.0.0")]
    bind: IpAddr,
    /// The directory of the database and the certificate (made if missing, for its owner
    /// only). One server at a time may use it: a second one refuses to start, naming the
    /// first (its pid and address, from the lock file `lock` in the directory).
    /// Default: ~/.hnefatafl/server
    #[arg(long, short = 'd')]
    data: Option<PathBuf>,
    /// Each connection starts with a PROXY protocol (version 1) header from a reverse proxy
    /// in front of the server (HAProxy's `send-proxy`, nginx's `proxy_protocol on`), and the
    /// client's address, which the per-address quotas count, is taken from it; a connection
    /// without one is closed. Only for a server that nobody reaches but through the proxy.
    #[arg(long)]
    proxy_protocol: bool,
    /// Print every message between the server and its clients, with its direction,
    /// connection and time; passwords are masked.
    #[arg(long)]
    showtraffic: bool,
    /// A private server for this computer: listen on 127.0.0.1 only and stop when the
    /// last client leaves (unless --continue). `c localhost` starts one.
    #[arg(long)]
    local: bool,
    /// With --local: keep running after the last client leaves.
    #[arg(long = "continue")]
    keep_running: bool,
    /// Offer a computer account `computer<LEVEL>` playing at that level (1 to 6); may be
    /// given more than once. (Its help names the rules with a learned evaluation, from the
    /// data: [`computer_help`].)
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u32).range(1..=6))]
    computer: Vec<u32>,
    /// Threads the computer players' searches share; further searches wait their turn,
    /// each human player's in turn. Each thread keeps a 16 MiB table. Default: the cores
    /// less one, at least 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    computer_threads: Option<u64>,
    /// An owner of the server: an account that makes and unmakes moderators and moderates
    /// (mutes, kicks and bans accounts, bans addresses, hides chat lines, aborts games),
    /// every action logged; may be given more than once. Register the account first: until
    /// it exists, whoever registers the name owns the server.
    #[arg(long, value_name = "NAME", value_parser = account_name)]
    admin: Vec<String>,
    /// Connections open at once, TLS handshakes included; further clients wait to be
    /// accepted.
    #[arg(
        long,
        value_name = "N",
        default_value_t = Quotas::default().connections as u64,
        value_parser = clap::value_parser!(u64).range(1..=1_000_000),
        help_heading = "Quotas"
    )]
    max_connections: u64,
    /// Connections open at once from one address; further ones are closed at once.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().connections_per_address as u64,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "Quotas")]
    connections_per_address: u64,
    /// New accounts from one address in an hour.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().registrations_per_hour,
          help_heading = "Quotas")]
    registrations_per_hour: usize,
    /// Unfinished games in which one account may have a seat.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().open_games,
          help_heading = "Quotas")]
    open_games: usize,
    /// Rule files one account may upload in an hour (each at most 16 KiB, and 32 KiB as
    /// sent; its id and name none of a shipped rule set's).
    #[arg(long, value_name = "N", default_value_t = Quotas::default().uploads_per_hour,
          help_heading = "Quotas")]
    uploads_per_hour: usize,
    /// Challenges (seeks to a named player, rematches) one account may send in an hour;
    /// each reaches the challenged player unasked.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().challenges_per_hour,
          help_heading = "Quotas")]
    challenges_per_hour: usize,
    /// Chat lines one connection (a guest's too) may send in a second; further lines are
    /// refused with an error.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().chat_per_second,
          value_parser = clap::value_parser!(u32).range(1..), help_heading = "Quotas")]
    chat_per_second: u32,
    /// Chat lines the connections of one address may send in a second, together.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().chat_per_address,
          value_parser = clap::value_parser!(u32).range(1..), help_heading = "Quotas")]
    chat_per_address: u32,
    /// Chat lines the watchers of one game may send in it in a second, together (its
    /// players are not counted). Only a game's players and watchers may talk in it.
    #[arg(long, value_name = "N", default_value_t = Quotas::default().chat_per_game,
          value_parser = clap::value_parser!(u32).range(1..), help_heading = "Quotas")]
    chat_per_game: u32,
    /// An address held to none of the per-address quotas (new accounts, connections,
    /// chat), such as 127.0.0.1 for a load test on this computer; may be given more than
    /// once. None by default (behind a reverse proxy on this computer every client would
    /// come from 127.0.0.1); with --local, this computer's own addresses.
    #[arg(long, value_name = "ADDRESS", help_heading = "Quotas")]
    exempt: Vec<IpAddr>,
    /// Seconds a new connection has to say `hello` before it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = Quotas::default().hello_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "Quotas")]
    hello_timeout: u64,
    /// Seconds a connection may send no message (a blank line is none) before it is
    /// closed.
    #[arg(long, value_name = "SECONDS", default_value_t = Quotas::default().idle_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "Quotas")]
    idle_timeout: u64,
    /// The length of a rating period (e.g. `1day`, `12h`, `30s`): at the end of each, the
    /// period's rated games update both players' Glicko-2 ratings, and the ratings of
    /// players without games grow less certain.
    #[arg(long, value_name = "DURATION", default_value = "1day", value_parser = rating_period)]
    rating_period: Duration,
}

/// Reads `--admin`: an account's name, 1 to 32 letters, digits, `-` or `_`.
fn account_name(text: &str) -> Result<String, String> {
    let good = (1..=32).contains(&text.len())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if good {
        Ok(text.to_owned())
    } else {
        Err("an account's name has 1 to 32 letters, digits, `-` or `_`".to_owned())
    }
}

/// The options of the web ports (`docs/web.md`).
#[derive(clap::Args, Debug)]
struct WebArguments {
    /// Also serve the web page on this TCP port, over HTTPS with the same certificate, and
    /// the protocol over a WebSocket at /ws beside it (0: any free port, printed at start).
    /// Off unless given.
    #[arg(long, value_name = "PORT", help_heading = "Web")]
    web_port: Option<u16>,
    /// The web port's certificate chain, a PEM file (Let's Encrypt's fullchain.pem), with
    /// --key, instead of the server's own; read again on SIGHUP. The TLS port keeps the
    /// server's own certificate, which its clients pin.
    #[arg(long, value_name = "FILE", requires_all = ["key", "web_port"], help_heading = "Web")]
    cert: Option<PathBuf>,
    /// The private key of --cert, a PEM file (Let's Encrypt's privkey.pem).
    #[arg(long, value_name = "FILE", requires = "cert", help_heading = "Web")]
    key: Option<PathBuf>,
    /// Also serve the web page and its WebSocket in plain HTTP on this port, for a reverse
    /// proxy that ends TLS in front of the server; on 127.0.0.1 unless --web-plain-bind.
    #[arg(long, value_name = "PORT", help_heading = "Web")]
    web_plain: Option<u16>,
    /// The address of the --web-plain port.
    #[arg(
        long,
        value_name = "ADDRESS",
        default_value = "127.0.0.1",
        requires = "web_plain",
        help_heading = "Web"
    )]
    web_plain_bind: IpAddr,
    /// Believe the client's address that the proxy in front of --web-plain gives
    /// (`Forwarded`, else `X-Forwarded-For`: the last address), for the per-address quotas;
    /// without it, every client there is the proxy's address.
    #[arg(long, requires = "web_plain", help_heading = "Web")]
    trust_forwarded: bool,
}

/// Reads `--rating-period`: a duration of at least a second.
fn rating_period(text: &str) -> Result<Duration, String> {
    let period = humantime::parse_duration(text).map_err(|error| error.to_string())?;
    if period < Duration::from_secs(1) {
        return Err("a rating period lasts at least 1s".to_owned());
    }
    Ok(period)
}

/// The help of `--computer`: the rules in which the computers play with a learned
/// evaluation are those whose network ships (`networks/<rules>.nnue` of the built-in data).
fn computer_help() -> String {
    let networks: Vec<&str> = hnefatafl_data::embedded_names("networks")
        .into_iter()
        .filter_map(|name| name.strip_suffix(".nnue"))
        .collect();
    let with = if networks.is_empty() {
        "the classic evaluation in every rule set".to_owned()
    } else {
        format!(
            "a learned evaluation in {} (the networks shipped), the classic one elsewhere",
            networks.join(", ")
        )
    };
    format!(
        "Offer a computer account `computer<LEVEL>` playing at that level (1 to 6), with \
         {with}, a move in at most its level's own time (15 s at level 6) whatever the \
         clock; may be given more than once"
    )
}

/// The arguments, `--computer`'s help filled in from the data.
fn arguments() -> Arguments {
    let command =
        Arguments::command().mut_arg("computer", |argument| argument.help(computer_help()));
    let matches = command.get_matches();
    Arguments::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

fn main() -> ExitCode {
    let arguments = arguments();
    match run(arguments) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("hnefataflserver: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(arguments: Arguments) -> Result<(), String> {
    let data = match arguments.data {
        Some(data) => data,
        None => std::env::var_os("HOME")
            .map(|home| PathBuf::from(home).join(".hnefatafl").join("server"))
            .ok_or("no --data and no $HOME")?,
    };
    datadir::create_private_dir(&data)?;
    // Held until the server ends: a second server on this directory refuses to start.
    let mut lock = DataLock::acquire(&data)?;
    let (tls_config, fingerprint) = tls::server_config(&data).map_err(|e| e.to_string())?;
    let database = data.join("server.db");
    // Made 0600 by the server; one copied in, or made by another program, may be open to
    // everybody: it holds the password hashes.
    for suffix in ["", "-wal", "-shm"] {
        let mut name = database.clone().into_os_string();
        name.push(suffix);
        let path = PathBuf::from(name);
        if let Some(mode) = datadir::make_private(&path)? {
            eprintln!(
                "hnefataflserver: {}: was open to others (mode {mode:04o}); made private \
                 (mode {:04o})",
                path.display(),
                mode & 0o700
            );
        }
    }
    let open = || {
        SqliteStorage::open(&database).map_err(|error| format!("{}: {error}", database.display()))
    };
    let mut exempt = arguments.exempt.clone();
    if arguments.local {
        // A private server: nobody but this computer's own users can reach it.
        exempt.extend([
            IpAddr::from([127, 0, 0, 1]),
            IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
        ]);
    }
    let storage = open()?;
    let ratings = open()?;
    let options = Options {
        data: data.clone(),
        proxy_protocol: arguments.proxy_protocol,
        show_traffic: arguments.showtraffic,
        stop_when_empty: arguments.local && !arguments.keep_running,
        computers: arguments.computer,
        computer_threads: arguments
            .computer_threads
            .map_or_else(computer::default_threads, |threads| threads as usize),
        quotas: Quotas {
            connections: usize::try_from(arguments.max_connections).unwrap_or(usize::MAX),
            connections_per_address: usize::try_from(arguments.connections_per_address)
                .unwrap_or(usize::MAX),
            registrations_per_hour: arguments.registrations_per_hour,
            open_games: arguments.open_games,
            uploads_per_hour: arguments.uploads_per_hour,
            challenges_per_hour: arguments.challenges_per_hour,
            chat_per_second: arguments.chat_per_second,
            chat_per_address: arguments.chat_per_address,
            chat_per_game: arguments.chat_per_game,
            exempt,
            hello_timeout: Duration::from_secs(arguments.hello_timeout),
            idle_timeout: Duration::from_secs(arguments.idle_timeout),
        },
        rating_period: arguments.rating_period,
        admins: arguments.admin,
    };
    let server = Server::new(Box::new(storage), Box::new(ratings), &options).map_err(|error| {
        match error {
            // The database's errors do not name it.
            ServerError::Storage(_)
            | ServerError::Game(..)
            | ServerError::Tournament(..)
            | ServerError::Write(_) => {
                format!("{}: {error}", database.display())
            }
            ServerError::Rules(..) | ServerError::Thread(_) => error.to_string(),
        }
    })?;
    let bind = if arguments.local {
        IpAddr::from([127, 0, 0, 1])
    } else {
        arguments.bind
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|error| error.to_string())?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((bind, arguments.port))
            .await
            .map_err(|error| format!("{bind} port {}: {error}", arguments.port))?;
        let address = listener.local_addr().map_err(|error| error.to_string())?;
        lock.record(&format!(
            "pid {}, listening on {address}",
            std::process::id()
        ))?;
        let acceptor = tokio_rustls::TlsAcceptor::from(tls_config);
        let web = web_ports(&arguments.web, bind, &acceptor).await?;
        // The first line tells a starting client where to connect.
        println!("hnefataflserver listening on {address}, certificate {fingerprint}");
        for (listener, port, words) in web {
            let address = listener.local_addr().map_err(|error| error.to_string())?;
            println!("hnefataflserver {words}{address}/");
            tokio::spawn(server.clone().serve_web(listener, port));
        }
        server
            .serve(listener, acceptor)
            .await
            .map_err(|error| format!("{}: {error}", database.display()))
    })?;
    Ok(())
}

/// The web ports' listeners, with how each is served and the words that announce it:
/// `--web-port` over TLS (with `--cert`'s certificate, read again on SIGHUP, or the
/// server's own), `--web-plain` in plain HTTP for a proxy that ends TLS.
async fn web_ports(
    arguments: &WebArguments,
    bind: IpAddr,
    own: &tokio_rustls::TlsAcceptor,
) -> Result<Vec<(tokio::net::TcpListener, WebPort, &'static str)>, String> {
    let mut ports = Vec::new();
    if let Some(port) = arguments.web_port {
        let acceptor = match (&arguments.cert, &arguments.key) {
            (Some(certificate), Some(key)) => {
                let given =
                    tls::GivenCertificate::load(certificate, key).map_err(|e| e.to_string())?;
                let config = given.server_config().map_err(|e| e.to_string())?;
                tokio::spawn(tls::reload_on_hangup(given));
                tokio_rustls::TlsAcceptor::from(config)
            }
            _ => own.clone(),
        };
        let listener = tokio::net::TcpListener::bind((bind, port))
            .await
            .map_err(|error| format!("{bind} web port {port}: {error}"))?;
        ports.push((listener, WebPort::Tls(acceptor), "web page at https://"));
    }
    if let Some(port) = arguments.web_plain {
        let plain_bind = arguments.web_plain_bind;
        let listener = tokio::net::TcpListener::bind((plain_bind, port))
            .await
            .map_err(|error| format!("{plain_bind} plain web port {port}: {error}"))?;
        let served = WebPort::Plain {
            trust_forwarded: arguments.trust_forwarded,
        };
        ports.push((listener, served, "plain web page for a proxy at http://"));
    }
    Ok(ports)
}
