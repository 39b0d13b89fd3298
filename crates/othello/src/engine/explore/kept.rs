//! The index kept beside its databases: whether a kept file is the index of these
//! databases, why it must be built again, and what a front end says of it once loaded
//! (`ply othello games index`, `explore`, `ply serve --games`).

use std::{io, time::Duration};

use super::{GamesIndex, Source, MAGIC};
use crate::text::plural;

/// What a kept index file holds for the databases it should index.
#[derive(Debug)]
pub enum Kept {
    /// Their index, up to date.
    Current(GamesIndex),
    /// Nothing usable: the index must be built (and the file written over); why.
    Stale(String),
    /// A file that is no index, not even a damaged one: not the index's to replace.
    NotAnIndex,
}

/// What the kept file `read` (its bytes, or the failure to read it) holds for the databases
/// of `sources`.
#[must_use]
pub fn check_kept(read: io::Result<Vec<u8>>, sources: &[Source]) -> Kept {
    let why = match read {
        Err(e) if e.kind() == io::ErrorKind::NotFound => "there was none".to_string(),
        Err(e) => format!("it could not be read: {e}"),
        Ok(bytes) if !bytes.starts_with(MAGIC) && !MAGIC.starts_with(&bytes) => {
            return Kept::NotAnIndex
        }
        Ok(bytes) => match GamesIndex::read(bytes) {
            Ok(found) if found.is_for(sources) => return Kept::Current(found),
            Ok(_) => "it was built from other databases (or older versions of these)".into(),
            Err(e) => format!("it is damaged: {e}"),
        },
    };
    Kept::Stale(why)
}

impl GamesIndex {
    /// The line a front end leaves after building the index into `path` (`why`: the kept
    /// file's reason, `took`: the build's time), or after failing to write it there
    /// (`unwritten`: the failure).
    #[must_use]
    pub fn built_note(
        &self,
        path: &str,
        why: &str,
        took: Duration,
        unwritten: Option<&str>,
    ) -> String {
        match unwritten {
            None => format!(
                "indexed {} games ({} entries) in {:.1} s into {path} ({why})",
                self.games(),
                self.entries(),
                took.as_secs_f64()
            ),
            Some(e) => format!(
                "indexed {} games in {:.1} s; could not keep the index at {path}: {e}",
                self.games(),
                took.as_secs_f64()
            ),
        }
    }

    /// The index kept at `path`, of `databases` files, as `ply othello games index` says
    /// it: up to date, or built in `built` seconds; its games, entries and bytes.
    #[must_use]
    pub fn summary(&self, path: &str, databases: usize, built: Option<f64>) -> String {
        format!(
            "{path}: {}: {} in {}, {} entries, {} bytes{}",
            state(built),
            plural(usize::try_from(self.games()).unwrap_or(usize::MAX), "game"),
            plural(databases, "database"),
            self.entries(),
            self.as_bytes().len(),
            built.map_or(String::new(), |s| format!(", built in {s:.2} s"))
        )
    }

    /// [`GamesIndex::summary`] as one JSON object.
    #[cfg(feature = "serde")]
    #[must_use]
    pub fn summary_json(
        &self,
        path: &str,
        databases: usize,
        built: Option<f64>,
    ) -> serde_json::Value {
        serde_json::json!({
            "index": path,
            "state": state(built),
            "databases": databases,
            "games": self.games(),
            "entries": self.entries(),
            "bytes": self.as_bytes().len(),
            "build_seconds": built,
        })
    }
}

/// `built` or `up to date`.
fn state(built: Option<f64>) -> &'static str {
    if built.is_some() {
        "built"
    } else {
        "up to date"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A missing, foreign, damaged or current file is told apart.
    #[test]
    fn a_kept_file_is_current_stale_or_not_an_index() {
        let index = GamesIndex::build(&[]).unwrap();
        let missing = io::Error::new(io::ErrorKind::NotFound, "gone");
        assert!(matches!(check_kept(Err(missing), &[]), Kept::Stale(w) if w == "there was none"));
        assert!(matches!(
            check_kept(Ok(b"WTHOR...".to_vec()), &[]),
            Kept::NotAnIndex
        ));
        assert!(
            matches!(check_kept(Ok(b"plyin".to_vec()), &[]), Kept::Stale(w) if w.starts_with("it is damaged"))
        );
        let bytes = index.as_bytes().to_vec();
        assert!(matches!(
            check_kept(Ok(bytes.clone()), &[]),
            Kept::Current(_)
        ));
        let other = [Source::of(b"other")];
        assert!(
            matches!(check_kept(Ok(bytes), &other), Kept::Stale(w) if w.starts_with("it was built from other"))
        );
        assert_eq!(
            index.summary("i.plyidx", 0, None),
            format!(
                "i.plyidx: up to date: 0 games in 0 databases, {} entries, {} bytes",
                index.entries(),
                index.as_bytes().len()
            )
        );
        assert!(index
            .summary("i", 1, Some(0.5))
            .ends_with(", built in 0.50 s"));
    }
}
