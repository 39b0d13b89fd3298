//! What `ply train` says of its files and runs, in words (and one JSON object for a game
//! file's info): a generating run's progress and its end, a merge, a game file's
//! parameters and counts, the held-out error of a fit beside another evaluation's, a duel's
//! result. The commands read the flags and the files; the figures come from `datagen`,
//! `learn` and `duel`, and their wording is here, so that every front end says the same.

use std::{
    fmt::Write as _,
    time::{Duration, Instant},
};

use serde_json::json;

use crate::{
    datagen::{Progress, Report},
    duel::{self, DuelGame},
    games::{Counts, Header, Shard},
    learn::{Data, PhaseErrors},
    recipe::engine_fingerprint,
};

/// A line of a generating run's progress (`ply train gen` prints it every so often): the
/// shard's games, positions and bytes so far, and this run's pace.
#[must_use]
pub fn progress_line(p: &Progress) -> String {
    let secs = p.elapsed.as_secs_f64().max(1e-9);
    format!(
        "shard {}: {} of {} games, {} positions ({} exact), {} bytes; this run {} games in {:.0} \
         s: {:.2} games/s, {:.0} positions/s",
        p.shard,
        p.counts.games,
        p.shard_games,
        p.counts.positions,
        p.counts.exact,
        p.counts.bytes,
        p.this_run,
        secs,
        p.this_run as f64 / secs,
        p.this_run_positions as f64 / secs
    )
}

/// The lines a generating run's progress is worth on a terminal: at the first game, the
/// torn record cut and the games found in the file; then a [`progress_line`] whenever
/// `every` has passed since the last.
#[derive(Clone, Debug)]
pub struct ProgressNotes {
    name: String,
    every: Duration,
    last: Instant,
    first: bool,
}

impl ProgressNotes {
    /// Notes of a run into the file `name`, a progress line every `every`.
    #[must_use]
    pub fn new(name: &str, every: Duration) -> ProgressNotes {
        ProgressNotes {
            name: name.to_string(),
            every,
            last: Instant::now(),
            first: true,
        }
    }

    /// The lines due after the game `p` reports.
    pub fn lines(&mut self, p: &Progress) -> Vec<String> {
        let name = &self.name;
        let mut lines = Vec::new();
        if self.first {
            self.first = false;
            if let Some(bytes) = p.cut {
                lines.push(format!("{name}: cut a torn last record ({bytes} bytes)"));
            }
            if p.resumed > 0 {
                lines.push(format!("{name}: resuming after {} games", p.resumed));
            }
        }
        if self.last.elapsed() >= self.every {
            self.last = Instant::now();
            lines.push(format!("{name}: {}", progress_line(p)));
        }
        lines
    }
}

/// The line that ends a generating run of shard `shard` (of `shard_games` games) into the
/// file `name`: what the file holds and how many games it held at the start.
#[must_use]
pub fn generated(name: &str, shard: Shard, shard_games: u64, report: &Report) -> String {
    let c = report.counts;
    format!(
        "{name}: {} of shard {shard}'s {shard_games} games ({} found at the start), {} \
         positions ({} exact), {} bytes",
        c.games, report.resumed, c.positions, c.exact, c.bytes
    )
}

/// The line of a merge into `name` of `shards` files, which now holds `c`.
#[must_use]
pub fn merged(name: &str, c: &Counts, shards: usize) -> String {
    format!(
        "{name}: {} games, {} positions ({} exact), {} bytes, from {shards} shard files",
        c.games, c.positions, c.exact, c.bytes
    )
}

/// Bytes a position in a file of counts `c` (the header's bytes included).
fn per_position(c: &Counts) -> f64 {
    c.bytes as f64 / c.positions.max(1) as f64
}

/// `ply train info FILE --json`: the parameters of the game file `file` (header `h`) and its
/// counts `c`, as one JSON object.
#[must_use]
pub fn info_json(file: &str, h: &Header, c: &Counts) -> serde_json::Value {
    let p = h.params;
    json!({
        "file": file,
        "size": p.size.n(),
        "seed": p.seed,
        "set_games": p.games,
        "shard": h.shard.to_string(),
        "shard_games": h.shard_games(),
        "depth": p.depth,
        "random_moves": [p.random_min, p.random_max],
        "exact_empties": p.exact_empties,
        "engine": format!("{:#010x}", h.engine),
        "engine_is_this_build": h.engine == engine_fingerprint(p.size),
        "games": c.games,
        "complete": c.games == h.shard_games(),
        "positions": c.positions,
        "exact_positions": c.exact,
        "bytes": c.bytes,
        "bytes_per_position": per_position(c),
    })
}

/// `ply train info FILE`: the same as [`info_json`] in lines of words, whether the engine
/// that played the games is this build's, and whether the file is finished.
#[must_use]
pub fn info_text(file: &str, h: &Header, c: &Counts) -> String {
    let p = h.params;
    let mut s = format!("{file}: ply game file\n");
    let _ = writeln!(
        s,
        "set     {n}x{n}, seed {}, {} games; shard {} ({} games)",
        p.seed,
        p.games,
        h.shard,
        h.shard_games(),
        n = p.size.n()
    );
    let _ = writeln!(
        s,
        "play    {}-{} random moves, the engine at depth {}, perfect from {} empties",
        p.random_min, p.random_max, p.depth, p.exact_empties
    );
    let _ = writeln!(
        s,
        "engine  {:#010x} ({})",
        h.engine,
        if h.engine == engine_fingerprint(p.size) {
            "this build's"
        } else {
            "not this build's: resuming needs the build that began it"
        }
    );
    let complete = c.games == h.shard_games();
    let _ = writeln!(
        s,
        "games   {} of {}{}",
        c.games,
        h.shard_games(),
        if complete { "" } else { " (unfinished)" }
    );
    let _ = writeln!(
        s,
        "positions {} ({} exact), {} bytes, {:.2} bytes a position",
        c.positions,
        c.exact,
        c.bytes,
        per_position(c)
    );
    s
}

/// What was read of game files for a fit or an export: the games left out for sharing an
/// opening with the test set (when one was given, `apart`), then the games, those held
/// out, the positions and the time it took.
#[must_use]
pub fn data_read(data: &Data, apart: bool, elapsed: Duration) -> String {
    let mut s = String::new();
    if apart {
        let _ = writeln!(
            s,
            "left out {} games that share an opening with the test set",
            data.left_out_games
        );
    }
    let _ = write!(
        s,
        "{} games ({} held out), {} positions, read in {:.1} s",
        data.games,
        data.held_out_games,
        data.samples.len(),
        elapsed.as_secs_f64()
    );
    s
}

/// The note of an export into the directory `dir`: the `train` positions written, of how
/// many games of `data` (and how many held out), and the `test` positions when a test set
/// was exported too.
#[must_use]
pub fn exported(dir: &str, train: u64, data: &Data, test: Option<u64>) -> String {
    format!(
        "{dir}: {train} positions of {} games ({} held out){}",
        data.games,
        data.held_out_games,
        test.map(|n| format!(", {n} test positions"))
            .unwrap_or_default()
    )
}

/// The held-out error of a fit (`new`) beside another evaluation's (`old`, the shipped
/// weights or, when `compared`, the ones given to compare with), a line a phase under a
/// heading: the mean absolute error and the bias over every held-out label and over the
/// exact ones.
#[must_use]
pub fn held_out_table(new: &[PhaseErrors], old: &[PhaseErrors], compared: bool) -> String {
    let mut s = format!(
        "held-out error in discs, fitted / {} (MAE, bias); exact: labels that are exact values\n",
        if compared { "compared" } else { "shipped" }
    );
    let _ = writeln!(
        s,
        "{:>7} {:>9} {:>8} {:>15} {:>15} {:>7} {:>15} {:>15}",
        "empties", "trained", "held", "MAE", "bias", "exact", "exact MAE", "exact bias"
    );
    let pair = |x: f64, y: f64| format!("{x:.2} / {y:.2}");
    for (n, o) in new.iter().zip(old) {
        let exact = |f: fn(&PhaseErrors) -> f64| {
            if n.exact.count > 0 {
                pair(f(n), f(o))
            } else {
                "-".into()
            }
        };
        let _ = writeln!(
            s,
            "{:>7} {:>9} {:>8} {:>15} {:>15} {:>7} {:>15} {:>15}",
            format!("{}-{}", n.empties.0, n.empties.1),
            n.trained,
            n.all.count,
            pair(n.all.mae, o.all.mae),
            pair(n.all.bias, o.all.bias),
            n.exact.count,
            exact(|e| e.exact.mae),
            exact(|e| e.exact.bias),
        );
    }
    s
}

/// The result of a duel of the weights `first` against `second` at `depth` (`games` as
/// [`duel::play`] returns them, played in `elapsed`): won, drawn, lost, the points and the
/// mean disc difference, from `first`'s side.
#[must_use]
pub fn duel_line(
    first: &str,
    second: &str,
    games: &[DuelGame],
    depth: u32,
    elapsed: Duration,
) -> String {
    let points = duel::points(games);
    let duel::Tally {
        won: w,
        drawn: d,
        lost: l,
        discs,
    } = duel::tally(games);
    format!(
        "{first} against {second}: {} games at depth {depth}, {w} won, {d} drawn, {l} lost: \
         {points} points ({:.1}%), {discs:+.2} discs a game ({:.0} s)",
        games.len(),
        100.0 * points / games.len() as f64,
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use ply_othello::BoardSize;

    use super::*;
    use crate::{learn::Errors, recipe::Params};

    #[test]
    fn info_says_whether_a_file_is_finished_and_whose_engine_played_it() {
        let params = Params {
            games: 4,
            ..Params::default_for(BoardSize::Six)
        };
        let h = Header::new(params, Shard::WHOLE);
        let c = Counts {
            games: 3,
            positions: 100,
            exact: 40,
            bytes: 250,
        };
        let text = info_text("g.bin", &h, &c);
        assert!(
            text.starts_with("g.bin: ply game file\nset     6x6, seed "),
            "{text}"
        );
        assert!(text.contains("engine  0x"), "{text}");
        assert!(text.contains("(this build's)"), "{text}");
        assert!(text.contains("games   3 of 4 (unfinished)\n"), "{text}");
        assert!(text.ends_with("positions 100 (40 exact), 250 bytes, 2.50 bytes a position\n"));
        let other = Header {
            engine: h.engine ^ 1,
            ..h
        };
        assert!(info_text("g.bin", &other, &c).contains("not this build's"));
        let j = info_json("g.bin", &h, &c);
        assert_eq!(j["complete"], false);
        assert_eq!(j["engine_is_this_build"], true);
        assert_eq!(j["bytes_per_position"], 2.5);
        assert_eq!(j["random_moves"][1], params.random_max);
    }

    #[test]
    fn the_held_out_table_shows_a_dash_for_a_phase_without_exact_labels() {
        let e = |count, mae| Errors {
            count,
            mae,
            bias: -0.5,
        };
        let phase = |exact| PhaseErrors {
            empties: (0, 9),
            trained: 7,
            all: e(5, 1.0),
            exact: e(exact, 2.0),
        };
        let t = held_out_table(&[phase(0), phase(2)], &[phase(0), phase(2)], true);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].contains("fitted / compared"));
        assert!(
            lines[2].ends_with("               -               -"),
            "{t}"
        );
        assert!(
            lines[3].ends_with(" 2     2.00 / 2.00   -0.50 / -0.50"),
            "{t}"
        );
    }

    #[test]
    fn the_first_game_notes_a_cut_and_a_resumption_once() {
        let p = Progress {
            shard: Shard::WHOLE,
            counts: Counts::empty_file(),
            shard_games: 4,
            this_run: 1,
            this_run_positions: 30,
            elapsed: Duration::from_secs(1),
            resumed: 2,
            cut: Some(7),
        };
        let mut notes = ProgressNotes::new("g.bin", Duration::from_secs(3600));
        assert_eq!(
            notes.lines(&p),
            [
                "g.bin: cut a torn last record (7 bytes)",
                "g.bin: resuming after 2 games"
            ]
        );
        assert!(notes.lines(&p).is_empty());
        let mut every = ProgressNotes::new("g.bin", Duration::ZERO);
        every.first = false;
        assert_eq!(every.lines(&p), [format!("g.bin: {}", progress_line(&p))]);
    }

    #[test]
    fn an_export_note_names_the_test_positions_only_when_there_are_some() {
        let data = Data {
            size: BoardSize::Six,
            samples: Vec::new(),
            games: 3,
            held_out_games: 1,
            left_out_games: 0,
            files: Vec::new(),
        };
        assert_eq!(
            exported("ex", 96, &data, None),
            "ex: 96 positions of 3 games (1 held out)"
        );
        assert_eq!(
            exported("ex", 96, &data, Some(5)),
            "ex: 96 positions of 3 games (1 held out), 5 test positions"
        );
        assert_eq!(
            data_read(&data, true, Duration::ZERO),
            "left out 0 games that share an opening with the test set\n3 games (1 held out), 0 \
             positions, read in 0.0 s"
        );
    }
}
