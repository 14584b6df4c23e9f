use super::*;

fn seen<'a>(file: &'a str, number: u64, white: &'a str, id: &'a str) -> Seen<'a> {
    let mut game = Seen::pairing([white, "?"], "1", "*", [id, "", "", "", "", ""]);
    game.file = file;
    game.number = number;
    game
}

fn messages(identity: &mut Identity, game: &Seen<'_>) -> Vec<String> {
    let mut out = Vec::new();
    identity.game(game, &mut out);
    out.into_iter().map(|f| f.message).collect()
}

/// Issue 56: a game whose comment accepts a spelling pair does not
/// use up the pair's one report: the next game that carries it gives it.
#[test]
fn a_pair_accepted_in_one_game_is_reported_in_the_next() {
    let accepts = crate::checks::suppress::Suppressions::from_named(
        vec![(1, "player-name-variant".to_owned())],
        0,
    );
    let mut identity = Identity::default();
    assert!(messages(&mut identity, &seen("a.pgn", 1, "Muzychuk,A", "14111330")).is_empty());
    let mut accepted = seen("a.pgn", 2, "Muzychuk, Anna", "14111330");
    accepted.accepted = &accepts;
    // Found, for the writer to leave out by the comment.
    assert_eq!(messages(&mut identity, &accepted).len(), 1);
    let next = messages(
        &mut identity,
        &seen("a.pgn", 3, "Muzychuk, Anna", "14111330"),
    );
    assert_eq!(next.len(), 1, "{next:?}");
    assert!(
        messages(
            &mut identity,
            &seen("a.pgn", 4, "Muzychuk, Anna", "14111330")
        )
        .is_empty()
    );
    // Within an event, the same.
    let event = |number, white| {
        let mut game = seen("e.pgn", number, white, "");
        game.tags.set(Tag::Event, "Open");
        game.tags.set(Tag::Date, "2020.01.01");
        game
    };
    assert!(messages(&mut identity, &event(1, "Petrosian, Tigran V.")).is_empty());
    let mut accepted = event(2, "Petrosian, Tigran V");
    accepted.accepted = &accepts;
    assert_eq!(messages(&mut identity, &accepted).len(), 1);
    assert_eq!(
        messages(&mut identity, &event(3, "Petrosian, Tigran V")).len(),
        1
    );
    assert!(messages(&mut identity, &event(4, "Petrosian, Tigran V")).is_empty());
}

#[test]
fn one_id_under_two_names_is_reported_once_a_name() {
    let mut identity = Identity::default();
    assert!(
        messages(
            &mut identity,
            &seen("twic.pgn", 3, "Muzychuk,A", "14111330")
        )
        .is_empty()
    );
    // The same name folded: no finding.
    for same in ["Muzychuk, A", "A Muzychuk", "MUZYCHUK,A."] {
        assert!(messages(&mut identity, &seen("twic.pgn", 4, same, "14111330")).is_empty());
    }
    // In the same file.
    let here = messages(
        &mut identity,
        &seen("twic.pgn", 5, "Muzytchuk,A", "14111330"),
    );
    assert!(here[0].contains("in game 3 of this file"), "{here:?}");
    let found = messages(
        &mut identity,
        &seen("b.pgn", 7, "Muzychuk, Anna", "14111330"),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(
            "FIDE ID 14111330 is 'Muzychuk, Anna' here and 'Muzychuk,A' in game 3 of twic.pgn"
        ),
        "{}",
        found[0]
    );
    // Once for that name; again for a third.
    assert!(
        messages(
            &mut identity,
            &seen("b.pgn", 8, "Anna Muzychuk", "14111330")
        )
        .is_empty()
    );
    let third = messages(
        &mut identity,
        &seen("b.pgn", 9, "Muzychuk, Mariya", "14111330"),
    );
    assert!(third[0].contains("in game 3 of twic.pgn"), "{third:?}");
}

#[test]
fn ids_and_names_that_say_nothing_are_not_compared() {
    let mut identity = Identity::default();
    for (name, id) in [("A", "0"), ("A", ""), ("A", "12x"), ("?", "5"), ("", "5")] {
        assert!(messages(&mut identity, &seen("t.pgn", 1, name, id)).is_empty());
    }
    assert!(messages(&mut identity, &seen("t.pgn", 2, "B", "5")).is_empty());
    assert!(identity.first.len() == 1);
}

#[test]
fn a_full_table_stops_recording_and_says_so() {
    let mut identity = Identity::with_limit(4096);
    for id in 1..2000u32 {
        let id = id.to_string();
        assert!(messages(&mut identity, &seen("t.pgn", 1, "A", &id)).is_empty());
    }
    assert!(identity.bytes() < 4 * 4096, "{}", identity.bytes());
    let why = identity.trouble();
    assert!(why[0].contains("not compared"), "{why:?}");
}

fn in_event<'a>(event: &'a str, round: &'a str, number: u64, white: &'a str) -> Seen<'a> {
    let mut game = seen("t.pgn", number, white, "");
    game.tags.set(Tag::Event, event);
    game.tags.set(Tag::Round, round);
    game.tags.set(Tag::Date, "1961.05.01");
    game
}

#[test]
fn one_name_written_two_ways_in_an_event_is_reported_once() {
    let mut identity = Identity::default();
    let bled = |round, number, white| in_event("Bled", round, number, white);
    assert!(messages(&mut identity, &bled("1", 1, "Petrosian, Tigran V")).is_empty());
    assert!(messages(&mut identity, &bled("2", 2, "Petrosian, Tigran V")).is_empty());
    let found = messages(&mut identity, &bled("3", 3, "Petrosian, Tigran V."));
    assert_eq!(
        found,
        [
            "'Petrosian, Tigran V.' here is written 'Petrosian, Tigran V' in game 1 of this file, of the same event ('Bled'): one name written two ways (they fold alike: case, accents, punctuation, word order); one spelling serves the archive."
        ]
    );
    assert!(messages(&mut identity, &bled("4", 4, "Petrosian, Tigran V.")).is_empty());
    assert_eq!(
        messages(&mut identity, &bled("5", 5, "Tigran V Petrosian")).len(),
        1
    );
    // A spelling that differs from one reported only in case.
    let upper = messages(&mut identity, &bled("6", 6, "PETROSIAN, Tigran V."));
    assert_eq!(upper.len(), 1);
    // Another event, or no round (an online pool): nothing.
    assert!(
        messages(
            &mut identity,
            &in_event("Zagreb", "1", 6, "Petrosian, Tigran V.")
        )
        .is_empty()
    );
    assert!(messages(&mut identity, &in_event("Pool", "-", 7, "magnus")).is_empty());
    assert!(messages(&mut identity, &in_event("Pool", "-", 8, "Magnus")).is_empty());
    // A round not known is a round all the same.
    assert!(
        messages(
            &mut identity,
            &in_event("Bled", "?", 9, "Fischer, Robert J.")
        )
        .is_empty()
    );
    assert_eq!(
        messages(
            &mut identity,
            &in_event("Bled", "", 10, "Fischer, Robert J")
        )
        .len(),
        1
    );
}

/// White in game `number` of `file`, at Bilbao 2010, rated `elo`.
fn at_bilbao<'a>(file: &'a str, number: u64, white: &'a str, elo: &'a str) -> Seen<'a> {
    let mut game = in_event("Grand Slam Final Masters", "3", number, white);
    game.file = file;
    game.tags.set(Tag::WhiteElo, elo);
    game
}

#[test]
fn initials_in_one_input_and_the_name_in_another_are_one_player() {
    let mut identity = Identity::default();
    let mut found =
        |file, number, white, elo| messages(&mut identity, &at_bilbao(file, number, white, elo));
    assert!(found("twic.pgn", 1, "Carlsen,M", "2826").is_empty());
    assert_eq!(
        found("bilbao.pgn", 1, "Carlsen, Magnus", ""),
        [
            "'Carlsen, Magnus' here is written 'Carlsen,M' in game 1 of twic.pgn, of the same event ('Grand Slam Final Masters'): initials for a given name in one input and the name in full in another, where no other player of the event has that surname and initial and no FIDE ID or rating tells them apart; one spelling serves the archive."
        ]
    );
    assert!(found("bilbao.pgn", 2, "Carlsen, Magnus", "").is_empty());
    // Initials after the name in full, with initials for two names.
    assert!(found("a.pgn", 3, "Tal, Mikhail N.", "").is_empty());
    assert_eq!(found("b.pgn", 4, "Tal, M. N.", "").len(), 1);
    // One input that writes both has two players (TWIC 920's
    // Mihajlov,S and Mihajlov,Sebastian play in the same rounds).
    assert!(found("c.pgn", 5, "Mihajlov,S", "").is_empty());
    assert!(found("c.pgn", 6, "Mihajlov,Sebastian", "").is_empty());
    // Two given names with the initial: which one is not known.
    assert!(found("a.pgn", 7, "Polgar, Susan", "").is_empty());
    assert!(found("b.pgn", 8, "Polgar, Sofia", "").is_empty());
    assert!(found("c.pgn", 9, "Polgar, S", "").is_empty());
    // Two ratings, a son, no comma: apart, or not looked at.
    assert!(found("a.pgn", 10, "Shirov, Alexei", "2749").is_empty());
    assert!(found("b.pgn", 11, "Shirov,A", "2500").is_empty());
    assert!(found("a.pgn", 12, "Bazant, Pavel", "").is_empty());
    assert!(found("b.pgn", 13, "Bazant, P jr", "").is_empty());
    assert!(found("a.pgn", 14, "Anand Viswanathan", "").is_empty());
    assert!(found("b.pgn", 15, "Anand V", "").is_empty());
}

#[test]
fn initials_are_not_paired_where_an_input_or_an_id_says_otherwise() {
    let mut identity = Identity::default();
    let mut found = |file, number, white, id: &str| {
        let mut game = at_bilbao(file, number, white, "");
        game.tags.set(Tag::WhiteFideId, id);
        messages(&mut identity, &game)
    };
    // One input with both forms: two players, whatever a later input says.
    assert!(found("a.pgn", 1, "Mihajlov,S", "").is_empty());
    assert!(found("a.pgn", 2, "Mihajlov,Sebastian", "").is_empty());
    assert!(found("b.pgn", 3, "Mihajlov, Sebastian M.", "").is_empty());
    assert!(found("c.pgn", 4, "Mihajlov, S. M.", "").is_empty());
    // Two initial forms in one input: two players.
    assert!(found("a.pgn", 5, "Kim, J", "").is_empty());
    assert!(found("a.pgn", 6, "Kim, J. S.", "").is_empty());
    assert!(found("b.pgn", 7, "Kim, Jiho", "").is_empty());
    // One FIDE ID: the ID's finding names the two spellings, once.
    assert!(found("a.pgn", 8, "Carlsen,M", "1503014").is_empty());
    let once = found("b.pgn", 9, "Carlsen, Magnus", "1503014");
    assert_eq!(once.len(), 1, "{once:?}");
    assert!(once[0].starts_with("FIDE ID 1503014"), "{once:?}");
}

#[test]
fn an_initials_pair_left_out_by_a_comment_is_reported_in_the_next_game() {
    let accepts = crate::checks::suppress::Suppressions::from_named(
        vec![(1, "player-name-variant".to_owned())],
        0,
    );
    let mut identity = Identity::default();
    assert!(messages(&mut identity, &at_bilbao("a.pgn", 1, "Shirov,A", "")).is_empty());
    let mut accepted = at_bilbao("b.pgn", 1, "Shirov, Alexei", "");
    accepted.accepted = &accepts;
    assert_eq!(messages(&mut identity, &accepted).len(), 1);
    let next = messages(&mut identity, &at_bilbao("b.pgn", 2, "Shirov, Alexei", ""));
    assert_eq!(next.len(), 1, "{next:?}");
    assert!(messages(&mut identity, &at_bilbao("b.pgn", 3, "Shirov, Alexei", "")).is_empty());
}

#[test]
fn a_player_of_an_event_takes_24_bytes() {
    assert_eq!(std::mem::size_of::<Player>(), 24);
}

/// White in game `number` of an event at Kolkata in 2012, with a FIDE
/// ID and a rating.
fn entrant<'a>(number: u64, white: &'a str, id: &'a str, elo: &'a str) -> Seen<'a> {
    let game = Seen::pairing([white, "?"], "1", "*", [id, "", elo, "", "", ""]);
    in_kolkata(number, game)
}

/// `game` as game `number` of the Kolkata Open's file.
fn in_kolkata(number: u64, mut game: Seen<'_>) -> Seen<'_> {
    game.file = "open.pgn";
    game.number = number;
    game.tags.set(Tag::Event, "Kolkata Open");
    game.tags.set(Tag::Date, "2012.12.03");
    game
}

#[test]
fn one_name_and_rating_under_two_ids_in_an_event_is_reported_once() {
    let mut identity = Identity::default();
    let mut check = |game: Seen<'_>| messages(&mut identity, &game);
    assert!(check(entrant(1, "Kumar, Ajay", "5012345", "2105")).is_empty());
    assert!(check(entrant(2, "Kumar, Ajay", "5012345", "2105")).is_empty());
    let found = check(entrant(3, "Kumar, Ajay", "5012354", "2105"));
    assert_eq!(
        found,
        [
            "'Kumar, Ajay' has FIDE ID 5012354 here (rated 2105) and FIDE ID 5012345 in game 1 of this file (rated 2105), of the same event ('Kolkata Open'): one name under two IDs (names folded: case, accents, punctuation, word order), and no two ratings to tell two players apart. One ID is wrong, or two players share the name and their games must be told apart; which is for the officer."
        ]
    );
    // Once for that ID; its first ID again says nothing.
    assert!(check(entrant(4, "Kumar, Ajay", "5012354", "2105")).is_empty());
    assert!(check(entrant(5, "Kumar, Ajay", "5012345", "2105")).is_empty());
    // A game that gives no rating does not tell the two apart.
    let unrated = check(entrant(6, "Kumar, Ajay", "5099999", ""));
    assert!(
        unrated[0].contains("FIDE ID 5099999 here (no rating) and FIDE ID 5012345"),
        "{unrated:?}"
    );
}

#[test]
fn two_players_of_one_name_with_two_ratings_are_not_reported() {
    let mut identity = Identity::default();
    let mut check = |game: Seen<'_>| messages(&mut identity, &game);
    assert!(check(entrant(1, "Kumar, Ajay", "5012345", "2105")).is_empty());
    assert!(check(entrant(2, "Kumar, Ajay", "5077777", "1490")).is_empty());
    assert!(check(entrant(3, "Kumar, Ajay", "5077777", "1490")).is_empty());
    // Another event's player of that name and rating: nothing either.
    let mut elsewhere = entrant(4, "Kumar, Ajay", "5088888", "2105");
    elsewhere.tags.set(Tag::Event, "Mumbai Open");
    assert!(check(elsewhere).is_empty());
}

#[test]
fn two_players_of_one_name_in_one_game_are_not_reported() {
    let mut identity = Identity::default();
    let game = in_kolkata(
        1,
        Seen::pairing(
            ["Kumar, Ajay", "Ajay Kumar"],
            "1",
            "*",
            ["5012345", "5012354", "", "", "", ""],
        ),
    );
    assert!(messages(&mut identity, &game).is_empty());
    // Either ID later says nothing; a third does.
    for (number, id) in [(2, "5012354"), (3, "5012345")] {
        let found = messages(&mut identity, &entrant(number, "Kumar, Ajay", id, ""));
        assert!(found.is_empty(), "{found:?}");
    }
    let third = messages(&mut identity, &entrant(4, "Kumar, Ajay", "5099999", ""));
    assert!(
        third[0].contains("FIDE ID 5099999 here (no rating) and FIDE ID 5012345 in game 1"),
        "{third:?}"
    );
}

#[test]
fn the_id_is_compared_with_the_first_game_that_gives_one() {
    let mut identity = Identity::default();
    let mut check = |game: Seen<'_>| messages(&mut identity, &game);
    assert!(check(entrant(1, "Kumar, Ajay", "", "")).is_empty());
    assert!(check(entrant(2, "Kumar, Ajay", "5012345", "2105")).is_empty());
    let found = check(entrant(3, "Kumar, Ajay", "5012354", "2105"));
    assert!(
        found[0].contains("FIDE ID 5012345 in game 2 of this file (rated 2105)"),
        "{found:?}"
    );
}

#[test]
fn events_keep_a_bounded_number_of_players_and_say_so() {
    let mut identity = Identity::default();
    for i in 0..EVENT_PLAYERS + 10 {
        let name = format!("Player {i}");
        assert!(messages(&mut identity, &in_event("Open", "1", 1, &name)).is_empty());
    }
    let why = identity.trouble();
    assert!(
        why[0].contains("first 20000 of an event") && why[0].contains("in 1 events: 'Open' (1961)"),
        "{why:?}"
    );
    // Only the latest events are kept.
    for i in 0..EVENTS + 5 {
        let event = format!("Event {i}");
        assert!(messages(&mut identity, &in_event(&event, "1", 1, "A")).is_empty());
    }
    assert_eq!(identity.events.len(), EVENTS);
}
