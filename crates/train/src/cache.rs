//! The exact scores that `train-eval`'s fit has solved, kept in a file between runs.

use std::{
    collections::HashMap,
    fs::{File, OpenOptions},
    io::{Read, Write},
    path::{Path, PathBuf},
};

use ply_othello::BoardSize;

/// Exact scores solved before, kept in a file, so that training again (another ridge, more
/// games) does not solve the same positions again. The scores are exact, so the weights come
/// out the same with or without it.
///
/// The file is a header line (`ply exact labels v1 size N`) and then 17-byte records: the
/// side to move's discs and the other side's (little-endian `u64`s) and the exact score
/// (`i8`). A torn last record (a killed run) is dropped; anything else wrong is an error that
/// names the file and the record.
#[derive(Debug)]
pub struct ExactCache {
    path: PathBuf,
    known: HashMap<(u64, u64), i8>,
    file: File,
}

const RECORD: usize = 17;

fn cache_header(size: BoardSize) -> String {
    format!("ply exact labels v1 size {}\n", size.n())
}

impl ExactCache {
    /// Opens the cache of `size` at `path`, creating it when missing.
    ///
    /// # Errors
    /// When the file cannot be read or written, is another size's or not a cache at all, or
    /// holds a record that is not a position of `size` with a possible score.
    pub fn open(path: &Path, size: BoardSize) -> Result<ExactCache, String> {
        let name = path.display();
        let header = cache_header(size);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("{name}: {e}"))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("{name}: {e}"))?;
        if bytes.is_empty() {
            file.write_all(header.as_bytes())
                .map_err(|e| format!("{name}: {e}"))?;
        } else if !bytes.starts_with(header.as_bytes()) {
            let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
            return Err(format!(
                "{name}: not an exact-label cache of {n}x{n} (it starts `{}`, expected `{}`)",
                String::from_utf8_lossy(&first[..first.len().min(40)]),
                header.trim_end(),
                n = size.n()
            ));
        }
        let body = &bytes[header.len().min(bytes.len())..];
        let whole = body.len() / RECORD * RECORD;
        if whole != body.len() {
            // A torn record at the end: cut it off so the next append starts clean.
            file.set_len((header.len() + whole) as u64)
                .map_err(|e| format!("{name}: {e}"))?;
        }
        let mask = size.mask().0;
        let mut known = HashMap::with_capacity(whole / RECORD);
        for (k, rec) in body[..whole].chunks_exact(RECORD).enumerate() {
            let p = u64::from_le_bytes(rec[0..8].try_into().expect("8 bytes"));
            let o = u64::from_le_bytes(rec[8..16].try_into().expect("8 bytes"));
            let score = rec[16] as i8;
            let squares = size.squares() as i8;
            if p & o != 0 || (p | o) & !mask != 0 || !(-squares..=squares).contains(&score) {
                return Err(format!(
                    "{name}: record {} is not a {n}x{n} position with a score (discs {p:#x} and {o:#x}, score {score})",
                    k + 1,
                    n = size.n()
                ));
            }
            known.insert((p, o), score);
        }
        Ok(ExactCache {
            path: path.to_path_buf(),
            known,
            file,
        })
    }

    /// How many scores the cache holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether the cache holds no score.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The exact score of the position (`p` to move against `o`), when known.
    #[must_use]
    pub fn get(&self, p: u64, o: u64) -> Option<i8> {
        self.known.get(&(p, o)).copied()
    }

    /// Adds scores and writes them to the file.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn add(&mut self, scores: &[(u64, u64, i8)]) -> Result<(), String> {
        let mut buf = Vec::with_capacity(scores.len() * RECORD);
        for &(p, o, score) in scores {
            if self.known.insert((p, o), score).is_none() {
                buf.extend_from_slice(&p.to_le_bytes());
                buf.extend_from_slice(&o.to_le_bytes());
                buf.push(score as u8);
            }
        }
        self.file
            .write_all(&buf)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::Position;

    #[test]
    fn the_exact_cache_keeps_scores_and_refuses_foreign_files() {
        let dir = std::env::temp_dir().join(format!("ply-exact-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("labels");
        let _ = std::fs::remove_file(&path);
        let start = Position::start(BoardSize::Eight);
        let (p, o) = (start.player().0, start.opponent().0);
        {
            let mut c = ExactCache::open(&path, BoardSize::Eight).unwrap();
            assert!(c.is_empty());
            c.add(&[(p, o, 0), (o, p, -3)]).unwrap();
        }
        // A torn record at the end (a killed run) is dropped; the others are read back.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        let mut c = ExactCache::open(&path, BoardSize::Eight).unwrap();
        assert_eq!((c.len(), c.get(p, o), c.get(o, p)), (2, Some(0), Some(-3)));
        c.add(&[(p | 1, o, 5)]).unwrap();
        drop(c);
        let c = ExactCache::open(&path, BoardSize::Eight).unwrap();
        assert_eq!((c.len(), c.get(p | 1, o)), (3, Some(5)));
        drop(c);
        // Another size's file, and a record that is no position, are refused by name.
        let e = ExactCache::open(&path, BoardSize::Six).unwrap_err();
        assert!(
            e.contains("labels") && e.contains("not an exact-label cache of 6x6"),
            "{e}"
        );
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        let mut bad = [0u8; RECORD];
        bad[0] = 1;
        bad[8] = 1; // both sides on a1
        f.write_all(&bad).unwrap();
        drop(f);
        let e = ExactCache::open(&path, BoardSize::Eight).unwrap_err();
        assert!(e.contains("record 4 is not a 8x8 position"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
