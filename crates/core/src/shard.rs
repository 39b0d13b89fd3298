//! One share of a numbered list of jobs, for work split over machines: shard `I` of `N` takes
//! the jobs `k` with `k mod N = I`. Batch solves (`ply othello solve --shard I/N`, the lines
//! of an OBF file) and self-play data (`ply train gen --shard I/N`, the games of a set) both
//! split their work this way and read the same `I/N` spelling with the same errors.

use std::{fmt, str::FromStr};

/// Shard `index` of `count`: the jobs `k` (0-based) with `k % count == index`.
///
/// ```
/// use ply_core::Shard;
/// let s: Shard = "1/4".parse().unwrap();
/// assert_eq!((s.index, s.count), (1, 4));
/// assert_eq!(s.to_string(), "1/4");
/// assert!(s.holds(5) && !s.holds(6));
/// assert_eq!(s.share(10), 3); // jobs 1, 5 and 9
/// assert_eq!(s.nth(2), 9);
/// let e = "4/4".parse::<Shard>().unwrap_err();
/// assert_eq!(e.to_string(), "`4/4`: shard 4 of 4 does not exist (I runs from 0 to 3)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// All the jobs: shard 0 of 1.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`, when it exists.
    ///
    /// # Errors
    /// When `count` is 0 or `index` is not below it.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        let problem = if count == 0 {
            Problem::NoShards
        } else if index >= count {
            Problem::NoSuchShard { index, count }
        } else {
            return Ok(Shard { index, count });
        };
        Err(ShardError {
            input: None,
            problem,
        })
    }

    /// Whether job `k` (0-based) is this shard's.
    #[must_use]
    pub fn holds(self, k: u64) -> bool {
        k % u64::from(self.count) == u64::from(self.index)
    }

    /// How many of the jobs `0..total` are this shard's.
    #[must_use]
    pub fn share(self, total: u64) -> u64 {
        let (i, n) = (u64::from(self.index), u64::from(self.count));
        if total > i {
            (total - i).div_ceil(n)
        } else {
            0
        }
    }

    /// The number of the shard's `nth` job (both from 0).
    #[must_use]
    pub fn nth(self, nth: u64) -> u64 {
        u64::from(self.index) + nth * u64::from(self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N` with `0 <= I < N`, spaces allowed around either number.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let with_input = |problem| ShardError {
            input: Some(s.to_string()),
            problem,
        };
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| with_input(Problem::NotIOverN))?;
        let index = i
            .trim()
            .parse()
            .map_err(|_| with_input(Problem::NotIOverN))?;
        let count = n
            .trim()
            .parse()
            .map_err(|_| with_input(Problem::NotIOverN))?;
        Shard::new(index, count).map_err(|e| with_input(e.problem))
    }
}

impl fmt::Display for Shard {
    /// `I/N`, as [`Shard::from_str`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A shard that does not exist, or text that is not `I/N`; the message names the text read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError {
    input: Option<String>,
    problem: Problem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    NotIOverN,
    NoShards,
    NoSuchShard { index: u32, count: u32 },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = self.input.as_deref().unwrap_or_default();
        let at = if self.input.is_some() {
            format!("`{input}`: ")
        } else {
            String::new()
        };
        match self.problem {
            Problem::NotIOverN => write!(
                f,
                "`{input}` is not I/N (shard I of N shards, I from 0 to N-1)"
            ),
            Problem::NoShards => write!(f, "{at}there must be at least one shard"),
            Problem::NoSuchShard { index, count } => write!(
                f,
                "{at}shard {index} of {count} does not exist (I runs from 0 to {})",
                count - 1
            ),
        }
    }
}

impl std::error::Error for ShardError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_text_and_what_is_wrong() {
        let err = |s: &str| s.parse::<Shard>().unwrap_err().to_string();
        let form = "is not I/N (shard I of N shards, I from 0 to N-1)";
        assert_eq!(err("3"), format!("`3` {form}"));
        assert_eq!(err("a/2"), format!("`a/2` {form}"));
        assert_eq!(err("1/-2"), format!("`1/-2` {form}"));
        assert_eq!(err("0/0"), "`0/0`: there must be at least one shard");
        assert_eq!(
            err("2/2"),
            "`2/2`: shard 2 of 2 does not exist (I runs from 0 to 1)"
        );
        assert_eq!(
            Shard::new(2, 2).unwrap_err().to_string(),
            "shard 2 of 2 does not exist (I runs from 0 to 1)"
        );
        assert_eq!(" 1 / 3 ".parse(), Ok(Shard { index: 1, count: 3 }));
    }

    #[test]
    fn the_shards_split_the_jobs_between_them() {
        let total = 11;
        let shards: Vec<Shard> = (0..4).map(|i| Shard::new(i, 4).unwrap()).collect();
        for k in 0..total {
            assert_eq!(shards.iter().filter(|s| s.holds(k)).count(), 1, "job {k}");
        }
        for s in &shards {
            let mine: Vec<u64> = (0..total).filter(|&k| s.holds(k)).collect();
            assert_eq!(s.share(total), mine.len() as u64, "{s}");
            let nths: Vec<u64> = (0..s.share(total)).map(|n| s.nth(n)).collect();
            assert_eq!(nths, mine, "{s}");
        }
        assert_eq!(Shard::new(5, 9).unwrap().share(3), 0);
        assert!((0..7).all(|k| Shard::WHOLE.holds(k)));
    }
}
