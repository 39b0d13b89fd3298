//! ply's JSON API as an engine: a `ply serve` (of this build or another) asked for each
//! move through `GET /api/othello/analyze`, which scores every legal move. The API keeps no
//! game, so the client keeps it and sends the position.
//!
//! A fixed time is `budget_ms` (at most the API's ten seconds), a depth is `depth`, and a
//! clock's move gets what [`ply_othello::play::SideClock::budget`] plans from what is left,
//! as ply's own player plans it. The connection reads with a deadline ([`Limit::silence`]),
//! so a server that stops answering ends the game; an answer other than 200, or without a
//! legal best move, is an error naming the server and the request.

use std::{
    io::{Read, Write},
    net::{TcpStream, ToSocketAddrs},
    time::Duration,
};

use ply_othello::{
    analyze::Engine as Source, text, BoardSize, Color, GameRecord, Move, Position, Square,
};

use crate::engine::{illegal, Answer, Engine, EngineError, Fault, Info, Limit};

/// The longest answer read, in bytes.
const RESPONSE_BYTES: u64 = 1 << 20;

/// The API's largest budget, in milliseconds.
const MAX_BUDGET_MS: u128 = 10_000;

/// A `ply serve` at an address.
#[derive(Debug)]
pub struct ApiEngine {
    /// `ply's API at http://HOST:PORT`, as the errors name it.
    name: String,
    /// HOST:PORT.
    addr: String,
    game: GameRecord,
    slack: Duration,
}

impl ApiEngine {
    /// The server at `url` (`http://HOST:PORT`, a `/` after it allowed).
    ///
    /// # Errors
    /// When `url` is not of that form (nothing is connected to until the first move).
    pub fn new(url: &str) -> Result<ApiEngine, String> {
        let addr = url
            .strip_prefix("http://")
            .map(|a| a.trim_end_matches('/'))
            .filter(|a| !a.is_empty() && !a.contains('/'))
            .ok_or_else(|| format!("{url}: expected http://HOST:PORT"))?;
        Ok(ApiEngine {
            name: format!("ply's API at {url}"),
            addr: addr.to_owned(),
            game: GameRecord::new(Position::start(BoardSize::Eight)),
            slack: Duration::from_secs(5),
        })
    }

    /// Sets what is added to a limit's time before the server is taken for hung (5 s
    /// unless set).
    #[must_use]
    pub fn with_slack(mut self, slack: Duration) -> ApiEngine {
        self.slack = slack;
        self
    }

    fn fault(&self, asked: &str, fault: Fault, what: impl std::fmt::Display) -> EngineError {
        EngineError::new(&self.name, asked, fault, what.to_string())
    }

    /// The body of a 200 answer to `GET path`, read within `wait`.
    fn get(&self, path: &str, wait: Duration) -> Result<String, EngineError> {
        let asked = format!("GET {path}");
        let io = |fault: Fault, e: &dyn std::fmt::Display| self.fault(&asked, fault, e);
        let addr = self
            .addr
            .to_socket_addrs()
            .map_err(|e| io(Fault::Exited, &format_args!("cannot be reached: {e}")))?
            .next()
            .ok_or_else(|| io(Fault::Exited, &"has no address"))?;
        let mut stream = TcpStream::connect_timeout(&addr, wait)
            .map_err(|e| io(Fault::Exited, &format_args!("cannot be reached: {e}")))?;
        stream
            .set_read_timeout(Some(wait))
            .and_then(|()| stream.set_write_timeout(Some(wait)))
            .map_err(|e| io(Fault::Exited, &e))?;
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        stream
            .write_all(request.as_bytes())
            .map_err(|e| io(Fault::Exited, &format_args!("closed the connection: {e}")))?;
        let mut bytes = Vec::new();
        stream
            .take(RESPONSE_BYTES)
            .read_to_end(&mut bytes)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => io(
                    Fault::Silent,
                    &format_args!("gave no answer within {} s", wait.as_secs_f64()),
                ),
                _ => io(Fault::Exited, &format_args!("closed the connection: {e}")),
            })?;
        let response = String::from_utf8_lossy(&bytes);
        let (head, body) = response
            .split_once("\r\n\r\n")
            .ok_or_else(|| io(Fault::Protocol, &"answered without a body"))?;
        let status = head.lines().next().unwrap_or("");
        if !status.starts_with("HTTP/1.1 200") {
            let fault = if status.starts_with("HTTP/1.1 4") || status.starts_with("HTTP/1.1 5") {
                Fault::Refused
            } else {
                Fault::Protocol
            };
            return Err(io(
                fault,
                &format_args!("answered {status}: {}", body.trim()),
            ));
        }
        Ok(body.to_owned())
    }
}

impl Engine for ApiEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.game = game.clone();
        Ok(())
    }

    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        let played = match m {
            Move::Play(sq) => self.game.play_with_implicit_pass(sq).map(drop),
            Move::Pass => self.game.play(m),
        };
        played.map_err(|e| illegal(&self.name, &format!("play {m}"), &self.game, m, e))
    }

    fn go(&mut self, limit: &Limit) -> Result<Answer, EngineError> {
        let pos = self.game.position();
        if !pos.can_move() {
            if !pos.is_game_over() {
                self.play(Move::Pass)?;
            }
            return Ok(Answer {
                best: Move::Pass,
                info: None,
            });
        }
        let what = match limit {
            Limit::Time(d) => format!("budget_ms={}", d.as_millis().clamp(1, MAX_BUDGET_MS)),
            Limit::Depth(d) => format!("depth={d}"),
            Limit::Clock(c) => {
                let planned = c
                    .budget(pos.empties().count())
                    .unwrap_or(Duration::from_secs(1));
                format!("budget_ms={}", planned.as_millis().clamp(1, MAX_BUDGET_MS))
            }
        };
        let turn = if pos.turn() == Color::Black { 'X' } else { 'O' };
        let path = format!(
            "/api/othello/analyze?size={}&position={}&turn={turn}&{what}",
            pos.size().n(),
            text::cells(&pos)
        );
        let body = self.get(&path, limit.silence(self.slack))?;
        let asked = format!("GET {path}");
        let json: serde_json::Value = serde_json::from_str(&body).map_err(|e| {
            self.fault(
                &asked,
                Fault::Protocol,
                format_args!("answered JSON that does not read: {e}"),
            )
        })?;
        let best = json["best"]
            .as_str()
            .and_then(|b| Square::parse(b).ok())
            .ok_or_else(|| {
                self.fault(
                    &asked,
                    Fault::Protocol,
                    format_args!("named no best move in {}", body.trim()),
                )
            })?;
        let m = Move::Play(best);
        if !pos.is_legal(best) {
            return Err(illegal(
                &self.name,
                &asked,
                &self.game,
                m,
                "the rules refuse it",
            ));
        }
        let line = json["line"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|x| x.as_str())
                    .map_while(|x| {
                        if x == "pass" {
                            Some(Move::Pass)
                        } else {
                            Square::parse(x).ok().map(Move::Play)
                        }
                    })
                    .collect()
            })
            .unwrap_or_else(|| vec![m]);
        let info = json["score"].as_f64().map(|score| Info {
            score,
            proven: json["proven"].as_bool().unwrap_or(false),
            depth: json["depth"].as_u64().map_or(0, |d| d as u32),
            book: json["engine"].as_str() == Some("book"),
            line,
            nodes: json["nodes"].as_u64().unwrap_or(0),
            ponder_hit: false,
            source: json["engine"].as_str().and_then(source),
            budget: None,
        });
        self.play(m)?;
        Ok(Answer { best: m, info })
    }

    fn quit(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
}

/// The search an analysis's `engine` field names.
fn source(name: &str) -> Option<Source> {
    [
        Source::Solver,
        Source::Midgame,
        Source::Mixed,
        Source::Book,
        Source::Selective,
    ]
    .into_iter()
    .find(|s| s.name() == name)
}
