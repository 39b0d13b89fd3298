//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014): ply's one seedable generator.
//!
//! Its output depends on the seed alone (no dependency, no platform, no version of anything
//! else), so a seed written in a report or a command line (`ply judge gen --seed S`, a data
//! generation job) gives the same numbers everywhere, forever. It is small and fast, and good
//! enough for generating test inputs and sampling games; it is not for cryptography.

/// A SplitMix64 generator: 64 bits of state, one 64-bit output per step.
///
/// ```
/// use ply_core::SplitMix64;
///
/// let mut rng = SplitMix64::new(0);
/// assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf); // the reference sequence from seed 0
/// let die = 1 + rng.below(6);
/// assert!((1..=6).contains(&die));
/// // The same seed gives the same numbers.
/// assert_eq!(SplitMix64::new(7).next_u64(), SplitMix64::new(7).next_u64());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed` (any value, 0 included).
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// A seed nobody chose: the clock's nanoseconds and the process id, mixed (for a
    /// command run without `--seed`, a fresh input each call).
    #[must_use]
    pub fn fresh_seed() -> u64 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        SplitMix64::new(nanos ^ u64::from(std::process::id()).rotate_left(32)).next_u64()
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, by Lemire's multiply-shift: the high 64 bits of `next_u64() * n`
    /// (one multiplication, no division; the bias is below `n / 2^64`).
    ///
    /// # Panics
    ///
    /// If `n` is 0: there is no number in `0..0`.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "SplitMix64::below(0): the range 0..0 is empty");
        // The product's high half is below `n`, so it fits in a usize.
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `0..n` as `next_u64() % n` (the bias is below `n / 2^64` too). The
    /// training's games and weights were drawn with this rule, so it stays for them: the
    /// same seed must keep giving the same games.
    ///
    /// # Panics
    ///
    /// If `n` is 0.
    pub fn below_by_remainder(&mut self, n: u64) -> u64 {
        assert!(
            n > 0,
            "SplitMix64::below_by_remainder(0): the range 0..0 is empty"
        );
        self.next_u64() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequences() {
        // The C reference (splitmix64.c by Vigna) from seed 0, as also quoted for seeding
        // xoshiro, and from seed 1234567.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
        let mut r = SplitMix64::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn below_stays_in_range_and_reaches_both_ends() {
        let mut r = SplitMix64::new(7);
        for n in 1..100 {
            assert!(r.below(n) < n);
        }
        let draws: Vec<usize> = (0..200).map(|_| r.below(3)).collect();
        assert!(draws.contains(&0) && draws.contains(&2));
    }

    #[test]
    #[should_panic(expected = "empty")]
    fn below_zero_panics() {
        SplitMix64::new(1).below(0);
    }

    #[test]
    fn fresh_seeds_differ_from_call_to_call() {
        let seeds: Vec<u64> = (0..4).map(|_| SplitMix64::fresh_seed()).collect();
        assert!(seeds.windows(2).any(|w| w[0] != w[1]), "{seeds:?}");
    }
}
