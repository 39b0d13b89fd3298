//! The one hash of a position that both transposition tables index by: each bitboard
//! multiplied by its own odd constant, the two products mixed, the high half folded down,
//! multiplied again and folded again (products carry low bits upwards only, so the fold
//! brings the well-mixed high bits to where a table's index reads them).
//!
//! The two tables mix the products in two ways, [`midgame`] and [`endgame`]: the solver's
//! keys carry the board size (the solver's `Geometry::key`: its table may hold positions
//! of every size) and turn the opponent's product before mixing. Both
//! ways are kept as they are because a table's slots, and so every node count measured
//! against them, follow from its hash.

const PLAYER: u64 = 0x9e37_79b9_7f4a_7c15;
const OPPONENT: u64 = 0xc2b2_ae3d_27d4_eb4f;
const FOLD: u64 = 0xd6e8_feb8_6659_fd93;

/// The shared steps: `p` and `o ^ salt` multiplied, the opponent's product turned left by
/// `turn` bits, the two xored and folded.
#[inline]
fn mix(p: u64, o: u64, salt: u64, turn: u32) -> u64 {
    let a = p.wrapping_mul(PLAYER);
    let b = (o ^ salt).wrapping_mul(OPPONENT);
    let mut h = a ^ b.rotate_left(turn);
    h ^= h >> 32;
    h = h.wrapping_mul(FOLD);
    h ^ h >> 32
}

/// The midgame engine's hash of the position with `p` to move: its entries hold the whole
/// position, so a shared slot is never taken for a hit.
#[inline]
pub(crate) fn midgame(p: u64, o: u64) -> u64 {
    mix(p, o, 0, 0)
}

/// The exact solver's table key of the position with `p` to move on the board whose size
/// tag is `size_key`: boards of different sizes never share a key.
#[inline]
pub(crate) fn endgame(p: u64, o: u64, size_key: u64) -> u64 {
    mix(p, o, size_key, 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of the two hashes before they shared one body: a table's slots, and so
    /// every node count, depend on them.
    #[test]
    fn keys_are_those_the_node_counts_were_measured_with() {
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_eq!(midgame(p, o), 0x9312_083b_6978_6f22);
        assert_eq!(endgame(p, o, 0), 0x1071_b532_6c32_4c92);
        assert_eq!(endgame(p, o, 8), 0xd9a1_7a06_c158_54a6);
    }

    #[test]
    fn sizes_and_sides_get_different_keys() {
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_ne!(endgame(p, o, 0), endgame(p, o, 8));
        assert_ne!(midgame(p, o), midgame(o, p));
        assert_ne!(endgame(p, o, 0), endgame(o, p, 0));
    }
}
