//! CPython's `random.Random`, bit for bit: MT19937 seeded from an int the way CPython seeds it,
//! `getrandbits`, `_randbelow` (rejection sampling on `n.bit_length()` bits), and the methods the
//! table uses (`shuffle`, `randint`, `choice`, `sample`, `random`). The wall of a hand is
//! `random.Random(seed).shuffle(tiles)` over the variant's tile set in index order, exactly as the
//! Python table dealt it before the engine moved to the core, so a seed deals the same wall.
//!
//! Seeding (CPython `random_seed` for an int): the key is the 32-bit words of `abs(seed)`, least
//! significant first (one word `0` for seed 0), fed to MT19937's `init_by_array`.
//! `shuffle(x)`: for `i` from `len(x) - 1` down to 1, swap `x[i]` with `x[_randbelow(i + 1)]`.
//! `_randbelow(n)`: `k = n.bit_length()`, draw `getrandbits(k)` until it is below `n`;
//! `getrandbits(k)` for `k ≤ 32` is the next 32-bit output shifted right by `32 - k`.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// CPython's `random.Random` (Mersenne Twister MT19937).
#[derive(Clone)]
pub struct PyRandom {
    mt: Box<[u32; N]>,
    index: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PyRandom(index {})", self.index)
    }
}

impl PyRandom {
    /// `random.Random(seed)` for an int seed (negative seeds use `abs(seed)`, as CPython does).
    pub fn new(seed: i128) -> PyRandom {
        let mut n = seed.unsigned_abs();
        let mut key = Vec::with_capacity(4);
        loop {
            key.push((n & 0xffff_ffff) as u32);
            n >>= 32;
            if n == 0 {
                break;
            }
        }
        PyRandom::from_key(&key)
    }

    fn init_genrand(s: u32) -> PyRandom {
        let mut mt = Box::new([0u32; N]);
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        PyRandom { mt, index: N }
    }

    /// MT19937 `init_by_array` (the key words of the seed).
    fn from_key(key: &[u32]) -> PyRandom {
        // `init_genrand(19650218)` is the same for every seed: computed once.
        static BASE: std::sync::OnceLock<PyRandom> = std::sync::OnceLock::new();
        let mut r = BASE
            .get_or_init(|| PyRandom::init_genrand(19_650_218))
            .clone();
        let mt = &mut r.mt;
        let mut i = 1usize;
        let mut j = 0usize;
        let len = key.len().max(1);
        for _ in 0..N.max(len) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key.get(j).copied().unwrap_or(0))
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    fn twist(&mut self) {
        let mt = &mut self.mt;
        for k in 0..N {
            let y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER);
            let mut v = mt[(k + M) % N] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= MATRIX_A;
            }
            mt[k] = v;
        }
        self.index = 0;
    }

    /// The next 32-bit output (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `1 ≤ k ≤ 32`.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        debug_assert!((1..=32).contains(&k));
        self.next_u32() >> (32 - k)
    }

    /// `_randbelow(n)`: uniform in `0..n` (`n ≥ 1`, at most `2^32`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `shuffle(x)` in place.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.below(i + 1);
            x.swap(i, j);
        }
    }

    /// `randint(a, b)` (both ends included, `a ≤ b`).
    pub fn randint(&mut self, a: i64, b: i64) -> i64 {
        a + self.below((b - a + 1) as usize) as i64
    }

    /// `choice(seq)` (non-empty).
    pub fn choice<T: Copy>(&mut self, seq: &[T]) -> T {
        seq[self.below(seq.len())]
    }

    /// `sample(range(n), k)` (`k ≤ n`), in CPython's order.
    pub fn sample_range(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut setsize = 21usize;
        if k > 5 {
            let e = ((k * 3) as f64).ln() / 4f64.ln();
            setsize += 4usize.pow(e.ceil() as u32);
        }
        let mut out = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.below(n - i);
                out.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = std::collections::HashSet::with_capacity(k);
            for _ in 0..k {
                let mut j = self.below(n);
                while selected.contains(&j) {
                    j = self.below(n);
                }
                selected.insert(j);
                out.push(j);
            }
        }
        out
    }

    /// `random()`: a float in `[0, 1)` with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }
}

/// SplitMix64: the seed of game `index` of a run with master seed `master` (and the seeds of the
/// built-in bots). Independent of how games are split into shards or workers.
pub fn game_seed(master: i128, index: u64) -> u64 {
    let mut z = (master as u64)
        ^ ((master >> 64) as u64).rotate_left(17)
        ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & ((1u64 << 63) - 1)
}

/// A small fast generator for the built-in bots (xorshift64*).
#[derive(Clone, Copy, Debug)]
pub struct BotRng(u64);

impl BotRng {
    pub fn new(seed: u64) -> BotRng {
        BotRng(game_seed(i128::from(seed), 0x5EED) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..n` (`n ≥ 1`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): the one generator of the card games (斗地主 deals and
/// redeals, 够级 deal, 上班 order and drawn seats, 顶牛 dice and deal) and of their built-in greedy
/// bots. Every stream is derived from the table's seed (`rules/<game>/rng.rs` re-export it; a
/// card table deals with the hand's seed and each bot draws from its own seed, see
/// `docs/table.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), unbiased (Lemire's multiply-and-reject).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// `0..n` by one multiply-shift (bias below 2^-32 for `n < 2^32`; 够级's historical draw).
    #[inline]
    pub fn below_shift(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates shuffle (from the end, `below(i + 1)`).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }

    /// An independent stream for sub-task `k` (the next deal, a seat's bot …).
    pub fn fork(seed: u64, k: u64) -> SplitMix64 {
        let mut r = SplitMix64::new(seed ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64();
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_cpython_reference_values() {
        // python -c "import random; r = random.Random(0); print([r.getrandbits(32) for _ in range(3)])"
        let mut r = PyRandom::new(0);
        assert_eq!(
            [r.next_u32(), r.next_u32(), r.next_u32()],
            [3_626_764_237, 1_654_615_998, 3_255_389_356]
        );
        // random.Random(42).random()
        let mut r = PyRandom::new(42);
        assert!((r.random() - 0.639_426_798_457_883_7).abs() < 1e-15);
        // random.Random(1).shuffle(list(range(10)))
        let mut r = PyRandom::new(1);
        let mut x: Vec<u32> = (0..10).collect();
        r.shuffle(&mut x);
        assert_eq!(x, vec![6, 8, 9, 7, 5, 3, 0, 4, 1, 2]);
    }

    #[test]
    fn game_seeds_spread() {
        let a: std::collections::HashSet<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        assert_eq!(a.len(), 1000);
        assert!(a.iter().all(|&s| s < 1 << 63));
        let mut b = BotRng::new(3);
        assert!((0..100).all(|_| b.below(7) < 7));
    }
}
