//! Criterion throughput of the hot paths on a few MB of real games
//! (`benches/data/mixed.pgn.zst`: Carlsen's games, a lichess export with
//! clocks, a TWIC issue): reading games only (lexer), reading and replaying,
//! and the whole check of a block.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_arbiter::{
    board::replay,
    checks::draws::history::History,
    read::blocks::Block,
    read::lexer::{self, Lexed},
    read::tags::Tags,
    run::pipeline::Worker,
};
use shakmaty::Chess;

fn data() -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/mixed.pgn.zst");
    zstd::decode_all(std::fs::File::open(path).expect("bench data")).expect("zstd")
}

/// Walks every game with the lexer; with `replay`, also plays its moves.
fn walk(
    bytes: &[u8],
    lexed: &mut Lexed,
    tags: &mut Tags,
    history: &mut History,
    replay_moves: bool,
) -> usize {
    let mut pos = 0;
    let mut plies = 0;
    loop {
        let (start, _) = lexer::skip_blanks(bytes, pos);
        let Some(rest) = bytes.get(start..).filter(|r| !r.is_empty()) else {
            return plies;
        };
        let end = lexed.scan(rest, 1, tags).max(1);
        plies += if replay_moves {
            replay::replay(&Chess::default(), &lexed.sans, history, false).plies
        } else {
            lexed.sans.len()
        };
        pos = start + end;
    }
}

fn throughput(c: &mut Criterion) {
    let bytes = data();
    let mut group = c.benchmark_group("mixed");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    let mut lexed = Lexed::default();
    let mut tags = Tags::default();
    let mut history = History::default();
    group.bench_function("parse", |b| {
        b.iter(|| {
            walk(
                black_box(&bytes),
                &mut lexed,
                &mut tags,
                &mut history,
                false,
            )
        })
    });
    group.bench_function("parse+replay", |b| {
        b.iter(|| walk(black_box(&bytes), &mut lexed, &mut tags, &mut history, true))
    });
    let block = Block {
        input: 0,
        bytes: bytes.clone().into(),
        guessed: false,
        seq: 0,
        first_line: 1,
        after_tag_break: false,
    };
    let mut worker = Worker::new(Default::default(), true);
    group.bench_function("all-checks", |b| {
        b.iter(|| worker.check_block(black_box(&block)).len())
    });
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
