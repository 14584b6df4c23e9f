//! Corrections of the tag section: missing roster tags added, PlyCount
//! set, quotes inside values escaped.

use crate::{
    finding::Kind,
    read::game::{RawGame, excerpt},
};

use super::edit::*;

/// The Seven Tag Roster in its order, and the value a missing tag gets.
pub(super) const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The roster tags the game lacks, with the values they get (`?`).
pub(super) fn missing_roster(game: &RawGame<'_>) -> Vec<(&'static str, &'static str)> {
    ROSTER[..6]
        .iter()
        .filter(|(name, _)| game.tags.find(name).is_none())
        .copied()
        .collect()
}

impl Rewrite<'_, '_> {
    /// Tags added (missing roster tags, and a Result tag where there was
    /// none), with a comment that names the roster tags.
    pub(super) fn add_roster(&mut self, tags_added: &[(&str, &str)]) {
        add_tags(self, tags_added);
        let list: Vec<String> = tags_added
            .iter()
            .filter(|(name, _)| *name != "Result")
            .map(|(name, value)| format!("[{name} \"{value}\"]"))
            .collect();
        if !list.is_empty() {
            let what = format!("added {}", list.join(", "));
            let text = self.change(Kind::MissingTag, self.game.line, what);
            self.head.push(text);
        }
    }

    /// PlyCount set to the plies `kept`, if it says another number; `kind`
    /// is the finding that justifies it.
    pub(super) fn ply_count(&mut self, kept: usize, kind: Kind) {
        let game = self.game;
        let Some((index, value)) = game.tags.find("PlyCount") else {
            return;
        };
        let stated = std::str::from_utf8(value)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok());
        if stated != Some(kept)
            && let Some(&(start, end)) = game.lexed.tag_values.get(index)
        {
            let what = format!("PlyCount \"{}\" changed to \"{kept}\"", excerpt(value, 20));
            self.edit(start, end, kept.to_string());
            let text = self.change(kind, game.tag_line(index), what);
            self.head.push(text);
        }
    }
}

/// Escapes the quotes inside tag values that are written without `\`
/// (`[White ""Mephisto""]` becomes `[White "\"Mephisto\""]`), so that
/// every reader takes the value as one, as the lexer does.
pub(super) fn escape_inner_quotes(fix: &mut Rewrite<'_, '_>) {
    let game = fix.game;
    // The comment names the first few tags, and counts the rest.
    const NAMED: usize = 5;
    let mut names = Vec::new();
    let mut escaped_count = 0;
    let mut first_line = None;
    let values = game.lexed.tag_values.iter();
    // The edits made before this step (the values they replace win).
    let earlier = fix.edits.len();
    for ((index, name, _), &(start, end)) in game.tags.iter().zip(values) {
        let raw = game.bytes.get(start..end).unwrap_or_default();
        let Some(escaped) = escape_quotes(raw) else {
            continue;
        };
        let replaced = fix.edits.get(..earlier).unwrap_or_default();
        if replaced.iter().any(|e| e.start <= start && end <= e.end) {
            continue;
        }
        fix.edit(start, end, escaped);
        first_line.get_or_insert(game.tag_line(index));
        escaped_count += 1;
        if names.len() < NAMED {
            names.push(format!("[{}]", String::from_utf8_lossy(name)));
        }
    }
    if let Some(line) = first_line {
        if escaped_count > NAMED {
            names.push(format!("{} more", escaped_count - NAMED));
        }
        let what = format!("quotes inside the value of {} escaped", names.join(", "));
        let text = fix.change(Kind::NonStandardTag, line, what);
        fix.head.push(text);
    }
}

/// `raw` with every quote not already escaped written as `\"`, or `None`
/// when it has none.
pub(super) fn escape_quotes(raw: &[u8]) -> Option<Vec<u8>> {
    memchr::memchr(b'"', raw)?;
    let mut out = Vec::with_capacity(raw.len() + 4);
    let mut changed = false;
    let mut bytes = raw.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => {
                out.push(b);
                if let Some(&next) = bytes.next() {
                    out.push(next);
                }
            }
            b'"' => {
                out.extend_from_slice(b"\\\"");
                changed = true;
            }
            _ => out.push(b),
        }
    }
    changed.then_some(out)
}

/// New tag lines, each after the roster tag before it (or before the first
/// tag), in roster order.
pub(super) fn add_tags(fix: &mut Rewrite<'_, '_>, added: &[(&str, &str)]) {
    let game = fix.game;
    let eol = fix.eol;
    if added.is_empty() {
        return;
    }
    if game.tags.is_empty() {
        let mut text = String::new();
        for (name, value) in added {
            text.push_str(&format!("[{name} \"{value}\"]{eol}"));
        }
        text.push_str(eol);
        // Before the comments about the game, which go before its moves.
        fix.ranked(0, 0, 0, text);
        return;
    }
    for &(name, value) in added {
        let order = ROSTER.iter().position(|r| r.0 == name).unwrap_or(0);
        // The last roster tag before this one in roster order that the game has.
        let before = ROSTER[..order]
            .iter()
            .rev()
            .find_map(|r| game.tags.find(r.0).map(|(i, _)| i));
        let line = format!("[{name} \"{value}\"]");
        // After the roster tag before it, when that line ends before the
        // movetext begins (not in a tag line that runs into movetext).
        // ... and where the next line is another tag or blank: a `]` there
        // may close a `[` left open on the tag's line, which a line put
        // between them would change.
        let movetext = movetext_start(game).min(game.lexed.tags_end);
        let fits = |at: usize| {
            at == movetext || matches!(game.bytes.get(at), None | Some(b'[' | b'\n' | b'\r'))
        };
        let before = before.filter(|&index| {
            let at = fix.after_tag(index).0;
            at <= movetext && fits(at)
        });
        match before {
            Some(index) => {
                let (at, no_break) = fix.after_tag(index);
                let text = if no_break {
                    format!("{eol}{line}")
                } else {
                    format!("{line}{eol}")
                };
                fix.edit(at, at, text);
            }
            // Where the game starts only because its first tag repeats a
            // name of the game before, after that tag's line: a line put
            // before it would join the two games. Where that line runs
            // into more than a tag, nowhere (the copy then does not read
            // back with the tags added, and the game is written as it was).
            None if game.after_tag_break => {
                if let Some(n) = memchr::memchr(b'\n', game.bytes)
                    && n < movetext
                    && fits(n + 1)
                {
                    fix.edit(n + 1, n + 1, format!("{line}{eol}"));
                }
            }
            None => fix.edit(0, 0, format!("{line}{eol}")),
        }
    }
}
