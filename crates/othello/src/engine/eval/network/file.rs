//! The network file: a header the loader checks field by field, then the quantized weights.
//!
//! ```text
//! offset  size  field
//!      0     8  magic            b"plynnue\n"
//!      8     4  format version   1 (u32, little-endian, as every number here)
//!     12     4  board side       6 or 8
//!     16     4  phases           phase_count(size)
//!     20     4  patterns         the layout's pattern count
//!     24   4*k  squares          each pattern's square count
//!      …     4  extras           the count of other features (`EXTRAS`)
//!      …   4*m  entries          each other feature's table length
//!      …     4  rows             Features::rows(): the feature rows
//!      …     4  width            the accumulator's width (1..=256)
//!      …     4  hidden           the hidden values (1..=64)
//!      …     8  checksum         FNV-1a 64 of every byte that follows
//!      …  2*rw  rows             i16, rows × width, at QA per unit
//!      …   2*w  bias             i16, the accumulator's start
//!      … p*h*w  hidden weights   i8, phase after phase, at QW per unit
//!      … 4*p*h  hidden biases    i32
//!      … 4*p*h  output weights   i32
//!      … 4*p*w  skip weights     i32
//!      …   4*p  output biases    i32
//! ```
//!
//! A file for another board size, pattern set or shape, a truncated, longer or corrupted
//! file: each is refused with a message naming the field and its byte offset.

use super::{Features, Network, Parts, MAX_HIDDEN, MAX_WIDTH};
use crate::{
    eval::{phase_count, weights::BadWeights, EXTRAS},
    formats::binfile::{fnv1a, Reader},
    BoardSize,
};

/// The first eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"plynnue\n";

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// The bytes of a network file for `net`.
#[must_use]
pub fn write(net: &Network) -> Vec<u8> {
    let features = Features::of(net.size).expect("an evaluated size");
    let l = features.layout;
    let mut out = MAGIC.to_vec();
    let num = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_le_bytes());
    num(&mut out, VERSION as usize);
    num(&mut out, usize::from(net.size.n()));
    num(&mut out, phase_count(net.size));
    num(&mut out, l.patterns.len());
    for p in l.patterns {
        num(&mut out, p.squares.len());
    }
    num(&mut out, EXTRAS.len());
    for (_, n) in EXTRAS {
        num(&mut out, n);
    }
    num(&mut out, features.rows());
    num(&mut out, net.width);
    num(&mut out, net.hidden);
    let mut body = Vec::new();
    body.extend(net.parts.canonical.iter().flat_map(|v| v.to_le_bytes()));
    body.extend(net.parts.bias.iter().flat_map(|v| v.to_le_bytes()));
    body.extend(net.parts.l2.iter().flat_map(|v| v.to_le_bytes()));
    let p = &net.parts;
    for part in [&p.l2_bias, &p.out, &p.skip, &p.out_bias] {
        body.extend(part.iter().flat_map(|v| v.to_le_bytes()));
    }
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Reads a network file for board size `size`.
///
/// # Errors
/// When the file is not a network file, is for another board size, pattern set or format
/// version, has a shape this build cannot run, is truncated or longer than its header says,
/// or fails its checksum: the message names the field and the byte it starts at.
pub fn read(size: BoardSize, bytes: &[u8]) -> Result<Network, BadWeights> {
    let Some(features) = Features::of(size) else {
        return Err(BadWeights::new(format!(
            "{0}x{0} has no evaluation (it is solved at once)",
            size.n()
        )));
    };
    let l = features.layout;
    if !bytes.starts_with(MAGIC) {
        return Err(BadWeights::new(
            "not a ply network file (it does not start with `plynnue`)",
        ));
    }
    let mut r = Reader { bytes, at: 8 };
    let at = |r: &Reader, what: &str, e: String| format!("{what} (byte {}): {e}", r.at);
    let version = r.u32("format version")?;
    if version != VERSION {
        return Err(BadWeights::new(format!(
            "format version (byte 8) is {version}, this build reads version {VERSION}"
        )));
    }
    let side = r.u32("board side")?;
    if side != u32::from(size.n()) {
        return Err(BadWeights::new(format!(
            "board side (byte 12): the file is for {side}x{side}, not {0}x{0}",
            size.n()
        )));
    }
    let expect = |r: &mut Reader, what: &str, want: usize| {
        let start = r.at;
        r.expect(what, want)
            .map_err(|e| BadWeights::new(format!("{what} (byte {start}): {e}")))
    };
    expect(&mut r, "phase count", phase_count(size))?;
    expect(&mut r, "pattern count", l.patterns.len())?;
    for p in l.patterns {
        expect(
            &mut r,
            &format!("square count of pattern `{}`", p.name),
            p.squares.len(),
        )?;
    }
    expect(&mut r, "count of other features", EXTRAS.len())?;
    for (name, n) in EXTRAS {
        expect(&mut r, &format!("table length of `{name}`"), n)?;
    }
    expect(&mut r, "row count", features.rows())?;
    let shape = |r: &mut Reader, what: &str, max: usize| -> Result<usize, BadWeights> {
        let start = r.at;
        let v = r.u32(what)? as usize;
        if (1..=max).contains(&v) {
            Ok(v)
        } else {
            Err(BadWeights::new(format!(
                "{what} (byte {start}) is {v}, this build runs 1 to {max}"
            )))
        }
    };
    let width = shape(&mut r, "width", MAX_WIDTH)?;
    let hidden = shape(&mut r, "hidden count", MAX_HIDDEN)?;
    let sum_at = r.at;
    let sum = r.u64("checksum")?;
    let body_at = r.at;
    let phases = phase_count(size);
    let rows = features.rows();
    let i16s = |r: &mut Reader, n: usize, what: &str| -> Result<Vec<i16>, BadWeights> {
        let b = r.take(2 * n, what)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    };
    let i32s = |r: &mut Reader, n: usize, what: &str| -> Result<Vec<i32>, BadWeights> {
        let b = r.take(4 * n, what)?;
        Ok(b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    let canonical = i16s(&mut r, rows * width, "rows")?;
    let bias = i16s(&mut r, width, "accumulator bias")?;
    let l2 = r
        .take(phases * hidden * width, "hidden weights")?
        .iter()
        .map(|&b| b as i8)
        .collect();
    let l2_bias = i32s(&mut r, phases * hidden, "hidden biases")?;
    let out = i32s(&mut r, phases * hidden, "output weights")?;
    let skip = i32s(&mut r, phases * width, "skip weights")?;
    let out_bias = i32s(&mut r, phases, "output biases")?;
    r.end("output biases")
        .map_err(|e| at(&r, "end of the file", e))?;
    if fnv1a(&bytes[body_at..]) != sum {
        return Err(BadWeights::new(format!(
            "checksum (byte {sum_at}): the weights from byte {body_at} fail it (corrupted)"
        )));
    }
    Ok(Network::from_parts(
        size,
        width,
        hidden,
        Parts {
            canonical,
            bias,
            l2,
            l2_bias,
            out,
            skip,
            out_bias,
        },
    ))
}

/// Whether `bytes` look like a network file (its magic), for readers of either kind.
#[must_use]
pub fn is_network(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

#[cfg(test)]
mod tests {
    use super::super::Float;
    use super::*;

    fn sample() -> (Network, Vec<u8>) {
        let net = Network::quantize(&Float::seeded(BoardSize::Six, 16, 4, 5));
        let bytes = write(&net);
        (net, bytes)
    }

    #[test]
    fn a_written_network_reads_back_the_same() {
        let (net, bytes) = sample();
        assert_eq!(read(BoardSize::Six, &bytes).unwrap(), net);
        assert!(is_network(&bytes));
    }

    /// Every damaged file is refused with the field and the byte offset in the message.
    #[test]
    fn a_damaged_file_is_refused_naming_the_field_and_its_byte() {
        let (_, bytes) = sample();
        let err = |b: &[u8]| read(BoardSize::Six, b).unwrap_err().to_string();
        // Another board size.
        let e = read(BoardSize::Eight, &bytes).unwrap_err().to_string();
        assert!(e.contains("board side (byte 12)"), "{e}");
        // A truncated body.
        let e = err(&bytes[..bytes.len() - 3]);
        assert!(e.contains("output biases (byte"), "{e}");
        // A width out of range: the header's width field follows the row count.
        let header = 8 + 4 * 4 + 4 * 8 + 4 + 4 * EXTRAS.len() + 4;
        let mut b = bytes.clone();
        b[header..header + 4].copy_from_slice(&0u32.to_le_bytes());
        let e = err(&b);
        assert!(e.contains(&format!("width (byte {header}) is 0")), "{e}");
        // A flipped weight byte.
        let mut b = bytes.clone();
        let last = b.len() - 1;
        b[last] ^= 1;
        let e = err(&b);
        assert!(
            e.contains("checksum (byte") && e.contains("corrupted"),
            "{e}"
        );
        // A byte too many.
        let mut b = bytes.clone();
        b.push(0);
        let e = err(&b);
        assert!(e.contains("1 bytes after the output biases"), "{e}");
        // Not a network file.
        assert!(err(b"plyeval\n").contains("not a ply network file"));
    }
}
