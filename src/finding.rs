//! What the tool reports about a game: the kinds of finding (each with a
//! stable code, a severity and the rule it rests on) and one finding's
//! location within the game.
//!
//! Codes are part of the interface: append new kinds, never rename or reuse a
//! code. `tests::codes_are_stable` holds the list.

use std::fmt;

use crate::board::rules::{
    Article,
    Source::{self, Audit, Law, Lichess, Limit, Pgn, Trf},
};

/// A number with one word or its plural: "1 file", "2 files".
pub fn counted<N: fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    if n == N::from(1) {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A fact worth knowing that breaks no rule of the record.
    Info,
    /// The record is usable but not as the standard wants it.
    Warning,
    /// The record breaks a rule: a move, a tag or a result is wrong.
    Error,
}

impl Severity {
    /// The word used in the CSV report and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `--fix` does with a kind of finding (the fourth column of
/// `kinds!`, as ruff marks which rules it can fix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fix {
    /// Nothing: the finding is for the arbiter.
    No,
    /// Corrected wherever it is found, except in games whose moves cannot
    /// be replayed (they keep their movetext) and in the games of lichess's
    /// variants, which are replayed by their own rules but not corrected.
    Always,
    /// The result the board or the Laws decide is written in the Result tag
    /// and the marker, wherever it is found except in games whose moves
    /// cannot be replayed. The number ranks the codes: when a game has
    /// several, the lowest names the change.
    BoardResult(u8),
    /// The result the board decides is written where it decides one, and
    /// `missing-result` adds a missing Result tag or marker from the other;
    /// not where the movetext ends inside a comment or variation left
    /// open, so not wherever found. Ranked as `BoardResult`.
    RecordResult(u8),
}

impl Fix {
    /// The rank of a result correction; `None` for the others.
    pub fn result_rank(self) -> Option<u8> {
        match self {
            Fix::BoardResult(rank) | Fix::RecordResult(rank) => Some(rank),
            Fix::No | Fix::Always => None,
        }
    }
}

macro_rules! kinds {
    ($( $(#[doc = $doc:literal])* $variant:ident => $code:literal, $severity:ident, $source:expr, $fix:expr; )*) => {
        /// Every kind of finding the tool can report.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Kind {
            /// All kinds, in the order of their declaration.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The stable kebab-case code.
            pub fn code(self) -> &'static str {
                match self { $(Kind::$variant => $code,)* }
            }

            /// What it means, in a sentence (its documentation).
            pub fn description(self) -> &'static str {
                match self { $(Kind::$variant => concat!($($doc),*).trim_ascii(),)* }
            }

            /// How serious this kind is.
            pub fn severity(self) -> Severity {
                match self { $(Kind::$variant => Severity::$severity,)* }
            }

            /// What the kind rests on, unless a finding names a more
            /// specific article. The edition of a run decides how an article
            /// of the Laws is cited ([`rules::Edition::cite`](crate::board::rules::Edition::cite)).
            pub fn source(self) -> Source {
                match self { $(Kind::$variant => $source,)* }
            }

            /// What `--fix` does with a finding of this kind.
            pub fn fix(self) -> Fix {
                match self { $(Kind::$variant => $fix,)* }
            }
        }
    };
}

kinds! {
    /// The SAN names no legal move in the position.
    IllegalMove => "illegal-move", Error, Law(Article::IllegalMove), Fix::No;
    /// The SAN fits more than one legal move.
    AmbiguousMove => "ambiguous-move", Error, Pgn("PGN 8.2.3.4"), Fix::No;
    /// A movetext token that is no SAN, move number, comment, NAG, variation or result.
    MalformedMove => "malformed-move", Error, Pgn("PGN 8.2"), Fix::No;
    /// A tag line that is not `[Name "value"]`.
    MalformedTag => "malformed-tag", Error, Pgn("PGN 8.1.1"), Fix::No;
    /// A FEN tag that cannot be parsed or is not a legal position.
    InvalidFen => "invalid-fen", Error, Pgn("PGN 9.7.2"), Fix::No;
    /// A variant the tool does not replay.
    UnsupportedVariant => "unsupported-variant", Warning, Law(Article::Variant), Fix::No;
    /// No Result tag, or no game termination marker.
    MissingResult => "missing-result", Error, Pgn("PGN 8.2.6"), Fix::RecordResult(10);
    /// The Result tag and the termination marker differ.
    ResultMismatch => "result-mismatch", Error, Pgn("PGN 8.2.6"), Fix::RecordResult(8);
    /// The final position is checkmate and the result is not the mating side's win.
    ResultContradictsCheckmate => "result-contradicts-checkmate", Error, Law(Article::Checkmate), Fix::BoardResult(0);
    /// The final position is stalemate and the result is not a draw.
    ResultContradictsStalemate => "result-contradicts-stalemate", Error, Law(Article::Stalemate), Fix::BoardResult(1);
    /// The final position is dead and the result is not a draw.
    ResultContradictsDeadPosition => "result-contradicts-dead-position", Error, Law(Article::DeadPosition), Fix::BoardResult(2);
    /// `+` or `#` written where the move gives no check or mate, or a mate without `#`.
    WrongCheckSuffix => "wrong-check-suffix", Warning, Pgn("PGN 8.2.3.5"), Fix::Always;
    /// Tag values that are not valid UTF-8 (decoded as Windows-1252).
    Encoding => "encoding", Warning, Pgn("PGN 4.1"), Fix::No;
    /// A Result tag whose value is none of `1-0`, `0-1`, `1/2-1/2`, `*`.
    InvalidResult => "invalid-result", Error, Pgn("PGN 8.1.1.7"), Fix::RecordResult(9);
    /// A `{` comment that is never closed.
    UnterminatedComment => "unterminated-comment", Error, Pgn("PGN 5"), Fix::No;
    /// Movetext that goes on after the game termination marker.
    TextAfterResult => "text-after-result", Error, Pgn("PGN 8.2.6"), Fix::No;
    /// The player to move could have claimed a draw by threefold repetition, and play went on.
    UnclaimedThreefold => "unclaimed-threefold", Info, Law(Article::ThreefoldJust), Fix::No;
    /// The player to move could have claimed a draw under the 50-move rule, and play went on.
    UnclaimedFiftyMoves => "unclaimed-fifty-moves", Info, Law(Article::FiftyJust), Fix::No;
    /// Moves recorded after the fifth occurrence of a position ended the game.
    PlayedPastFivefold => "played-past-fivefold", Error, Law(Article::Fivefold), Fix::Always;
    /// Moves recorded after 75 moves without capture or pawn move ended the game.
    PlayedPastSeventyFiveMoves => "played-past-seventy-five-moves", Error, Law(Article::SeventyFive), Fix::Always;
    /// Moves recorded after a dead position ended the game.
    PlayedPastDeadPosition => "played-past-dead-position", Error, Law(Article::DeadPosition), Fix::Always;
    /// A decisive result after the game ended by fivefold repetition.
    ResultContradictsFivefold => "result-contradicts-fivefold", Error, Law(Article::Fivefold), Fix::BoardResult(3);
    /// A decisive result after the game ended by the 75-move rule.
    ResultContradictsSeventyFiveMoves => "result-contradicts-seventy-five-moves", Error, Law(Article::SeventyFive), Fix::BoardResult(4);
    /// A win on time although the winner could not mate by any series of legal moves.
    UnwinnableWinOnTime => "unwinnable-win-on-time", Error, Law(Article::FlagFall), Fix::BoardResult(5);
    /// A win by resignation although the winner could not mate.
    UnwinnableWinByResignation => "unwinnable-win-by-resignation", Error, Law(Article::Resignation), Fix::BoardResult(6);
    /// The recorded winner has only a king.
    BareKingWin => "bare-king-win", Error, Law(Article::BareKing), Fix::BoardResult(7);
    /// A win with no recorded reason although the winner could not mate.
    UnexplainedWinUnwinnable => "unexplained-win-unwinnable", Warning, Law(Article::Win), Fix::No;
    /// A game larger than the tool reads; it is not checked.
    GameTooLarge => "game-too-large", Error, Limit, Fix::No;
    /// A move written in a form PGN does not use, read as it plainly means.
    NonStandardSan => "non-standard-san", Warning, Pgn("PGN 8.2.3"), Fix::Always;
    /// Movetext other than moves read, but not as PGN writes it (`$256`, `½-½`).
    NonStandardMovetext => "non-standard-movetext", Warning, Pgn("PGN 8.2"), Fix::No;
    /// A move number that is not the number of the move it stands before.
    MoveNumber => "move-number", Warning, Pgn("PGN 8.2.2.1"), Fix::No;
    /// A tag whose name has white space around it, read all the same.
    NonStandardTag => "non-standard-tag", Warning, Pgn("PGN 8.1"), Fix::No;
    /// A move in a variation that names no legal move there.
    IllegalMoveInVariation => "illegal-move-in-variation", Warning, Pgn("PGN 8.2.5"), Fix::No;
    /// A move in a variation that fits more than one legal move there.
    AmbiguousMoveInVariation => "ambiguous-move-in-variation", Warning, Pgn("PGN 8.2.5"), Fix::No;
    /// A token in a variation that is no move, move number, comment, NAG or result.
    MalformedMoveInVariation => "malformed-move-in-variation", Warning, Pgn("PGN 8.2.5"), Fix::No;
    /// A lone king recorded as winning a game that did not end on the board
    /// (a forfeit, or no recorded cause), under Laws where that can stand.
    BareKingForfeitWin => "bare-king-forfeit-win", Warning, Law(Article::LoneKingForfeit), Fix::No;
    /// A tag of the Seven Tag Roster other than Result is missing.
    MissingTag => "missing-tag", Warning, Pgn("PGN 8.1.1"), Fix::Always;
    /// A roster tag whose value is not known (`?`); only with `--strict-tags`.
    UnknownTagValue => "unknown-tag-value", Info, Pgn("PGN 8.1.1"), Fix::No;
    /// Date or EventDate that is not `YYYY.MM.DD`, not a possible date, or after the run's day.
    InvalidDate => "invalid-date", Warning, Pgn("PGN 8.1.1.3"), Fix::No;
    /// The PlyCount tag differs from the plies recorded.
    PlyCountMismatch => "plycount-mismatch", Warning, Pgn("PGN 9.9.3"), Fix::Always;
    /// The same tag twice with different values.
    DuplicateTag => "duplicate-tag", Warning, Pgn("PGN 8.1"), Fix::No;
    /// WhiteElo or BlackElo that is not a rating.
    InvalidElo => "invalid-elo", Warning, Pgn("PGN 9.1.2"), Fix::No;
    /// WhiteFideId or BlackFideId that is not digits.
    InvalidFideId => "invalid-fide-id", Warning, Pgn("PGN 9.1"), Fix::No;
    /// A TimeControl not written as PGN 9.6.1 writes it.
    InvalidTimeControl => "invalid-time-control", Warning, Pgn("PGN 9.6.1"), Fix::No;
    /// A FEN tag without `[SetUp "1"]`.
    FenWithoutSetup => "fen-without-setup", Warning, Pgn("PGN 9.7.1"), Fix::No;
    /// The same game (players, start, moves) as an earlier one of the run.
    DuplicateGame => "duplicate-game", Warning, Audit, Fix::No;
    /// A player in two games of one round of an event, against two opponents.
    PlayerTwiceInRound => "player-twice-in-round", Error, Audit, Fix::No;
    /// The same round and board number (`1.1`) twice in one event.
    DuplicateBoard => "duplicate-board", Warning, Audit, Fix::No;
    /// A line of the TRF (`--trf`) that cannot be read.
    TrfInvalid => "trf-invalid", Error, Trf, Fix::No;
    /// Lines of the TRF that contradict each other.
    TrfInconsistent => "trf-inconsistent", Error, Trf, Fix::No;
    /// A game the TRF says was played, and no game of the PGN.
    TrfGameMissing => "trf-game-missing", Error, Trf, Fix::No;
    /// A game whose players the TRF does not pair in its round.
    GameNotInTrf => "game-not-in-trf", Error, Trf, Fix::No;
    /// A game whose result differs from the TRF's.
    TrfResultMismatch => "trf-result-mismatch", Error, Trf, Fix::No;
    /// A game with White and Black the other way round from the TRF.
    TrfColourMismatch => "trf-colour-mismatch", Error, Trf, Fix::No;
    /// A player's FIDE ID, name, rating or title in the game's tags that differs from the TRF.
    TrfPlayerMismatch => "trf-player-mismatch", Warning, Trf, Fix::No;
    /// A game with no termination marker whose record stops before its end
    /// (PlyCount states more plies, or a move number has no move after it).
    TruncatedGame => "truncated-game", Error, Pgn("PGN 8.2.6"), Fix::No;
    /// A variation with no move in it (`( )`, `( {comment} )`).
    EmptyVariation => "empty-variation", Warning, Pgn("PGN 8.2.5"), Fix::No;
    /// A `{pgn-arbiter: ignore CODE}` comment that leaves out no finding of
    /// its game, or names no code.
    UnusedSuppression => "unused-suppression", Warning, Audit, Fix::No;
    /// A TimeControl written as people write it (`15 min. + 10 s. per
    /// move`, `40/5400+30`), whose meaning is plain, not as PGN 9.6.1 does.
    NonStandardTimeControl => "non-standard-time-control", Info, Pgn("PGN 9.6.1"), Fix::No;
    /// One FIDE ID under names that differ however they are folded,
    /// across the run.
    PlayerNameVariant => "player-name-variant", Warning, Audit, Fix::No;
    /// A player's clock (`[%clk]`) higher than after that player's
    /// previous move by a minute or more over what the TimeControl adds:
    /// time put on by hand.
    ClockRises => "clock-rises", Warning, Law(Article::TimeControl), Fix::No;
    /// A loss on time whose loser made the last move with time left on the
    /// clock after it: that clock had stopped.
    ClockForfeitContradicted => "clock-forfeit-contradicted", Error, Law(Article::ClockPaused), Fix::No;
    /// A clock at zero under a control with an increment, and the same
    /// player moved again with no loss on time recorded.
    PlayedPastFlag => "played-past-flag", Info, Law(Article::FlagNoticed), Fix::No;
    /// A lichess variant's game that its own rules ended (an exploded
    /// king, a third check, a king on the hill or the eighth rank, mate,
    /// a side with no move) with another result than the one recorded.
    ResultContradictsVariantEnd => "result-contradicts-variant-end", Error, Lichess(shakmaty::variant::Variant::Chess), Fix::No;
    /// One name (folded) and rating under two FIDE IDs in one event.
    PlayerIdConflict => "player-id-conflict", Warning, Audit, Fix::No;
    /// A player's clock higher than after that player's previous move by
    /// less than a minute over what the TimeControl adds: a relay's
    /// timing, or time given online.
    ClockDrift => "clock-drift", Info, Law(Article::TimeControl), Fix::No;
}

/// Codes renamed, each with the kind it now names. A renamed code keeps
/// its old name as an alias for one minor version (CHANGELOG.md says which
/// and until when): `--select`, `--ignore`, the settings file, a baseline
/// and `{pgn-arbiter: ignore}` comments still take it. Reports write the
/// new name.
pub const ALIASES: &[(&str, Kind)] = &[];

impl Kind {
    /// The kind with this code, or with this old name of its code
    /// ([`ALIASES`]).
    pub fn from_code(code: &str) -> Option<Kind> {
        from_code_in(code, ALIASES)
    }

    /// The code nearest to `text` (for a message about a code mistyped).
    pub fn nearest(text: &str) -> &'static str {
        Kind::ALL
            .iter()
            .map(|k| k.code())
            .min_by_key(|code| strsim::levenshtein(code, text))
            .unwrap_or_default()
    }
}

/// The kind with `code`, or with an old name `aliases` gives.
fn from_code_in(code: &str, aliases: &[(&str, Kind)]) -> Option<Kind> {
    Kind::ALL
        .iter()
        .copied()
        .find(|k| k.code() == code)
        .or_else(|| {
            aliases
                .iter()
                .find(|(old, _)| *old == code)
                .map(|&(_, k)| k)
        })
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// How every comment `--fix` writes begins (`{pgn-arbiter: CODE: ...}`):
/// the audit knows such a comment for what it is.
pub const FIX_MARK: &str = "pgn-arbiter: ";

/// Where in a game a move finding points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRef {
    /// 1-based half-move number within the game.
    pub ply: u32,
    /// The PGN move number with dots, e.g. `23.` or `23...`.
    pub number: String,
    /// The token as written in the file.
    pub san: String,
}

/// The clocks a finding about clocks concerns, for the page to show
/// beside the moves: each row a move and the clock of its mover after it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockStrip {
    /// The moves in the order played (a few: at most [`MAX_CLOCK_ROWS`]
    /// are read back from a file).
    #[serde(deserialize_with = "at_most::<_, _, MAX_CLOCK_ROWS>")]
    pub rows: Vec<ClockRow>,
    /// Whether the clocks were worked out from the times taken
    /// (`[%emt]`), not read from `[%clk]`.
    pub derived: bool,
}

/// A sequence of at most `N` elements: a record of 16 MiB of one-byte
/// elements would otherwise make tens of millions of them.
pub(crate) fn at_most<'de, D, T, const N: usize>(input: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    struct Bounded<T, const N: usize>(std::marker::PhantomData<T>);
    impl<'de, T: serde::Deserialize<'de>, const N: usize> serde::de::Visitor<'de> for Bounded<T, N> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "at most {N} elements")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let told = seq.size_hint().unwrap_or(0);
            if told > N {
                return Err(serde::de::Error::custom(format!(
                    "{told} elements, more than {N}"
                )));
            }
            let mut out = Vec::with_capacity(told.min(1024));
            while let Some(element) = seq.next_element()? {
                if out.len() == N {
                    return Err(serde::de::Error::custom(format!("more than {N} elements")));
                }
                out.push(element);
            }
            Ok(out)
        }
    }
    input.deserialize_seq(Bounded::<T, N>(std::marker::PhantomData))
}

/// The most rows a clock strip read back from a file may have (a finding
/// shows five at most).
pub const MAX_CLOCK_ROWS: usize = 16;

/// One move of a [`ClockStrip`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockRow {
    /// The move, numbered: `23...Qd7`.
    pub mv: String,
    /// Whether White made it.
    pub white: bool,
    /// Its mover's clock after it (`1:23:45`); empty when none is recorded.
    pub clock: String,
    /// Whether the finding is about this reading.
    pub marked: bool,
}

/// One thing found in one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub kind: Kind,
    /// What it rests on; usually `kind.source()`.
    pub rule: Source,
    /// 1-based line in the (decompressed) input.
    pub line: u64,
    /// The move the finding is about, if any.
    pub mv: Option<MoveRef>,
    /// One plain sentence.
    pub message: String,
    /// The position before the move (move findings) or the final position
    /// (result findings), as FEN; empty otherwise.
    pub fen: String,
    /// The clocks it concerns (clock findings).
    pub clocks: Option<Box<ClockStrip>>,
}

impl Finding {
    /// A finding citing the kind's own rule.
    pub fn new(kind: Kind, line: u64, message: String) -> Finding {
        Finding {
            kind,
            rule: kind.source(),
            line,
            mv: None,
            message,
            fen: String::new(),
            clocks: None,
        }
    }

    /// Cites a more specific article than the kind's default.
    pub fn citing(mut self, source: impl Into<Source>) -> Finding {
        self.rule = source.into();
        self
    }

    /// Attaches the move the finding is about.
    pub fn at_move(mut self, mv: MoveRef) -> Finding {
        self.mv = Some(mv);
        self
    }

    /// Attaches a position.
    pub fn with_fen(mut self, fen: String) -> Finding {
        self.fen = fen;
        self
    }

    /// Attaches the clocks it concerns.
    pub fn with_clocks(mut self, clocks: ClockStrip) -> Finding {
        self.clocks = Some(Box::new(clocks));
        self
    }
}

/// A finding as a file keeps it (`--keep-results`): its rule by name, so
/// that it is read back under any build's tables.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Kept {
    code: String,
    rule: KeptRule,
    line: u64,
    mv: Option<(u32, String, String)>,
    message: String,
    fen: String,
    clocks: Option<ClockStrip>,
}

/// What a finding rests on, as kept.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
enum KeptRule {
    Pgn(String),
    Law(Article),
    Limit,
    Audit,
    Trf,
    /// A lichess variant, by its UCI name.
    Lichess(String),
}

/// The sections of the PGN standard findings cite, each kept once for the
/// life of the process: a finding's rule is a `&'static str`.
fn section(text: &str) -> Result<&'static str, String> {
    use std::{collections::HashSet, sync::Mutex};
    static SECTIONS: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut sections = SECTIONS.lock().unwrap_or_else(|e| e.into_inner());
    let sections = sections.get_or_insert_with(HashSet::new);
    if let Some(known) = sections.get(text) {
        return Ok(known);
    }
    if !text.starts_with("PGN ") || text.len() > 32 || sections.len() >= 256 {
        return Err(format!("{text:?} is not a section of the PGN standard"));
    }
    let kept: &'static str = Box::leak(text.to_owned().into_boxed_str());
    sections.insert(kept);
    Ok(kept)
}

impl Finding {
    /// The finding as a file keeps it.
    pub fn kept(&self) -> Kept {
        Kept {
            code: self.kind.code().to_owned(),
            rule: match self.rule {
                Pgn(section) => KeptRule::Pgn(section.to_owned()),
                Law(article) => KeptRule::Law(article),
                Limit => KeptRule::Limit,
                Audit => KeptRule::Audit,
                Trf => KeptRule::Trf,
                Lichess(variant) => KeptRule::Lichess(variant.uci().to_owned()),
            },
            line: self.line,
            mv: (self.mv.as_ref()).map(|m| (m.ply, m.number.clone(), m.san.clone())),
            message: self.message.clone(),
            fen: self.fen.clone(),
            clocks: self.clocks.as_deref().cloned(),
        }
    }
}

impl Kept {
    /// The finding kept, or why it is none.
    pub fn finding(self) -> Result<Finding, String> {
        let kind = Kind::from_code(&self.code)
            .ok_or_else(|| format!("{:?} is no finding code", self.code))?;
        let rule = match self.rule {
            KeptRule::Pgn(text) => Pgn(section(&text)?),
            KeptRule::Law(article) => Law(article),
            KeptRule::Limit => Limit,
            KeptRule::Audit => Audit,
            KeptRule::Trf => Trf,
            KeptRule::Lichess(name) => Lichess(
                shakmaty::variant::Variant::from_uci(&name)
                    .map_err(|_| format!("{name:?} is no lichess variant"))?,
            ),
        };
        Ok(Finding {
            kind,
            rule,
            line: self.line,
            mv: self
                .mv
                .map(|(ply, number, san)| MoveRef { ply, number, san }),
            message: self.message,
            fen: self.fen,
            clocks: self.clocks.map(Box::new),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_rules_are_sections_of_the_pgn_standard() {
        assert!(section("PGN 8.1").is_ok());
        assert!(std::ptr::eq(
            section("PGN 8.1").unwrap(),
            section("PGN 8.1").unwrap()
        ));
        assert!(section("FIDE 1").is_err());
    }

    #[test]
    fn old_names_of_renamed_codes_are_read() {
        let aliases = [("unclaimed-repetition", Kind::UnclaimedThreefold)];
        assert_eq!(
            from_code_in("unclaimed-repetition", &aliases),
            Some(Kind::UnclaimedThreefold)
        );
        assert_eq!(from_code_in("unclaimed-repetition", &[]), None);
        assert_eq!(
            from_code_in("illegal-move", &aliases),
            Some(Kind::IllegalMove)
        );
        // An alias never shadows a code in use.
        for (old, _) in ALIASES {
            assert!(Kind::ALL.iter().all(|k| k.code() != *old), "{old}");
        }
        // Kinds fit the selection's per-input masks.
        assert!(Kind::ALL.len() <= 128);
    }

    #[test]
    fn codes_are_stable() {
        // Append-only: a code that disappears or changes breaks users' filters.
        let codes: Vec<&str> = Kind::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(
            codes,
            [
                "illegal-move",
                "ambiguous-move",
                "malformed-move",
                "malformed-tag",
                "invalid-fen",
                "unsupported-variant",
                "missing-result",
                "result-mismatch",
                "result-contradicts-checkmate",
                "result-contradicts-stalemate",
                "result-contradicts-dead-position",
                "wrong-check-suffix",
                "encoding",
                "invalid-result",
                "unterminated-comment",
                "text-after-result",
                "unclaimed-threefold",
                "unclaimed-fifty-moves",
                "played-past-fivefold",
                "played-past-seventy-five-moves",
                "played-past-dead-position",
                "result-contradicts-fivefold",
                "result-contradicts-seventy-five-moves",
                "unwinnable-win-on-time",
                "unwinnable-win-by-resignation",
                "bare-king-win",
                "unexplained-win-unwinnable",
                "game-too-large",
                "non-standard-san",
                "non-standard-movetext",
                "move-number",
                "non-standard-tag",
                "illegal-move-in-variation",
                "ambiguous-move-in-variation",
                "malformed-move-in-variation",
                "bare-king-forfeit-win",
                "missing-tag",
                "unknown-tag-value",
                "invalid-date",
                "plycount-mismatch",
                "duplicate-tag",
                "invalid-elo",
                "invalid-fide-id",
                "invalid-time-control",
                "fen-without-setup",
                "duplicate-game",
                "player-twice-in-round",
                "duplicate-board",
                "trf-invalid",
                "trf-inconsistent",
                "trf-game-missing",
                "game-not-in-trf",
                "trf-result-mismatch",
                "trf-colour-mismatch",
                "trf-player-mismatch",
                "truncated-game",
                "empty-variation",
                "unused-suppression",
                "non-standard-time-control",
                "player-name-variant",
                "clock-rises",
                "clock-forfeit-contradicted",
                "played-past-flag",
                "result-contradicts-variant-end",
                "player-id-conflict",
                "clock-drift",
            ]
        );
    }

    #[test]
    fn result_corrections_have_ranks_of_their_own() {
        let mut ranks: Vec<u8> = Kind::ALL
            .iter()
            .filter_map(|k| k.fix().result_rank())
            .collect();
        let all = ranks.len();
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), all, "two result corrections share a rank");
        // The board's results outrank what the record says.
        let ranks = |board: bool| {
            Kind::ALL.iter().filter_map(move |k| match k.fix() {
                Fix::BoardResult(rank) if board => Some(rank),
                Fix::RecordResult(rank) if !board => Some(rank),
                _ => None,
            })
        };
        assert!(ranks(true).max() < ranks(false).min());
    }

    #[test]
    fn every_kind_describes_itself() {
        for kind in Kind::ALL {
            let text = kind.description();
            assert!(text.len() > 20 && text.ends_with('.'), "{kind}: {text:?}");
            assert!(!text.contains("  "), "{kind}: {text:?}");
        }
        assert_eq!(
            Kind::IllegalMove.description(),
            "The SAN names no legal move in the position."
        );
    }

    #[test]
    fn codes_are_kebab_case_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for kind in Kind::ALL {
            let code = kind.code();
            assert!(seen.insert(code), "duplicate code {code}");
            assert!(
                code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{code} is not kebab-case"
            );
        }
    }

    #[test]
    fn severities_order() {
        assert!(Severity::Info < Severity::Warning);
        assert!(Severity::Warning < Severity::Error);
        assert_eq!(Kind::IllegalMove.severity(), Severity::Error);
        assert_eq!(Kind::WrongCheckSuffix.severity(), Severity::Warning);
    }
}
