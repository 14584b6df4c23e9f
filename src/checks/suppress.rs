//! Findings a game's own comments accept, as ruff's `noqa` does for a
//! line: a mainline comment `{pgn-arbiter: ignore CODE, CODE ...}`
//! (codes separated by commas or blanks; text after ` -- ` is a reason,
//! not read) leaves those codes out of its game, run-wide ones
//! (`duplicate-game`, the TRF's) included, wherever in the game it
//! stands. A code it names that leaves nothing out, or a word that is no
//! code, is itself reported as `unused-suppression`, so that comments do
//! not outlive what they accepted. `--fix` corrects nothing a comment
//! accepts, and keeps the comments.

use crate::{
    finding::{Finding, Kind},
    read::{
        comments::{MAX_SUPPRESSIONS, is_suppression},
        game::RawGame,
        listed::MAX_LISTED,
    },
};

/// One code a comment names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    /// The comment's line.
    line: u64,
    /// The word as written.
    code: String,
    /// The kind it names, if it is a code.
    kind: Option<Kind>,
    /// Whether it has left a finding out.
    used: bool,
}

/// The codes a game's comments leave out; empty (no allocation) for a game
/// without such comments. At most `MAX_SUPPRESSIONS` codes are read (as
/// many comments as the lexer records); the words past them are counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Suppressions {
    entries: Vec<Entry>,
    /// Codes past the first `MAX_SUPPRESSIONS`, and comments past those the
    /// lexer records, not read.
    not_read: u64,
}

impl Suppressions {
    /// The codes `game`'s mainline comments name.
    pub fn of(game: &RawGame<'_>) -> Suppressions {
        let mut entries = Vec::new();
        let mut not_read = game.lexed.comments.suppressions_past;
        for &(line, start, end) in &game.lexed.comments.suppressions {
            let text = game.bytes.get(start..end).unwrap_or_default();
            let text = String::from_utf8_lossy(text.trim_ascii());
            if !is_suppression(text.as_bytes()) {
                continue;
            }
            let rest = text
                .trim_start_matches("pgn-arbiter:")
                .trim_start()
                .trim_start_matches("ignore");
            let codes = rest.split(" -- ").next().unwrap_or_default();
            for word in codes.split(|c: char| c == ',' || c.is_whitespace()) {
                if entries.len() == MAX_SUPPRESSIONS {
                    not_read += u64::from(!word.is_empty());
                } else if !word.is_empty() {
                    entries.push(Entry {
                        line,
                        code: word.to_owned(),
                        kind: Kind::from_code(word),
                        used: false,
                    });
                }
            }
        }
        Suppressions { entries, not_read }
    }

    /// Each code as named, with its comment's line, and the words not
    /// read: what a results file keeps of them ([`from_named`](Self::from_named)
    /// makes them again).
    pub fn named(&self) -> (Vec<(u64, String)>, u64) {
        let named = self.entries.iter().map(|e| (e.line, e.code.clone()));
        (named.collect(), self.not_read)
    }

    /// The suppressions [`named`](Self::named) gave, none used yet.
    pub fn from_named(named: Vec<(u64, String)>, not_read: u64) -> Suppressions {
        let entries = named
            .into_iter()
            .map(|(line, code)| Entry {
                line,
                kind: Kind::from_code(&code),
                code,
                used: false,
            })
            .collect();
        Suppressions { entries, not_read }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.not_read == 0
    }

    /// Whether a comment names `kind`.
    pub fn names(&self, kind: Kind) -> bool {
        self.entries.iter().any(|e| e.kind == Some(kind))
    }

    /// Whether a finding of `kind` is left out; if it is, the comments that
    /// name it have been used.
    pub fn covers(&mut self, kind: Kind) -> bool {
        let mut covered = false;
        for entry in self.entries.iter_mut().filter(|e| e.kind == Some(kind)) {
            entry.used = true;
            covered = true;
        }
        covered
    }

    /// `unused-suppression` for each code named that left nothing out, or
    /// word that is no code, once the game's findings have all been
    /// through [`covers`](Self::covers). A code the run does not report
    /// (`judged` false: `--select`, `--ignore`) cannot be judged and is not
    /// reported.
    /// The first `MAX_LISTED` are listed, the rest counted in one more,
    /// so that a game of such comments cannot bury a report.
    pub fn unused(&self, judged: impl Fn(Kind) -> bool) -> Vec<Finding> {
        let unused: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| !e.used && e.kind.is_none_or(&judged))
            .collect();
        let mut out: Vec<Finding> = unused
            .iter()
            .take(MAX_LISTED)
            .map(|e| {
                let message = match e.kind {
                    Some(_) => format!(
                        "The comment on line {} leaves out '{}', but the game has no such finding: the comment can go.",
                        e.line, e.code
                    ),
                    None => format!(
                        "The comment on line {} names '{}', which is no finding code (did you mean '{}'?).",
                        e.line,
                        e.code,
                        Kind::nearest(&e.code)
                    ),
                };
                Finding::new(Kind::UnusedSuppression, e.line, message)
            })
            .collect();
        if self.not_read > 0 {
            out.push(Finding::new(
                Kind::UnusedSuppression,
                self.entries.last().map_or(0, |e| e.line),
                format!(
                    "Comments of this game that leave findings out are read up to their first {MAX_SUPPRESSIONS} codes; {} more codes or comments past those are not read, and leave nothing out.",
                    self.not_read
                ),
            ));
        }
        if let Some(first) = unused.get(MAX_LISTED) {
            out.push(Finding::new(
                Kind::UnusedSuppression,
                first.line,
                format!(
                    "{} more codes named by comments of this game, from line {} on, leave nothing out or are no codes; only the first {MAX_LISTED} are listed.",
                    unused.len() - MAX_LISTED,
                    first.line
                ),
            ));
        }
        out
    }
}

/// No suppressions, for a game seen without its comments.
#[cfg(test)]
pub static NONE: Suppressions = Suppressions {
    entries: Vec::new(),
    not_read: 0,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn suppressions(pgn: &str) -> Suppressions {
        Suppressions::of(&crate::testing::game(pgn).raw())
    }

    #[test]
    fn comments_name_codes_and_only_those() {
        let mut s = suppressions(
            "[White \"A\"]\n\n{ pgn-arbiter: ignore unclaimed-threefold,  missing-tag -- known }\n1. e4 {pgn-arbiter:ignore duplicate-game} e5 {pgn-arbiter: ignored} {pgn-arbiter: ignore misssing-tag} *",
        );
        assert!(s.names(Kind::UnclaimedThreefold));
        assert!(s.names(Kind::DuplicateGame));
        assert!(!s.names(Kind::InvalidDate));
        assert!(s.covers(Kind::MissingTag));
        assert!(!s.covers(Kind::InvalidDate));
        let unused = s.unused(|_| true);
        let messages: Vec<&str> = unused.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(unused.len(), 3, "{messages:#?}");
        assert!(messages[0].contains("'unclaimed-threefold'"));
        assert!(messages[1].contains("'duplicate-game'") && unused[1].line == 4);
        assert!(messages[2].contains("did you mean 'missing-tag'?"));
        // A code the run does not report is not judged.
        assert_eq!(s.unused(|k| k != Kind::DuplicateGame).len(), 2);
        // The words after ` -- ` are a reason, not codes.
        assert!(!messages.iter().any(|m| m.contains("known")));
        assert!(suppressions("{pgn-arbiter: missing-tag: added} 1. e4 *").is_empty());
    }

    #[test]
    fn a_flood_of_comments_is_listed_up_to_the_cap() {
        let pgn = format!("{} 1. e4 *", "{pgn-arbiter: ignore nothing} ".repeat(1000));
        let unused = suppressions(&pgn).unused(|_| true);
        assert_eq!(unused.len(), MAX_LISTED + 1);
        let more = &unused[MAX_LISTED].message;
        assert!(more.starts_with("900 more codes"), "{more}");
        // Past what is read: counted, in bounded memory. 1,000 codes of the
        // 1,000 comments recorded are not read, nor the 2,000 comments not
        // recorded.
        let pgn = format!("{} 1. e4 *", "{pgn-arbiter: ignore a b} ".repeat(3000));
        let s = suppressions(&pgn);
        assert_eq!(s.entries.len(), MAX_SUPPRESSIONS);
        assert_eq!(s.not_read, 3000);
        let unused = s.unused(|_| true);
        assert_eq!(unused.len(), MAX_LISTED + 2);
        let past = &unused[MAX_LISTED].message;
        assert!(past.contains("3000 more codes or comments"), "{past}");
    }
}
