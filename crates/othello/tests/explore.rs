//! The explorer's games that ended in a position and its list of the games that reached one,
//! against slow counts that replay every game and compare every position under the board's
//! eight symmetries.

mod common;

use ply_core::SplitMix64;
use ply_othello::{
    explore::{self, GamesIndex},
    transcript,
    wthor::{Database, Date, Header, WthorGame},
    Bitboard, BoardSize, Color, GameRecord, Move, Position, Square,
};

fn start() -> Position {
    Position::start(BoardSize::Eight)
}

/// The same game reflected in the a1-h8 diagonal (the start position is its own image).
fn transposed(game: &GameRecord) -> GameRecord {
    let mut out = GameRecord::new(start());
    for &m in game.moves() {
        let m = match m {
            Move::Play(sq) => Move::Play(Square::new(sq.row(), sq.col()).unwrap()),
            Move::Pass => Move::Pass,
        };
        out.play(m).unwrap();
    }
    out
}

fn wthor_game(game: GameRecord, k: u16) -> WthorGame {
    WthorGame {
        tournament: 0,
        black: k % 4,
        white: (k + 1) % 4,
        black_discs: WthorGame::final_black_discs(&game.position()),
        theoretical: 0,
        game,
    }
}

/// Random games, some of them twice and some mirrored, so that positions repeat.
fn databases() -> Vec<Database> {
    let mut rng = SplitMix64::new(2611);
    let games: Vec<GameRecord> = (0..40).map(|_| common::random_game(&mut rng)).collect();
    let mut all: Vec<GameRecord> = games.clone();
    all.extend(games[..10].iter().map(transposed));
    all.extend(games[10..15].iter().cloned());
    let date = Date {
        year: 2026,
        month: 11,
        day: 27,
    };
    let (first, second) = all.split_at(30);
    [first, second]
        .iter()
        .enumerate()
        .map(|(d, games)| Database {
            header: Header::games(2020 + d as u16, date, 22),
            games: games
                .iter()
                .enumerate()
                .map(|(k, g)| wthor_game(g.clone(), k as u16))
                .collect(),
        })
        .collect()
}

fn index(dbs: &[Database]) -> GamesIndex {
    let bytes: Vec<Vec<u8>> = dbs.iter().map(|d| d.to_bytes().unwrap()).collect();
    let slices: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    GamesIndex::build(&slices).unwrap()
}

/// Black's and white's discs.
fn colours(p: &Position) -> (u64, u64) {
    match p.turn() {
        Color::Black => (p.player().0, p.opponent().0),
        Color::White => (p.opponent().0, p.player().0),
    }
}

/// Whether `a` is an image of `b` with the same discs for the same side to move (or, for
/// finished positions, the same discs for the same colour, whoever is to move).
fn same_up_to_symmetry(a: &Position, b: &Position) -> bool {
    let (x, y) = if a.is_game_over() {
        (colours(a), colours(b))
    } else {
        (
            (a.player().0, a.opponent().0),
            (b.player().0, b.opponent().0),
        )
    };
    (0..8).any(|s| (common::map_board(x.0, s), common::map_board(x.1, s)) == y)
}

/// Every position of a game, the last included.
fn positions(g: &GameRecord) -> Vec<Position> {
    g.plies()
        .map(|(before, _)| before)
        .chain(std::iter::once(g.position()))
        .collect()
}

#[test]
fn games_that_ended_in_a_position_are_counted_as_a_scan_counts_them() {
    let dbs = databases();
    let idx = index(&dbs);
    let all: Vec<&WthorGame> = dbs.iter().flat_map(|d| &d.games).collect();
    for g in &all {
        let end = g.game.position();
        let slow: Vec<&&WthorGame> = all
            .iter()
            .filter(|h| same_up_to_symmetry(&h.game.position(), &end))
            .collect();
        let ended = idx.ended(&end);
        assert_eq!(
            ended.games,
            slow.len() as u64,
            "{}",
            transcript::format(&g.game)
        );
        let discs: i64 = slow.iter().map(|h| i64::from(h.black_score())).sum();
        assert_eq!(ended.black_discs, discs);
        // Nobody moves in a finished position: the other side to move is the same position.
        let (black, white) = colours(&end);
        let flipped = Position::from_discs(
            Bitboard(black),
            Bitboard(white),
            end.turn().other(),
            BoardSize::Eight,
        )
        .unwrap();
        assert_eq!(idx.ended(&flipped), ended);
    }
    // Repeated and mirrored games end in the same positions.
    assert!(all.iter().any(|g| idx.ended(&g.game.position()).games >= 2));
    // A position that is not over has no games that ended in it.
    assert_eq!(idx.ended(&start()).games, 0);
    // And explore reports them.
    let end = all[0].game.position();
    let found = explore::explore(&end, &idx, None);
    assert_eq!(found.ended, idx.ended(&end));
    assert!(found.moves.is_empty());
}

#[test]
fn the_games_that_reached_a_position_are_listed_as_a_scan_finds_them() {
    let dbs = databases();
    let all: Vec<(usize, usize, &WthorGame)> = dbs
        .iter()
        .enumerate()
        .flat_map(|(d, db)| {
            db.games
                .iter()
                .enumerate()
                .map(move |(k, g)| (d + 1, k + 1, g))
        })
        .collect();
    let names: Vec<String> = ["Ann", "Ben", "Cy"].map(String::from).to_vec();
    let mut rng = SplitMix64::new(5);
    for k in 0..50 {
        // Mostly positions of the games; every fifth a random one, which few games reach.
        let pos = if k % 5 == 4 {
            common::random_position(BoardSize::Eight, rng.below(12), &mut rng)
        } else {
            let (_, _, g) = all[rng.below(all.len())];
            let ps = positions(&g.game);
            ps[rng.below(ps.len())]
        };
        let slow: Vec<(usize, usize)> = all
            .iter()
            .filter(|(_, _, h)| {
                positions(&h.game)
                    .iter()
                    .any(|q| same_up_to_symmetry(q, &pos))
            })
            .map(|&(d, k, _)| (d, k))
            .collect();
        let page = explore::games_reaching(&pos, &dbs, Some(&names), 0, usize::MAX);
        assert_eq!(page.total, slow.len());
        let listed: Vec<(usize, usize)> = page.games.iter().map(|e| (e.database, e.game)).collect();
        assert_eq!(listed, slow);
        for e in &page.games {
            let h = dbs[e.database - 1].games[e.game - 1].clone();
            assert_eq!(e.black_score, h.black_score());
            assert_eq!(e.moves, transcript::format(&h.game));
            assert_eq!(e.year, 2019 + e.database as u16);
            // Player 3 has no name in a list of three.
            let want = |k: u16| {
                names
                    .get(usize::from(k))
                    .cloned()
                    .unwrap_or(format!("player {k}"))
            };
            assert_eq!(
                (e.black.clone(), e.white.clone()),
                (want(h.black), want(h.white))
            );
        }
        // Pages are slices of the whole list.
        let second = explore::games_reaching(&pos, &dbs, None, 1, 2);
        assert_eq!(second.total, slow.len());
        let want: Vec<(usize, usize)> = slow.iter().skip(1).take(2).copied().collect();
        let got: Vec<(usize, usize)> = second.games.iter().map(|e| (e.database, e.game)).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn an_index_of_the_first_version_is_refused_and_built_again_by_its_callers() {
    let dbs = databases();
    let mut bytes = index(&dbs).as_bytes().to_vec();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let e = GamesIndex::read(bytes).unwrap_err().to_string();
    assert!(e.contains("format version 1"), "{e}");
}
