//! The solved tables: every board answered once, so a query is an array lookup.
//!
//! Both tables are indexed by the base-3 [`Board::code`] (3^9 = 19,683 entries) of the board
//! as if `X` moved first (a game `O` starts is the same game with the marks swapped). They are
//! built on first use by retrograde passes over the boards grouped by number of marks:
//! values from full boards back to the empty one, reachability forward from the empty one.
//! The solved table is one byte a board (19 KB, it stays in the L1 cache), which is what lets
//! the judge answer a board in a few nanoseconds.

use std::sync::OnceLock;

use ply_core::{Outcome, Value};

use crate::{Board, Cell, Mark, CODES};

const REACHABLE: u8 = 0x80;
const SOLVED: u8 = 0x40;
const OUTCOME_SHIFT: u8 = 4;
const REMOTENESS: u8 = 0x0f;

/// One board of the solved table: whether it can occur (`X` moving first) and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry(u8);

impl Entry {
    /// Whether the board can occur in a game `X` starts.
    #[must_use]
    pub const fn is_reachable(self) -> bool {
        self.0 & REACHABLE != 0
    }

    /// The value for the side to move, if the board can occur.
    #[must_use]
    pub const fn value(self) -> Option<Value> {
        if !self.is_reachable() {
            return None;
        }
        let outcome = match (self.0 >> OUTCOME_SHIFT) & 3 {
            2 => Outcome::Win,
            1 => Outcome::Draw,
            _ => Outcome::Loss,
        };
        Some(Value {
            outcome,
            remoteness: (self.0 & REMOTENESS) as u32,
        })
    }

    /// Who wins under perfect play (`None` for a draw), if the board can occur; for a board
    /// where `X` moved first and `to_move` is next.
    #[must_use]
    pub const fn winner(self, to_move: Mark) -> Option<Option<Mark>> {
        match self.value() {
            None => None,
            Some(Value {
                outcome: Outcome::Win,
                ..
            }) => Some(Some(to_move)),
            Some(Value {
                outcome: Outcome::Loss,
                ..
            }) => Some(Some(to_move.other())),
            Some(_) => Some(None),
        }
    }

    const fn pack(v: Value) -> u8 {
        let outcome = match v.outcome {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        SOLVED | (outcome << OUTCOME_SHIFT) | (v.remoteness as u8 & REMOTENESS)
    }
}

/// Whose turn it is on a board `X` started, if the counts allow one.
fn mover(b: Board) -> Option<Mark> {
    let (x, o) = (b.count(Mark::X), b.count(Mark::O));
    if x == o {
        Some(Mark::X)
    } else if x == o + 1 {
        Some(Mark::O)
    } else {
        None
    }
}

fn is_final(b: Board) -> bool {
    b.has_line(Mark::X) || b.has_line(Mark::O) || b.is_full()
}

/// The codes of all boards, grouped by number of marks (index = marks).
fn codes_by_marks() -> [Vec<usize>; 10] {
    let mut groups: [Vec<usize>; 10] = Default::default();
    for code in 0..CODES {
        let b = Board::from_code(code).expect("code below 3^9");
        groups[(b.count(Mark::X) + b.count(Mark::O)) as usize].push(code);
    }
    groups
}

/// The value and reachability of every board.
#[derive(Debug)]
pub struct SolvedTable {
    entries: Box<[u8]>,
}

impl SolvedTable {
    /// The table, built on the first call (a millisecond or so) and shared afterwards.
    pub fn get() -> &'static SolvedTable {
        static TABLE: OnceLock<SolvedTable> = OnceLock::new();
        TABLE.get_or_init(SolvedTable::build)
    }

    fn build() -> SolvedTable {
        let groups = codes_by_marks();
        let mut entries = vec![0u8; CODES].into_boxed_slice();
        // Values, from the full boards back: a child has one mark more.
        for group in groups.iter().rev() {
            for &code in group {
                let b = Board::from_code(code).expect("code below 3^9");
                let Some(m) = mover(b) else { continue };
                let value = if b.has_line(m.other()) {
                    Value::loss(0)
                } else if b.has_line(m) {
                    Value::win(0) // only on boards that cannot occur; never reported
                } else if b.is_full() {
                    Value::draw(0)
                } else {
                    Cell::all()
                        .filter(|c| b.get(*c).is_none())
                        .map(|c| {
                            let child = Entry(entries[b.with(c, m).code()]);
                            child.value_unchecked().before_move()
                        })
                        .max()
                        .expect("a board that is not full has an empty cell")
                };
                entries[code] = Entry::pack(value);
            }
        }
        // Reachability, forward from the empty board.
        entries[Board::EMPTY.code()] |= REACHABLE;
        for group in &groups {
            for &code in group {
                let b = Board::from_code(code).expect("code below 3^9");
                if entries[code] & REACHABLE == 0 || is_final(b) {
                    continue;
                }
                let m = mover(b).expect("a reachable board has valid counts");
                for c in Cell::all().filter(|c| b.get(*c).is_none()) {
                    entries[b.with(c, m).code()] |= REACHABLE;
                }
            }
        }
        SolvedTable { entries }
    }

    /// The entry of `board`, `X` having moved first.
    #[must_use]
    pub fn entry(&self, board: Board) -> Entry {
        Entry(self.entries[board.code()])
    }

    /// The entry of the board with this base-3 code, `X` having moved first; the judge's
    /// hot path computes the code itself.
    ///
    /// # Panics
    ///
    /// If `code` is not below 3^9.
    #[must_use]
    pub fn entry_by_code(&self, code: usize) -> Entry {
        Entry(self.entries[code])
    }
}

impl Entry {
    /// The stored value, reachable or not (only used while building).
    fn value_unchecked(self) -> Value {
        Entry(self.0 | REACHABLE)
            .value()
            .expect("marked reachable just above")
    }
}

/// For every reachable board, the distinct final boards reachable from it, by result.
#[derive(Debug)]
pub struct FinalsTable {
    /// `[first wins, second wins, draws]` per code (`X` first); zero for unreachable boards.
    counts: Box<[[u16; 3]]>,
}

const WORDS: usize = 16; // 958 finals fit in 16 x 64 bits

impl FinalsTable {
    /// The table, built on the first call and shared afterwards.
    pub fn get() -> &'static FinalsTable {
        static TABLE: OnceLock<FinalsTable> = OnceLock::new();
        TABLE.get_or_init(FinalsTable::build)
    }

    fn build() -> FinalsTable {
        let solved = SolvedTable::get();
        let groups = codes_by_marks();
        // Number the reachable finals, and remember each one's result.
        let mut final_id = vec![usize::MAX; CODES];
        let mut result_of = Vec::new();
        for (code, id) in final_id.iter_mut().enumerate() {
            let b = Board::from_code(code).expect("code below 3^9");
            if solved.entry_by_code(code).is_reachable() && is_final(b) {
                *id = result_of.len();
                result_of.push(if b.has_line(Mark::X) {
                    0
                } else if b.has_line(Mark::O) {
                    1
                } else {
                    2
                });
            }
        }
        assert!(result_of.len() <= WORDS * 64, "finals fit the bit sets");
        // The set of finals below every reachable board, from the full boards back.
        let mut sets = vec![[0u64; WORDS]; CODES];
        let mut counts = vec![[0u16; 3]; CODES].into_boxed_slice();
        for group in groups.iter().rev() {
            for &code in group {
                if !solved.entry_by_code(code).is_reachable() {
                    continue;
                }
                let b = Board::from_code(code).expect("code below 3^9");
                let mut set = [0u64; WORDS];
                if let Some(&id) = final_id.get(code).filter(|&&id| id != usize::MAX) {
                    set[id / 64] |= 1 << (id % 64);
                } else {
                    let m = mover(b).expect("a reachable board has valid counts");
                    for c in Cell::all().filter(|c| b.get(*c).is_none()) {
                        let child = &sets[b.with(c, m).code()];
                        for (w, cw) in set.iter_mut().zip(child) {
                            *w |= cw;
                        }
                    }
                }
                for (w, &word) in set.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let id = w * 64 + bits.trailing_zeros() as usize;
                        counts[code][result_of[id]] += 1;
                        bits &= bits - 1;
                    }
                }
                sets[code] = set;
            }
        }
        FinalsTable { counts }
    }

    /// `[first player wins, second player wins, draws]` among the distinct final boards
    /// reachable from `board` (`X` having moved first); all zero if it cannot occur.
    #[must_use]
    pub fn counts(&self, board: Board) -> [u16; 3] {
        self.counts[board.code()]
    }
}
