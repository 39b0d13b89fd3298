//! GTP answers: `=` for success, `?` for failure, the id right after the sign, a space and
//! the text, and an empty line to end the answer. A text of several lines goes on below the
//! first (`= protocol_version`, `name`, …, as GNU Go answers `list_commands`); a picture,
//! whose text starts with a newline, starts on the line below the sign. An empty line inside
//! a text would end the answer early, so none is written.

/// The whole answer to a command with `id`: its text, or the message saying why it failed.
pub fn format(id: Option<&str>, result: &Result<String, String>) -> String {
    let (sign, text) = match result {
        Ok(text) => ('=', text.as_str()),
        Err(message) => ('?', message.as_str()),
    };
    let mut s = String::new();
    s.push(sign);
    s.push_str(id.unwrap_or(""));
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    for (i, line) in lines.iter().enumerate() {
        s.push(if i == 0 && !text.starts_with('\n') {
            ' '
        } else {
            '\n'
        });
        s.push_str(line);
    }
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_and_failure_with_and_without_id() {
        assert_eq!(format(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format(Some("7"), &Ok("D3".to_owned())), "=7 D3\n\n");
        assert_eq!(format(None, &Ok("2".to_owned())), "= 2\n\n");
        assert_eq!(
            format(
                Some("3"),
                &Err("illegal move: d4 is already taken".to_owned())
            ),
            "?3 illegal move: d4 is already taken\n\n"
        );
        assert_eq!(
            format(None, &Err("unknown command: `x`".to_owned())),
            "? unknown command: `x`\n\n"
        );
    }

    #[test]
    fn several_lines_start_below_the_sign_and_hold_no_empty_line() {
        assert_eq!(
            format(Some("1"), &Ok("name\nplay\n\nquit\n".to_owned())),
            "=1 name\nplay\nquit\n\n"
        );
        // A picture that starts with a newline keeps its first line below the sign.
        assert_eq!(
            format(None, &Ok("\n  a b\n1 X O  \n".to_owned())),
            "=\n  a b\n1 X O\n\n"
        );
    }
}
