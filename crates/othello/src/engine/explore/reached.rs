//! The games that reached a position, a page at a time: what an explorer lists under its
//! counts (players, year, result), found by replaying each game up to the position's number
//! of discs ([`super::reaches`]).

use super::reaches;
use crate::{
    transcript,
    wthor::{Database, WthorGame},
    Position,
};

/// One game that reached the position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameEntry {
    /// The database it is in, from 1, in the order the databases were given.
    pub database: usize,
    /// Its number in that database, from 1.
    pub game: usize,
    /// The year of the database's games.
    pub year: u16,
    /// Black's name from the players file, or `player N` without one.
    pub black: String,
    /// White's name, as black's.
    pub white: String,
    /// Black's discs at the end, as recorded.
    pub black_discs: u8,
    /// Black's result: black's discs minus white's, empties to the winner.
    pub black_score: i32,
    /// The whole game as a transcript.
    pub moves: String,
}

/// A page of the games that reached a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GamesPage {
    /// Games that reached it, all databases together.
    pub total: usize,
    /// How many were skipped before this page.
    pub offset: usize,
    /// The page: at most the limit asked for, in database order, then file order.
    pub games: Vec<GameEntry>,
}

/// The games of `databases` that went through `pos` or ended in it (or an image of it),
/// `limit` of them from the `offset`-th on, with the players' names from `players` (the
/// names of a `WTHOR.JOU` file) where it has them.
///
/// ```
/// use ply_othello::{explore, transcript, wthor, BoardSize, Position};
///
/// let start = Position::start(BoardSize::Eight);
/// let game = |moves: &str, black, white| wthor::WthorGame {
///     tournament: 0, black, white, black_discs: 40, theoretical: 40,
///     game: transcript::parse(moves, start).unwrap(),
/// };
/// let db = wthor::Database {
///     header: wthor::Header::games(2025, wthor::Date { year: 2025, month: 1, day: 1 }, 22),
///     games: vec![game("f5d6", 0, 1), game("f5f6", 1, 0), game("d3c3", 0, 1)],
/// };
/// let after_f5 = transcript::parse("f5", start).unwrap().position();
/// let names = vec!["Alice".to_string(), "Bob".to_string()];
/// let page = explore::games_reaching(&after_f5, &[db], Some(&names), 1, 10);
/// // f5d6, f5f6, and d3c3's first position is a mirror image of f5's.
/// assert_eq!(page.total, 3);
/// assert_eq!(page.games.len(), 2);
/// assert_eq!((page.games[0].game, page.games[0].black.as_str()), (2, "Bob"));
/// ```
#[must_use]
pub fn games_reaching(
    pos: &Position,
    databases: &[Database],
    players: Option<&[String]>,
    offset: usize,
    limit: usize,
) -> GamesPage {
    let name = |k: u16| {
        players
            .and_then(|names| names.get(usize::from(k)))
            .cloned()
            .unwrap_or_else(|| format!("player {k}"))
    };
    let mut total = 0;
    let mut games = Vec::new();
    for (d, db) in databases.iter().enumerate() {
        for (g, game) in db.games.iter().enumerate() {
            if !reaches(&game.game, pos) {
                continue;
            }
            total += 1;
            if total > offset && games.len() < limit {
                games.push(entry(d + 1, g + 1, db.header.game_year, game, &name));
            }
        }
    }
    GamesPage {
        total,
        offset,
        games,
    }
}

fn entry(
    database: usize,
    game: usize,
    year: u16,
    g: &WthorGame,
    name: &impl Fn(u16) -> String,
) -> GameEntry {
    GameEntry {
        database,
        game,
        year,
        black: name(g.black),
        white: name(g.white),
        black_discs: g.black_discs,
        black_score: g.black_score(),
        moves: transcript::format(&g.game),
    }
}
