//! The accept loop: HTTP/1 connections served by hyper, with two limits that keep a server's
//! file descriptors from being held by clients that send nothing or send slowly.
//!
//! - **A cap on open connections** ([`Config::max_connections`]). A connection past the cap
//!   is answered at once with a 503 and `Retry-After`, and closed: a flood of connections
//!   costs one accepted socket at a time, never a descriptor each held open.
//! - **A deadline for a request's head** ([`Config::header_read_timeout`]). A connection
//!   that has not sent a whole request line and headers within it, whether it sent half of
//!   them or sits idle between keep-alive requests, is closed.
//!
//! Handlers have their own bound ([`Config::request_timeout`]). On shutdown, the loop stops
//! accepting, lets each connection finish the request it is serving, and waits for them for
//! at most [`Config::request_timeout`].

use std::{future::Future, io, sync::Arc, time::Duration};

use hyper::server::conn::http1;
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    service::TowerToHyperService,
};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::{watch, Semaphore},
};

use crate::{router, Config};

/// Serves the application on `listener` until `shutdown` completes.
///
/// # Errors
/// When the listener's address cannot be read; failures of single connections are not
/// errors of the server.
///
/// ```no_run
/// # async fn f() -> std::io::Result<()> {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// ply_server::serve(listener, ply_server::Config::default(), std::future::pending()).await
/// # }
/// ```
pub async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    listener.local_addr()?;
    let app = router(config.clone());
    let max = config.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let (closing, closed) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    let retry_after_s = config.retry_after.as_millis().div_ceil(1000).max(1) as u64;
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            refuse(&stream, max, retry_after_s);
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let mut closed = closed.clone();
        let header_read_timeout = config.header_read_timeout;
        tokio::spawn(async move {
            let _slot = slot;
            let _ = stream.set_nodelay(true);
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(TokioIo::new(stream), service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = closed.changed() => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    drop(listener);
    let _ = closing.send(());
    // Every connection gives its slot back when it ends.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(config.request_timeout, slots.acquire_many(all)).await;
    Ok(())
}

/// Answers a connection past the cap with a 503 and closes it, without waiting for anything.
/// What the client has sent so far is read first (a socket closed with unread data is reset,
/// which can lose the answer on the client's side). The socket is fresh, so the short answer
/// fits its send buffer; if it cannot be written whole, the connection is closed without it.
fn refuse(stream: &TcpStream, max: usize, retry_after_s: u64) {
    let mut sink = [0; 4096];
    for _ in 0..16 {
        if !matches!(stream.try_read(&mut sink), Ok(n) if n > 0) {
            break;
        }
    }
    let body = serde_json::json!({
        "error": format!(
            "the server is busy: {max} connections are open; try again in {retry_after_s} s"
        ),
        "retry_after_s": retry_after_s,
    })
    .to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: {retry_after_s}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// After a failed accept: a connection that went away before it was taken is nothing; out
/// of descriptors or memory, wait a moment for some to come back rather than spin.
async fn accept_failed(e: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset, Interrupted};
    if !matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset | Interrupted
    ) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
