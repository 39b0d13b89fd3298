//! `ply othello analyze`: every legal move of a position with its score, exact or estimated,
//! through the library's one analysis entry point (`ply_othello::analyze`), with a progress
//! line on a terminal that updates on a timer.

use std::{
    io::{self, Write},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use ply_othello::{
    analyze::{self, Analysis, Engine, Report, Request, Shown, Status},
    opening, text, BoardSize, Position,
};

use crate::othello::common::{self, StatusLine};

/// Arguments of `ply othello analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position: cells and side to move (16, 36 or 64 cells), an OBF line, a
    /// transcript of moves from the start (`f5d6c3…`), or a GGF game (`(;GM[Othello]…;)`):
    /// the position after its last move.
    #[arg(allow_hyphen_values = true, value_name = "POS")]
    pub position: String,
    /// Board size of a transcript (4, 6 or 8; by default the size its moves are legal on).
    #[arg(long)]
    pub size: Option<BoardSize>,
    /// Think for this many seconds (default 1).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search the midgame engine this many plies deep instead, without a clock (the exact
    /// solver takes over when the depth reaches the end of the game).
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    pub depth: Option<u32>,
    /// Threads (the midgame engine shares out the moves, the solver splits each search).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Never call the exact solver (the opening book still answers: add `--no-book` for
    /// estimates only).
    #[arg(long)]
    pub no_solver: bool,
    /// Do not answer from the opening book (6x6 exact, 8x8 searched).
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// Answer from this book file instead of the shipped one of its board size: ply's own
    /// (`ply othello book build`, `book import`) or an Edax book (`.dat`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let game = common::read_position_or_transcript(&a.position, a.size, "POS")?;
    let pos = game.position();
    let book_file = match &a.book {
        Some(path) => Some(Arc::new(common::read_book(path)?)),
        None => None,
    };
    let req = Request {
        time: a.time,
        depth: a.depth,
        threads: a.threads,
        book: !a.no_book,
        book_file,
        solver: !a.no_solver,
        all_moves: true,
    };
    let opts = common::analysis_options(&req, pos.size())?;

    let started = Instant::now();
    let latest: Arc<Mutex<Option<Analysis>>> = Arc::default();
    let line = StatusLine::start({
        let latest = latest.clone();
        move |elapsed| progress_line(latest.lock().expect("progress lock").as_ref(), elapsed)
    });
    let result = analyze::analyze_with(&pos, &opts, &mut |an| {
        *latest.lock().expect("progress lock") = Some(an.clone());
    });
    drop(line);
    let mut report = Report::new(&pos, &result, started.elapsed());
    // The game's moves name its opening even once it has left the named lines.
    report.opening = opening::name_of_game(&game);
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        print_text(&mut out, &pos, &report)?;
    }
    out.flush()?;
    Ok(())
}

fn print_text(out: &mut impl Write, pos: &Position, r: &Report) -> io::Result<()> {
    writeln!(out, "position   {}", text::format_position(pos))?;
    if let Some(name) = r.opening {
        writeln!(out, "opening    {name}")?;
    }
    let kind = if r.all_exact {
        "exact".to_string()
    } else if r.proven {
        let left = r.moves.iter().filter(|m| !m.exact).count();
        format!("exact; {left} other moves still estimated")
    } else if r.engine == Engine::Book {
        "book: an estimate from searches negamaxed through the opening book".to_string()
    } else if let Some(percent) = r.confidence {
        format!("selective @ {percent}%: the solver's selective search to the end")
    } else {
        "estimate".to_string()
    };
    writeln!(out, "score      {} ({kind})", r.score)?;
    match r.status {
        Status::Over => writeln!(out, "the game is over")?,
        Status::Pass => writeln!(out, "the side to move must pass")?,
        Status::Play => {}
    }
    for m in &r.moves {
        let how = match (m.exact, m.book, r.confidence) {
            (true, false, _) => "exact".to_string(),
            (true, true, _) => "exact, book".to_string(),
            (false, true, _) => format!("book, depth {}", m.depth),
            (false, false, Some(percent)) if r.best.as_ref() == Some(&m.square) => {
                format!("selective @ {percent}%")
            }
            (false, false, _) => format!("estimate, depth {}", m.depth),
        };
        writeln!(out, "  {}  {:>6}  {how}", m.square, m.score.to_string())?;
    }
    writeln!(out, "line       {}", r.line.join(" "))?;
    // Where the scores come from; an exact result is just that, whichever engine proved it.
    let source = match (r.all_exact, r.engine, r.confidence) {
        (true, Engine::Book, _) => "book".to_string(),
        (true, _, _) => "exact".to_string(),
        (false, Engine::Selective, Some(percent)) => format!("selective @ {percent}%"),
        (false, engine, _) => engine.name().to_string(),
    };
    writeln!(
        out,
        "searched   depth {}, {} nodes, {:.2} s ({source})",
        r.depth,
        r.nodes,
        r.elapsed_ms as f64 / 1000.0,
    )
}

/// The progress line of an analysis: the latest iteration's depth, best move and score, how
/// many moves are exact, and the nodes so far.
fn progress_line(latest: Option<&Analysis>, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    match latest {
        Some(a) => format!(
            "depth {:>2}  best {}  {}  exact {}/{}  {} nodes  {seconds:.1} s",
            a.depth,
            a.best.map_or("--".to_string(), |s| s.to_string()),
            Shown::new(a.score, a.proven),
            a.moves.iter().filter(|m| m.exact).count(),
            a.moves.len(),
            a.nodes,
        ),
        None => format!("thinking  {seconds:.1} s"),
    }
}

#[cfg(test)]
mod tests {
    use ply_othello::{
        analyze::{Analysis, MoveValue, WholeDiscs},
        Move, Square,
    };

    use super::*;

    /// A selective pass's result is named as one everywhere in the text: the score, its move
    /// and the source (once labelled `estimate` and `(midgame)`).
    #[test]
    fn a_selective_result_is_labelled_selective() {
        let pos = Position::start(BoardSize::Eight);
        let sq = |s: &str| Square::parse(s).unwrap();
        let mv = |s: &str, discs: i32, depth: u32| MoveValue {
            square: sq(s),
            score: WholeDiscs(discs).into(),
            exact: false,
            depth,
            book: false,
        };
        let a = Analysis {
            moves: vec![mv("d3", 4, 60), mv("c4", 2, 9)],
            best: Some(sq("d3")),
            score: WholeDiscs(4).into(),
            proven: false,
            all_exact: false,
            selective: Some(73),
            depth: 60,
            line: vec![Move::Play(sq("d3"))],
            nodes: 5,
            engine: Engine::Selective,
        };
        let r = Report::new(&pos, &a, Duration::from_millis(1500));
        let mut out = Vec::new();
        print_text(&mut out, &pos, &r).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("score      +4.0 (selective @ 73%: "),
            "{text}"
        );
        assert!(text.contains("  d3    +4.0  selective @ 73%\n"), "{text}");
        assert!(text.contains("  c4    +2.0  estimate, depth 9\n"), "{text}");
        assert!(text.ends_with("1.50 s (selective @ 73%)\n"), "{text}");
        assert!(!text.contains("midgame"), "{text}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(
            (&json["engine"], &json["confidence"]),
            (&"selective".into(), &73.into())
        );
    }
}
