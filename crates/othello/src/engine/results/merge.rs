//! The results files of a sharded batch solve, back in input order.
//!
//! Every results line carries the input `line` of its position, so merging is a sort by that
//! number of the lines as they were written: no line is parsed and written again, and the
//! output is byte for byte what one machine solving the whole input would have written. Two
//! results for one input line must be the same bytes, and two results for one position (at
//! two input lines) the same scores; anything else is a [`Conflict`].

use std::collections::{BTreeMap, HashMap};

use super::{Entry, MoveScore};
use crate::{obf::ObfEntry, text};

/// One results line of a merge and where it was read.
#[derive(Debug)]
pub struct MergeRow {
    /// The line as read, newline included: what the merge writes.
    pub bytes: Vec<u8>,
    /// The file it was read from (its index among the merged files).
    pub file: usize,
    /// Its line in that file, from 1.
    pub at: usize,
    /// The position.
    pub position: String,
    /// Its score.
    pub score: i32,
    /// Every move's score, when the solve gave them.
    pub moves: Option<Vec<MoveScore>>,
}

/// Two results that disagree, or a merge that does not match its input.
#[derive(Debug)]
pub enum Conflict {
    /// Two different lines for one input line.
    Line {
        /// The input line.
        line: u64,
        /// The first result read for it: (file, line in it, position, score).
        first: (usize, usize, String, i32),
        /// The other (file, line in it, position, score).
        other: (usize, usize, String, i32),
    },
    /// Two results for one position (at two input lines) with other scores.
    Position {
        /// The position.
        position: String,
        /// The first result: (file, line in it, input line, score).
        first: (usize, usize, u64, i32),
        /// The other.
        other: (usize, usize, u64, i32),
    },
    /// A result for another position than the input holds at its line.
    NotTheInput {
        /// Where the result was read: (file, line in it).
        at: (usize, usize),
        /// The input line.
        line: u64,
    },
    /// Input lines without a result.
    Missing {
        /// The input lines.
        lines: Vec<usize>,
        /// The positions of the input.
        positions: usize,
    },
}

impl Conflict {
    /// The message, with `name(file, at)` naming a line of a results file and `input` the
    /// OBF input.
    #[must_use]
    pub fn message(&self, name: &dyn Fn(usize, usize) -> String, input: &str) -> String {
        match self {
            Conflict::Line { line, first, other } => {
                let what = if first.2 == other.2 {
                    format!("position {}", other.2)
                } else {
                    format!(
                        "positions {} and {}: results of two inputs?",
                        first.2, other.2
                    )
                };
                format!(
                    "conflicting results for input line {line} ({what}): {} says score {}, {} \
                     says score {}",
                    name(first.0, first.1),
                    first.3,
                    name(other.0, other.1),
                    other.3
                )
            }
            Conflict::Position {
                position,
                first,
                other,
            } => format!(
                "conflicting results for position {position}: {} (input line {}) says score \
                 {}, {} (input line {}) says score {}{}",
                name(first.0, first.1),
                first.2,
                first.3,
                name(other.0, other.1),
                other.2,
                other.3,
                if first.3 == other.3 {
                    " with other move scores"
                } else {
                    ""
                }
            ),
            Conflict::NotTheInput { at, line } => format!(
                "{}: the result for input line {line} is not for the position at line {line} \
                 of {input}",
                name(at.0, at.1)
            ),
            Conflict::Missing { lines, positions } => {
                let shown: Vec<String> = lines.iter().take(10).map(ToString::to_string).collect();
                let one = lines.len() == 1;
                format!(
                    "{} of {} of {input} {} no result (input {} {}{}): run {} again",
                    lines.len(),
                    text::plural(*positions, "position"),
                    if one { "has" } else { "have" },
                    if one { "line" } else { "lines" },
                    shown.join(", "),
                    if lines.len() > shown.len() {
                        ", …"
                    } else {
                        ""
                    },
                    if one { "its shard" } else { "their shards" }
                )
            }
        }
    }

    /// Whether this is bad input (a retry cannot help): every conflict but a missing result,
    /// which running the shard again may supply.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, Conflict::Missing { .. })
    }
}

/// The rows of `files` (each file's entries, in the order given) by input line, each line
/// once. The files are taken one at a time, so a conflict is found before a later file is
/// read.
///
/// # Errors
/// The first [`Conflict`] between two results.
pub fn merge(
    files: impl IntoIterator<Item = Vec<Entry>>,
) -> Result<BTreeMap<u64, MergeRow>, Conflict> {
    let mut by_line: BTreeMap<u64, MergeRow> = BTreeMap::new();
    // The input line of the first result seen for each position.
    let mut by_position: HashMap<String, u64> = HashMap::new();
    for (file, entries) in files.into_iter().enumerate() {
        for e in entries {
            let line = e.row.line as u64;
            let row = MergeRow {
                bytes: e.bytes,
                file,
                at: e.at,
                position: e.row.position,
                score: e.row.score,
                moves: e.row.moves,
            };
            if let Some(first) = by_line.get(&line) {
                if first.bytes != row.bytes {
                    return Err(Conflict::Line {
                        line,
                        first: (first.file, first.at, first.position.clone(), first.score),
                        other: (row.file, row.at, row.position, row.score),
                    });
                }
                continue;
            }
            if let Some(&other) = by_position.get(&row.position) {
                let first = &by_line[&other];
                let both_moves = first.moves.is_some() && row.moves.is_some();
                if first.score != row.score || (both_moves && first.moves != row.moves) {
                    return Err(Conflict::Position {
                        position: row.position,
                        first: (first.file, first.at, other, first.score),
                        other: (row.file, row.at, line, row.score),
                    });
                }
            } else {
                by_position.insert(row.position.clone(), line);
            }
            by_line.insert(line, row);
        }
    }
    Ok(by_line)
}

/// The merged file: every row's line as it was read, in input order.
#[must_use]
pub fn merged_bytes(by_line: &BTreeMap<u64, MergeRow>) -> Vec<u8> {
    by_line
        .values()
        .flat_map(|row| row.bytes.iter().copied())
        .collect()
}

/// The merged results against the input (an OBF file's entries): the same positions at the
/// same lines, none missing.
///
/// # Errors
/// A result for another position than the input's at its line, or input lines without a
/// result ([`Conflict::Missing`]).
pub fn check_input(
    entries: &[ObfEntry],
    by_line: &BTreeMap<u64, MergeRow>,
) -> Result<(), Conflict> {
    let wanted: HashMap<u64, String> = entries
        .iter()
        .map(|e| (e.line as u64, text::format_position(&e.obf.position)))
        .collect();
    for (line, row) in by_line {
        if wanted.get(line) != Some(&row.position) {
            return Err(Conflict::NotTheInput {
                at: (row.file, row.at),
                line: *line,
            });
        }
    }
    let missing: Vec<usize> = entries
        .iter()
        .filter(|e| !by_line.contains_key(&(e.line as u64)))
        .map(|e| e.line)
        .collect();
    if !missing.is_empty() {
        return Err(Conflict::Missing {
            lines: missing,
            positions: entries.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{parse, Row};

    fn line(input: usize, position: &str, score: i32) -> Vec<u8> {
        Row {
            best_move: None,
            depth: None,
            line: input,
            moves: None,
            position: position.into(),
            pv: Vec::new(),
            score,
        }
        .to_line()
    }

    fn file(lines: &[Vec<u8>]) -> Vec<Entry> {
        parse(&lines.concat()).unwrap().entries
    }

    /// The shards' lines come back in input order, a line read twice kept once.
    #[test]
    fn shards_merge_in_input_order() {
        let a = file(&[line(3, "p3", 1), line(1, "p1", 2)]);
        let b = file(&[line(2, "p2", 0), line(3, "p3", 1)]);
        let merged = merge(vec![a, b]).unwrap();
        let order: Vec<u64> = merged.keys().copied().collect();
        assert_eq!(order, [1, 2, 3]);
        assert_eq!(merged[&2].file, 1);
        let want = [line(1, "p1", 2), line(2, "p2", 0), line(3, "p3", 1)].concat();
        assert_eq!(merged_bytes(&merged), want);
    }

    /// Two results for one line, or for one position, that disagree are named with both
    /// places; a result missing from the input is not bad input.
    #[test]
    fn conflicts_name_both_results() {
        let name = |f: usize, at: usize| format!("r{f} line {at}");
        let e = merge(vec![file(&[line(1, "p", 2)]), file(&[line(1, "p", 4)])]).unwrap_err();
        assert_eq!(
            e.message(&name, "in"),
            "conflicting results for input line 1 (position p): r0 line 1 says score 2, r1 \
             line 1 says score 4"
        );
        let e = merge(vec![file(&[line(1, "p", 2), line(5, "p", 0)])]).unwrap_err();
        assert!(e.is_bad_input());
        assert!(
            e.message(&name, "in")
                .contains("r0 line 1 (input line 1) says score 2, r0 line 2 (input line 5)"),
            "{e:?}"
        );
    }

    #[test]
    fn a_missing_result_is_named_by_its_input_line() {
        let obf = crate::obf::parse_file("-----OX--XO----- X;\n-----OX--XO----- O;\n").unwrap();
        let start = text::format_position(&obf[0].obf.position);
        let merged = merge(vec![file(&[line(1, &start, -10)])]).unwrap();
        let e = check_input(&obf, &merged).unwrap_err();
        assert!(!e.is_bad_input());
        assert_eq!(
            e.message(&|_, _| String::new(), "in.obf"),
            "1 of 2 positions of in.obf has no result (input line 2): run its shard again"
        );
    }
}
