//! TimeControl values written as people write them rather than as PGN
//! 9.6.1 does: `15 min. + 10 s. per move`, `15 minutes + 10 seconds
//! increment per move, starting from move 1` (broadcasts), `40/5400+30`
//! (FIDE's own notation: an increment within a period of moves), `90 min
//! + 30 s`, `10+0.05` (engine matches), `inf`. Their meaning is plain, so
//! they are read as the control they state, with what PGN writes instead;
//! only a value that cannot be read is `invalid-time-control`.

/// A duration as written: seconds, maybe fractional.
type Seconds = f64;

/// One period of a control: moves to make in it (none: the rest of the
/// game), its time, and the time added a move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Period {
    /// Moves to make in it; `None`: the rest of the game.
    pub moves: Option<u32>,
    /// Its time, given when it starts.
    pub base: Seconds,
    /// Time added for each move made in it.
    pub increment: Seconds,
}

/// What a value read as a control states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// In words: `40 moves in 90 min, 30 s added a move`.
    pub meaning: String,
    /// As PGN 9.6.1 writes it, when it can (whole seconds; an increment
    /// only in a last period of the rest of the game).
    pub pgn: Option<String>,
}

/// Words that say what the numbers already say, left out before reading.
const FILLERS: [&str; 12] = [
    "starting from move 1",
    "from move 1",
    "for the rest of the game",
    "for the game",
    "increment",
    "per each move",
    "per move",
    "for each move",
    "each move",
    "a move",
    "added",
    "bonus",
];

/// Values that say the game had no time control.
fn is_untimed(text: &str) -> bool {
    matches!(text, "-" | "inf" | "infinite" | "unlimited" | "none" | "∞")
}

/// A value read as a control, when its meaning is plain.
pub fn read(value: &str) -> Option<Reading> {
    let text = value.trim().to_lowercase();
    if is_untimed(&text) && text != "-" {
        return Some(Reading {
            meaning: "no time control".to_owned(),
            pgn: Some("-".to_owned()),
        });
    }
    let periods = periods_of(text)?;
    Some(Reading {
        meaning: periods
            .iter()
            .map(words)
            .collect::<Vec<_>>()
            .join(", then "),
        pgn: pgn_form(&periods),
    })
}

/// The periods of a control, as PGN 9.6.1 writes it (`40/5400:1800+30`,
/// `180+2`) or as people do (see [`read`]); `None` for a game without
/// one (`-`, `inf`) and for a value that cannot be read (`?`).
pub fn periods(value: &str) -> Option<Vec<Period>> {
    let text = value.trim().to_lowercase();
    if is_untimed(&text) {
        return None;
    }
    periods_of(text)
}

/// [`periods`] of a game's TimeControl tag.
pub fn of_game(game: &crate::read::game::RawGame<'_>) -> Option<Vec<Period>> {
    let value = game.tags.get("TimeControl")?;
    periods(std::str::from_utf8(value).ok()?)
}

/// The periods of a lower-cased value.
fn periods_of(text: String) -> Option<Vec<Period>> {
    let mut text = text;
    // PGN's own forms (`180+2`, `40/5400:1800`) have no words to leave out.
    if text.bytes().any(|b| !b"0123456789+/:.".contains(&b)) {
        for filler in FILLERS {
            text = text.replace(filler, " ");
        }
        // Periods: `,`, `;`, `then`.
        text = text.replace(" then ", ",").replace(';', ",");
    }
    let periods: Option<Vec<Period>> = text
        .split([',', ':'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(period)
        .collect();
    periods.filter(|p| !p.is_empty())
}

/// One period: `[moves / | moves moves in] duration [+ duration]`.
fn period(text: &str) -> Option<Period> {
    let mut rest = text;
    let mut moves = None;
    if let Some((count, after)) = rest.split_once('/') {
        moves = Some(count.trim().parse().ok()?);
        rest = after;
    } else if let Some((count, after)) = rest.split_once(" moves in ") {
        moves = Some(count.trim().parse().ok()?);
        rest = after;
    }
    let (base, increment) = match rest.split_once('+') {
        Some((base, increment)) => (duration(base)?, duration(increment)?),
        None => (duration(rest)?, 0.0),
    };
    // A period of no time and nothing added (`40/0`) is no control.
    (moves != Some(0) && base >= 0.0 && base + increment > 0.0).then_some(Period {
        moves,
        base,
        increment,
    })
}

/// A duration: numbers each with a unit (h, min, s and their spellings,
/// `'` and `"`), summed; a number without one is seconds.
fn duration(text: &str) -> Option<Seconds> {
    let text = text.trim();
    let mut total = 0.0;
    let mut rest = text;
    let mut any = false;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let number: f64 = rest.get(..digits)?.parse().ok()?;
        rest = rest.get(digits..)?.trim_start();
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c.is_whitespace())
            .unwrap_or(rest.len());
        let unit = rest.get(..unit_end)?.trim_end_matches('.');
        let scale = match unit {
            "" | "s" | "sec" | "secs" | "second" | "seconds" | "\"" | "''" => 1.0,
            "m" | "min" | "mins" | "minute" | "minutes" | "'" => 60.0,
            "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
            _ => return None,
        };
        total += number * scale;
        any = true;
        rest = rest.get(unit_end..)?.trim_start();
    }
    (any && total.is_finite()).then_some(total)
}

/// A duration in words: `90 min`, `2 h`, `10 s`, `0.05 s`.
fn span(seconds: Seconds) -> String {
    let whole = seconds.fract() == 0.0;
    if whole && seconds >= 3600.0 && seconds % 3600.0 == 0.0 {
        format!("{} h", seconds / 3600.0)
    } else if whole && seconds >= 60.0 && seconds % 60.0 == 0.0 {
        format!("{} min", seconds / 60.0)
    } else {
        format!("{seconds} s")
    }
}

fn words(p: &Period) -> String {
    let mut text = match p.moves {
        Some(moves) => format!("{moves} moves in {}", span(p.base)),
        None => span(p.base),
    };
    if p.increment > 0.0 {
        text.push_str(&format!(" with {} added a move", span(p.increment)));
    }
    text
}

/// The PGN 9.6.1 form of `periods`, when it has one: whole seconds, and
/// an increment only in a last period without a move count.
fn pgn_form(periods: &[Period]) -> Option<String> {
    let whole = |s: Seconds| (s.fract() == 0.0 && s < 1e9).then_some(s as u64);
    let last = periods.len() - 1;
    periods
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let base = whole(p.base)?;
            let increment = whole(p.increment)?;
            match p.moves {
                Some(moves) if increment == 0 && base > 0 => Some(format!("{moves}/{base}")),
                None if i == last && increment > 0 => Some(format!("{base}+{increment}")),
                None if i == last && base > 0 => Some(base.to_string()),
                _ => None,
            }
        })
        .collect::<Option<Vec<_>>>()
        .map(|p| p.join(":"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_forms_read_as_the_control_they_state() {
        for (value, meaning, pgn) in [
            (
                "15 min. + 10 s. per move",
                "15 min with 10 s added a move",
                Some("900+10"),
            ),
            (
                "15 minutes + 10 seconds increment per move, starting from move 1",
                "15 min with 10 s added a move",
                Some("900+10"),
            ),
            (
                "90 min + 30 sec",
                "90 min with 30 s added a move",
                Some("5400+30"),
            ),
            ("90'+30\"", "90 min with 30 s added a move", Some("5400+30")),
            ("1h30m", "90 min", Some("5400")),
            (
                "40/5400+30",
                "40 moves in 90 min with 30 s added a move",
                None,
            ),
            (
                "40 moves in 2 hours, then 30 min + 30 s",
                "40 moves in 2 h, then 30 min with 30 s added a move",
                Some("40/7200:1800+30"),
            ),
            ("10+0.05", "10 s with 0.05 s added a move", None),
            ("inf", "no time control", Some("-")),
        ] {
            let reading = read(value).unwrap_or_else(|| panic!("{value}"));
            assert_eq!(reading.meaning, meaning, "{value}");
            assert_eq!(reading.pgn.as_deref(), pgn, "{value}");
        }
    }

    #[test]
    fn what_is_not_plain_is_not_read() {
        for value in [
            "blitz",
            "rapid 15",
            "15 furlongs",
            "40/",
            "0/300",
            // A period of no time is no control (FIDE has none such).
            "40/0",
            "0 min",
            "+",
            "",
            "1:30 pm",
        ] {
            assert_eq!(read(value), None, "{value}");
        }
    }
}
