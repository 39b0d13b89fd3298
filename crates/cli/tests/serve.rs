//! `ply serve` as a user starts it: the address it takes, and what it says when it cannot.
//! Only 127.0.0.1 (and localhost); every wait is bounded.

mod common;

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use common::{ply, stderr};

/// A running `ply serve`, killed when dropped.
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `ply serve --addr ADDR` and returns it with the first line it prints.
fn serve(addr: &str) -> (Serving, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["serve", "--addr", addr])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run ply");
    let stdout = child.stdout.take().expect("stdout is piped");
    let served = Serving(child);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the address within seconds");
    (served, line)
}

#[test]
fn localhost_port_0_takes_a_free_port_and_prints_it() {
    let (_server, line) = serve("localhost:0");
    let url = line
        .trim()
        .strip_prefix("ply: serving on http://")
        .and_then(|u| u.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{line:?}"));
    let port: u16 = url.rsplit_once(':').unwrap().1.parse().expect("a port");
    assert_ne!(port, 0);
    let mut s = TcpStream::connect(url).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
}

#[test]
fn a_port_in_use_is_named_with_another_to_try() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().unwrap().to_string();
    let o = ply(&["serve", "--addr", &addr]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = stderr(&o);
    assert!(err.contains("is in use"), "{err}");
    assert!(err.contains("--addr 127.0.0.1:0"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn a_bad_address_is_a_usage_error() {
    for (addr, needle) in [
        ("localhost", "HOST:PORT"),
        (
            "127.0.0.1:99999",
            "port 99999 is out of range: a port is 0 to 65535",
        ),
        ("127.0.0.1:http", "`http` is not a port"),
        ("no such host:80", "--addr `no such host:80`"),
    ] {
        let o = ply(&["serve", "--addr", addr]);
        assert_eq!(o.status.code(), Some(2), "{addr}: {o:?}");
        assert!(stderr(&o).contains(needle), "{addr}: {}", stderr(&o));
    }
}
