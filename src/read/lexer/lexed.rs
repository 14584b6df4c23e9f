//! What the lexer finds in a game, every place located: [`Lexed`] and
//! the tokens, tags and oddities it lists.

use crate::{
    read::comments::Comments,
    read::listed::Listed,
    read::{notation::Form, tags::Tags},
};
use shakmaty::{Outcome, san::SanPlus};

/// One mainline move token.
#[derive(Debug, Clone, Copy)]
pub struct SanToken {
    /// The move as parsed.
    pub san: SanPlus,
    /// 1-based line in the input.
    pub line: u64,
    /// Byte range of the token within the game's bytes.
    pub start: usize,
    /// End of the token (exclusive).
    pub end: usize,
    /// How the token departs from standard SAN, when the lexer read it by
    /// a plain reading ([`read::notation::read_token`](crate::read::notation::read_token)).
    pub form: Option<Form>,
    /// Whether `e.p.` follows it.
    pub ep_mark: bool,
}

/// Why the mainline stopped being readable before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopKind {
    /// A token that is neither SAN nor any other movetext element.
    Malformed,
    /// Moves or junk after the game termination marker.
    AfterResult,
}

/// The first unreadable token of the mainline.
#[derive(Debug, Clone, Copy)]
pub struct Stop {
    /// What kind of problem.
    pub kind: StopKind,
    /// 1-based line of the token.
    pub line: u64,
    /// Byte range of the token within the game's bytes.
    pub start: usize,
    /// End of the token (exclusive).
    pub end: usize,
}

/// What is wrong with a tag line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagProblem {
    /// No quoted value: `[Event foo]`. pgn-reader drops such a line.
    NoValue,
    /// The value's closing quote is missing.
    UnterminatedValue,
    /// The closing `]` is missing.
    MissingBracket,
    /// The name is empty or has characters other than letters, digits, `_`.
    BadName,
}

impl TagProblem {
    /// A phrase for messages.
    pub fn describe(self) -> &'static str {
        match self {
            TagProblem::NoValue => "it has no quoted value, so the tag is ignored",
            TagProblem::UnterminatedValue => "the value's closing quote is missing",
            TagProblem::MissingBracket => "the closing ']' is missing",
            TagProblem::BadName => {
                "the tag name is empty or has characters other than letters, digits and '_'"
            }
        }
    }
}

/// A tag line that is not `[Name "value"]`.
#[derive(Debug, Clone, Copy)]
pub struct BadTag {
    /// What is wrong.
    pub problem: TagProblem,
    /// 1-based line.
    pub line: u64,
    /// Byte offset of the line's start within the game's bytes.
    pub line_start: usize,
}

/// Movetext that is read, but not as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oddity {
    /// A NAG above `$255`: ignored, like any NAG.
    NagOutOfRange,
    /// `½-½`: read as the draw `1/2-1/2`.
    HalfSigns,
    /// `1–0` with an en or em dash: read as `1-0`.
    DashInMarker,
    /// A `)` that closes no variation: ignored.
    StrayParenthesis,
    /// A `(` never closed: the rest of the game was read as a variation.
    UnclosedVariation,
}

/// Where an oddity is.
#[derive(Debug, Clone, Copy)]
pub struct Odd {
    /// What it is.
    pub what: Oddity,
    /// 1-based line.
    pub line: u64,
    /// Byte range of the token within the game's bytes.
    pub start: usize,
    /// End of the token (exclusive).
    pub end: usize,
}

/// Where a mainline's variations are: from the `(` of the first to the
/// end of the last (its `)` included, or the end of the movetext when it is
/// never closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variations {
    /// Byte offset of the first `(` within the game's bytes.
    pub start: usize,
    /// Byte offset after the last variation.
    pub end: usize,
    /// 1-based line of the first `(`.
    pub line: u64,
}

/// The game termination marker.
#[derive(Debug, Clone, Copy)]
pub struct Marker {
    /// The result it states.
    pub outcome: Outcome,
    /// 1-based line.
    pub line: u64,
    /// Byte range of the marker within the game's bytes.
    pub start: usize,
    /// End of the marker (exclusive).
    pub end: usize,
}

/// Everything located in one game. Reused from game to game.
#[derive(Debug, Default)]
pub struct Lexed {
    /// The line of each tag pgn-reader reports, in the order it reports them.
    pub tag_lines: Vec<u64>,
    /// The byte range of each of those tags' value as written (escapes
    /// and all), within the game's bytes.
    pub tag_values: Vec<(usize, usize)>,
    /// Tag lines that are not `[Name "value"]`.
    pub bad_tags: Listed<BadTag>,
    /// Tags whose name has white space around it, read all the same: the
    /// line and the byte offset where it starts.
    pub spaced_tags: Listed<(u64, usize)>,
    /// Tag pairs split over lines, read all the same: the first and last
    /// line and the tag's index in `Tags`.
    pub split_tags: Listed<(u64, u64, usize)>,
    /// Tag values with quotes inside them that are not escaped
    /// (`[White ""Mephisto""]`), read as one value up to the quote that
    /// closes the tag: the line and the tag's index in `Tags`.
    pub quoted_tags: Listed<(u64, usize)>,
    /// Start of the last bad tag line, so that a line counts once.
    pub(super) last_bad: Option<usize>,
    /// Mainline moves up to the first unreadable token.
    pub sans: Vec<SanToken>,
    /// The first unreadable mainline token, if any.
    pub stop: Option<Stop>,
    /// The first termination marker of the mainline.
    pub marker: Option<Marker>,
    /// Line of a `{` that is never closed.
    pub unterminated_comment: Option<u64>,
    /// Byte offset of that `{`.
    pub unterminated_comment_at: usize,
    /// Movetext read but not written as PGN writes it.
    pub odd: Listed<Odd>,
    /// The mainline's move numbers: the index of the move that follows,
    /// the number, and its line.
    pub numbers: Vec<(usize, u32, u64)>,
    /// The mainline's variations, if it has any before its end: where the
    /// first begins (its `(`), where the last ends, and the first's line.
    /// [`variations::walk`](crate::board::variations::walk) reads them from there.
    pub variations: Option<Variations>,
    /// The line where the game ends (the next game's first line).
    pub end_line: u64,
    /// Byte offset where the tag section ends: the movetext (a comment, a
    /// move) begins there, also when it begins on a tag's line.
    pub tags_end: usize,
    /// Where the next game's tags begin, if this game has tags only and the
    /// next game's follow after a blank line: (byte offset, tags before it).
    pub tag_break: Option<(usize, usize)>,
    /// Tag name ranges seen so far in this game.
    pub(super) names: Vec<(usize, usize)>,
    /// The same names as a set, filled in only for long tag sections, and
    /// how many of `names` it holds.
    pub(super) name_set: (std::collections::HashSet<Vec<u8>>, usize),
    /// Find where games end and nothing else of their moves (`--count`):
    /// move tokens are skipped unread.
    pub skim: bool,
    /// Every byte read by the general loops of `scan_movetext` and
    /// `scan_tags`, none by `moves` or as a `plain_tag`: what the tests
    /// hold those to.
    #[cfg(test)]
    pub(super) general_only: bool,
    /// What the mainline's comments say that the checks read: clocks,
    /// elapsed times, the comments that leave findings out, and the last
    /// three ([`Comments`]).
    pub comments: Comments,
}

impl Lexed {
    /// Forgets the previous game.
    pub(super) fn reset(&mut self, tags: &mut Tags) {
        tags.clear();
        self.tag_lines.clear();
        self.tag_values.clear();
        self.bad_tags.clear();
        self.spaced_tags.clear();
        self.split_tags.clear();
        self.quoted_tags.clear();
        self.last_bad = None;
        self.name_set.0.clear();
        self.name_set.1 = 0;
        self.sans.clear();
        // A game of a million moves leaves a buffer of tens of MiB: give
        // it back rather than keep it in every worker.
        if self.sans.capacity() > 1 << 16 {
            self.sans.shrink_to(1 << 16);
        }
        self.stop = None;
        self.marker = None;
        self.unterminated_comment = None;
        self.variations = None;
        self.odd.clear();
        self.numbers.clear();
        self.tag_break = None;
        self.names.clear();
        self.comments.clear();
    }
}
