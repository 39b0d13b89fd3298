//! The names files, `WTHOR.JOU` (players) and `WTHOR.TRN` (tournaments): the header every
//! WTHOR file starts with, then N2 names of 20 or 26 bytes, Latin-1, padded with zero
//! bytes (see the [parent module](super)).

use super::{check_count, Header, WthorError, HEADER_LEN};

/// Which names a names file holds, and so its record width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// `WTHOR.JOU`: 20 bytes a name.
    Players,
    /// `WTHOR.TRN`: 26 bytes a name.
    Tournaments,
}

impl NameKind {
    /// The bytes of one name record.
    #[must_use]
    pub const fn width(self) -> usize {
        match self {
            NameKind::Players => 20,
            NameKind::Tournaments => 26,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            NameKind::Players => "player",
            NameKind::Tournaments => "tournament",
        }
    }
}

/// A names file: `WTHOR.JOU` (players) or `WTHOR.TRN` (tournaments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// The header; [`Names::to_bytes`] writes the number of names into it.
    pub header: Header,
    /// Which file this is.
    pub kind: NameKind,
    /// The names, numbered from 0 in the game records.
    pub names: Vec<String>,
}

impl Names {
    /// The number of `name` among `names` (the list a names file is made of), the name
    /// added at the end when new; `None` past the 65536 names a game record numbers in 16
    /// bits (the name is added all the same).
    ///
    /// ```
    /// use ply_othello::wthor::Names;
    /// let mut names = Vec::new();
    /// assert_eq!(Names::number_of(&mut names, "ply"), Some(0));
    /// assert_eq!(Names::number_of(&mut names, "Edax"), Some(1));
    /// assert_eq!(Names::number_of(&mut names, "ply"), Some(0));
    /// assert_eq!(names, ["ply", "Edax"]);
    /// ```
    pub fn number_of(names: &mut Vec<String>, name: &str) -> Option<u16> {
        let k = match names.iter().position(|n| n == name) {
            Some(k) => k,
            None => {
                names.push(name.to_string());
                names.len() - 1
            }
        };
        u16::try_from(k).ok()
    }

    /// Reads a names file.
    ///
    /// # Errors
    /// A header shorter than 16 bytes or with a bad date, an N1 that is not 0, a count that
    /// disagrees with the file's length, a torn record, or a name that is not text: a control character, or
    /// something after the zero bytes that end it.
    pub fn read(bytes: &[u8], kind: NameKind) -> Result<Names, WthorError> {
        let header = Header::read(bytes)?;
        if header.games != 0 {
            return Err(WthorError::header(
                "games (N1)",
                4,
                format!(
                    "{} in a names file, where it must be 0 (is this a game file?)",
                    header.games
                ),
            ));
        }
        let width = kind.width();
        check_count(
            bytes,
            usize::from(header.names),
            width,
            "names (N2)",
            8,
            kind.noun(),
        )?;
        let names = bytes[HEADER_LEN..]
            .chunks_exact(width)
            .enumerate()
            .map(|(k, rec)| read_name(rec, k + 1, HEADER_LEN + k * width))
            .collect::<Result<_, _>>()?;
        Ok(Names {
            header,
            kind,
            names,
        })
    }

    /// The bytes of the file.
    ///
    /// # Errors
    /// A name with a character outside Latin-1 or a control character, one longer than a
    /// record leaves room for (19 bytes for a player, 25 for a tournament, one zero byte
    /// ending it), or more names than the count field holds.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WthorError> {
        let width = self.kind.width();
        let count = u16::try_from(self.names.len()).map_err(|_| {
            WthorError::header(
                "names (N2)",
                8,
                format!(
                    "{} names: the count field holds at most 65535",
                    self.names.len()
                ),
            )
        })?;
        let header = Header {
            names: count,
            games: 0,
            ..self.header
        };
        let mut out = Vec::with_capacity(HEADER_LEN + self.names.len() * width);
        out.extend_from_slice(&header.to_bytes());
        for (k, name) in self.names.iter().enumerate() {
            let at = HEADER_LEN + k * width;
            let err = |message: String| WthorError {
                record: Some(k + 1),
                field: "name",
                offset: at,
                message,
            };
            let mut rec = vec![0u8; width];
            for (len, c) in name.chars().enumerate() {
                let b = u8::try_from(u32::from(c))
                    .ok()
                    .filter(|&b| !is_control(b))
                    .ok_or_else(|| err(format!("`{name}`: {c:?} cannot be written in Latin-1")))?;
                if len + 1 >= width {
                    return Err(err(format!(
                        "`{name}` is longer than {} characters",
                        width - 1
                    )));
                }
                rec[len] = b;
            }
            out.extend_from_slice(&rec);
        }
        Ok(out)
    }
}

/// A control character of Latin-1 (C0 and C1), which no name holds.
fn is_control(b: u8) -> bool {
    b < 0x20 || (0x7f..0xa0).contains(&b)
}

/// A name record: Latin-1 text up to the first zero byte, only zero bytes after it.
fn read_name(rec: &[u8], number: usize, at: usize) -> Result<String, WthorError> {
    let end = rec.iter().position(|&b| b == 0).unwrap_or(rec.len());
    let err = |off: usize, message: String| WthorError {
        record: Some(number),
        field: "name",
        offset: at + off,
        message,
    };
    if let Some(k) = rec[..end].iter().position(|&b| is_control(b)) {
        return Err(err(
            k,
            format!("byte {:#04x} is a control character, not text", rec[k]),
        ));
    }
    if let Some(k) = rec[end..].iter().position(|&b| b != 0) {
        return Err(err(
            end + k,
            format!(
                "byte {:#04x} after the zero byte that ends the name (not a name record)",
                rec[end + k]
            ),
        ));
    }
    Ok(rec[..end].iter().map(|&b| char::from(b)).collect())
}
