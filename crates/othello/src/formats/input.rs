//! The one reader of everything people paste or type as an Othello position: a GGF game
//! record, a position (cells and side to move), a whole OBF line, or a transcript. The CLI's
//! `show`, `analyze`, `perft --position` and `solve POS`, and the server's paste endpoint all
//! read through [`parse_position_or_transcript`]. It sits above the format modules, which do
//! not import one another through it.

use crate::{ggf::GgfGame, obf::ObfLine, transcript, BoardSize, GameRecord, ParseError, Position};

/// Reads what people paste: a GGF game record (`(;GM[Othello]…;)`), a position (cells and
/// side to move), a whole OBF line, or a transcript played from the start position. Board
/// cells never contain digits, so a text with a digit before any `;` (or an empty text) is a
/// transcript; a position and a GGF record bring their own size. A transcript is played on
/// `transcript_size` when every move is legal there, else on the one other board size where
/// it is (`f5d6c3` is an 8x8 game whatever board was asked for: f5 is not a first move on
/// 6x6). The command line and the server both read with this.
///
/// # Errors
/// The reader's message, prefixed with what the text was taken for (`GGF: `,
/// `transcript: `, `OBF line: `, or that it is neither a transcript nor a position). A
/// transcript legal on no board size gets the message for `transcript_size`.
///
/// ```
/// use ply_othello::{input, BoardSize};
/// let game = input::parse_position_or_transcript("f5 pass d6", BoardSize::Eight);
/// assert!(game.is_err(), "white has a move after f5: the pass is refused");
/// let game = input::parse_position_or_transcript("f5d6", BoardSize::Eight).unwrap();
/// assert_eq!(game.moves().len(), 2);
/// let game = input::parse_position_or_transcript("-----OX--XO----- O", BoardSize::Eight).unwrap();
/// assert_eq!(game.position().size(), BoardSize::Four);
/// // The transcript's own board size, not the one asked for.
/// let game = input::parse_position_or_transcript("f5d6c3", BoardSize::Six).unwrap();
/// assert_eq!(game.position().size(), BoardSize::Eight);
/// let ggf = "(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]B[b1]W[a1];)";
/// let game = input::parse_position_or_transcript(ggf, BoardSize::Eight).unwrap();
/// assert_eq!((game.position().size(), game.moves().len()), (BoardSize::Four, 2));
/// ```
pub fn parse_position_or_transcript(
    text: &str,
    transcript_size: BoardSize,
) -> Result<GameRecord, ParseError> {
    if text.trim_start().starts_with("(;") {
        return GgfGame::parse(text)
            .map(|record| record.game)
            .map_err(|e| ParseError::new(format!("GGF: {e}")));
    }
    let board_part = text.split_once(';').map_or(text, |(board, _)| board);
    if text.trim().is_empty() || board_part.chars().any(|c| c.is_ascii_digit()) {
        return transcript::parse(text, Position::start(transcript_size)).or_else(|e| {
            [BoardSize::Eight, BoardSize::Six, BoardSize::Four]
                .into_iter()
                .filter(|&size| size != transcript_size)
                .find_map(|size| transcript::parse(text, Position::start(size)).ok())
                .ok_or_else(|| ParseError::new(format!("transcript: {e}")))
        });
    }
    let pos = if text.contains(';') {
        ObfLine::parse(text)
            .map_err(|e| ParseError::new(format!("OBF line: {e}")))?
            .position
    } else {
        crate::text::parse_setup(text).map_err(|e| {
            ParseError::new(format!(
                "neither a transcript (no square like f5) nor a position: {e}"
            ))
        })?
    };
    pos.check_centre()
        .map_err(|e| ParseError::new(e.to_string()))?;
    Ok(GameRecord::new(pos))
}

/// Whether [`parse_position_or_transcript`] reads `text` as a transcript: board cells never
/// contain digits, so a text with a digit before any `;` (or an empty text) is one.
fn is_transcript(text: &str) -> bool {
    let board_part = text.split_once(';').map_or(text, |(board, _)| board);
    text.trim().is_empty() || board_part.chars().any(|c| c.is_ascii_digit())
}

/// [`parse_position_or_transcript`] on a board size the user named: a transcript is played
/// on `size` only, so that its error names the move that is not legal there (and says on
/// which other size the moves are legal); a position or a game of another size is refused.
///
/// # Errors
/// As [`parse_position_or_transcript`]'s, and when the text is a position or game of
/// another size.
///
/// ```
/// use ply_othello::{input, BoardSize};
/// // c4 is a centre square of the 6x6 board, and a first move on 8x8.
/// let e = input::parse_on_size("c4c3", BoardSize::Six).unwrap_err().to_string();
/// assert!(e.contains("c4 is already taken") && e.contains("legal on 8x8"), "{e}");
/// let e = input::parse_on_size("-----OX--XO----- O", BoardSize::Six).unwrap_err();
/// assert_eq!(e.to_string(), "the position is 4x4, not 6x6");
/// assert_eq!(input::parse_on_size("c4c3", BoardSize::Eight).unwrap().moves().len(), 2);
/// ```
pub fn parse_on_size(text: &str, size: BoardSize) -> Result<GameRecord, ParseError> {
    let game_record = text.trim_start().starts_with("(;");
    if !game_record && is_transcript(text) {
        return transcript::parse(text, Position::start(size)).map_err(|e| {
            let n = size.n();
            let elsewhere = [BoardSize::Eight, BoardSize::Six, BoardSize::Four]
                .into_iter()
                .filter(|&other| other != size)
                .find(|&other| transcript::parse(text, Position::start(other)).is_ok());
            ParseError::new(match elsewhere {
                Some(other) => format!(
                    "transcript on {n}x{n}: {e}; the moves are legal on {m}x{m}",
                    m = other.n()
                ),
                None => format!("transcript on {n}x{n}: {e}"),
            })
        });
    }
    let game = parse_position_or_transcript(text, size)?;
    let found = game.position().size();
    if found != size {
        let what = if game_record { "game" } else { "position" };
        return Err(ParseError::new(format!(
            "the {what} is {m}x{m}, not {n}x{n}",
            m = found.n(),
            n = size.n()
        )));
    }
    Ok(game)
}

/// [`parse_on_size`] when a size is given, else [`parse_position_or_transcript`] with a
/// transcript on 8x8 first: what a front end's `--size` option means.
///
/// # Errors
/// As those two.
pub fn parse_with_size(text: &str, size: Option<BoardSize>) -> Result<GameRecord, ParseError> {
    match size {
        Some(size) => parse_on_size(text, size),
        None => parse_position_or_transcript(text, BoardSize::Eight),
    }
}

/// Reads a game as `ply othello play` takes it: a GGF record (of the board `size` says,
/// when it says one), or a transcript from the start of `size` (8x8 by default), every move
/// checked.
///
/// # Errors
/// A record or transcript that does not read (a record's error marked `GGF:`), or a record
/// on another board than `size`.
pub fn parse_game(text: &str, size: Option<BoardSize>) -> Result<GameRecord, ParseError> {
    if !text.trim_start().starts_with("(;") {
        let start = Position::start(size.unwrap_or(BoardSize::Eight));
        return transcript::parse(text, start);
    }
    let rec = GgfGame::parse(text).map_err(|e| ParseError::new(format!("GGF: {e}")))?;
    let found = rec.game.start().size();
    match size {
        Some(size) if size != found => Err(ParseError::new(format!(
            "the GGF board is {n}x{n} but --size says {m}x{m}",
            n = found.n(),
            m = size.n()
        ))),
        _ => Ok(rec.game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transcript is read on the size given; a GGF record on another size is refused.
    #[test]
    fn a_game_is_a_transcript_or_a_record_of_the_size_given() {
        let game = parse_game("f5d6", None).unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.start().size(), BoardSize::Eight);
        let rec = GgfGame::from_game(game).to_string();
        assert_eq!(
            parse_game(&rec, Some(BoardSize::Eight))
                .unwrap()
                .moves()
                .len(),
            2
        );
        let e = parse_game(&rec, Some(BoardSize::Six)).unwrap_err();
        assert_eq!(e.to_string(), "the GGF board is 8x8 but --size says 6x6");
        assert!(parse_game("(;GM[Othello]", None)
            .unwrap_err()
            .to_string()
            .starts_with("GGF: "));
    }
}
