//! The files a command is given and the ones it is asked to write.
//!
//! Every output is written whole or not at all ([`Temp`]): into a temporary file of its own
//! in the output's folder, under a name no other file has (created exclusively, another
//! name tried if one is taken), synced, then renamed over the output. On any error, or a
//! panic, the temporary file is removed, so that nothing but the output is ever replaced and
//! nothing is left behind. An output that is one of the command's inputs (the same file,
//! whatever the path says: same device and inode) is refused before anything is written.
//!
//! Inputs are read by [`read_bytes`], or as text by [`read_input`] (stdin for `-`): a
//! missing file or a folder is bad input, named.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, BufWriter, Read, Write},
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
    time::{SystemTime, UNIX_EPOCH},
};

use anyhow::Context;

use crate::error::bad;

/// Reads a whole input file. A missing file or a folder is bad input naming the path; any
/// other failure to read is not.
pub fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path.is_dir() {
        return Err(bad(format!("{}: a folder, not a file", path.display())));
    }
    match fs::read(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(bad(format!("{}: no such file", path.display())))
        }
        Err(e) if e.kind() == io::ErrorKind::IsADirectory => {
            Err(bad(format!("{}: a folder, not a file", path.display())))
        }
        r => r.with_context(|| format!("reading {}", path.display())),
    }
}

/// `-` as a file name: stdin or stdout.
#[must_use]
pub fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The name of an input in messages: its path, or `stdin` for `-`.
#[must_use]
pub fn input_name(path: &Path) -> String {
    if is_dash(path) {
        String::from("stdin")
    } else {
        path.display().to_string()
    }
}

/// Reads an input file as text, or stdin for `-`. A missing file, a folder or bytes that
/// are not UTF-8 are bad input naming the input (a retry cannot mend them); any other
/// failure to read is not.
pub fn read_input(path: &Path) -> anyhow::Result<String> {
    let read = if is_dash(path) {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        fs::read_to_string(path)
    };
    text_read(&input_name(path), read)
}

/// What [`read_input`] makes of a read of the input `name`.
fn text_read(name: &str, read: io::Result<String>) -> anyhow::Result<String> {
    match read {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(bad(format!("{name}: no such file"))),
        Err(e) if e.kind() == io::ErrorKind::IsADirectory => {
            Err(bad(format!("{name}: a folder, not a file")))
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(bad(format!("{name}: not UTF-8 text")))
        }
        r => r.with_context(|| format!("reading {name}")),
    }
}

/// Whether `a` and `b` name the same existing file (the same device and inode on Unix, the
/// same canonical path elsewhere).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (fs::canonicalize(a), fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// Refuses (bad input) an output `out` that is one of `inputs` (`-`, stdin, is none).
pub fn refuse_inputs(out: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    if let Some(input) = inputs
        .iter()
        .find(|i| i.as_os_str() != "-" && same_file(out, i))
    {
        return Err(bad(format!(
            "{}: the file to write is also an input ({}); give another path to write",
            out.display(),
            input.display()
        )));
    }
    Ok(())
}

/// Writes `bytes` as `out` (see the [module docs](self)); `inputs` are the command's input
/// files, which `out` must not be.
pub fn write_whole(out: &Path, inputs: &[&Path], bytes: &[u8]) -> anyhow::Result<()> {
    write_with(out, inputs, |w| Ok(w.write_all(bytes)?))
}

/// Writes `out` through `write` (see the [module docs](self)): an error of `write` leaves
/// `out` as it was and no temporary file behind.
pub fn write_with<T>(
    out: &Path,
    inputs: &[&Path],
    write: impl FnOnce(&mut BufWriter<File>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let mut temp = Temp::create(out, inputs)?;
    let value = write(temp.writer())?;
    temp.commit()?;
    Ok(value)
}

/// A temporary file that becomes the output `target` on [`Temp::commit`], and is removed
/// when dropped uncommitted.
#[derive(Debug)]
pub struct Temp {
    path: PathBuf,
    target: PathBuf,
    file: Option<BufWriter<File>>,
}

/// Tells apart the temporary files of one process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// How many names are tried before the folder is taken to refuse new files.
const TRIES: u32 = 100;

impl Temp {
    /// A new, empty temporary file beside `target`, after checking that `target` is not one
    /// of `inputs` (nor a folder).
    pub fn create(target: &Path, inputs: &[&Path]) -> anyhow::Result<Temp> {
        refuse_inputs(target, inputs)?;
        if target.is_dir() {
            return Err(bad(format!(
                "{}: a folder, not a file to write",
                target.display()
            )));
        }
        let name = target
            .file_name()
            .ok_or_else(|| bad(format!("{}: not a file name", target.display())))?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut last = None;
        for _ in 0..TRIES {
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(name);
            temp_name.push(format!(".ply-{:06x}.tmp", unique() & 0xff_ffff));
            let path = dir.join(temp_name);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(f) => {
                    return Ok(Temp {
                        path,
                        target: target.to_path_buf(),
                        file: Some(BufWriter::new(f)),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    return Err(bad(format!(
                        "{}: no such folder {}",
                        target.display(),
                        dir.display()
                    )))
                }
                Err(e) => {
                    return Err(anyhow::Error::new(e).context(format!(
                        "writing {}: creating a temporary file in {}",
                        target.display(),
                        dir.display()
                    )))
                }
            }
        }
        Err(anyhow::anyhow!(
            "writing {}: no free temporary name in {} after {TRIES} tries ({})",
            target.display(),
            dir.display(),
            last.map_or_else(String::new, |e| e.to_string())
        ))
    }

    /// Where the output's bytes go.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.file
            .as_mut()
            .expect("a temporary file is open until it is committed")
    }

    /// Flushes and syncs the file and renames it over the output.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let target = self.target.clone();
        let file = self.file.take().expect("committed once");
        // Flushed, synced and closed before the rename.
        file.into_inner()
            .map_err(|e| anyhow::Error::new(e.into_error()))
            .and_then(|f| f.sync_all().map_err(anyhow::Error::new))
            .with_context(|| format!("writing {}", target.display()))?;
        fs::rename(&self.path, &target).with_context(|| format!("writing {}", target.display()))?;
        // Renamed: nothing is left to remove.
        self.path = PathBuf::new();
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        self.file = None;
        if !self.path.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A number that differs from call to call and from process to process.
fn unique() -> u64 {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut x =
        nanos ^ (u64::from(std::process::id()) << 32) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // SplitMix64's finaliser: every bit of the inputs reaches the low bits kept.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ply-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn an_output_is_written_whole_and_only_it_changes() {
        let d = scratch("whole");
        let out = d.join("x.bin");
        // A file named as the old helper's temporary file is left alone.
        fs::write(d.join("x.tmp"), b"input").unwrap();
        write_whole(&out, &[], b"one").unwrap();
        write_whole(&out, &[], b"two").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"two");
        assert_eq!(fs::read(d.join("x.tmp")).unwrap(), b"input");
        assert_eq!(listing(&d), ["x.bin", "x.tmp"]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_output_that_is_an_input_is_refused_before_anything_is_written() {
        let d = scratch("input");
        let input = d.join("g.wtb");
        fs::write(&input, b"games").unwrap();
        // The same file by another spelling, and by a hard link.
        let other = d.join(".").join("g.wtb");
        let link = d.join("h.wtb");
        fs::hard_link(&input, &link).unwrap();
        for out in [&input, &other, &link] {
            let e = write_whole(out, &[&input], b"index").unwrap_err();
            assert!(e.to_string().contains("also an input"), "{e}");
            assert!(e.chain().any(|c| c.is::<crate::error::BadInput>()));
        }
        assert_eq!(fs::read(&input).unwrap(), b"games");
        assert_eq!(listing(&d), ["g.wtb", "h.wtb"]);
        // Stdin is no file.
        write_whole(&d.join("o"), &[Path::new("-")], b"x").unwrap();
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn no_temporary_file_is_left_on_an_error() {
        let d = scratch("error");
        // The output is a folder: refused at once.
        fs::create_dir(d.join("out")).unwrap();
        let e = write_whole(&d.join("out"), &[], b"x").unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        // The writer fails half-way.
        let e = write_with(&d.join("half"), &[], |w| -> anyhow::Result<()> {
            w.write_all(b"half")?;
            anyhow::bail!("the writer failed")
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "the writer failed");
        // The rename fails: the output became a folder after the file was made.
        let mut t = Temp::create(&d.join("late"), &[]).unwrap();
        t.writer().write_all(b"late").unwrap();
        fs::create_dir(d.join("late")).unwrap();
        fs::write(d.join("late").join("inside"), b"").unwrap();
        assert!(t.commit().is_err());
        assert_eq!(listing(&d), ["late", "out"]);
        // A missing folder is bad input.
        let e = write_whole(&d.join("none").join("x"), &[], b"x").unwrap_err();
        assert!(e.to_string().contains("no such folder"), "{e}");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_folder_or_a_missing_file_is_bad_input() {
        let d = scratch("read");
        for (path, says) in [(d.clone(), "a folder"), (d.join("none"), "no such file")] {
            let e = read_bytes(&path).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
            assert!(e.chain().any(|c| c.is::<crate::error::BadInput>()));
        }
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_text_input_is_named_in_its_errors_and_dash_is_stdin() {
        let d = scratch("text");
        fs::write(d.join("bytes"), [0xff, 0xfe]).unwrap();
        fs::write(d.join("ok.txt"), "f5d6\n").unwrap();
        assert_eq!(read_input(&d.join("ok.txt")).unwrap(), "f5d6\n");
        for (path, says) in [
            (d.clone(), "a folder, not a file"),
            (d.join("none"), "no such file"),
            (d.join("bytes"), "not UTF-8 text"),
        ] {
            let e = read_input(&path).unwrap_err();
            assert_eq!(e.to_string(), format!("{}: {says}", path.display()));
            assert!(crate::error::is_bad_input(&e));
        }
        // Another failure is not bad input, and names the input too.
        let e = text_read("stdin", Err(io::Error::other("gone"))).unwrap_err();
        assert_eq!(format!("{e:#}"), "reading stdin: gone");
        assert!(!crate::error::is_bad_input(&e));
        assert!(is_dash(Path::new("-")) && !is_dash(Path::new("./-")));
        assert_eq!(input_name(Path::new("-")), "stdin");
        assert_eq!(input_name(Path::new("a/b.obf")), "a/b.obf");
        fs::remove_dir_all(&d).unwrap();
    }
}
