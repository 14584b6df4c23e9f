//! The speed floor pgn-arbiter is measured against: pgn-reader plus shakmaty
//! replaying every mainline move of every game (FEN starts and Chess960
//! included), with no checks, on one thread. Prints games and plies.
//!
//! `cargo run --release --example bare_replay -- FILE...` (plain PGN).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{fs::File, io, ops::ControlFlow};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

struct Replay {
    games: u64,
    plies: u64,
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
        ControlFlow::Continue(Some(tags.unwrap_or_default()))
    }

    fn san(&mut self, pos: &mut Option<Chess>, san_plus: SanPlus) -> ControlFlow<()> {
        if let Some(p) = pos {
            match san_plus.san.to_move(p) {
                Ok(m) => {
                    p.play_unchecked(m);
                    self.plies += 1;
                }
                Err(_) => *pos = None,
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _pos: Option<Chess>) {}
}

fn main() -> io::Result<()> {
    let mut replay = Replay { games: 0, plies: 0 };
    for path in std::env::args().skip(1) {
        let mut reader = Reader::new(File::open(&path)?);
        while reader.read_game(&mut replay).transpose().is_some() {}
    }
    println!("{} games, {} plies", replay.games, replay.plies);
    Ok(())
}
