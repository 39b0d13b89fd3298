//! The games a review is given and what is known of them: a GGF file's records (each with
//! its players and its place in the file), or one game as people paste it (a transcript, a
//! position, a GGF record with its players).

use super::Review;
use crate::{
    ggf::{self, GgfGame},
    input, text, BoardSize, GameRecord, ParseError,
};

/// A game to review and what is known of it, which [`Game::label`] puts on its review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The moves.
    pub record: GameRecord,
    /// Black's name, where known.
    pub black: Option<String>,
    /// White's name, where known.
    pub white: Option<String>,
    /// The year it was played, where known.
    pub year: Option<u16>,
    /// Where it comes from (a file and its number in it), where that is worth saying.
    pub source: Option<String>,
}

impl Game {
    /// A game known by its moves only.
    #[must_use]
    pub fn bare(record: GameRecord) -> Game {
        Game {
            record,
            black: None,
            white: None,
            year: None,
            source: None,
        }
    }

    /// A GGF record's game, with its players (`PB`, `PW`).
    #[must_use]
    pub fn of_ggf(rec: GgfGame) -> Game {
        Game {
            black: rec.tag("PB").map(str::to_owned),
            white: rec.tag("PW").map(str::to_owned),
            ..Game::bare(rec.game)
        }
    }

    /// One game as people paste it ([`input::parse_with_size`]: a transcript on `size`, a
    /// position or a GGF record), with a record's players.
    ///
    /// # Errors
    /// Text that is none of these.
    pub fn parse(text: &str, size: Option<BoardSize>) -> Result<Game, ParseError> {
        let record = input::parse_with_size(text, size)?;
        let rec = if text.trim_start().starts_with("(;") {
            GgfGame::parse(text).ok()
        } else {
            None
        };
        let name = |tag: &str| rec.as_ref().and_then(|r| r.tag(tag)).map(str::to_owned);
        Ok(Game {
            black: name("PB"),
            white: name("PW"),
            ..Game::bare(record)
        })
    }

    /// Puts what is known of the game on its review.
    pub fn label(self, review: &mut Review) {
        review.black = self.black;
        review.white = self.white;
        review.year = self.year;
        review.source = self.source;
    }
}

/// The games of a file's text, `name` in messages: every record of a GGF file (each with its
/// players, and `NAME game K` as its source), or the one game the text is otherwise.
///
/// # Errors
/// A GGF file that does not read (marked `GGF:`), or text that is no game.
pub fn games_of_file(
    text: &str,
    name: &str,
    size: Option<BoardSize>,
) -> Result<Vec<Game>, ParseError> {
    if text.trim_start().starts_with("(;") {
        let all = ggf::parse_all(text).map_err(|e| ParseError::new(format!("GGF: {e}")))?;
        return Ok(all
            .into_iter()
            .enumerate()
            .map(|(k, rec)| Game {
                source: Some(format!("{name} game {}", k + 1)),
                ..Game::of_ggf(rec)
            })
            .collect());
    }
    Ok(vec![Game::bare(input::parse_with_size(text.trim(), size)?)])
}

/// The games to review of `games`, read from `source`: the `number`-th alone (from 1) when
/// one is asked for, else all; each must have a move.
///
/// # Errors
/// A number the games do not reach (`--game N: SOURCE holds K games`), or a game without a
/// move (a position: named by its source, or `GAME`).
pub fn to_review(
    mut games: Vec<Game>,
    number: Option<usize>,
    source: &str,
) -> Result<Vec<Game>, String> {
    if let Some(n) = number {
        if n == 0 || n > games.len() {
            return Err(format!(
                "--game {n}: {source} holds {}",
                text::plural(games.len(), "game")
            ));
        }
        games = vec![games.swap_remove(n - 1)];
    }
    if let Some(g) = games.iter().find(|g| g.record.moves().is_empty()) {
        let what = g.source.as_deref().unwrap_or("GAME");
        return Err(format!(
            "{what}: no moves to review (a position, not a game)"
        ));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{transcript, Position};

    /// Every record of a GGF file is a game with its players and its place in the file; a
    /// transcript is one bare game.
    #[test]
    fn a_files_games_carry_their_players_and_place() {
        let game = transcript::parse("f5d6c3", Position::start(BoardSize::Eight)).unwrap();
        let mut rec = GgfGame::from_game(game.clone());
        rec.tags.push(("PB".into(), "Ann".into()));
        let text = format!("{rec}\n{rec}\n");
        let games = games_of_file(&text, "g.ggf", None).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].source.as_deref(), Some("g.ggf game 2"));
        assert_eq!(games[0].black.as_deref(), Some("Ann"));
        assert_eq!(games[0].white, None);
        assert_eq!(games[0].record, game);
        let bare = games_of_file("f5d6c3\n", "t.txt", None).unwrap();
        assert_eq!(bare, vec![Game::bare(game.clone())]);
        let pasted = Game::parse(&rec.to_string(), None).unwrap();
        assert_eq!((pasted.record, pasted.black), (game, Some("Ann".into())));
        assert!(games_of_file("(;GM[Othello]", "g", None)
            .unwrap_err()
            .to_string()
            .starts_with("GGF: "));
    }

    /// One game of several is picked by its number from 1; a number past them, or a
    /// position without moves, is refused.
    #[test]
    fn the_games_to_review_are_picked_and_must_have_moves() {
        let game = transcript::parse("f5d6c3", Position::start(BoardSize::Eight)).unwrap();
        let games = vec![
            Game::bare(game.clone()),
            Game::bare(GameRecord::new(game.start())),
        ];
        let one = to_review(games.clone(), Some(1), "f.ggf").unwrap();
        assert_eq!(one, vec![Game::bare(game)]);
        assert_eq!(
            to_review(games.clone(), Some(3), "f.ggf").unwrap_err(),
            "--game 3: f.ggf holds 2 games"
        );
        assert_eq!(
            to_review(games, None, "f.ggf").unwrap_err(),
            "GAME: no moves to review (a position, not a game)"
        );
    }
}
