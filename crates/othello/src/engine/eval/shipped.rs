//! The evaluations shipped with ply, their side-to-move handicaps, and the weights a
//! process may be asked to use in their place (`PLY_EVAL8`, `PLY_EVAL6`).

use std::sync::LazyLock;

use super::{weights, Eval};
use crate::BoardSize;

/// The side to move's handicap (see [`Eval::with_tempo`]) of the shipped evaluation of a
/// board size, in [`UNIT`]s, as measured by
/// `cargo run --release -p ply-train --example calibrate-tempo -- --size 8|6 --tempo T`.
/// On 8x8 the weights fitted to self-play games (`scripts/train-eval8`) searched with a
/// handicap of 66 were off by -2.12 discs on average at even depths and +1.94 at odd ones
/// (300 positions, depths 1 to 8): they need a bonus, not a handicap. With -64 the same run
/// gives -0.31 and +0.12 (it proposes -78, which costs the exact solver 5% more nodes on
/// FFO #40-#49 than -64: 0.494 G against 0.469 G). The weights of `scripts/train-eval8`
/// from the committed data (search labels from 24 empties), measured again: without a
/// handicap -1.48 at even depths and +0.78 at odd ones; with -64, -0.61 and -0.11 (it proposes
/// -80; -64 kept, as the solver's node counts are measured with it). The weights from 15
/// shards (session 23), with -64: -0.47 at even depths and -0.15 at odd ones (it proposes -74,
/// which cost the solver 1.3% more nodes on FFO #40-#49 with the selective spread of then:
/// 481.4 M against 475.2 M). On 6x6 (`--positions 1000`, depths 1 to
/// 10, the weights of `train-eval`) +0.51 and -0.94 without a handicap, -0.06 and -0.36
/// with 47. The shipped 8x8 network with -64 (`--positions 600`, 2026-11-29): -0.48 at even
/// depths, +0.21 at odd ones; the run proposes -86, which scored 46.3% of 200 games at 100 ms
/// a move against -64 (README, issue #48), so the network keeps the tables' -64.
#[must_use]
pub const fn shipped_tempo(size: BoardSize) -> i32 {
    match size {
        BoardSize::Eight => -64,
        _ => 47,
    }
}

/// The evaluation ply uses for a board size: the one [`requested`] names, else the shipped
/// one (on 8x8 the network of `data/eval8-net.bin`, ordering moves by the shipped [`tables`];
/// on 6x6 the tables); with [`shipped_tempo`]; `None` for 4x4.
///
/// # Panics
/// If a shipped file does not load, which a test rules out.
#[must_use]
pub fn builtin(size: BoardSize) -> Option<&'static Eval> {
    fn load(size: BoardSize) -> Eval {
        let tempo = shipped_tempo(size);
        match requested(size) {
            Ok(Some(e)) => return e.with_tempo(tempo),
            Ok(None) => {}
            // The command line refuses a bad file before anything runs (`requested`); a
            // library user is told and gets the shipped weights.
            Err(message) => eprintln!("warning: {message}; the shipped weights are used"),
        }
        match size {
            BoardSize::Eight => weights::read(size, include_bytes!("../../../data/eval8-net.bin"))
                .expect("the shipped network loads")
                .with_tempo(tempo),
            _ => tables(size).expect("an evaluated size").clone(),
        }
    }
    static EIGHT: LazyLock<Eval> = LazyLock::new(|| load(BoardSize::Eight));
    static SIX: LazyLock<Eval> = LazyLock::new(|| load(BoardSize::Six));
    match size {
        BoardSize::Eight => Some(&EIGHT),
        BoardSize::Six => Some(&SIX),
        BoardSize::Four => None,
    }
}

/// The evaluation that orders moves for a board size: [`builtin`]'s
/// [`Eval::for_ordering`], found without loading a network where none is needed (the exact
/// solver asks for it on every solve, and reading the shipped network takes tens of
/// milliseconds). `None` for 4x4.
#[must_use]
pub fn ordering(size: BoardSize) -> Option<&'static Eval> {
    let asked = override_variable(size)
        .and_then(std::env::var_os)
        .is_some_and(|v| !v.is_empty());
    if asked {
        builtin(size).map(Eval::for_ordering)
    } else {
        tables(size)
    }
}

/// The pattern tables shipped with ply for a board size, with [`shipped_tempo`], whatever
/// [`requested`] says; `None` for 4x4.
///
/// # Panics
/// If the shipped file does not load, which a test rules out.
#[must_use]
pub fn tables(size: BoardSize) -> Option<&'static Eval> {
    fn load(size: BoardSize, shipped: &[u8]) -> Eval {
        weights::read(size, shipped)
            .expect("the shipped weights load")
            .with_tempo(shipped_tempo(size))
    }
    static EIGHT: LazyLock<Eval> =
        LazyLock::new(|| load(BoardSize::Eight, include_bytes!("../../../data/eval8.bin")));
    static SIX: LazyLock<Eval> =
        LazyLock::new(|| load(BoardSize::Six, include_bytes!("../../../data/eval6.bin")));
    match size {
        BoardSize::Eight => Some(&EIGHT),
        BoardSize::Six => Some(&SIX),
        BoardSize::Four => None,
    }
}

/// The environment variable naming a weight file (tables or a network, as
/// [`weights::read`] reads) that every engine of the process evaluates `size` with in place
/// of the shipped one, with the shipped side-to-move handicap: `PLY_EVAL8`, `PLY_EVAL6` (set and
/// not empty). For
/// trying a new evaluation in the real engines (analyses, matches, `bench`) before it is
/// shipped; `None` for 4x4.
#[must_use]
pub fn override_variable(size: BoardSize) -> Option<&'static str> {
    match size {
        BoardSize::Eight => Some("PLY_EVAL8"),
        BoardSize::Six => Some("PLY_EVAL6"),
        BoardSize::Four => None,
    }
}

/// The evaluation [`override_variable`] asks for: `Ok(None)` when it is not set, an error
/// naming the variable, the file and what is wrong when it cannot be read or is not weights
/// of `size`.
///
/// # Errors
/// As above.
pub fn requested(size: BoardSize) -> Result<Option<Eval>, String> {
    let Some(var) = override_variable(size) else {
        return Ok(None);
    };
    let Some(path) = std::env::var_os(var).filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    let named = |e: &dyn std::fmt::Display| format!("{var}={}: {e}", path.to_string_lossy());
    let bytes = std::fs::read(&path).map_err(|e| named(&e))?;
    weights::read(size, &bytes).map(Some).map_err(|e| named(&e))
}
