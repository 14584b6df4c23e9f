//! The fingerprints of every game of a run, for finding duplicates, in about
//! 22 bytes a key (`bench/DUPLICATES-MEMORY.md` measures it); a game has
//! one key, or two when a name is also read by its initials.
//!
//! A hash table keeps slack (a quarter to a half of its slots empty, and
//! twice its size while it grows): 32 bytes of entry became 60 to 100 a
//! game. Here most fingerprints are in one sorted array of 20-byte
//! records with a directory by their first bits (half a byte a game), and
//! the newest in a short unsorted tail with a hash index (8 bytes a slot,
//! a third more slots than the tail's longest length); when the tail
//! reaches a sixteenth of the array, it is sorted and merged into the
//! array in place, from the back. A lookup reads the index, one directory
//! entry and about eight records, each likely a miss of the processor's
//! caches in a table of a million games: the writer asks for them a game
//! or two ahead (`ahead_far`, `ahead_near`).
//!
//! A record keeps 88 bits of the 128-bit fingerprint (two games in a
//! billion share them with odds of one in 6×10^8, the odds of a random
//! key: docs/limits.md says how the corpora measure the hash), 36 bits of
//! the game's ordinal in the run, a tag of each name the key reads by its
//! initials where it is written in full (6 bits each) and 24 bits of
//! labels (`Seen`).
//!
//! Past a memory limit (`--memory-limit`) the sorted array is written to
//! an anonymous temporary file (a run, removed by the system however the
//! process ends) and memory keeps of it only a Bloom filter (10 bits a
//! record in blocks of one cache line: about one lookup in sixty reads the
//! disk for nothing) and the first key of each 4 KiB page. A lookup then asks each run's filter,
//! and reads one page of a run whose filter says maybe. The answers are
//! the same as in memory.

use std::{fs::File, io};

/// What is kept of the first game with a fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    /// The game's ordinal in the run (below 2^36).
    pub ordinal: u64,
    /// White's and Black's names where the key reads them by surname and
    /// initial and they are written in full: a tag of each such name (6
    /// bits, never 0; [`InFull`]), 0 for a name as written.
    ///
    /// [`InFull`]: crate::read::game::InFull
    pub full: [u8; 2],
    /// 24 bits the caller packs (result and tag hashes).
    pub labels: u32,
}

/// The low bits of a key's last word, which hold part of what was seen.
const SEEN_BITS: u32 = 0xFF;

/// One fingerprint: its key (88 bits), then what was seen (72 bits: the
/// ordinal's 36, the names' 12 and the labels' 24), the last 8 of them in
/// the low bits of the key's last word.
#[derive(Debug, Clone, Copy, Default)]
struct Record([u32; 5]);

impl Record {
    fn new(key: [u32; 3], seen: Seen) -> Record {
        let packed = u128::from(seen.ordinal & ((1 << 36) - 1))
            | u128::from(seen.full[0] & 0x3F) << 36
            | u128::from(seen.full[1] & 0x3F) << 42
            | u128::from(seen.labels & 0xFF_FFFF) << 48;
        Record([
            key[0],
            key[1],
            (key[2] & !SEEN_BITS) | (packed >> 64) as u32,
            packed as u32,
            (packed >> 32) as u32,
        ])
    }

    fn key(&self) -> [u32; 3] {
        [self.0[0], self.0[1], self.0[2] & !SEEN_BITS]
    }

    fn seen(&self) -> Seen {
        let packed = u128::from(self.0[3])
            | u128::from(self.0[4]) << 32
            | u128::from(self.0[2] & SEEN_BITS) << 64;
        Seen {
            ordinal: (packed & ((1 << 36) - 1)) as u64,
            full: [(packed >> 36) as u8 & 0x3F, (packed >> 42) as u8 & 0x3F],
            labels: (packed >> 48) as u32,
        }
    }
}

/// The first 88 bits of a fingerprint, most significant first.
fn key_of(fp: u128) -> [u32; 3] {
    [
        (fp >> 96) as u32,
        (fp >> 64) as u32,
        (fp >> 32) as u32 & !SEEN_BITS,
    ]
}

/// Asks the processor to bring the cache line of `item` in, without
/// waiting for it: a lookup a little later then finds it at hand, where a
/// table of millions of games would otherwise miss the caches at once.
#[inline]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint to the caches: it changes no memory the
    // program sees and cannot fault, whatever the address; this one is a
    // live reference's.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// A key's bits for the tail's hash index (they are uniform already).
fn hash_of(key: &[u32; 3]) -> u64 {
    (u64::from(key[0]) << 32) | u64::from(key[1])
}

/// The shortest tail merged: below it merging costs more than it saves.
const MIN_TAIL: usize = 1 << 16;

/// Records a page of a run holds: 4 KiB of them.
const PAGE: usize = 4096 / std::mem::size_of::<Record>();

/// A sorted array written to disk.
#[derive(Debug)]
struct Run {
    file: File,
    len: usize,
    /// The first key of each page.
    pages: Vec<[u32; 3]>,
    /// A Bloom filter of its keys, 10 bits a key, 7 bits in one block of
    /// 512 (`block_and_bits`).
    bloom: Vec<u64>,
}

/// The Bloom filter of a run: blocks of 512 bits, a key's 7 bits all in
/// the block its first bits choose, so that a lookup reads one cache line.
fn block_and_bits(key: &[u32; 3], blocks: usize) -> (usize, [u16; 7]) {
    let block = (hash_of(key) % blocks as u64) as usize;
    // Bits apart from the block's: the key's last word, mixed.
    let mut h = u64::from(key[2]) << 32 | u64::from(key[2]);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^= h >> 31;
    let bits = std::array::from_fn(|i| ((h >> (9 * i)) & 511) as u16);
    (block, bits)
}

impl Run {
    fn write(records: &[Record]) -> io::Result<Run> {
        let mut file = tempfile::tempfile()?;
        let mut out = io::BufWriter::with_capacity(1 << 20, &mut file);
        for r in records {
            for w in r.0 {
                io::Write::write_all(&mut out, &w.to_le_bytes())?;
            }
        }
        io::Write::flush(&mut out)?;
        drop(out);
        let blocks = (records.len() * 10).div_ceil(512).max(1);
        let mut bloom = vec![0u64; blocks * 8];
        for r in records {
            let (block, bits) = block_and_bits(&r.key(), blocks);
            for bit in bits {
                bloom[block * 8 + usize::from(bit / 64)] |= 1 << (bit % 64);
            }
        }
        let pages = records.chunks(PAGE).map(|c| c[0].key()).collect();
        Ok(Run {
            file,
            len: records.len(),
            pages,
            bloom,
        })
    }

    fn find(&self, key: &[u32; 3]) -> io::Result<Option<Seen>> {
        let (block, bits) = block_and_bits(key, self.bloom.len() / 8);
        let words = &self.bloom[block * 8..block * 8 + 8];
        if !bits
            .iter()
            .all(|&bit| words[usize::from(bit / 64)] & (1 << (bit % 64)) != 0)
        {
            return Ok(None);
        }
        let page = self.pages.partition_point(|first| first <= key);
        let Some(page) = page.checked_sub(1) else {
            return Ok(None);
        };
        let start = page * PAGE;
        let count = PAGE.min(self.len - start);
        let size = std::mem::size_of::<Record>();
        let mut bytes = vec![0u8; count * size];
        read_at(&self.file, &mut bytes, (start * size) as u64)?;
        Ok(bytes.chunks_exact(size).find_map(|chunk| {
            let mut r = Record::default();
            for (w, b) in r.0.iter_mut().zip(chunk.chunks_exact(4)) {
                *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            (r.key() == *key).then(|| r.seen())
        }))
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file;
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(buf)
}

/// The tail's index: open addressing with linear probing, a slot a record
/// (its place in the tail plus one, and the 32 bits of its key that its
/// home slot does not come from; 0: empty), sized for the longest tail to
/// come at most three quarters full. A lookup of a new fingerprint reads
/// its home slot's cache line and, most often, nothing else.
#[derive(Debug, Default)]
struct TailIndex {
    slots: Vec<u64>,
}

impl TailIndex {
    /// Empties the index, with room for `longest` records.
    fn reset(&mut self, longest: usize) {
        let len = longest + longest / 3 + 1;
        if self.slots.len() != len {
            self.slots = vec![0; len];
        }
        // Written before it is read: a table the system gives zeroed would
        // have each page mapped to the zero page by its first lookup, and
        // copied at its first insert, which makes the system interrupt the
        // other threads' processors to forget the old mapping (about 0.2%
        // of a run's time on the corpus at -j2, at the writer's start).
        self.slots.fill(std::hint::black_box(0));
    }

    /// Where a key's probe starts: its third word scaled to the table.
    fn home(&self, key: &[u32; 3]) -> usize {
        ((u64::from(key[2]) * self.slots.len() as u64) >> 32) as usize
    }

    /// The slot a probe reads after slot `p`: the next, the first after
    /// the last.
    fn after(&self, p: usize) -> usize {
        if p + 1 == self.slots.len() { 0 } else { p + 1 }
    }

    /// The place in `tail` of the record with `key`.
    fn find(&self, key: &[u32; 3], tail: &[Record]) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mut p = self.home(key);
        loop {
            let slot = self.slots[p];
            if slot == 0 {
                return None;
            }
            let at = (slot as u32 - 1) as usize;
            if (slot >> 32) as u32 == key[1] && tail.get(at).is_some_and(|r| r.key() == *key) {
                return Some(at);
            }
            p = self.after(p);
        }
    }

    /// Adds the record at `at` of `tail` (not in the index yet); made
    /// larger first, with room for `longest`, if it would be more than
    /// three quarters full.
    fn insert(&mut self, key: &[u32; 3], at: usize, tail: &[Record], longest: usize) {
        if (at + 1) * 4 > self.slots.len() * 3 {
            self.reset(longest.max(2 * (at + 1)));
            for (i, r) in tail.iter().enumerate().take(at) {
                self.put(&r.key(), i);
            }
        }
        self.put(key, at);
    }

    fn put(&mut self, key: &[u32; 3], at: usize) {
        let mut p = self.home(key);
        while self.slots[p] != 0 {
            p = self.after(p);
        }
        self.slots[p] = (u64::from(key[1]) << 32) | (at as u64 + 1);
    }
}

/// Every fingerprint seen so far.
#[derive(Debug, Default)]
pub struct Fingerprints {
    /// Sorted by key.
    sorted: Vec<Record>,
    /// `dir[b]` is the first record of `sorted` whose key's first `bits`
    /// bits are `b` or more; one more entry at the end.
    dir: Vec<u32>,
    bits: u32,
    /// The newest records, unsorted, and their index.
    tail: Vec<Record>,
    index: TailIndex,
    /// Sorted arrays written to disk, oldest first.
    runs: Vec<Run>,
    /// The bytes the sorted array may take before it is written to disk;
    /// 0 for no limit.
    limit: usize,
    /// Why the last run could not be written, once: the table then stays
    /// in memory.
    pub trouble: Option<String>,
}

impl Fingerprints {
    /// A table whose sorted array is written to disk past `limit` bytes
    /// (0: never).
    pub fn with_limit(limit: usize) -> Fingerprints {
        Fingerprints {
            limit,
            ..Fingerprints::default()
        }
    }

    /// How many runs are on disk.
    #[cfg(test)]
    fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The first game seen with this fingerprint, or, if none was, `None`
    /// after keeping `seen` as it.
    pub fn first_or_keep(&mut self, fp: u128, seen: Seen) -> Option<Seen> {
        let found = self.first(fp);
        if found.is_none() {
            self.keep(fp, seen);
        }
        found
    }

    /// The first game seen with this fingerprint.
    pub fn first(&mut self, fp: u128) -> Option<Seen> {
        self.find(&key_of(fp))
    }

    /// Keeps `seen` as the first game with this fingerprint, which no game
    /// has yet.
    pub fn keep(&mut self, fp: u128, seen: Seen) {
        let key = key_of(fp);
        self.tail.push(Record::new(key, seen));
        self.index
            .insert(&key, self.tail.len() - 1, &self.tail, self.longest_tail());
        if self.tail.len() >= self.longest_tail() {
            self.merge();
            let size = self.sorted.len() * std::mem::size_of::<Record>() + self.dir.len() * 4;
            if self.limit > 0 && size >= self.limit && self.trouble.is_none() {
                self.spill();
            }
            self.index.reset(self.longest_tail());
        }
    }

    /// How long the tail grows before it is merged.
    fn longest_tail(&self) -> usize {
        MIN_TAIL.max(self.sorted.len() / 16)
    }

    /// Writes the sorted array to disk as a run, and frees it.
    fn spill(&mut self) {
        match Run::write(&self.sorted) {
            Ok(run) => {
                self.runs.push(run);
                self.sorted = Vec::new();
                self.dir = Vec::new();
                self.bits = 0;
            }
            Err(err) => self.trouble = Some(err.to_string()),
        }
    }

    /// Asks the processor for the directory entry that a lookup of `fp`
    /// reads first: a step ahead of [`first_or_keep`](Self::first_or_keep)
    /// (two games ahead, say), so that the lookup finds it at hand.
    pub fn ahead_far(&self, fp: u128) {
        let key = key_of(fp);
        if let Some(slot) = self.index.slots.get(self.index.home(&key)) {
            prefetch(slot);
        }
        if let Some(entry) = self.dir.get(self.bucket(&key)) {
            prefetch(entry);
        }
    }

    /// Asks the processor for the records of the sorted array that a
    /// lookup of `fp` compares, once its directory entry is at hand
    /// ([`ahead_far`](Self::ahead_far) an earlier game before).
    pub fn ahead_near(&self, fp: u128) {
        let b = self.bucket(&key_of(fp));
        let (Some(&from), Some(&to)) = (self.dir.get(b), self.dir.get(b + 1)) else {
            return;
        };
        if let Some(first) = self.sorted.get(from as usize) {
            prefetch(first);
        }
        // About eight records: a second cache line, perhaps a third.
        if to > from + 1
            && let Some(last) = self.sorted.get(to as usize - 1)
        {
            prefetch(last);
        }
    }

    /// The directory entry of a key.
    fn bucket(&self, key: &[u32; 3]) -> usize {
        if self.bits == 0 {
            0
        } else {
            (key[0] >> (32 - self.bits)) as usize
        }
    }

    fn find(&mut self, key: &[u32; 3]) -> Option<Seen> {
        if let Some(i) = self.index.find(key, &self.tail) {
            return Some(self.tail[i].seen());
        }
        for i in 0..self.runs.len() {
            match self.runs[i].find(key) {
                Ok(Some(seen)) => return Some(seen),
                Ok(None) => {}
                // A run that cannot be read back: said once, and its
                // games are not found (no false duplicate is reported).
                Err(err) => {
                    if self.trouble.is_none() {
                        eprintln!(
                            "pgn-arbiter: cannot read the duplicates table back from disk: {err}; later duplicates of earlier games may go unreported"
                        );
                        self.trouble = Some(err.to_string());
                    }
                }
            }
        }
        if self.sorted.is_empty() {
            return None;
        }
        let b = self.bucket(key);
        let (from, to) = (self.dir[b] as usize, self.dir[b + 1] as usize);
        self.sorted[from..to]
            .iter()
            .find(|r| r.key() == *key)
            .map(Record::seen)
    }

    /// Sorts the tail into the array, in place from the back, and builds
    /// the directory again.
    fn merge(&mut self) {
        self.tail.sort_unstable_by_key(Record::key);
        let (n, m) = (self.sorted.len(), self.tail.len());
        self.sorted.reserve_exact(m);
        self.sorted.resize(n + m, Record::default());
        let (mut i, mut j, mut k) = (n, m, n + m);
        while j > 0 {
            if i > 0 && self.sorted[i - 1].key() > self.tail[j - 1].key() {
                self.sorted[k - 1] = self.sorted[i - 1];
                i -= 1;
            } else {
                self.sorted[k - 1] = self.tail[j - 1];
                j -= 1;
            }
            k -= 1;
        }
        self.tail.clear();
        // About eight records a directory entry.
        let len = self.sorted.len();
        self.bits = (usize::BITS - (len / 8).leading_zeros()).min(32);
        let buckets = 1usize << self.bits;
        self.dir.clear();
        self.dir.reserve_exact(buckets + 1);
        let mut at = 0;
        for b in 0..buckets {
            while at < len && ((self.sorted[at].0[0] as u64) >> (32 - self.bits)) < b as u64 {
                at += 1;
            }
            self.dir.push(at as u32);
        }
        self.dir.push(len as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fingerprint from a counter, spread as a hash spreads it.
    fn fp(n: u64) -> u128 {
        let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
        x ^= x >> 31;
        let y = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (u128::from(x) << 64) | u128::from(y ^ (y >> 29))
    }

    #[test]
    fn the_tail_index_tells_apart_keys_that_share_a_home_and_bits() {
        // Every key's probe starts at the last slot and wraps around; half
        // share their second word too, and differ only in their first.
        let keys: Vec<[u32; 3]> = (0..40u32)
            .map(|i| [i, if i % 2 == 0 { 7 } else { i }, !SEEN_BITS])
            .collect();
        let mut index = TailIndex::default();
        let mut tail = Vec::new();
        for (at, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key, &tail), None);
            tail.push(Record::new(
                *key,
                Seen {
                    ordinal: at as u64,
                    labels: 0,
                    full: [0, 0],
                },
            ));
            // Room for 8 only: the index grows on its own past that.
            index.insert(key, at, &tail, 8);
        }
        assert!(index.slots.len() * 3 >= keys.len() * 4);
        for (at, key) in keys.iter().enumerate() {
            assert_eq!(index.find(key, &tail), Some(at));
        }
        assert_eq!(index.find(&[99, 7, !SEEN_BITS], &tail), None);
        assert_eq!(index.find(&[0, 7, 0], &tail), None);
    }

    #[test]
    fn a_record_keeps_its_key_and_all_it_saw() {
        for (key, seen) in [
            ([1, 2, 3 << 8], (0, [0, 0], 0)),
            ([!0, !0, !SEEN_BITS], ((1 << 36) - 1, [63, 63], 0xFF_FFFF)),
            ([5, 0, 1 << 8], (0x9_8765_4321, [1, 62], 0xAB_CDEF)),
        ] {
            let (ordinal, full, labels) = seen;
            let seen = Seen {
                ordinal,
                full,
                labels,
            };
            let record = Record::new(key, seen);
            assert_eq!((record.key(), record.seen()), (key, seen));
        }
    }

    #[test]
    fn every_fingerprint_is_found_again_from_disk() {
        // A limit of one byte: each merge writes a run.
        let mut table = Fingerprints::with_limit(1);
        let n = 3 * MIN_TAIL as u64 + 5;
        for i in 0..n {
            let seen = Seen {
                ordinal: i,
                labels: (i as u32 * 7) & 0xFF_FFFF,
                full: [(i % 4) as u8, (i % 64) as u8],
            };
            assert_eq!(table.first_or_keep(fp(i), seen), None, "{i}");
        }
        assert_eq!(table.runs(), 3);
        assert!(table.sorted.is_empty());
        for i in (0..n).step_by(3) {
            let first = table.first_or_keep(
                fp(i),
                Seen {
                    ordinal: 0,
                    labels: 0,
                    full: [0, 0],
                },
            );
            assert_eq!(
                first,
                Some(Seen {
                    ordinal: i,
                    labels: (i as u32 * 7) & 0xFF_FFFF,
                    full: [(i % 4) as u8, (i % 64) as u8],
                })
            );
        }
        // Fingerprints never seen are not found on disk either.
        for i in n..n + 1000 {
            assert_eq!(
                table.first_or_keep(
                    fp(i),
                    Seen {
                        ordinal: i,
                        labels: 0,
                        full: [0, 0],
                    }
                ),
                None
            );
        }
        assert!(table.trouble.is_none());
    }

    #[test]
    fn every_fingerprint_is_found_again_across_merges() {
        let mut table = Fingerprints::default();
        let n = 3 * MIN_TAIL as u64 + 17;
        for i in 0..n {
            let seen = Seen {
                ordinal: i + ((1 << 36) - n),
                labels: (i as u32) & 0xFF_FFFF,
                full: [(i % 64) as u8, (i % 3) as u8],
            };
            assert_eq!(table.first_or_keep(fp(i), seen), None, "{i}");
        }
        assert_eq!((table.sorted.len() + table.tail.len()) as u64, n);
        assert!(table.sorted.len() >= 3 * MIN_TAIL);
        for i in (0..n).step_by(7) {
            let again = Seen {
                ordinal: 0,
                labels: 0,
                full: [0, 0],
            };
            let first = table.first_or_keep(fp(i), again).unwrap();
            assert_eq!(first.ordinal, i + ((1 << 36) - n));
            assert_eq!(first.labels, (i as u32) & 0xFF_FFFF);
            assert_eq!(first.full, [(i % 64) as u8, (i % 3) as u8]);
        }
        assert_eq!((table.sorted.len() + table.tail.len()) as u64, n);
        // Sorted, and each record where the directory says.
        assert!(table.sorted.windows(2).all(|w| w[0].key() < w[1].key()));
        for (at, r) in table.sorted.iter().enumerate() {
            let b = (r.0[0] >> (32 - table.bits)) as usize;
            assert!((table.dir[b] as usize..table.dir[b + 1] as usize).contains(&at));
        }
    }
}
