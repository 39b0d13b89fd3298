//! What the protocol parsers' property tests share: a good line damaged by random edits.

/// An edit of a line: at a place (taken modulo the line's length + 1), a character, and what
/// to do there (0 set the character, 1 insert it, anything else cut the line).
pub type Edit = (usize, char, u8);

/// `line` with `edits` applied in order.
pub fn damaged(line: &str, edits: &[Edit]) -> String {
    let mut line: Vec<char> = line.chars().collect();
    for &(at, c, how) in edits {
        let i = at % (line.len() + 1);
        match how {
            0 if i < line.len() => line[i] = c,
            1 => line.insert(i, c),
            _ => line.truncate(i),
        }
    }
    line.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::damaged;

    #[test]
    fn each_edit_sets_inserts_or_cuts() {
        assert_eq!(damaged("ping", &[(0, 'P', 0)]), "Ping");
        assert_eq!(damaged("ping", &[(4, '!', 1)]), "ping!");
        assert_eq!(
            damaged("ping", &[(6, 'x', 2)]),
            "p",
            "6 mod 5 is 1: cut there"
        );
        assert_eq!(
            damaged("ping", &[(4, 'x', 0)]),
            "ping",
            "nothing to set at the end"
        );
    }
}
