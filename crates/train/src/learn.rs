//! Fitting the evaluation to self-play games ([`crate::games`] files): the positions of the
//! games, each labelled with the final disc difference of its game, which is the position's
//! exact value wherever both sides played perfectly from it on (from the set's exact empties,
//! 20 on 8x8).
//!
//! Why that label: it costs nothing more than the games, it is exact in the endgame phases,
//! and above them it is the exact value of the position the game reached at the exact
//! empties, a few moves of a depth-limited engine later: unbiased where that engine plays
//! both sides equally well, and a noise that more games average out. A deeper search would
//! label each position better but costs a search per position, which the games already paid
//! for once (Egaroucid fits its evaluation on the results of its own games in the same way).
//! The held-out report measures the choice: against exact labels at the exact phases, and
//! against game results above them.
//!
//! The fit: phase by phase, ridge regression (conjugate gradients on the normal equations,
//! [`crate::fit`]'s solver) on the positions of the phase and those within `window` empty
//! squares of its edges, symmetric images of a pattern sharing one weight. The games whose
//! index hashes to 0 modulo `holdout` are kept aside and only measured. Everything is in a
//! fixed order on one thread: the same files and settings give the same bytes.
//!
//! ```
//! use ply_othello::BoardSize;
//! use ply_train::{games::{Header, Shard}, learn, recipe::Params};
//!
//! // Two 6x6 games, fitted and measured.
//! let params = Params { games: 2, ..Params::default_for(BoardSize::Six) };
//! let mut bytes = Header::new(params, Shard::WHOLE).to_bytes().to_vec();
//! for k in 0..2 {
//!     ply_train::selfplay::play(&params, k).unwrap().encode(&mut bytes);
//! }
//! let data = learn::Data::read([(&bytes[..], "games.bin")], 1_000_000).unwrap();
//! assert!(data.samples.len() > 40);
//! let settings = learn::Settings { iterations: 5, ..learn::Settings::default() };
//! let eval = learn::fit(&data, &settings, |_| ());
//! assert_eq!(eval, learn::fit(&data, &settings, |_| ()), "deterministic");
//! ```

use std::{
    fs::File,
    io::{BufReader, Read},
    path::PathBuf,
};

use ply_core::SplitMix64;
use ply_othello::{
    analyze::Discs64,
    eval::{layout, phase_count, phase_of, Eval, EXTRA_WEIGHTS},
    BoardSize,
};

use crate::{
    error::{DataError, Place},
    fit::phase_empties,
    games::{GameReader, Header},
    ridge::{features, ridge_fit, store_phase, Row},
};

/// A training position, compactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// The game's final disc difference for the side to move.
    pub label: i8,
    /// Whether the label is the position's exact value.
    pub exact: bool,
    /// Kept aside: never trained on, only measured.
    pub held_out: bool,
    /// Empty squares.
    pub empties: u8,
}

/// The positions of one or more game files of one board size.
#[derive(Clone, Debug)]
pub struct Data {
    /// The board size.
    pub size: BoardSize,
    /// Every position of every game, file after file, in game order.
    pub samples: Vec<Sample>,
    /// Games read.
    pub games: u64,
    /// Games held out.
    pub held_out_games: u64,
    /// Games left out because they share an opening with the test set
    /// ([`Data::read_apart`]); not in `games`.
    pub left_out_games: u64,
    /// The files read, in the order given: each one's name and header.
    pub files: Vec<(String, Header)>,
}

/// Whether game `index` of the set with `seed` is held out: one game in `holdout`, chosen by
/// a hash so that every shard of a set (games `k mod N = I`) keeps its share.
#[must_use]
pub fn held_out(seed: u64, index: u64, holdout: u64) -> bool {
    let mut rng = SplitMix64::new(seed ^ index.rotate_left(32) ^ 0x6865_6c64_6f75_7421);
    rng.next_u64().is_multiple_of(holdout.max(1))
}

impl Data {
    /// Reads every game of `files` (each a reader and its name for messages), every record
    /// checked, keeping one game in `holdout` aside.
    ///
    /// # Errors
    /// A file that is not a whole game file (as [`GameReader`] checks), files of different
    /// board sizes, or the same shard of one set given twice: the error names the file.
    pub fn read<R: Read, S: Into<String>>(
        files: impl IntoIterator<Item = (R, S)>,
        holdout: u64,
    ) -> Result<Data, DataError> {
        Data::read_apart(files, holdout, &[])
    }

    /// The game files at `paths` opened for [`Data::read`], each named by its path.
    ///
    /// # Errors
    /// A file that cannot be opened ([`DataError::Io`], naming it).
    pub fn open_files(paths: &[PathBuf]) -> Result<Vec<(BufReader<File>, String)>, DataError> {
        paths
            .iter()
            .map(|path| {
                let name = path.display().to_string();
                match File::open(path) {
                    Ok(file) => Ok((BufReader::new(file), name)),
                    Err(e) => Err(DataError::io(&name, e)),
                }
            })
            .collect()
    }

    /// [`Data::read`], leaving out every game that passes through one of `apart` (the
    /// positions after the test set's openings, as [`crate::testset::openings`] gives them),
    /// so that no training game shares an opening with the test set; they are counted in
    /// [`Data::left_out_games`].
    ///
    /// # Errors
    /// As [`Data::read`].
    pub fn read_apart<R: Read, S: Into<String>>(
        files: impl IntoIterator<Item = (R, S)>,
        holdout: u64,
        apart: &[(usize, ply_othello::Position)],
    ) -> Result<Data, DataError> {
        let mut data: Option<Data> = None;
        for (input, name) in files {
            let name: String = name.into();
            let mut reader = GameReader::new(input, name.clone())?;
            let header = *reader.header();
            let params = header.params;
            let bad = |field, message: String| DataError::Bad {
                file: name.clone(),
                at: Place::Header,
                field,
                message,
            };
            let data = data.get_or_insert_with(|| Data {
                size: params.size,
                samples: Vec::new(),
                games: 0,
                held_out_games: 0,
                left_out_games: 0,
                files: Vec::new(),
            });
            if params.size != data.size {
                return Err(bad(
                    "board size",
                    format!(
                        "{0}x{0}, where the files before are {1}x{1}",
                        params.size.n(),
                        data.size.n()
                    ),
                ));
            }
            // The test set's openings are positions of their own size: another size's games
            // cannot pass through them (nor be replayed from their start).
            if let Some((_, p)) = apart.first().filter(|(_, p)| p.size() != params.size) {
                return Err(bad(
                    "board size",
                    format!(
                        "{0}x{0}, where the test set to keep apart from is {1}x{1}",
                        params.size.n(),
                        p.size().n()
                    ),
                ));
            }
            // The same games twice would count twice and leak into the held-out set.
            if let Some((before, _)) = data.files.iter().find(|(_, h)| *h == header) {
                return Err(bad(
                    "shard",
                    format!(
                        "shard {} of this set is given twice (also {before})",
                        header.shard
                    ),
                ));
            }
            data.files.push((name.clone(), header));
            while let Some(game) = reader.next_game()? {
                if !apart.is_empty() && crate::testset::shares_opening(&game.moves, apart) {
                    data.left_out_games += 1;
                    continue;
                }
                let out = held_out(params.seed, game.index, holdout);
                // The reader has replayed the game already: its positions are legal.
                let positions = game.positions(&params).map_err(|message| DataError::Bad {
                    file: name.clone(),
                    at: Place::Record {
                        number: reader.records(),
                        offset: reader.offset(),
                    },
                    field: "moves",
                    message,
                })?;
                data.games += 1;
                data.held_out_games += u64::from(out);
                data.samples.extend(positions.into_iter().map(|l| Sample {
                    p: l.position.player().0,
                    o: l.position.opponent().0,
                    label: l.label,
                    exact: l.exact,
                    held_out: out,
                    empties: l.empties() as u8,
                }));
            }
        }
        data.ok_or_else(|| DataError::Params {
            field: "files",
            message: "no game file given".into(),
        })
    }
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Ridge penalty on every weight.
    pub ridge: f64,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Positions within this many empty squares outside a phase are fitted with it too.
    pub window: u32,
}

impl Default for Settings {
    /// The settings of the shipped 8x8 weights.
    fn default() -> Settings {
        Settings {
            ridge: 15.0,
            iterations: 60,
            window: 4,
        }
    }
}

impl Settings {
    /// Checks the settings: a positive ridge, 1 to 10000 iterations, a window of 0 to 16.
    ///
    /// # Errors
    /// The first that is out of range, as [`DataError::Params`] naming it (`ridge`,
    /// `iterations`, `window`), the message beginning with its value.
    pub fn check(&self) -> Result<(), DataError> {
        let params = |field, message| Err(DataError::Params { field, message });
        if !(self.ridge.is_finite() && self.ridge > 0.0) {
            return params(
                "ridge",
                format!("{}: expected a positive number", self.ridge),
            );
        }
        if self.iterations == 0 || self.iterations > 10_000 {
            return params(
                "iterations",
                format!("{}: expected 1 to 10000", self.iterations),
            );
        }
        if self.window > 16 {
            return params("window", format!("{}: expected 0 to 16", self.window));
        }
        Ok(())
    }
}

/// Checks `holdout`, one game in how many kept aside: 2 or more.
///
/// # Errors
/// Less, as [`DataError::Params`] naming `holdout`, the message beginning with its value.
pub fn check_holdout(holdout: u64) -> Result<(), DataError> {
    if holdout < 2 {
        return Err(DataError::Params {
            field: "holdout",
            message: format!("{holdout}: expected 2 or more (one game in N is kept aside)"),
        });
    }
    Ok(())
}

/// Fits every phase to the positions of `data` not held out, calling `progress` with a line
/// per phase.
///
/// # Panics
/// When the data's board size has no evaluation (4x4).
pub fn fit(data: &Data, settings: &Settings, mut progress: impl FnMut(&str)) -> Eval {
    let size = data.size;
    let l = layout(size).expect("an evaluated board size");
    let per_phase = l.pattern_weights() + EXTRA_WEIGHTS;
    let mut weights = vec![0i16; per_phase * phase_count(size)];
    for phase in 0..phase_count(size) {
        let (lo, hi) = phase_empties(size, phase);
        let (lo, hi) = (lo.saturating_sub(settings.window), hi + settings.window);
        let rows: Vec<Row> = data
            .samples
            .iter()
            .filter(|s| !s.held_out && (lo..=hi).contains(&u32::from(s.empties)))
            .map(|s| Row {
                features: features(l, s.p, s.o, size),
                target: f64::from(s.label),
            })
            .collect();
        let w = ridge_fit(&rows, per_phase, settings.ridge, settings.iterations);
        store_phase(
            l,
            &w,
            &mut weights[phase * per_phase..(phase + 1) * per_phase],
        );
        progress(&format!(
            "phase {phase} ({lo}-{hi} empties): {} positions fitted",
            rows.len()
        ));
    }
    Eval::from_weights(size, weights).expect("the layout's length")
}

/// Errors of an evaluation on some positions, in discs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Errors {
    /// Positions.
    pub count: usize,
    /// Mean absolute error.
    pub mae: f64,
    /// Mean signed error (evaluation minus label).
    pub bias: f64,
}

/// Sums of errors, turned into [`Errors`] at the end.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    count: usize,
    abs: f64,
    sum: f64,
}

impl Tally {
    fn add(&mut self, error: f64) {
        self.count += 1;
        self.abs += error.abs();
        self.sum += error;
    }

    fn errors(self) -> Errors {
        let n = self.count.max(1) as f64;
        Errors {
            count: self.count,
            mae: self.abs / n,
            bias: self.sum / n,
        }
    }
}

/// The held-out errors of one phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseErrors {
    /// Empty squares of the phase, lowest and highest.
    pub empties: (u32, u32),
    /// Positions of the phase trained on.
    pub trained: usize,
    /// Against every held-out label.
    pub all: Errors,
    /// Against the held-out labels that are exact values.
    pub exact: Errors,
}

/// The errors of `eval` (its raw value, without the side-to-move handicap) on the held-out
/// positions of `data`, phase by phase.
#[must_use]
pub fn held_out_errors(eval: &Eval, data: &Data) -> Vec<PhaseErrors> {
    let size = data.size;
    let phases = phase_count(size);
    let mut trained = vec![0usize; phases];
    let (mut all, mut exact) = (
        vec![Tally::default(); phases],
        vec![Tally::default(); phases],
    );
    // One pass: each held-out position evaluated once.
    for s in &data.samples {
        let phase = phase_of(size, u32::from(s.empties));
        if !s.held_out {
            trained[phase] += 1;
            continue;
        }
        let error = Discs64(eval.evaluate_reference(s.p, s.o)).discs() - f64::from(s.label);
        all[phase].add(error);
        if s.exact {
            exact[phase].add(error);
        }
    }
    (0..phases)
        .map(|phase| PhaseErrors {
            empties: phase_empties(size, phase),
            trained: trained[phase],
            all: all[phase].errors(),
            exact: exact[phase].errors(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        games::{Game, Shard},
        recipe::Params,
    };
    use ply_othello::{Color, Position, Square};

    /// A file of `games` games of random legal moves (the reader checks the rules and the
    /// score, not the quality of the play), cheap enough for a debug build.
    fn file(games: u64, size: BoardSize, seed: u64) -> Vec<u8> {
        let params = Params {
            games,
            seed,
            ..Params::default_for(size)
        };
        let mut bytes = Header::new(params, Shard::WHOLE).to_bytes().to_vec();
        let mut rng = SplitMix64::new(seed);
        for index in 0..games {
            let mut pos = Position::start(size);
            let mut moves = Vec::new();
            while !pos.is_game_over() {
                if !pos.can_move() {
                    pos = pos.passed();
                }
                let legal: Vec<Square> = pos.legal_moves().collect();
                let sq = legal[rng.below(legal.len())];
                moves.push(sq);
                pos = pos.play_unchecked(sq);
            }
            let score = match pos.turn() {
                Color::Black => pos.final_score(),
                Color::White => -pos.final_score(),
            };
            let game = Game {
                index,
                random_moves: params.random_min,
                moves,
                score: score as i8,
            };
            game.encode(&mut bytes);
        }
        bytes
    }

    #[test]
    fn every_shard_keeps_its_share_of_held_out_games() {
        for shard in 0..64u64 {
            let out = (0..20_000u64)
                .filter(|k| k % 64 == shard)
                .filter(|&k| held_out(1, k, 20))
                .count();
            assert!((5..=35).contains(&out), "shard {shard}: {out} of 312");
        }
    }

    #[test]
    fn the_fit_learns_the_labels_and_is_deterministic() {
        let bytes = file(300, BoardSize::Six, 5);
        let data = Data::read([(&bytes[..], "six.bin")], 10).expect("a good file");
        assert_eq!(data.games, 300);
        let settings = Settings {
            ridge: 1.0,
            iterations: 30,
            window: 2,
        };
        let eval = fit(&data, &settings, |_| ());
        assert_eq!(eval, fit(&data, &settings, |_| ()));
        // On the positions it was fitted to, the fit is far better than zero weights.
        let trained: Vec<&Sample> = data.samples.iter().filter(|s| !s.held_out).collect();
        let err = |e: &Eval| {
            trained
                .iter()
                .map(|s| {
                    (Discs64(e.evaluate_reference(s.p, s.o)).discs() - f64::from(s.label)).abs()
                })
                .sum::<f64>()
                / trained.len() as f64
        };
        let zero = Eval::from_weights(BoardSize::Six, vec![0; eval.weights().len()])
            .expect("right length");
        assert!(
            err(&eval) < 0.5 * err(&zero),
            "{} vs {}",
            err(&eval),
            err(&zero)
        );
        let report = held_out_errors(&eval, &data);
        assert_eq!(report.len(), phase_count(BoardSize::Six));
        let held: usize = report.iter().map(|r| r.all.count).sum();
        let want = data.samples.iter().filter(|s| s.held_out).count();
        assert_eq!(held, want);
    }

    #[test]
    fn a_shard_given_twice_or_another_size_is_refused() {
        let six = file(2, BoardSize::Six, 1);
        let e = Data::read([(&six[..], "a.bin"), (&six[..], "b.bin")], 20).unwrap_err();
        assert!(e.to_string().contains("b.bin"), "{e}");
        assert!(e.to_string().contains("shard"), "{e}");
        let eight = file(1, BoardSize::Eight, 1);
        let e = Data::read([(&six[..], "a.bin"), (&eight[..], "c.bin")], 20).unwrap_err();
        assert!(e.to_string().contains("c.bin"), "{e}");
        assert!(e.to_string().contains("board size"), "{e}");
        let cut = &six[..six.len() - 3];
        let e = Data::read([(cut, "cut.bin")], 20).unwrap_err();
        assert!(e.to_string().contains("cut.bin"), "{e}");
    }

    #[test]
    fn settings_out_of_range_are_named_with_their_value() {
        let field = |r: Result<(), DataError>| match r {
            Err(DataError::Params { field, message }) => format!("{field} {message}"),
            other => format!("{other:?}"),
        };
        assert!(Settings::default().check().is_ok());
        let ridge = Settings {
            ridge: 0.0,
            ..Settings::default()
        };
        assert_eq!(field(ridge.check()), "ridge 0: expected a positive number");
        let window = Settings {
            window: 17,
            ..Settings::default()
        };
        assert_eq!(field(window.check()), "window 17: expected 0 to 16");
        assert!(check_holdout(2).is_ok());
        assert_eq!(
            field(check_holdout(1)),
            "holdout 1: expected 2 or more (one game in N is kept aside)"
        );
    }

    #[test]
    fn games_of_another_size_than_the_test_set_are_refused() {
        let six = file(2, BoardSize::Six, 1);
        let apart = [(1, ply_othello::Position::start(BoardSize::Eight))];
        let e = Data::read_apart([(&six[..], "six.bin")], 20, &apart).unwrap_err();
        assert!(e.is_bad_input());
        assert!(
            e.to_string()
                .contains("6x6, where the test set to keep apart from is 8x8"),
            "{e}"
        );
    }
}
