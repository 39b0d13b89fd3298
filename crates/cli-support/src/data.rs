//! The folder of the test vectors (the FFO positions, the XOT openings, the evaluation's
//! test set), which benchmarks and training commands read: `--data DIR`, else `$PLY_DATA`,
//! else the repository's `testdata/`, found as the first ancestor of the binary or of the
//! current directory that holds [`MARKER`] (so `<repo>/target/release/ply` finds
//! `<repo>/testdata`).

use std::path::{Path, PathBuf};

use crate::error::bad;

/// The file whose presence marks the folder of the test vectors: the FFO positions #40-#59.
pub const MARKER: &str = "fforum-40-59.obf";

/// The folder of the test vectors (see the [module docs](self)).
///
/// # Errors
/// Bad input when none is found.
pub fn data_dir(option: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = option {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("PLY_DATA") {
        return Ok(PathBuf::from(dir));
    }
    let starts = [std::env::current_exe(), std::env::current_dir()];
    found(starts.into_iter().flatten())
}

/// The first `testdata/` holding [`MARKER`] in an ancestor of one of `starts`, in order.
fn found(starts: impl IntoIterator<Item = PathBuf>) -> anyhow::Result<PathBuf> {
    for start in starts {
        for dir in start.ancestors() {
            let candidate = dir.join("testdata");
            if candidate.join(MARKER).is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(bad(format!(
        "cannot find {MARKER}: pass --data DIR or set PLY_DATA"
    )))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn the_option_wins_and_the_nearest_marked_testdata_is_found() {
        assert_eq!(
            data_dir(Some(Path::new("/some/where"))).unwrap(),
            Path::new("/some/where")
        );
        let root = std::env::temp_dir().join(format!("ply-data-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let bin = root.join("repo/target/release");
        fs::create_dir_all(&bin).unwrap();
        fs::create_dir_all(root.join("repo/testdata")).unwrap();
        // A testdata/ without the marker is passed over.
        fs::create_dir_all(root.join("repo/target/testdata")).unwrap();
        let e = found([bin.join("ply")]).unwrap_err();
        assert!(
            e.to_string().starts_with("cannot find fforum-40-59.obf"),
            "{e}"
        );
        assert!(crate::error::is_bad_input(&e));
        fs::write(root.join("repo/testdata").join(MARKER), "").unwrap();
        assert_eq!(
            found([bin.join("ply")]).unwrap(),
            root.join("repo/testdata")
        );
        fs::remove_dir_all(&root).unwrap();
    }
}
