//! A small deterministic generator (SplitMix64): the same seed gives the same deal, dice and bot
//! choices on every platform.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n ≥ 1`): multiply-shift with rejection (Lemire), no modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        let n = u64::from(n.max(1));
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            let low = m as u64;
            // Reject the few low parts that would bias the result (threshold = 2^64 mod n).
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 64) as u32;
            }
        }
    }
}

/// A seed derived from `seed` and a stream index (rounds, matches, bots).
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64()
}
