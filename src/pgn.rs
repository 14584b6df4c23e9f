//! The only module that knows pgn-reader. It decides where games begin and
//! end (so the input can be cut into blocks of whole games that workers
//! check independently) and reads each game's tag pairs.
//!
//! Movetext is located by `lexer`, which follows pgn-reader's rules; the
//! tests below hold the two together on real files.

use std::{
    io::{self, Cursor, Seek},
    ops::ControlFlow,
};

use pgn_reader::{RawTag, Reader, Visitor};

use crate::game::Tags;

/// Skips whole games: used to find where games start.
struct SkipGames;

impl Visitor for SkipGames {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Break(())
    }

    fn begin_movetext(&mut self, _tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Break(())
    }

    fn end_game(&mut self, _movetext: Self::Movetext) -> Self::Output {}
}

/// The offset where the last game that starts in `chunk` begins, or 0 when
/// only one game (or none) starts in it. Everything before that offset is
/// whole games, exactly as pgn-reader would read them from the full input.
/// A game that starts with a tag is preferred, so that movetext continued
/// after a blank line stays with its game (see `pipeline::Worker`).
pub fn last_game_start(chunk: &[u8]) -> usize {
    let mut reader = Reader::new(Cursor::new(chunk));
    let mut last: Option<usize> = None;
    let mut last_tagged = 0;
    loop {
        match reader.has_more() {
            Ok(true) => {}
            Ok(false) => break,
            // A tag pgn-reader cannot finish; it has moved past it, and the
            // workers will read it the same way.
            Err(_) => continue,
        }
        let Ok(pos) = reader.stream_position() else {
            break;
        };
        let pos = usize::try_from(pos).unwrap_or(chunk.len());
        if last.is_some_and(|last| pos <= last) {
            break; // No progress: never loop forever.
        }
        last = Some(pos);
        if chunk.get(pos) == Some(&b'[') {
            last_tagged = pos;
        }
        let _ = reader.read_game(&mut SkipGames);
    }
    if last_tagged > 0 {
        last_tagged
    } else {
        last.unwrap_or(0)
    }
}

/// Collects the tag pairs of a game; skips the movetext (the lexer reads it).
struct CollectTags<'t> {
    tags: &'t mut Tags,
}

impl Visitor for CollectTags<'_> {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.tags.clear();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        self.tags.push(name, &value.decode());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Break(())
    }

    fn end_game(&mut self, _movetext: Self::Movetext) -> Self::Output {}
}

/// One game of a block: where its bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSpan {
    /// Offset of the first byte of the game within the block.
    pub start: usize,
    /// Offset where the next game starts (or the block ends).
    pub end: usize,
}

/// Reads the games of a block of whole games, one at a time.
pub struct BlockGames<'a> {
    reader: Reader<Cursor<&'a [u8]>>,
    len: usize,
    /// Start of the game found by the previous call, not yet returned.
    pending: Option<usize>,
    started: bool,
}

impl<'a> BlockGames<'a> {
    /// Starts reading a block.
    pub fn new(block: &'a [u8]) -> BlockGames<'a> {
        BlockGames {
            reader: Reader::new(Cursor::new(block)),
            len: block.len(),
            pending: None,
            started: false,
        }
    }

    /// The start of the next game, if there is one.
    fn next_start(&mut self) -> io::Result<Option<usize>> {
        if !self.reader.has_more()? {
            return Ok(None);
        }
        let pos = self.reader.stream_position()?;
        Ok(Some(usize::try_from(pos).unwrap_or(self.len).min(self.len)))
    }

    /// Reads the next game's tags into `tags` and returns where the game is.
    pub fn next_game(&mut self, tags: &mut Tags) -> Option<GameSpan> {
        let start = match self.pending.take() {
            Some(start) => start,
            None if !self.started => {
                self.started = true;
                self.next_start().ok().flatten()?
            }
            None => return None,
        };
        // An unterminated tag makes pgn-reader fail the game; the tags read
        // so far are kept, and the lexer reports the line.
        let _ = self.reader.read_game(&mut CollectTags { tags });
        let next = self.next_start().ok().flatten();
        let end = next.unwrap_or(self.len).max(start);
        self.pending = next.filter(|&n| n > start);
        Some(GameSpan { start, end })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::Lexed;
    use pgn_reader::SanPlus;
    use shakmaty::Outcome;

    type Pairs = Vec<(String, String)>;

    fn spans(block: &[u8]) -> Vec<(usize, usize, Pairs)> {
        let mut games = BlockGames::new(block);
        let mut tags = Tags::default();
        let mut out = Vec::new();
        while let Some(span) = games.next_game(&mut tags) {
            let pairs = tags
                .iter()
                .map(|(_, n, v)| {
                    (
                        String::from_utf8_lossy(n).into_owned(),
                        String::from_utf8_lossy(v).into_owned(),
                    )
                })
                .collect();
            out.push((span.start, span.end, pairs));
        }
        out
    }

    #[test]
    fn splits_games_at_blank_lines_and_tags() {
        let pgn = b"[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n1. d4 *\n[Event \"C\"]\n";
        let games = spans(pgn);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].0, 0);
        assert_eq!(games[1].0, 22);
        assert_eq!(games[1].2, vec![("Event".into(), "B".into())]);
        assert_eq!(games[2].2, vec![("Event".into(), "C".into())]);
        assert_eq!(games[2].1, pgn.len());
    }

    #[test]
    fn last_game_start_cuts_before_the_last_game() {
        let pgn = b"[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. d4";
        assert_eq!(last_game_start(pgn), 22);
        assert_eq!(last_game_start(b"[Event \"A\"]\n\n1. e4"), 0);
        assert_eq!(last_game_start(b""), 0);
    }

    #[test]
    fn empty_and_blank_blocks_have_no_games() {
        assert!(spans(b"").is_empty());
        assert!(spans(b"\n\n  \r\n").is_empty());
    }

    /// What pgn-reader itself reports for the mainline of a game.
    #[derive(Default)]
    struct Mainline {
        tags: usize,
        sans: Vec<SanPlus>,
        outcomes: Vec<Outcome>,
    }

    impl Visitor for Mainline {
        type Tags = ();
        type Movetext = ();
        type Output = ();
        fn begin_tags(&mut self) -> ControlFlow<(), ()> {
            *self = Mainline::default();
            ControlFlow::Continue(())
        }
        fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<()> {
            self.tags += 1;
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
            ControlFlow::Continue(())
        }
        fn san(&mut self, _: &mut (), san: SanPlus) -> ControlFlow<()> {
            self.sans.push(san);
            ControlFlow::Continue(())
        }
        fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<()> {
            self.outcomes.push(outcome);
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, _: ()) {}
    }

    /// The lexer must see the tags, moves and result pgn-reader sees: up to
    /// the first token pgn-reader skips, the same moves in the same order.
    fn assert_lexer_agrees(name: &str, block: &[u8]) -> usize {
        let mut games = BlockGames::new(block);
        let mut tags = Tags::default();
        let mut lexed = Lexed::default();
        let mut count = 0;
        while let Some(span) = games.next_game(&mut tags) {
            count += 1;
            let bytes = &block[span.start..span.end];
            lexed.scan(bytes, 1);
            let mut reader = Reader::new(Cursor::new(bytes));
            let mut mainline = Mainline::default();
            let _ = reader.read_game(&mut mainline);
            if lexed.tag_break.is_some() {
                // Header-only games that pgn-reader reads as one: the lexer
                // stops at the next header; it must have seen only tags.
                assert!(lexed.tag_lines.len() < mainline.tags, "{name} game {count}");
                assert!(mainline.sans.is_empty(), "{name} game {count}");
                continue;
            }
            assert_eq!(
                lexed.tag_lines.len(),
                mainline.tags,
                "{name} game {count}: tag count"
            );
            let ours: Vec<SanPlus> = lexed.sans.iter().map(|t| t.san).collect();
            if lexed.stop.is_none() {
                assert_eq!(ours, mainline.sans, "{name} game {count}: moves");
                assert_eq!(
                    lexed.marker.map(|m| m.outcome),
                    mainline.outcomes.first().copied(),
                    "{name} game {count}: result"
                );
            } else {
                assert!(
                    mainline.sans.starts_with(&ours),
                    "{name} game {count}: moves before the stop"
                );
            }
        }
        count
    }

    #[test]
    fn lexer_agrees_with_pgn_reader_on_tricky_movetext() {
        let cases: &[&[u8]] = &[
            b"1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5)) 2... Nc6 {a (comment} 3. Bb5 $1 !? a6 1-0",
            b"1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 0-0 5.d3 0-0-0 1/2-1/2",
            b"1. e4 ; rest of line\n% escaped line\ne5 *",
            b"1. e4 e4e5 Nf3 *",
            b"1. e4 Qxe9 Nf3 *",
            b"1. e4 e5 1/2 *",
            b"1. e4 e5 \xc2\xbd-\xc2\xbd",
            b"1. e4 e5 2. exd6 e.p. *",
            b"1. e4 $999 e5 *",
            b"1. e4 e5 ) 2. Nf3 *",
            b"[Event \"x\"]\n[Bad tag]\n[Site \"y\n1. e4 *",
            b"1. e4 {unterminated",
        ];
        for (i, case) in cases.iter().enumerate() {
            assert_lexer_agrees(&format!("case {i}"), case);
        }
    }

    #[test]
    fn lexer_agrees_with_pgn_reader_on_the_shared_corpora() {
        let root = crate::testing::corpora();
        let mut games = 0;
        for path in crate::testing::plain_pgn_files(&root) {
            let bytes = std::fs::read(&path).unwrap();
            games += assert_lexer_agrees(&path.display().to_string(), &bytes);
        }
        assert!(games > 10_000, "only {games} games checked");
    }
}
