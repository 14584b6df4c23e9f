//! The tests of `trf`.

use super::*;

fn line(rank: u16, name: &str, id: u64, points: &str, rounds: &[(u16, char, char)]) -> String {
    let mut s = format!(
        "001 {rank:>4}      {name:<33} 2000 GER {id:>11} 2000/01/01 {points:>4} {rank:>4}  "
    );
    for &(o, c, r) in rounds {
        s.push_str(&format!("{o:>4} {c} {r}  "));
    }
    s.trim_end().to_owned()
}

#[test]
fn a_consistent_tournament_has_no_problem() {
    let text = [
        "012 Test".to_owned(),
        line(1, "Alpha, A", 101, "1.5", &[(2, 'w', '1'), (3, 'b', '=')]),
        line(2, "Beta, B", 102, "1.0", &[(1, 'b', '0'), (0, '-', 'U')]),
        line(3, "Gamma, C", 103, "0.5", &[(0, '-', 'Z'), (1, 'w', '=')]),
    ]
    .join("\n");
    let t = read(&text);
    assert_eq!(t.problems, []);
    assert_eq!(t.rounds, 2);
    assert_eq!(t.players[0].name, "Alpha, A");
    assert_eq!(t.players[0].fide_id, Some(101));
    assert_eq!(
        t.players[1].rounds[1],
        Round {
            opponent: None,
            colour: None,
            outcome: Outcome::Bye(Score::Win),
            code: b'U',
        }
    );
}

/// Columns are characters, whatever the encoding: an accented name
/// shifts nothing after it (it used to shift every later field by a
/// byte: "FIDE ID 8603006 against 860300").
#[test]
fn columns_count_characters_in_utf8_and_latin1() {
    let text = [
        line(1, "Jüngling, Jörg", 8603006, "1.0", &[(2, 'w', '1')]),
        line(2, "Beta, B", 102, "0.0", &[(1, 'b', '0')]),
    ]
    .join("\n");
    let dir = tempfile::tempdir().unwrap();
    let utf8 = dir.path().join("utf8.trf");
    std::fs::write(&utf8, &text).unwrap();
    let latin1 = dir.path().join("latin1.trf");
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
    assert!(bytes.len() < text.len(), "two bytes fewer");
    std::fs::write(&latin1, &bytes).unwrap();
    // UTF-16 with a byte order mark, and CR line ends.
    let utf16 = dir.path().join("utf16.trf");
    let mut wide = vec![0xff, 0xfe];
    for unit in text.replace('\n', "\r").encode_utf16() {
        wide.extend_from_slice(&unit.to_le_bytes());
    }
    std::fs::write(&utf16, &wide).unwrap();
    for path in [&utf8, &latin1, &utf16] {
        let t = load(path).unwrap();
        assert_eq!(t.problems, [], "{}", path.display());
        assert_eq!(t.players.len(), 2, "{}", path.display());
        let p = &t.players[0];
        assert_eq!(p.name, "Jüngling, Jörg");
        assert_eq!(
            (p.rating, p.fide_id, p.points),
            (2000, Some(8603006), Some(10))
        );
        assert_eq!(p.rounds[0].opponent, Some(2));
    }
}

/// What is no TRF is refused, saying why, in bounded memory.
#[test]
fn what_is_no_trf_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |name: &str, bytes: &[u8], why: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = load(&path).unwrap_err();
        assert!(err.contains(why), "{name}: {err}");
    };
    refused("empty.trf", b"", "empty");
    refused("blank.trf", b"\n\n  \n", "empty");
    refused(
        "notes.trf",
        b"012 A tournament\nno players here\n",
        "no player line",
    );
    refused("binary.trf", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "NUL bytes");
    let wide: Vec<u8> = "001    1"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    refused("utf16-no-bom.trf", &wide, "byte order mark");
    #[cfg(unix)]
    {
        let err = load(std::path::Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("larger than 16 MiB"), "{err}");
    }
}

/// Issue 56: XXR stating fewer rounds than the player lines hold is
/// said, at XXR's line; as many, or more, is not.
#[test]
fn xxr_below_the_rounds_played_is_said() {
    let players = [
        line(1, "Alpha, A", 101, "1.5", &[(2, 'w', '1'), (3, 'b', '=')]),
        line(2, "Beta, B", 102, "1.0", &[(1, 'b', '0'), (0, '-', 'U')]),
        line(3, "Gamma, C", 103, "0.5", &[(0, '-', 'Z'), (1, 'w', '=')]),
    ]
    .join("\n");
    let t = read(&format!("012 Test\nXXR 1\n{players}"));
    let said: Vec<_> = t
        .problems
        .iter()
        .filter(|p| p.message.contains("XXR"))
        .collect();
    assert_eq!(said.len(), 1, "{:?}", t.problems);
    assert_eq!((said[0].line, said[0].trouble), (2, Trouble::Inconsistent));
    assert!(
        said[0]
            .message
            .contains("XXR gives 1 rounds, but the player lines hold games or results in 2")
    );
    assert_eq!(t.rounds, 2);
    for xxr in ["2", "3"] {
        let t = read(&format!("012 Test\nXXR {xxr}\n{players}"));
        assert!(
            t.problems.iter().all(|p| !p.message.contains("XXR")),
            "{:?}",
            t.problems
        );
    }
}

/// The sizes a file states are bounded: never a hang or an abort.
#[test]
fn stated_sizes_are_bounded() {
    let player = line(1, "Alpha, A", 101, "0.0", &[]);
    for xxr in ["18446744073709551615", "1000000000", "10000000", "1000"] {
        let t = read(&format!("XXR {xxr}\n{player}"));
        assert_eq!(t.rounds, 0, "XXR {xxr}");
        assert!(
            t.problems
                .iter()
                .any(|p| p.message.contains("more than the 999")),
            "XXR {xxr}: {:?}",
            t.problems
        );
    }
    assert_eq!(read(&format!("XXR 999\n{player}")).rounds, 999);
    // A line of ten million characters is not read.
    let long = format!("{player}{}", " 2 w 1    ".repeat(1_000_000));
    let t = read(&long);
    assert!(t.players.is_empty());
    assert!(
        t.problems[0].message.contains("characters long"),
        "{:?}",
        t.problems
    );
    // A line of more rounds than a TRF holds reads MAX_ROUNDS of them.
    let many = format!("{player}{}", "    0 - Z ".repeat(MAX_ROUNDS));
    assert_eq!(read(&many).players[0].rounds.len(), MAX_ROUNDS);
}

#[test]
fn a_player_paired_with_himself_is_inconsistent() {
    let text = [
        line(1, "Alpha, A", 101, "1.0", &[(1, 'w', '1')]),
        line(2, "Beta, B", 102, "0.0", &[(0, '-', 'Z')]),
    ]
    .join("\n");
    let t = read(&text);
    assert!(
        t.problems.iter().any(
            |p| p.trouble == Trouble::Inconsistent && p.message.contains("paired with himself")
        ),
        "{:?}",
        t.problems
    );
}

#[test]
fn contradictions_are_found() {
    let text = [
        line(1, "Alpha, A", 101, "2.0", &[(2, 'w', '1')]),
        line(2, "Beta, B", 101, "0.0", &[(1, 'b', '1')]),
        line(3, "Gamma, C", 103, "0.0", &[(2, 'w', '0')]),
    ]
    .join("\n");
    let t = read(&text);
    let messages: Vec<&str> = t.problems.iter().map(|p| p.message.as_str()).collect();
    assert!(
        messages.iter().any(|m| m.contains("same FIDE ID 101")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("does not show the same game")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("given 2.0 points, but the rounds add up to 1.0")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("paired with both")),
        "{messages:?}"
    );
    assert!(
        t.problems
            .iter()
            .all(|p| p.trouble == Trouble::Inconsistent)
    );
}

#[test]
fn a_declared_scoring_counts() {
    let rounds = [(2, 'w', '1'), (0, '-', 'U')];
    let three = [
        "XXS WW=3 BW=3 WD=1 BD=1 PAB=3".to_owned(),
        line(1, "Alpha, A", 101, "6.0", &rounds),
        line(2, "Beta, B", 102, "0.0", &[(1, 'b', '0'), (0, '-', 'Z')]),
    ]
    .join("\n");
    assert_eq!(read(&three).problems, []);
    let twenty_six = three.replace(
        "XXS WW=3 BW=3 WD=1 BD=1 PAB=3",
        "162  W 3.0    D 1.0    P 3.0",
    );
    assert_eq!(read(&twenty_six).problems, []);
    // Under 1, ½, 0 the same points do not add up.
    let standard = three.replace("XXS WW=3 BW=3 WD=1 BD=1 PAB=3", "");
    assert_eq!(read(&standard).problems.len(), 1);
}

#[test]
fn unreadable_fields_are_located() {
    let t = read("001 abcd      X\n001    2      Y                                 20x0");
    assert_eq!(t.problems.len(), 2, "{:?}", t.problems);
    assert_eq!(t.problems[0].line, 1);
    assert_eq!(t.problems[1].line, 2);
    assert!(t.problems.iter().all(|p| p.trouble == Trouble::Invalid));
}

/// The TRF `scripts/pgn_to_trf.py` builds from the FIDE Women's World
/// Rapid 2024 broadcast: every pairing on both sides, the points
/// adding up.
#[test]
fn the_converted_broadcast_is_consistent() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/trf/fwwrc-2024.trf");
    let t = read(&std::fs::read_to_string(path).unwrap());
    assert_eq!((t.players.len(), t.rounds), (110, 11));
    assert_eq!(t.problems, []);
    assert!(t.players.iter().all(|p| p.fide_id.is_some()));
    let games: usize = t
        .players
        .iter()
        .map(|p| p.rounds.iter().filter(|r| r.opponent.is_some()).count())
        .sum();
    assert_eq!(games, 2 * 605);
}

/// Every real TRF shipped in `fixtures/trf/` reads, with its players
/// and rounds.
#[test]
fn real_files_read() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/trf");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "trf") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let t = read(&text);
        let lines = text.lines().filter(|l| l.starts_with("001")).count();
        assert_eq!(t.players.len(), lines, "{}", path.display());
        assert!(t.rounds > 0, "{}", path.display());
        let invalid = t
            .problems
            .iter()
            .filter(|p| p.trouble == Trouble::Invalid)
            .count();
        assert_eq!(invalid, 0, "{}: {:?}", path.display(), t.problems);
        if std::env::var_os("TRF_PROBLEMS").is_some() {
            for p in &t.problems {
                eprintln!("{}:{}: {}", path.display(), p.line, p.message);
            }
        }
        files += 1;
    }
    assert!(files >= 10, "{files} files");
}
