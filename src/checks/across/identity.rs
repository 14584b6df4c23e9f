//! Players' identity across a run (`player-name-variant`,
//! `player-id-conflict`): one FIDE ID
//! (`WhiteFideId`, `BlackFideId`) under names that differ however they are
//! folded (case, accents and transliteration, punctuation, word order, a
//! title beside the name, as
//! `--trf` and the duplicates fold them). Archives written by different
//! hands give one player several names (TWIC's `Muzychuk,A` is the
//! broadcast's `Muzychuk, Anna`; `Lahno,Kateri` is `Lagno, Kateryna`), and a
//! wrong ID gives one ID to two players; archive keepers fix both by hand
//! (ChessBase's player spell-check, SCID's spelling files).
//!
//! The first name a FIDE ID is seen with is kept, with where; a game that
//! gives the ID another name is reported once for each other name, naming
//! both spellings and where each was first seen. The table keeps about 60
//! bytes an ID, up to 16 MiB; past it, IDs not yet seen are not recorded
//! (and the run says so), so their later spellings are not compared.
//!
//! Within one event (its name and year, as the rounds keep it; not games
//! whose Round is `-`, which PGN gives games not played in rounds, as
//! servers write it for their pools), one name written two ways
//! that fold alike (`Petrosian, Tigran V` and `Petrosian, Tigran V.`) is
//! reported the same way, once for each other spelling. The players of the
//! last `EVENTS` events seen are kept, at most `EVENT_PLAYERS` names each;
//! past that an event's later players are not compared, and the run says
//! so.
//!
//! Each of an event's players also keeps the first FIDE ID the event gives
//! that name, with the rating of that game (`player-id-conflict`): another
//! ID for the same name is reported, once for each other ID, when the two
//! games give the same rating or either gives none (a wrong ID); two
//! ratings that differ are two players who share a name, as large opens
//! have, and are not, nor are the two players of one game whose names fold
//! alike (nor, for spellings, is such a pair).

use std::collections::VecDeque;

use hashbrown::{HashMap, HashSet};

use super::{
    check::{Across, Seen, trim},
    duplicates::place,
};
use crate::{
    finding::{Finding, Kind},
    read::tags::Tag,
};

/// The bytes the table keeps: about 270,000 IDs, beside `--memory-limit`.
pub const LIMIT: usize = 16 << 20;

/// Events whose players' spellings are kept, the latest seen.
const EVENTS: usize = 32;

/// Names kept for one event.
const EVENT_PLAYERS: usize = 20_000;

/// One event's players: by folded name, the spelling first seen and
/// where, and the FIDE ID first given to that name.
#[derive(Debug, Default)]
struct Event {
    key: u64,
    spellings: HashMap<u64, Player>,
    names: String,
    /// (folded name, spelling) already reported.
    reported: HashSet<(u64, String)>,
    /// Where a name's ID was first given, when not in the game that
    /// first named that player.
    id_places: HashMap<u64, (u32, u64)>,
    /// (folded name, ID) already reported.
    ids_reported: HashSet<(u64, u32)>,
    full: bool,
}

/// A player of an event (24 bytes): the spelling first seen (a range of
/// the event's `names`) and where, and the FIDE ID first given to the name
/// in the event with the rating of that game.
#[derive(Debug, Clone, Copy)]
struct Player {
    name_start: u32,
    name_len: u16,
    /// The rating given with `id` (0: none).
    elo: u16,
    /// The input (an index of `files`) and the game's number there.
    file: u32,
    /// The ID (0: none given yet).
    id: u32,
    number: u64,
}

/// A name longer than this is kept cut (a name is rarely half as long).
const NAME_MAX: usize = 80;

/// Where an ID was first seen, and with which name.
#[derive(Debug, Clone, Copy)]
struct First {
    /// Its folded name, hashed.
    folded: u64,
    /// The input (an index of `files`) and the game's number there.
    file: u32,
    number: u64,
    /// The name as written: a range of `names`.
    name: (u32, u16),
}

/// The bytes an ID takes in the table, about: the entry, the map's
/// overhead and the name.
const ENTRY: usize = std::mem::size_of::<(u32, First)>() + 8;

/// The run's FIDE IDs and the names first given to them.
#[derive(Debug, Default)]
pub struct Identity {
    first: HashMap<u32, First>,
    /// Every kept name, one after the other.
    names: String,
    /// (ID, folded name) already reported.
    reported: HashSet<(u32, u64)>,
    /// Input names, by index.
    files: Vec<String>,
    /// Bytes the table may take (0: no limit), and whether it is full.
    limit: usize,
    full: Option<String>,
    /// The players of the latest events, the latest last.
    events: VecDeque<Event>,
    /// The last game's event and year, which the last of `events` holds.
    last_event: (String, String),
    /// Events with more players than are kept.
    crowded: Vec<String>,
}

/// A FIDE ID tag's value as a number: digits only, not 0 (`invalid-fide-id`
/// judges the others).
fn fide_id(value: &str) -> Option<u32> {
    let value = trim(value);
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok().filter(|&id| id > 0)
}

/// A rating tag's value (`WhiteElo`, `BlackElo`), 0 when it gives none.
fn elo(value: &str) -> u16 {
    trim(value).parse().unwrap_or(0)
}

/// A rating in a message.
fn rating(elo: u16) -> String {
    if elo == 0 {
        "no rating".to_owned()
    } else {
        format!("rated {elo}")
    }
}

/// Whether a finding reported once (its `key` in `reported`) is reported
/// here: it is, unless it was before. It is taken as reported unless the
/// game's comments leave it out (`accepted`): a later game then gives it.
fn first_report<K: std::hash::Hash + Eq>(
    reported: &mut HashSet<K>,
    key: K,
    accepted: bool,
) -> bool {
    if reported.contains(&key) {
        return false;
    }
    if !accepted {
        reported.insert(key);
    }
    true
}

/// A tag value that names nobody.
fn unnamed(name: &str) -> bool {
    crate::checks::header::unknown(trim(name).as_bytes())
}

/// Keeps `name` cut to `NAME_MAX` bytes in `names`: its range.
fn keep(names: &mut String, name: &str) -> Option<(u32, u16)> {
    let mut cut = name.len().min(NAME_MAX);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let start = u32::try_from(names.len()).ok()?;
    names.push_str(&name[..cut]);
    Some((start, u16::try_from(cut).ok()?))
}

/// The text of a range `keep` gave.
fn kept(names: &str, (start, len): (u32, u16)) -> &str {
    let start = start as usize;
    names.get(start..start + len as usize).unwrap_or_default()
}

impl Identity {
    /// A table that keeps at most `limit` bytes (0: no limit).
    pub fn with_limit(limit: usize) -> Identity {
        Identity {
            limit,
            ..Identity::default()
        }
    }

    /// Why some IDs or players were not recorded, if any were not.
    pub fn trouble(&self) -> Vec<String> {
        let crowded = (!self.crowded.is_empty()).then(|| {
            format!(
                "players past the first {EVENT_PLAYERS} of an event were not compared for spellings, in {} events: {}",
                self.crowded.len(),
                self.crowded.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
            )
        });
        self.full.iter().cloned().chain(crowded).collect()
    }

    fn bytes(&self) -> usize {
        self.first.capacity() * ENTRY + self.names.capacity() + self.reported.capacity() * 16
    }

    /// The input's index, counting a new one.
    fn file(&mut self, file: &str) -> u32 {
        if self.files.last().is_none_or(|f| f != file) {
            self.files.push(file.to_owned());
        }
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    /// The players of the game's event (the latest events kept), unless
    /// the event is not known or has no rounds (Round `-`, PGN 8.1.1.4:
    /// a casual or online game).
    fn event(&mut self, game: &Seen<'_>) -> Option<&mut Event> {
        let event = trim(game.tags.get(Tag::Event));
        if unnamed(event) || trim(game.tags.get(Tag::Round)) == "-" {
            return None;
        }
        let year = trim(game.tags.get(Tag::Date)).get(..4).unwrap_or_default();
        // Archives hold an event's games together: most games are of the
        // event before them.
        if self.last_event.0 == event && self.last_event.1 == year && !self.events.is_empty() {
            return self.events.back_mut();
        }
        self.last_event.0.clear();
        self.last_event.0.push_str(event);
        self.last_event.1.clear();
        self.last_event.1.push_str(year);
        let key = super::rounds::key(0x1E, &[event, year]);
        match self.events.iter().position(|e| e.key == key) {
            Some(at) => {
                let found = self.events.remove(at)?;
                self.events.push_back(found);
            }
            None => {
                if self.events.len() == EVENTS {
                    self.events.pop_front();
                }
                self.events.push_back(Event {
                    key,
                    ..Event::default()
                });
            }
        }
        self.events.back_mut()
    }

    /// One player's name in the game's event (the last of `events`): the
    /// finding when the event has it, folded alike, written otherwise.
    fn spelling(
        &mut self,
        game: &Seen<'_>,
        here: u32,
        (name, folded): (&str, u64),
        (id, elo): (u32, u16),
    ) -> Option<Finding> {
        let number = game.number;
        let event = self.events.back_mut()?;
        let Some(&player) = event.spellings.get(&folded) else {
            if event.spellings.len() < EVENT_PLAYERS {
                let (name_start, name_len) = keep(&mut event.names, name)?;
                let player = Player {
                    name_start,
                    name_len,
                    elo,
                    file: here,
                    id,
                    number,
                };
                event.spellings.insert(folded, player);
            } else if !event.full {
                event.full = true;
                let year = game.tags.get(Tag::Date).trim().get(..4).unwrap_or("?");
                self.crowded
                    .push(format!("'{}' ({year})", game.tags.get(Tag::Event).trim()));
            }
            return None;
        };
        let other = kept(&event.names, (player.name_start, player.name_len));
        // Both players of one game: two people whose names fold alike.
        let same_game = (player.file, player.number) == (here, number);
        let accepted = game.accepted.names(Kind::PlayerNameVariant);
        if other == name
            || same_game
            || !first_report(&mut event.reported, (folded, name.to_owned()), accepted)
        {
            return None;
        }
        let other = other.to_owned();
        let where_ = place(&self.files, player.file, here, player.number);
        Some(Finding::new(
            Kind::PlayerNameVariant,
            game.line,
            format!(
                "'{name}' here is written '{other}' in {where_}, of the same event ('{}'): one name written two ways (they fold alike: case, accents, punctuation, word order); one spelling serves the archive.",
                game.tags.get(Tag::Event).trim()
            ),
        ))
    }

    /// One player of a game in its event (the last of `events`), with the
    /// FIDE ID and rating the game gives: the finding when the event gave
    /// the same name another ID, with the same rating or where either game
    /// gives none. Two ratings that differ are two players who share a
    /// name, as in large opens.
    fn id_conflict(
        &mut self,
        game: &Seen<'_>,
        here: u32,
        (name, folded): (&str, u64),
        (id, elo): (u32, u16),
    ) -> Option<Finding> {
        if id == 0 {
            return None;
        }
        let event = self.events.back_mut()?;
        let player = event.spellings.get_mut(&folded)?;
        if player.id == 0 {
            player.id = id;
            player.elo = elo;
            if (player.file, player.number) != (here, game.number) {
                event.id_places.insert(folded, (here, game.number));
            }
            return None;
        }
        let (first, first_elo) = (player.id, player.elo);
        let (file, number) =
            (event.id_places.get(&folded).copied()).unwrap_or((player.file, player.number));
        if first == id {
            return None;
        }
        // Both players of one game: two people of one name, whose IDs
        // the event's later games may give without a finding.
        if (file, number) == (here, game.number) {
            event.ids_reported.insert((folded, id));
            return None;
        }
        // Two ratings: two people of one name, as large opens have.
        let two = first_elo != 0 && elo != 0 && first_elo != elo;
        let accepted = game.accepted.names(Kind::PlayerIdConflict);
        if two || !first_report(&mut event.ids_reported, (folded, id), accepted) {
            return None;
        }
        let where_ = place(&self.files, file, here, number);
        Some(Finding::new(
            Kind::PlayerIdConflict,
            game.line,
            format!(
                "'{name}' has FIDE ID {id} here ({}) and FIDE ID {first} in {where_} ({}), of the same event ('{}'): one name under two IDs (names folded: case, accents, punctuation, word order), and no two ratings to tell two players apart. One ID is wrong, or two players share the name and their games must be told apart; which is for the officer.",
                rating(elo),
                rating(first_elo),
                game.tags.get(Tag::Event).trim()
            ),
        ))
    }

    /// One player of a game: the finding when the ID was first seen with a
    /// name that folds otherwise.
    fn player(
        &mut self,
        game: &Seen<'_>,
        here: u32,
        (name, folded): (&str, u64),
        id: &str,
    ) -> Option<Finding> {
        let id = fide_id(id)?;
        let Some(&first) = self.first.get(&id) else {
            if self.full.is_none() && self.limit > 0 && self.bytes() > self.limit {
                self.full = Some(format!(
                    "the table of players' FIDE IDs reached its 16 MiB at game {} of {}: IDs first seen after it are not compared for names",
                    game.number, game.file
                ));
            }
            if self.full.is_none() {
                let name = keep(&mut self.names, name)?;
                let number = game.number;
                let first = First {
                    folded,
                    file: here,
                    number,
                    name,
                };
                self.first.insert(id, first);
            }
            return None;
        };
        let accepted = game.accepted.names(Kind::PlayerNameVariant);
        if first.folded == folded || !first_report(&mut self.reported, (id, folded), accepted) {
            return None;
        }
        let other = kept(&self.names, first.name);
        let where_ = place(&self.files, first.file, here, first.number);
        Some(Finding::new(
            Kind::PlayerNameVariant,
            game.line,
            format!(
                "FIDE ID {id} is '{}' here and '{other}' in {where_}, where it is first seen: names that differ however they are folded (case, accents, punctuation, word order). One player written two ways (an initial for a first name, another transliteration, a changed name) or a wrong ID; which is for the archive's keeper.",
                name.trim()
            ),
        ))
    }
}

impl Across for Identity {
    fn game(&mut self, game: &Seen<'_>, out: &mut Vec<Finding>) {
        let here = self.file(game.file);
        // Each player named (the workers folded the names of those who
        // are): the name as written, and folded.
        let named = [0, 1].map(|side| {
            let name = trim(game.tags.get(Tag::NAMES[side]));
            game.folded[side].map(|folded| (name, folded))
        });
        if named == [None, None] {
            return;
        }
        for (player, id) in named.iter().zip(Tag::FIDE_IDS.map(|t| game.tags.get(t))) {
            if let Some(player) = *player {
                out.extend(self.player(game, here, player, id));
            }
        }
        if self.event(game).is_some() {
            for (side, player) in named.into_iter().enumerate() {
                let Some(player) = player else { continue };
                let id = fide_id(game.tags.get(Tag::FIDE_IDS[side])).unwrap_or(0);
                let given = (id, elo(game.tags.get(Tag::ELOS[side])));
                out.extend(self.spelling(game, here, player, given));
                out.extend(self.id_conflict(game, here, player, given));
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
            why[0].contains("first 20000 of an event")
                && why[0].contains("in 1 events: 'Open' (1961)"),
            "{why:?}"
        );
        // Only the latest events are kept.
        for i in 0..EVENTS + 5 {
            let event = format!("Event {i}");
            assert!(messages(&mut identity, &in_event(&event, "1", 1, "A")).is_empty());
        }
        assert_eq!(identity.events.len(), EVENTS);
    }
}
