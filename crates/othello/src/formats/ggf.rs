//! GGF, the Generic Game Format of the GGS game server, as Edax and other tools write it:
//!
//! ```text
//! (;GM[Othello]PC[ply]PB[alice]PW[bob]RE[+4.000]BO[8 -------- -------- -------- ---O*---
//!  ---*O--- -------- -------- -------- *]B[f5]W[d6]…;)
//! ```
//!
//! `BO` holds the start position (the size, the rows separated by spaces, `*` black, `O`
//! white, `-` empty, then the side to move); `B[…]` and `W[…]` are the moves, a value being a
//! square, `PA` for a pass, optionally followed by `/eval/time`. A move by the colour that is
//! not to move is accepted only where that colour's opponent has to pass (some writers leave
//! such passes out); the pass is then stored. A comment `C[…]` after a move belongs to that
//! move (a game review writes one after each move it marks); other tags, and comments before
//! the first move, are kept as they are and written back in their order.
//!
//! The clock a game is played on is GGS's `TI[main/increment/extension]` (each
//! `[[h:]m:]s`, an empty part zero, `TI[5:00]` five minutes sudden death), read by
//! [`clock`]; the time each move took, the third field of its value, by
//! [`GgfGame::parse_timed`].

use std::{fmt, time::Duration};

use crate::{BoardSize, Color, GameRecord, Move, ParseError, Position, Square};

/// A game record: its tags (other than `GM`, `BO`, `B` and `W`), the game, and the comments
/// on its moves.
///
/// ```
/// use ply_othello::ggf::GgfGame;
/// let text = "(;GM[Othello]PB[a]BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1];)";
/// let rec = GgfGame::parse(text).unwrap();
/// assert_eq!(rec.game.moves().len(), 2);
/// assert_eq!(rec.to_string(), text);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GgfGame {
    /// Tags in their order, as `(name, value)`, without `GM`, `BO`, `B` and `W`.
    pub tags: Vec<(String, String)>,
    /// The start position and the moves.
    pub game: GameRecord,
    /// Comments on moves, as `(plies, text)`: the comment after the first `plies` plies of
    /// the game (1 for the first move), in the game's order, written as `C[text]` after that
    /// ply's move.
    pub comments: Vec<(usize, String)>,
}

impl GgfGame {
    /// A record of `game` with the tags `PC[ply]` and, when the game is over, `RE` (black's
    /// final score).
    #[must_use]
    pub fn from_game(game: GameRecord) -> GgfGame {
        let mut tags = vec![("PC".to_owned(), "ply".to_owned())];
        let end = game.position();
        if end.is_game_over() {
            let black = end.final_score_for(Color::Black);
            tags.push(("RE".to_owned(), format!("{black:+}.000")));
        }
        GgfGame {
            tags,
            game,
            comments: Vec::new(),
        }
    }

    /// Reads the first game of `text` (anything before its `(;` is ignored).
    ///
    /// # Errors
    /// When the record is not `(; … ;)` with well-formed tags, `GM` is not Othello, `BO` is
    /// missing or bad, or a move is not legal; the message names the line and the tag.
    pub fn parse(text: &str) -> Result<GgfGame, ParseError> {
        GgfGame::parse_timed(text).map(|(rec, _)| rec)
    }

    /// Reads the first game of `text` as [`GgfGame::parse`] does, with the time each ply
    /// took as its move says it (`B[f5/1.50/2.3]`: 2.3 seconds): one entry a ply of the
    /// game, `None` for a move that gives none and for a pass the writer left out.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ply_othello::ggf::GgfGame;
    /// let (rec, times) =
    ///     GgfGame::parse_timed("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1//1.5]W[a1];)").unwrap();
    /// assert_eq!(rec.game.moves().len(), 2);
    /// assert_eq!(times, [Some(Duration::from_millis(1500)), None]);
    /// ```
    ///
    /// # Errors
    /// As [`GgfGame::parse`], and a move's time that is not a time.
    pub fn parse_timed(text: &str) -> Result<Timed, ParseError> {
        let mut all = parse_records(text, 1)?;
        all.pop()
            .ok_or_else(|| ParseError::new("no GGF game: expected `(;`").at_line(1))
    }

    /// The value of a tag, if present.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads every game of `text` (a GGS dump holds one per line).
///
/// # Errors
/// As [`GgfGame::parse`], for the first bad record.
pub fn parse_all(text: &str) -> Result<Vec<GgfGame>, ParseError> {
    Ok(parse_records(text, usize::MAX)?
        .into_iter()
        .map(|(rec, _)| rec)
        .collect())
}

/// A game clock as GGS writes it in `TI[…]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// The time at the start.
    pub main: Duration,
    /// Added after every move (Fischer).
    pub increment: Duration,
    /// Given once when the main time runs out.
    pub extension: Duration,
}

/// Reads a `TI` value, `main/increment/extension`: each part `[[h:]m:]s` (seconds may have
/// decimals; a `,` and what follows it in a part, GGS's flags, is ignored), a part left
/// empty or out zero. `5:00` is five minutes sudden death, `2:00/5` two minutes and five
/// seconds a move.
///
/// ```
/// use std::time::Duration;
/// use ply_othello::ggf::clock;
/// let c = clock("15:00//2:00").unwrap();
/// assert_eq!((c.main, c.increment, c.extension), (Duration::from_secs(900), Duration::ZERO, Duration::from_secs(120)));
/// assert_eq!(clock("0:03").unwrap().main, Duration::from_secs(3));
/// assert!(clock("five minutes").is_err());
/// ```
///
/// # Errors
/// The part that is not a time, named.
pub fn clock(value: &str) -> Result<Clock, String> {
    let parts: Vec<&str> = value.split('/').collect();
    if parts.len() > 3 {
        return Err(format!(
            "TI[{value}]: expected main/increment/extension, found {} parts",
            parts.len()
        ));
    }
    let part = |k: usize| -> Result<Duration, String> {
        let text = parts
            .get(k)
            .map_or("", |p| p.split(',').next().unwrap_or(""));
        time(text).map_err(|e| format!("TI[{value}]: {e}"))
    };
    Ok(Clock {
        main: part(0)?,
        increment: part(1)?,
        extension: part(2)?,
    })
}

/// `[[h:]m:]s`, seconds with decimals allowed; empty is zero.
fn time(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Duration::ZERO);
    }
    let fields: Vec<&str> = text.split(':').collect();
    let bad = || format!("`{text}` is not a time ([[h:]m:]s)");
    if fields.len() > 3 {
        return Err(bad());
    }
    let mut seconds = 0.0_f64;
    for (i, f) in fields.iter().enumerate() {
        let last = i + 1 == fields.len();
        let v: f64 = if last {
            f.parse().map_err(|_| bad())?
        } else {
            f.parse::<u32>().map(f64::from).map_err(|_| bad())?
        };
        if !v.is_finite() || v < 0.0 {
            return Err(bad());
        }
        seconds = seconds * 60.0 + v;
    }
    // A week is more than any game's clock; more is a typo, not a time.
    if seconds > 604_800.0 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn line(&self, at: usize) -> usize {
        self.text[..at].matches('\n').count() + 1
    }

    fn fail(&self, at: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(message).at_line(self.line(at))
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    /// Reads `NAME[value]` (with `\` escapes), or `None` at `;)`.
    fn tag(&mut self) -> Result<Option<(String, String, usize)>, ParseError> {
        self.skip_space();
        let start = self.at;
        let rest = &self.text[self.at..];
        if rest.starts_with(";)") {
            self.at += 2;
            return Ok(None);
        }
        let name_len = rest.bytes().take_while(u8::is_ascii_uppercase).count();
        if name_len == 0 {
            let found = rest
                .chars()
                .next()
                .map_or("the end".to_owned(), |c| format!("`{}`", c.escape_debug()));
            return Err(self.fail(
                start,
                format!("expected a tag like `PB[…]` or `;)`, found {found}"),
            ));
        }
        let name = rest[..name_len].to_owned();
        let after = &rest[name_len..];
        if !after.starts_with('[') {
            return Err(self.fail(start, format!("tag {name}: expected `[` after the name")));
        }
        let mut value = String::new();
        let mut chars = after[1..].char_indices();
        loop {
            match chars.next() {
                None => return Err(self.fail(start, format!("tag {name}: no closing `]`"))),
                Some((i, ']')) => {
                    self.at += name_len + 1 + i + 1;
                    break;
                }
                Some((_, '\\')) => match chars.next() {
                    Some((_, c)) => value.push(c),
                    None => return Err(self.fail(start, format!("tag {name}: no closing `]`"))),
                },
                Some((_, c)) => value.push(c),
            }
        }
        Ok(Some((name, value, start)))
    }
}

/// A game and the time each of its plies took ([`GgfGame::parse_timed`]).
pub type Timed = (GgfGame, Vec<Option<Duration>>);

fn parse_records(text: &str, max: usize) -> Result<Vec<Timed>, ParseError> {
    let mut r = Reader { text, at: 0 };
    let mut out = Vec::new();
    while out.len() < max {
        let Some(open) = r.text[r.at..].find("(;") else {
            break;
        };
        let open = r.at + open;
        r.at = open + 2;
        out.push(parse_body(&mut r, open)?);
    }
    Ok(out)
}

fn parse_body(r: &mut Reader<'_>, open: usize) -> Result<Timed, ParseError> {
    let mut tags = Vec::new();
    let mut times = Vec::new();
    let mut comments = Vec::new();
    let mut game: Option<GameRecord> = None;
    while let Some((name, value, at)) = r.tag()? {
        match name.as_str() {
            "GM" => {
                if !value.eq_ignore_ascii_case("othello") {
                    return Err(r.fail(at, format!("GM[{value}]: not an Othello game")));
                }
            }
            "BO" => {
                if game.is_some() {
                    return Err(r.fail(at, "BO appears twice"));
                }
                let pos =
                    parse_board(&value).map_err(|e| r.fail(at, format!("BO[{value}]: {e}")))?;
                game = Some(GameRecord::new(pos));
            }
            "B" | "W" => {
                let Some(g) = game.as_mut() else {
                    return Err(r.fail(at, format!("{name}[{value}] comes before the board (BO)")));
                };
                let color = if name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let ply = g.moves().len() + 1;
                let fail = |e: String| r.fail(at, format!("{name}[{value}] (ply {ply}): {e}"));
                let took = match value.split('/').nth(2).map(str::trim) {
                    Some(t) if !t.is_empty() => Some(time(t).map_err(fail)?),
                    _ => None,
                };
                play(g, color, &value).map_err(fail)?;
                // A pass the writer left out took no time of its own.
                times.resize(g.moves().len() - 1, None);
                times.push(took);
            }
            "C" => match game.as_ref().map(|g| g.moves().len()) {
                Some(plies) if plies > 0 => comments.push((plies, value)),
                _ => tags.push((name, value)),
            },
            _ => tags.push((name, value)),
        }
    }
    match game {
        Some(game) => Ok((
            GgfGame {
                tags,
                game,
                comments,
            },
            times,
        )),
        None => Err(r.fail(open, "the game has no board (BO tag)")),
    }
}

fn play(game: &mut GameRecord, color: Color, value: &str) -> Result<(), String> {
    let text = value.split('/').next().unwrap_or("").trim();
    let mv = if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else {
        Move::Play(Square::parse(text).map_err(|e| e.to_string())?)
    };
    let pos = game.position();
    let name = |c: Color| if c == Color::Black { "black" } else { "white" };
    if pos.turn() != color {
        // The writer left out the pass of the side to move.
        if pos.can_move() {
            return Err(format!(
                "it is {}'s turn and {0} has a move",
                name(pos.turn())
            ));
        }
        game.play(Move::Pass).map_err(|e| e.to_string())?;
    }
    game.play(mv)
        .map_err(|e| format!("{e} ({} to move)", name(color)))
}

/// `8 -------- … *`: the size, the rows, the side to move.
fn parse_board(value: &str) -> Result<Position, String> {
    let mut words = value.split_whitespace();
    let n: u8 = words
        .next()
        .and_then(|w| w.parse().ok())
        .ok_or("expected the board size (4, 6 or 8) first")?;
    let size = BoardSize::from_n(n).ok_or(format!("board size {n} is not 4, 6 or 8"))?;
    let rest: Vec<&str> = words.collect();
    let cells: String = rest.concat();
    if cells.chars().count() != size.squares() as usize + 1 {
        return Err(format!(
            "expected {} cells and the side to move, found {} characters",
            size.squares(),
            cells.chars().count()
        ));
    }
    crate::text::parse_position(&cells).map_err(|e| e.to_string())
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        for (name, value) in &self.tags {
            write_tag(f, name, value)?;
        }
        let start = self.game.start();
        let n = start.size().n();
        write!(f, "BO[{n}")?;
        for row in 0..n {
            f.write_str(" ")?;
            for col in 0..n {
                let sq = Square::new(col, row).expect("on the 8x8 layout");
                let c = if start.discs(Color::Black).contains(sq) {
                    '*'
                } else if start.discs(Color::White).contains(sq) {
                    'O'
                } else {
                    '-'
                };
                write!(f, "{c}")?;
            }
        }
        let side = if start.turn() == Color::Black {
            '*'
        } else {
            'O'
        };
        write!(f, " {side}]")?;
        let mut comments = self.comments.iter().peekable();
        for (k, (pos, m)) in self.game.plies().enumerate() {
            let tag = if pos.turn() == Color::Black { 'B' } else { 'W' };
            match m {
                Move::Play(sq) => write!(f, "{tag}[{sq}]")?,
                Move::Pass => write!(f, "{tag}[PA]")?,
            }
            while let Some((_, text)) = comments.next_if(|(plies, _)| *plies == k + 1) {
                write_tag(f, "C", text)?;
            }
        }
        f.write_str(";)")
    }
}

/// `NAME[value]`, with `]` and `\` escaped.
fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    write!(f, "{name}[")?;
    for c in value.chars() {
        if c == ']' || c == '\\' {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("]")
}

impl std::str::FromStr for GgfGame {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<GgfGame, ParseError> {
        GgfGame::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript;

    #[test]
    fn clocks_and_move_times_are_read() {
        let s = Duration::from_secs;
        assert_eq!(
            clock("5:00").unwrap(),
            Clock {
                main: s(300),
                ..Clock::default()
            }
        );
        assert_eq!(
            clock("1:02:03,L/10/").unwrap(),
            Clock {
                main: s(3723),
                increment: s(10),
                extension: Duration::ZERO
            }
        );
        assert_eq!(clock("").unwrap(), Clock::default());
        assert_eq!(clock("0:0.5").unwrap().main, Duration::from_millis(500));
        for bad in ["x", "1:x", "1/2/3/4", "-5", "1:2:3:4", "1.5:00", "inf"] {
            let e = clock(bad).unwrap_err();
            assert!(e.starts_with(&format!("TI[{bad}]: ")), "{e}");
        }
        // White to move has no move at the start: the left-out pass has no time.
        let (rec, times) =
            GgfGame::parse_timed("(;GM[Othello]BO[4 XXXX XXXX XXXO ---- O]B[d4/-2/0:01.5];)")
                .unwrap();
        assert_eq!(rec.game.moves().len(), 2);
        assert_eq!(times, [None, Some(Duration::from_millis(1500))]);
        let e = GgfGame::parse_timed("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1//soon];)")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("B[b1//soon] (ply 1): `soon` is not a time"),
            "{e}"
        );
    }

    #[test]
    fn a_game_round_trips_with_its_tags() {
        let start = Position::start(BoardSize::Eight);
        let game = transcript::parse("f5d6c3d3c4f4f6", start).unwrap();
        let mut rec = GgfGame::from_game(game);
        rec.tags.push(("PB".into(), "a [strange] \\ name".into()));
        let text = rec.to_string();
        assert!(text.starts_with("(;GM[Othello]PC[ply]PB[a [strange\\] \\\\ name]BO[8 "));
        assert_eq!(GgfGame::parse(&text).unwrap(), rec);
    }

    #[test]
    fn comments_after_moves_belong_to_them_and_round_trip() {
        let text =
            "(;GM[Othello]C[a game]BO[4 ---- -O*- -*O- ---- *]B[b1]C[?! loss 2 \\] x]W[a1];)";
        let rec = GgfGame::parse(text).unwrap();
        assert_eq!(rec.tags, vec![("C".to_owned(), "a game".to_owned())]);
        assert_eq!(rec.comments, vec![(1, "?! loss 2 ] x".to_owned())]);
        assert_eq!(rec.to_string(), text);
    }

    #[test]
    fn passes_are_read_written_or_not() {
        // White to move has no move; black has d4.
        let text = "(;GM[Othello]BO[4 XXXX XXXX XXXO ---- O]W[PA]B[d4];)";
        let explicit = GgfGame::parse(&text.replace('X', "*")).unwrap();
        assert_eq!(explicit.game.moves().len(), 2);
        let implicit =
            GgfGame::parse("(;GM[Othello]BO[4 **** **** ***O ---- O]B[D4//1.5];)").unwrap();
        assert_eq!(implicit.game, explicit.game);
        assert_eq!(
            implicit.to_string(),
            "(;GM[Othello]BO[4 **** **** ***O ---- O]W[PA]B[d4];)"
        );
    }

    #[test]
    fn bad_records_name_the_line_and_tag() {
        let err = |s: &str| GgfGame::parse(s).unwrap_err().to_string();
        assert!(err("(;GM[Othello]\nBO[8 ---]\n;)").starts_with("line 2: BO[8 ---]"));
        assert!(err("(;GM[Chess]BO[4 ---- -O*- -*O- ---- *];)").contains("not an Othello game"));
        let e = err("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1]\nB[a1];)");
        assert!(e.starts_with("line 2: B[a1] (ply 2)"), "{e}");
        assert!(err("(;GM[Othello]B[b1];)").contains("before the board"));
        assert!(err("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1").contains("no closing"));
        assert!(err("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]").contains("found the end"));
        assert!(err("(;GM[Othello];)").contains("no board"));
        assert!(err("nothing").contains("no GGF game"));
    }
}
