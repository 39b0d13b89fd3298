//! Engines and matches in python-chess's shape, over `ply-engines`: a [`SimpleEngine`] is ply
//! itself (in process), a GTP or NBoard program started by command line, or a `ply serve`;
//! `engine.play(board, Limit(...))` and `engine.analyse(board, Limit(...))` whatever is
//! behind it; `play_match` plays two engines from openings, both colours, on the one match
//! runner, and returns the games as records. An engine's failure (it exits, hangs past its
//! bound, plays an illegal move) is an `EngineError` naming the engine and the command.
//!
//! Every call sends the engine the board's whole game (`new_game`), so a board may be
//! edited between calls; a GTP engine replays the moves from the start, and refuses a board
//! that did not start at the start position.

use std::{sync::Mutex, time::Duration};

use ply_engines::{
    matches::{play_match as run_match, Control, Game},
    ApiEngine, Engine, GtpEngine, Limit as RLimit, NboardEngine, PlyEngine,
};
use ply_othello::{
    input,
    play::{SideClock, TimeControl},
    spine::clock::SYSTEM,
    BoardSize, Color, GameRecord, Move,
};
use pyo3::{
    create_exception,
    exceptions::PyRuntimeError,
    prelude::*,
    types::{PyDict, PyList, PyString},
};

use super::{Board, ObfNotes};
use crate::{
    args::{type_error, value_error},
    board::History,
};

create_exception!(
    ply.othello,
    EngineError,
    PyRuntimeError,
    "An engine failed: it could not start, exited, stayed silent past its bound, named an \
     illegal move or answered outside its protocol. The message names the engine and the \
     command."
);

fn engine_error(e: &ply_engines::EngineError) -> PyErr {
    EngineError::new_err(e.to_string())
}

/// How long a move may think, as python-chess's `Limit`: a fixed `time` in seconds, a
/// `depth` in plies, or a game clock (`white_clock`/`black_clock`: seconds left, with
/// `white_inc`/`black_inc` added after each move).
///
/// >>> from ply.othello import Limit
/// >>> Limit(time=0.1)
/// Limit(time=0.1)
/// >>> Limit(black_clock=60, white_clock=60, black_inc=1, white_inc=1)
/// Limit(white_clock=60.0, black_clock=60.0, white_inc=1.0, black_inc=1.0)
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Limit {
    time: Option<f64>,
    depth: Option<u32>,
    white_clock: Option<f64>,
    black_clock: Option<f64>,
    white_inc: Option<f64>,
    black_inc: Option<f64>,
}

/// Seconds as a `Duration`: `ValueError` naming `name` unless finite and from 0 to a day.
fn seconds(v: f64, name: &str, least: f64) -> PyResult<Duration> {
    if v.is_finite() && v >= least && v <= 86_400.0 && (least == 0.0 || v > 0.0) {
        Ok(Duration::from_secs_f64(v))
    } else {
        let from = if least == 0.0 { "0" } else { "more than 0" };
        Err(value_error(format!(
            "{name}={v}: expected {from} to 86400 seconds"
        )))
    }
}

impl Limit {
    /// The side `mover`'s limit for one move.
    fn for_move(&self, mover: Color) -> PyResult<RLimit> {
        if let Some(t) = self.time {
            return Ok(RLimit::Time(seconds(t, "time", 1e-3)?));
        }
        if let Some(d) = self.depth {
            return Ok(RLimit::Depth(d));
        }
        let (clock, inc, name) = match mover {
            Color::Black => (self.black_clock, self.black_inc, "black_clock"),
            Color::White => (self.white_clock, self.white_inc, "white_clock"),
        };
        let clock =
            clock.ok_or_else(|| value_error(format!("Limit: {name} is needed for this move")))?;
        Ok(RLimit::Clock(SideClock::new(control(
            seconds(clock, name, 0.0)?,
            seconds(inc.unwrap_or(0.0), "inc", 0.0)?,
        ))))
    }

    /// How a side is timed in a match under this limit: the same clock for both colours.
    fn for_match(&self) -> PyResult<Control> {
        if self.time.is_some() || self.depth.is_some() {
            return self.for_move(Color::Black).map(Control::Limit);
        }
        if self.white_clock != self.black_clock || self.white_inc != self.black_inc {
            return Err(value_error(
                "Limit: a match gives both colours the same clock (white_clock == black_clock, \
                 white_inc == black_inc)",
            ));
        }
        match self.for_move(Color::Black)? {
            RLimit::Clock(c) => Ok(Control::Clock(c.control())),
            other => Ok(Control::Limit(other)),
        }
    }
}

/// Sudden death, or Fischer with an increment.
fn control(main: Duration, increment: Duration) -> TimeControl {
    if increment.is_zero() {
        TimeControl::SuddenDeath { main }
    } else {
        TimeControl::Fischer { main, increment }
    }
}

#[pymethods]
impl Limit {
    #[new]
    #[pyo3(signature = (*, time=None, depth=None, white_clock=None, black_clock=None, white_inc=None, black_inc=None))]
    fn new(
        time: Option<f64>,
        depth: Option<i64>,
        white_clock: Option<f64>,
        black_clock: Option<f64>,
        white_inc: Option<f64>,
        black_inc: Option<f64>,
    ) -> PyResult<Limit> {
        let clocks = white_clock.is_some() || black_clock.is_some();
        let kinds =
            usize::from(time.is_some()) + usize::from(depth.is_some()) + usize::from(clocks);
        if kinds != 1 {
            return Err(value_error(
                "Limit: expected one of time=, depth= or the clocks (white_clock=, black_clock=)",
            ));
        }
        if (white_inc.is_some() || black_inc.is_some()) && !clocks {
            return Err(value_error("Limit: an increment needs a clock"));
        }
        let depth = depth
            .map(|d| {
                u32::try_from(d)
                    .ok()
                    .filter(|d| (1..=60).contains(d))
                    .ok_or_else(|| value_error(format!("depth={d}: expected 1 to 60")))
            })
            .transpose()?;
        let limit = Limit {
            time,
            depth,
            white_clock,
            black_clock,
            white_inc,
            black_inc,
        };
        // Every value checked now, not at the first move.
        for c in [Color::Black, Color::White] {
            if limit.time.is_some() || limit.depth.is_some() || limit.clock_of(c).is_some() {
                limit.for_move(c)?;
            }
        }
        Ok(limit)
    }

    fn __repr__(&self) -> String {
        let mut parts = Vec::new();
        let mut put = |name: &str, v: Option<String>| {
            if let Some(v) = v {
                parts.push(format!("{name}={v}"));
            }
        };
        let f = |v: Option<f64>| v.map(|x| format!("{x:?}"));
        put("time", f(self.time));
        put("depth", self.depth.map(|d| d.to_string()));
        put("white_clock", f(self.white_clock));
        put("black_clock", f(self.black_clock));
        put("white_inc", f(self.white_inc));
        put("black_inc", f(self.black_inc));
        format!("Limit({})", parts.join(", "))
    }
}

impl Limit {
    fn clock_of(&self, c: Color) -> Option<f64> {
        match c {
            Color::Black => self.black_clock,
            Color::White => self.white_clock,
        }
    }
}

/// The game of a board argument: a `Board` (its moves from its first position), or text
/// read as the command line reads a game (a transcript, a position, a GGF game).
fn game_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<GameRecord> {
    if let Ok(b) = obj.downcast::<Board>() {
        let b = b.borrow();
        let mut game = GameRecord::new(b.h.root());
        for m in b.h.moves() {
            game.play(m).map_err(value_error)?;
        }
        return Ok(game);
    }
    if !obj.is_instance_of::<PyString>() {
        return Err(type_error(
            name,
            "a Board or a string (a transcript like \"f5d6\", a position)",
            obj,
        ));
    }
    let text: String = obj.extract()?;
    input::parse_position_or_transcript(&text, BoardSize::Eight)
        .map_err(|e| value_error(format!("{name}: {e}")))
}

/// A `Board` holding `game`.
fn board_of(py: Python<'_>, game: &GameRecord) -> PyResult<Py<Board>> {
    Py::new(
        py,
        Board {
            h: History::of_game(game.plies(), game.position()),
            notes: ObfNotes::default(),
        },
    )
}

fn move_name(m: Move) -> String {
    m.to_string()
}

/// What an engine said about a position, as python-chess's `InfoDict`: `pv` always (the
/// move at least), and `score` (discs for the side to move), `proven`, `depth`, `nodes`,
/// `book` where the engine says them.
fn info_dict<'py>(py: Python<'py>, answer: &ply_engines::Answer) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match &answer.info {
        Some(i) => {
            let pv: Vec<String> = if i.line.is_empty() {
                vec![move_name(answer.best)]
            } else {
                i.line.iter().copied().map(move_name).collect()
            };
            d.set_item("pv", pv)?;
            d.set_item("score", i.score)?;
            d.set_item("proven", i.proven)?;
            d.set_item("depth", i.depth)?;
            d.set_item("nodes", i.nodes)?;
            d.set_item("book", i.book)?;
            d.set_item("ponder_hit", i.ponder_hit)?;
            // Where the engine says them (ply itself does): which search answered, and the
            // seconds it gave itself for the move.
            d.set_item("source", i.source.map(|s| s.name()))?;
            d.set_item("budget", i.budget.map(|b| b.as_secs_f64()))?;
        }
        None => d.set_item("pv", vec![move_name(answer.best)])?,
    }
    Ok(d)
}

/// What `SimpleEngine.play` returns, as python-chess's `PlayResult`: the `move` (a square
/// name or `"pass"`), the reply the engine expects (`ponder`, or `None`) and its `info`.
#[pyclass(module = "ply.othello", frozen, get_all)]
#[derive(Debug)]
pub struct PlayResult {
    #[pyo3(name = "move")]
    best: String,
    ponder: Option<String>,
    info: Py<PyDict>,
}

#[pymethods]
impl PlayResult {
    fn __repr__(&self) -> String {
        format!(
            "PlayResult(move='{}', ponder={})",
            self.best,
            crate::repr_opt(self.ponder.as_deref())
        )
    }
}

/// An engine behind python-chess's calls: `SimpleEngine.ply()` (ply in this process),
/// `SimpleEngine.popen_gtp(command)`, `SimpleEngine.popen_nboard(command)` (programs started
/// by a shell command line), `SimpleEngine.api(url)` (a `ply serve`). Use it in a `with`
/// block, or call `quit()`.
///
/// >>> from ply.othello import Board, Limit, SimpleEngine
/// >>> with SimpleEngine.ply() as engine:
/// ...     result = engine.play(Board(size=4), Limit(depth=2))
/// ...     info = engine.analyse(Board(size=4), Limit(depth=2))
/// >>> result.move in Board(size=4).legal_moves, info["proven"], info["score"]
/// (True, True, -10.0)
#[pyclass(module = "ply.othello", frozen)]
pub struct SimpleEngine {
    name: String,
    engine: Mutex<Option<Box<dyn Engine>>>,
}

impl std::fmt::Debug for SimpleEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimpleEngine")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl SimpleEngine {
    /// The engine, locked for one call.
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Option<Box<dyn Engine>>>> {
        self.engine
            .lock()
            .map_err(|_| PyRuntimeError::new_err("ply: the engine failed (a panic)"))
    }

    fn of(engine: Box<dyn Engine>) -> SimpleEngine {
        SimpleEngine {
            name: engine.name().to_owned(),
            engine: Mutex::new(Some(engine)),
        }
    }

    /// Runs `work` on the engine with the GIL released.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut dyn Engine) -> Result<T, ply_engines::EngineError> + Send,
    ) -> PyResult<T> {
        py.allow_threads(|| {
            let mut guard = self.lock()?;
            let engine = guard
                .as_mut()
                .ok_or_else(|| EngineError::new_err(format!("{}: quit already", self.name)))?;
            work(engine.as_mut()).map_err(|e| engine_error(&e))
        })
    }

    /// The engine's answer in `board`'s position under `limit`.
    fn think(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        limit: &Limit,
    ) -> PyResult<ply_engines::Answer> {
        let game = game_arg(board, "board")?;
        let pos = game.position();
        if pos.is_game_over() {
            return Err(value_error("board: the game is over"));
        }
        let limit = limit.for_move(pos.turn())?;
        self.with(py, move |e| {
            e.new_game(&game)?;
            e.go(&limit)
        })
    }
}

#[pymethods]
impl SimpleEngine {
    /// ply itself, in this process: `threads` for the search, `hash_mb` for its tables
    /// (None: the analysis's own), `book` to answer from the opening book, `ponder` to think
    /// on the opponent's time between calls.
    #[staticmethod]
    #[pyo3(signature = (*, threads=1, hash_mb=None, book=true, ponder=false))]
    fn ply(threads: i64, hash_mb: Option<i64>, book: bool, ponder: bool) -> PyResult<SimpleEngine> {
        let threads = usize::try_from(threads)
            .ok()
            .filter(|t| (1..=256).contains(t))
            .ok_or_else(|| value_error(format!("threads={threads}: expected 1 to 256")))?;
        let hash_mb = hash_mb
            .map(|m| {
                usize::try_from(m)
                    .ok()
                    .filter(|m| (1..=65_536).contains(m))
                    .ok_or_else(|| value_error(format!("hash_mb={m}: expected 1 to 65536")))
            })
            .transpose()?;
        let settings = ply_othello::play::Settings {
            threads,
            hash_mb,
            book,
            ponder,
            ..ply_othello::play::Settings::default()
        };
        Ok(SimpleEngine::of(Box::new(PlyEngine::new("ply", settings))))
    }

    /// A GTP engine started by the shell command line `command`.
    ///
    /// Raises `EngineError` when it cannot be started or does not answer GTP.
    #[staticmethod]
    fn popen_gtp(py: Python<'_>, command: &str) -> PyResult<SimpleEngine> {
        let command = command.to_owned();
        let e = py
            .allow_threads(move || GtpEngine::start(&command))
            .map_err(|e| engine_error(&e))?;
        Ok(SimpleEngine::of(Box::new(e)))
    }

    /// An NBoard engine started by the shell command line `command`.
    ///
    /// Raises `EngineError` when it cannot be started or does not answer `ping`.
    #[staticmethod]
    fn popen_nboard(py: Python<'_>, command: &str) -> PyResult<SimpleEngine> {
        let command = command.to_owned();
        let e = py
            .allow_threads(move || NboardEngine::start(&command))
            .map_err(|e| engine_error(&e))?;
        Ok(SimpleEngine::of(Box::new(e)))
    }

    /// A `ply serve` at `url` (`http://HOST:PORT`), through its JSON API.
    #[staticmethod]
    fn api(url: &str) -> PyResult<SimpleEngine> {
        let e = ApiEngine::new(url).map_err(|e| value_error(format!("url={e}")))?;
        Ok(SimpleEngine::of(Box::new(e)))
    }

    /// The engine's name (`"ply"`, `"GTP engine `...`"`).
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The move the engine plays in `board` (a `Board` or a transcript) under `limit`.
    fn play(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        limit: &Limit,
    ) -> PyResult<PlayResult> {
        let answer = self.think(py, board, limit)?;
        let ponder = answer
            .info
            .as_ref()
            .and_then(|i| i.line.get(1))
            .copied()
            .map(move_name);
        Ok(PlayResult {
            best: move_name(answer.best),
            ponder,
            info: info_dict(py, &answer)?.unbind(),
        })
    }

    /// What the engine says of `board`'s position under `limit`, as a dict: `pv` (the line
    /// it expects, its move first), and where the engine says them `score` (discs for the
    /// side to move), `proven`, `depth`, `nodes`, `book`.
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyAny>,
        limit: &Limit,
    ) -> PyResult<Bound<'py, PyDict>> {
        let answer = self.think(py, board, limit)?;
        info_dict(py, &answer)
    }

    /// Ends the engine (a program is asked to quit, then killed if it stays).
    fn quit(&self, py: Python<'_>) -> PyResult<()> {
        let taken = self.lock()?.take();
        match taken {
            Some(mut e) => py
                .allow_threads(move || e.quit())
                .map_err(|e| engine_error(&e)),
            None => Ok(()),
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.quit(py)?;
        Ok(false)
    }

    fn __repr__(&self) -> String {
        format!("<SimpleEngine {}>", self.name)
    }
}

/// A game of a match, as a record: the players (`black`, `white`), the `opening` and the
/// whole game (`transcript`, `moves`, `ggf`, `board()`), black's final disc difference
/// (`black_score`), the side that lost on time (`flagged`, `"X"`/`"O"`, else `None`), and
/// each side's thinking time in seconds (`times`: black, white).
#[pyclass(module = "ply.othello", frozen)]
#[derive(Debug)]
pub struct MatchGame {
    #[pyo3(get)]
    black: String,
    #[pyo3(get)]
    white: String,
    #[pyo3(get)]
    opening: String,
    #[pyo3(get)]
    transcript: String,
    #[pyo3(get)]
    moves: Vec<String>,
    #[pyo3(get)]
    ggf: String,
    #[pyo3(get)]
    black_score: i32,
    #[pyo3(get)]
    flagged: Option<String>,
    #[pyo3(get)]
    times: (f64, f64),
    record: GameRecord,
}

impl MatchGame {
    fn of(g: &Game) -> MatchGame {
        let [b, w] = g.times();
        MatchGame {
            black: g.black.clone(),
            white: g.white.clone(),
            opening: ply_othello::transcript::format(&g.opening),
            transcript: g.transcript(),
            moves: g.record.moves().iter().copied().map(move_name).collect(),
            ggf: g.ggf().to_string(),
            black_score: g.black_score,
            flagged: g.flagged.map(|c| super::color_name(c).to_owned()),
            times: (b.as_secs_f64(), w.as_secs_f64()),
            record: g.record.clone(),
        }
    }
}

#[pymethods]
impl MatchGame {
    /// The final position as a `Board`, its moves on the move stack.
    fn board(&self, py: Python<'_>) -> PyResult<Py<Board>> {
        board_of(py, &self.record)
    }

    /// The points of `side` (`"X"` or `"O"`): 1 for a win, 0.5 for a draw, 0 for a loss.
    fn points(&self, side: &str) -> PyResult<f64> {
        let black = match self.flagged.as_deref() {
            Some("X") => -1,
            Some(_) => 1,
            None => self.black_score.signum(),
        };
        let mine = match side {
            "X" => black,
            "O" => -black,
            _ => {
                return Err(value_error(format!(
                    "side={side:?}: expected \"X\" or \"O\""
                )))
            }
        };
        Ok(f64::from(mine + 1) / 2.0)
    }

    fn __repr__(&self) -> String {
        format!(
            "<MatchGame {} vs {}: {:+}{}>",
            self.black,
            self.white,
            self.black_score,
            self.flagged
                .as_deref()
                .map_or(String::new(), |f| format!(", {f} lost on time"))
        )
    }
}

/// Plays every opening twice, `first` as black then as white, both under `limit` (or
/// `limits=(first's, second's)`), on the one match runner; the games in that order, as
/// `MatchGame` records. `openings` are `Board`s or transcripts.
///
/// Raises `EngineError` naming the engine, the command and the game when an engine exits,
/// stays silent past its bound or plays an illegal move.
#[pyfunction]
#[pyo3(signature = (first, second, openings, limit=None, *, limits=None))]
pub fn play_match(
    py: Python<'_>,
    first: &Bound<'_, SimpleEngine>,
    second: &Bound<'_, SimpleEngine>,
    openings: &Bound<'_, PyAny>,
    limit: Option<Limit>,
    limits: Option<(Limit, Limit)>,
) -> PyResult<Vec<MatchGame>> {
    if first.is(second) {
        return Err(value_error(
            "play_match: two engines are needed, not one twice",
        ));
    }
    let controls = match (limit, limits) {
        (Some(l), None) => [l.for_match()?, l.for_match()?],
        (None, Some((a, b))) => [a.for_match()?, b.for_match()?],
        _ => {
            return Err(value_error(
                "play_match: expected limit= or limits=(first, second)",
            ))
        }
    };
    let list = openings
        .downcast::<PyList>()
        .map_err(|_| type_error("openings", "a list of Boards or transcripts", openings))?;
    let starts: Vec<GameRecord> = list
        .iter()
        .enumerate()
        .map(|(i, o)| game_arg(&o, &format!("openings[{i}]")))
        .collect::<PyResult<_>>()?;
    let (a, b) = (first.get(), second.get());
    let games = py.allow_threads(|| {
        let (mut ga, mut gb) = (a.lock()?, b.lock()?);
        let (Some(ea), Some(eb)) = (ga.as_mut(), gb.as_mut()) else {
            return Err(EngineError::new_err("play_match: an engine has quit"));
        };
        run_match(
            ea.as_mut(),
            eb.as_mut(),
            &starts,
            controls,
            &SYSTEM,
            &mut |_, _, _| {},
        )
        .map_err(|e| EngineError::new_err(e.to_string()))
    })?;
    Ok(games.iter().map(MatchGame::of).collect())
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Limit>()?;
    m.add_class::<PlayResult>()?;
    m.add_class::<SimpleEngine>()?;
    m.add_class::<MatchGame>()?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add_function(wrap_pyfunction!(play_match, m)?)
}
