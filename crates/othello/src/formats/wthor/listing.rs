//! What a front end shows of a database's games (`ply othello games`: a table row, a GGF
//! record or a JSON object a game), and how it makes a database of played games (`ply
//! othello games make`: a text file of transcripts or GGF records, the players numbered,
//! each game's theoretical score filled in).

use super::{Database, Header, Names, WthorGame};
use crate::{ggf::GgfGame, transcript, BoardSize, GameRecord, ParseError, Position};

/// The head of the table of games ([`Listed::row`]).
pub const LIST_HEAD: &str = "game\tyear\ttournament\tblack\twhite\tdiscs\ttheoretical\tmoves";

/// A game of a database as a listing shows it, with its names looked up.
#[derive(Clone, Copy, Debug)]
pub struct Listed<'a> {
    /// The file it comes from, as messages name it.
    pub file: &'a str,
    /// Its number in the file, from 1.
    pub number: usize,
    /// The file's header.
    pub header: &'a Header,
    /// The game.
    pub game: &'a WthorGame,
    /// Black's name.
    pub black: &'a str,
    /// White's name.
    pub white: &'a str,
    /// The tournament's name.
    pub tournament: &'a str,
}

impl Listed<'_> {
    /// The game as a row of the table under [`LIST_HEAD`]: number, year, tournament,
    /// players, the discs at the end, the theoretical score and the moves, tab-separated.
    #[must_use]
    pub fn row(&self) -> String {
        let g = self.game;
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}-{}\t{}\t{}",
            self.number,
            self.header.game_year,
            self.tournament,
            self.black,
            self.white,
            g.black_discs,
            64 - g.black_discs,
            g.theoretical,
            transcript::format(&g.game)
        )
    }

    /// The game as a GGF record: where (the tournament), when (the year), who and the
    /// result.
    #[must_use]
    pub fn ggf(&self) -> GgfGame {
        GgfGame {
            tags: vec![
                ("PC".into(), self.tournament.to_owned()),
                ("DT".into(), self.header.game_year.to_string()),
                ("PB".into(), self.black.to_owned()),
                ("PW".into(), self.white.to_owned()),
                ("RE".into(), format!("{:+}.000", self.game.black_score())),
            ],
            game: self.game.game.clone(),
            comments: Vec::new(),
        }
    }

    /// The game as one JSON object: the file, number, year, names and their numbers, the
    /// result, the theoretical score and its depth, the moves.
    #[cfg(feature = "serde")]
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        let g = self.game;
        serde_json::json!({
            "file": self.file,
            "game": self.number,
            "year": self.header.game_year,
            "tournament": self.tournament,
            "tournament_number": g.tournament,
            "black": self.black,
            "black_number": g.black,
            "white": self.white,
            "white_number": g.white,
            "black_discs": g.black_discs,
            "black_score": g.black_score(),
            "theoretical": g.theoretical,
            "theoretical_depth": self.header.theoretical_depth(),
            "moves": transcript::format(&g.game),
        })
    }
}

/// A names file's names and the file as messages name it.
#[derive(Clone, Copy, Debug)]
pub struct NamesOf<'a> {
    /// The names, by number.
    pub names: &'a [String],
    /// The file.
    pub file: &'a str,
}

/// The name of `number` in `names`, or `#number` when no names were given.
///
/// # Errors
/// A number the names do not hold, naming the game's `record` and `field`.
pub fn name_of(
    names: Option<NamesOf<'_>>,
    number: u16,
    record: usize,
    field: &str,
) -> Result<String, String> {
    let Some(n) = names else {
        return Ok(format!("#{number}"));
    };
    n.names.get(usize::from(number)).cloned().ok_or_else(|| {
        format!(
            "record {record}, field `{field}`: {number} is not in {} (it holds {} names)",
            n.file,
            n.names.len()
        )
    })
}

/// A database to list: its name in messages, its header and its games, replayed.
#[derive(Clone, Debug)]
pub struct ListedFile {
    /// The file as messages (and a listing of several files) name it.
    pub name: String,
    /// Its header.
    pub header: Header,
    /// Its games.
    pub games: Vec<WthorGame>,
}

/// Which games a listing shows and how.
pub struct ListOptions<'a> {
    /// The players' names (without them, players are shown by number).
    pub players: Option<NamesOf<'a>>,
    /// The tournaments' names.
    pub tournaments: Option<NamesOf<'a>>,
    /// Only the games of this year.
    pub year: Option<u16>,
    /// Only games a player of which has this in the name, in any case.
    pub player: Option<&'a str>,
    /// Only games this says yes to (those that reach a position, say).
    pub keep: Option<&'a dyn Fn(&GameRecord) -> bool>,
    /// A row a game under [`LIST_HEAD`] (`# FILE` before each file's when there are
    /// several), a GGF record a game, or (with the `serde` feature) a JSON object a game.
    pub format: ListFormat,
}

impl std::fmt::Debug for ListOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListOptions")
            .field("players", &self.players)
            .field("tournaments", &self.tournaments)
            .field("year", &self.year)
            .field("player", &self.player)
            .field("keep", &self.keep.is_some())
            .field("format", &self.format)
            .finish()
    }
}

/// How a listing shows a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFormat {
    /// A table row ([`Listed::row`]).
    Table,
    /// A GGF record ([`Listed::ggf`]).
    Ggf,
    /// A JSON object ([`Listed::json`]).
    #[cfg(feature = "serde")]
    Json,
}

/// The listing of `files`' games as `ply othello games` prints it, made whole: a game whose
/// player or tournament the names lack is an error before anything is shown.
///
/// # Errors
/// A name the names files lack, naming the file, the record and the field.
pub fn list(files: &[ListedFile], o: &ListOptions<'_>) -> Result<String, String> {
    let table = o.format == ListFormat::Table;
    let wanted = o.player.map(str::to_lowercase);
    let mut out = String::new();
    if table {
        out.push_str(LIST_HEAD);
        out.push('\n');
    }
    for file in files {
        let header = &file.header;
        if o.year.is_some_and(|y| y != header.game_year) {
            continue;
        }
        if files.len() > 1 && table {
            // Game numbers start again with each file: say which file follows.
            out.push_str(&format!("# {}\n", file.name));
        }
        for (k, g) in file.games.iter().enumerate() {
            let number = k + 1;
            let named = |e: String| format!("{}: {e}", file.name);
            let black = name_of(o.players, g.black, number, "black player").map_err(named)?;
            let white = name_of(o.players, g.white, number, "white player").map_err(named)?;
            let tournament =
                name_of(o.tournaments, g.tournament, number, "tournament").map_err(named)?;
            if let Some(w) = &wanted {
                if !black.to_lowercase().contains(w) && !white.to_lowercase().contains(w) {
                    continue;
                }
            }
            if o.keep.is_some_and(|keep| !keep(&g.game)) {
                continue;
            }
            let listed = Listed {
                file: &file.name,
                number,
                header,
                game: g,
                black: &black,
                white: &white,
                tournament: &tournament,
            };
            let line = match o.format {
                ListFormat::Table => listed.row(),
                ListFormat::Ggf => listed.ggf().to_string(),
                #[cfg(feature = "serde")]
                ListFormat::Json => listed.json().to_string(),
            };
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// A finished 8x8 game and its players' names, for a database to be made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The moves from the 8x8 start.
    pub game: GameRecord,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
}

/// The games of a text file, one a line: a transcript from the 8x8 start, or a GGF record
/// (its `PB` and `PW` the names; `ply` where it has none, and for a transcript). Blank lines
/// and `#` comments are skipped.
///
/// # Errors
/// A line that is no game, a game that does not start from the 8x8 start, or one that is
/// not over (a WTHOR file records each game's result), named by its line.
pub fn parse_played(text: &str) -> Result<Vec<Played>, ParseError> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: &dyn std::fmt::Display| ParseError::new(e.to_string()).at_line(k + 1);
        let (game, black, white) = if line.starts_with("(;") {
            let rec = GgfGame::parse(line).map_err(|e| at(&e))?;
            let name = |t: &str| rec.tag(t).unwrap_or("ply").to_string();
            let (b, w) = (name("PB"), name("PW"));
            (rec.game, b, w)
        } else {
            let game =
                transcript::parse(line, Position::start(BoardSize::Eight)).map_err(|e| at(&e))?;
            (game, "ply".into(), "ply".into())
        };
        if game.start() != Position::start(BoardSize::Eight) {
            return Err(at(&"the game does not start from the 8x8 start position"));
        }
        if !game.position().is_game_over() {
            return Err(at(
                &"the game is not over (a WTHOR file records each game's result)",
            ));
        }
        out.push(Played { game, black, white });
    }
    Ok(out)
}

/// A database made of played games ([`Database::make`]).
#[derive(Clone, Debug)]
pub struct Made {
    /// The database.
    pub database: Database,
    /// The players' names, by their numbers in the games.
    pub players: Vec<String>,
    /// How many theoretical scores took a solve.
    pub solved: usize,
}

impl Made {
    /// What `ply othello games make` says once the database is written to `out` in `bytes`
    /// bytes, `seconds` after it started.
    #[must_use]
    pub fn note(&self, out: &str, bytes: usize, seconds: f64) -> String {
        format!(
            "wrote {} games to {out} ({bytes} bytes; theoretical scores from {} empties, {} \
             solved, {seconds:.1} s)",
            self.database.games.len(),
            self.database.header.theoretical_depth(),
            self.solved
        )
    }
}

impl Database {
    /// A database of `games` under `header` (tournament 0), the players numbered in order of
    /// appearance ([`Names::number_of`]), each game's theoretical score from the header's
    /// depth on ([`WthorGame::theoretical_discs`] with `perfect_from` and `solve`).
    ///
    /// # Errors
    /// More than 65536 players, which a WTHOR file cannot number.
    pub fn make(
        header: Header,
        games: Vec<Played>,
        perfect_from: Option<u8>,
        solve: &mut dyn FnMut(&Position) -> i32,
    ) -> Result<Made, &'static str> {
        let too_many = "more than 65536 players: a WTHOR file numbers them in 16 bits";
        let depth = header.theoretical_depth();
        let mut players = Vec::new();
        let mut out = Vec::with_capacity(games.len());
        let mut solved = 0usize;
        for s in games {
            let black_discs = WthorGame::final_black_discs(&s.game.position());
            // Perfect play from `depth` empties: the game's own result where it was played
            // perfectly from there (or never had so many empties left), else the solver's.
            let (theoretical, was_solved) =
                WthorGame::theoretical_discs(&s.game, depth, perfect_from, &mut *solve);
            solved += usize::from(was_solved);
            out.push(WthorGame {
                tournament: 0,
                black: Names::number_of(&mut players, &s.black).ok_or(too_many)?,
                white: Names::number_of(&mut players, &s.white).ok_or(too_many)?,
                black_discs,
                theoretical,
                game: s.game,
            });
        }
        Ok(Made {
            database: Database { header, games: out },
            players,
            solved,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wthor::Date;

    /// An 8x8 game played to its end with the first legal move each time (passes implicit),
    /// as a transcript.
    fn game() -> String {
        let mut game = GameRecord::new(Position::start(BoardSize::Eight));
        while !game.position().is_game_over() {
            let pos = game.position();
            let mover = if pos.can_move() { pos } else { pos.passed() };
            let sq = mover
                .legal_moves()
                .next()
                .expect("a game not over has a move");
            game.play_with_implicit_pass(sq).unwrap();
        }
        transcript::format(&game)
    }

    /// Each transcript line makes a game, comments and blank lines skipped; one that is not
    /// over is refused at its line.
    #[test]
    fn played_games_are_read_a_line_each() {
        let game = game();
        let games = parse_played(&format!("# two games\n{game}\n\n{game}\n")).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].black, "ply");
        assert!(games[0].game.position().is_game_over());
        let e = parse_played(&format!("{game}\nf5d6\n")).unwrap_err();
        assert_eq!(e.line(), Some(2));
        assert!(e.message().contains("not over"), "{e}");
    }

    /// The players are numbered in order of appearance, and a game played to the end keeps
    /// its own result as its theoretical score when nothing is solved.
    #[test]
    fn a_database_numbers_its_players_and_lists_its_games() {
        let game = game();
        let played = parse_played(&game).unwrap();
        let header = Header::games(2024, Date::from_days(0), 14);
        let made = Database::make(header, played, Some(60), &mut |_| {
            unreachable!("a game played perfectly from the start needs no solve")
        })
        .unwrap();
        assert_eq!(made.players, ["ply"]);
        assert_eq!(
            made.note("o.wtb", 84, 0.3),
            "wrote 1 games to o.wtb (84 bytes; theoretical scores from 14 empties, 0 solved, 0.3 s)"
        );
        assert_eq!(made.solved, 0);
        let g = &made.database.games[0];
        assert_eq!((g.black, g.white), (0, 0));
        let listed = Listed {
            file: "f.wtb",
            number: 1,
            header: &made.database.header,
            game: g,
            black: "ply",
            white: "ply",
            tournament: "t",
        };
        let row = listed.row();
        assert!(row.starts_with("1\t2024\tt\tply\tply\t"), "{row}");
        assert!(row.ends_with(&game), "{row}");
        assert_eq!(LIST_HEAD.split('\t').count(), row.split('\t').count());
        assert_eq!(listed.ggf().tag("DT"), Some("2024"));
    }

    /// A listing filters by year, player and the caller's test, heads each file's games
    /// when there are several, and names a number the names lack.
    #[test]
    fn a_listing_filters_and_names_what_the_names_lack() {
        let game = game();
        let made = Database::make(
            Header::games(2024, Date::from_days(0), 14),
            parse_played(&format!("{game}\n{game}\n")).unwrap(),
            Some(60),
            &mut |_| unreachable!("no solve"),
        )
        .unwrap();
        let file = |name: &str| ListedFile {
            name: name.into(),
            header: made.database.header,
            games: made.database.games.clone(),
        };
        let files = [file("a.wtb"), file("b.wtb")];
        let players = ["Ann".to_string()];
        let names = NamesOf {
            names: &players,
            file: "p.jou",
        };
        let mut o = ListOptions {
            players: Some(names),
            tournaments: None,
            year: None,
            player: Some("aNN"),
            keep: None,
            format: ListFormat::Table,
        };
        let text = list(&files, &o).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 2 * 3, "{text}");
        assert_eq!(lines[1], "# a.wtb");
        assert!(lines[2].starts_with("1\t2024\t#0\tAnn\tAnn\t"), "{text}");
        o.year = Some(2023);
        assert_eq!(list(&files, &o).unwrap(), format!("{LIST_HEAD}\n"));
        o.year = None;
        let none = |_: &GameRecord| false;
        o.keep = Some(&none);
        o.format = ListFormat::Ggf;
        assert_eq!(list(&files, &o).unwrap(), "");
        o.players = Some(NamesOf {
            names: &[],
            file: "p.jou",
        });
        assert_eq!(
            list(&files, &o).unwrap_err(),
            "a.wtb: record 1, field `black player`: 0 is not in p.jou (it holds 0 names)"
        );
    }
}
