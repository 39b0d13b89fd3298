//! The self-play recipe: everything that decides a set of games' bytes (board size, seed,
//! the number of games, the engine's depth, the random opening, where perfect play starts),
//! checked before a game is played, and the fingerprint of the engine that plays them. The
//! game file ([`crate::games`]) writes a recipe into its header and reads it back; how a game
//! is played from it is [`crate::selfplay`].

use ply_othello::{eval, BoardSize};

use crate::{crc32::crc32, error::DataError};

/// How a set of games is played: everything that decides its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// The board size: 6x6 or 8x8.
    pub size: BoardSize,
    /// The seed of the set; game `k` plays from its own seed made of this and `k`.
    pub seed: u64,
    /// Games in the set, all shards together.
    pub games: u64,
    /// Depth of the midgame engine's search between the random opening and the exact end.
    pub depth: u8,
    /// Fewest random opening moves.
    pub random_min: u8,
    /// Most random opening moves (each game draws its number in `random_min..=random_max`).
    pub random_max: u8,
    /// From this many empty squares on, both sides play perfectly (the exact solver).
    pub exact_empties: u8,
}

impl Params {
    /// The settings of the data set made for the fitting, for a board size. On 8x8 a game
    /// costs about 0.2 s of one core, nearly all of it the exact solve at 20 empties (22
    /// would cost about 1 s; the engine at depth 6 costs 0.04 s a game, at depth 8 0.18 s).
    #[must_use]
    pub fn default_for(size: BoardSize) -> Params {
        match size {
            BoardSize::Six => Params {
                size,
                seed: 1,
                games: 1000,
                depth: 6,
                random_min: 4,
                random_max: 10,
                exact_empties: 14,
            },
            _ => Params {
                size: BoardSize::Eight,
                seed: 1,
                games: 1000,
                depth: 6,
                random_min: 6,
                random_max: 20,
                exact_empties: 20,
            },
        }
    }

    /// Moves a game has at most.
    #[must_use]
    pub fn max_moves(&self) -> u32 {
        self.size.squares() - 4
    }

    /// Whether the parameters make sense: a size with an evaluation, a depth of 1 to 30, the
    /// random moves a range that ends before the exact play starts, at least one game.
    ///
    /// # Errors
    /// A [`DataError::Params`] naming the field.
    pub fn check(&self) -> Result<(), DataError> {
        let bad = |field, message: String| Err(DataError::Params { field, message });
        if self.size == BoardSize::Four {
            return bad(
                "board size",
                "4x4 has no evaluation to play with: use 6 or 8".into(),
            );
        }
        if !(1..=30).contains(&self.depth) {
            return bad("depth", format!("{} is not within 1 to 30", self.depth));
        }
        if self.random_min > self.random_max {
            return bad(
                "random moves",
                format!("{}-{} is an empty range", self.random_min, self.random_max),
            );
        }
        let moves = self.max_moves();
        if u32::from(self.random_max) + u32::from(self.exact_empties) > moves {
            return bad(
                "exact empties",
                format!(
                    "up to {} random moves and perfect play from {} empties overlap: a {n}x{n} \
                     game has {moves} moves",
                    self.random_max,
                    self.exact_empties,
                    n = self.size.n()
                ),
            );
        }
        if self.games == 0 {
            return bad("games", "a set has at least one game".into());
        }
        Ok(())
    }
}

/// Reads a number of random opening moves as the command line gives it: `A-B` (each game
/// draws its number from A to B) or one number `A` (A-A).
///
/// # Errors
/// Not whole numbers up to 255, or an empty range; the message quotes the text.
pub fn parse_random_moves(s: &str) -> Result<(u8, u8), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u8>()
            .map_err(|_| format!("`{s}` is not A-B or A (whole numbers up to 255)"))
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if a > b {
        return Err(format!("`{s}`: the range {a}-{b} is empty"));
    }
    Ok((a, b))
}

/// A CRC-32 of the shipped evaluation of `size` (weights and handicap), which the midgame
/// engine plays with: games played with other weights are other games, so a file is resumed
/// only by the engine that began it.
#[must_use]
pub fn engine_fingerprint(size: BoardSize) -> u32 {
    let Some(e) = eval::builtin(size) else {
        return 0;
    };
    let mut bytes: Vec<u8> = e.weights().iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.extend_from_slice(&e.tempo().to_le_bytes());
    crc32(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_moves_are_a_range_or_one_number() {
        assert_eq!(parse_random_moves("6-20"), Ok((6, 20)));
        assert_eq!(parse_random_moves(" 4 "), Ok((4, 4)));
        assert_eq!(
            parse_random_moves("9-3"),
            Err("`9-3`: the range 9-3 is empty".into())
        );
        assert_eq!(
            parse_random_moves("300"),
            Err("`300` is not A-B or A (whole numbers up to 255)".into())
        );
    }
}
