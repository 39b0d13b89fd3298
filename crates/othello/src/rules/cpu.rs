//! The processor's fast paths, chosen once when the process starts.
//!
//! One build runs everywhere: the hot code (move generation and flips, perft, the exact
//! solver, the evaluation's search) is written once, generic over a [`Cpu`] token, and
//! compiled three times on x86-64: for the baseline (any x86-64), for x86-64-v3 (AVX2, BMI1,
//! BMI2, POPCNT, LZCNT, FMA, MOVBE) and for AVX-512 (v3 with AVX-512 F, VL, CD, BW, DQ).
//! [`level`] picks the best the processor has, once; `PLY_CPU=baseline|v3|avx512` asks for a
//! lower one (for tests and comparisons).
//!
//! The choice is made high, not per move: an entry point (perft's count, a solver thread's
//! search, the evaluation's search) is entered through `with_cpu!` once per search, and
//! each recursive function of it runs its body inside [`Cpu::run`], a function compiled
//! with the level's instructions into which the body (an `#[inline(always)]` closure) and
//! the leaves below it (the flips, the legal moves, popcount) are inlined. A token ([`V3`],
//! [`Avx512`]) exists only where [`detect`] found its instructions, which is what makes
//! running its code sound.
//!
//! Two things keep that wrapping as cheap as a plain call. The closures are `move`: they
//! capture their arguments by value, where a closure that borrows them makes the caller
//! spill each one and the body read it back through a pointer. And the small helpers a
//! node calls (the table's key, probe and store) are `#[inline(always)]`: LLVM left them
//! out of line, compiled for the baseline, once their callers carried the level's
//! instructions. Together these took the solver from 9.7% more instructions than 411cab3 built
//! for the native processor (Zen 3) to 0.4% more (FFO #40 under callgrind).
//!
//! Other architectures have only [`Baseline`], the portable bodies.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// A set of instructions the hot code is compiled for, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Any x86-64 processor (and every other architecture): the portable bodies.
    Baseline,
    /// x86-64-v3: AVX2, BMI1, BMI2, POPCNT, LZCNT, FMA, MOVBE.
    V3,
    /// x86-64-v3 and AVX-512 F, VL, CD, BW, DQ.
    Avx512,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Baseline, Level::V3, Level::Avx512];

    /// The level's name in `PLY_CPU`: `baseline`, `v3` or `avx512`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::V3 => "v3",
            Level::Avx512 => "avx512",
        }
    }

    /// How `ply --version` names the paths: `x86-64 baseline`, `x86-64-v3`, `x86-64 AVX-512`
    /// (`portable` off x86-64).
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Level::Baseline if cfg!(target_arch = "x86_64") => "x86-64 baseline",
            Level::Baseline => "portable",
            Level::V3 => "x86-64-v3",
            Level::Avx512 => "x86-64 AVX-512",
        }
    }

    /// The level named `name` (as [`Level::name`] spells it).
    ///
    /// # Errors
    ///
    /// A message naming the bad value and the good ones.
    pub fn parse(name: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == name.trim())
            .ok_or_else(|| format!("PLY_CPU={name:?}: expected baseline, v3 or avx512"))
    }
}

/// The best level this processor runs (detected afresh on each call; [`level`] keeps it).
#[must_use]
pub fn detect() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let v3 = has!("avx")
            && has!("avx2")
            && has!("bmi1")
            && has!("bmi2")
            && has!("popcnt")
            && has!("lzcnt")
            && has!("fma")
            && has!("movbe")
            && has!("f16c")
            && has!("sse4.2");
        let avx512 = v3
            && has!("avx512f")
            && has!("avx512vl")
            && has!("avx512cd")
            && has!("avx512bw")
            && has!("avx512dq");
        if avx512 {
            Level::Avx512
        } else if v3 {
            Level::V3
        } else {
            Level::Baseline
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Level::Baseline
    }
}

/// The level `PLY_CPU` asks for, checked against what the processor has: `Ok(None)` when
/// the variable is not set.
///
/// # Errors
///
/// A message when the value names no level, or a level above the processor's.
pub fn requested() -> Result<Option<Level>, String> {
    let Some(value) = std::env::var_os("PLY_CPU") else {
        return Ok(None);
    };
    let value = value.to_string_lossy();
    let wanted = Level::parse(&value)?;
    let best = detect();
    if wanted > best {
        return Err(format!(
            "PLY_CPU={value}: this processor has no {} paths (its best: {})",
            wanted.describe(),
            best.name()
        ));
    }
    Ok(Some(wanted))
}

/// 0 until the level is chosen, then 1 + the level.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// The level the process runs at: the processor's best, or the lower one `PLY_CPU` asks for.
/// Chosen on the first call and kept. A `PLY_CPU` that names no level, or one the processor
/// lacks, is not obeyed: the processor's best is used and a warning goes to stderr once (the
/// command line refuses such a value before it starts, [`requested`]).
#[inline]
#[must_use]
pub fn level() -> Level {
    match CHOSEN.load(Relaxed) {
        1 => Level::Baseline,
        2 => Level::V3,
        3 => Level::Avx512,
        _ => choose(),
    }
}

#[cold]
fn choose() -> Level {
    let level = match requested() {
        Ok(wanted) => wanted.unwrap_or_else(detect),
        Err(message) => {
            let best = detect();
            eprintln!("ply: {message}; using {} paths", best.describe());
            best
        }
    };
    // Two threads may both choose; they choose the same.
    CHOSEN.store(level as u8 + 1, Relaxed);
    level
}

/// The token of the chosen [`level`], to enter generic code with (the crate's `with_cpu!`).
#[derive(Clone, Copy, Debug)]
pub enum Selected {
    /// [`Level::Baseline`].
    Baseline(Baseline),
    /// [`Level::V3`].
    V3(V3),
    /// [`Level::Avx512`].
    Avx512(Avx512),
}

/// The token of [`level`].
#[inline]
#[must_use]
pub fn selected() -> Selected {
    match level() {
        Level::Baseline => Selected::Baseline(Baseline),
        // The chosen level is never above the detected one.
        Level::V3 => Selected::V3(V3(())),
        Level::Avx512 => Selected::Avx512(Avx512(())),
    }
}

/// Runs `$body` with `$cpu` bound to the token of the chosen [`level`]: the body is compiled
/// once per level (`$cpu` has a different type in each).
macro_rules! with_cpu {
    ($cpu:ident => $body:expr) => {
        match $crate::cpu::selected() {
            $crate::cpu::Selected::Baseline($cpu) => $body,
            $crate::cpu::Selected::V3($cpu) => $body,
            $crate::cpu::Selected::Avx512($cpu) => $body,
        }
    };
}
pub(crate) use with_cpu;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Baseline {}
    impl Sealed for super::V3 {}
    impl Sealed for super::Avx512 {}
}

/// Proof that the processor runs a level's instructions, and the way into code compiled
/// for them.
pub trait Cpu: Copy + Send + Sync + std::fmt::Debug + 'static + sealed::Sealed {
    /// The level this token stands for.
    const LEVEL: Level;

    /// Runs `f` inside a function compiled for this level's instructions: `f` and what it
    /// inlines use them. The hot recursive functions each wrap their body in it.
    fn run<R>(self, f: impl FnOnce() -> R) -> R;
}

/// Any x86-64 processor: always available.
#[derive(Clone, Copy, Debug, Default)]
pub struct Baseline;

/// x86-64-v3 (see [`Level::V3`]): only made where the processor has it.
#[derive(Clone, Copy, Debug)]
pub struct V3(());

/// AVX-512 (see [`Level::Avx512`]): only made where the processor has it.
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl V3 {
    /// The token, if this processor runs x86-64-v3.
    #[must_use]
    pub fn new() -> Option<V3> {
        (detect() >= Level::V3).then_some(V3(()))
    }
}

impl Avx512 {
    /// The token, if this processor runs the AVX-512 paths.
    #[must_use]
    pub fn new() -> Option<Avx512> {
        (detect() >= Level::Avx512).then_some(Avx512(()))
    }
}

impl Cpu for Baseline {
    const LEVEL: Level = Level::Baseline;

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }
}

impl Cpu for V3 {
    const LEVEL: Level = Level::V3;

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: a `V3` token is only made where `detect` found these instructions.
        unsafe { in_v3(f) }
    }
}

impl Cpu for Avx512 {
    const LEVEL: Level = Level::Avx512;

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: an `Avx512` token is only made where `detect` found these instructions.
        unsafe { in_avx512(f) }
    }
}

/// Runs `f` compiled for x86-64-v3. Safety: the processor must have it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx,avx2,fma,f16c,movbe")]
#[inline]
unsafe fn in_v3<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f` compiled for AVX-512. Safety: the processor must have it.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "popcnt,lzcnt,bmi1,bmi2,avx,avx2,fma,f16c,movbe,avx512f,avx512vl,avx512cd,avx512bw,avx512dq"
)]
#[inline]
unsafe fn in_avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Off x86-64 no token above the baseline is ever made.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn in_v3<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Off x86-64 no token above the baseline is ever made.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn in_avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_bad_ones_are_named() {
        for l in Level::ALL {
            assert_eq!(Level::parse(l.name()), Ok(l));
        }
        let err = Level::parse("avx2").unwrap_err();
        assert!(
            err.contains("\"avx2\"") && err.contains("baseline, v3 or avx512"),
            "{err}"
        );
    }

    #[test]
    fn the_chosen_level_is_never_above_the_processor() {
        assert!(level() <= detect());
        assert_eq!(V3::new().is_some(), detect() >= Level::V3);
        assert_eq!(Avx512::new().is_some(), detect() >= Level::Avx512);
    }
}
