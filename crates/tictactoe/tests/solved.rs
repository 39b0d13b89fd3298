//! The solved tables against the generic algorithms of ply-core, on every position.

use std::collections::HashSet;

use ply_core::{count_finals, reachable, Game, Solver};
use ply_tictactoe::{check, stats, table::SolvedTable, Board, Counts, Mark, Position, CODES};

#[test]
fn stats_match_the_published_figures() {
    let s = stats(Mark::X);
    assert_eq!(s.reachable, 5478);
    assert_eq!(s.reachable_up_to_symmetry, 765);
    assert_eq!(
        s.finals,
        Counts {
            x: 626,
            o: 316,
            draw: 16
        }
    );
    assert_eq!(s.finals.total(), 958);
    assert_eq!(
        s.games,
        Counts {
            x: 131_184,
            o: 77_904,
            draw: 46_080
        }
    );
    assert_eq!(s.games.total(), 255_168);
    assert_eq!(s.games_up_to_symmetry.total(), 26_830);
}

#[test]
fn stats_with_o_first_are_the_mirror_image() {
    let (x, o) = (stats(Mark::X), stats(Mark::O));
    assert_eq!(o.reachable, x.reachable);
    assert_eq!(o.finals.o, x.finals.x);
    assert_eq!(o.games.x, x.games.o);
    assert_eq!(o.games_up_to_symmetry.o, x.games_up_to_symmetry.x);
}

#[test]
fn generic_solver_agrees_with_the_table_on_every_reachable_position() {
    for first in [Mark::X, Mark::O] {
        let mut solver = Solver::new();
        let all = reachable(&Position::start(first));
        assert_eq!(all.len(), 5478);
        for pos in &all {
            assert_eq!(pos.value(), solver.solve(pos), "{pos} {first:?}");
            assert_eq!(pos.analyze(), solver.analyze(pos), "{pos} {first:?}");
        }
    }
}

#[test]
fn reasons_and_table_agree_with_the_reachable_set_on_every_board() {
    let table = SolvedTable::get();
    for first in [Mark::X, Mark::O] {
        let all: HashSet<Board> = reachable(&Position::start(first))
            .into_iter()
            .map(|p| p.board())
            .collect();
        for code in 0..CODES {
            let b = Board::from_code(code).unwrap();
            let can = all.contains(&b);
            assert_eq!(check(b, first).is_ok(), can, "{b} {first:?}");
            let as_x = if first == Mark::X { b } else { b.swap_marks() };
            assert_eq!(table.entry(as_x).is_reachable(), can, "{b} {first:?}");
        }
    }
}

#[test]
fn final_counts_agree_with_the_generic_count_on_every_reachable_position() {
    for first in [Mark::X, Mark::O] {
        for pos in reachable(&Position::start(first)) {
            let want = Counts::from_tally(count_finals(&pos), first);
            assert_eq!(pos.count_finals(), want, "{pos} {first:?}");
        }
    }
}

#[test]
fn reasons_are_named() {
    let cases = [
        (
            "oo./.../...",
            Mark::X,
            "O has more marks than X but X moves first",
        ),
        (
            "xx./.../...",
            Mark::O,
            "X has more marks than O but O moves first",
        ),
        (
            "xxx/o../...",
            Mark::X,
            "X has 3 marks but O only 1: X moves first, so it is at most one ahead",
        ),
        ("xxx/ooo/...", Mark::X, "both sides have three in a row"),
        (
            "xxx/oo./o..",
            Mark::X,
            "X has three in a row but O has moved since",
        ),
        (
            "ooo/xx./x.x",
            Mark::X,
            "O has three in a row but X has moved since",
        ),
    ];
    for (text, first, reason) in cases {
        let err = Position::new(text.parse().unwrap(), first).unwrap_err();
        assert_eq!(err.to_string(), reason, "{text}");
    }
}

#[test]
fn ttt_finals_samples() {
    for (text, [total, o, x, draw]) in [
        ("OX--X-XOO", [4, 1, 2, 1]),
        ("O-OXO-X--", [11, 9, 1, 1]),
        ("O-OXO-X-X", [4, 2, 1, 1]),
    ] {
        let pos = Position::new(text.parse().unwrap(), Mark::O).unwrap();
        let c = pos.count_finals();
        assert_eq!([c.total(), c.o, c.x, c.draw], [total, o, x, draw], "{text}");
    }
}

#[test]
fn game_trait_contract_holds() {
    for pos in reachable(&Position::start(Mark::X)) {
        assert_eq!(pos.outcome().is_some(), pos.legal_moves().is_empty());
        assert_eq!(pos.is_over(), pos.outcome().is_some());
    }
}
