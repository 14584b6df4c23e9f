use super::*;

#[test]
fn decodes_latin1_as_windows_1252() {
    assert_eq!(decode("Müller".as_bytes()), (Cow::Borrowed("Müller"), true));
    let (text, utf8) = decode(b"M\xfcller \x80");
    assert_eq!(text, "Müller €");
    assert!(!utf8);
}

fn fingerprint(pgn: &str) -> Option<u128> {
    crate::testing::game(pgn).raw().fingerprint(0, 0)
}

#[test]
fn a_name_by_initials_keeps_a_hash_of_the_given_word_of_its_initial() {
    let given = |name: &str| name_hashes(name.as_bytes()).1.map(|s| s.1);
    let joseph = given("Blackburne, Joseph H");
    assert!(joseph.is_some());
    for same in [
        "Blackburne, Joseph Henry",
        "BLACKBURNE, Dr. Joseph",
        "Blackburne, GM Joseph",
    ] {
        assert_eq!(given(same), joseph, "{same}");
    }
    assert_ne!(given("Blackburne, Josef"), joseph);
    assert_ne!(given("Polgar, Susan"), given("Polgar, Sofia"));
    assert_eq!(given("Sämisch, Friedrich"), given("Saemisch, Friedrich"));
}

#[test]
fn a_name_by_initials_is_its_surname_and_first_initial() {
    let short = |name: &str| name_hashes(name.as_bytes()).1.map(|s| s.0);
    let of = |name: &str| folded_name_hash(name.as_bytes());
    // Given names in full read as the surname and first initial.
    for full in [
        "Carlsen, Magnus",
        "Carlsen,Magnus",
        "CARLSEN, Magnus Oen",
        "Carlsen, GM Magnus",
        "Carlsen, M. O.",
    ] {
        assert_eq!(short(full), Some(of("Carlsen,M")), "{full}");
    }
    assert_eq!(short("Sämisch, Friedrich"), Some(of("Saemisch F")));
    assert_eq!(short("Vallejo Pons, Francisco"), Some(of("Vallejo Pons,F")));
    // Already so, or nothing to read: no second form.
    for same in [
        "Carlsen,M",
        "Carlsen, M.",
        "Magnus Carlsen",
        "Carlsen,",
        "Carlsen, GM",
        "Bazant, Petr jr",
        "Bazant Sr., Petr",
        "Smith, John III",
        "Player, 12",
        ", Magnus",
        "Carlsen, Magnus, NOR",
        "Carlsen, Magnus:Anand, Viswanathan",
    ] {
        assert_eq!(short(same), None, "{same}");
    }
    // A doctor's given name follows the title.
    assert_eq!(short("Lasker, Dr. Emanuel"), Some(of("Lasker, E")));
    // Another initial, another player.
    assert_ne!(short("Polgar, Susan"), short("Polgar, Judit"));
}

/// The fingerprint of a game of White's against `Staunton, Howard`.
fn game(white: &str, moves: &str) -> Option<u128> {
    fingerprint(&format!(
        "[White \"{white}\"]\n[Black \"Staunton, Howard\"]\n\n{moves}"
    ))
}

#[test]
fn a_fingerprint_folds_players_names() {
    let base = game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 3. Bc4 *");
    // Names as they fold: punctuation, case, accents, word order, a
    // title beside it.
    for same in [
        "Harrwitz Daniel",
        "HARRWITZ, Daniel",
        "Daniel Harrwitz",
        "Hárrwitz, Daniel",
        "Harrwitz, Daniel GM",
        "IM Daniel Harrwitz",
        "Harrwitz Daniel (GM)",
    ] {
        assert_eq!(game(same, "1. e4 e5 2. Nf3 Sf6 3. Bc4 *"), base, "{same}");
    }
    // A title word is a name's own when fewer than two others remain;
    // Jr. and Sr. tell two players apart, and Wim is a name.
    for (one, other) in [
        ("Im, Daniel", "Daniel"),
        ("Harrwitz Jr., Daniel", "Harrwitz, Daniel"),
        ("De Kok, Wim", "De Kok"),
    ] {
        let moves = "1. e4 e5 2. Nf3 Sf6 3. Bc4 *";
        assert_ne!(game(one, moves), game(other, moves), "{one}");
    }
}

#[test]
fn a_fingerprint_covers_the_whole_record() {
    let base = game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 3. Bc4 *");
    // Pinned: a change here changes every game_id, and must raise
    // GAME_ID_SCHEME.
    assert_eq!(
        (
            GAME_ID_SCHEME,
            base.map(|fp| format!("{:016x}", (fp >> 64) as u64))
        ),
        (4, Some("3278461a29dd5024".to_owned()))
    );
    // Comments, NAGs, variations and move numbers aside, also past
    // the first token that is no move.
    assert_eq!(
        game(
            "Harrwitz, Daniel",
            "1. e4 {x} e5 $1 (1... c5) 2. Nf3 Sf6 {y} 3. Bc4! 1-0"
        ),
        base
    );
    // A FEN of the initial array is no FEN.
    assert_eq!(
        fingerprint(
            "[White \"Harrwitz, Daniel\"]\n[Black \"Staunton, Howard\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 e5 2. Nf3 Sf6 3. Bc4 *"
        ),
        base
    );
    // Issue 56: a game of another variant is no copy of a standard
    // one; another spelling of standard chess, or of the variant, is.
    let tagged = |variant: &str| {
        fingerprint(&format!(
            "[White \"Harrwitz, Daniel\"]\n[Black \"Staunton, Howard\"]\n[Variant \"{variant}\"]\n\n1. e4 e5 2. Nf3 Sf6 3. Bc4 *"
        ))
    };
    assert_eq!(tagged("Standard"), base);
    assert_eq!(tagged("From Position"), base);
    let others = ["Atomic", "Crazyhouse", "Chess960", "Three-check", "Shogi"];
    for (i, a) in others.iter().enumerate() {
        assert_ne!(tagged(a), base, "{a}");
        for b in &others[i + 1..] {
            assert_ne!(tagged(a), tagged(b), "{a} {b}");
        }
    }
    assert_eq!(tagged("Chess960"), tagged("Fischer Random"));
    assert_eq!(tagged("Three-check"), tagged("threecheck"));
    assert_eq!(tagged("Seirawan"), tagged("SEIRAWAN"));
    // A start not known is no game's but its own.
    for tags in [
        "[SetUp \"1\"]\n",
        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra\"]\n",
    ] {
        assert_ne!(
            fingerprint(&format!(
                "[White \"Harrwitz, Daniel\"]\n[Black \"Staunton, Howard\"]\n{tags}\n1. e4 e5 2. Nf3 Sf6 3. Bc4 *"
            )),
            base,
            "{tags}"
        );
    }
    // Every token counts, past the first that is no move too.
    assert_ne!(
        game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 3. Bb5 *"),
        base
    );
    assert_ne!(
        game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sc6 3. Bc4 *"),
        base
    );
    assert_ne!(game("Harrwitz, Daniel", "1. e4 e5 2. Nf3 Sf6 *"), base);
    assert_ne!(
        game("Anderssen, Adolf", "1. e4 e5 2. Nf3 Sf6 3. Bc4 *"),
        base
    );
}

#[test]
fn names_fold_alike_without_allocating() {
    let mut names: Vec<String> = [
        "Harrwitz, Daniel",
        "  Mueller,Jan  ",
        "aee oae uoe aoee ueue",
        "Carlsen, M.",
        "Stockfish 16.1 (NNUE)",
        "",
        "?",
        "a b c d e f g h i j k l m n o p",
    ]
    .map(str::to_owned)
    .to_vec();
    // Every name of the fixtures.
    for file in crate::testing::plain_pgn_files(&crate::testing::fixtures()) {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        for line in text.lines() {
            for tag in ["[White \"", "[Black \""] {
                if let Some(rest) = line.strip_prefix(tag) {
                    names.push(rest.trim_end_matches("\"]").to_owned());
                }
            }
        }
    }
    assert!(names.len() > 100);
    // The words `fold_name` gives, as a multiset.
    let by_words = |folded: &str| {
        let mut words: Vec<u64> = folded
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut hash = Fnv::default();
                w.bytes().for_each(|b| hash.byte(b));
                fmix64_half(hash.value())
            })
            .collect();
        words.sort_unstable();
        words
    };
    for name in &names {
        let folded = fold_name(name);
        let (sum, count) = folded_name_hash(name.as_bytes());
        let words = by_words(&folded);
        assert_eq!(count, words.len() as u64, "{name}");
        assert_eq!(
            sum,
            words.iter().fold(0u64, |a, &w| a.wrapping_add(w)),
            "{name}"
        );
    }
    assert_eq!(
        folded_name_hash("Réti, Richard".as_bytes()),
        folded_name_hash(b"Richard Reti")
    );
    // Names made to tell the two paths apart: a control character
    // between words, title words alone, around `ae`, digits.
    for name in [
        "Karpov\x7fAnatoly GM",
        "Karpov\tAnatoly\x01GM",
        "GM IM",
        "GM",
        "Gmae Karpov, Anatoly",
        "Karpov, Anatoly G M",
        "Stockfish 16 GM",
    ] {
        let (sum, count) = folded_name_hash(name.as_bytes());
        let words = by_words(&fold_name(name));
        assert_eq!(count, words.len() as u64, "{name:?}");
        let total = words.iter().fold(0u64, |a, &w| a.wrapping_add(w));
        assert_eq!(sum, total, "{name:?}");
    }
}

#[test]
fn excerpts_are_short() {
    assert_eq!(excerpt(b"abcdef", 3), "abc…");
    assert_eq!(excerpt(b"ab\r\n", 3), "ab");
}
