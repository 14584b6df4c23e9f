//! Tag pairs: lines that are not `[Name "value"]` (PGN 8.1.1), values that
//! are not UTF-8 (PGN 4.1), and a Result value that is not one of the four
//! (PGN 8.1.1.7).

use crate::{
    finding::{Finding, Kind},
    read::game::{RawGame, excerpt},
    read::listed::MAX_LISTED,
    read::outcome::RESULTS,
};

/// The tag section's findings, in the order of the record's lines within
/// each kind.
pub fn check(game: &RawGame<'_>, findings: &mut Vec<Finding>) {
    tag_lines(game, findings);
    encoding(game, findings);
    if let Some((index, value)) = game.tags.find("Result")
        && !RESULTS.iter().any(|r| r.as_bytes() == value)
    {
        findings.push(Finding::new(
            Kind::InvalidResult,
            game.tag_line(index),
            format!(
                "Result tag '{}' is none of 1-0, 0-1, 1/2-1/2 or *.",
                excerpt(value, 40)
            ),
        ));
    }
}

/// Tag lines that are not tags, and tags not written as PGN writes them
/// (white space around the name, a pair over lines, quotes not escaped).
fn tag_lines(game: &RawGame<'_>, findings: &mut Vec<Finding>) {
    for bad in game.lexed.bad_tags.listed() {
        findings.push(Finding::new(
            Kind::MalformedTag,
            bad.line,
            format!(
                "Tag line '{}' is not of the form [Name \"value\"]: {}.",
                game.line_text(bad.line_start),
                bad.problem.describe()
            ),
        ));
    }
    let spaced = &game.lexed.spaced_tags;
    for &(line, at) in spaced.listed() {
        let text = game.line_text(at);
        findings.push(Finding::new(
            Kind::NonStandardTag,
            line,
            format!("Tag line '{text}' has white space around the tag name; it is read as the tag it names, but PGN writes [Name \"value\"]."),
        ));
    }
    if let Some((more, &(line, _))) = spaced.unlisted() {
        findings.push(Finding::new(
            Kind::NonStandardTag,
            line,
            format!(
                "{more} more tag lines of this game, from this line on, have white space around the tag name; only the first {MAX_LISTED} are listed."
            ),
        ));
    }
    let split = &game.lexed.split_tags;
    for &(first, last, index) in split.listed() {
        let Some((_, name, value)) = game.tags.iter().nth(index) else {
            continue;
        };
        let pair = crate::read::game::excerpt(&[b"[", name, b" \"", value, b"\"]"].concat(), 60);
        findings.push(Finding::new(
            Kind::NonStandardTag,
            first,
            format!("Tag pair '{pair}' is split over lines {first} to {last}; it is read as the tag it names, but PGN writes a tag pair on one line."),
        ));
    }
    if let Some((more, &(line, _, _))) = split.unlisted() {
        findings.push(Finding::new(
            Kind::NonStandardTag,
            line,
            format!(
                "{more} more tag pairs of this game, from this line on, are split over lines; only the first {MAX_LISTED} are listed."
            ),
        ));
    }
    let quoted = &game.lexed.quoted_tags;
    for &(line, index) in quoted.listed() {
        let Some((_, name, value)) = game.tags.iter().nth(index) else {
            continue;
        };
        let name = excerpt(name, 20);
        let value = excerpt(value, 60);
        findings.push(Finding::new(
            Kind::NonStandardTag,
            line,
            format!("The value of tag {name} has quotes inside it that are not escaped; it is read as one value, '{value}', up to the quote before ']', but PGN writes a quote inside a value as \\\"."),
        ));
    }
    if let Some((more, &(line, _))) = quoted.unlisted() {
        findings.push(Finding::new(
            Kind::NonStandardTag,
            line,
            format!(
                "{more} more tag values of this game, from this line on, have quotes inside them that are not escaped; only the first {MAX_LISTED} are listed."
            ),
        ));
    }
    if let Some((more, bad)) = game.lexed.bad_tags.unlisted() {
        findings.push(Finding::new(
            Kind::MalformedTag,
            bad.line,
            format!(
                "{more} more tag lines of this game, from this line on, are not of the form [Name \"value\"]; only the first {MAX_LISTED} are listed."
            ),
        ));
    }
}

/// Tag values that are not UTF-8, named in one finding.
fn encoding(game: &RawGame<'_>, findings: &mut Vec<Finding>) {
    if game.tags.is_ascii() {
        return;
    }
    let mut not_utf8 = game
        .tags
        .iter()
        .filter(|(_, _, value)| std::str::from_utf8(value).is_err());
    if let Some((first, name, value)) = not_utf8.next() {
        let mut names = vec![excerpt(name, 20)];
        let mut more = 0;
        for (_, name, _) in not_utf8 {
            if names.len() < 10 {
                names.push(excerpt(name, 20));
            } else {
                more += 1;
            }
        }
        if more > 0 {
            names.push(format!("{more} more"));
        }
        findings.push(Finding::new(
            Kind::Encoding,
            game.tag_line(first),
            format!(
                "Tag values of {} are not valid UTF-8; they were read as Windows-1252 (e.g. '{}').",
                names.join(", "),
                excerpt(value, 40)
            ),
        ));
    }
}
