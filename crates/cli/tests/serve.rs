//! `ply serve` as a user starts it: the address it takes, and what it says when it cannot.
//! Only 127.0.0.1 (and localhost); every wait is bounded.

mod common;

use std::{
    io::{Read, Write},
    net::TcpStream,
    time::Duration,
};

use common::{ply, stderr, Serving};

/// Starts `ply serve --addr ADDR` and returns it with the first line it prints.
fn serve(addr: &str) -> (Serving, String) {
    common::serve(addr, Duration::from_secs(10))
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
