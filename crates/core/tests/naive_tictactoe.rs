//! The generic algorithms on a deliberately plain tic-tac-toe (an array of nine cells), checked
//! against the published figures. Independent of ply-tictactoe, which has its own checks.

use ply_core::{
    count_finals, count_games, count_games_up_to_symmetry, reachable, Game, Outcome, Player,
    Solver, Tally, Value,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Ttt([u8; 9]); // 0 empty, 1 first player, 2 second player

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Ttt {
    fn mover_code(&self) -> u8 {
        let first = self.0.iter().filter(|&&c| c == 1).count();
        let second = self.0.iter().filter(|&&c| c == 2).count();
        if first == second {
            1
        } else {
            2
        }
    }

    fn has_line(&self, who: u8) -> bool {
        LINES.iter().any(|l| l.iter().all(|&i| self.0[i] == who))
    }

    fn image(&self, k: u8) -> Ttt {
        let mut out = [0; 9];
        for (i, &c) in self.0.iter().enumerate() {
            let (mut r, mut col) = (i / 3, i % 3);
            for _ in 0..k % 4 {
                (r, col) = (col, 2 - r);
            }
            if k >= 4 {
                col = 2 - col;
            }
            out[r * 3 + col] = c;
        }
        Ttt(out)
    }
}

impl Game for Ttt {
    type Move = usize;

    fn to_move(&self) -> Player {
        if self.mover_code() == 1 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..9).filter(|&i| self.0[i] == 0).collect()
    }

    fn play(&self, mv: usize) -> Ttt {
        let mut next = *self;
        next.0[mv] = self.mover_code();
        next
    }

    fn outcome(&self) -> Option<Outcome> {
        let me = self.mover_code();
        if self.has_line(3 - me) {
            Some(Outcome::Loss)
        } else if self.0.iter().all(|&c| c != 0) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn canonical(&self) -> Ttt {
        (0..8).map(|k| self.image(k)).min().unwrap()
    }
}

const START: Ttt = Ttt([0; 9]);

#[test]
fn reachable_positions() {
    let all = reachable(&START);
    assert_eq!(all.len(), 5478);
    let mut classes: Vec<Ttt> = all.iter().map(Game::canonical).collect();
    classes.sort();
    classes.dedup();
    assert_eq!(classes.len(), 765);
}

#[test]
fn final_positions() {
    let t = count_finals(&START);
    assert_eq!(
        t,
        Tally {
            first: 626,
            second: 316,
            draw: 16
        }
    );
    assert_eq!(t.total(), 958);
}

#[test]
fn games() {
    let t = count_games(&START);
    assert_eq!(
        t,
        Tally {
            first: 131_184,
            second: 77_904,
            draw: 46_080
        }
    );
    assert_eq!(t.total(), 255_168);
    assert_eq!(count_games_up_to_symmetry(&START).total(), 26_830);
}

#[test]
fn values() {
    let mut solver = Solver::new();
    assert_eq!(solver.solve(&START), Value::draw(9));
    // x at 0 and 4, o at 1 and 8: x to move forks at 6 and wins in 3.
    let pos = Ttt([1, 2, 0, 0, 1, 0, 0, 0, 2]);
    assert_eq!(solver.solve(&pos), Value::win(3));
    let moves = solver.analyze(&pos);
    assert_eq!(moves.len(), 5);
    assert_eq!(moves.iter().map(|&(_, v)| v).max(), Some(Value::win(3)));
    assert!(moves.contains(&(6, Value::win(3))));
    // A finished game has no moves and remoteness 0.
    let over = Ttt([1, 1, 1, 2, 2, 0, 0, 0, 0]);
    assert_eq!(solver.solve(&over), Value::loss(0));
    assert!(solver.analyze(&over).is_empty());
}

#[test]
fn solver_equals_plain_minimax_everywhere() {
    fn minimax(p: &Ttt) -> Value {
        match p.outcome() {
            Some(o) => Value {
                outcome: o,
                remoteness: 0,
            },
            None => p
                .legal_moves()
                .into_iter()
                .map(|m| minimax(&p.play(m)).before_move())
                .max()
                .unwrap(),
        }
    }
    let mut solver = Solver::new();
    for p in reachable(&START) {
        if p.0.iter().filter(|&&c| c == 0).count() <= 6 {
            assert_eq!(solver.solve(&p), minimax(&p), "{p:?}");
        }
    }
}
