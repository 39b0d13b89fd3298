//! The evaluation's test set stays apart from the training data: the fit's reader, given the
//! test set's openings, leaves out every committed self-play game (`data/selfplay8/`) that
//! passes through the position after one of them, and only those. Heavy (it replays every
//! committed game): `cargo test --profile test-release -- --ignored`. The predicate itself,
//! `testset::shares_opening`, is checked on random games against an independent definition
//! (the set of positions a game reaches, by the checked rules) in every run.

use std::{collections::HashSet, fs, io::BufReader, path::Path};

use ply_core::SplitMix64;
use ply_othello::{BoardSize, Position, Square};
use ply_train::{games::GameReader, learn::Data, testset};

/// The independent definition: the positions a game reaches after each number of moves
/// played (passes not counted), by the checked rules (`Position::play`, a pass where the
/// side to move has none), looked up in a set of (moves, position).
fn reaches_an_opening(moves: &[Square], openings: &HashSet<(usize, Position)>) -> bool {
    let mut pos = Position::start(BoardSize::Eight);
    moves.iter().enumerate().any(|(k, &sq)| {
        if pos.legal_moves().count() == 0 {
            pos = pos.passed();
        }
        pos = pos.play(sq).expect("a legal move");
        openings.contains(&(k + 1, pos))
    })
}

/// A random game from the start to its end.
fn random_game(rng: &mut SplitMix64, prefix: &[Square]) -> Vec<Square> {
    let mut pos = Position::start(BoardSize::Eight);
    let mut moves = Vec::new();
    for &sq in prefix {
        pos = pos.play(sq).expect("a legal prefix");
        moves.push(sq);
    }
    while !pos.is_game_over() {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        let legal: Vec<Square> = pos.legal_moves().collect();
        let sq = legal[rng.below(legal.len())];
        pos = pos.play(sq).expect("legal");
        moves.push(sq);
    }
    moves
}

#[test]
fn shares_opening_agrees_with_the_set_of_positions_a_game_reaches() {
    let mut rng = SplitMix64::new(0x7e57);
    // Openings of 4 to 8 moves, cut from random games.
    let sources: Vec<Vec<Square>> = (0..12).map(|_| random_game(&mut rng, &[])).collect();
    let openings: Vec<(usize, Position)> = sources
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let n = 4 + i % 5;
            let pos = g[..n]
                .iter()
                .fold(Position::start(BoardSize::Eight), |p, &sq| {
                    p.play(sq).unwrap()
                });
            (n, pos)
        })
        .collect();
    let set: HashSet<(usize, Position)> = openings.iter().copied().collect();
    let (mut sharing, mut apart) = (0, 0);
    for k in 0..400 {
        // A third start with an opening's moves, the others at random (some of those reach an
        // opening's position by another order of moves, a transposition).
        let prefix = if k % 3 == 0 {
            let (n, _) = openings[k % openings.len()];
            sources[k % openings.len()][..n].to_vec()
        } else {
            Vec::new()
        };
        let game = random_game(&mut rng, &prefix);
        let want = reaches_an_opening(&game, &set);
        assert_eq!(testset::shares_opening(&game, &openings), want, "{game:?}");
        if want {
            sharing += 1;
        } else {
            apart += 1;
        }
    }
    assert!(
        sharing >= 400 / 3 && apart > 0,
        "{sharing} sharing, {apart} apart"
    );
}

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
    // Without the data there is nothing to check: that fails, loudly, rather than pass.
    let dir = root.join("data/selfplay8");
    let shards = fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the committed self-play games this test checks are missing",
            dir.display()
        )
    });
    let paths: Vec<_> = shards
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        // Finished shards only (their checksum is written when they are): one that
        // `scripts/grow-data8` is still playing grows while it is read.
        .filter(|p| p.with_extension("bin.sha256").is_file())
        .collect();
    assert!(
        !paths.is_empty(),
        "{}: no finished shard to check",
        dir.display()
    );
    let set: HashSet<(usize, Position)> = openings.iter().copied().collect();
    let open = |p: &Path| BufReader::new(fs::File::open(p).unwrap());
    // The slow count: every game replayed by the checked rules and looked up.
    let (mut all, mut sharing) = (0u64, 0u64);
    for p in &paths {
        let mut reader = GameReader::new(open(p), p.display().to_string()).unwrap();
        while let Some(game) = reader.next_game().unwrap() {
            all += 1;
            sharing += u64::from(reaches_an_opening(&game.moves, &set));
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
