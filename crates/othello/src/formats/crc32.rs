//! CRC-32 (the IEEE polynomial of zlib, PNG and gzip), by table: the checksum of the
//! training game files' headers and records (`ply-train`). Written here rather than taken
//! from a crate: twenty lines (the `png` crate's `crc32fast` is in the tree now, a candidate
//! if it ever matters).

/// The byte-at-a-time table of the reflected polynomial `0xEDB88320`.
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The CRC-32 of `bytes`.
///
/// ```
/// assert_eq!(ply_othello::crc32::crc32(b"123456789"), 0xcbf4_3926);
/// ```
#[must_use]
pub fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |c, &b| {
        TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

#[cfg(test)]
mod tests {
    use super::crc32;

    #[test]
    fn known_values() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"a"), 0xe8b7_be43);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414f_a339
        );
    }
}
