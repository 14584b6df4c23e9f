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

use super::rounds::key;
use super::{
    check::{Across, Seen, trim},
    duplicates::place,
};
use crate::{
    finding::{Finding, Kind},
    read::game::{folded_key, folded_name_hash, given_names},
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
    /// The input of the event's first spelling, and whether another
    /// input has given one since.
    input: Option<u32>,
    mixed: bool,
    /// By surname and initial ([`initialled`]), once `mixed`: the forms
    /// of its name.
    forms: HashMap<u64, Forms>,
    /// Spellings (folded) of an initial pair whose report a game's
    /// comments left out, with the other spelling: the next game gives it.
    pending: Vec<(u64, u64)>,
}

/// The names of an event that share a surname and an initial: the first
/// written in full (folded, its first given word hashed, and its input),
/// the first written with initials only (folded, and its input), and
/// whether they are two players: two given names that differ (`Polgar,
/// Susan` and `Polgar, Sofia`), or two forms from one input (a source
/// that writes a name two ways has two players).
#[derive(Debug, Default, Clone, Copy)]
struct Forms {
    full: (u64, u32),
    word: u64,
    initial: (u64, u32),
    two: bool,
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

/// A name written `Surname, Given` ([`given_names`]): its surname and the
/// initial of its given names (hashed), its first given word (hashed), and
/// whether every given word is an initial.
fn initialled(name: &str) -> Option<(u64, u64, bool)> {
    let (surname, given) = given_names(name)?;
    let surname = folded_key(folded_name_hash(surname.as_bytes()));
    let initial = [given.initial];
    let initial = std::str::from_utf8(&initial).unwrap_or_default();
    Some((key(surname, &[initial]), given.word, given.initials_only))
}

/// Adds a spelling (`name`, `folded`) to an event's forms: the spelling
/// it pairs with, if any.
fn add_form(
    forms: &mut HashMap<u64, Forms>,
    name: &str,
    (folded, input): (u64, u32),
) -> Option<u64> {
    let (short, word, initial) = initialled(name)?;
    let forms = forms.entry(short).or_default();
    let (mine, theirs) = if initial {
        (&mut forms.initial, forms.full)
    } else {
        (&mut forms.full, forms.initial)
    };
    if mine.0 == 0 {
        *mine = (folded, input);
        if !initial {
            forms.word = word;
        }
    } else if mine.0 != folded {
        // Two spellings of one form: two players when one input gives
        // both, or two given names that differ.
        forms.two |= mine.1 == input || (!initial && forms.word != word);
    }
    forms.two |= theirs.0 != 0 && theirs.1 == input;
    let other = theirs.0;
    (!forms.two && other != 0 && other != folded).then_some(other)
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
        let key = key(0x1E, &[event, year]);
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
    ) -> (Option<Finding>, bool) {
        let number = game.number;
        let Some(event) = self.events.back_mut() else {
            return (None, false);
        };
        let Some(&player) = event.spellings.get(&folded) else {
            if event.spellings.len() < EVENT_PLAYERS
                && let Some((name_start, name_len)) = keep(&mut event.names, name)
            {
                let player = Player {
                    name_start,
                    name_len,
                    elo,
                    file: here,
                    id,
                    number,
                };
                event.spellings.insert(folded, player);
                return (None, true);
            } else if !event.full {
                event.full = true;
                let year = game.tags.get(Tag::Date).trim().get(..4).unwrap_or("?");
                self.crowded
                    .push(format!("'{}' ({year})", game.tags.get(Tag::Event).trim()));
            }
            return (None, false);
        };
        let other = kept(&event.names, (player.name_start, player.name_len));
        // Both players of one game: two people whose names fold alike.
        let same_game = (player.file, player.number) == (here, number);
        let accepted = game.accepted.names(Kind::PlayerNameVariant);
        if other == name
            || same_game
            || !first_report(&mut event.reported, (folded, name.to_owned()), accepted)
        {
            return (None, false);
        }
        let other = other.to_owned();
        let where_ = place(&self.files, player.file, here, player.number);
        let found = Finding::new(
            Kind::PlayerNameVariant,
            game.line,
            format!(
                "'{name}' here is written '{other}' in {where_}, of the same event ('{}'): one name written two ways (they fold alike: case, accents, punctuation, word order); one spelling serves the archive.",
                game.tags.get(Tag::Event).trim()
            ),
        );
        (Some(found), false)
    }

    /// One player's name in the game's event (the last of `events`) with
    /// initials for its given names where the event has it in full, or
    /// the other way round (`Carlsen,M` and `Carlsen, Magnus` at Bilbao
    /// 2010): one player written two ways, reported once, when the two
    /// come from different inputs (one source that writes both has two
    /// players: TWIC 920's `Mihajlov,S` and `Mihajlov,Sebastian` play in
    /// the same rounds), no input gives two forms, no other given name of
    /// the event read so far starts with the initial, and no FIDE IDs or
    /// ratings tell them apart (one ID is the ID's finding). Looked for
    /// when the event first sees a spelling (`new`).
    fn initials(
        &mut self,
        game: &Seen<'_>,
        here: u32,
        (name, folded): (&str, u64),
        (id, elo, new): (u32, u16, bool),
    ) -> Option<Finding> {
        let event = self.events.back_mut()?;
        let waiting = event.pending.iter().position(|&(f, _)| f == folded);
        let other = match waiting {
            Some(at) => event.pending.swap_remove(at).1,
            None if !new => return None,
            // The forms are kept from the event's second input on: an
            // event read from one input has no pair to report.
            None if event.input.is_none_or(|input| input == here) && !event.mixed => {
                event.input = Some(here);
                return None;
            }
            None => {
                if !std::mem::replace(&mut event.mixed, true) {
                    let mut earlier: Vec<(&Player, u64)> = (event.spellings.iter())
                        .filter(|&(&f, _)| f != folded)
                        .map(|(&f, player)| (player, f))
                        .collect();
                    // In the order they came (the two of one game by name).
                    earlier.sort_unstable_by_key(|&(p, f)| (p.file, p.number, f));
                    for (player, f) in earlier {
                        let name = kept(&event.names, (player.name_start, player.name_len));
                        add_form(&mut event.forms, name, (f, player.file));
                    }
                }
                add_form(&mut event.forms, name, (folded, here))?
            }
        };
        let first = *event.spellings.get(&other)?;
        let apart = |a: u32, b: u32| a != 0 && b != 0 && a != b;
        // One FIDE ID: the ID's own finding names the two spellings.
        let one_id = id != 0 && first.id == id;
        if first.file == here
            || one_id
            || apart(first.id, id)
            || apart(first.elo.into(), elo.into())
        {
            return None;
        }
        let other_name = kept(&event.names, (first.name_start, first.name_len)).to_owned();
        // Left out by the game's comments: the next game gives it.
        if game.accepted.names(Kind::PlayerNameVariant) {
            event.pending.push((folded, other));
        }
        let where_ = place(&self.files, first.file, here, first.number);
        Some(Finding::new(
            Kind::PlayerNameVariant,
            game.line,
            format!(
                "'{name}' here is written '{other_name}' in {where_}, of the same event ('{}'): initials for a given name in one input and the name in full in another, where no other player of the event has that surname and initial and no FIDE ID or rating tells them apart; one spelling serves the archive.",
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
                let (found, new) = self.spelling(game, here, player, given);
                out.extend(found);
                let waiting = self.events.back().is_some_and(|e| !e.pending.is_empty());
                if new || waiting {
                    out.extend(self.initials(game, here, player, (given.0, given.1, new)));
                }
                out.extend(self.id_conflict(game, here, player, given));
            }
        }
    }
}

#[cfg(test)]
mod tests;
