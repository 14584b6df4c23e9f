//! Rounds across a run: a player with two opponents in one round
//! (`player-twice-in-round`) and one round and board on two games
//! (`duplicate-board`).
//!
//! PGN writes a round as `R` or `R.S` (8.1.1.4: "1.5" is round 1,
//! sub-round 5), and sources use `S` two ways. Broadcasts and most
//! archives write round and board: `3.12` is board 12 of round 3 (the
//! FWWRC 2024 broadcast, TCEC's early leagues). Match series write round
//! and game: in a knockout `1.1`, `1.2`, `1.3` are the games of one pair's
//! mini-match in round 1 (`Russia Cup Final 2012` in TWIC 944), and a
//! gauntlet numbers all its games in round 1 (`TCEC Season 23 - Chess324
//! Testing`). The rule, decided game by game as the run reaches them:
//!
//! - A round (event, year and `R`; for a player, the site too) is a match series from the first time
//!   a pair that has met in it meets again under another `S`. Then `S`
//!   numbers games, not boards: no `duplicate-board`, and a player has one
//!   opponent in each `R.S`, not in each `R`.
//! - Otherwise `S` is a board: a player has one opponent in round `R`, and
//!   a board taken by another pair is a `duplicate-board` once the round
//!   has shown more than one board (a knockout listed game 1 of every pair
//!   first shows only `S` = 1 until its pairs meet again). That is said
//!   once a round: a broadcast that numbers two sections' boards each from
//!   1 doubles every board of every round (FWWRC 2024: 297 boards, 11
//!   rounds). The same pair twice under one number is said every time.
//! - A player met with the same colour by someone new to the event is
//!   giving a simultaneous display (`Carlsen vs chess.com`, Round "1" for
//!   all eleven games, Carlsen White in each) from the third such game, or
//!   from the second when the round so far is the player's alone: not
//!   reported. Two games in a round that others play in, a game with the
//!   other colour, or one against a player who has already played in the
//!   event, are.
//!
//! A player's latest game in a round is kept, and each game is compared
//! with the one before it.
//!
//! Everything is kept by event (its name and year), so that the tables
//! stay within a memory limit: past it, the events seen longest ago are
//! written to an anonymous temporary file whole and read back when a game
//! of theirs comes again, which gives the findings of a run that keeps
//! them all (`bench/ROUNDS-MEMORY.md`).

use super::check::Seen;
use crate::{
    finding::{Finding, Kind},
    read::hash::{ByHash, Fnv, Hashes},
    read::tags::Tag,
};

/// A hash of some strings after `seed`, letters folded to lower case:
/// 64 bits, without allocating (it runs for every game).
pub fn key(seed: u64, parts: &[&str]) -> u64 {
    let mut h = Fnv::new(seed);
    for part in parts {
        for b in part.bytes().chain([0xFF]) {
            h.byte(b.to_ascii_lowercase());
        }
    }
    let h = h.value();
    h ^ (h >> 29)
}

/// A tag value that says nothing: empty, `?` or `-`.
fn unknown(value: &str) -> bool {
    crate::checks::header::unknown(value.as_bytes())
}

/// Where a game is in the run: an input's index and its game number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The input's index in the run.
    pub file: u32,
    /// The game's number in that input.
    pub game: u64,
}

/// A board of a game: a hash of (round, `S`), of its round and of its
/// pair, and the texts its finding names.
#[derive(Debug, Clone, Copy)]
struct Board<'a> {
    key: u64,
    round: u64,
    pair: u64,
    full: &'a str,
    event: &'a str,
}

/// A player's latest game in a round.
#[derive(Debug, Clone, Copy)]
struct Seat {
    at: Place,
    /// A hash of the opponent's name.
    opponent: u64,
    /// A hash of the sub-round (`S` of `R.S`, 0 for none).
    sub: u64,
    white: bool,
    /// The player's games in the round so far.
    games: u32,
}

/// What a round has shown so far.
#[derive(Debug, Clone, Copy)]
struct Shape {
    first_sub: u64,
    /// More than one `S` seen.
    several: bool,
    /// A pair met again under another `S`: a match series.
    series: bool,
    /// Its games so far.
    games: u32,
    /// A `duplicate-board` of another pair said: the round's other
    /// doubled boards say nothing more.
    told: bool,
}

impl Shape {
    /// Whether a player whose latest game of the round is `seat`, now
    /// against `opponent` (hashed) with White or not, has two opponents in
    /// the round, by the rule in the module's head (`newcomer`: the
    /// opponent is new to the event). `sub`: this game's `S` (hashed);
    /// `round_games`: the round's games before it. A pair met again under
    /// another `S` makes the round a match series.
    fn twice(
        &mut self,
        seat: Seat,
        (opponent, white, newcomer): (u64, bool, impl FnOnce() -> bool),
        (sub, round_games): (Option<u64>, u32),
    ) -> bool {
        if seat.opponent == opponent {
            self.series |= seat.sub != sub.unwrap_or(0);
            return false;
        }
        if self.series {
            // Games of a match series: one opponent in each `R.S`.
            return sub.is_some_and(|sub| seat.sub == sub);
        }
        // A simultaneous display: the same colour, someone new, in a third
        // game or in a round of the player's alone (every game of the round
        // so far is the player's).
        let alone = seat.games >= round_games;
        !(seat.white == white && (seat.games >= 2 || alone) && newcomer())
    }
}

/// One event's rounds: everything decided about an event (its name and
/// year) is kept here, so that an event can be written to disk whole.
#[derive(Debug, Default)]
struct Event {
    /// By a hash of (round, site, player): the player's latest game there.
    seats: ByHash<Seat>,
    /// Who has played in the event (at its site), by a hash of
    /// (event, site, player).
    entrants: Hashes,
    /// By a hash of the round: event, year and `R`.
    shapes: ByHash<Shape>,
    /// By a hash of (round, `S`): the first game and a hash of its pair.
    boards: ByHash<(Place, u64)>,
    /// The run's count of games with a round when the event was last seen.
    last: u64,
}

/// Memory a hash table takes: its slots and a control byte each.
fn table_bytes<T>(capacity: usize) -> usize {
    capacity * (std::mem::size_of::<T>() + 1)
}

impl Event {
    /// The memory it takes, about.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Event>()
            + table_bytes::<(u64, Seat)>(self.seats.capacity())
            + table_bytes::<u64>(self.entrants.capacity())
            + table_bytes::<(u64, Shape)>(self.shapes.capacity())
            + table_bytes::<(u64, (Place, u64))>(self.boards.capacity())
    }

    /// Its tables as 64-bit words: each table's length, then its entries.
    fn to_words(&self) -> Vec<u64> {
        let mut words = vec![self.seats.len() as u64];
        for (&k, s) in &self.seats {
            let at = [u64::from(s.at.file), s.at.game];
            let white = u64::from(s.white) | u64::from(s.games) << 1;
            words.extend([k, at[0], at[1], s.opponent, s.sub, white]);
        }
        words.push(self.entrants.len() as u64);
        words.extend(&self.entrants);
        words.push(self.shapes.len() as u64);
        for (&k, s) in &self.shapes {
            let flags = u64::from(s.several) | u64::from(s.series) << 1 | u64::from(s.told) << 2;
            words.extend([k, s.first_sub, flags, u64::from(s.games)]);
        }
        words.push(self.boards.len() as u64);
        for (&k, &(at, pair)) in &self.boards {
            words.extend([k, u64::from(at.file), at.game, pair]);
        }
        words
    }

    /// The event `to_words` wrote.
    fn from_words(words: &[u64]) -> Event {
        let mut words = words.iter().copied();
        let mut next = || words.next().unwrap_or_default();
        let mut event = Event::default();
        for _ in 0..next() {
            let (k, file, game) = (next(), next(), next());
            let (opponent, sub, white) = (next(), next(), next());
            let seat = Seat {
                at: Place {
                    file: u32::try_from(file).unwrap_or(u32::MAX),
                    game,
                },
                opponent,
                sub,
                white: white & 1 != 0,
                games: u32::try_from(white >> 1).unwrap_or(u32::MAX),
            };
            event.seats.insert(k, seat);
        }
        for _ in 0..next() {
            event.entrants.insert(next());
        }
        for _ in 0..next() {
            let (k, first_sub, flags, games) = (next(), next(), next(), next());
            let shape = Shape {
                first_sub,
                several: flags & 1 != 0,
                series: flags & 2 != 0,
                told: flags & 4 != 0,
                games: u32::try_from(games).unwrap_or(u32::MAX),
            };
            event.shapes.insert(k, shape);
        }
        for _ in 0..next() {
            let (k, file, game) = (next(), next(), next());
            let file = u32::try_from(file).unwrap_or(u32::MAX);
            event.boards.insert(k, (Place { file, game }, next()));
        }
        event
    }
}

/// Events written to disk: an anonymous temporary file, and where each
/// event's words are in it.
#[derive(Debug, Default)]
struct Away {
    file: Option<std::fs::File>,
    /// By the event's key: its words' offset and count.
    at: ByHash<(u64, usize)>,
    /// The file's length, and the bytes of it still in use.
    end: u64,
    live: u64,
    /// Times the file was copied without the events read back.
    compactions: u32,
}

/// The bytes of events read back a file of events holds before it is
/// copied without them (when they are half of it, too).
const COMPACT_AT: u64 = if cfg!(test) { 4 << 10 } else { 64 << 20 };

impl Away {
    /// Writes an event's words at the end of the file.
    fn put(&mut self, key: u64, event: &Event) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom, Write};
        let words = event.to_words();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(tempfile::tempfile()?),
        };
        file.seek(SeekFrom::Start(self.end))?;
        file.write_all(&bytes)?;
        self.at.insert(key, (self.end, words.len()));
        self.end += bytes.len() as u64;
        self.live += bytes.len() as u64;
        Ok(())
    }

    /// Reads an event back, if it is on disk, and forgets it there.
    fn take(&mut self, key: u64) -> Option<std::io::Result<Event>> {
        let (offset, count) = self.at.remove(&key)?;
        self.live -= count as u64 * 8;
        Some(
            self.read(offset, count)
                .map(|words| Event::from_words(&words)),
        )
    }

    fn read(&mut self, offset: u64, count: usize) -> std::io::Result<Vec<u64>> {
        use std::io::{Read, Seek, SeekFrom};
        let file = self.file.as_mut().ok_or(std::io::ErrorKind::NotFound)?;
        let mut bytes = vec![0u8; count * 8];
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(&mut bytes)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
            .collect())
    }

    /// Copies the events still on disk to a new file once more than half
    /// of the file (and 64 MiB) is events read back since.
    fn compact(&mut self) -> std::io::Result<()> {
        if self.end - self.live < COMPACT_AT.max(self.live) {
            return Ok(());
        }
        let mut keys: Vec<(u64, (u64, usize))> = self.at.iter().map(|(&k, &v)| (k, v)).collect();
        keys.sort_unstable_by_key(|&(_, (offset, _))| offset);
        let mut fresh = Away {
            compactions: self.compactions + 1,
            ..Away::default()
        };
        for (key, (offset, count)) in keys {
            let event = Event::from_words(&self.read(offset, count)?);
            fresh.put(key, &event)?;
        }
        *self = fresh;
        Ok(())
    }
}

/// Every round of the run, as far as it has been read, by event (a hash of
/// its name and year). Past a memory limit, the events seen longest ago
/// are written to disk and read back when the event comes again, so the
/// findings are the same as with every event in memory.
#[derive(Debug, Default)]
pub struct Rounds {
    events: ByHash<Event>,
    /// Events on disk.
    away: Away,
    /// The memory `events` may take (0: no limit), and takes, about.
    limit: usize,
    bytes: usize,
    /// Games with a round seen.
    seen: u64,
    /// What kept the limit from being held, once: the disk failed (events
    /// then stay in memory, or one read back is started afresh), or one
    /// event alone took more than the limit (it stays in memory: the
    /// findings are never changed by the limit).
    pub trouble: Option<String>,
    /// Events kept in memory whatever the limit: each alone took more
    /// than the limit. Their bytes are left out of what the limit holds.
    pinned: Hashes,
    pinned_bytes: usize,
}

impl Rounds {
    /// Round tables that write events to disk past `limit` bytes (0:
    /// never).
    pub fn with_limit(limit: usize) -> Rounds {
        Rounds {
            limit,
            ..Rounds::default()
        }
    }

    /// Reads one game's place in its round; `place` names where an
    /// earlier game is ("game 3 of this file").
    pub fn see(
        &mut self,
        at: Place,
        game: &Seen<'_>,
        place: impl Fn(Place) -> String,
        out: &mut Vec<Finding>,
    ) {
        let event = game.tags.get(Tag::Event).trim();
        let round = game.tags.get(Tag::Round).trim();
        let round = round.split_once('.').map_or(round, |(r, _)| r);
        if unknown(round) || unknown(event) {
            return;
        }
        let year = game.tags.get(Tag::Date).trim().get(..4).unwrap_or_default();
        let id = key(0, &[event, year]);
        self.seen += 1;
        let entry = match self.events.entry(id) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                // Seen before and written to disk, or new.
                let back = match self.away.take(id) {
                    Some(Ok(back)) => back,
                    Some(Err(err)) => {
                        self.trouble
                            .get_or_insert_with(|| format!("the disk failed: {err}"));
                        Event::default()
                    }
                    None => Event::default(),
                };
                self.bytes += back.bytes();
                slot.insert(back)
            }
        };
        let before = entry.bytes();
        entry.see(at, game, place, out);
        entry.last = self.seen;
        let after = entry.bytes();
        self.bytes = (self.bytes + after).saturating_sub(before);
        if self.pinned.contains(&id) {
            self.pinned_bytes = (self.pinned_bytes + after).saturating_sub(before);
        }
        if self.limit > 0 && self.unpinned() > self.limit {
            self.make_room(id, event, year);
        }
    }

    /// The bytes the limit holds: those of the events not pinned.
    fn unpinned(&self) -> usize {
        self.bytes.saturating_sub(self.pinned_bytes)
    }

    /// Writes the events seen longest ago to disk until a quarter of the
    /// limit is free; the current one (`id`, named `event` and `year`)
    /// stays. One that alone takes more than the limit is pinned: kept in
    /// memory from then on, outside the limit (the first one said).
    fn make_room(&mut self, id: u64, event: &str, year: &str) {
        let mut by_age: Vec<(u64, u64)> = self
            .events
            .iter()
            .filter(|&(&k, _)| k != id && !self.pinned.contains(&k))
            .map(|(&k, e)| (e.last, k))
            .collect();
        by_age.sort_unstable();
        let goal = self.limit - self.limit / 4;
        for (_, key) in by_age {
            if self.unpinned() <= goal {
                break;
            }
            let Some(old) = self.events.remove(&key) else {
                continue;
            };
            match self.away.put(key, &old) {
                Ok(()) => self.bytes = self.bytes.saturating_sub(old.bytes()),
                Err(err) => {
                    self.trouble
                        .get_or_insert_with(|| format!("the disk failed: {err}"));
                    self.events.insert(key, old);
                    break;
                }
            }
        }
        if let Err(err) = self.away.compact() {
            self.trouble
                .get_or_insert_with(|| format!("the disk failed: {err}"));
        }
        let own = self.events.get(&id).map_or(0, Event::bytes);
        if own > self.limit {
            // Kept in memory, not written out and read back at every
            // change of event; the others are held to the limit still.
            self.pinned.insert(id);
            self.pinned_bytes += own;
            let limit = self.limit;
            self.trouble.get_or_insert_with(|| {
                format!(
                    "the rounds of '{event}' ({year}) took {own} bytes, more than the round tables' share of --memory-limit ({limit}) leaves them, so they are kept in memory (the findings are whole)"
                )
            });
        }
    }
}

impl Event {
    /// Reads one game of this event.
    fn see(
        &mut self,
        at: Place,
        game: &Seen<'_>,
        place: impl Fn(Place) -> String,
        out: &mut Vec<Finding>,
    ) {
        let event = game.tags.get(Tag::Event).trim();
        let full = game.tags.get(Tag::Round).trim();
        let (round, sub) = match full.split_once('.') {
            Some((round, sub)) => (round, Some(sub)),
            None => (full, None),
        };
        // An event's name comes back year after year, and generic names
        // ("It") are used in many places: a player's round is the event's
        // name, site and year. Boards are numbered across sites: one
        // event's broadcasts may write its site two ways (FWWRC 2024).
        let year = game.tags.get(Tag::Date).trim().get(..4).unwrap_or_default();
        let here = key(0, &[event, year, round]);
        let event_here = key(0, &[event, year, game.tags.get(Tag::Site).trim()]);
        let players_here = key(event_here, &[round]);
        let sub_hash = sub.map_or(0, |s| key(1, &[s]));
        let shape = self.shapes.entry(here).or_insert(Shape {
            first_sub: sub_hash,
            several: false,
            series: false,
            games: 0,
            told: false,
        });
        shape.several |= shape.first_sub != sub_hash;
        let round_games = shape.games;
        shape.games = shape.games.saturating_add(1);
        let (white, black) = (
            game.tags.get(Tag::White).trim(),
            game.tags.get(Tag::Black).trim(),
        );
        let players = [(white, black, true), (black, white, false)];
        // Each name hashed once: the opponent of player i is name 1 - i.
        let names = [key(0, &[white]), key(0, &[black])];
        let seats = players.map(|(player, _, _)| {
            (!unknown(player))
                .then(|| self.seats.get(&key(players_here, &[player])).copied())
                .flatten()
        });
        let entrants = &self.entrants;
        let twice = [0, 1].map(|i| {
            let (_, opponent, white) = players[i];
            // New to the event, not only to the round: by round 3 of a
            // tournament every player has been seen.
            let newcomer =
                || unknown(opponent) || !entrants.contains(&key(event_here, &[opponent]));
            seats[i].is_some_and(|seat| {
                let now = (names[1 - i], white, newcomer);
                shape.twice(seat, now, (sub.map(|_| sub_hash), round_games))
            })
        });
        let shape = *shape;
        for (i, &(player, _, white)) in players.iter().enumerate() {
            if unknown(player) {
                continue;
            }
            self.entrants.insert(key(event_here, &[player]));
            self.seats.insert(
                key(players_here, &[player]),
                Seat {
                    at,
                    opponent: names[1 - i],
                    sub: sub_hash,
                    white,
                    games: seats[i].map_or(1, |seat| seat.games.saturating_add(1)),
                },
            );
            if let (true, Some(seat)) = (twice[i], seats[i]) {
                let which = if shape.series { full } else { round };
                let earlier = place(seat.at);
                out.push(Finding::new(
                    Kind::PlayerTwiceInRound,
                    game.line,
                    format!(
                        "{player} plays in round {which} of '{event}' here and in {earlier}, against another opponent; a player has one opponent a round, so one of the two games is labelled wrong."
                    ),
                ));
            }
        }
        if let Some(sub) = sub {
            let board = Board {
                key: key(!here, &[sub]),
                round: here,
                pair: names[0] ^ names[1],
                full,
                event,
            };
            self.board(at, game.line, &board, shape, place, out);
        }
    }

    /// A board (`R.S`) taken twice: by the same pair whatever `S` means,
    /// by another pair when `S` is a board (said once a round: a source
    /// that numbers two sections' boards each from 1 doubles them all).
    fn board(
        &mut self,
        at: Place,
        line: u64,
        board: &Board<'_>,
        shape: Shape,
        place: impl Fn(Place) -> String,
        out: &mut Vec<Finding>,
    ) {
        let Board {
            key: board,
            round,
            pair,
            full,
            event,
        } = *board;
        let Some(&(first, first_pair)) = self.boards.get(&board) else {
            self.boards.insert(board, (at, pair));
            return;
        };
        // The same pair twice under one number is wrong whatever `S`
        // means; another pair is wrong only if `S` is a board.
        let message = if first_pair == pair {
            let earlier = place(first);
            format!(
                "Round {full} of '{event}' is also {earlier}; sources that number boards each from 1 (team matches, merged broadcasts) give two games one number, so match games by players, not by board."
            )
        } else if shape.several && !shape.series && !shape.told {
            if let Some(shape) = self.shapes.get_mut(&round) {
                shape.told = true;
            }
            let number = full.split_once('.').map_or(full, |(r, _)| r);
            let earlier = place(first);
            format!(
                "Round {full} of '{event}' is also {earlier}; sources that number boards each from 1 (team matches, merged broadcasts) give two games one number, so match games by players, not by board. Other boards of round {number} taken by another pair are not reported."
            )
        } else {
            return;
        };
        out.push(Finding::new(Kind::DuplicateBoard, line, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::game::TagValues;

    /// The findings of game `game` of event `event` (site Town, 2024),
    /// seen by `rounds`.
    fn see(
        rounds: &mut Rounds,
        game: u64,
        event: &str,
        round: &str,
        players: [&str; 2],
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        rounds.see(
            Place { file: 0, game },
            &Seen {
                line: game,
                tags: TagValues::of(&[
                    (Tag::Event, event),
                    (Tag::Site, "Town"),
                    (Tag::Date, "2024.01.01"),
                    (Tag::Round, round),
                    (Tag::White, players[0]),
                    (Tag::Black, players[1]),
                ]),
                ..Seen::pairing(["", ""], "", "", [""; 6])
            },
            |p| format!("game {}", p.game),
            &mut out,
        );
        out
    }

    /// The codes each game gets, games given as (round, white, black).
    fn codes(games: &[(&str, &str, &str)]) -> Vec<Vec<&'static str>> {
        let mut rounds = Rounds::default();
        (1..)
            .zip(games)
            .map(|(game, &(round, white, black))| {
                let out = see(&mut rounds, game, "Open", round, [white, black]);
                out.iter().map(|f| f.kind.code()).collect()
            })
            .collect()
    }

    #[test]
    fn a_player_with_two_opponents_in_a_round_is_reported() {
        let found = codes(&[("1.1", "A", "B"), ("1.2", "C", "D"), ("1.3", "D", "A")]);
        assert_eq!(found[2], ["player-twice-in-round", "player-twice-in-round"]);
    }

    #[test]
    fn a_knockout_listed_by_game_is_no_board_twice() {
        // Game 1 of each pair, then game 2 with colours reversed.
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.1", "C", "D"),
            ("1.2", "B", "A"),
            ("1.2", "D", "C"),
            ("1.3", "A", "B"),
        ]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
    }

    #[test]
    fn a_gauntlet_numbering_its_games_is_no_player_twice() {
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.2", "B", "A"),
            ("1.3", "A", "C"),
            ("1.4", "C", "A"),
            ("1.5", "D", "A"),
        ]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        // In a series, one player in two games of one `R.S` still is.
        let found = codes(&[("1.1", "A", "B"), ("1.2", "B", "A"), ("1.2", "A", "C")]);
        assert_eq!(found[2], ["player-twice-in-round"]);
    }

    #[test]
    fn boards_numbered_from_one_twice_are_a_duplicate_board() {
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.2", "C", "D"),
            ("1.1", "E", "F"),
            ("1.2", "G", "H"),
        ]);
        assert_eq!(found[2], ["duplicate-board"]);
        // Said once a round: the round's boards are numbered twice.
        assert!(found[3].is_empty(), "{found:?}");
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.2", "C", "D"),
            ("1.1", "E", "F"),
            ("2.1", "A", "C"),
            ("2.2", "B", "D"),
            ("2.2", "E", "F"),
        ]);
        assert_eq!(found[2], ["duplicate-board"]);
        assert_eq!(found[5], ["duplicate-board"], "another round says it again");
        // The same pair twice under one number is said every time.
        let found = codes(&[
            ("1.1", "A", "B"),
            ("1.2", "C", "D"),
            ("1.1", "E", "F"),
            ("1.2", "C", "D"),
        ]);
        assert_eq!(found[3], ["duplicate-board"]);
    }

    #[test]
    fn the_duplicate_board_of_a_round_says_the_others_are_not_said() {
        let mut rounds = Rounds::default();
        let mut last = Vec::new();
        for (game, (round, white, black)) in
            (1..).zip([("3.1", "A", "B"), ("3.2", "C", "D"), ("3.1", "E", "F")])
        {
            last = see(&mut rounds, game, "Open", round, [white, black]);
        }
        let message = &last[0].message;
        assert!(message.contains("is also game 1"), "{message}");
        assert!(
            message.contains("Other boards of round 3 taken by another pair are not reported"),
            "{message}"
        );
    }

    #[test]
    fn a_simultaneous_display_is_not_a_player_twice() {
        let found = codes(&[("1", "M", "A"), ("1", "M", "B"), ("1", "M", "C")]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        // The other colour, or an opponent who has played in the round, is.
        let found = codes(&[("1", "M", "A"), ("1", "B", "M")]);
        assert_eq!(found[1], ["player-twice-in-round"]);
        let found = codes(&[("1", "M", "A"), ("1", "C", "B"), ("1", "M", "B")]);
        assert_eq!(found[2], ["player-twice-in-round", "player-twice-in-round"]);
        // Someone who played an earlier round is not new to the event.
        let found = codes(&[("1", "B", "C"), ("2", "M", "A"), ("2", "M", "B")]);
        assert_eq!(found[2], ["player-twice-in-round"]);
        // Two games in a round others play in are no display: it takes a
        // third game, or a round of the player's alone.
        let found = codes(&[
            ("1", "X", "Y"),
            ("1", "M", "A"),
            ("1", "M", "B"),
            ("1", "M", "C"),
        ]);
        assert_eq!(found[2], ["player-twice-in-round"]);
        assert!(found[3].is_empty(), "{found:?}");
    }

    #[test]
    fn sub_rounds_of_one_player_are_not_told_from_a_round_written_wrong() {
        // An event of one human's games against machines, round 7 in
        // sub-rounds 1 and 2 (PGN 8.1.1.4), reads as a player's collection
        // with a game filed under the wrong round: both are reported.
        let found = codes(&[
            ("6.1", "E1", "H"),
            ("6.2", "H", "E2"),
            ("7.1", "H", "E1"),
            ("7.2", "E2", "H"),
        ]);
        assert_eq!(found[1], ["player-twice-in-round"]);
        assert_eq!(found[3], ["player-twice-in-round"]);
    }

    /// The findings of games drawn at random from interleaved events,
    /// with round tables limited to `limit` bytes.
    fn random_run(limit: usize) -> (Vec<String>, Rounds) {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut rounds = Rounds::with_limit(limit);
        let mut found = Vec::new();
        for game in 1..=4000 {
            let event = format!("Open {}", next(40));
            let round = format!("{}.{}", next(4) + 1, next(6) + 1);
            let (white, black) = (format!("P{}", next(14)), format!("P{}", next(14)));
            let out = see(&mut rounds, game, &event, &round, [&white, &black]);
            found.extend(out.iter().map(|f| format!("{}: {}", game, f.message)));
        }
        (found, rounds)
    }

    #[test]
    fn events_written_to_disk_give_the_same_findings() {
        let (all, kept) = random_run(0);
        assert!(kept.away.at.is_empty());
        assert!(all.len() > 100, "{}", all.len());
        let (limited, spilled) = random_run(16 << 10);
        assert!(!spilled.away.at.is_empty(), "nothing was written to disk");
        assert!(spilled.away.compactions > 0);
        assert!(spilled.bytes <= 16 << 10);
        assert_eq!(spilled.trouble, None);
        assert_eq!(all, limited);
    }

    /// Issue 56: an event that alone takes more than the limit stays in
    /// memory, said so; the findings are those of no limit.
    #[test]
    fn an_event_bigger_than_the_limit_is_said_and_kept() {
        let (all, _) = random_run(0);
        let (limited, rounds) = random_run(1 << 10);
        let why = rounds.trouble.as_deref().expect("the limit is not held");
        assert!(why.contains("kept in memory"), "{why}");
        assert_eq!(all, limited);
        // Kept in memory, not written out at every change of event.
        assert!(!rounds.pinned.is_empty());
        for id in &rounds.pinned {
            assert!(rounds.events.contains_key(id));
            assert!(!rounds.away.at.contains_key(id));
        }
    }

    #[test]
    fn the_limit_holds_the_other_events_once_one_is_pinned() {
        let run = |limit| {
            let mut rounds = Rounds::with_limit(limit);
            let mut found = Vec::new();
            let mut game = 0;
            for i in 0..600u64 {
                // One event of every game's players, and small ones.
                let (event, players) = if i % 2 == 0 {
                    ("Big".to_owned(), [format!("P{i}"), format!("Q{i}")])
                } else {
                    (format!("Small {i}"), ["A".to_owned(), "B".to_owned()])
                };
                game += 1;
                let out = see(&mut rounds, game, &event, "1", [&players[0], &players[1]]);
                found.extend(out.iter().map(|f| format!("{game}: {}", f.message)));
            }
            (found, rounds)
        };
        let (all, _) = run(0);
        let limit = 8 << 10;
        let (limited, rounds) = run(limit);
        assert_eq!(all, limited);
        assert_eq!(rounds.pinned.len(), 1, "only the big event is pinned");
        assert!(!rounds.away.at.is_empty(), "no small event was written out");
        assert!(rounds.unpinned() <= limit, "{}", rounds.unpinned());
        let big = rounds.events.values().map(Event::bytes).max().unwrap_or(0);
        assert_eq!(rounds.pinned_bytes, big);
        assert!(big > limit);
    }

    #[test]
    fn a_pair_meeting_twice_in_a_round_plays_a_match() {
        let found = codes(&[("1", "A", "B"), ("1", "B", "A")]);
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
    }
}
