//! The only module that knows pgn-reader: it decodes tag values.
//!
//! Inside a block, `lexer` reads each game by pgn-reader's rules, because
//! pgn-reader cannot say where a tag or move is nor what it skipped. The
//! tests below hold the lexer to pgn-reader on every shared corpus game:
//! the same tags with the same values, the same moves, the same result.

use std::borrow::Cow;

use pgn_reader::RawTag;

/// A tag value with pgn-reader's escapes (`\\"`, `\\\\`) decoded.
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    RawTag(raw).decode()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{read::lexer::Lexed, read::tags::Tags};
    use pgn_reader::{Reader, SanPlus, Visitor};
    use shakmaty::Outcome;
    use std::{
        io::{Cursor, Seek},
        ops::ControlFlow,
    };

    #[test]
    fn unescapes_quotes_and_backslashes() {
        assert_eq!(&*unescape(br#"a \"b\" \\ c"#), br#"a "b" \ c"#);
    }

    /// What pgn-reader itself reports for one game.
    #[derive(Default)]
    struct Mainline {
        tags: Vec<(Vec<u8>, Vec<u8>)>,
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
        fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
            // The lexer reads a name with white space around it as the
            // name (PGN 8.1 import); pgn-reader keeps the white space.
            self.tags
                .push((name.trim_ascii().to_vec(), value.decode().into_owned()));
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

    /// pgn-reader's games of a file: where each starts and ends.
    fn reader_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
        let mut reader = Reader::new(Cursor::new(bytes));
        let mut starts = Vec::new();
        loop {
            match reader.has_more() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => continue,
            }
            starts.push(reader.stream_position().unwrap() as usize);
            let _ = reader.read_game(&mut Mainline::default());
        }
        let mut spans: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
        if let Some(&last) = starts.last() {
            spans.push((last, bytes.len()));
        }
        spans
    }

    /// On each game as pgn-reader delimits it, the lexer must see the tags,
    /// moves and result pgn-reader sees: up to the first token pgn-reader
    /// skips, the same moves in the same order.
    fn assert_lexer_agrees(name: &str, block: &[u8]) -> usize {
        let mut tags = Tags::default();
        let mut lexed = Lexed::default();
        let spans = reader_spans(block);
        for (count, &(start, end)) in spans.iter().enumerate() {
            let bytes = &block[start..end];
            lexed.scan(bytes, 1, &mut tags);
            let mut reader = Reader::new(Cursor::new(bytes));
            let mut mainline = Mainline::default();
            let _ = reader.read_game(&mut mainline);
            // Tag pairs split over lines are read by the lexer only.
            let split: Vec<usize> = lexed.split_tags.listed().iter().map(|t| t.2).collect();
            let ours: Vec<(Vec<u8>, Vec<u8>)> = tags
                .iter()
                .filter(|(i, _, _)| !split.contains(i))
                .map(|(_, n, v)| (n.to_vec(), v.to_vec()))
                .collect();
            if !lexed.quoted_tags.listed().is_empty() {
                // Quotes inside a value that are not escaped: pgn-reader
                // ends the value at the first, the lexer at the quote that
                // closes the tag (`lexer::inner_quoted_end`).
                continue;
            }
            if lexed.tag_break.is_some() {
                // Header-only games that pgn-reader reads as one: the lexer
                // stops at the next header, having seen only tags.
                assert!(mainline.tags.starts_with(&ours), "{name} game {count}");
                assert!(mainline.sans.is_empty(), "{name} game {count}");
                continue;
            }
            assert_eq!(ours, mainline.tags, "{name} game {count}: tags");
            assert_eq!(
                lexed.tag_lines.len(),
                ours.len() + split.len(),
                "{name} game {count}"
            );
            // Tokens pgn-reader skips but the lexer reads by a plain reading
            // (`o-o`, `e8Q`; not `0-0`, which pgn-reader reads too).
            let sans: Vec<SanPlus> = lexed
                .sans
                .iter()
                .filter(|t| t.form.is_none() || bytes.get(t.start) == Some(&b'0'))
                .map(|t| t.san)
                .collect();
            if lexed.stop.is_none() {
                assert_eq!(sans, mainline.sans, "{name} game {count}: moves");
                assert_eq!(
                    lexed.marker.map(|m| m.outcome),
                    mainline.outcomes.first().copied(),
                    "{name} game {count}: result"
                );
            } else {
                assert!(
                    mainline.sans.starts_with(&sans),
                    "{name} game {count}: moves before the stop"
                );
            }
        }
        spans.len()
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
            b"[Event \"a \\\"quoted\\\" \\\\ name\"]\n\n1. e4 *",
            b"1. e4 {unterminated",
            b"[Event \"x\"] [\n  ECO\n  \"B01\"\n]\n[Site \"y\"]\n\n1. e4 *",
        ];
        for (i, case) in cases.iter().enumerate() {
            assert_lexer_agrees(&format!("case {i}"), case);
        }
    }

    fn lexer_agrees_below(root: &std::path::Path) -> usize {
        let mut games = 0;
        for path in crate::testing::plain_pgn_files(root) {
            let bytes = std::fs::read(&path).unwrap();
            games += assert_lexer_agrees(&path.display().to_string(), &bytes);
        }
        games
    }

    #[test]
    fn lexer_agrees_with_pgn_reader_on_the_fixtures() {
        let games = lexer_agrees_below(&crate::testing::fixtures());
        assert!(games > 100, "only {games} games checked");
    }

    #[test]
    #[ignore = "reads ../shared/corpora; .ci/run runs it"]
    fn lexer_agrees_with_pgn_reader_on_the_shared_corpora() {
        let games = lexer_agrees_below(&crate::testing::corpora());
        assert!(games > 10_000, "only {games} games checked");
    }
}
