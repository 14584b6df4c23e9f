//! The tag pairs of one game (raw bytes, escapes decoded), in file order.

/// Bytes of tags a reused buffer keeps between games.
const KEPT: usize = 64 << 10;

/// The tag names the checks and the reports read, each looked up in one
/// step: a name is classified once, when its pair is pushed.
const KNOWN: [&str; 20] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Termination",
    "WhiteFideId",
    "BlackFideId",
    "WhiteElo",
    "BlackElo",
    "WhiteTitle",
    "BlackTitle",
    "EventDate",
    "TimeControl",
    "FEN",
    "SetUp",
    "PlyCount",
    "Variant",
];

/// The first `REPORTED` names of `KNOWN` are the reports' tag columns, in
/// their order (see [`Tags::reported`]).
pub const REPORTED: usize = 14;

/// The tags a game's rows show and the run-wide checks read: the
/// reports' tag columns, in their order (the first `REPORTED` names of
/// `KNOWN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// `Event`.
    Event,
    /// `Site`.
    Site,
    /// `Date`.
    Date,
    /// `Round`.
    Round,
    /// `White`.
    White,
    /// `Black`.
    Black,
    /// `Result`.
    Result,
    /// `Termination`.
    Termination,
    /// `WhiteFideId`.
    WhiteFideId,
    /// `BlackFideId`.
    BlackFideId,
    /// `WhiteElo`.
    WhiteElo,
    /// `BlackElo`.
    BlackElo,
    /// `WhiteTitle`.
    WhiteTitle,
    /// `BlackTitle`.
    BlackTitle,
}

impl Tag {
    /// White's and Black's names.
    pub const NAMES: [Tag; 2] = [Tag::White, Tag::Black];
    /// White's and Black's FIDE IDs.
    pub const FIDE_IDS: [Tag; 2] = [Tag::WhiteFideId, Tag::BlackFideId];
    /// White's and Black's ratings.
    pub const ELOS: [Tag; 2] = [Tag::WhiteElo, Tag::BlackElo];
    /// White's and Black's titles.
    pub const TITLES: [Tag; 2] = [Tag::WhiteTitle, Tag::BlackTitle];
}

/// Where `name` is in `KNOWN` (inlined, so that a name written in the
/// code is classified when it is compiled).
#[inline(always)]
fn known(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"White" => 4,
        b"Black" => 5,
        b"Result" => 6,
        b"Termination" => 7,
        b"WhiteFideId" => 8,
        b"BlackFideId" => 9,
        b"WhiteElo" => 10,
        b"BlackElo" => 11,
        b"WhiteTitle" => 12,
        b"BlackTitle" => 13,
        b"EventDate" => 14,
        b"TimeControl" => 15,
        b"FEN" => 16,
        b"SetUp" => 17,
        b"PlyCount" => 18,
        b"Variant" => 19,
        _ => return None,
    })
}

/// Six bits of a hash of a name that `KNOWN` does not hold, for
/// `Tags::others`: its length and its first, middle and last bytes, so
/// that the names one archive writes in every game rarely share them
/// (lichess's UTCDate and UTCTime, which length and last byte alone did,
/// made every game look as if it might repeat a name).
fn name_bits(name: &[u8]) -> u32 {
    let byte = |i: usize| u32::from(name.get(i).copied().unwrap_or_default());
    let len = name.len();
    let h = (len as u32) | byte(0) << 8 | byte(len / 2) << 16 | byte(len.wrapping_sub(1)) << 24;
    h.wrapping_mul(0x1656_67B1) >> 26
}

/// No tag of this name (in `Tags::first`).
const NONE: usize = usize::MAX;

/// What a Variant tag names: how the game is replayed, and what it is
/// compared with (a copy is of the same variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Standard chess (also lichess's "From Position").
    Standard,
    /// Chess960, whatever the spelling.
    Chess960,
    /// One of lichess's variants, replayed by its own rules
    /// (`checks::variants`).
    Lichess(shakmaty::variant::Variant),
    /// Anything else: not replayed.
    Other,
}

/// Reads a Variant tag value, ignoring case, blanks, `-` and `_`.
pub fn variant(value: &[u8]) -> Variant {
    let key: String = String::from_utf8_lossy(value)
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" | "orthodox" | "classical" => {
            Variant::Standard
        }
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc"
        | "freestyle" | "freestylechess" | "chess960castling" => Variant::Chess960,
        "atomic" => Variant::Lichess(shakmaty::variant::Variant::Atomic),
        "antichess" => Variant::Lichess(shakmaty::variant::Variant::Antichess),
        "kingofthehill" | "koth" => Variant::Lichess(shakmaty::variant::Variant::KingOfTheHill),
        "threecheck" | "3check" => Variant::Lichess(shakmaty::variant::Variant::ThreeCheck),
        "crazyhouse" => Variant::Lichess(shakmaty::variant::Variant::Crazyhouse),
        "racingkings" => Variant::Lichess(shakmaty::variant::Variant::RacingKings),
        "horde" => Variant::Lichess(shakmaty::variant::Variant::Horde),
        _ => Variant::Other,
    }
}

/// The tag pairs of one game, in file order, in one reused buffer.
#[derive(Debug)]
pub struct Tags {
    bytes: Vec<u8>,
    /// (name start, name end, value end); the value starts at name end.
    spans: Vec<(usize, usize, usize)>,
    /// The index of the first tag of each `KNOWN` name, or `NONE`.
    first: [usize; KNOWN.len()],
    /// A bit for each other name pushed, by a hash of it.
    others: u64,
    /// Whether two pairs may have one name: a `KNOWN` name pushed twice,
    /// or two other names with one bit in `others`.
    may_repeat: bool,
}

impl Default for Tags {
    fn default() -> Self {
        Tags {
            bytes: Vec::new(),
            spans: Vec::new(),
            first: [NONE; KNOWN.len()],
            others: 0,
            may_repeat: false,
        }
    }
}

impl Tags {
    /// Forgets all tags, keeping the buffer (unless a game of huge tags
    /// made it large: then it is given back, so that each worker does not
    /// keep megabytes for the rest of the run).
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
        self.first = [NONE; KNOWN.len()];
        self.others = 0;
        self.may_repeat = false;
        if self.bytes.capacity() > KEPT {
            self.bytes.shrink_to(KEPT);
        }
    }

    /// Appends a tag pair.
    pub fn push(&mut self, name: &[u8], value: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let mid = self.bytes.len();
        self.bytes.extend_from_slice(value);
        match known(name) {
            Some(k) if self.first[k] == NONE => self.first[k] = self.spans.len(),
            Some(_) => self.may_repeat = true,
            None => {
                let bit = 1 << name_bits(name);
                self.may_repeat |= self.others & bit != 0;
                self.others |= bit;
            }
        }
        self.spans.push((start, mid, self.bytes.len()));
    }

    /// The name and value of the pair at `index`.
    fn pair(&self, index: usize) -> Option<(&[u8], &[u8])> {
        let &(a, b, c) = self.spans.get(index)?;
        Some((
            self.bytes.get(a..b).unwrap_or_default(),
            self.bytes.get(b..c).unwrap_or_default(),
        ))
    }

    /// The value of the first tag that fills the reports' tag column
    /// `column` (Event, Site, Date, Round, White, Black, Result,
    /// Termination, WhiteFideId, BlackFideId, WhiteElo, BlackElo,
    /// WhiteTitle, BlackTitle).
    pub fn reported(&self, column: usize) -> Option<&[u8]> {
        let (start, end) = self.reported_range(column)?;
        self.bytes.get(start..end)
    }

    /// Where the value [`Tags::reported`] gives is among the pairs' bytes.
    fn reported_range(&self, column: usize) -> Option<(usize, usize)> {
        let index = *self.first.get(..REPORTED)?.get(column)?;
        let &(_, start, end) = self.spans.get(index)?;
        Some((start, end))
    }

    /// The value of the pair at `index` (empty past the last).
    pub fn value(&self, index: usize) -> &[u8] {
        self.pair(index).unwrap_or_default().1
    }

    /// Whether two pairs may have the same name: when false, no two have.
    pub fn may_repeat_a_name(&self) -> bool {
        self.may_repeat
    }

    /// The index of the first tag with the name of the tag at `index`, if
    /// it comes before `index`.
    pub fn earlier(&self, index: usize) -> Option<usize> {
        let (name, _) = self.pair(index)?;
        match known(name) {
            Some(k) => Some(self.first[k]).filter(|&first| first < index),
            None => self
                .iter()
                .take(index)
                .find(|(_, other, _)| *other == name)
                .map(|(i, _, _)| i),
        }
    }

    /// How many tag pairs.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The pairs in file order, with their index.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &[u8], &[u8])> {
        self.spans.iter().enumerate().map(|(i, &(a, b, c))| {
            (
                i,
                self.bytes.get(a..b).unwrap_or_default(),
                self.bytes.get(b..c).unwrap_or_default(),
            )
        })
    }

    /// Whether every byte of the pairs is ASCII (as in most games): one
    /// test for all of them, where each value would otherwise be checked
    /// for UTF-8 on its own.
    pub fn is_ascii(&self) -> bool {
        self.bytes.is_ascii()
    }

    /// The value of the first tag that fills the reports' tag column
    /// `column`, as text, when every pair is ASCII: `text` is
    /// [`Tags::ascii_text`].
    pub fn reported_ascii<'a>(&self, text: &'a str, column: usize) -> Option<&'a str> {
        let (start, end) = self.reported_range(column)?;
        text.get(start..end)
    }

    /// Every pair's bytes as text, when they are all ASCII.
    pub fn ascii_text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes)
            .ok()
            .filter(|_| self.is_ascii())
    }

    /// The first tag with this name: its index and value.
    #[inline(always)]
    pub fn find(&self, name: &str) -> Option<(usize, &[u8])> {
        match known(name.as_bytes()) {
            Some(k) => {
                let index = self.first[k];
                (index != NONE).then(|| (index, self.pair(index).unwrap_or_default().1))
            }
            None => self
                .iter()
                .find(|(_, n, _)| *n == name.as_bytes())
                .map(|(i, _, v)| (i, v)),
        }
    }

    /// The value of the first tag with this name.
    #[inline(always)]
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.find(name).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_keep_order_and_find_first() {
        let mut tags = Tags::default();
        tags.push(b"White", b"A");
        tags.push(b"Black", b"B");
        tags.push(b"White", b"C");
        assert_eq!(tags.len(), 3);
        assert_eq!(tags.get("White"), Some(&b"A"[..]));
        assert_eq!(tags.find("Black"), Some((1, &b"B"[..])));
        assert_eq!(tags.get("Result"), None);
        tags.clear();
        assert!(tags.is_empty());
        assert_eq!(tags.get("White"), None);
    }

    /// A name the index knows and one it does not are found alike, and
    /// each tag's earlier namesake is the first of its name.
    #[test]
    fn known_and_other_names_alike() {
        let mut tags = Tags::default();
        for (name, value) in [
            ("Annotator", "x"),
            ("FEN", "f"),
            ("Annotator", "y"),
            ("FEN", "g"),
            ("Annotator", "z"),
        ] {
            tags.push(name.as_bytes(), value.as_bytes());
        }
        assert_eq!(tags.find("Annotator"), Some((0, &b"x"[..])));
        assert_eq!(tags.find("FEN"), Some((1, &b"f"[..])));
        let earlier: Vec<_> = (0..6).map(|i| tags.earlier(i)).collect();
        assert_eq!(earlier, [None, None, Some(0), Some(1), Some(0), None]);
        assert!(tags.may_repeat_a_name());
        tags.clear();
        for name in ["Event", "Annotator", "Source", "White", "Opening"] {
            tags.push(name.as_bytes(), b"");
        }
        assert!(!tags.may_repeat_a_name());
        tags.push(b"Annotator", b"");
        assert!(tags.may_repeat_a_name());
        // The names lichess writes in every game share no bit: those of
        // `KNOWN` and its others.
        tags.clear();
        let others = [
            "UTCDate",
            "UTCTime",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "ECO",
            "Opening",
        ];
        for name in KNOWN.into_iter().chain(others) {
            tags.push(name.as_bytes(), b"");
        }
        assert!(!tags.may_repeat_a_name());
        for name in KNOWN {
            assert_eq!(known(name.as_bytes()).map(|k| KNOWN[k]), Some(name));
        }
    }
}
