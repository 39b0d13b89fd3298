//! What a person asks an analysis for, checked in one place: the CLI's `analyze`, `review`
//! and `explore`, the API's analyze and explore endpoints and Python's `analyze` read their
//! arguments into a [`Request`], and [`Request::options`] either names the bad field or
//! gives the engine's [`Options`]. The limits are here once, so the front ends agree on
//! them and on their messages; each front end only spells the field its own way (`--threads`
//! on the command line, `threads` in a query or a keyword argument).

use std::{fmt, sync::Arc, time::Duration};

use super::Options;
use crate::{book::Book, spine::MAX_THREADS, BoardSize};

/// The longest time an analysis may be given, in seconds (a day).
pub const MAX_TIME_S: f64 = 86_400.0;
/// The deepest midgame search an analysis may ask for.
pub const MAX_DEPTH: u32 = 64;

/// An analysis as a person asks for it, before checking.
///
/// ```
/// use ply_othello::{analyze::Request, BoardSize};
/// let req = Request { depth: Some(0), ..Request::default() };
/// assert_eq!(req.options(BoardSize::Eight).unwrap_err().to_string(), "depth 0: expected 1 to 64");
/// let opts = Request { threads: 4, ..Request::default() }.options(BoardSize::Eight).unwrap();
/// assert_eq!((opts.threads, opts.budget), (4, Some(std::time::Duration::from_secs(1))));
/// ```
#[derive(Clone, Debug)]
pub struct Request {
    /// Seconds to think; with neither this nor [`Request::depth`], one second.
    pub time: Option<f64>,
    /// The midgame engine's depth instead of a clock (the solver takes over where it reaches
    /// the end of the game).
    pub depth: Option<u32>,
    /// Threads, 1 to [`MAX_THREADS`].
    pub threads: usize,
    /// Answer from an opening book where it knows the position.
    pub book: bool,
    /// The book to answer from in place of the shipped one; it must be of the position's
    /// size.
    pub book_file: Option<Arc<Book>>,
    /// Let the exact solver take over near the end.
    pub solver: bool,
    /// Score every move; `false` for the best move only.
    pub all_moves: bool,
}

impl Default for Request {
    /// One second, one thread, the shipped book, the solver, every move.
    fn default() -> Request {
        Request {
            time: None,
            depth: None,
            threads: 1,
            book: true,
            book_file: None,
            solver: true,
            all_moves: true,
        }
    }
}

/// The field of a [`Request`] that is out of its range, with the value given. Shown as
/// `threads 0: expected 1 to 256`: the field as Python and the API spell it (the command
/// line puts `--` before it).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum RequestError {
    /// Both a time and a depth.
    TimeAndDepth,
    /// A time that is not more than 0 and at most [`MAX_TIME_S`] seconds (or not a number).
    Time(f64),
    /// A depth outside 1 to [`MAX_DEPTH`].
    Depth(u32),
    /// Threads outside 1 to [`MAX_THREADS`].
    Threads(usize),
    /// A book of another size than the position's.
    Book {
        /// The book's size.
        book: BoardSize,
        /// The position's size.
        position: BoardSize,
    },
}

impl RequestError {
    /// The field at fault: `time`, `depth`, `threads` or `book`.
    #[must_use]
    pub fn field(&self) -> &'static str {
        match self {
            RequestError::TimeAndDepth | RequestError::Time(_) => "time",
            RequestError::Depth(_) => "depth",
            RequestError::Threads(_) => "threads",
            RequestError::Book { .. } => "book",
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RequestError::TimeAndDepth => {
                f.write_str("time and depth: give one or the other, not both")
            }
            RequestError::Time(t) => write!(
                f,
                "time {t}: expected more than 0 and at most {MAX_TIME_S} seconds"
            ),
            RequestError::Depth(d) => write!(f, "depth {d}: expected 1 to {MAX_DEPTH}"),
            RequestError::Threads(n) => write!(f, "threads {n}: expected 1 to {MAX_THREADS}"),
            RequestError::Book { book, position } => {
                let (n, m) = (book.n(), position.n());
                // "an 8x8", "a 6x6": the article of the number as it is read.
                let article = if n == 8 { "an" } else { "a" };
                write!(f, "book: {article} {n}x{n} book, the position is {m}x{m}")
            }
        }
    }
}

impl std::error::Error for RequestError {}

impl Request {
    /// Checks every field for a position of `size`, the first bad one named.
    ///
    /// # Errors
    /// The first [`RequestError`], in the order time and depth, threads, book.
    pub fn validate(&self, size: BoardSize) -> Result<(), RequestError> {
        match (self.time, self.depth) {
            (Some(_), Some(_)) => return Err(RequestError::TimeAndDepth),
            (Some(t), None) if !(t > 0.0 && t <= MAX_TIME_S) => return Err(RequestError::Time(t)),
            (None, Some(d)) if !(1..=MAX_DEPTH).contains(&d) => return Err(RequestError::Depth(d)),
            _ => {}
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(RequestError::Threads(self.threads));
        }
        if let Some(book) = &self.book_file {
            if book.size() != size {
                return Err(RequestError::Book {
                    book: book.size(),
                    position: size,
                });
            }
        }
        Ok(())
    }

    /// The engine's options for a position of `size`, once [`Request::validate`] passes.
    ///
    /// # Errors
    /// As [`Request::validate`].
    pub fn options(&self, size: BoardSize) -> Result<Options, RequestError> {
        self.validate(size)?;
        let base = match (self.time, self.depth) {
            (_, Some(d)) => Options::depth(d),
            (Some(t), None) => Options::budget(Duration::from_secs_f64(t)),
            (None, None) => Options::budget(Duration::from_secs(1)),
        };
        Ok(Options {
            threads: self.threads,
            book: self.book,
            book_file: self.book_file.clone(),
            solver: self.solver,
            all_moves: self.all_moves,
            ..base
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(req: Request) -> RequestError {
        req.options(BoardSize::Eight).unwrap_err()
    }

    #[test]
    fn each_bad_field_is_named_with_its_value() {
        let t = |time, depth| Request {
            time,
            depth,
            ..Request::default()
        };
        assert_eq!(refused(t(Some(1.0), Some(5))), RequestError::TimeAndDepth);
        for bad in [0.0, -1.0, 86_400.5, f64::INFINITY] {
            assert_eq!(refused(t(Some(bad), None)), RequestError::Time(bad));
        }
        assert!(matches!(refused(t(Some(f64::NAN), None)), RequestError::Time(x) if x.is_nan()));
        for bad in [0, 65] {
            assert_eq!(refused(t(None, Some(bad))), RequestError::Depth(bad));
        }
        for bad in [0, MAX_THREADS + 1, 300] {
            let e = refused(Request {
                threads: bad,
                ..Request::default()
            });
            assert_eq!((e, e.field()), (RequestError::Threads(bad), "threads"));
        }
        assert_eq!(
            refused(Request {
                threads: 300,
                ..Request::default()
            })
            .to_string(),
            "threads 300: expected 1 to 256"
        );
    }

    #[test]
    fn a_book_of_another_size_is_refused_and_one_of_the_same_size_kept() {
        let book = Arc::new(Book::builtin(BoardSize::Six).expect("the 6x6 book").clone());
        let req = Request {
            book_file: Some(book),
            ..Request::default()
        };
        let e = req.options(BoardSize::Eight).unwrap_err();
        assert_eq!(e.to_string(), "book: a 6x6 book, the position is 8x8");
        assert!(req.options(BoardSize::Six).unwrap().book_file.is_some());
    }

    #[test]
    fn the_limits_themselves_are_accepted() {
        for (time, depth) in [
            (Some(MAX_TIME_S), None),
            (Some(0.001), None),
            (None, Some(1)),
        ] {
            let req = Request {
                time,
                depth,
                threads: MAX_THREADS,
                solver: false,
                all_moves: false,
                book: false,
                ..Request::default()
            };
            let o = req.options(BoardSize::Four).unwrap();
            assert_eq!(o.threads, MAX_THREADS);
            assert!(!o.solver && !o.all_moves && !o.book);
            assert_eq!(o.depth, depth.or(Some(u32::MAX)));
        }
    }
}
