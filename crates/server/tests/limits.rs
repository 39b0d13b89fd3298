//! The server on a real socket (127.0.0.1 only): clients that send half a request or nothing
//! are closed after the header-read timeout, connections past the cap are answered with a
//! 503 at once, and shutdown ends the server. Every wait is bounded.

use std::{
    io::{ErrorKind, Read, Write},
    net::{SocketAddr, TcpStream},
    time::{Duration, Instant},
};

use ply_server::{serve, Config};

/// A server on a port of its own, on a runtime of its own; stopped when dropped.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    fn start(config: Config) -> Server {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().unwrap();
        listener.set_nonblocking(true).unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()?;
            runtime.block_on(async {
                let listener = tokio::net::TcpListener::from_std(listener)?;
                serve(listener, config, async {
                    let _ = stopped.await;
                })
                .await
            })
        });
        Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s
    }

    /// Stops the server and waits for it, at most `bound`.
    fn stop_within(mut self, bound: Duration) {
        let _ = self.stop.take().unwrap().send(());
        let thread = self.thread.take().unwrap();
        let asked = Instant::now();
        while !thread.is_finished() {
            assert!(asked.elapsed() < bound, "the server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
        thread.join().unwrap().expect("the server ends cleanly");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

const HEALTH: &[u8] = b"GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n";

/// Reads until the server closes the connection (or 5 s pass, which fails the test): what
/// it sent, and when it closed.
fn read_until_closed(s: &mut TcpStream) -> (String, Instant) {
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("the server kept the connection open: {e}"),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), Instant::now())
}

/// Sends a whole request on a kept-alive connection and reads its whole answer.
fn ask(s: &mut TcpStream) -> String {
    s.write_all(HEALTH).unwrap();
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    while !String::from_utf8_lossy(&got).contains("\"status\":\"ok\"") {
        let n = s.read(&mut buf).expect("an answer");
        assert!(n > 0, "closed before the answer");
        got.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// On tokio's paused clock (the test's clock: it moves only when every task waits, to the
/// next timer), a connection that sent half a request, a few bytes or nothing, and a
/// kept-alive one gone idle after a request, are each closed when the header timeout
/// passes: not before it, and at it, whatever the machine's load.
#[tokio::test(start_paused = true)]
async fn half_sent_and_idle_connections_are_closed_after_the_header_timeout() {
    use tokio::{
        io::{AsyncReadExt, AsyncWriteExt},
        net::TcpStream,
        time::Instant,
    };
    let timeout = Duration::from_millis(400);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = Config {
        header_read_timeout: timeout,
        ..Config::default()
    };
    let server = tokio::spawn(serve(listener, config, async {
        let _ = stopped.await;
    }));
    let opened = Instant::now();
    let mut clients = Vec::new();
    for i in 0..12 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        match i % 3 {
            // Half a request: the request line and a header, never the blank line.
            0 => s
                .write_all(b"GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n")
                .await
                .unwrap(),
            // A few bytes of the request line.
            1 => s.write_all(b"GET /api/hea").await.unwrap(),
            // Nothing at all.
            _ => {}
        }
        clients.push(s);
    }
    // A kept-alive connection that goes idle after one request.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(HEALTH).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    while !String::from_utf8_lossy(&got).contains("\"status\":\"ok\"") {
        let n = idle.read(&mut buf).await.unwrap();
        assert!(n > 0, "closed before the answer");
        got.extend_from_slice(&buf[..n]);
    }
    assert!(got.starts_with(b"HTTP/1.1 200"));
    clients.push(idle);
    for s in &mut clients {
        // Until the server closes it (a reset counts).
        while matches!(s.read(&mut buf).await, Ok(n) if n > 0) {}
        let held = opened.elapsed();
        assert!(held >= timeout, "closed too early: {held:?}");
        assert!(held < timeout * 2, "held {held:?}");
    }
    // The server still answers a whole request.
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(HEALTH).await.unwrap();
    let n = s.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    let _ = stop.send(());
    server.await.unwrap().expect("the server ends cleanly");
}

#[test]
fn connections_past_the_cap_get_a_503_at_once_and_are_closed() {
    let server = Server::start(Config {
        max_connections: 4,
        header_read_timeout: Duration::from_secs(30),
        ..Config::default()
    });
    // Four kept-alive connections take every place.
    let mut held: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = server.connect();
            assert!(ask(&mut s).starts_with("HTTP/1.1 200"));
            s
        })
        .collect();
    for _ in 0..3 {
        // The answer comes at once, before the client has sent anything.
        let asked = Instant::now();
        let mut s = server.connect();
        let (answer, closed) = read_until_closed(&mut s);
        assert!(closed - asked < Duration::from_secs(1), "not at once");
        assert!(
            answer.starts_with("HTTP/1.1 503"),
            "past the cap: {answer:?}"
        );
        assert!(answer.contains("retry-after: 1\r\n"), "{answer:?}");
        assert!(answer.contains("\"retry_after_s\":1"), "{answer:?}");
        assert!(answer.contains("4 connections are open"), "{answer:?}");
    }
    // A place that is given back is taken again.
    drop(held.pop());
    let started = Instant::now();
    loop {
        let mut s = server.connect();
        let _ = s.write_all(HEALTH);
        let (answer, _) = read_until_closed_or_answered(&mut s);
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the freed place was not taken: {answer:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The held connections still work.
    for s in &mut held {
        assert!(ask(s).starts_with("HTTP/1.1 200"));
    }
    server.stop_within(Duration::from_secs(5));
}

/// Reads until a whole health answer came or the server closed the connection.
fn read_until_closed_or_answered(s: &mut TcpStream) -> (String, Instant) {
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    loop {
        if String::from_utf8_lossy(&got).contains("\"status\":\"ok\"") {
            break;
        }
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("no answer: {e}"),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), Instant::now())
}

#[test]
fn shutdown_lets_the_request_in_progress_finish() {
    let server = Server::start(Config::default());
    let mut s = server.connect();
    // An 8x8 position out of the opening book (after f5 f4): a search of the whole budget.
    s.write_all(
        b"GET /api/othello/analyze?size=8&turn=X&budget_ms=800&position=\
          ...........................OOO.....XXX.......................... \
          HTTP/1.1\r\nhost: x\r\n\r\n",
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let addr = server.addr;
    let reader = std::thread::spawn(move || read_until_closed(&mut s).0);
    server.stop_within(Duration::from_secs(5));
    let answer = reader.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    // Nothing listens any more.
    assert!(TcpStream::connect(addr).is_err());
}
