//! What a rating officer checks in a tag section beyond its syntax: the
//! Seven Tag Roster all there (PGN 8.1.1), dates that are dates (8.1.1.3,
//! 9.2.1), ratings and FIDE IDs that are numbers (9.1.2), a TimeControl as
//! 9.6.1 writes it, a FEN with its SetUp (9.7.1), a PlyCount that counts the
//! plies recorded (9.9.3), and no tag given twice with two values.

use std::collections::HashMap;

use super::time_control;
use crate::{
    finding::{Finding, Kind},
    read::game::{RawGame, excerpt},
};

/// How the tag section is judged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeaderRules {
    /// The run's day as `YYYYMMDD`, where it is latest (`latest_day`): a
    /// later date is reported. 0: never.
    pub today: u32,
    /// `--strict-tags`: report `?` and `????.??.??` in the roster as
    /// unknown values.
    pub strict: bool,
}

/// The roster's tags other than Result (`missing-result` reports that one).
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

pub fn check(game: &RawGame<'_>, rules: HeaderRules, findings: &mut Vec<Finding>) {
    let found = &game.tags;
    roster(game, rules, findings);
    twice(game, findings);
    // Each name written out, so that its place among the known names is
    // found when this is compiled (`Tags::find`), not looked up per game.
    for (name, tag) in [
        ("Date", found.find("Date")),
        ("EventDate", found.find("EventDate")),
    ] {
        if let Some((index, value)) = tag
            && let Err(why) = date(value, rules.today)
        {
            findings.push(Finding::new(
                Kind::InvalidDate,
                game.tag_line(index),
                format!("{name} '{}' {why}.", excerpt(value, 40)),
            ));
        }
    }
    // A consultation game names several players for a side, separated by
    // ':', and then as many fields in each player tag (PGN 9.1).
    for (name, tag) in [
        ("WhiteElo", found.find("WhiteElo")),
        ("BlackElo", found.find("BlackElo")),
    ] {
        if let Some((index, value)) = tag
            && !fields(value).all(is_rating)
        {
            findings.push(Finding::new(
                Kind::InvalidElo,
                game.tag_line(index),
                format!(
                    "{name} '{}' is not a rating: a whole number, 0 or from 100 to 3500 (or ?, - or empty when unknown; one for each player of a consultation game, separated by ':').",
                    excerpt(value, 40)
                ),
            ));
        }
    }
    for (name, tag) in [
        ("WhiteFideId", found.find("WhiteFideId")),
        ("BlackFideId", found.find("BlackFideId")),
    ] {
        if let Some((index, value)) = tag
            && !fields(value).all(|v| unknown(v) || v.iter().all(u8::is_ascii_digit))
        {
            findings.push(Finding::new(
                Kind::InvalidFideId,
                game.tag_line(index),
                format!(
                    "{name} '{}' is not a FIDE ID, which is digits only (or ?, - or empty when unknown; one for each player of a consultation game, separated by ':').",
                    excerpt(value, 40)
                ),
            ));
        }
    }
    if let Some((index, value)) = found.find("TimeControl")
        && !is_time_control(value)
    {
        findings.push(time_control_finding(value, game.tag_line(index)));
    }
    // SetUp "1" marks a set-up position (9.7.1): a FEN of the usual
    // initial array needs none.
    if let Some((index, fen)) = found.find("FEN")
        && found.get("SetUp") != Some(b"1")
        && !is_initial_array(fen)
    {
        let setup = match found.get("SetUp") {
            Some(value) => format!("[SetUp \"{}\"]", excerpt(value, 20)),
            None => "no SetUp tag".to_owned(),
        };
        findings.push(Finding::new(
            Kind::FenWithoutSetup,
            game.tag_line(index),
            format!(
                "The game has a FEN tag but {setup}; PGN marks a game that does not start from the usual position with [SetUp \"1\"]. The FEN is used."
            ),
        ));
    }
    plies(game, findings);
}

/// Roster tags that are missing, or (strict) unknown.
fn roster(game: &RawGame<'_>, rules: HeaderRules, findings: &mut Vec<Finding>) {
    let found = &game.tags;
    // The roster's names written out, as in `check`.
    let all_there = found.get("Event").is_some()
        && found.get("Site").is_some()
        && found.get("Date").is_some()
        && found.get("Round").is_some()
        && found.get("White").is_some()
        && found.get("Black").is_some();
    if all_there && !rules.strict {
        return;
    }
    let missing: Vec<&str> = ROSTER
        .into_iter()
        .filter(|name| found.get(name).is_none())
        .collect();
    if !missing.is_empty() {
        findings.push(Finding::new(
            Kind::MissingTag,
            game.line,
            format!(
                "The Seven Tag Roster lacks {} (PGN 8.1.1 requires it in every game; '?' stands for a value not known).",
                missing.join(", ")
            ),
        ));
    }
    if rules.strict {
        let unknown: Vec<&str> = ROSTER
            .into_iter()
            .filter(|name| {
                found
                    .get(name)
                    .is_some_and(|v| v.iter().all(|b| matches!(b, b'?' | b'.')) && !v.is_empty())
            })
            .collect();
        if !unknown.is_empty() {
            let line = found
                .find(unknown[0])
                .map_or(game.line, |(i, _)| game.tag_line(i));
            findings.push(Finding::new(
                Kind::UnknownTagValue,
                line,
                format!("The values of {} are not known ('?').", unknown.join(", ")),
            ));
        }
    }
}

/// Tags given more than once with different values: one finding per name.
fn twice(game: &RawGame<'_>, findings: &mut Vec<Finding>) {
    let n = game.tags.len();
    if n < 2 || !game.tags.may_repeat_a_name() {
        return;
    }
    // Few tags: each one's first namesake, without allocating (the names
    // the checks read are indexed; others are compared with those before
    // them). Many: a table.
    let mut table: HashMap<&[u8], (usize, &[u8])> = HashMap::new();
    let mut reported: Vec<&[u8]> = Vec::new();
    for (index, name, value) in game.tags.iter() {
        let earlier = if n <= 32 {
            game.tags.earlier(index).map(|i| (i, game.tags.value(i)))
        } else {
            match table.get(name) {
                Some(&first) => Some(first),
                None => {
                    table.insert(name, (index, value));
                    None
                }
            }
        };
        if let Some((first, kept)) = earlier
            && kept != value
            && !reported.contains(&name)
        {
            reported.push(name);
            findings.push(Finding::new(
                Kind::DuplicateTag,
                game.tag_line(index),
                format!(
                    "Tag {} is given twice with different values: '{}' (line {}) and '{}'; the first is used.",
                    excerpt(name, 30),
                    excerpt(kept, 40),
                    game.tag_line(first),
                    excerpt(value, 40)
                ),
            ));
        }
    }
}

/// PlyCount against the plies recorded, when the record was read to its end.
fn plies(game: &RawGame<'_>, findings: &mut Vec<Finding>) {
    let Some((index, value)) = game.tags.find("PlyCount") else {
        return;
    };
    if game.lexed.stop.is_some() {
        return;
    }
    let recorded = game.lexed.sans.len();
    let stated = std::str::from_utf8(value)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok());
    if stated == Some(recorded) {
        return;
    }
    let said = match stated {
        Some(n) => format!("says {n} plies"),
        None => format!("'{}' is not a number", excerpt(value, 20)),
    };
    findings.push(Finding::new(
        Kind::PlyCountMismatch,
        game.tag_line(index),
        format!("PlyCount {said}, but the game records {recorded}."),
    ));
}

/// `?`, `-` or empty: a tag value not known.
pub fn unknown(value: &[u8]) -> bool {
    matches!(value.trim_ascii(), b"" | b"?" | b"-")
}

/// The fields of a player tag, one per player of the side (PGN 9.1: a
/// consultation game has `2500:2600`).
fn fields(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    value.split(|&b| b == b':')
}

/// A rating: unknown, 0, or 100 to 3500, an integer (PGN 9.1.2), so
/// leading zeros are allowed.
fn is_rating(value: &[u8]) -> bool {
    if unknown(value) {
        return true;
    }
    let value = value.trim_ascii();
    value.iter().all(u8::is_ascii_digit)
        && btoi::btou_saturating::<u32>(value).is_ok_and(|n| n == 0 || (100..=3500).contains(&n))
}

/// The usual initial array as a FEN, whatever its move counters.
fn is_initial_array(fen: &[u8]) -> bool {
    let mut fields = fen
        .trim_ascii()
        .split(|&b| b == b' ')
        .filter(|f| !f.is_empty());
    let first: [Option<&[u8]>; 4] = std::array::from_fn(|_| fields.next());
    first
        == [
            Some(&b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"[..]),
            Some(b"w"),
            Some(b"KQkq"),
            Some(b"-"),
        ]
}

/// A TimeControl not as PGN 9.6.1 writes it: read as the control it
/// states when its meaning is plain (info), else a warning.
fn time_control_finding(value: &[u8], line: u64) -> Finding {
    match std::str::from_utf8(value).ok().and_then(time_control::read) {
        Some(reading) => {
            let pgn = match &reading.pgn {
                Some(form) => format!("which PGN 9.6.1 writes as '{form}'"),
                None => "which PGN 9.6.1 has no form for (it writes whole seconds, and an increment only in a last period without a move count)".to_owned(),
            };
            Finding::new(
                Kind::NonStandardTimeControl,
                line,
                format!(
                    "TimeControl '{}' reads as {}, {pgn}.",
                    excerpt(value, 80),
                    reading.meaning
                ),
            )
        }
        None => Finding::new(
            Kind::InvalidTimeControl,
            line,
            format!(
                "TimeControl '{}' is not written as PGN 9.6.1 writes it: periods separated by ':', each moves/seconds (40/7200) or *seconds (*180) in positive integers, seconds (3600) or seconds+increment (300+2); or ? or -.",
                excerpt(value, 40)
            ),
        ),
    }
}

/// PGN 9.6.1: `?`, `-`, or periods separated by `:`, each `moves/seconds`
/// or `*seconds` (positive integers), `seconds`, or `seconds+increment`.
/// A zero is allowed in the last (9.6.1 says positive): `300+0` and `0+1`
/// are how servers write no increment and no base time.
fn is_time_control(value: &[u8]) -> bool {
    if matches!(value, b"?" | b"-") {
        return true;
    }
    let number = |n: &[u8]| !n.is_empty() && n.iter().all(u8::is_ascii_digit);
    let positive = |n: &[u8]| number(n) && n.iter().any(|&b| b != b'0');
    !value.is_empty()
        && value.split(|&b| b == b':').all(|period| {
            if let Some(seconds) = period.strip_prefix(b"*") {
                return positive(seconds);
            }
            if let Some((moves, seconds)) = split_once(period, b'/') {
                return positive(moves) && positive(seconds);
            }
            match split_once(period, b'+') {
                Some((base, increment)) => number(base) && number(increment),
                None => number(period),
            }
        })
}

fn split_once(bytes: &[u8], at: u8) -> Option<(&[u8], &[u8])> {
    let i = memchr::memchr(at, bytes)?;
    Some((&bytes[..i], &bytes[i + 1..]))
}

/// Whether a date is `YYYY.MM.DD` (`??` for unknown parts), possible, and
/// not after `today` (`YYYYMMDD`, 0: no bound). Else why not.
fn date(value: &[u8], today: u32) -> Result<(), String> {
    let form =
        || "is not of the form YYYY.MM.DD (with ?? for parts not known, PGN 8.1.1.3)".to_owned();
    let [y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = *value else {
        return Err(form());
    };
    let part = |digits: &[u8]| -> Result<Option<u32>, String> {
        if digits.iter().all(|&b| b == b'?') {
            Ok(None)
        } else if digits.iter().all(u8::is_ascii_digit) {
            Ok(btoi::btou::<u32>(digits).ok())
        } else {
            Err(form())
        }
    };
    let year = part(&[y0, y1, y2, y3])?;
    let month = part(&[m0, m1])?;
    let day = part(&[d0, d1])?;
    if let Some(m) = month
        && !(1..=12).contains(&m)
    {
        return Err(format!("is not a date: there is no month {m}"));
    }
    if let Some(d) = day {
        let last = match (month, year) {
            (Some(2), Some(y)) if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
            (Some(2), Some(_)) => 28,
            (Some(2), None) => 29,
            (Some(4 | 6 | 9 | 11), _) => 30,
            _ => 31,
        };
        if !(1..=last).contains(&d) {
            return Err(format!("is not a date: that month has no day {d}"));
        }
    }
    if today > 0
        && let Some(y) = year
    {
        let (ty, tm, td) = (today / 10000, today / 100 % 100, today % 100);
        debug_assert!(ty > 0 && tm > 0 && td > 0);
        let later = y > ty
            || (y == ty && month.is_some_and(|m| m > tm))
            || (y == ty && month == Some(tm) && day.is_some_and(|d| d > td));
        if later {
            // The run's day is not named: a report must not change with it.
            return Err("is after the day of this run, wherever on Earth".to_owned());
        }
    }
    Ok(())
}

/// Today's date (UTC) as `YYYYMMDD`, from the system clock.
pub fn today() -> u32 {
    day_at(0)
}

/// Today's date where it is latest, at UTC+14 (Kiribati), as `YYYYMMDD`:
/// a game dated with it may have been played already, whatever the time
/// zone of its Site; a later date cannot have been.
pub fn latest_day() -> u32 {
    day_at(14 * 3600)
}

/// The date at `offset` seconds east of UTC, from the system clock.
fn day_at(offset: u64) -> u32 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .saturating_add(offset);
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    // Howard Hinnant's days-to-civil, for the proleptic Gregorian calendar.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    u32::try_from(year * 10_000 + month * 100 + day).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each roster tag a game lacks is reported, whichever it is.
    #[test]
    fn a_game_without_any_one_roster_tag_is_told_so() {
        for missing in ROSTER {
            let mut pgn = String::new();
            for name in ROSTER.iter().filter(|&&n| n != missing) {
                pgn.push_str(&format!("[{name} \"x\"]\n"));
            }
            pgn.push_str("[Result \"*\"]\n\n1. e4 *\n");
            let game = crate::testing::checked(pgn.as_bytes());
            let told: Vec<_> = game
                .findings
                .iter()
                .filter(|f| f.kind == Kind::MissingTag)
                .collect();
            assert_eq!(told.len(), 1, "{missing}");
            assert!(told[0].message.contains(missing), "{missing}");
        }
    }

    #[test]
    fn dates() {
        let today = 20261130;
        for ok in [
            "2024.05.17",
            "????.??.??",
            "2024.??.??",
            "2024.02.??",
            "2024.02.29",
            "????.02.29",
            "2026.11.30",
        ] {
            assert_eq!(date(ok.as_bytes(), today), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("2024.13.01", "no month 13"),
            ("2023.02.29", "no day 29"),
            ("2024.04.31", "no day 31"),
            ("2024-05-17", "form"),
            ("24.05.17", "form"),
            ("2024.5.17", "form"),
            ("2026.12.01", "after"),
            ("2027.??.??", "after"),
            ("2026.11.31", "no day 31"),
        ] {
            let err = date(bad.as_bytes(), today).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert_eq!(date(b"2999.01.01", 0), Ok(()), "no bound");
    }

    #[test]
    fn ratings_and_time_controls() {
        for (value, ok) in [
            ("2750", true),
            // An integer (PGN 9.1.2), leading zeros and all.
            ("02750", true),
            ("0", true),
            ("?", true),
            ("", true),
            ("-", true),
            ("99", false),
            ("3600", false),
            ("2750.5", false),
            ("abc", false),
        ] {
            assert_eq!(is_rating(value.as_bytes()), ok, "{value}");
        }
        for (value, ok) in [
            ("40/7200:3600", true),
            ("300+2", true),
            ("?", true),
            ("-", true),
            ("*180", true),
            ("180", true),
            ("40/7200:20/3600:900+30", true),
            // No increment, no base time: how servers write them.
            ("300+0", true),
            ("0+1", true),
            // Positive integers (9.6.1): no period of 0 moves or seconds.
            ("40/0", false),
            ("0/300", false),
            ("*0", false),
            ("*000", false),
            ("90 min", false),
            ("40/7200+30:1800+30", false),
            ("", false),
            ("5+", false),
        ] {
            assert_eq!(is_time_control(value.as_bytes()), ok, "{value}");
        }
    }

    #[test]
    fn consultation_games_and_the_initial_array() {
        assert!(fields(b"2500:2600").all(is_rating));
        assert!(fields(b"2500:-").all(is_rating));
        assert!(!fields(b"2500:26x0").all(is_rating));
        assert!(is_initial_array(
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        assert!(is_initial_array(
            b" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        ));
        assert!(!is_initial_array(
            b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        ));
        assert!(!is_initial_array(
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1"
        ));
    }

    #[test]
    fn the_latest_day_is_today_or_tomorrow_at_utc() {
        let (utc, latest) = (today(), latest_day());
        assert!(latest >= utc, "{latest} {utc}");
        // Tomorrow at UTC is today at UTC+14 for 14 hours of each day.
        let tomorrow_utc = day_at(86_400);
        assert!(latest <= tomorrow_utc, "{latest} {tomorrow_utc}");
    }

    #[test]
    fn today_is_a_date() {
        let t = today();
        assert!(t > 20240101, "{t}");
        assert_eq!(
            date(
                format!("{:04}.{:02}.{:02}", t / 10000, t / 100 % 100, t % 100).as_bytes(),
                t
            ),
            Ok(())
        );
    }
}
