//! The tests of `blocks`.

use super::*;

/// Takes the pieces as the reader deals them to workers on other
/// threads (cut where a game start is guessed), every guess confirmed.
#[derive(Default)]
struct Confirming {
    pieces: Vec<Piece>,
    pending: VecDeque<u64>,
}

impl Confirming {
    /// Waits to confirm `block`'s end if it was guessed.
    fn expect(&mut self, block: &Block) {
        if block.guessed {
            self.pending.push_back(block.seq);
        }
    }
}

impl Pieces for Confirming {
    fn piece(&mut self, piece: Piece) -> bool {
        if let Piece::Block(block) = &piece {
            self.expect(block);
        }
        self.pieces.push(piece);
        true
    }

    fn guesses(&self) -> bool {
        true
    }

    fn confirmation(&mut self, _wait: bool) -> Confirmation {
        match self.pending.pop_front() {
            Some(seq) => Confirmation::On(seq, None),
            None => Confirmation::Pending,
        }
    }
}

/// `bytes` read as a one-file input, its pieces dealt to `dealt`.
fn deal_file(bytes: &[u8], dealt: &mut dyn Pieces) {
    let dir = tempfile::tempdir().unwrap();
    let inputs = crate::testing::file_input(dir.path(), bytes);
    read_inputs(&inputs, 0, &Tally::default(), dealt);
}

/// The blocks among `pieces`.
fn blocks(pieces: &[Piece]) -> impl Iterator<Item = &Block> {
    pieces.iter().filter_map(|p| match p {
        Piece::Block(b) => Some(b),
        _ => None,
    })
}

/// A block's own bytes (less the next game's `[` of a guess).
fn own(block: &Block) -> &[u8] {
    &block.bytes[..block.bytes.len() - usize::from(block.guessed)]
}

/// A file long enough is cut at guesses from its first block; a stream
/// of unknown length only after `GUESS_AFTER` blocks cut exactly.
#[test]
fn a_long_file_is_cut_at_guesses_from_its_start() {
    let (bytes, _) = crate::testing::short_games(GUESS_FROM_START as usize + BLOCK_BYTES);
    let guessed = |pieces: &[Piece]| -> Vec<bool> { blocks(pieces).map(|b| b.guessed).collect() };
    let mut dealt = Confirming::default();
    deal_file(&bytes, &mut dealt);
    let file = guessed(&dealt.pieces);
    assert!(file.len() > 8);
    assert!(file[..file.len() - 1].iter().all(|&g| g), "{file:?}");

    let mut streamed = Confirming::default();
    read_stream(&mut io::Cursor::new(&bytes), &mut streamed);
    let stream = guessed(&streamed.pieces);
    let exact = GUESS_AFTER as usize;
    assert!(stream[..exact].iter().all(|&g| !g), "{stream:?}");
    assert!(
        stream[exact..stream.len() - 1].iter().all(|&g| g),
        "{stream:?}"
    );
}

/// Takes the blocks' bytes as the workers would and lets go of each
/// block at once, so that the reader reuses its buffer for the next.
#[derive(Default)]
struct Copying {
    read: Vec<u8>,
    blocks: usize,
    confirming: Confirming,
}

impl Pieces for Copying {
    fn piece(&mut self, piece: Piece) -> bool {
        if let Piece::Block(block) = &piece {
            self.read.extend_from_slice(own(block));
            self.blocks += 1;
            self.confirming.expect(block);
        }
        true
    }

    fn guesses(&self) -> bool {
        true
    }

    fn confirmation(&mut self, wait: bool) -> Confirmation {
        self.confirming.confirmation(wait)
    }
}

/// A block's buffer that a worker still holds when the reader learns
/// the block is done with is kept, and reused once the worker lets go;
/// as many as `SPARE_BUFFERS` are kept.
#[test]
fn buffers_still_held_are_reused_once_let_go() {
    let mut empty = io::empty();
    let mut stream = Stream::new(0, &mut empty, 0, None, true);
    let held: Vec<Arc<Vec<u8>>> = (0..SPARE_BUFFERS + 1)
        .map(|i| Arc::new(vec![i as u8; 10]))
        .collect();
    for block in &held {
        stream.give_back(Some(Arc::clone(block)));
    }
    assert_eq!(stream.spare.len(), SPARE_BUFFERS);
    // Every worker still holds its block: a new buffer.
    assert_eq!(stream.spare_buffer().capacity(), 0);
    let mut held = held.into_iter();
    let first = held.next().unwrap();
    drop(first);
    // That one, with its bytes: the next chunk's room.
    assert_eq!(stream.spare_buffer(), vec![0; 10]);
    assert_eq!(stream.spare_buffer().capacity(), 0);
    drop(held);
    let mut kept: Vec<u8> = (0..SPARE_BUFFERS - 1)
        .map(|_| stream.spare_buffer()[0])
        .collect();
    kept.sort_unstable();
    assert_eq!(kept, (1..SPARE_BUFFERS as u8).collect::<Vec<_>>());
    assert!(stream.spare.is_empty());
}

/// Buffers given back by the workers hold the bytes of earlier blocks
/// past what is read into them: none of those bytes reaches a block.
#[test]
fn blocks_in_reused_buffers_hold_only_their_own_bytes() {
    let (bytes, _) = crate::testing::short_games(5 * BLOCK_BYTES);
    let mut dealt = Copying::default();
    deal_file(&bytes, &mut dealt);
    assert!(dealt.blocks > 8, "{} blocks", dealt.blocks);
    assert!(dealt.read == bytes, "the blocks are not the file");
}

/// A stream that gives a few bytes a read, and is interrupted once.
struct Trickle<'a> {
    bytes: &'a [u8],
    interrupted: bool,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.interrupted {
            self.interrupted = true;
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.bytes.len()).min(7);
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// A chunk reads until it has what it wants or the stream ends, in the
/// room its buffer already has, which is not zeroed again.
#[test]
fn a_chunk_reads_into_the_room_it_has() {
    let text: Vec<u8> = (0..100u8).collect();
    let mut chunk = Chunk::in_buffer(vec![0xAA; 64]);
    chunk.extend(b"xy");
    let mut stream = Trickle {
        bytes: &text,
        interrupted: false,
    };
    assert!(!chunk.fill(&mut stream, 30).unwrap());
    assert_eq!(chunk.bytes(), [b"xy".as_slice(), &text[..30]].concat());
    assert!(chunk.buf[32..64].iter().all(|&b| b == 0xAA));
    chunk.drain_front(2);
    assert_eq!(chunk.bytes(), &text[..30]);
    let block = chunk.split_off(10, 11, vec![0xBB; 8]);
    assert_eq!(block, &text[..11]);
    assert_eq!(chunk.bytes(), &text[10..30]);
    assert!(chunk.fill(&mut stream, 200).unwrap());
    assert_eq!(chunk.bytes(), &text[10..]);
}

/// Near the end of a file, blocks dealt to workers get smaller: each at
/// most a quarter of what is left (and `TAIL_BYTES` at least), so the
/// last ones are small; together they are the file, byte for byte.
#[test]
fn the_last_blocks_of_an_input_are_smaller() {
    let (bytes, _) = crate::testing::short_games(6 * BLOCK_BYTES);
    let mut dealt = Confirming::default();
    deal_file(&bytes, &mut dealt);
    let blocks: Vec<&[u8]> = blocks(&dealt.pieces).map(own).collect();
    assert_eq!(blocks.concat(), bytes);
    let mut left = bytes.len();
    for (n, block) in blocks.iter().enumerate() {
        if n > GUESS_AFTER as usize {
            let most = BLOCK_BYTES.min((left / 4).max(TAIL_BYTES));
            assert!(block.len() <= most, "block {n}: {} of {most}", block.len());
        }
        left -= block.len();
    }
    let last = &blocks[blocks.len() - 3..];
    assert!(
        last.iter().all(|b| b.len() <= 2 * TAIL_BYTES),
        "{:?}",
        last.iter().map(|b| b.len()).collect::<Vec<_>>()
    );
}
