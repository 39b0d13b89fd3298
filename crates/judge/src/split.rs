//! Inputs cut into their cases: one standalone, valid input per case, so that the stress
//! tester can look for the single case a program gets wrong and `gen --case K` can write it.
//!
//! Each function takes an input in its problem's format (as the generators write it) and
//! returns `None` when the input is not in that format.

use crate::stream::integer;

/// Lines of `input`, without their ends.
fn lines(input: &[u8]) -> Option<Vec<&str>> {
    let text = std::str::from_utf8(input).ok()?;
    Some(text.lines().collect())
}

/// `C` then cases of lines, each case's line count given by `case_lines` from its first line;
/// every case is written back as an input of its own, `1` first.
fn counted(input: &[u8], case_lines: impl Fn(&str) -> Option<usize>) -> Option<Vec<Vec<u8>>> {
    let lines = lines(input)?;
    let (head, mut rest) = lines.split_first()?;
    let count = usize::try_from(integer(head.trim())?).ok()?;
    let mut cases = Vec::with_capacity(count);
    for _ in 0..count {
        let n = case_lines(rest.first()?)?;
        if rest.len() < n {
            return None;
        }
        let (case, tail) = rest.split_at(n);
        let mut one = b"1\n".to_vec();
        for l in case {
            one.extend_from_slice(l.as_bytes());
            one.push(b'\n');
        }
        cases.push(one);
        rest = tail;
    }
    Some(cases)
}

/// algospot-tictactoe: `C`, then 3 lines per case.
pub fn algospot(input: &[u8]) -> Option<Vec<Vec<u8>>> {
    counted(input, |_| Some(3))
}

/// swea-4615: `T`, then per case `N M` and M lines of moves.
pub fn swea(input: &[u8]) -> Option<Vec<Vec<u8>>> {
    counted(input, |first| {
        let m = usize::try_from(integer(first.split_whitespace().nth(1)?)?).ok()?;
        m.checked_add(1)
    })
}

/// boj-7682: one board a line, then `end`.
pub fn boj7682(input: &[u8]) -> Option<Vec<Vec<u8>>> {
    let lines = lines(input)?;
    let end = lines.iter().position(|l| l.trim() == "end")?;
    Some(
        lines[..end]
            .iter()
            .map(|l| format!("{l}\nend\n").into_bytes())
            .collect(),
    )
}

/// ttt-finals: one board a line.
pub fn one_per_line(input: &[u8]) -> Option<Vec<Vec<u8>>> {
    let lines = lines(input)?;
    Some(
        lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{l}\n").into_bytes())
            .collect(),
    )
}

/// boj-16571: the input is its one case.
pub fn whole(input: &[u8]) -> Option<Vec<Vec<u8>>> {
    Some(vec![input.to_vec()])
}
