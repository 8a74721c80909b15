//! The generator of 顶牛 deals, dice and bots: the table's one card-game generator
//! ([`crate::game::rng::SplitMix64`]); the same seed gives the same deal, dice and bot choices on
//! every platform.

pub use crate::game::rng::SplitMix64 as Rng;

/// A seed derived from `seed` and a stream index (rounds, matches, bots).
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64()
}
