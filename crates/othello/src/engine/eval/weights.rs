//! The weight file: a header the loader checks field by field, then the weights.
//!
//! ```text
//! offset  size  field
//!      0     8  magic            b"plyeval\n"
//!      8     4  format version   1 (u32, little-endian, as every number here)
//!     12     4  board side       6 or 8
//!     16     4  phases           phase_count(size)
//!     20     4  patterns         the layout's pattern count
//!     24   4*k  squares          each pattern's square count
//!      …     4  extras           the count of other features (`EXTRAS`)
//!      …   4*m  entries          each other feature's table length
//!      …     4  weights/phase    Eval::weights_per_phase(size)
//!      …     8  checksum         FNV-1a 64 of the weight bytes that follow
//!      …   2*n  weights          i16, phase after phase
//! ```
//!
//! A file made for another board size, another pattern set or another format version, a
//! truncated file and a corrupted one are all refused with a message that says which.

use std::fmt;

use super::{layout, phase_count, Eval};
use crate::{
    formats::binfile::{fnv1a, Reader},
    BoardSize,
};

const MAGIC: &[u8; 8] = b"plyeval\n";

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadWeights(String);

impl BadWeights {
    pub(crate) fn new(message: impl Into<String>) -> BadWeights {
        BadWeights(message.into())
    }
}

impl From<String> for BadWeights {
    fn from(message: String) -> BadWeights {
        BadWeights(message)
    }
}

impl fmt::Display for BadWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "evaluation weights: {}", self.0)
    }
}

impl std::error::Error for BadWeights {}

/// The bytes of a weight file for `eval`.
#[must_use]
pub fn write(eval: &Eval) -> Vec<u8> {
    let size = eval.size();
    let l = eval.layout();
    let mut out = MAGIC.to_vec();
    let num = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_le_bytes());
    num(&mut out, VERSION as usize);
    num(&mut out, usize::from(size.n()));
    num(&mut out, phase_count(size));
    num(&mut out, l.patterns.len());
    for p in l.patterns {
        num(&mut out, p.squares.len());
    }
    num(&mut out, super::EXTRAS.len());
    for (_, n) in super::EXTRAS {
        num(&mut out, n);
    }
    num(
        &mut out,
        Eval::weights_per_phase(size).expect("an evaluated size"),
    );
    let body: Vec<u8> = eval
        .weights()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Reads a weight file for board size `size`.
///
/// # Errors
/// When the file is not a weight file, is for another board size, pattern set or format
/// version, is truncated or longer than its header says, or fails its checksum.
pub fn read(size: BoardSize, bytes: &[u8]) -> Result<Eval, BadWeights> {
    let Some(l) = layout(size) else {
        return Err(BadWeights::new(format!(
            "{0}x{0} has no evaluation (it is solved at once)",
            size.n()
        )));
    };
    if super::network::file::is_network(bytes) {
        // The shipped tables order the moves of searches that the network evaluates.
        let tables = super::shipped::tables(size).expect("an evaluated size");
        return super::network::file::read(size, bytes)
            .map(|net| Eval::from_network(net).ordered_by(tables));
    }
    if !bytes.starts_with(MAGIC) {
        return Err(BadWeights::new(
            "not a ply weight file (it starts with neither `plyeval` nor `plynnue`)",
        ));
    }
    let mut r = Reader { bytes, at: 8 };
    let version = r.u32("format version")?;
    if version != VERSION {
        return Err(BadWeights::new(format!(
            "format version {version}, this build reads version {VERSION}"
        )));
    }
    let side = r.u32("board side")?;
    if side != u32::from(size.n()) {
        return Err(BadWeights::new(format!(
            "the file is for {side}x{side}, not {0}x{0}",
            size.n()
        )));
    }
    r.expect("phase count", phase_count(size))?;
    r.expect("pattern count", l.patterns.len())?;
    for p in l.patterns {
        r.expect(
            &format!("square count of pattern `{}`", p.name),
            p.squares.len(),
        )?;
    }
    r.expect("count of other features", super::EXTRAS.len())?;
    for (name, n) in super::EXTRAS {
        r.expect(&format!("table length of `{name}`"), n)?;
    }
    let per_phase = Eval::weights_per_phase(size).expect("an evaluated size");
    r.expect("weights per phase", per_phase)?;
    let sum = r.u64("checksum")?;
    let n = per_phase * phase_count(size);
    let body = r.take(2 * n, "weights")?;
    r.end("last weight")?;
    if fnv1a(body) != sum {
        return Err(BadWeights::new(
            "the weights fail their checksum (corrupted)",
        ));
    }
    let weights = body
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    Eval::from_weights(size, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(size: BoardSize) -> Eval {
        let n = Eval::weights_per_phase(size).unwrap() * phase_count(size);
        let w = (0..n).map(|i| (i % 501) as i16 - 250).collect();
        Eval::from_weights(size, w).unwrap()
    }

    /// A network read from its file values positions itself but orders moves by the
    /// shipped tables (the exact solver's ordering and pruning stay as they were); tables
    /// order by themselves.
    #[test]
    fn a_network_file_orders_moves_by_the_shipped_tables() {
        use super::super::network::{file, Float, Network};
        for size in [BoardSize::Six, BoardSize::Eight] {
            let net = Network::quantize(&Float::seeded(size, 16, 4, 1));
            let e = read(size, &file::write(&net)).unwrap();
            assert_eq!(e.network(), Some(&net));
            let shipped = super::super::shipped::tables(size).unwrap();
            assert_eq!(e.for_ordering(), shipped);
            let pos = crate::Position::start(size);
            let (p, o) = (pos.player().0, pos.opponent().0);
            let state = e.state(p, o);
            assert_eq!(e.evaluate(&state, p, o), net.evaluate(p, o));
            let t = sample(size);
            assert_eq!(t.for_ordering(), &t);
        }
    }

    #[test]
    fn files_round_trip() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = sample(size);
            assert_eq!(read(size, &write(&e)).unwrap(), e);
        }
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let e = sample(BoardSize::Six);
        let bytes = write(&e);
        let why = |b: &[u8], size| read(size, b).unwrap_err().to_string();
        assert!(why(&bytes[..bytes.len() - 1], BoardSize::Six).contains("truncated"));
        assert!(why(&bytes[..30], BoardSize::Six).contains("truncated"));
        assert!(why(b"GIF89a....", BoardSize::Six).contains("not a ply weight file"));
        assert!(why(&bytes, BoardSize::Eight).contains("for 6x6, not 8x8"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(why(&longer, BoardSize::Six).contains("after the last weight"));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(why(&flipped, BoardSize::Six).contains("checksum"));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(why(&v2, BoardSize::Six).contains("format version 2"));
        let mut other = bytes;
        other[24] = 7; // the first pattern's square count
        assert!(why(&other, BoardSize::Six).contains("square count of pattern"));
    }
}
