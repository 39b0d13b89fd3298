//! `ply.othello.games`: the games of a WTHOR database (`WTH_2001.wtb`), read and replayed by
//! the library's one WTHOR reader ([`ply_othello::wthor`]), as records with the fields of
//! `ply othello games --json`.

use std::path::{Path, PathBuf};

use ply_othello::{
    transcript,
    wthor::{self, NameKind, Names},
    GameRecord,
};
use pyo3::prelude::*;

use super::Board;
use crate::{
    args::value_error,
    board::{self, History},
    files,
};

/// One game of a WTHOR database: who played it, in which year and tournament, its result and
/// its moves (passes put back).
#[pyclass(module = "ply.othello", frozen)]
#[derive(Clone, Debug)]
pub struct Game {
    /// Its number in the file, from 1.
    #[pyo3(get)]
    number: usize,
    /// The year the games of the file were played (the header's).
    #[pyo3(get)]
    year: u16,
    /// The tournament's name (`None` without a `WTHOR.TRN`).
    #[pyo3(get)]
    tournament: Option<String>,
    /// The tournament's number in `WTHOR.TRN`.
    #[pyo3(get)]
    tournament_number: u16,
    /// Black's name (`None` without a `WTHOR.JOU`).
    #[pyo3(get)]
    black: Option<String>,
    /// Black's number in `WTHOR.JOU`.
    #[pyo3(get)]
    black_number: u16,
    /// White's name (`None` without a `WTHOR.JOU`).
    #[pyo3(get)]
    white: Option<String>,
    /// White's number in `WTHOR.JOU`.
    #[pyo3(get)]
    white_number: u16,
    /// Black's discs at the end, empty squares to the winner, as recorded.
    #[pyo3(get)]
    black_discs: u8,
    /// The result for black as a disc difference: `2 * black_discs - 64`.
    #[pyo3(get)]
    black_score: i32,
    /// Black's discs under perfect play from `theoretical_depth` empties on, as recorded.
    #[pyo3(get)]
    theoretical: u8,
    /// The empties from which `theoretical` is perfect play.
    #[pyo3(get)]
    theoretical_depth: u8,
    /// The moves from the start, passes included (`"pass"`), as `Board.move_stack` names them.
    #[pyo3(get)]
    moves: Vec<String>,
    /// The moves as a transcript (`"f5d6c3..."`, passes left out).
    #[pyo3(get)]
    transcript: String,
    /// The game, for `board()`.
    record: GameRecord,
}

#[pymethods]
impl Game {
    /// The game on a `Board`: its end position, its moves in `move_stack` (so `pop()` steps
    /// back through it).
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Board>> {
        let game = &self.record;
        let cls = py.get_type::<Board>();
        board::new_of(&cls, History::of_game(game.plies(), game.position()))
    }

    fn __repr__(&self) -> String {
        let name = |n: &Option<String>, k: u16| n.clone().unwrap_or_else(|| format!("#{k}"));
        format!(
            "Game(number={}, year={}, black='{}', white='{}', black_discs={}, moves={})",
            self.number,
            self.year,
            name(&self.black, self.black_number),
            name(&self.white, self.white_number),
            self.black_discs,
            self.moves.len()
        )
    }
}

/// The names of a names file, read by the library; `ValueError` naming the file when it is
/// not one.
fn read_names(path: &Path, kind: NameKind) -> PyResult<Vec<String>> {
    let bytes = files::read(path)?;
    Names::read(&bytes, kind)
        .map(|n| n.names)
        .map_err(|e| value_error(format!("{}: {e}", path.display())))
}

/// Name `number` of a names file, `None` without one; `ValueError` when the file has no such
/// name, naming the database, the record and the field (as `ply othello games` does).
fn name_of(
    names: Option<&(PathBuf, Vec<String>)>,
    number: u16,
    at: (&Path, usize, &str),
) -> PyResult<Option<String>> {
    let Some((file, names)) = names else {
        return Ok(None);
    };
    names
        .get(usize::from(number))
        .cloned()
        .map(Some)
        .ok_or_else(|| {
            value_error(format!(
                "{}: record {}, field `{}`: {number} is not in {} (it holds {} names)",
                at.0.display(),
                at.1,
                at.2,
                file.display(),
                names.len()
            ))
        })
}

/// Every game of the WTHOR database at `path` (a `str` or a path), in file order, each
/// replayed by the rules; with `players` (`WTHOR.JOU`) and `tournaments` (`WTHOR.TRN`) the
/// names too. `FileNotFoundError`/`OSError` when a file cannot be read; `ValueError` naming
/// the file, the record, the field and its byte when one is not what WTHOR says (a move that
/// breaks the rules included).
#[pyfunction]
#[pyo3(signature = (path, *, players = None, tournaments = None))]
fn games(
    path: PathBuf,
    players: Option<PathBuf>,
    tournaments: Option<PathBuf>,
) -> PyResult<Vec<Game>> {
    let players = players
        .map(|p| read_names(&p, NameKind::Players).map(|n| (p, n)))
        .transpose()?;
    let tournaments = tournaments
        .map(|p| read_names(&p, NameKind::Tournaments).map(|n| (p, n)))
        .transpose()?;
    let bytes = files::read(&path)?;
    let bad = |e: wthor::WthorError| value_error(format!("{}: {e}", path.display()));
    let (header, records) = wthor::games(&bytes).map_err(bad)?;
    let mut out = Vec::with_capacity(header.games as usize);
    for (k, g) in records.enumerate() {
        let g = g.map_err(bad)?;
        let number = k + 1;
        out.push(Game {
            number,
            year: header.game_year,
            tournament: name_of(
                tournaments.as_ref(),
                g.tournament,
                (&path, number, "tournament"),
            )?,
            tournament_number: g.tournament,
            black: name_of(players.as_ref(), g.black, (&path, number, "black player"))?,
            black_number: g.black,
            white: name_of(players.as_ref(), g.white, (&path, number, "white player"))?,
            white_number: g.white,
            black_discs: g.black_discs,
            black_score: g.black_score(),
            theoretical: g.theoretical,
            theoretical_depth: header.theoretical_depth(),
            moves: g.game.moves().iter().map(ToString::to_string).collect(),
            transcript: transcript::format(&g.game),
            record: g.game,
        });
    }
    Ok(out)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    Ok(())
}
