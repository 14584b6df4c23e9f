//! The tests of `kept`.

use super::*;
use crate::read::tags::Tag;

#[test]
fn a_game_comes_back_as_it_was_kept() {
    let pgn = b"[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {pgn-arbiter: ignore duplicate-game nonsense} 0-1\n";
    let game = crate::testing::checked(pgn);
    assert!(!game.findings.is_empty());
    assert!(!game.suppressions.is_empty());
    let back = Game::of(&game).result().unwrap();
    assert_eq!(back.findings, game.findings);
    assert_eq!(back.suppressions, game.suppressions);
    assert_eq!(back.fingerprint, game.fingerprint);
    assert_eq!(back.folded, game.folded);
    assert!(game.folded[0].is_some());
    assert_eq!(back.verdict.expected, game.verdict.expected);
    assert_eq!(back.verdict.board_end, game.verdict.board_end);
    assert_eq!(back.verdict.how_ended, game.verdict.how_ended);
    assert_eq!(back.verdict.plies, game.verdict.plies);
    assert_eq!(back.line, game.line);
    assert_eq!(back.tag(Tag::White), "A");
    assert_eq!(back.tag(Tag::Result), "1-0");
}

/// A clock finding keeps the clocks the page shows beside its moves.
#[test]
fn a_clock_finding_comes_back_with_its_clocks() {
    let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[TimeControl \"60+0\"]\n\n1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:00]} 2. Nf3 {[%clk 0:00:58]} Nc6 {[%clk 0:00:59]} 3. Bc4 {[%clk 0:00:57]} Nf6 {[%clk 0:01:30]} *\n";
    let game = crate::testing::checked(pgn);
    let rises = game
        .findings
        .iter()
        .find(|f| f.kind == crate::finding::Kind::ClockDrift)
        .expect("Black's clock rises");
    let strip = rises.clocks.as_deref().expect("its clocks");
    assert_eq!(
        strip
            .rows
            .iter()
            .map(|r| (r.mv.as_str(), r.clock.as_str(), r.marked))
            .collect::<Vec<_>>(),
        [
            ("2...Nc6", "0:00:59", true),
            ("3.Bc4", "0:00:57", false),
            ("3...Nf6", "0:01:30", true)
        ]
    );
    let back = Game::of(&game).result().unwrap();
    assert_eq!(back.findings, game.findings);
}

/// A results file of two games, as bytes.
fn two_games(version: &str) -> Vec<u8> {
    let game = crate::testing::checked(b"[White \"A\"]\n\n1. e4 *\n");
    let mut out = Vec::new();
    {
        let mut records = Records::new(&mut out, Form::Results).unwrap();
        records
            .put(&Header {
                version: version.to_owned(),
                input: "x.pgn".to_owned(),
                edition: "fide-2000".to_owned(),
                duplicates: true,
            })
            .unwrap();
        records.records += 1;
        for _ in 0..2 {
            records.put(&Game::of(&game)).unwrap();
            records.records += 1;
        }
        records.finish().unwrap();
    }
    out
}

/// Every game of a file, or why it is refused.
fn read_all(path: &Path) -> Result<u64, String> {
    let (mut reader, _) = Reader::results(path, "v1")?;
    let mut games = 0;
    while reader.next_game()?.is_some() {
        games += 1;
    }
    Ok(games)
}

#[test]
fn files_are_read_back_and_others_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r");
    let game = crate::testing::checked(b"[White \"A\"]\n\n1. e4 *\n");
    let file = File::create(&path).unwrap();
    let mut out =
        ResultsWriter::new(Box::new(file), "v1", "x.pgn", Edition::Fide2000, true).unwrap();
    out.game(&game).unwrap();
    out.game(&game).unwrap();
    out.finish(true).unwrap();
    assert!(
        std::fs::read(&path)
            .unwrap()
            .starts_with(b"pgn-arbiter results 3\n")
    );
    let (mut reader, header) = Reader::results(&path, "v1").unwrap();
    assert_eq!(
        (header.input.as_str(), header.edition.as_str()),
        ("x.pgn", "fide-2000")
    );
    assert_eq!(reader.games(), 2);
    assert!(reader.whole());
    assert_eq!(reader.next_game().unwrap().unwrap().tag(Tag::White), "A");
    assert!(reader.next_game().unwrap().is_some());
    assert!(reader.next_game().unwrap().is_none());
    let err = Reader::results(&path, "v2").err().unwrap();
    assert!(err.contains("written by pgn-arbiter v1"), "{err}");
    let err = Reader::across(&path, "v1", [0; 32], 0).err().unwrap();
    assert!(err.contains("not an across file"), "{err}");
    assert!(may_replace(&path, true).is_ok());
    assert!(may_replace(&path, false).is_err());
    // An across file is of the results it was made for, numbered as
    // it was made.
    let (reader, _) = Reader::results(&path, "v1").unwrap();
    let across = dir.path().join("a");
    let file = File::create(&across).unwrap();
    Records::across(file, "v1", reader.digest(), 7)
        .unwrap()
        .finish()
        .unwrap();
    assert!(Reader::across(&across, "v1", reader.digest(), 7).is_ok());
    let err = Reader::across(&across, "v1", [1; 32], 7).err().unwrap();
    assert!(err.contains("made for another results file"), "{err}");
    let err = Reader::across(&across, "v1", reader.digest(), 0)
        .err()
        .unwrap();
    assert!(
        err.contains("numbers its games from 8, and this rendering from 1"),
        "{err}"
    );
    // Only a file that begins as one of the kind is replaced: not an
    // empty one, nor notes that begin with the words.
    for (bytes, ok) in [
        (&b""[..], false),
        (b"pgn-arbiter results of Monday\n", false),
        (b"pgn-arbiter results 2\n\x28\xb5", true),
    ] {
        std::fs::write(&across, bytes).unwrap();
        assert_eq!(may_replace(&across, true).is_ok(), ok, "{bytes:?}");
    }
}

/// A record's lists are bounded as they are read: a record of a few
/// KiB of one-letter codes made hundreds of megabytes of them.
#[test]
fn a_records_lists_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r");
    let mut game = crate::testing::checked(b"[White \"A\"]\n\n1. e4 *\n");
    let codes = |n: usize| (0..n).map(|i| (1, format!("c{i}"))).collect::<Vec<_>>();
    for (n, ok) in [(MAX_NAMED, true), (MAX_NAMED + 1, false)] {
        game.suppressions = Suppressions::from_named(codes(n), 0);
        let file = File::create(&path).unwrap();
        let mut out =
            ResultsWriter::new(Box::new(file), "v1", "x.pgn", Edition::Fide2000, true).unwrap();
        out.game(&game).unwrap();
        out.finish(true).unwrap();
        let read = read_all(&path);
        assert_eq!(read.is_ok(), ok, "{n}: {read:?}");
        if let Err(err) = read {
            assert!(err.contains("a damaged record"), "{err}");
        }
    }
}

/// Results of an input read only in part say so in their seal, and
/// the mark is proved as the rest is.
#[test]
fn results_of_an_input_read_in_part_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r");
    let game = crate::testing::checked(b"[White \"A\"]\n\n1. e4 *\n");
    for whole in [true, false] {
        let file = File::create(&path).unwrap();
        let mut out =
            ResultsWriter::new(Box::new(file), "v1", "x.pgn", Edition::Fide2000, true).unwrap();
        out.game(&game).unwrap();
        out.finish(whole).unwrap();
        let (reader, _) = Reader::results(&path, "v1").unwrap();
        assert_eq!(reader.whole(), whole);
    }
    // The cut file marked whole: refused.
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - SEAL_BYTES;
    bytes[at..at + 8].copy_from_slice(SEAL_MARK);
    std::fs::write(&path, bytes).unwrap();
    assert!(Reader::results(&path, "v1").is_err());
}

/// A file of an older form is refused as such, not read wrong.
#[test]
fn a_file_of_another_form_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old");
    // A form to come, and form 2 as builds before 0.6.0 wrote it: a
    // zstd stream whose first record names it.
    let mut bytes = b"pgn-arbiter results 4\n".to_vec();
    bytes.extend_from_slice(&two_games("v1")[RESULTS.len()..]);
    std::fs::write(&path, &bytes).unwrap();
    let err = Reader::results(&path, "v1").err().unwrap();
    assert!(
        err.contains("another form ('pgn-arbiter results 4')"),
        "{err}"
    );
    assert!(may_replace(&path, true).is_ok());
    for (kind, results) in [
        ("pgn-arbiter results 2", true),
        ("pgn-arbiter across 2", false),
    ] {
        let record = postcard::to_stdvec(&(kind, "0.5.0 (abc 2026-12-05)")).unwrap();
        let mut old = u32::try_from(record.len()).unwrap().to_le_bytes().to_vec();
        old.extend_from_slice(&record);
        std::fs::write(&path, zstd::encode_all(&old[..], 1).unwrap()).unwrap();
        assert!(may_replace(&path, results).is_ok(), "{kind}");
        assert!(may_replace(&path, !results).is_err(), "{kind}");
        let err = match results {
            true => Reader::results(&path, "v1").err().unwrap(),
            false => Reader::across(&path, "v1", [0; 32], 0).err().unwrap(),
        };
        assert!(err.contains("kept by an older build"), "{kind}: {err}");
    }
    // Another zstd file is none of the tool's.
    std::fs::write(&path, zstd::encode_all(&b"x"[..], 1).unwrap()).unwrap();
    let err = Reader::results(&path, "v1").err().unwrap();
    assert!(err.contains("not a results file"), "{err}");
    assert!(may_replace(&path, true).is_err());
}

/// Any one byte changed, the file cut short at any length or added
/// to: refused before a game is read.
#[test]
fn a_file_changed_anywhere_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r");
    let whole = two_games("v1");
    std::fs::write(&path, &whole).unwrap();
    assert_eq!(read_all(&path), Ok(2));
    for at in 0..whole.len() {
        for flip in [0x01u8, 0x80] {
            let mut bytes = whole.clone();
            bytes[at] ^= flip;
            std::fs::write(&path, &bytes).unwrap();
            assert!(
                Reader::results(&path, "v1").is_err(),
                "byte {at} ^ {flip:#x} was not seen"
            );
        }
    }
    for len in 0..whole.len() {
        std::fs::write(&path, &whole[..len]).unwrap();
        assert!(Reader::results(&path, "v1").is_err(), "cut at {len}");
    }
    let mut longer = whole.clone();
    longer.push(b'\n');
    std::fs::write(&path, &longer).unwrap();
    assert!(Reader::results(&path, "v1").is_err());
}

/// A sealed file whose records are not those its seal counts, or
/// whose record says a length past the bound, is refused, and nothing
/// is allocated for that length.
#[test]
fn records_are_counted_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r");
    let seal = |extra: u64, raw: &[u8]| {
        let mut out = Vec::new();
        {
            let mut records = Records::new(&mut out, Form::Results).unwrap();
            records
                .put(&Header {
                    version: "v1".to_owned(),
                    input: String::new(),
                    edition: String::new(),
                    duplicates: true,
                })
                .unwrap();
            records.records += 1 + extra;
            records.out.write_all(raw).unwrap();
            records.finish().unwrap();
        }
        std::fs::write(&path, out).unwrap();
        read_all(&path)
    };
    assert_eq!(seal(0, b""), Ok(0));
    let err = seal(1, b"").unwrap_err();
    assert!(err.contains("0 records where its seal counts 1"), "{err}");
    let err = seal(1, &u32::MAX.to_le_bytes()).unwrap_err();
    assert!(err.contains("a record of 4294967295 bytes"), "{err}");
    let err = seal(0, &[1, 0, 0, 0, 0]).unwrap_err();
    assert!(err.contains("more records than the 0"), "{err}");
    let err = seal(1, &[9, 0]).unwrap_err();
    assert!(err.contains("cut short within a record"), "{err}");
}
