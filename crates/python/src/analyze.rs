//! Every move's score: exact where the solver finishes, else the midgame engine's estimate,
//! through the library's one analysis entry point ([`ply_othello::analyze`]), with the
//! scores turned into discs for Python.

use ply_othello::{
    analyze::{self as library, Analysis, Options},
    Move, Position, Square,
};

/// One move's score, in discs, for the side that plays it.
#[derive(Clone, Copy, Debug)]
pub struct MoveScore {
    pub square: Square,
    pub score: f64,
    pub exact: bool,
}

/// What the analysis found, scores in discs from the side to move's view.
#[derive(Clone, Debug)]
pub struct Found {
    pub score: f64,
    pub exact: bool,
    pub best: Option<Square>,
    pub line: Vec<Move>,
    pub moves: Vec<MoveScore>,
    pub depth: u32,
    pub nodes: u64,
    pub engine: &'static str,
}

/// A score in discs: whole when exact, one decimal when estimated.
fn discs(score: i32, exact: bool) -> f64 {
    Analysis::shown_discs(score, exact)
}

/// Analyses `pos` with `opts`.
pub fn analyze(pos: &Position, opts: &Options) -> Found {
    let a = library::analyze(pos, opts);
    let best_exact = a.moves.first().is_none_or(|m| m.exact);
    Found {
        score: discs(a.score, best_exact),
        exact: a.exact,
        best: a.best,
        line: a.line,
        moves: a
            .moves
            .iter()
            .map(|m| MoveScore {
                square: m.square,
                score: discs(m.score, m.exact),
                exact: m.exact,
            })
            .collect(),
        depth: a.depth,
        nodes: a.nodes,
        engine: a.engine.name(),
    }
}
