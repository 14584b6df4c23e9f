//! The speed floor pgn-arbiter is measured against: pgn-reader plus shakmaty
//! replaying every mainline move of every game (FEN starts and Chess960
//! included), with no checks, on one thread. Prints games and plies.
//!
//! With `--hash`, also the Zobrist key of every position reached, kept for
//! the game as any repetition check needs them (shakmaty's own hash, with
//! en passant counted only when legal, as FIDE 9.2.3 counts it): the
//! cheapest replay that could find a repetition.
//!
//! `cargo run --release --example bare_replay -- [--hash] FILE...` (plain PGN).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{fs::File, io, ops::ControlFlow};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, fen::Fen, zobrist::Zobrist64};

struct Replay {
    games: u64,
    plies: u64,
    /// Keep the key of every position (`--hash`).
    hash: bool,
    /// The keys of the game's positions so far.
    keys: Vec<Zobrist64>,
    /// Every key folded, printed so that none is optimised away.
    folded: u64,
}

impl Replay {
    fn key(&mut self, pos: &Chess) {
        if self.hash {
            let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
            self.folded = self.folded.rotate_left(1) ^ key.0;
            self.keys.push(key);
        }
    }
}

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Option<Chess>;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            *tags = Fen::from_ascii(value.as_bytes()).ok().and_then(|fen| {
                let mode = CastlingMode::detect(fen.as_setup());
                fen.into_position(mode).ok()
            });
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), Option<Chess>> {
        self.games += 1;
        let start = tags.unwrap_or_default();
        self.keys.clear();
        self.key(&start);
        ControlFlow::Continue(Some(start))
    }

    fn san(&mut self, pos: &mut Option<Chess>, san_plus: SanPlus) -> ControlFlow<()> {
        if let Some(p) = pos {
            match san_plus.san.to_move(p) {
                Ok(m) => {
                    p.play_unchecked(m);
                    self.plies += 1;
                    self.key(p);
                }
                Err(_) => *pos = None,
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _pos: Option<Chess>) {}
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hash = args.iter().any(|a| a == "--hash");
    let mut replay = Replay {
        games: 0,
        plies: 0,
        hash,
        keys: Vec::new(),
        folded: 0,
    };
    for path in args.iter().filter(|a| *a != "--hash") {
        let mut reader = Reader::new(File::open(path)?);
        while reader.read_game(&mut replay).transpose().is_some() {}
    }
    if hash {
        println!(
            "{} games, {} plies, keys folded {:016x}",
            replay.games, replay.plies, replay.folded
        );
    } else {
        println!("{} games, {} plies", replay.games, replay.plies);
    }
    Ok(())
}
