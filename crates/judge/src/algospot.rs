//! `algospot-tictactoe`: C boards of three lines `x`/`o`/`.`, `x` moving first; answer the
//! winner under perfect play (`x`, `o` or `TIE`). A board whose game is already over is
//! answered with its winner (or `TIE` when full). Only `x`, `o` and `.` are cells (an `X` is
//! an error) and C is digits only. The problem caps C at 50; ply does not, so that a million
//! boards can be answered (`ply bench judge`).
//!
//! This is the throughput path (`ply bench judge`): the answer of every board is precomputed
//! from the solved table into one byte per base-3 code, so a case costs three row lookups
//! and one table read.

use std::{
    io::{BufRead, Write},
    sync::OnceLock,
};

use ply_core::{Outcome, SplitMix64};
use ply_tictactoe::{check, table::SolvedTable, Mark, Position, CODES};

use super::{
    cells::{
        board, board_text, describe, random_position, write_board, CellTable, Length, ROW_WEIGHT,
    },
    stream::{integer, show, Lines, Out},
};
use crate::Error;

const CELLS: CellTable = CellTable::new(*b".xo", "x, o or .");
const CANNOT_OCCUR: u8 = 0;
const ANSWER_TEXT: [&[u8]; 4] = [b"", b"x\n", b"o\n", b"TIE\n"];

/// Per base-3 code: 0 the board cannot occur, 1 `x` wins, 2 `o` wins, 3 tie.
fn answers() -> &'static [u8] {
    static ANSWERS: OnceLock<Box<[u8]>> = OnceLock::new();
    ANSWERS.get_or_init(|| {
        let table = SolvedTable::get();
        (0..CODES)
            .map(|code| {
                let b = board(code);
                let to_move = if b.count(Mark::X) == b.count(Mark::O) {
                    Mark::X
                } else {
                    Mark::O
                };
                match table.entry_by_code(code).winner(to_move) {
                    None => CANNOT_OCCUR,
                    Some(Some(Mark::X)) => 1,
                    Some(Some(Mark::O)) => 2,
                    Some(None) => 3,
                }
            })
            .collect()
    })
}

/// Reads the cases from `input`, writes one answer line per case to `out`.
///
/// # Errors
///
/// A bad-input error naming the case and line for a malformed input or a board that cannot
/// occur; the answers before that case are written, nothing for it.
pub fn solve(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let answers = answers();
    let mut lines = Lines::new(input);
    Out::run(out, |out| {
        let cases = read_case_count(&mut lines)?;
        let mut case = 1;
        while case <= cases {
            case += fast_cases(&mut lines, out, answers, cases - case + 1)?;
            if case <= cases {
                slow_case(&mut lines, out, answers, case, cases)?;
                case += 1;
            }
        }
        lines.expect_end("the last case")
    })
}

/// Answers, in place in the input buffer, the cases that come as three bare rows of three
/// cells that can occur (the usual input), up to `limit` of them; returns how many. Anything
/// else, including a board that cannot occur, is left to [`slow_case`], which reports it.
#[inline]
fn fast_cases(
    lines: &mut Lines<'_>,
    out: &mut Out<'_>,
    answers: &[u8],
    limit: u64,
) -> Result<u64, Error> {
    const CASE: usize = 12; // "ccc\nccc\nccc\n"
    let buf = lines.buffered(CASE)?;
    let mut done = 0;
    for chunk in buf
        .chunks_exact(CASE)
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
    {
        if chunk[3] != b'\n' || chunk[7] != b'\n' || chunk[11] != b'\n' {
            break;
        }
        let mut code = 0;
        let mut any = 0;
        for &i in &[10, 9, 8, 6, 5, 4, 2, 1, 0] {
            let cell = CELLS.cell(chunk[i]);
            any |= cell;
            code = code * 3 + usize::from(cell);
        }
        if any == 0xff {
            break;
        }
        let answer = answers[code];
        if answer == CANNOT_OCCUR {
            break;
        }
        out.push(ANSWER_TEXT[usize::from(answer)])?;
        done += 1;
    }
    lines.advance(done * CASE, 3 * done as u64);
    Ok(done as u64)
}

/// Reads and answers one case line by line, with every check and error message.
fn slow_case(
    lines: &mut Lines<'_>,
    out: &mut Out<'_>,
    answers: &[u8],
    case: u64,
    cases: u64,
) -> Result<(), Error> {
    let (code, first_line) = read_case(lines, case, cases)?;
    let answer = answers[code];
    if answer == CANNOT_OCCUR {
        return Err(cannot_occur(code, case, first_line, lines.line_no()));
    }
    out.push(ANSWER_TEXT[usize::from(answer)])?;
    Ok(())
}

/// Reads the three rows of case `case`: the board's code and the line it starts on.
fn read_case(lines: &mut Lines<'_>, case: u64, cases: u64) -> Result<(usize, u64), Error> {
    let mut code = 0;
    let mut first_line = 0;
    for (row, weight) in ROW_WEIGHT.iter().enumerate() {
        let line = lines.next_nonblank()?.ok_or_else(|| {
            Error::input(format!(
                "case {case}: the input ends after {row} of its 3 rows ({cases} cases announced)"
            ))
        })?;
        if row == 0 {
            first_line = line.no;
        }
        let cells = CELLS
            .row::<3>(line.text, false)
            .map_err(|e| Error::input(format!("case {case}, line {}: {e}", line.no)))?;
        code += cells * weight;
    }
    Ok((code, first_line))
}

/// The error for a board that cannot occur, with the rule it breaks.
fn cannot_occur(code: usize, case: u64, first_line: u64, last_line: u64) -> Error {
    match check(board(code), Mark::X) {
        Err(reason) => Error::input(format!(
            "case {case}, lines {first_line}-{last_line}: the board cannot occur: {reason}"
        )),
        Ok(()) => Error::Internal("the table and the reachability rules disagree".into()),
    }
}

/// Why ply answers each case as it does: the board, the answer, and the value with its
/// remoteness for the side to move (or why the game is over).
///
/// Explains the first `limit` cases only (the rest of the input is not read).
///
/// # Errors
///
/// As [`solve`].
pub fn explain(input: &[u8], limit: usize) -> Result<Vec<String>, Error> {
    let mut reader = input;
    let mut lines = Lines::new(&mut reader);
    let cases = read_case_count(&mut lines)?;
    let mut why = Vec::new();
    for case in 1..=cases {
        if why.len() == limit {
            return Ok(why);
        }
        let (code, first_line) = read_case(&mut lines, case, cases)?;
        let pos = Position::new(board(code), Mark::X)
            .map_err(|_| cannot_occur(code, case, first_line, lines.line_no()))?;
        let answer = match pos.value().outcome {
            Outcome::Win => lower(pos.to_move()).to_string(),
            Outcome::Loss => lower(pos.to_move().other()).to_string(),
            Outcome::Draw => "TIE".to_string(),
        };
        why.push(format!(
            "case {case}: {} -> {answer}: {}",
            board_text(pos.board(), ['.', 'x', 'o']),
            describe(&pos, lower)
        ));
    }
    lines.expect_end("the last case")?;
    Ok(why)
}

/// A mark as this problem writes it.
fn lower(m: Mark) -> char {
    match m {
        Mark::X => 'x',
        Mark::O => 'o',
    }
}

/// The first non-blank line: the number of cases.
fn read_case_count(lines: &mut Lines<'_>) -> Result<u64, Error> {
    let line = lines
        .next_nonblank()?
        .ok_or_else(|| Error::input("the input is empty: expected the number of cases"))?;
    std::str::from_utf8(line.trimmed())
        .ok()
        .and_then(integer)
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| {
            Error::input(format!(
                "line {}: expected the number of cases, found {}",
                line.no,
                show(line.text)
            ))
        })
}

/// Writes `count` random boards that can occur (finished ones and the empty board included).
///
/// # Errors
///
/// A write error.
pub fn generate(count: usize, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
    let mut rng = SplitMix64::new(seed);
    writeln!(out, "{count}")?;
    for _ in 0..count {
        let length = match rng.below(8) {
            0 => Length::AtMost(0),
            1 | 2 => Length::ToTheEnd,
            _ => Length::AtMost(1 + rng.below(8)),
        };
        let pos = random_position(&mut rng, Mark::X, length);
        out.write_all(write_board(pos.board(), ['.', 'x', 'o'], "", "\n").as_bytes())?;
    }
    Ok(())
}
