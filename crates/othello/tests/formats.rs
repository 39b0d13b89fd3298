//! Formats against the test vectors in `testdata/`, round trips on random games of every size, and
//! fuzz-style checks that no parser panics on any input.

use ply_othello::{
    ggf::{self, GgfGame},
    obf::{self, ObfLine},
    text, transcript, BoardSize, GameRecord, Move, Position,
};
use proptest::prelude::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");

#[test]
fn every_testdata_obf_line_parses_prints_back_and_scores_legal_moves() {
    let mut files = 0;
    let mut lines = 0;
    for entry in std::fs::read_dir(DATA).expect("testdata directory") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "obf") {
            continue;
        }
        files += 1;
        let content = std::fs::read_to_string(&path).unwrap();
        let entries =
            obf::parse_file(&content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let raw: Vec<&str> = content.lines().collect();
        for e in &entries {
            lines += 1;
            // A `%` comment after the line (the test set names each position's game) is kept
            // and printed back; Edax's unused slots (`--:-127`) are not moves, and go.
            let line = raw[e.line - 1].replace(" --:-127;", "");
            assert_eq!(e.obf.to_string(), line, "{}:{}", path.display(), e.line);
            assert!(!e.obf.moves.is_empty());
            let legal = e.obf.position.legal_moves();
            for m in &e.obf.moves {
                match m.mv {
                    Move::Play(sq) => {
                        assert!(legal.contains(sq), "{}:{} {sq}", path.display(), e.line)
                    }
                    Move::Pass => assert!(legal.is_empty()),
                }
                assert_eq!(m.score % 2, 0, "scores on 64 squares are even");
            }
        }
        let non_blank = raw
            .iter()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('%'))
            .count();
        assert_eq!(entries.len(), non_blank, "{}", path.display());
    }
    assert!(files >= 6, "found {files} OBF files");
    assert!(lines >= 99, "found {lines} OBF lines");
}

#[test]
fn obf_file_errors_carry_the_line() {
    let file = "% header\n-----OX--XO----- X; B1:-10;\n-----OX--XO----- X; B1:-10; C1:+2;\n";
    let err = obf::parse_file(file).unwrap_err();
    assert_eq!(err.line(), Some(3));
    assert!(
        err.to_string()
            .starts_with("line 3: scored move 2 (`C1:+2`)"),
        "{err}"
    );
}

fn size_strategy() -> impl Strategy<Value = BoardSize> {
    prop_oneof![
        Just(BoardSize::Four),
        Just(BoardSize::Six),
        Just(BoardSize::Eight)
    ]
}

/// A random game from the start: `choices` pick among the legal moves; it may end early.
fn random_game(size: BoardSize, choices: &[u16]) -> GameRecord {
    let mut game = GameRecord::new(Position::start(size));
    for &c in choices {
        let pos = game.position();
        if pos.is_game_over() {
            break;
        }
        let moves: Vec<_> = pos.legal_moves().collect();
        let m = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Play(moves[usize::from(c) % moves.len()])
        };
        game.play(m).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(300) })]

    #[test]
    fn positions_round_trip(size in size_strategy(), choices in prop::collection::vec(any::<u16>(), 0..70)) {
        let game = random_game(size, &choices);
        for pos in [game.position(), game.position().passed()] {
            let s = text::format_position(&pos);
            prop_assert_eq!(text::parse_position(&s).unwrap(), pos);
            prop_assert_eq!(s.parse::<Position>().unwrap(), pos);
            // The other symbol sets read the same position.
            let star = s.replace('X', "*").replace('-', ".");
            prop_assert_eq!(text::parse_position(&star).unwrap(), pos);
            let bw = s.replace('X', "B").replace('O', "W").replace('-', ".");
            prop_assert_eq!(text::parse_position(&bw).unwrap(), pos);
            let lower = s.to_lowercase().replace('-', ".");
            prop_assert_eq!(text::parse_position(&lower).unwrap(), pos);
        }
    }

    #[test]
    fn transcripts_and_ggf_round_trip(size in size_strategy(), choices in prop::collection::vec(any::<u16>(), 0..70)) {
        let game = random_game(size, &choices);
        let start = game.start();
        prop_assert_eq!(&transcript::parse(&transcript::format(&game), start).unwrap(), &game);
        prop_assert_eq!(&transcript::parse(&transcript::format_with_passes(&game), start).unwrap(), &game);
        let rec = GgfGame::from_game(game.clone());
        let text = rec.to_string();
        prop_assert_eq!(&GgfGame::parse(&text).unwrap(), &rec);
        let two = format!("{text}\n{text}\n");
        prop_assert_eq!(ggf::parse_all(&two).unwrap().len(), 2);
    }

    #[test]
    fn obf_lines_round_trip(size in size_strategy(), choices in prop::collection::vec(any::<u16>(), 0..70), scores in prop::collection::vec(-8i32..=8, 0..20), comment in prop::option::of("[a-z0-9 ,;:%]{0,20}")) {
        let pos = random_game(size, &choices).position();
        let legal: Vec<_> = pos.legal_moves().collect();
        let mut moves = Vec::new();
        if legal.is_empty() && pos.passed().can_move() {
            moves.push(obf::ScoredMove { mv: Move::Pass, score: scores.first().copied().unwrap_or(0) });
        }
        for (sq, &score) in legal.iter().zip(&scores) {
            moves.push(obf::ScoredMove { mv: Move::Play(*sq), score: score * 2 });
        }
        let comment = comment.map(|c| c.trim().to_owned());
        let line = ObfLine { position: pos, moves, comment };
        let text = line.to_string();
        prop_assert_eq!(ObfLine::parse(&text).unwrap(), line);
    }

    #[test]
    fn no_parser_panics_on_any_text(s in ".{0,120}") {
        let start = Position::start(BoardSize::Eight);
        let _ = text::parse_position(&s);
        let _ = ObfLine::parse(&s);
        let _ = obf::parse_file(&s);
        let _ = transcript::parse(&s, start);
        let _ = GgfGame::parse(&s);
        let _ = ggf::parse_all(&s);
    }

    #[test]
    fn no_parser_panics_on_near_misses(s in "[-XO*.xoBW /;:+0-9a-hA-HpP%()\\[\\]\n]{0,90}") {
        let start = Position::start(BoardSize::Six);
        let _ = text::parse_position(&s);
        let _ = ObfLine::parse(&s);
        let _ = obf::parse_file(&s);
        let _ = transcript::parse(&s, start);
        let _ = GgfGame::parse(&format!("(;GM[Othello]BO[6 {s}]B[{s}];)"));
        let _ = GgfGame::parse(&format!("(;{s};)"));
    }

    #[test]
    fn broken_obf_lines_are_errors_not_panics(cut in 0usize..200, line_idx in 0usize..10) {
        let content = std::fs::read_to_string(format!("{DATA}/ffo40-49.obf")).unwrap();
        let line = content.lines().nth(line_idx).unwrap();
        let cut = cut.min(line.len());
        let broken = &line[..cut];
        if let Ok(parsed) = ObfLine::parse(broken) {
            // A prefix that still parses is a position with fewer scored moves.
            prop_assert!(parsed.moves.len() <= 20);
        }
    }
}
