//! `ply serve`: the web page and the JSON API (see ply-server).

use std::{
    io::{self, Write},
    net::{SocketAddr, TcpListener, ToSocketAddrs},
    path::PathBuf,
    sync::Arc,
};

use anyhow::Context;

use crate::{
    error::bad,
    othello::databases::{
        default_index_path, load_index, read_databases, read_names, replay_databases, report_loaded,
    },
};
use ply_othello::wthor::NameKind;

/// `ply serve` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on: HOST:PORT, the host a name (`localhost`) or an IP address; port 0
    /// picks a free port. The address taken is printed.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: String,
    /// Answer from this book file instead of the shipped one of its board size: ply's own
    /// or an Edax book (`.dat`).
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// WTHOR game files (`.wtb`) for the page's opening explorer and
    /// `/api/othello/explore`; their index is read from beside the first (built there when
    /// missing or stale).
    #[arg(long, value_name = "FILE.wtb", num_args = 1..)]
    games: Vec<PathBuf>,
    /// Where the databases' index is kept (default: beside the first, with `.plyidx` added).
    #[arg(long, value_name = "PATH", requires = "games")]
    games_index: Option<PathBuf>,
    /// The players' names (`WTHOR.JOU`) for the explorer's list of games.
    #[arg(long, value_name = "FILE.JOU", requires = "games")]
    players: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let book = match &a.book {
        Some(path) => Some(std::sync::Arc::new(crate::othello::common::read_book(
            path,
        )?)),
        None => None,
    };
    let addrs = resolve(&a.addr)?;
    let games = if a.games.is_empty() {
        None
    } else {
        let databases = read_databases(&a.games)?;
        let path = a
            .games_index
            .clone()
            .unwrap_or_else(|| default_index_path(&a.games));
        let (index, loaded) = load_index(&a.games, &databases, &path)?;
        report_loaded(&path, &index, &loaded);
        let games = replay_databases(&a.games, &databases)?;
        let players = a
            .players
            .as_deref()
            .map(|p| read_names(p, NameKind::Players))
            .transpose()?;
        Some(Arc::new(ply_server::explore::Databases {
            index,
            files: a.games.iter().map(|p| p.display().to_string()).collect(),
            games,
            players,
        }))
    };
    let listener = bind(&a.addr, &addrs)?;
    let bound = listener.local_addr().context("reading the address taken")?;
    let mut out = io::stdout();
    let _ = writeln!(out, "ply: serving on http://{bound}/");
    let _ = out.flush();
    let config = ply_server::Config {
        book,
        games,
        ..ply_server::Config::default()
    };
    ply_server::run(listener, config).with_context(|| format!("serving on {bound}"))
}

/// The addresses `HOST:PORT` names, or a usage error saying what is wrong with it.
fn resolve(addr: &str) -> anyhow::Result<Vec<SocketAddr>> {
    let form = "an address like 127.0.0.1:8080, localhost:8080 or [::1]:8080";
    let Some((_, port)) = addr.rsplit_once(':') else {
        return Err(bad(format!("--addr `{addr}`: not {form} (HOST:PORT)")));
    };
    if port.parse::<u16>().is_err() {
        if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(format!(
                "--addr `{addr}`: port {port} is out of range: a port is 0 to 65535 (0 picks a free one)"
            )));
        }
        return Err(bad(format!(
            "--addr `{addr}`: `{port}` is not a port: not {form} (HOST:PORT)"
        )));
    }
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|e| bad(format!("--addr `{addr}`: not {form}: {e}")))?
        .collect();
    if addrs.is_empty() {
        return Err(bad(format!("--addr `{addr}`: the host has no address")));
    }
    Ok(addrs)
}

/// Binds the first of `addrs` that can be bound (`localhost` may name both 127.0.0.1 and
/// ::1); the error of the first otherwise, with what to do about it.
fn bind(given: &str, addrs: &[SocketAddr]) -> anyhow::Result<TcpListener> {
    let mut first_error = None;
    for addr in addrs {
        match TcpListener::bind(addr) {
            Ok(l) => return Ok(l),
            Err(e) => {
                first_error.get_or_insert((*addr, e));
            }
        }
    }
    let (addr, e) = first_error.expect("resolve returns at least one address");
    let other = SocketAddr::new(addr.ip(), addr.port().wrapping_add(1).max(1));
    let any = SocketAddr::new(addr.ip(), 0);
    Err(match e.kind() {
        io::ErrorKind::AddrInUse => anyhow::anyhow!(
            "--addr {given}: port {} is in use (by another server, or another `ply serve`): \
             pick another with --addr {other}, or --addr {any} for any free port",
            addr.port()
        ),
        io::ErrorKind::AddrNotAvailable => bad(format!(
            "--addr {given}: {} is not an address of this machine: use 127.0.0.1 (this \
             machine only) or 0.0.0.0 (every interface)",
            addr.ip()
        )),
        io::ErrorKind::PermissionDenied => anyhow::anyhow!(
            "--addr {given}: not allowed to listen on port {} (ports below 1024 need \
             privileges): pick a port from 1024 up, such as --addr {}",
            addr.port(),
            SocketAddr::new(addr.ip(), 8080)
        ),
        _ => anyhow::Error::new(e).context(format!("listening on {addr}")),
    })
}
