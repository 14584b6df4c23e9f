//! The lexer's tests: against shakmaty's SAN reader, the general loops
//! against the fast paths, skims against scans, and cuts.

use super::fast::read_san;
use super::*;
use crate::read::notation::Form;
use shakmaty::san::SanPlus;

fn lex(movetext: &str) -> Lexed {
    let mut lexed = Lexed::default();
    lexed.scan(movetext.as_bytes(), 1, &mut Tags::default());
    lexed
}

/// Scans `bytes` game by game with `lexed`, as a run reads an input,
/// telling `each` where each game ends (offset) and what it read.
fn each_game(bytes: &[u8], mut lexed: Lexed, mut each: impl FnMut(usize, &mut Lexed, &Tags)) {
    let mut tags = Tags::default();
    let (mut pos, mut line) = (0, 1);
    loop {
        let (start, lines) = skip_blanks(bytes, pos);
        line += lines;
        let Some(rest) = bytes.get(start..).filter(|r| !r.is_empty()) else {
            return;
        };
        pos = start + lexed.scan(rest, line, &mut tags).max(1);
        line = lexed.end_line;
        each(pos, &mut lexed, &tags);
    }
}

/// Game ends of `bytes` as a scan finds them, skimming or not.
fn game_ends(bytes: &[u8], skim: bool) -> Vec<(usize, u64)> {
    let mut ends = Vec::new();
    let lexed = Lexed {
        skim,
        ..Lexed::default()
    };
    each_game(bytes, lexed, |pos, lexed, _| {
        ends.push((pos, lexed.end_line))
    });
    ends
}

/// Skimming (cutting blocks, counting) ends games exactly where reading
/// them does, lines and all: on every fixture, and on edits of them.
/// The direct reading of common SAN gives what shakmaty's does: on
/// every string of up to four bytes over the bytes SAN is made of, and
/// on two million longer ones drawn from them.
#[test]
fn read_san_agrees_with_shakmaty() {
    let alphabet = b"NBRQKPOZxX-=@+#!?abdeh0123789 .";
    let same = |bytes: &[u8]| {
        assert_eq!(
            read_san(bytes).ok(),
            SanPlus::from_ascii_prefix(bytes).ok(),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    };
    let mut bytes = Vec::new();
    let mut tried = 0;
    for len in 0..=4u32 {
        for mut code in 0..alphabet.len().pow(len) {
            bytes.clear();
            for _ in 0..len {
                bytes.push(alphabet[code % alphabet.len()]);
                code /= alphabet.len();
            }
            same(&bytes);
            tried += 1;
        }
    }
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..2_000_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = 5 + (state % 6) as usize;
        bytes.clear();
        let mut pick = state;
        for _ in 0..len {
            pick = pick.rotate_left(11).wrapping_mul(0x2545_f491_4f6c_dd1d);
            bytes.push(alphabet[(pick >> 40) as usize % alphabet.len()]);
        }
        same(&bytes);
        tried += 1;
    }
    assert!(tried > 2_900_000);
}

/// A `}` outside a comment takes the token after it with it, in the skim
/// as in the scan (pgn-reader skips it and reads on to the token's end):
/// `}1-0` is no marker, and the game runs on to the next tag line.
#[test]
fn a_stray_brace_hides_the_marker_after_it_from_the_skim_too() {
    let bytes = b"[Event \"a\"]\n\n1. e4 e5 }1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
    let ends = game_ends(bytes, false);
    assert_eq!(game_ends(bytes, true), ends);
    // It ends where the next game's tags start, not at the blank line.
    assert_eq!(ends[0], (28, 5), "{ends:?}");
}

#[test]
fn skims_end_games_where_scans_do() {
    let files = crate::testing::plain_pgn_files(&crate::testing::fixtures());
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    let pieces: [&[u8]; 20] = [
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        b"*",
        b"\xc2\xbd-\xc2\xbd",
        b"$1",
        b"{",
        b"}",
        b"(",
        b")",
        b"\n",
        b"\n\n",
        b";",
        b"%",
        b"0-0",
        b"[",
        b" $1-0\n\n",
        b" 0-1\n\n",
        b" 26\xc2\xbd-\xc2\xbd\n\n",
        b" 1-x0-1\n\n",
    ];
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        assert_eq!(
            game_ends(&bytes, true),
            game_ends(&bytes, false),
            "{}",
            file.display()
        );
        for _ in 0..20 {
            let mut edited = bytes.clone();
            for _ in 0..4 {
                let at = next() % (edited.len() + 1);
                let piece = pieces[next() % pieces.len()];
                edited.splice(at..at, piece.iter().copied());
            }
            assert_eq!(
                game_ends(&edited, true),
                game_ends(&edited, false),
                "{}: {}",
                file.display(),
                String::from_utf8_lossy(&edited)
            );
        }
    }
}

/// Each game of `bytes` as a scan reads it (where it ends, its tags,
/// everything located), with the fast paths or by the general loops
/// alone.
fn games_read(bytes: &[u8], general_only: bool) -> Vec<String> {
    let mut games = Vec::new();
    let lexed = Lexed {
        general_only,
        ..Lexed::default()
    };
    each_game(bytes, lexed, |pos, lexed, tags| {
        // The switch itself is not what is compared.
        lexed.general_only = false;
        games.push(format!("{pos} {lexed:?} {tags:?}"));
        lexed.general_only = general_only;
    });
    games
}

#[test]
fn the_fast_paths_read_as_the_general_loops() {
    let files = crate::testing::plain_pgn_files(&crate::testing::fixtures());
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    let pieces: [&[u8]; 30] = [
        b"\"",
        b"\\",
        b"]",
        b"_",
        b"[Site \"x\"]\n",
        b"\n\n[Event \"?\"]\n",
        b"1",
        b"1.",
        b"12...",
        b"9",
        b" ",
        b"  ",
        b"\n",
        b"\r\n",
        b"\n%",
        b"\n[",
        b"e4",
        b"Nf3+",
        b"exd5#",
        b"e8=Q",
        b"Ng1f3",
        b"O-O",
        b"0-0",
        b"1-0",
        b"1/2",
        b"*",
        b"!",
        b".",
        b"x",
        b"\t",
    ];
    let mut games = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let read = games_read(&bytes, false);
        assert_eq!(read, games_read(&bytes, true), "{}", file.display());
        games += read.len();
        for _ in 0..20 {
            let mut edited = bytes.clone();
            for _ in 0..6 {
                let at = next() % (edited.len() + 1);
                let piece = pieces[next() % pieces.len()];
                edited.splice(at..at, piece.iter().copied());
            }
            assert_eq!(
                games_read(&edited, false),
                games_read(&edited, true),
                "{}: {}",
                file.display(),
                String::from_utf8_lossy(&edited)
            );
        }
    }
    assert!(games > 100, "only {games} games");
}

#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn the_fast_paths_read_as_the_general_loops_on_the_shared_corpora() {
    let mut games = 0;
    for file in crate::testing::plain_pgn_files(&crate::testing::corpora()) {
        let bytes = std::fs::read(&file).unwrap();
        let read = games_read(&bytes, false);
        assert_eq!(read, games_read(&bytes, true), "{}", file.display());
        games += read.len();
    }
    assert!(games > 10_000, "only {games} games");
}

#[test]
#[ignore = "reads ../shared/corpora; .ci/run runs it"]
fn skims_end_games_where_scans_do_on_the_shared_corpora() {
    let mut games = 0;
    for file in crate::testing::plain_pgn_files(&crate::testing::corpora()) {
        let bytes = std::fs::read(&file).unwrap();
        let ends = game_ends(&bytes, false);
        assert_eq!(game_ends(&bytes, true), ends, "{}", file.display());
        games += ends.len();
    }
    assert!(games > 10_000, "only {games} games");
}

#[test]
fn runs_of_header_only_games_are_cut_where_a_game_starts() {
    let run = b"[White \"a\"]\n\n[White \"b\"]\n\n[White \"c\"]\n\n[Wh";
    // The last whole line that starts a game is the third one; the
    // partial fourth is never a cut.
    assert_eq!(
        last_game_start(run),
        Cut {
            at: 26,
            after_tag_break: true
        }
    );
    assert_eq!(last_game_start(b"[White \"a\"]\n\n").at, 0);
    // After a game with movetext, the next game is a cut too, and the
    // one preferred to a game after a tag break.
    let mixed = b"[White \"a\"]\n\n1. e4 *\n\n[White \"b\"]\n\n[White \"c\"]\n";
    assert_eq!(
        last_game_start(mixed),
        Cut {
            at: 22,
            after_tag_break: false
        }
    );
    // Movetext continued after a blank line stays with its game.
    let pgn = b"[A \"1\"]\n1. e4\n\n[B \"2\"]\n1. d4\n\n2. c4\n";
    assert_eq!(last_game_start(pgn).at, 15);
    assert_eq!(last_game_start(b"").at, 0);
}

#[test]
fn a_tag_line_of_any_length_is_never_a_cut() {
    // pgn-reader gives up on a tag line over 255 bytes and reads on
    // from the next line as a new game; the lexer reads the tag.
    let long = "x".repeat(300);
    let pgn = format!(
        "[Event \"E\"]\n[Site \"S\"]\n[Annotator \"{long}\"]\n[White \"W\"]\n\n1. e4 *\n\n[Event"
    );
    assert_eq!(last_game_start(pgn.as_bytes()).at, pgn.len() - 6);
    // A game whose first line is not complete yet is a cut too, when
    // the game before ended with its marker: a game of one 3.9 MB tag
    // is read whole.
    let pgn = format!("*\n\n[Event \"{}", "x".repeat(1000));
    assert_eq!(last_game_start(pgn.as_bytes()).at, 3);
}

#[test]
fn quotes_inside_a_value_are_part_of_it() {
    let cases: &[(&str, &[&str], bool)] = &[
        (r#"[White ""Mephisto""]"#, &[r#""Mephisto""#], true),
        (
            r#"[Event "006.Torneo "Pribaltic""]"#,
            &[r#"006.Torneo "Pribaltic""#],
            true,
        ),
        (
            r#"[Annotator "Lopez "Battle Royale""]"#,
            &[r#"Lopez "Battle Royale""#],
            true,
        ),
        // Two tags on a line: each closes at its own quote.
        (
            r#"[White "a "b" c"] [Black "d"]"#,
            &[r#"a "b" c"#, "d"],
            true,
        ),
        // Escaped quotes are PGN's own, not inner quotes.
        (r#"[White "a \"b\""]"#, &[r#"a "b""#], false),
        // No quote closes the tag: the first quote ends the value.
        (r#"[White "a" b]"#, &["a"], false),
    ];
    for &(line, values, quoted) in cases {
        let mut tags = Tags::default();
        let mut lexed = Lexed::default();
        let text = format!("{line}\n\n1. e4 *\n");
        let end = lexed.scan(text.as_bytes(), 1, &mut tags);
        assert_eq!(end, text.len(), "{line}: one game");
        let read: Vec<&[u8]> = tags.iter().map(|(_, _, v)| v).collect();
        let want: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        assert_eq!(read, want, "{line}");
        assert_eq!(!lexed.quoted_tags.listed().is_empty(), quoted, "{line}");
        if quoted {
            assert_eq!(lexed.sans.len(), 1, "{line}");
            assert!(lexed.bad_tags.listed().is_empty(), "{line}");
        }
    }
}

#[test]
fn plain_readings_move_numbers_and_oddities() {
    let lexed = lex("1. e4 e5 2. o-o $256 7. Ng1-f3 ) ½-½");
    let forms: Vec<Option<Form>> = lexed.sans.iter().map(|t| t.form).collect();
    assert_eq!(
        forms,
        [None, None, Some(Form::Castling), Some(Form::Squares)]
    );
    let numbers: Vec<(usize, u32)> = lexed.numbers.iter().map(|&(i, n, _)| (i, n)).collect();
    assert_eq!(numbers, [(0, 1), (2, 2), (3, 7)]);
    let odd: Vec<Oddity> = lexed.odd.listed().iter().map(|o| o.what).collect();
    assert_eq!(
        odd,
        [
            Oddity::NagOutOfRange,
            Oddity::StrayParenthesis,
            Oddity::HalfSigns
        ]
    );
    assert!(lexed.stop.is_none());
    assert!(lexed.marker.is_some());
}

#[test]
fn an_unclosed_variation_and_an_en_passant_mark() {
    let lexed = lex("1. e4 d5 2. exd5 e.p. (2. e5 *");
    assert!(lexed.sans[2].ep_mark);
    assert_eq!(lexed.odd.listed()[0].what, Oddity::UnclosedVariation);
    assert!(lexed.marker.is_none());
}
