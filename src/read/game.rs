//! One game as read from the input, before any chess: its tags, where it
//! is, and the located movetext; plus decoding of tag values to text.

use std::borrow::Cow;

use shakmaty::san::San;

use crate::read::{
    hash::{Fnv, fmix64_half, lanes, lanes_bytes, lanes_finish},
    lexer::{Lexed, StopKind, is_token_end},
    tags::{REPORTED, Tag, Tags, Variant, variant},
};

/// A name folded for matching: transliterated to ASCII, lower case,
/// `ae`/`oe`/`ue` as the letters they stand for, its words sorted (so that
/// "Müller, Jan" and "Jan Mueller" are one name, and "Harrwitz Daniel" and
/// "Harrwitz, Daniel"), and a title left out when two other words remain
/// ("Karpov, Anatoly GM" is "Karpov, Anatoly"). `Jr.` and `Sr.` stay: they
/// tell a father from a son ("Bazant,P sr" and "Bazant,P jr" in one team
/// championship).
pub fn fold_name(name: &str) -> String {
    // A control character parts words, as `folded_name_hash` reads it
    // (deunicode drops some).
    let name: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let ascii = deunicode::deunicode(&name).to_ascii_lowercase();
    let ascii = ascii
        .replace("ae", "a")
        .replace("oe", "o")
        .replace("ue", "u");
    let mut words: Vec<&str> = ascii
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let titles = words.iter().filter(|w| is_title(w.as_bytes())).count();
    if words.len() - titles >= 2 {
        words.retain(|w| !is_title(w.as_bytes()));
    }
    words.sort_unstable();
    words.join(" ")
}

/// A word that tells a father from a son (folded): `Jr.`, `Sr.`, `II`,
/// `III`, `IV`.
fn is_family(word: &[u8]) -> bool {
    matches!(word, b"jr" | b"sr" | b"ii" | b"iii" | b"iv")
}

/// A word written before a given name that is none (folded, its first
/// three letters): `Dr.`, `Prof.`.
fn is_honorific(word: &[u8]) -> bool {
    matches!(word, b"dr" | b"pro")
}

/// A word of a name that is no part of it (folded): a FIDE or national
/// title, which sources write beside the name or leave out. Not `WIM`,
/// which is also a Dutch first name ("De Kok Wim").
pub fn is_title(word: &[u8]) -> bool {
    matches!(
        word,
        b"gm" | b"im" | b"fm" | b"cm" | b"nm" | b"wgm" | b"wfm" | b"wcm"
    )
}

/// A name [`folded_name_hash`] folded, as one 64-bit key (what the
/// run-wide checks compare players by).
pub fn folded_key((sum, count): (u64, u64)) -> u64 {
    sum ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A name as `fold_name` folds it, hashed for the fingerprint: its words
/// as a multiset (the sum of their hashes, and their count), as
/// `fold_name` sorts them.
pub fn folded_name_hash(name: &[u8]) -> (u64, u64) {
    name_hashes(name).0
}

/// A name's hashes for the fingerprint: as folded ([`folded_name_hash`]),
/// and, for a name written `Surname, Given`, by its surname and the
/// initial of its first given name, hashed as `Surname, I` folds
/// (`Carlsen, Magnus` and `Carlsen,M` are one), with a hash of the given
/// word the initial is of (`Magnus`: two names in full are one player
/// where it is the same). The second is `None` without a comma or a given
/// name, with `Jr.` or `Sr.` (a father and a son), and where it is the
/// first. An ASCII name is read once, without allocating (it runs for
/// every game); others go through `fold_name`.
pub fn name_hashes(name: &[u8]) -> ((u64, u64), Option<ByInitials>) {
    if !name.is_ascii() {
        let mut words = (0u64, 0u64);
        for word in fold_name(&decode(name).0)
            .split(' ')
            .filter(|w| !w.is_empty())
        {
            let mut hash = Fnv::default();
            word.bytes().for_each(|b| hash.byte(b));
            words = (words.0.wrapping_add(fmix64_half(hash.value())), words.1 + 1);
        }
        let short = name.contains(&b',').then(|| {
            let ascii = deunicode::deunicode(&decode(name).0);
            ascii_name_hashes(ascii.as_bytes()).1
        });
        return (words, short.flatten().filter(|short| short.0 != words));
    }
    ascii_name_hashes(name)
}

/// A name read by its surname and initial ([`name_hashes`]), and a hash of
/// the given word the initial is of.
pub type ByInitials = ((u64, u64), u64);

/// [`name_hashes`] of an ASCII name. Lower case, and `replace("ae", "a")`,
/// then "oe", then "ue", in one pass: no pass can make or break a pair
/// another one matches. A word's first three letters tell a title.
fn ascii_name_hashes(name: &[u8]) -> ((u64, u64), Option<ByInitials>) {
    // Words and titles apart, until it is known whether two other words
    // remain; the surname's, at the first comma.
    let (mut words, mut titles) = ((0u64, 0u64), (0u64, 0u64));
    let (mut surname, mut commas) = (None, 0);
    let (mut initial, mut family) = (None::<(u8, u64)>, false);
    let mut word = Fnv::default();
    let (mut head, mut len) = ([0u8; 3], 0usize);
    let mut bytes = name.iter();
    loop {
        let b = bytes.next();
        let c = b.map_or(0, |&b| FOLDED[usize::from(b)]);
        if c == 0 {
            if len > 0 {
                let title = len <= 3 && is_title(&head[..len]);
                family |= len <= 3 && is_family(&head[..len]);
                let given = surname.is_some() && initial.is_none();
                let hash = std::mem::take(&mut word).value();
                if given && !title && !(len <= 4 && is_honorific(&head[..len.min(3)])) {
                    initial = Some((head[0], hash));
                }
                let to = if title { &mut titles } else { &mut words };
                to.0 = to.0.wrapping_add(fmix64_half(hash));
                to.1 += 1;
                len = 0;
            }
            match b {
                None => break,
                Some(b',') => {
                    commas += 1;
                    surname = surname.or(Some((words, titles)));
                }
                Some(_) => {}
            }
            continue;
        }
        word.byte(c);
        if let Some(slot) = head.get_mut(len) {
            *slot = c;
        }
        len += 1;
        if matches!(c, b'a' | b'o' | b'u')
            && bytes.as_slice().first().is_some_and(|&n| n | 0x20 == b'e')
        {
            bytes.next();
        }
    }
    let with_titles = |(words, titles): ((u64, u64), (u64, u64))| {
        if words.1 < 2 {
            (words.0.wrapping_add(titles.0), words.1 + titles.1)
        } else {
            words
        }
    };
    let folded = with_titles((words, titles));
    // One comma, a surname before it, and a given name that starts with
    // a letter: `Carlsen, Magnus, NOR`, a consultation's two names,
    // `, Magnus` and `Player, 12` have no reading by initials.
    let read = !family
        && commas == 1
        && surname.is_some_and(|(words, titles): ((u64, u64), (u64, u64))| words.1 + titles.1 > 0)
        && initial.is_some_and(|(i, _)| i.is_ascii_alphabetic());
    let short = surname
        .zip(initial)
        .filter(|_| read)
        .map(|((words, titles), (i, given))| {
            let mut initial = Fnv::default();
            initial.byte(i);
            let words = (
                words.0.wrapping_add(fmix64_half(initial.value())),
                words.1 + 1,
            );
            (with_titles((words, titles)), given)
        });
    (folded, short.filter(|short| short.0 != folded))
}

/// The given names of a name written `Surname, Given`, as the run-wide
/// checks compare them: the first given word's initial (folded to lower
/// case), a hash of that word, and whether every given word is an initial
/// (`Kortchnoi, V. L`); with the surname as written. Titles are no given
/// names. `None` without a comma or a given name, and with `Jr.` or `Sr.`
/// (a father and a son). An ASCII name is read without allocating.
pub fn given_names(name: &str) -> Option<(&str, Given)> {
    let (surname, given) = name.split_once(',')?;
    let given = deunicode::deunicode_with_tofu_cow(given, "[?]");
    fn words(text: &str) -> impl Iterator<Item = &str> {
        let split = text.split(|c: char| !c.is_ascii_alphanumeric());
        split.filter(|w| !w.is_empty())
    }
    // A short word in lower case, tested.
    let short = |w: &str, test: fn(&[u8]) -> bool| {
        let mut lower = [0u8; 3];
        lower
            .iter_mut()
            .zip(w.bytes())
            .for_each(|(l, b)| *l = b.to_ascii_lowercase());
        w.len() <= 3 && test(&lower[..w.len()])
    };
    let family = |w: &str| short(w, is_family);
    let title = |w: &&str| short(w, is_title);
    if words(surname).any(family) || words(&given).any(family) {
        return None;
    }
    let honorific = |w: &&str| w.len() <= 4 && short(&w[..w.len().min(3)], is_honorific);
    let mut given = words(&given).filter(|w| !title(w) && !honorific(w));
    let first = given.next()?;
    let mut word = Fnv::default();
    first
        .bytes()
        .for_each(|b| word.byte(b.to_ascii_lowercase()));
    let given = Given {
        initial: first.as_bytes()[0].to_ascii_lowercase(),
        word: word.value(),
        initials_only: first.len() == 1 && given.all(|w| w.len() == 1),
    };
    Some((surname, given))
}

/// What [`given_names`] reads of a name's given names.
#[derive(Debug, Clone, Copy)]
pub struct Given {
    /// The first given word's first letter, in lower case.
    pub initial: u8,
    /// A hash of the first given word, in lower case.
    pub word: u64,
    /// Whether every given word is one letter.
    pub initials_only: bool,
}

/// Each ASCII byte as a name's word holds it: letters in lower case,
/// digits as they are; 0 for the bytes between words.
const FOLDED: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = (b as u8).to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            table[b] = c;
        }
        b += 1;
    }
    table
};

/// Decodes a tag value: UTF-8 when it is, else Windows-1252 (what non-UTF-8
/// PGN files almost always are; PGN 4.1 names ISO 8859-1, its subset).
/// Returns the text and whether it was valid UTF-8.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), true),
        Err(_) => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            (text, false)
        }
    }
}

/// Decodes bytes for a message, shortened to `max` characters.
pub fn excerpt(bytes: &[u8], max: usize) -> String {
    let (text, _) = decode(bytes);
    let text = text.trim_end_matches(['\r', '\n']);
    if text.chars().count() > max {
        let mut short: String = text.chars().take(max).collect();
        short.push('…');
        short
    } else {
        text.to_owned()
    }
}

/// Which recipe [`RawGame::fingerprint`] follows, in the JSON summary
/// (`game_id_scheme`): raised whenever the same game would get another
/// `game_id`, so that reports and baselines of two builds can tell whether
/// their ids compare.
pub const GAME_ID_SCHEME: u32 = 4;

/// White's and Black's names folded, and by initials when that differs
/// ([`RawGame::players`]).
pub type NamesRead = (
    [Option<(u64, u64)>; 2],
    Option<([Option<(u64, u64)>; 2], InFull)>,
);

/// White's and Black's names where a reading by initials changed them: a
/// tag of the given word each such name's initial is of (1 to 63, from
/// its hash: `Blackburne, Joseph H` and `Blackburne, Joseph Henry` have
/// one), 0 for a name as written.
pub type InFull = [u8; 2];

/// One game, borrowed from the reader's buffers.
#[derive(Debug)]
pub struct RawGame<'a> {
    /// The game's bytes, from its first tag to the start of the next game.
    pub bytes: &'a [u8],
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// Tag pairs as pgn-reader read them.
    pub tags: &'a Tags,
    /// Located lines, malformed tags and mainline tokens.
    pub lexed: &'a Lexed,
    /// Whether the game before ended only because this game's first tag
    /// repeats one of its names (header-only games): tags written before
    /// that tag would join the two games.
    pub after_tag_break: bool,
}

impl RawGame<'_> {
    /// The line of the tag at this index (as [`Tags::find`] returns it), or
    /// the game's first line.
    pub fn tag_line(&self, index: usize) -> u64 {
        self.lexed
            .tag_lines
            .get(index)
            .copied()
            .unwrap_or(self.line)
    }

    /// The text of the byte range, for messages and the `san` column.
    pub fn text(&self, start: usize, end: usize) -> String {
        excerpt(self.bytes.get(start..end).unwrap_or_default(), 60)
    }

    /// A 128-bit fingerprint of the game as recorded, for finding duplicates
    /// and the `game_id` column (`GAME_ID_SCHEME` says which recipe):
    /// the players (White and Black, their names folded as `fold_name`
    /// folds them), the starting position (the FEN tag, if any) and the
    /// variant (the Variant tag, when it names another than standard
    /// chess), the
    /// first `played` mainline moves as the replay resolved them (`moves`,
    /// [`Replay::moves`]: `Nf3`, `Ng1f3` and `Ngf3` are one move), the rest
    /// as read, and from the first token that is no move to the end of the
    /// movetext, every token as written (comments, variations, NAGs and
    /// move numbers aside). `None` when there is no move or neither player
    /// is named: nothing tells two such games apart.
    ///
    /// [`Replay::moves`]: crate::board::replay::Replay::moves
    pub fn fingerprint(&self, played: usize, moves: u128) -> Option<u128> {
        self.fingerprint_with(played, moves, self.players_folded())
    }

    /// White's and Black's names as [`folded_name_hash`] folds them, each
    /// `None` when the tag is missing or says nobody (empty, `?`, `-`).
    pub fn players_folded(&self) -> [Option<(u64, u64)>; 2] {
        self.players().0
    }

    /// White's and Black's names as [`name_hashes`] reads them: folded, as
    /// [`players_folded`](Self::players_folded), and, when that changes
    /// either name, both with each name written `Surname, Given` read by
    /// its surname and initial, and a tag of each name so read
    /// ([`InFull`]).
    pub fn players(&self) -> NamesRead {
        let names = ["White", "Black"].map(|tag| {
            self.tags
                .get(tag)
                .map(<[u8]>::trim_ascii)
                .filter(|v| !matches!(*v, b"" | b"?" | b"-"))
                .map(name_hashes)
        });
        let folded = names.map(|name| name.map(|(folded, _)| folded));
        let full = names.map(|name| match name {
            Some((_, Some((_, given)))) => (given % 63) as u8 + 1,
            _ => 0,
        });
        let short = names.map(|name| name.map(|(folded, short)| short.map_or(folded, |s| s.0)));
        (folded, (full != [0, 0]).then_some((short, full)))
    }

    /// [`fingerprint`](Self::fingerprint), with the players' names as
    /// [`players_folded`](Self::players_folded) gave them.
    pub fn fingerprint_with(
        &self,
        played: usize,
        moves: u128,
        folded: [Option<(u64, u64)>; 2],
    ) -> Option<u128> {
        if self.lexed.sans.is_empty() || folded == [None, None] {
            return None;
        }
        // Two lanes from the digits of pi.
        let mut fp: u128 = 0x1319_8A2E_0370_7344_243F_6A88_85A3_08D3;
        for name in folded {
            let (sum, count) = name.unwrap_or_default();
            fp = lanes(fp, count);
            fp = lanes(fp, sum);
        }
        // A FEN of the initial array is the standard start (its counters
        // aside): the same game as one without a FEN.
        // SetUp "1" with no FEN is a start not known: no game's but its own.
        let fen = match self.tags.get("FEN") {
            Some(fen) => fen.trim_ascii(),
            None if self
                .tags
                .get("SetUp")
                .is_some_and(|v| v.trim_ascii() == b"1") =>
            {
                b"?"
            }
            None => b"",
        };
        let initial = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let standard = fen.strip_prefix(initial.as_slice()).is_some_and(|rest| {
            let counters = rest
                .split(u8::is_ascii_whitespace)
                .filter(|f| !f.is_empty());
            counters.clone().count() <= 2
                && counters
                    .into_iter()
                    .all(|f| f.iter().all(u8::is_ascii_digit))
        });
        fp = lanes_bytes(fp, if standard { b"" } else { fen });
        // A game of another variant is no copy of a standard one, however
        // alike its moves: each variant but standard chess (whose games'
        // fingerprints are as they were) is a word of its own.
        if let Some(value) = self.tags.get("Variant") {
            match variant(value) {
                Variant::Standard => {}
                Variant::Chess960 => fp = lanes(fp, 1),
                Variant::Lichess(v) => fp = lanes(fp, 2 + v as u64),
                Variant::Other => {
                    // Spelled as the Variant tag is read: case, blanks,
                    // `-` and `_` aside (`Seirawan` and `seirawan`).
                    fp = lanes(fp, u64::MAX - 1);
                    let key: Vec<u8> = (value.iter())
                        .filter(|b| !matches!(b, b' ' | b'-' | b'_' | b'\t'))
                        .map(u8::to_ascii_lowercase)
                        .collect();
                    fp = lanes_bytes(fp, &key);
                }
            }
        }
        let played = played.min(self.lexed.sans.len());
        fp = lanes(fp, played as u64);
        fp = lanes(fp, moves as u64);
        fp = lanes(fp, (moves >> 64) as u64);
        for token in &self.lexed.sans[played..] {
            fp = lanes(fp, san_code(token.san.san));
        }
        if let Some(stop) = self.lexed.stop.filter(|s| s.kind == StopKind::Malformed) {
            fp = lanes(fp, u64::MAX);
            let end = self.lexed.marker.map_or(self.bytes.len(), |m| m.start);
            for token in movetext_tokens(self.bytes.get(stop.start..end).unwrap_or_default()) {
                fp = lanes_bytes(fp, token);
            }
        }
        Some(lanes_finish(fp))
    }

    /// The line starting at a byte offset, without its line break.
    pub fn line_text(&self, start: usize) -> String {
        let rest = self.bytes.get(start..).unwrap_or_default();
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        excerpt(&rest[..end], 80)
    }
}

/// The tokens of movetext that are not comments, variations, NAGs, move
/// numbers or markers, as pgn-reader ends tokens (`.`, `!` and `?` end one
/// and are dropped).
fn movetext_tokens(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while let Some(&b) = bytes.get(i) {
            let rest = &bytes[i..];
            match b {
                b'{' => i += memchr::memchr(b'}', rest).map_or(rest.len(), |n| n + 1),
                b';' => i += memchr::memchr(b'\n', rest).unwrap_or(rest.len()),
                b'(' => {
                    // To the `)` that closes it, over comments.
                    let mut depth = 0usize;
                    while let Some(&c) = bytes.get(i) {
                        i += 1;
                        match c {
                            b'(' => depth += 1,
                            b')' => depth -= 1,
                            b'{' => {
                                i += memchr::memchr(b'}', &bytes[i..])
                                    .map_or(bytes.len() - i, |n| n + 1);
                            }
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                    }
                }
                _ if is_token_end(b) && b != b'$' => i += 1,
                _ => {
                    let len = rest[1..]
                        .iter()
                        .position(|&c| is_token_end(c))
                        .map_or(rest.len(), |n| n + 1);
                    let token = &rest[..len];
                    i += len;
                    let skipped = token[0] == b'$'
                        || token.iter().all(u8::is_ascii_digit)
                        || matches!(
                            crate::read::outcome::parse(token),
                            Some(shakmaty::Outcome::Known(_))
                        );
                    if !skipped {
                        return Some(token);
                    }
                }
            }
        }
        None
    })
}

/// A move as read, in a word: its kind, piece, squares and promotion (the
/// check suffix left out).
fn san_code(san: San) -> u64 {
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            1 | (role as u64) << 4
                | file.map_or(0, |f| u64::from(f) + 1) << 8
                | rank.map_or(0, |r| u64::from(r) + 1) << 12
                | u64::from(capture) << 16
                | (to as u64) << 20
                | promotion.map_or(0, |p| p as u64) << 28
        }
        San::Castle(side) => 2 | (side as u64) << 4,
        San::Put { role, to } => 3 | (role as u64) << 4 | (to as u64) << 20,
        San::Null => 4,
    }
}

/// A game's values of the [`Tag`]s, as text: empty where a tag is absent.
#[derive(Debug, Clone, Copy, Default)]
pub struct TagValues<'a>([&'a str; REPORTED]);

impl<'a> TagValues<'a> {
    /// These values, the others empty.
    #[cfg(test)]
    pub fn of(values: &[(Tag, &'a str)]) -> TagValues<'a> {
        let mut all = TagValues::default();
        for &(tag, value) in values {
            all.set(tag, value);
        }
        all
    }

    /// The value of `tag`.
    pub fn get(&self, tag: Tag) -> &'a str {
        self.0[tag as usize]
    }

    /// Sets the value of `tag`.
    #[cfg(test)]
    pub fn set(&mut self, tag: Tag, value: &'a str) {
        self.0[tag as usize] = value;
    }

    /// The round of the Round tag, before any sub-round or board (`3.1`:
    /// `3`; PGN 8.1.1.4), trimmed.
    pub fn round_number(&self) -> &'a str {
        let round = self.get(Tag::Round);
        round.split('.').next().unwrap_or(round).trim()
    }
}

/// A game's [`TagValues`] decoded to text into one buffer: one allocation
/// a game, not one a tag. What a game's rows, the run-wide checks and the
/// results file read of its tags.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct TagColumns {
    text: String,
    /// Where each tag's value is in `text`, in the order of [`Tag`].
    ranges: [(u32, u32); REPORTED],
}

/// Tag columns longer than this are held at their length, and their
/// buffer is not reused.
const LARGE_TEXT: usize = 64 << 10;

impl TagColumns {
    /// The value of `tag`; empty when the tag is absent.
    pub fn get(&self, tag: Tag) -> &str {
        let (start, end) = self.ranges[tag as usize];
        self.text
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Every value.
    pub fn values(&self) -> TagValues<'_> {
        let mut values = TagValues::default();
        for (value, &(start, end)) in values.0.iter_mut().zip(&self.ranges) {
            *value = self
                .text
                .get(start as usize..end as usize)
                .unwrap_or_default();
        }
        values
    }

    /// The columns of `tags`, in `buffer` (emptied first: one an earlier
    /// game filled, or a new one); the first of each name counts.
    pub fn of(tags: &Tags, buffer: String) -> TagColumns {
        let mut columns = TagColumns {
            text: buffer,
            ranges: [(0, 0); REPORTED],
        };
        columns.text.clear();
        let text = tags.ascii_text();
        for column in 0..REPORTED {
            if let Some(text) = text {
                if let Some(value) = tags.reported_ascii(text, column) {
                    columns.put(column, value);
                }
            } else if let Some(value) = tags.reported(column) {
                columns.put(column, &decode(value).0);
            }
        }
        // Tags of megabytes: the columns are held as long as the game is
        // in flight, so not twice over.
        if columns.text.len() > LARGE_TEXT && columns.text.capacity() > columns.text.len() * 5 / 4 {
            columns.text.shrink_to_fit();
        }
        columns
    }

    /// Columns holding `values`, each as `shown` shows it (cut short for a
    /// page, say).
    pub fn of_values<'v>(
        values: TagValues<'v>,
        shown: impl Fn(&'v str) -> Cow<'v, str>,
    ) -> TagColumns {
        let mut columns = TagColumns::default();
        for (i, value) in values.0.into_iter().enumerate() {
            columns.put(i, &shown(value));
        }
        columns
    }

    /// Sets column `i`.
    fn put(&mut self, i: usize, value: &str) {
        if self.text.capacity() == 0 {
            // Enough for most games' columns at once.
            self.text.reserve(value.len().max(120));
        }
        let start = self.text.len();
        self.text.push_str(value);
        let end = self.text.len();
        if let Some(range) = self.ranges.get_mut(i) {
            *range = (
                u32::try_from(start).unwrap_or(u32::MAX),
                u32::try_from(end).unwrap_or(u32::MAX),
            );
        }
    }

    /// The bytes its buffer holds.
    pub fn capacity(&self) -> usize {
        self.text.capacity()
    }

    /// Whether it holds more than a game's columns usually do.
    pub fn is_large(&self) -> bool {
        self.text.capacity() > LARGE_TEXT
    }

    /// Its buffer, for another game's columns (a large one is let go, not
    /// kept for later games).
    pub fn into_buffer(self) -> String {
        if self.is_large() {
            return String::new();
        }
        self.text
    }

    /// The columns with their buffer replaced by `buffer`.
    #[cfg(test)]
    pub fn with_buffer(mut self, buffer: String) -> TagColumns {
        self.text = buffer;
        self
    }
}

#[cfg(test)]
mod tests;
