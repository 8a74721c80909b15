//! The generator of 斗地主 deals and bots: the table's one card-game generator
//! ([`crate::game::rng::SplitMix64`]: `new`, `next_u64`, unbiased `below`, `shuffle`, `fork`).
//! A hand's deal `k` (0, then one per all-pass redeal) is `Rng::fork(seed, k)`; the random
//! landlord after three all-pass deals is `Rng::fork(seed ^ 0x5EED, deal)`.

pub use crate::game::rng::SplitMix64 as Rng;
