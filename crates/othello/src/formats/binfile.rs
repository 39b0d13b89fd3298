//! What the binary data files (evaluation weights, the opening book) share: a checksum and a
//! reader that names the field it could not read.

/// FNV-1a 64 of `bytes`: the checksum of the data files.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a 64 continued from `hash` over `bytes`: `fnv1a_from(fnv1a(a), b)` is the hash of `a`
/// then `b`.
pub(crate) fn fnv1a_from(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads a file's fields in order; a short file is an error naming the field it cuts.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, which hold `what`; a short file is an error naming `what` and the
    /// byte it starts at.
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at + n;
        let Some(s) = self.bytes.get(self.at..end) else {
            return Err(format!(
                "{what} (byte {}): the file ends at byte {} (truncated?)",
                self.at,
                self.bytes.len()
            ));
        };
        self.at = end;
        Ok(s)
    }

    /// A byte.
    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    /// A little-endian i16.
    pub(crate) fn i16(&mut self, what: &str) -> Result<i16, String> {
        let b = self.take(2, what)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }

    /// A little-endian i32.
    pub(crate) fn i32(&mut self, what: &str) -> Result<i32, String> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    /// A little-endian u32.
    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian u64.
    pub(crate) fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    /// A u32 that must be `want`.
    pub(crate) fn expect(&mut self, what: &str, want: usize) -> Result<(), String> {
        let got = self.u32(what)?;
        if got as usize != want {
            return Err(format!(
                "the file's {what} is {got}, this build needs {want}"
            ));
        }
        Ok(())
    }

    /// Checks that nothing follows the last field, `last`.
    pub(crate) fn end(&self, last: &str) -> Result<(), String> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(format!(
                "{} bytes after the {last}",
                self.bytes.len() - self.at
            ))
        }
    }
}
