//! `ply serve`: the web page and the JSON API (see ply-server).

use std::{io::Write, net::SocketAddr};

use anyhow::Context;

use crate::error::bad;

/// `ply serve` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let addr: SocketAddr = a.addr.parse().map_err(|_| {
        bad(format!(
            "--addr: `{}` is not an address like 127.0.0.1:8080",
            a.addr
        ))
    })?;
    ply_server::run(addr, ply_server::Config::default(), |bound| {
        let mut out = std::io::stdout();
        let _ = writeln!(out, "ply: serving on http://{bound}/");
        let _ = out.flush();
    })
    .with_context(|| format!("serving on {addr}"))
}
