//! The last four empty squares, where most nodes of an endgame search are: no table, no move
//! list, the squares passed in registers, and at one empty square the final score counted
//! from the flips alone, without making the move.
//!
//! Every routine here is a null-window search around `alpha` (window `alpha..alpha + 1`) and
//! fails soft: a result above `alpha` is a lower bound of the score, one at or below it an
//! upper bound. The tests compare them with the plain negamax of [`crate::reference::minimax`].

use super::super::flips::{count_last_flips, flips_in, flips_near};
use super::{Search, NEG_INF};
use crate::cpu::Cpu;

/// Parity order of four squares by which of them lie in odd quadrants (bit `i` of the index
/// set when the `i`-th does): their places, the odd ones first, each group in its first order.
static ODD_FIRST: [[u8; 4]; 16] = odd_first();

const fn odd_first() -> [[u8; 4]; 16] {
    let mut t = [[0u8; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut odd = 1;
        while odd >= 0 {
            let mut i = 0;
            while i < 4 {
                if (m >> i & 1) as i32 == odd {
                    t[m][k] = i as u8;
                    k += 1;
                }
                i += 1;
            }
            odd -= 1;
        }
        m += 1;
    }
    t
}

impl<C: Cpu> Search<'_, C> {
    /// One empty square `x`: play it (or let the opponent, or nobody) and count.
    #[inline]
    pub(crate) fn solve1(&mut self, p: u64, o: u64, x: u8) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                let s = self.geo.squares;
                let np = p.count_ones() as i32;
                let eight = s == 64;
                let n = if eight {
                    count_last_flips(self.cpu, p, x)
                } else {
                    flips_in(self.cpu, p, o, x).count_ones()
                } as i32;
                if n > 0 {
                    return 2 * np - s + 2 + 2 * n;
                }
                let m = if eight {
                    count_last_flips(self.cpu, o, x)
                } else {
                    flips_in(self.cpu, o, p, x).count_ones()
                } as i32;
                if m > 0 {
                    return 2 * np - s - 2 * m;
                }
                let diff = 2 * np - s + 1;
                if diff > 0 {
                    diff + 1
                } else {
                    diff - 1
                }
            },
        )
    }

    /// Two empty squares.
    pub(crate) fn solve2(&mut self, p: u64, o: u64, alpha: i32, x1: u8, x2: u8) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                let mut best = NEG_INF;
                let f = flips_near(self.cpu, p, o, x1);
                if f != 0 {
                    best = -self.solve1(o ^ f, p | f | 1 << x1, x2);
                    if best > alpha {
                        return best;
                    }
                }
                let f = flips_near(self.cpu, p, o, x2);
                if f != 0 {
                    return best.max(-self.solve1(o ^ f, p | f | 1 << x2, x1));
                }
                if best > NEG_INF {
                    return best;
                }
                // Pass: the opponent moves, then we play the last square.
                self.nodes += 1;
                let mut worst = -NEG_INF;
                let f = flips_near(self.cpu, o, p, x1);
                if f != 0 {
                    worst = self.solve1(p ^ f, o | f | 1 << x1, x2);
                    if worst <= alpha {
                        return worst;
                    }
                }
                let f = flips_near(self.cpu, o, p, x2);
                if f != 0 {
                    return worst.min(self.solve1(p ^ f, o | f | 1 << x2, x1));
                }
                if worst < -NEG_INF {
                    return worst;
                }
                self.final_score(p, o)
            },
        )
    }

    /// Three empty squares, the one alone in its quadrant first.
    pub(crate) fn solve3(&mut self, p: u64, o: u64, alpha: i32, x: [u8; 3]) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                let x = self.parity_order3(x);
                let mut best = NEG_INF;
                for i in 0..3 {
                    let (a, b, c) = (x[i], x[(i + 1) % 3], x[(i + 2) % 3]);
                    let f = flips_near(self.cpu, p, o, a);
                    if f != 0 {
                        let v = -self.solve2(o ^ f, p | f | 1 << a, -alpha - 1, b.min(c), b.max(c));
                        if v > best {
                            best = v;
                            if v > alpha {
                                return v;
                            }
                        }
                    }
                }
                if best > NEG_INF {
                    return best;
                }
                self.nodes += 1;
                let mut worst = -NEG_INF;
                for i in 0..3 {
                    let (a, b, c) = (x[i], x[(i + 1) % 3], x[(i + 2) % 3]);
                    let f = flips_near(self.cpu, o, p, a);
                    if f != 0 {
                        let v = self.solve2(p ^ f, o | f | 1 << a, alpha, b.min(c), b.max(c));
                        if v < worst {
                            worst = v;
                            if v <= alpha {
                                return v;
                            }
                        }
                    }
                }
                if worst < -NEG_INF {
                    return worst;
                }
                self.final_score(p, o)
            },
        )
    }

    /// Four empty squares, those in odd quadrants first.
    pub(crate) fn solve4(&mut self, p: u64, o: u64, alpha: i32, x: [u8; 4]) -> i32 {
        let cpu = self.cpu;
        cpu.run(
            #[inline(always)]
            move || {
                self.nodes += 1;
                let x = self.parity_order4(x);
                let rest = |i: usize| {
                    let mut r = [0u8; 3];
                    let mut k = 0;
                    for (j, &s) in x.iter().enumerate() {
                        if j != i {
                            r[k] = s;
                            k += 1;
                        }
                    }
                    r
                };
                let mut best = NEG_INF;
                for (i, &a) in x.iter().enumerate() {
                    let f = flips_near(self.cpu, p, o, a);
                    if f != 0 {
                        let v = -self.solve3(o ^ f, p | f | 1 << a, -alpha - 1, rest(i));
                        if v > best {
                            best = v;
                            if v > alpha {
                                return v;
                            }
                        }
                    }
                }
                if best > NEG_INF {
                    return best;
                }
                self.nodes += 1;
                let mut worst = -NEG_INF;
                for (i, &a) in x.iter().enumerate() {
                    let f = flips_near(self.cpu, o, p, a);
                    if f != 0 {
                        let v = self.solve3(p ^ f, o | f | 1 << a, alpha, rest(i));
                        if v < worst {
                            worst = v;
                            if v <= alpha {
                                return v;
                            }
                        }
                    }
                }
                if worst < -NEG_INF {
                    return worst;
                }
                self.final_score(p, o)
            },
        )
    }

    /// [`Search::parity_order`] of three squares, from their quadrants alone: where two share
    /// a quadrant, the third (alone in its own, the one odd quadrant) goes first; otherwise
    /// every quadrant is odd and the order stays.
    #[inline]
    fn parity_order3(&self, [a, b, c]: [u8; 3]) -> [u8; 3] {
        let q = &self.geo.quadrant_of;
        let (qa, qb, qc) = (q[usize::from(a)], q[usize::from(b)], q[usize::from(c)]);
        let out = if qa == qb && qb != qc {
            [c, a, b]
        } else if qa == qc && qa != qb {
            [b, a, c]
        } else {
            [a, b, c]
        };
        debug_assert_eq!(out, self.parity_order([a, b, c]));
        out
    }

    /// [`Search::parity_order`] of four squares: which of them lie in odd quadrants makes a
    /// 4-bit index into the 16 stable orders ([`ODD_FIRST`]), without a loop.
    #[inline]
    fn parity_order4(&self, x: [u8; 4]) -> [u8; 4] {
        let empties = (1u64 << x[0]) | (1u64 << x[1]) | (1u64 << x[2]) | (1u64 << x[3]);
        let odd = self.geo.odd_quadrants(empties);
        let m = (odd >> x[0] & 1)
            | (odd >> x[1] & 1) << 1
            | (odd >> x[2] & 1) << 2
            | (odd >> x[3] & 1) << 3;
        let [a, b, c, d] = ODD_FIRST[m as usize];
        let out = [
            x[usize::from(a)],
            x[usize::from(b)],
            x[usize::from(c)],
            x[usize::from(d)],
        ];
        debug_assert_eq!(out, self.parity_order(x));
        out
    }

    /// Squares in quadrants with an odd number of empties first, otherwise in the given order:
    /// any number of squares, one at a time, the reference that the unrolled orders of three
    /// and four squares are checked against in debug builds.
    #[inline]
    fn parity_order<const N: usize>(&self, x: [u8; N]) -> [u8; N] {
        let empties = x.iter().fold(0u64, |e, &s| e | 1 << s);
        let odd = self.geo.odd_quadrants(empties);
        let mut out = x;
        let mut k = 0;
        for s in x.into_iter().filter(|&s| odd >> s & 1 == 1) {
            out[k] = s;
            k += 1;
        }
        for s in x.into_iter().filter(|&s| odd >> s & 1 == 0) {
            out[k] = s;
            k += 1;
        }
        out
    }

    /// The score of a finished game (disc difference, empties to the winner).
    #[inline]
    pub(crate) fn final_score(&self, p: u64, o: u64) -> i32 {
        crate::final_score(p, o, self.geo.squares as u32)
    }
}
