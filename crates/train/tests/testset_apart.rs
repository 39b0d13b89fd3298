//! The evaluation's test set stays apart from the training data: the fit's reader, given the
//! test set's openings, leaves out every committed self-play game (`data/selfplay8/`) that
//! passes through the position after one of them, and only those. Heavy (it replays every
//! committed game): `cargo test --profile test-release -- --ignored`.

use std::{fs, io::BufReader, path::Path};

use ply_train::{games::GameReader, learn::Data, testset};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[test]
#[ignore]
fn the_fit_leaves_out_every_training_game_that_shares_an_opening_with_the_test_set() {
    let root = Path::new(ROOT);
    let set = fs::read_to_string(root.join("testdata/eval8-testset.obf")).unwrap();
    let xot = fs::read_to_string(root.join("testdata/xot-openings.txt")).unwrap();
    let openings = testset::openings(&set, &xot).unwrap();
    assert_eq!(
        openings.len(),
        set.lines().filter(|l| l.ends_with(" done")).count()
    );
    // A clone before the first shard is committed has no folder yet: nothing to check.
    let shards = match fs::read_dir(root.join("data/selfplay8")) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        r => r.unwrap(),
    };
    let paths: Vec<_> = shards
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        // Finished shards only (their checksum is written when they are): one that
        // `scripts/grow-data8` is still playing grows while it is read.
        .filter(|p| p.with_extension("bin.sha256").is_file())
        .collect();
    let open = |p: &Path| BufReader::new(fs::File::open(p).unwrap());
    // The slow count: every game replayed and compared.
    let (mut all, mut sharing) = (0u64, 0u64);
    for p in &paths {
        let mut reader = GameReader::new(open(p), p.display().to_string()).unwrap();
        while let Some(game) = reader.next_game().unwrap() {
            all += 1;
            sharing += u64::from(testset::shares_opening(&game.moves, &openings));
        }
    }
    let files = || paths.iter().map(|p| (open(p), p.display().to_string()));
    let apart = Data::read_apart(files(), 20, &openings).unwrap();
    let whole = Data::read(files(), 20).unwrap();
    assert_eq!(apart.left_out_games, sharing);
    assert_eq!(apart.games + sharing, all);
    assert_eq!((whole.games, whole.left_out_games), (all, 0));
    println!(
        "{sharing} of {all} games share an opening with the {} test games",
        openings.len()
    );
}
