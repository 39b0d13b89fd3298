//! The evaluation's test set stays apart from the training data: no committed self-play game
//! (`data/selfplay8/`) passes through the position after an XOT opening that the test set
//! (`testdata/eval8-testset.obf`) starts a game from. Heavy (it replays every committed game):
//! `cargo test --profile test-release -- --ignored`.

use std::{fs, io::BufReader, path::Path};

use ply_othello::{BoardSize, Position};
use ply_train::{games::GameReader, testset};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[test]
#[ignore]
fn no_training_game_shares_an_opening_with_the_test_set() {
    let root = Path::new(ROOT);
    let set = fs::read_to_string(root.join("testdata/eval8-testset.obf")).unwrap();
    let first = set
        .lines()
        .next()
        .and_then(|l| l.split("from line ").nth(1))
        .and_then(|l| l.split(',').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("the test set's header names its first opening line");
    let games = set.lines().filter(|l| l.ends_with(" done")).count();
    let xot = fs::read_to_string(root.join("testdata/xot-openings.txt")).unwrap();
    let openings: Vec<(usize, Position)> = xot
        .lines()
        .skip(first - 1)
        .take(games)
        .map(|line| {
            let moves = testset::opening(line).unwrap();
            let pos = moves
                .iter()
                .fold(Position::start(BoardSize::Eight), |p, &sq| {
                    p.play_unchecked(sq)
                });
            (moves.len(), pos)
        })
        .collect();
    assert_eq!(openings.len(), games);
    let mut checked = 0u64;
    let mut files = 0;
    // A clone before the first shard is committed has no folder yet: nothing to check.
    let shards = match fs::read_dir(root.join("data/selfplay8")) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        r => r.unwrap(),
    };
    for entry in shards {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        files += 1;
        let file = fs::File::open(&path).unwrap();
        let mut reader = GameReader::new(BufReader::new(file), path.display().to_string()).unwrap();
        while let Some(game) = reader.next_game().unwrap() {
            assert!(
                !testset::shares_opening(&game.moves, &openings),
                "{}: game {} passes through a test-set opening",
                path.display(),
                game.index
            );
            checked += 1;
        }
    }
    println!("{checked} games of {files} files apart from the {games} test games' openings");
}
