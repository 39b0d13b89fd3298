//! A game with passes, as Othello has: the trait takes a pass as an ordinary move.
//!
//! Race: each player owns a pile and takes 1 or 2 from it; a player whose pile is empty must
//! pass while the other still plays; whoever empties their own pile first wins.

use ply_core::{count_games, reachable, Game, Outcome, Player, Solver, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Move {
    Take(u8),
    Pass,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Race {
    piles: [u8; 2], // indexed by player: 0 first, 1 second
    mover: Player,
    first_out: Option<Player>,
}

fn idx(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

impl Game for Race {
    type Move = Move;

    fn to_move(&self) -> Player {
        self.mover
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mine = self.piles[idx(self.mover)];
        if mine == 0 {
            vec![Move::Pass]
        } else {
            (1..=mine.min(2)).map(Move::Take).collect()
        }
    }

    fn play(&self, mv: Move) -> Race {
        let mut next = *self;
        if let Move::Take(k) = mv {
            next.piles[idx(self.mover)] -= k;
            if next.piles[idx(self.mover)] == 0 && next.first_out.is_none() {
                next.first_out = Some(self.mover);
            }
        }
        next.mover = self.mover.other();
        next
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.piles != [0, 0] {
            return None;
        }
        Some(if self.first_out == Some(self.mover) {
            Outcome::Win
        } else {
            Outcome::Loss
        })
    }
}

#[test]
fn passes_are_moves_and_count_in_the_remoteness() {
    let start = Race {
        piles: [1, 2],
        mover: Player::First,
        first_out: None,
    };
    let mut solver = Solver::new();
    // First takes 1 and wins; the loser stretches the game: take 1, (pass), take 1.
    assert_eq!(solver.solve(&start), Value::win(4));
    let after = start.play(Move::Take(1));
    assert_eq!(
        solver.analyze(&after),
        [
            (Move::Take(1), Value::loss(3)),
            (Move::Take(2), Value::loss(1))
        ]
    );
    let blocked = after.play(Move::Take(1));
    assert_eq!(blocked.legal_moves(), [Move::Pass]);
    // Games: 1 then (2) or (1, pass, 1).
    let t = count_games(&start);
    assert_eq!((t.first, t.second, t.draw), (2, 0, 0));
    assert!(reachable(&start)
        .iter()
        .any(|r| r.legal_moves() == [Move::Pass]));
}
