//! What a front end says about a position and about a perft count, as text and (with the
//! `serde` feature) as JSON: `ply othello show`, `play` and `perft` print these.

use crate::{perft, text, transcript, Bitboard, Color, GameRecord, Move, Position};

/// `black` or `white`.
#[must_use]
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The squares of `b`, `a1`..., in order.
fn squares(b: Bitboard) -> Vec<String> {
    b.map(|sq| sq.to_string()).collect()
}

/// The moves, `f5`... or `pass`.
#[must_use]
pub fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// The picture of `pos` with its legal moves marked, and a few lines about whose turn it is
/// and what they can do (or how the game ended), and the position as `text` writes it.
///
/// ```
/// use ply_othello::{summary, BoardSize, Position};
/// let s = summary::describe(&Position::start(BoardSize::Four));
/// assert!(s.contains("black (X) to move; legal moves (.): b1 a2 d3 c4\n"));
/// ```
#[must_use]
pub fn describe(pos: &Position) -> String {
    let mut s = text::picture(pos, pos.legal_moves());
    let (b, w) = (pos.disc_count(Color::Black), pos.disc_count(Color::White));
    s.push_str(&format!("discs: black (X) {b}, white (O) {w}\n"));
    if pos.is_game_over() {
        let black = pos.final_score_for(Color::Black);
        let verdict = match black.signum() {
            1 => "black wins",
            -1 => "white wins",
            _ => "draw",
        };
        s.push_str(&format!(
            "game over: {verdict}, {black:+} for black (empties to the winner)\n"
        ));
    } else if !pos.can_move() {
        s.push_str(&format!(
            "{} ({}) to move, has no legal move and must pass\n",
            color_name(pos.turn()),
            pos.turn().symbol()
        ));
    } else {
        s.push_str(&format!(
            "{} ({}) to move; legal moves (.): {}\n",
            color_name(pos.turn()),
            pos.turn().symbol(),
            squares(pos.legal_moves()).join(" ")
        ));
    }
    s.push_str(&format!("position: {}\n", text::format_position(pos)));
    s
}

/// What [`describe`] says, as one JSON object: the position, its size, the side to move,
/// the discs, the empties, the legal moves, whether the side to move must pass, whether the
/// game is over and black's final score when it is.
#[cfg(feature = "serde")]
#[must_use]
pub fn to_json(pos: &Position) -> serde_json::Value {
    let over = pos.is_game_over();
    let black_score = pos.final_score_for(Color::Black);
    serde_json::json!({
        "position": text::format_position(pos),
        "size": pos.size().n(),
        "to_move": color_name(pos.turn()),
        "discs": {
            "black": pos.disc_count(Color::Black),
            "white": pos.disc_count(Color::White),
        },
        "empties": pos.empties().count(),
        "legal_moves": squares(pos.legal_moves()),
        "must_pass": !over && !pos.can_move(),
        "game_over": over,
        "score_black": if over { Some(black_score) } else { None },
    })
}

/// What `ply othello show` prints of the position `game` reaches: [`describe`], and the
/// name of its `opening` when it has one.
#[must_use]
pub fn show_text(game: &GameRecord, opening: Option<&str>) -> String {
    let mut s = describe(&game.position());
    if let Some(name) = opening {
        s.push_str(&format!("opening  {name}\n"));
    }
    s
}

/// [`show_text`] as one JSON object: [`to_json`], the game's moves when it has any, and the
/// opening (`null` without one).
#[cfg(feature = "serde")]
#[must_use]
pub fn show_json(game: &GameRecord, opening: Option<&str>) -> serde_json::Value {
    let mut v = to_json(&game.position());
    if !game.moves().is_empty() {
        v["moves"] = serde_json::json!(moves_text(game.moves()));
    }
    v["opening"] = serde_json::json!(opening);
    v
}

/// What `ply othello play` prints of a replayed game: its plies and passes, the moves with
/// the passes, and [`describe`] of where it ends.
#[must_use]
pub fn play_text(game: &GameRecord) -> String {
    let passes = game.moves().iter().filter(|m| **m == Move::Pass).count();
    format!(
        "{} plies ({passes} passes): {}\n{}",
        game.moves().len(),
        transcript::format_with_passes(game),
        describe(&game.position())
    )
}

/// [`play_text`] as one JSON object: [`to_json`] of where it ends, the moves, the plies and
/// the transcript.
#[cfg(feature = "serde")]
#[must_use]
pub fn play_json(game: &GameRecord) -> serde_json::Value {
    let mut v = to_json(&game.position());
    v["moves"] = serde_json::json!(moves_text(game.moves()));
    v["plies"] = serde_json::json!(game.moves().len());
    v["transcript"] = serde_json::json!(transcript::format(game));
    v
}

/// The progress bar of a perft count to `depth` plies, `seconds` in: `perft(9) [####---]
/// 40%, 123 leaves, 1.5 s ` (30 marks wide).
#[must_use]
pub fn perft_bar(depth: u32, p: perft::Progress, seconds: f64) -> String {
    let width = 30;
    let filled = p.done * width / p.total.max(1);
    format!(
        "perft({depth}) [{}{}] {:>3}%, {} leaves, {seconds:.1} s ",
        "#".repeat(filled),
        "-".repeat(width - filled),
        p.done * 100 / p.total.max(1),
        p.leaves,
    )
}

/// A perft count as a front end reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftReport {
    /// The position counted from.
    pub position: Position,
    /// Plies counted.
    pub depth: u32,
    /// Leaves.
    pub leaves: u64,
    /// The count under each move, when it was asked for.
    pub divide: Option<Vec<(Move, u64)>>,
    /// Seconds the count took.
    pub seconds: f64,
}

impl PerftReport {
    /// Counts the leaves of `pos` to `depth` plies (under each move too, when `divide`),
    /// telling `progress` as [`perft::perft_with_progress`] does; `seconds` says how long a
    /// count took from its start.
    pub fn count(
        pos: &Position,
        depth: u32,
        divide: bool,
        progress: &mut dyn FnMut(perft::Progress),
        seconds: &dyn Fn() -> f64,
    ) -> PerftReport {
        let (leaves, divided) = if divide {
            let d = perft::divide_with_progress(pos, depth, progress);
            let total = if d.is_empty() {
                perft::perft(pos, depth)
            } else {
                d.iter().map(|x| x.1).sum()
            };
            (total, Some(d))
        } else {
            (perft::perft_with_progress(pos, depth, progress), None)
        };
        PerftReport {
            position: *pos,
            depth,
            leaves,
            divide: divided,
            seconds: seconds(),
        }
    }

    /// Leaves a second.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.leaves as f64 / self.seconds.max(1e-9)
    }

    /// The count as `ply othello perft` prints it: each move's count when divided, the
    /// total, the time and the speed.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (m, n) in self.divide.iter().flatten() {
            s.push_str(&format!("{m} {n}\n"));
        }
        s.push_str(&format!("perft({}) = {}\n", self.depth, self.leaves));
        s.push_str(&format!(
            "{:.3} s, {:.1} M leaves/s\n",
            self.seconds,
            self.rate() / 1e6
        ));
        s
    }

    /// The count as one JSON object (`divide` a list of `{move, leaves}` when divided).
    #[cfg(feature = "serde")]
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "size": self.position.size().n(),
            "depth": self.depth,
            "position": text::format_position(&self.position),
            "leaves": self.leaves,
            "seconds": self.seconds,
            "leaves_per_second": self.rate(),
        });
        if let Some(d) = &self.divide {
            v["divide"] = d
                .iter()
                .map(|(m, n)| serde_json::json!({"move": m.to_string(), "leaves": n}))
                .collect();
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    /// A finished game says who won and by how much; a side without a move says it passes.
    #[test]
    fn the_description_says_how_the_game_stands() {
        let over: Position = "XXXXXXXXXXXXXXXO X".parse().unwrap();
        let s = describe(&over);
        assert!(
            s.contains("game over: black wins, +14 for black (empties to the winner)\n"),
            "{s}"
        );
        assert!(s.ends_with("position: XXXXXXXXXXXXXXXO X\n"), "{s}");
    }

    #[test]
    fn the_perft_bar_fills_with_the_subtrees_done() {
        let p = perft::Progress {
            done: 5,
            total: 10,
            leaves: 123,
        };
        assert_eq!(
            perft_bar(9, p, 1.5),
            format!(
                "perft(9) [{}{}]  50%, 123 leaves, 1.5 s ",
                "#".repeat(15),
                "-".repeat(15)
            )
        );
    }

    /// A replayed game says its plies and passes before the position; show adds the
    /// opening's name.
    #[test]
    fn a_games_text_says_its_plies_and_its_opening() {
        let game = transcript::parse("f5d6", Position::start(BoardSize::Eight)).unwrap();
        let text = play_text(&game);
        assert!(
            text.starts_with("2 plies (0 passes): f5d6\n  a b c"),
            "{text}"
        );
        assert!(show_text(&game, Some("Tiger")).ends_with("\nopening  Tiger\n"));
        assert_eq!(show_text(&game, None), describe(&game.position()));
    }

    /// A divided count lists each move before the total, which is their sum.
    #[test]
    fn a_divided_count_lists_each_move_then_the_total() {
        let pos = Position::start(BoardSize::Four);
        let r = PerftReport::count(&pos, 3, true, &mut |_| {}, &|| 0.5);
        let d = r.divide.as_ref().unwrap();
        assert_eq!(d.len(), 4);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), r.leaves);
        assert_eq!(r.leaves, perft::perft(&pos, 3));
        let text = r.text();
        assert!(
            text.starts_with(&format!("{} {}\n", d[0].0, d[0].1)),
            "{text}"
        );
        assert!(
            text.contains(&format!("perft(3) = {}\n", r.leaves)),
            "{text}"
        );
    }
}
