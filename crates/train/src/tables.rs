//! The bridge to a training script outside Rust: the positions of game files (and of a test
//! set) written as plain little-endian arrays of weight indices ([`SetWriter`], for `ply
//! train export`) and read back ([`read_rows`], for `ply train label`, which writes their
//! labels searched again as one more array, [`search_array`]), and a table of fitted values
//! read back into a weight file ([`pack`]).
//!
//! `ply train export` writes, for each set (`train`: the game files' positions, `test`: the
//! test set's):
//!
//! ```text
//! SET.feat     u32 × F per position  the weight indices it lights within its phase
//!                                    (pattern instances, canonical; then the extra features)
//! SET.label    i8                    game result (train) or score (test), side to move
//! SET.empties  u8                    empty squares
//! SET.flags    u8                    bit 0: the label is exact; bit 1: held out
//! SET.pos      u64 × 2               discs of the side to move, of the other side
//! layout.json                        the sizes; each pattern's offset, square count and
//!                                    squares (`cells`, a1 = 0 … h8 = 63, in digit order)
//! ```
//!
//! A pattern index reads the pattern's squares as base-3 digits (0 empty, 1 the side to move,
//! 2 the other side; the first square the lowest digit) and is the least index among the
//! pattern's symmetric images onto itself, which share one weight.
//!
//! [`pack`] reads `phases × per_phase` little-endian `f32` values in discs (one per weight
//! index as `feat` numbers them; only the canonical indices are read) and makes the weights.
//!
//! ```
//! use ply_othello::{eval, BoardSize};
//! use ply_train::tables;
//!
//! // A table of zeros but a one-disc bonus for each move of the side to move.
//! let l = eval::layout(BoardSize::Eight).unwrap();
//! let per = l.pattern_weights() + eval::EXTRA_WEIGHTS;
//! let mut values = vec![0f32; per * eval::phase_count(BoardSize::Eight)];
//! for phase in 0..eval::phase_count(BoardSize::Eight) {
//!     for m in 0..=eval::MOBILITY_CAP {
//!         values[phase * per + l.pattern_weights() + m] = m as f32;
//!     }
//! }
//! let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
//! let e = tables::pack(BoardSize::Eight, &bytes).unwrap();
//! let start = ply_othello::Position::start(BoardSize::Eight);
//! assert_eq!(e.evaluate_reference(start.player().0, start.opponent().0), 4 * eval::UNIT);
//! ```

use std::{fmt::Write as _, io::Write};

use ply_othello::{
    eval::{layout, phase_count, phase_width, Eval, EXTRAS, EXTRA_WEIGHTS},
    BoardSize, Position,
};

use crate::{
    learn::Data,
    ridge::{features, store_phase},
};

/// One position to export: discs, label, empties, flags.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// Its label in discs for the side to move.
    pub label: i8,
    /// Whether the label is the exact value.
    pub exact: bool,
    /// Kept aside from the fit.
    pub held_out: bool,
}

impl Row {
    /// The rows of every position of `data`.
    #[must_use]
    pub fn of_data(data: &Data) -> Vec<Row> {
        data.samples
            .iter()
            .map(|s| Row {
                p: s.p,
                o: s.o,
                label: s.label,
                exact: s.exact,
                held_out: s.held_out,
            })
            .collect()
    }

    /// The rows of scored positions (a test set): every label exact as far as this export
    /// says (the set's own comments say which are searches), none held out.
    #[must_use]
    pub fn of_scored(scored: &[(Position, i32)]) -> Vec<Row> {
        scored
            .iter()
            .map(|(pos, score)| Row {
                p: pos.player().0,
                o: pos.opponent().0,
                label: (*score).clamp(-64, 64) as i8,
                exact: true,
                held_out: false,
            })
            .collect()
    }
}

/// The writers of one set's five arrays.
#[derive(Debug)]
pub struct SetWriter<W: Write> {
    size: BoardSize,
    feat: W,
    label: W,
    empties: W,
    flags: W,
    pos: W,
    rows: u64,
}

impl<W: Write> SetWriter<W> {
    /// Writers for `feat`, `label`, `empties`, `flags` and `pos`, in that order.
    pub fn new(size: BoardSize, [feat, label, empties, flags, pos]: [W; 5]) -> SetWriter<W> {
        SetWriter {
            size,
            feat,
            label,
            empties,
            flags,
            pos,
            rows: 0,
        }
    }

    /// Appends `rows`.
    ///
    /// # Errors
    /// What a writer says.
    ///
    /// # Panics
    /// For a board size without an evaluation.
    pub fn write(&mut self, rows: &[Row]) -> std::io::Result<()> {
        let l = layout(self.size).expect("an evaluated board size");
        let empty_mask = self.size.mask().0;
        for r in rows {
            let f = features(l, r.p, r.o, self.size);
            let bytes: Vec<u8> = f.iter().flat_map(|x| x.to_le_bytes()).collect();
            self.feat.write_all(&bytes)?;
            self.label.write_all(&r.label.to_le_bytes())?;
            self.empties
                .write_all(&[(!(r.p | r.o) & empty_mask).count_ones() as u8])?;
            self.flags
                .write_all(&[u8::from(r.exact) | u8::from(r.held_out) << 1])?;
            self.pos.write_all(&r.p.to_le_bytes())?;
            self.pos.write_all(&r.o.to_le_bytes())?;
            self.rows += 1;
        }
        Ok(())
    }

    /// Flushes everything; the number of rows written.
    ///
    /// # Errors
    /// What a writer says.
    pub fn finish(mut self) -> std::io::Result<u64> {
        for w in [
            &mut self.feat,
            &mut self.label,
            &mut self.empties,
            &mut self.flags,
            &mut self.pos,
        ] {
            w.flush()?;
        }
        Ok(self.rows)
    }
}

/// A set's rows read back from its `pos`, `label`, `empties` and `flags` arrays (as
/// [`SetWriter`] writes them; `feat` is the script's), each with its count of empty squares:
/// what `ply train label` searches again. `set` names the files in the error.
///
/// # Errors
/// Arrays that disagree on the number of positions.
pub fn read_rows(
    set: &str,
    pos: &[u8],
    label: &[u8],
    empties: &[u8],
    flags: &[u8],
) -> Result<Vec<(Row, u8)>, String> {
    let n = label.len();
    if pos.len() != 16 * n || empties.len() != n || flags.len() != n {
        return Err(format!(
            "{set}.pos, {set}.label, {set}.empties and {set}.flags disagree on the number of \
             positions"
        ));
    }
    let word = |k: usize| u64::from_le_bytes(pos[8 * k..8 * k + 8].try_into().expect("8 bytes"));
    Ok((0..n)
        .map(|i| {
            let row = Row {
                p: word(2 * i),
                o: word(2 * i + 1),
                label: label[i] as i8,
                exact: flags[i] & 1 != 0,
                held_out: flags[i] & 2 != 0,
            };
            (row, empties[i])
        })
        .collect())
}

/// The board size of an export's `layout.json` (as [`layout_json`] writes it).
///
/// # Errors
/// Not JSON (the parser's message), or a size without an evaluation (`size: ...`).
pub fn layout_size(json: &[u8]) -> Result<BoardSize, String> {
    let layout: serde_json::Value = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    crate::fit::evaluated_size(&layout["size"].to_string()).map_err(|e| format!("size: {e}"))
}

/// The rows `ply train label` searches again: those whose label is not exact and that have
/// more than `above` empty squares, by index.
#[must_use]
pub fn to_search(rows: &[(Row, u8)], above: u32) -> Vec<usize> {
    (0..rows.len())
        .filter(|&i| !rows[i].0.exact && u32::from(rows[i].1) > above)
        .collect()
}

/// The `SET.search` array of `rows` with the rows `todo` ([`to_search`]) labelled by
/// [`search_labels`] over `eval` at `depth` and one deeper, on `threads`; `progress` as
/// there.
#[must_use]
pub fn relabel(
    rows: &[(Row, u8)],
    todo: &[usize],
    eval: &Eval,
    size: BoardSize,
    depth: u32,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> Vec<u8> {
    let positions: Vec<(u64, u64)> = todo.iter().map(|&i| (rows[i].0.p, rows[i].0.o)).collect();
    let values = search_labels(eval, size, &positions, depth, threads, progress);
    let searched: Vec<(usize, f32)> = todo.iter().copied().zip(values).collect();
    search_array(rows, &searched)
}

/// The labels of `rows` as the `SET.search` array holds them (little-endian `f32` in discs):
/// each row's own label, but `searched`'s value (by index) where it has one.
#[must_use]
pub fn search_array(rows: &[(Row, u8)], searched: &[(usize, f32)]) -> Vec<u8> {
    let mut out: Vec<f32> = rows.iter().map(|(r, _)| f32::from(r.label)).collect();
    for &(i, v) in searched {
        out[i] = v;
    }
    out.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The names of a set's five files, in [`SetWriter::new`]'s order.
#[must_use]
pub fn set_files(set: &str) -> [String; 5] {
    ["feat", "label", "empties", "flags", "pos"].map(|x| format!("{set}.{x}"))
}

/// Weight indices a position lights in `size`'s layout: its pattern instances and extras.
#[must_use]
pub fn features_per_position(size: BoardSize) -> usize {
    layout(size).map_or(0, |l| l.instances.len() + EXTRAS.len())
}

/// `layout.json`: what a script needs to read the arrays and make tables.
///
/// # Panics
/// For a board size without an evaluation.
#[must_use]
pub fn layout_json(size: BoardSize, sets: &[(&str, u64)]) -> String {
    let l = layout(size).expect("an evaluated board size");
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\n  \"size\": {},\n  \"phases\": {},\n  \"phase_width\": {},\n  \"per_phase\": {},\n  \
         \"features\": {},\n  \"instances\": {},\n  \"patterns\": [",
        size.n(),
        phase_count(size),
        phase_width(size),
        l.pattern_weights() + EXTRA_WEIGHTS,
        features_per_position(size),
        l.instances.len()
    );
    for (i, p) in l.patterns.iter().enumerate() {
        let _ = write!(
            s,
            "{}\n    {{\"name\": \"{}\", \"squares\": {}, \"cells\": {:?}, \"offset\": {}, \
             \"instances\": {}}}",
            if i == 0 { "" } else { "," },
            p.name,
            p.squares.len(),
            p.squares,
            l.offsets[i],
            l.instances.iter().filter(|(pat, _)| *pat == i).count()
        );
    }
    s.push_str("\n  ],\n  \"extras\": [");
    let mut at = l.pattern_weights();
    for (i, (name, len)) in EXTRAS.iter().enumerate() {
        let _ = write!(
            s,
            "{}\n    {{\"name\": \"{name}\", \"offset\": {at}, \"entries\": {len}}}",
            if i == 0 { "" } else { "," }
        );
        at += len;
    }
    s.push_str("\n  ],\n  \"sets\": {");
    for (i, (name, rows)) in sets.iter().enumerate() {
        let _ = write!(s, "{}\"{name}\": {rows}", if i == 0 { "" } else { ", " });
    }
    s.push_str("}\n}\n");
    s
}

/// Weights from a table of `phases × per_phase` little-endian `f32` values in discs (each
/// weight index's value; a pattern's non-canonical indices are ignored and take their
/// canonical image's value), rounded to evaluation units.
///
/// # Errors
/// A length that is not the layout's, or a value that is not finite (naming its phase and
/// index).
///
/// # Panics
/// For a board size without an evaluation.
pub fn pack(size: BoardSize, bytes: &[u8]) -> Result<Eval, String> {
    let l = layout(size).expect("an evaluated board size");
    let per_phase = l.pattern_weights() + EXTRA_WEIGHTS;
    let want = 4 * per_phase * phase_count(size);
    if bytes.len() != want {
        return Err(format!(
            "{} bytes, where a {n}x{n} table is {want} ({} phases of {per_phase} f32 values)",
            bytes.len(),
            phase_count(size),
            n = size.n()
        ));
    }
    let values: Vec<f64> = bytes
        .chunks_exact(4)
        .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(format!(
            "value {} (phase {}, index {}) is not a finite number",
            i,
            i / per_phase,
            i % per_phase
        ));
    }
    let mut weights = vec![0i16; per_phase * phase_count(size)];
    for phase in 0..phase_count(size) {
        let range = phase * per_phase..(phase + 1) * per_phase;
        store_phase(l, &values[range.clone()], &mut weights[range]);
    }
    Ok(Eval::from_weights(size, weights).expect("the layout's length"))
}

/// Labels from searches: for each position (`p` to move, `o` the other side), the mean of
/// the plain minimax values of `depth` and `depth + 1` plies over `eval` (the side to move's
/// bias of one depth cancels the other's), in discs. Results in input order whatever the
/// thread count; `progress` is called with the count done every 10,000 positions.
#[must_use]
pub fn search_labels(
    eval: &Eval,
    size: BoardSize,
    positions: &[(u64, u64)],
    depth: u32,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> Vec<f32> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    ply_core::par_map(positions, threads, |_, &(p, o)| {
        let pos = Position::from_raw(p, o, ply_othello::Color::Black, size);
        let v = crate::fit::search_value(eval, &pos, depth).discs()
            + crate::fit::search_value(eval, &pos, depth + 1).discs();
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if n.is_multiple_of(10_000) {
            progress(n);
        }
        (v / 2.0) as f32
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::eval::UNIT;

    /// Exported features and packed tables agree: the sum of the table at a position's
    /// features is the packed evaluation of the position.
    #[test]
    fn features_index_the_packed_table() {
        let size = BoardSize::Eight;
        let l = layout(size).unwrap();
        let per = l.pattern_weights() + EXTRA_WEIGHTS;
        let n = per * phase_count(size);
        let mut rng = ply_core::SplitMix64::new(3);
        let values: Vec<f32> = (0..n)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 640.0)
            .collect();
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let e = pack(size, &bytes).unwrap();
        let mut pos = Position::start(size);
        for _ in 0..40 {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
            let (p, o) = (pos.player().0, pos.opponent().0);
            let mut bufs: [Vec<u8>; 5] = Default::default();
            let [a, b, c, d, e2] = &mut bufs;
            let mut w = SetWriter::new(size, [a, b, c, d, e2]);
            w.write(&Row::of_scored(&[(pos, 0)])).unwrap();
            assert_eq!(w.finish().unwrap(), 1);
            let feat = &bufs[0];
            let phase = ply_othello::eval::phase_of(size, pos.empties().count());
            let want: f64 = feat
                .chunks_exact(4)
                .map(|c| {
                    let i = u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize;
                    (f64::from(values[phase * per + i]) * f64::from(UNIT)).round()
                })
                .sum();
            assert_eq!(f64::from(e.evaluate_reference(p, o)), want);
        }
    }

    /// What the writer writes, the reader reads: every row's discs, label, flags and empty
    /// squares; arrays of different lengths are refused, naming the set's files.
    #[test]
    fn exported_rows_read_back_as_written() {
        let size = BoardSize::Eight;
        let mut rng = ply_core::SplitMix64::new(11);
        let mut rows = Vec::new();
        let mut pos = Position::start(size);
        while let Some(&m) = pos.legal_moves().collect::<Vec<_>>().first() {
            rows.push(Row {
                p: pos.player().0,
                o: pos.opponent().0,
                label: (rng.below(129) as i32 - 64) as i8,
                exact: rng.below(2) == 0,
                held_out: rng.below(2) == 0,
            });
            pos = pos.play_unchecked(m);
        }
        let mut bufs: [Vec<u8>; 5] = Default::default();
        let [a, b, c, d, e] = &mut bufs;
        let mut w = SetWriter::new(size, [a, b, c, d, e]);
        w.write(&rows).unwrap();
        w.finish().unwrap();
        let [_, label, empties, flags, pos_bytes] = &bufs;
        let read = read_rows("train", pos_bytes, label, empties, flags).unwrap();
        assert_eq!(read.len(), rows.len());
        for ((got, e), want) in read.iter().zip(&rows) {
            assert_eq!(
                (got.p, got.o, got.label, got.exact, got.held_out),
                (want.p, want.o, want.label, want.exact, want.held_out)
            );
            assert_eq!(u32::from(*e), 64 - (want.p | want.o).count_ones());
        }
        let short = &flags[..flags.len() - 1];
        let err = read_rows("train", pos_bytes, label, empties, short).unwrap_err();
        assert!(err.starts_with("train.pos, train.label"), "{err}");
        let err = read_rows("test", &pos_bytes[1..], label, empties, flags).unwrap_err();
        assert!(err.contains("test.flags disagree"), "{err}");
    }

    /// The search array keeps each row's label where no search replaced it.
    #[test]
    fn the_search_array_is_the_labels_with_the_searched_values_in_place() {
        let row = |label| {
            let r = Row {
                p: 1,
                o: 2,
                label,
                exact: false,
                held_out: false,
            };
            (r, 60)
        };
        let bytes = search_array(&[row(-3), row(5), row(64)], &[(1, 2.5)]);
        let values: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(values, [-3.0, 2.5, 64.0]);
    }

    #[test]
    fn a_table_of_the_wrong_length_or_not_finite_is_refused() {
        let e = pack(BoardSize::Eight, &[0; 12]).unwrap_err();
        assert!(e.contains("12 bytes"), "{e}");
        let l = layout(BoardSize::Eight).unwrap();
        let per = l.pattern_weights() + EXTRA_WEIGHTS;
        let mut bytes = vec![0u8; 4 * per * 10];
        bytes[4 * (per + 5)..4 * (per + 6)].copy_from_slice(&f32::NAN.to_le_bytes());
        let e = pack(BoardSize::Eight, &bytes).unwrap_err();
        assert!(e.contains("phase 1, index 5"), "{e}");
    }

    #[test]
    fn a_layout_gives_its_size_and_only_inexact_deep_rows_are_searched_again() {
        assert_eq!(
            layout_size(layout_json(BoardSize::Six, &[("train", 1)]).as_bytes()),
            Ok(BoardSize::Six)
        );
        assert!(layout_size(b"{\"size\": 4}")
            .unwrap_err()
            .starts_with("size: "));
        assert!(layout_size(b"nope").is_err());
        let row = |exact| Row {
            p: 0,
            o: 0,
            label: 0,
            exact,
            held_out: false,
        };
        let rows = [(row(false), 30), (row(true), 30), (row(false), 10)];
        assert_eq!(to_search(&rows, 20), [0]);
        assert_eq!(to_search(&rows, 5), [0, 2]);
    }
}
