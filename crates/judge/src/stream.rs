//! Streaming input and output for the judge adapters.
//!
//! Inputs may be a gigabyte of boards, so nothing reads the whole input: [`Lines`] hands out
//! one line at a time from a fixed buffer (a line longer than [`MAX_LINE`] is an error, which
//! keeps memory flat whatever the input), and [`Out`] gathers answers in a buffer written out
//! in large blocks. Answers of finished cases are flushed before an error is returned, so the
//! output holds every answer before the bad case and nothing of it.

use std::io::{self, BufRead, Write};

use crate::Error;

/// The longest line the judges accept, in bytes.
pub const MAX_LINE: usize = 1 << 16;
const BUFFER: usize = 2 * MAX_LINE;

/// One line of input, without its line ending.
#[derive(Debug)]
pub struct Line<'a> {
    /// Its number, from 1.
    pub no: u64,
    /// Its bytes, without `\n` or `\r\n`.
    pub text: &'a [u8],
}

impl Line<'_> {
    /// The text without leading and trailing whitespace.
    pub fn trimmed(&self) -> &[u8] {
        self.text.trim_ascii()
    }
}

/// Reads lines from a `BufRead` through one fixed buffer.
pub struct Lines<'a> {
    input: &'a mut dyn BufRead,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
    no: u64,
}

impl<'a> Lines<'a> {
    /// Lines of `input`.
    pub fn new(input: &'a mut dyn BufRead) -> Lines<'a> {
        Lines {
            input,
            buf: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            no: 0,
        }
    }

    /// The number of the last line handed out (0 before the first).
    pub fn line_no(&self) -> u64 {
        self.no
    }

    /// The next line, or `None` at the end of the input (the judges skip blank lines with
    /// [`Lines::next_nonblank`]; this one is for the tests).
    ///
    /// # Errors
    ///
    /// A read error, or a bad-input error for a line longer than [`MAX_LINE`].
    #[cfg(test)]
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, Error> {
        Ok(self.next_span()?.map(|(no, start, len)| Line {
            no,
            text: &self.buf[start..start + len],
        }))
    }

    /// The next line that is not blank, or `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// As [`Lines::next_line`].
    pub fn next_nonblank(&mut self) -> Result<Option<Line<'_>>, Error> {
        loop {
            match self.next_span()? {
                None => return Ok(None),
                Some((no, start, len)) => {
                    let text = &self.buf[start..start + len];
                    if !text.iter().all(u8::is_ascii_whitespace) {
                        return Ok(Some(Line {
                            no,
                            text: &self.buf[start..start + len],
                        }));
                    }
                }
            }
        }
    }

    /// The next line as (number, start in the buffer, length), valid until the next call.
    #[inline]
    fn next_span(&mut self) -> Result<Option<(u64, usize, usize)>, Error> {
        loop {
            if let Some(len) = self.buf[self.start..self.end]
                .iter()
                .position(|&b| b == b'\n')
            {
                return Ok(Some(self.take(len, len + 1)));
            }
            if self.end - self.start > MAX_LINE {
                return Err(Error::input(format!(
                    "line {}: longer than {MAX_LINE} bytes",
                    self.no + 1
                )));
            }
            if self.eof {
                let len = self.end - self.start;
                return Ok((len > 0).then(|| self.take(len, len)));
            }
            self.fill()?;
        }
    }

    /// The buffered input, at least `want` bytes of it unless the input ends first: for a
    /// caller that scans many short lines in place and then calls [`Lines::advance`].
    ///
    /// # Errors
    ///
    /// A read error.
    pub fn buffered(&mut self, want: usize) -> Result<&[u8], Error> {
        debug_assert!(want <= MAX_LINE);
        while self.end - self.start < want && !self.eof {
            self.fill()?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    /// Skips `bytes` of buffered input holding exactly `lines` line endings.
    pub fn advance(&mut self, bytes: usize, lines: u64) {
        debug_assert!(bytes <= self.end - self.start);
        debug_assert_eq!(
            self.buf[self.start..self.start + bytes]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64,
            lines
        );
        self.start += bytes;
        self.no += lines;
    }

    /// Fails if anything but blank lines is left.
    ///
    /// # Errors
    ///
    /// A bad-input error naming the first line with text on it.
    pub fn expect_end(&mut self, what: &str) -> Result<(), Error> {
        match self.next_nonblank()? {
            None => Ok(()),
            Some(line) => Err(Error::input(format!(
                "line {}: unexpected text after {what}: {}",
                line.no,
                show(line.text)
            ))),
        }
    }

    #[inline]
    fn take(&mut self, len: usize, consumed: usize) -> (u64, usize, usize) {
        let start = self.start;
        let len = if len > 0 && self.buf[start + len - 1] == b'\r' {
            len - 1
        } else {
            len
        };
        self.start += consumed;
        self.no += 1;
        (self.no, start, len)
    }

    fn fill(&mut self) -> Result<(), Error> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// Answers gathered in a buffer and written in large blocks.
pub struct Out<'a> {
    out: &'a mut dyn Write,
    buf: Vec<u8>,
}

impl<'a> Out<'a> {
    /// An output to `out`.
    pub fn new(out: &'a mut dyn Write) -> Out<'a> {
        Out {
            out,
            buf: Vec::with_capacity(BUFFER),
        }
    }

    /// Adds bytes, writing the buffer out when it is full.
    ///
    /// # Errors
    ///
    /// A write error.
    #[inline]
    pub fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BUFFER - MAX_LINE {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes out what is buffered and flushes.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }

    /// Runs `body`, then writes out every answer it pushed, also when it fails: the answers
    /// of the cases before a bad one are kept, and the bad one has pushed nothing.
    ///
    /// # Errors
    ///
    /// The error of `body`, else a write error.
    pub fn run(
        out: &'a mut dyn Write,
        body: impl FnOnce(&mut Out<'a>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut o = Out::new(out);
        let result = body(&mut o);
        let flushed = o.flush();
        result?;
        Ok(flushed?)
    }
}

/// A whole number as the statements write one: an optional `-` and ASCII digits, nothing
/// else (`+3`, `3.0`, `0x3` and ` 3` are not numbers); `None` also when it does not fit an
/// `i64`.
pub fn integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A line or a byte as text for an error message: printable ASCII as it is, the rest escaped,
/// cut after 40 characters.
pub fn show(text: &[u8]) -> String {
    let mut s: String = text.iter().take(40).map(|&b| show_byte(b)).collect();
    if text.len() > 40 {
        s.push('…');
    }
    format!("\"{s}\"")
}

/// One byte as text for an error message.
pub fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() || b == b' ' {
        char::from(b).to_string()
    } else {
        format!("\\x{b:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(input: &[u8]) -> Result<Vec<(u64, Vec<u8>)>, Error> {
        let mut reader = input;
        let mut lines = Lines::new(&mut reader);
        let mut got = Vec::new();
        while let Some(l) = lines.next_line()? {
            got.push((l.no, l.text.to_vec()));
        }
        Ok(got)
    }

    #[test]
    fn splits_lines_and_endings() {
        let got = all_lines(b"a\r\nbb\n\nccc").unwrap();
        let want: Vec<(u64, Vec<u8>)> = vec![
            (1, b"a".to_vec()),
            (2, b"bb".to_vec()),
            (3, b"".to_vec()),
            (4, b"ccc".to_vec()),
        ];
        assert_eq!(got, want);
        assert!(all_lines(b"").unwrap().is_empty());
    }

    #[test]
    fn lines_across_buffer_refills() {
        let mut input = Vec::new();
        for i in 0..50_000 {
            input.extend_from_slice(format!("{i}\n").as_bytes());
        }
        let got = all_lines(&input).unwrap();
        assert_eq!(got.len(), 50_000);
        assert_eq!(got[49_999], (50_000, b"49999".to_vec()));
    }

    #[test]
    fn integers_are_strict() {
        assert_eq!(integer("42"), Some(42));
        assert_eq!(integer("-7"), Some(-7));
        assert_eq!(integer("007"), Some(7));
        for bad in [
            "+3",
            "",
            "-",
            " 3",
            "3 ",
            "3.0",
            "0x3",
            "--3",
            "99999999999999999999",
        ] {
            assert_eq!(integer(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_overlong_line_is_bad_input() {
        let input = vec![b'x'; MAX_LINE + 10];
        let err = all_lines(&input).unwrap_err();
        assert!(err.to_string().starts_with("line 1: longer than"), "{err}");
    }
}
