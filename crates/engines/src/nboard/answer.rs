//! The engine's side of the protocol: every line it answers, written from the library's
//! [`Analysis`]. Pure, so each line is tested as text. Moves are NBoard's capitals (`F5`,
//! `PA` for a pass) and evals discs for the side to move with two decimals, but for the
//! `analysis` lines of a review, which are black's (see the module doc of `nboard`).

use ply_othello::{
    analyze::{Analysis, Discs64},
    Move, Position,
};

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
pub fn move_name(m: Move) -> String {
    match m {
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".to_owned(),
    }
}

/// A score in discs with two decimals.
pub fn eval(score: Discs64) -> String {
    format!("{:.2}", score.discs())
}

/// Moves run together as NBoard reads a pv: `F5D6PAC3`.
pub fn pv(line: &[Move]) -> String {
    line.iter().map(|&m| move_name(m)).collect()
}

/// `pong N`, or `pong` for a bare `ping`.
pub fn pong(n: &str) -> String {
    format!("pong {n}").trim_end().to_owned()
}

/// A command refused, said where the GUI shows it: `status ply: set game: …`.
pub fn refused(message: &str) -> String {
    format!("status ply: {message}")
}

/// The name the engine takes at a depth: `set myname ply12`.
pub fn myname(depth: u32) -> String {
    format!("set myname ply{depth}")
}

/// `nodestats NODES SECONDS`.
pub fn nodestats(nodes: u64, seconds: f64) -> String {
    format!("nodestats {nodes} {seconds:.2}")
}

/// `analysis K EVAL`: the position after `plies` plies, its value for black.
pub fn analysis(plies: usize, for_black: Discs64) -> String {
    format!("analysis {plies} {}", eval(for_black))
}

/// `=== F5/eval/time`, `=== PA` when the side to move must pass, `None` when the game is over.
pub fn go(pos: &Position, a: &Analysis, seconds: f64) -> Option<String> {
    if pos.is_game_over() {
        return None;
    }
    Some(match a.best {
        Some(sq) => format!(
            "=== {}/{}/{seconds:.2}",
            move_name(Move::Play(sq)),
            eval(a.score)
        ),
        None => "=== PA".to_owned(),
    })
}

/// `search <pv> <eval> 0 <depth>` for the `n` best moves (`search PA …` when the side to move
/// must pass; nothing when the game is over), `book <pv> <eval> 0 <depth>` for a move the
/// opening book scores (the protocol's book line; ply counts no games, so 0). The pv has no
/// spaces: `F5D6C3`.
pub fn hint(a: &Analysis, n: usize) -> Vec<String> {
    if a.moves.is_empty() {
        if a.line.first() == Some(&Move::Pass) {
            return vec![format!(
                "search {} {} 0 {}",
                pv(&a.line),
                eval(a.score),
                a.depth
            )];
        }
        return Vec::new();
    }
    a.moves
        .iter()
        .take(n)
        .map(|m| {
            let first = Move::Play(m.square);
            let line = if a.line.first() == Some(&first) {
                pv(&a.line)
            } else {
                move_name(first)
            };
            let kind = if m.book { "book" } else { "search" };
            // A selective result's depth carries its confidence, as Edax writes it.
            let depth = match a.selective {
                Some(percent) if a.best == Some(m.square) => format!("{}@{percent}%", m.depth),
                _ => m.depth.to_string(),
            };
            format!("{kind} {line} {} 0 {depth}", eval(m.score))
        })
        .collect()
}

/// The thinking output of a `go` or `hint`: `nodestats` and, for a hint, the `search` lines,
/// each only when it changes since the last report.
#[derive(Debug)]
pub struct Progress {
    /// `Some(n)` for `hint n`.
    hint: Option<usize>,
    nodes: u64,
    lines: Vec<String>,
}

impl Progress {
    /// Nothing said yet; `hint` is `Some(n)` for `hint n`, `None` for `go`.
    pub fn new(hint: Option<usize>) -> Progress {
        Progress {
            hint,
            // Not a count: the first report always says its nodes, even none (a book move).
            nodes: u64::MAX,
            lines: Vec::new(),
        }
    }

    /// The lines to say about `a`, `seconds` into the search.
    pub fn report(&mut self, a: &Analysis, seconds: f64) -> Vec<String> {
        let mut said = Vec::new();
        if a.nodes != self.nodes {
            self.nodes = a.nodes;
            said.push(nodestats(a.nodes, seconds));
        }
        if let Some(n) = self.hint {
            let lines = hint(a, n);
            if lines != self.lines {
                said.extend(lines.iter().cloned());
                self.lines = lines;
            }
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use ply_othello::{
        analyze::{Engine, MoveValue, DISC},
        BoardSize, Square,
    };

    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn analysis_of_two_moves() -> Analysis {
        Analysis {
            moves: vec![
                MoveValue {
                    square: sq("d3"),
                    score: Discs64(2 * DISC),
                    exact: true,
                    depth: 10,
                    book: false,
                },
                MoveValue {
                    square: sq("c4"),
                    score: Discs64(-DISC / 2),
                    exact: false,
                    depth: 4,
                    book: true,
                },
            ],
            best: Some(sq("d3")),
            score: Discs64(2 * DISC),
            proven: false,
            all_exact: false,
            selective: None,
            depth: 4,
            line: vec![Move::Play(sq("d3")), Move::Pass, Move::Play(sq("c5"))],
            nodes: 10,
            engine: Engine::Mixed,
        }
    }

    #[test]
    fn hint_lines_name_the_pv_and_a_pass_plainly() {
        let a = analysis_of_two_moves();
        assert_eq!(
            hint(&a, 5),
            ["search D3PAC5 2.00 0 10", "book C4 -0.50 0 4"]
        );
        assert_eq!(hint(&a, 1).len(), 1);
        let passing = Analysis {
            moves: Vec::new(),
            best: None,
            line: vec![Move::Pass, Move::Play(sq("a1"))],
            score: Discs64(-4 * DISC),
            ..a.clone()
        };
        assert_eq!(hint(&passing, 3), ["search PAA1 -4.00 0 4"]);
        // The solver's selective pass found d3: its depth says how sure it is.
        let mut selective = a.clone();
        selective.moves[0].exact = false;
        selective.selective = Some(73);
        selective.engine = ply_othello::analyze::Engine::Selective;
        assert_eq!(hint(&selective, 1), ["search D3PAC5 2.00 0 10@73%"]);
        let over = Analysis {
            line: Vec::new(),
            ..passing
        };
        assert!(hint(&over, 3).is_empty());
    }

    #[test]
    fn go_names_the_move_its_eval_and_time_or_a_pass() {
        let start = Position::start(BoardSize::Eight);
        let a = analysis_of_two_moves();
        assert_eq!(go(&start, &a, 1.234).as_deref(), Some("=== D3/2.00/1.23"));
        let passing = Analysis {
            best: None,
            ..a.clone()
        };
        assert_eq!(go(&start, &passing, 0.0).as_deref(), Some("=== PA"));
        let over: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X"
            .parse()
            .unwrap();
        assert!(over.is_game_over());
        assert_eq!(go(&over, &a, 0.0), None);
    }

    #[test]
    fn the_small_lines() {
        assert_eq!(pong("7"), "pong 7");
        assert_eq!(pong(""), "pong");
        assert_eq!(refused("no game"), "status ply: no game");
        assert_eq!(myname(12), "set myname ply12");
        assert_eq!(nodestats(1234, 0.5), "nodestats 1234 0.50");
        assert_eq!(analysis(0, Discs64(-3 * DISC)), "analysis 0 -3.00");
        assert_eq!(eval(Discs64(DISC / 4)), "0.25");
        assert_eq!(pv(&[Move::Play(sq("f5")), Move::Pass]), "F5PA");
    }

    #[test]
    fn progress_says_only_what_changed() {
        let a = analysis_of_two_moves();
        let mut go = Progress::new(None);
        assert_eq!(go.report(&a, 0.1), ["nodestats 10 0.10"]);
        assert!(go.report(&a, 0.2).is_empty());
        let mut hint = Progress::new(Some(2));
        assert_eq!(
            hint.report(&a, 0.1),
            [
                "nodestats 10 0.10",
                "search D3PAC5 2.00 0 10",
                "book C4 -0.50 0 4"
            ]
        );
        let more = Analysis {
            nodes: 20,
            ..a.clone()
        };
        assert_eq!(hint.report(&more, 0.3), ["nodestats 20 0.30"]);
        // A book move costs no nodes, and is still reported once.
        let book = Analysis { nodes: 0, ..a };
        assert_eq!(Progress::new(None).report(&book, 0.0), ["nodestats 0 0.00"]);
    }
}
