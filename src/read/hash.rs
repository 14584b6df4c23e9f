//! Every hash the tool computes of a game, in one place: a game's
//! fingerprint (its players and moves, which `duplicate-game` compares and
//! a game id is made of), the moves a replay played, the words of a
//! player's name, and an event's or a pairing's key in the run-wide
//! tables. Each is a fixed function of its input's bytes (fixed
//! constants, words read little-endian), so a fingerprint and a game id
//! are the same on every build and platform, and a results file of one
//! build reads in another.
//!
//! Two shapes serve them: FNV-1a byte by byte for short keys (a word of a
//! name, an event), and two multiply-rotate lanes a word at a time, 128
//! bits wide, for what must tell millions of games apart (two distinct
//! games share a fingerprint with a chance of about n² / 2¹²⁹ among n, if
//! the lanes mix as a random function would: 1 in 10¹⁹ for a billion
//! games).

use std::hash::{BuildHasherDefault, Hasher};

/// 64-bit FNV-1a, a byte at a time: for short keys, without allocating.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Fnv {
    /// The hash of nothing after `seed` (0: FNV-1a's own start).
    pub fn new(seed: u64) -> Fnv {
        Fnv(seed ^ 0xCBF2_9CE4_8422_2325)
    }

    /// Adds one byte.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }

    /// The hash so far, as FNV-1a leaves it (its low bits are weak: mix it
    /// before a table takes them).
    pub fn value(self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new(0)
    }
}

/// Two 64-bit multiply-rotate lanes (the low and the high half of
/// `state`) after one more word: fast enough to run over every move of
/// every game.
#[inline]
pub fn lanes(state: u128, word: u64) -> u128 {
    let (lo, hi) = (state as u64, (state >> 64) as u64);
    let lo = (lo ^ word)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29);
    let hi = (hi.rotate_left(31) ^ word).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    u128::from(lo) | u128::from(hi) << 64
}

/// [`lanes`] over a byte string, its length first so that fields do not
/// run together.
pub fn lanes_bytes(mut state: u128, bytes: &[u8]) -> u128 {
    state = lanes(state, bytes.len() as u64);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        state = lanes(state, u64::from_le_bytes(word));
    }
    state
}

/// Both lanes mixed into a 128-bit hash, each bit of either lane moving
/// half of the result's.
pub fn lanes_finish(state: u128) -> u128 {
    let (lo, hi) = (state as u64, (state >> 64) as u64);
    (u128::from(fmix64(lo)) << 64) | u128::from(fmix64(hi ^ lo.rotate_left(17)))
}

/// The first half of MurmurHash3's finaliser: a shift and a multiply.
pub fn fmix64_half(x: u64) -> u64 {
    let x = (x ^ (x >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^ (x >> 33)
}

/// MurmurHash3's 64-bit finaliser (fmix64).
pub fn fmix64(x: u64) -> u64 {
    let x = (fmix64_half(x)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// A hasher for keys that are hashes already: it keeps their bits.
#[derive(Debug, Default, Clone, Copy)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 ^= u64::from_le_bytes(word);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// A map keyed by a hash ([`Prehashed`]).
pub type ByHash<V> = std::collections::HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// A set of hashes ([`Prehashed`]).
pub type Hashes = std::collections::HashSet<u64, BuildHasherDefault<Prehashed>>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The values each function had when the fingerprints and game ids
    /// of `game_id_scheme` 3 and 4 were made (worked out apart from this code):
    /// a change here changes them.
    #[test]
    fn the_hashes_keep_their_values() {
        let mut f = Fnv::default();
        b"carlsen".iter().for_each(|&b| f.byte(b));
        assert_eq!(f.value(), 0xf59e_e207_2af6_33bf, "{:#x}", f.value());
        let state = lanes_bytes(lanes(0, 42), b"Nf3 Nf6");
        let hash = lanes_finish(state);
        assert_eq!(hash, 0x36f5_1f66_bdf1_fecb_dd3d_b5c6_6ee3_d51b, "{hash:#x}");
        assert_eq!(fmix64(1), 0xb456_bcfc_34c2_cb2c, "{:#x}", fmix64(1));
    }

    #[test]
    fn fnv_is_fnv_1a() {
        // FNV-1a's published test vector: "a".
        let mut f = Fnv::default();
        f.byte(b'a');
        assert_eq!(f.value(), 0xaf63_dc4c_8601_ec8c);
    }
}
