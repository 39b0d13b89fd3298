//! `ply judge swea-4615`: place discs on a 4x4, 6x6 or 8x8 board and count them.
//!
//! Input: `T`, then per case `N M` and `M` moves `col row color` (1-based, `1` black, `2`
//! white). Output per case: `#t black white`. The problem does not enforce turns: a move is
//! accepted when it is legal for the colour it names, whoever moved last. Any move that is not
//! legal (taken square, no disc turned, bad colour, off the board) is bad input naming the case,
//! the move and its line; the answers of the cases before it are already written, and nothing
//! of the bad case is. Numbers are an optional `-` and digits (`+3` is an error); they are
//! read as whitespace-separated tokens, so a case may wrap across lines.

use std::io::{BufRead, Write};

use ply_core::SplitMix64;
use ply_othello::{Bitboard, BoardSize, Color, PlayError, Position, Square};

use crate::{stream::integer, Error};

/// Whitespace-separated tokens with the line each came from.
struct Tokens {
    items: Vec<(usize, String)>,
    at: usize,
    last_line: usize,
}

impl Tokens {
    fn new(text: &str) -> Tokens {
        let mut items = Vec::new();
        let mut last_line = 1;
        for (i, line) in text.lines().enumerate() {
            last_line = i + 1;
            for w in line.split_whitespace() {
                items.push((i + 1, w.to_owned()));
            }
        }
        Tokens {
            items,
            at: 0,
            last_line,
        }
    }

    /// The next token read as a whole number, or an error naming `what` and where.
    fn number(&mut self, what: &str, place: &str) -> Result<(usize, i64), Error> {
        let Some((line, word)) = self.items.get(self.at) else {
            return Err(Error::input(format!(
                "{place}line {}: the input ends where {what} was expected",
                self.last_line
            )));
        };
        self.at += 1;
        let n = integer(word).ok_or_else(|| {
            Error::input(format!(
                "{place}line {line}: expected {what} (a whole number), found `{}`",
                word.escape_debug()
            ))
        })?;
        Ok((*line, n))
    }
}

/// Reads the whole input and writes one answer line per case.
pub fn solve(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    each_case(&bytes, usize::MAX, |case, end| {
        writeln!(out, "#{case} {} {}", end.black.count(), end.white.count())?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// Why ply answers each case as it does: the board after the moves, drawn.
///
/// Explains the first `limit` cases only (the rest of the input is not read).
///
/// # Errors
///
/// As [`solve`].
pub fn explain(input: &[u8], limit: usize) -> Result<Vec<String>, Error> {
    let mut why = Vec::new();
    each_case(input, limit, |case, end| {
        let n = end.size.n();
        let mut text = format!(
            "case {case}: -> #{case} {} {}: after {} moves the {n}x{n} board is \
             (row 1 first, column 1 left; 1 black, 2 white, . empty):",
            end.black.count(),
            end.white.count(),
            end.moves
        );
        for row in 0..n {
            text.push_str("\n    ");
            for col in 0..n {
                let sq = Square::new(col, row).expect("on the board");
                text.push(if end.black.contains(sq) {
                    '1'
                } else if end.white.contains(sq) {
                    '2'
                } else {
                    '.'
                });
            }
        }
        why.push(text);
        Ok(())
    })?;
    Ok(why)
}

/// A case played out.
struct End {
    size: BoardSize,
    moves: i64,
    black: Bitboard,
    white: Bitboard,
}

/// Reads the input and calls `f` with each case played out, in order; stops after `limit`
/// cases (then the rest of the input is not read).
fn each_case(
    bytes: &[u8],
    limit: usize,
    mut f: impl FnMut(i64, End) -> Result<(), Error>,
) -> Result<(), Error> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "the input is not UTF-8 text (byte {})",
            e.valid_up_to()
        ))
    })?;
    let mut tokens = Tokens::new(text);
    let (line, t) = tokens.number("the number of cases T", "")?;
    if t < 0 {
        return Err(Error::input(format!(
            "line {line}: the number of cases must not be negative, found {t}"
        )));
    }
    for case in 1..=t {
        if usize::try_from(case).is_ok_and(|c| c > limit) {
            return Ok(());
        }
        f(case, solve_case(&mut tokens, case)?)?;
    }
    if let Some((line, word)) = tokens.items.get(tokens.at) {
        return Err(Error::input(format!(
            "line {line}: unexpected `{}` after the last of the {t} cases",
            word.escape_debug()
        )));
    }
    Ok(())
}

/// Plays one case.
fn solve_case(tokens: &mut Tokens, case: i64) -> Result<End, Error> {
    let place = format!("case {case}, ");
    let (line, n) = tokens.number("the board size N", &place)?;
    let size = u8::try_from(n)
        .ok()
        .and_then(BoardSize::from_n)
        .ok_or_else(|| {
            Error::input(format!(
                "{place}line {line}: board size N must be 4, 6 or 8, found {n}"
            ))
        })?;
    let (line, m) = tokens.number("the number of moves M", &place)?;
    if m < 0 {
        return Err(Error::input(format!(
            "{place}line {line}: the number of moves must not be negative, found {m}"
        )));
    }
    let start = Position::start(size);
    let (mut black, mut white) = (start.discs(Color::Black), start.discs(Color::White));
    for k in 1..=m {
        let what = format!("{place}move {k} of {m}, ");
        let (line, col) = tokens.number("the column", &what)?;
        let (_, row) = tokens.number("the row", &what)?;
        let (_, color) = tokens.number("the colour (1 or 2)", &what)?;
        let here = format!("{what}line {line} (`{col} {row} {color}`): ");
        let color = match color {
            1 => Color::Black,
            2 => Color::White,
            c => {
                return Err(Error::input(format!(
                    "{here}the colour must be 1 (black) or 2 (white), not {c}"
                )))
            }
        };
        let on = |v: i64| (1..=i64::from(size.n())).contains(&v);
        if !on(col) || !on(row) {
            return Err(Error::input(format!(
                "{here}({col}, {row}) is off the {n}x{n} board (columns and rows 1..={n})",
                n = size.n()
            )));
        }
        let sq = Square::new((col - 1) as u8, (row - 1) as u8).expect("checked range");
        let pos = Position::from_discs(black, white, color, size)
            .map_err(|e| Error::Internal(e.to_string()))?;
        let next = pos.play(sq).map_err(|e| {
            let who = if color == Color::Black {
                "black"
            } else {
                "white"
            };
            match e {
                PlayError::NoFlip(_) => Error::input(format!(
                    "{here}{sq} is not a legal move for {who}: it turns no disc"
                )),
                e => Error::input(format!("{here}{e}")),
            }
        })?;
        black = next.discs(Color::Black);
        white = next.discs(Color::White);
    }
    Ok(End {
        size,
        moves: m,
        black,
        white,
    })
}

/// Writes a random valid input of `count` cases, reproducible from `seed`: each case is a
/// game of random legal moves, usually alternating, sometimes the same colour twice in a row
/// (legal here since the problem does not enforce turns), stopped at a random length.
pub fn generate(count: usize, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
    let mut rng = SplitMix64::new(seed);
    writeln!(out, "{count}")?;
    for _ in 0..count {
        let size = [BoardSize::Four, BoardSize::Six, BoardSize::Eight][rng.below(3)];
        let max = size.squares() as usize - 4;
        let target = rng.below(max + 1);
        let start = Position::start(size);
        let (mut black, mut white) = (start.discs(Color::Black), start.discs(Color::White));
        let mut last = Color::White;
        let mut moves = Vec::new();
        while moves.len() < target {
            let legal = |c: Color, b: Bitboard, w: Bitboard| {
                Position::from_discs(b, w, c, size)
                    .expect("discs stay on the board")
                    .legal_moves()
            };
            let preferred = if rng.below(8) == 0 {
                last
            } else {
                last.other()
            };
            let color = if !legal(preferred, black, white).is_empty() {
                preferred
            } else if !legal(preferred.other(), black, white).is_empty() {
                preferred.other()
            } else {
                break;
            };
            let options: Vec<Square> = legal(color, black, white).collect();
            let sq = options[rng.below(options.len())];
            let next = Position::from_discs(black, white, color, size)
                .expect("discs stay on the board")
                .play_unchecked(sq);
            black = next.discs(Color::Black);
            white = next.discs(Color::White);
            last = color;
            moves.push((sq, color));
        }
        writeln!(out, "{} {}", size.n(), moves.len())?;
        for (sq, color) in moves {
            let c = if color == Color::Black { 1 } else { 2 };
            writeln!(out, "{} {} {c}", sq.col() + 1, sq.row() + 1)?;
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, Error> {
        let mut out = Vec::new();
        solve(&mut input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_design_sample() {
        let input = "1\n4 12\n1 2 1\n1 1 2\n4 3 1\n4 4 2\n2 1 1\n4 2 2\n3 4 1\n1 3 2\n2 4 1\n1 4 2\n4 1 2\n3 1 2\n";
        assert_eq!(run(input).unwrap(), "#1 0 16\n");
    }

    #[test]
    fn generated_inputs_are_solved_without_error() {
        for seed in 0..20 {
            let mut input = Vec::new();
            generate(5, seed, &mut input).unwrap();
            let input = String::from_utf8(input).unwrap();
            let answer = run(&input).unwrap();
            assert_eq!(answer.lines().count(), 5);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::with_cases(400)
        })]

        #[test]
        fn any_text_is_answered_or_rejected_as_bad_input(s in "[0-9 \n-]{0,60}|.{0,40}") {
            let mut out = Vec::new();
            if let Err(e) = solve(&mut s.as_bytes(), &mut out) {
                proptest::prop_assert!(matches!(e, Error::Input(_)), "{e:#}");
            }
        }

        #[test]
        fn damaged_generated_inputs_never_panic(seed in 0u64..1000, cut in 0usize..400, junk in "[0-9a-z -]{0,3}") {
            let mut input = Vec::new();
            generate(3, seed, &mut input).unwrap();
            let mut text = String::from_utf8(input).unwrap();
            let cut = cut.min(text.len());
            text.insert_str(cut, &junk);
            let mut out = Vec::new();
            if let Err(e) = solve(&mut text.as_bytes(), &mut out) {
                proptest::prop_assert!(matches!(e, Error::Input(_)), "{e:#}");
            }
        }
    }
}
