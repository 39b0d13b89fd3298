//! A game clock and how much of it a move may spend.
//!
//! Four time controls, as GUIs and servers set them: sudden death (one main time for the
//! whole game), Fischer (main time and an increment added after each move), Canadian
//! byo-yomi (after main time, a period of so many seconds for so many moves) and Japanese
//! byo-yomi (after main time, a number of periods, each lost only when a move overruns it).
//!
//! [`SideClock::budget`] decides a move's time as strong engines do: what is left is shared
//! among the moves still to play, weighted towards the early middle game (where a deeper
//! search changes the result most; the opening book and the exact solver make the first and
//! the last moves cheap), a safety margin is kept back for the time a protocol and a process
//! take around the search, and a move never plans to use more than the clock holds, so the
//! player never loses on time.
//!
//! ```
//! use std::time::Duration;
//! use ply_othello::play::{SideClock, TimeControl};
//!
//! let fischer = TimeControl::Fischer { main: Duration::from_secs(2), increment: Duration::from_millis(100) };
//! let mut clock = SideClock::new(fischer);
//! let first = clock.budget(60).expect("a game clock");
//! assert!(first > Duration::ZERO && first < Duration::from_millis(300));
//! clock.spend(first);
//! assert!(clock.main_left() > Duration::from_secs(1));
//! ```

use std::time::Duration;

/// How a game is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No game clock: every move gets the player's own move time.
    None,
    /// One main time for the whole game.
    SuddenDeath {
        /// The game's time.
        main: Duration,
    },
    /// Main time, and `increment` added after every move.
    Fischer {
        /// The time at the start.
        main: Duration,
        /// Added after every move.
        increment: Duration,
    },
    /// Main time, then periods of `period` for `stones` moves each.
    Canadian {
        /// The time before byo-yomi.
        main: Duration,
        /// A period's time.
        period: Duration,
        /// The moves to play in a period.
        stones: u32,
    },
    /// Main time, then `periods` periods of `period` each: a move within a period keeps it,
    /// a move that overruns it loses it.
    Japanese {
        /// The time before byo-yomi.
        main: Duration,
        /// A period's time.
        period: Duration,
        /// The periods.
        periods: u32,
    },
}

/// What a move costs around the search: reading the command, writing the answer, the
/// other side's process noticing. Kept back on every move.
pub const OVERHEAD: Duration = Duration::from_millis(30);

/// The least a move is given, whatever the clock: the first iteration of the search
/// always completes, so less would not be honoured anyway.
pub const FLOOR: Duration = Duration::from_millis(5);

/// One side's clock under a [`TimeControl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    control: TimeControl,
    /// Main time left (zero once in byo-yomi).
    main: Duration,
    /// Time left in the current byo-yomi period.
    period: Duration,
    /// Canadian: moves still to play in the current period (0 in main time). Japanese:
    /// periods left.
    count: u32,
    /// Whether main time is over.
    in_byo_yomi: bool,
}

impl SideClock {
    /// A full clock under `control`.
    #[must_use]
    pub fn new(control: TimeControl) -> SideClock {
        let (main, period, count) = match control {
            TimeControl::None => (Duration::ZERO, Duration::ZERO, 0),
            TimeControl::SuddenDeath { main } | TimeControl::Fischer { main, .. } => {
                (main, Duration::ZERO, 0)
            }
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => (main, period, stones),
            TimeControl::Japanese {
                main,
                period,
                periods,
            } => (main, period, periods),
        };
        let mut clock = SideClock {
            control,
            main,
            period,
            count,
            in_byo_yomi: false,
        };
        clock.enter_byo_yomi_if_out();
        clock
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Main time left.
    #[must_use]
    pub fn main_left(&self) -> Duration {
        self.main
    }

    /// In byo-yomi, the time left in the current period; zero in main time.
    #[must_use]
    pub fn period_left(&self) -> Duration {
        if self.in_byo_yomi {
            self.period
        } else {
            Duration::ZERO
        }
    }

    /// Whether main time is over and the side plays in byo-yomi.
    #[must_use]
    pub fn in_byo_yomi(&self) -> bool {
        self.in_byo_yomi
    }

    /// In byo-yomi, the moves still to play in the period (Canadian) or the periods left
    /// (Japanese); 0 in main time.
    #[must_use]
    pub fn byo_yomi_count(&self) -> u32 {
        if self.in_byo_yomi {
            self.count
        } else {
            0
        }
    }

    /// Sets what is left as a protocol reports it (GTP's `time_left`, NBoard's clock): in
    /// main time `stones` is 0 and `left` the main time; in byo-yomi `left` is the current
    /// period's time and `stones` the moves (Canadian) or periods (Japanese) left.
    pub fn set_left(&mut self, left: Duration, stones: u32) {
        match self.control {
            TimeControl::Canadian { .. } | TimeControl::Japanese { .. } if stones > 0 => {
                self.main = Duration::ZERO;
                self.period = left;
                self.count = stones;
                self.in_byo_yomi = true;
            }
            _ => {
                self.main = left;
                self.in_byo_yomi = false;
                self.enter_byo_yomi_if_out();
            }
        }
    }

    fn enter_byo_yomi_if_out(&mut self) {
        if self.main > Duration::ZERO || self.in_byo_yomi {
            return;
        }
        match self.control {
            TimeControl::Canadian { period, stones, .. } if stones > 0 => {
                self.in_byo_yomi = true;
                self.period = period;
                self.count = stones;
            }
            TimeControl::Japanese {
                period, periods, ..
            } if periods > 0 => {
                self.in_byo_yomi = true;
                self.period = period;
                self.count = periods;
            }
            _ => {}
        }
    }

    /// Takes a move's `used` time off the clock: main time first, then byo-yomi (a
    /// Canadian period renews after its moves, a Japanese one after every move within it);
    /// a Fischer increment is added after the move.
    pub fn spend(&mut self, used: Duration) {
        let mut used = used;
        if !self.in_byo_yomi {
            let from_main = used.min(self.main);
            self.main -= from_main;
            used -= from_main;
            if let TimeControl::Fischer { increment, .. } = self.control {
                self.main += increment;
                return;
            }
            if self.main > Duration::ZERO {
                return;
            }
            self.enter_byo_yomi_if_out();
            if !self.in_byo_yomi {
                return;
            }
        }
        match self.control {
            TimeControl::Canadian { period, stones, .. } => {
                self.period = self.period.saturating_sub(used);
                self.count = self.count.saturating_sub(1);
                if self.count == 0 && self.period > Duration::ZERO {
                    self.period = period;
                    self.count = stones;
                }
            }
            TimeControl::Japanese { period, .. } => {
                // Each whole period the move overran is lost.
                let mut over = used;
                while over >= period && self.count > 0 && period > Duration::ZERO {
                    over -= period;
                    self.count -= 1;
                }
                self.period = period;
            }
            _ => {}
        }
    }

    /// How long the next move may think, with `empties` empty squares on the board: never
    /// more than the clock holds less [`OVERHEAD`], at least [`FLOOR`]; `None` without a
    /// game clock (the player's own move time then decides).
    #[must_use]
    pub fn budget(&self, empties: u32) -> Option<Duration> {
        let usable = |d: Duration| d.saturating_sub(OVERHEAD);
        let share = match self.control {
            TimeControl::None => return None,
            _ if self.in_byo_yomi => match self.control {
                TimeControl::Canadian { .. } => {
                    // The period's time shared among its moves, a tenth kept back.
                    usable(self.period).mul_f64(0.9) / self.count.max(1)
                }
                TimeControl::Japanese { .. } => usable(self.period).mul_f64(0.85),
                _ => Duration::ZERO,
            },
            TimeControl::SuddenDeath { .. } => main_share(self.main, empties, Duration::ZERO),
            TimeControl::Fischer { increment, .. } => {
                // The increment comes back after the move: most of it can be spent on it,
                // but never more than the main time holds now.
                let share = main_share(self.main, empties, increment) + increment.mul_f64(0.8);
                share.min(usable(self.main).mul_f64(0.5))
            }
            TimeControl::Canadian { period, stones, .. } => {
                // Main time, and the first period waits behind it.
                main_share(self.main, empties, Duration::ZERO)
                    + (usable(period).mul_f64(0.5) / stones.max(1))
            }
            TimeControl::Japanese { period, .. } => {
                // A move within a period keeps it: main time's share plus most of a period.
                main_share(self.main, empties, Duration::ZERO) + usable(period).mul_f64(0.7)
            }
        };
        Some(share.max(FLOOR))
    }
}

/// Weight of a move with `empties` empty squares in the share of main time: the early
/// middle game gets most, the opening (often the book) and the endgame (the exact solver,
/// helped by what it kept from earlier moves) less.
#[must_use]
pub fn phase_weight(empties: u32) -> f64 {
    match empties {
        53.. => 0.7,
        37..=52 => 1.5,
        25..=36 => 1.2,
        15..=24 => 0.7,
        _ => 0.25,
    }
}

/// This move's share of `main` with `empties` empty squares: main time, less a safety
/// margin (a twentieth, and the [`OVERHEAD`] of each move still to play that the `income`
/// each move brings, a Fischer increment, does not cover), weighted by [`phase_weight`]
/// against the moves this side still plays (every other empty square).
#[must_use]
pub fn main_share(main: Duration, empties: u32, income: Duration) -> Duration {
    let moves = empties.div_ceil(2).max(1);
    let reserve = main.mul_f64(0.05) + OVERHEAD.saturating_sub(income) * moves;
    let pool = main.saturating_sub(reserve);
    let total: f64 = (0..moves)
        .map(|i| phase_weight(empties.saturating_sub(2 * i)))
        .sum();
    pool.mul_f64(phase_weight(empties) / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    /// The slow reference of [`main_share`]'s weights: the moves one by one.
    #[test]
    fn the_shares_of_a_whole_game_add_up_to_less_than_main_time() {
        for main in [MS(500), MS(2000), MS(60_000), MS(600_000)] {
            let mut total = Duration::ZERO;
            let mut left = main;
            for empties in (2..=60u32).rev().step_by(2) {
                let b = main_share(left, empties, Duration::ZERO);
                left -= b;
                total += b;
            }
            assert!(total < main, "{main:?}: {total:?}");
            // The last move keeps its reserve: a twentieth of what is left and the
            // overhead of a move, so the clock never runs out on the shares alone.
            assert!(left >= OVERHEAD, "{main:?}: {left:?} kept");
        }
    }
}
