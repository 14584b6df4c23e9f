//! FIDE's Tournament Report File (TRF16 and TRF-2026: FIDE Handbook C.04
//! Annex 2), read as real files write it: lines trimmed on the right,
//! `###` comment lines, JaVaFo's `XX?` records, lichess's usernames as
//! names and `F` where a pairing-allocated bye is meant, a missing rank,
//! dates in any form. What is wrong with the file itself is said with its
//! line and column: a line that cannot be read (`Invalid`), or one that
//! contradicts another (`Inconsistent`: a pairing the opponent's line does
//! not show, a player paired twice in a round, points that do not add up,
//! two players with one FIDE ID).

use std::collections::HashMap;

/// A player's colour in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// `w`.
    White,
    /// `b`.
    Black,
}

/// What a round's result code says (case does not matter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `1`, `=`, `0`: a game played and rated.
    Played(Score),
    /// `+`, `-`: a forfeit (no game).
    Forfeit(Score),
    /// `W`, `D`, `L`: a game of less than one move, not rated.
    Unplayed(Score),
    /// `H`, `F`, `U`, `Z` or blank: a bye or an absence, no opponent.
    Bye(Score),
}

/// A round's score for the player: a win, a draw, or a loss (or a zero
/// bye).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// 1 point (standard scoring).
    Win,
    /// 0.5.
    Draw,
    /// 0.
    Loss,
}

impl Score {
    fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

impl Outcome {
    fn parse(code: u8) -> Option<Outcome> {
        Some(match code.to_ascii_uppercase() {
            b'1' => Outcome::Played(Score::Win),
            b'=' => Outcome::Played(Score::Draw),
            b'0' => Outcome::Played(Score::Loss),
            b'+' => Outcome::Forfeit(Score::Win),
            b'-' => Outcome::Forfeit(Score::Loss),
            b'W' => Outcome::Unplayed(Score::Win),
            b'D' => Outcome::Unplayed(Score::Draw),
            b'L' => Outcome::Unplayed(Score::Loss),
            // lichess writes F for the pairing-allocated bye; both score a
            // win.
            b'F' | b'U' => Outcome::Bye(Score::Win),
            b'H' => Outcome::Bye(Score::Draw),
            b'Z' | b' ' => Outcome::Bye(Score::Loss),
            _ => return None,
        })
    }

    /// The player's score.
    pub fn score(self) -> Score {
        match self {
            Outcome::Played(s) | Outcome::Forfeit(s) | Outcome::Unplayed(s) | Outcome::Bye(s) => s,
        }
    }

    /// What the opponent's line must say.
    fn mirrored(self) -> Outcome {
        match self {
            Outcome::Played(s) => Outcome::Played(s.reversed()),
            Outcome::Forfeit(s) => Outcome::Forfeit(s.reversed()),
            Outcome::Unplayed(s) => Outcome::Unplayed(s.reversed()),
            Outcome::Bye(s) => Outcome::Bye(s),
        }
    }
}

/// One round of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Round {
    /// The opponent's starting rank (`None`: no opponent).
    pub opponent: Option<u16>,
    /// The colour (`None`: `-` or blank).
    pub colour: Option<Colour>,
    /// The result.
    pub outcome: Outcome,
    /// The result code as written (upper case; blank is `Z`).
    pub code: u8,
}

/// One `001` record.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// 1-based line in the file.
    pub line: u64,
    /// Starting rank.
    pub rank: u16,
    /// Title, as written.
    pub title: String,
    /// Name, as written ("Lastname, Firstname").
    pub name: String,
    /// FIDE rating (0: none).
    pub rating: u16,
    /// FIDE ID (`None`: blank or 0).
    pub fide_id: Option<u64>,
    /// Points, as stated (in tenths).
    pub points: Option<u32>,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
}

/// What is wrong with a TRF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trouble {
    /// A line that cannot be read.
    Invalid,
    /// Lines that contradict each other.
    Inconsistent,
}

/// One problem of a TRF, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Which kind.
    pub trouble: Trouble,
    /// 1-based line.
    pub line: u64,
    /// One plain sentence.
    pub message: String,
}

/// A tournament as its TRF tells it.
#[derive(Debug, Clone, Default)]
pub struct Tournament {
    /// `012`.
    pub name: String,
    /// The players, in file order.
    pub players: Vec<Player>,
    /// Rounds: `XXR` when given, else the most any player has.
    pub rounds: usize,
    /// What is wrong with the file.
    pub problems: Vec<Problem>,
    /// Points per kind of result: 1, ½, 0 unless the file says otherwise
    /// (`162` of TRF-2026, JaVaFo's `XXS`).
    pub scoring: Scoring,
}

/// Points, in tenths, per kind of result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scoring {
    /// Win, draw and loss with White, then with Black.
    pub played: [[u32; 3]; 2],
    /// Forfeit won, lost.
    pub forfeit: [u32; 2],
    /// Full-point, half-point, pairing-allocated and zero-point byes.
    pub byes: [u32; 4],
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            played: [[10, 5, 0], [10, 5, 0]],
            forfeit: [10, 0],
            byes: [10, 5, 10, 0],
        }
    }
}

impl Scoring {
    /// Sets a JaVaFo `XXS` code (`WW`, `BD`, `FPB`, the shortcuts `W`, `D`).
    fn set_xxs(&mut self, code: &str, value: u32) -> bool {
        match code {
            "WW" => self.played[0][0] = value,
            "BW" => self.played[1][0] = value,
            "WD" => self.played[0][1] = value,
            "BD" => self.played[1][1] = value,
            "WL" => self.played[0][2] = value,
            "BL" => self.played[1][2] = value,
            "ZPB" => self.byes[3] = value,
            "HPB" => self.byes[1] = value,
            "FPB" => self.byes[0] = value,
            "PAB" => self.byes[2] = value,
            "FW" => self.forfeit[0] = value,
            "FL" => self.forfeit[1] = value,
            "W" => {
                self.played[0][0] = value;
                self.played[1][0] = value;
                self.forfeit[0] = value;
                self.byes[0] = value;
            }
            "D" => {
                self.played[0][1] = value;
                self.played[1][1] = value;
                self.byes[1] = value;
            }
            _ => return false,
        }
        true
    }

    /// Sets a TRF-2026 `162` symbol (`W`, `D`, `L`, `A`, `P`; `X` has no
    /// result to score).
    fn set_162(&mut self, symbol: char, value: u32) -> bool {
        match symbol {
            'W' => {
                self.set_xxs("W", value);
            }
            'D' => {
                self.set_xxs("D", value);
            }
            'L' => {
                self.played[0][2] = value;
                self.played[1][2] = value;
            }
            'A' => {
                self.byes[3] = value;
                self.forfeit[1] = value;
            }
            'P' => self.byes[2] = value,
            'X' => {}
            _ => return false,
        }
        true
    }

    /// The points of one round, in tenths.
    pub fn points(&self, round: &Round) -> u32 {
        let side = usize::from(round.colour == Some(Colour::Black));
        let index = |s: Score| match s {
            Score::Win => 0,
            Score::Draw => 1,
            Score::Loss => 2,
        };
        match round.outcome {
            Outcome::Played(s) | Outcome::Unplayed(s) => self.played[side][index(s)],
            Outcome::Forfeit(Score::Win) => self.forfeit[0],
            Outcome::Forfeit(_) => self.forfeit[1],
            Outcome::Bye(_) => match round.code {
                b'F' => self.byes[0],
                b'H' => self.byes[1],
                b'U' => self.byes[2],
                _ => self.byes[3],
            },
        }
    }
}

/// A number of points (`11.5`) in tenths.
fn tenths(text: &str) -> Option<u32> {
    let value: f64 = text.trim().parse().ok()?;
    (0.0..100_000.0)
        .contains(&value)
        .then(|| (value * 10.0).round() as u32)
}

impl Tournament {
    /// The player of a starting rank.
    pub fn player(&self, rank: u16) -> Option<&Player> {
        self.players.iter().find(|p| p.rank == rank)
    }
}

/// The largest TRF read: a tournament's report file is a few hundred KiB.
pub const MAX_TRF_BYTES: u64 = 16 << 20;

/// The longest line read, in characters: a player line of `MAX_ROUNDS`
/// rounds is 91 + 10 per round.
pub const MAX_LINE_CHARS: usize = 91 + 10 * MAX_ROUNDS;

/// The most rounds read (`XXR`, or a player's line).
pub const MAX_ROUNDS: usize = 999;

/// The most players read (starting ranks have four digits).
pub const MAX_PLAYERS: usize = 9999;

/// Columns of a line, 1-based and inclusive, as text (blank past its end).
/// Columns are characters of the decoded line, not bytes: "Jü" is two.
fn field(line: &str, from: usize, to: usize) -> &str {
    if line.is_ascii() {
        let end = to.min(line.len());
        return line.get(from - 1..end).unwrap_or("");
    }
    let offset = |n: usize| line.char_indices().nth(n).map_or(line.len(), |(i, _)| i);
    line.get(offset(from - 1)..offset(to)).unwrap_or("")
}

/// Reads a TRF file: at most `MAX_TRF_BYTES`, UTF-8 (else Windows-1252),
/// or UTF-16 with a byte order mark. Fails, saying why, on what is no TRF
/// at all: too large, empty, binary or UTF-16 without a byte order mark,
/// or without a single player line.
pub fn load(path: &std::path::Path) -> Result<Tournament, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_TRF_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_TRF_BYTES {
        return Err(format!(
            "larger than {} MiB; a tournament report file is a few hundred KiB, so this is none",
            MAX_TRF_BYTES >> 20
        ));
    }
    let text = match encoding_rs::Encoding::for_bom(&bytes) {
        Some((encoding, bom)) if encoding != encoding_rs::UTF_8 => {
            let (text, _) =
                encoding.decode_without_bom_handling(bytes.get(bom..).unwrap_or_default());
            text.into_owned()
        }
        _ => {
            if bytes.contains(&0) {
                return Err(
                    "it holds NUL bytes: it is binary, or UTF-16 without a byte order mark, and no TRF (save it as UTF-8)"
                        .to_owned(),
                );
            }
            crate::read::game::decode(&bytes).0.into_owned()
        }
    };
    let tournament = read(&text);
    if tournament.players.is_empty() {
        return Err(if text.trim().is_empty() {
            "it is empty; a TRF has a line (001) per player".to_owned()
        } else {
            "it has no player line (001 in columns 1-3), so it is no TRF, or not one this reads"
                .to_owned()
        });
    }
    Ok(tournament)
}

/// The lines of a text ended by LF, CRLF or CR alone (old Mac files).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let tail = &rest[end..];
        rest = tail
            .strip_prefix("\r\n")
            .or_else(|| tail.strip_prefix('\n'))
            .or_else(|| tail.strip_prefix('\r'))
            .unwrap_or(tail);
        Some(line)
    })
}

/// Reads a TRF. Never fails: what cannot be read is a problem.
pub fn read(text: &str) -> Tournament {
    let mut t = Tournament::default();
    // XXR's rounds and its line, when it gives a number a TRF can hold.
    let mut xxr = None;
    for (index, raw) in lines(text).enumerate() {
        let number = index as u64 + 1;
        let line = raw.trim_end_matches(['\r', ' ', '\t']);
        if line.is_empty() || line.starts_with("###") {
            continue;
        }
        let width = line.chars().count();
        if width > MAX_LINE_CHARS {
            t.problems.push(Problem {
                trouble: Trouble::Invalid,
                line: number,
                message: format!(
                    "The line is {width} characters long, more than a TRF line of {MAX_ROUNDS} rounds ({MAX_LINE_CHARS}); it is not read."
                ),
            });
            continue;
        }
        let rest = || line.get(4..).unwrap_or("").trim().to_owned();
        match line.get(..3).unwrap_or(line) {
            "001" if t.players.len() == MAX_PLAYERS => {
                t.problems.push(Problem {
                    trouble: Trouble::Invalid,
                    line: number,
                    message: format!(
                        "More than {MAX_PLAYERS} player lines: starting ranks have four digits, so this line is not read."
                    ),
                });
            }
            "001" => {
                if let Some(player) = player(line, number, &mut t.problems) {
                    t.players.push(player);
                }
            }
            "012" => t.name = rest(),
            "XXS" => xxs(&mut t, &rest(), number),
            "162" => scoring_162(&mut t, line, number),
            "XXR" => match rest().parse::<u64>() {
                Ok(rounds) if rounds <= MAX_ROUNDS as u64 => {
                    t.rounds = rounds as usize;
                    xxr = Some((rounds as usize, number));
                }
                Ok(rounds) => t.problems.push(Problem {
                    trouble: Trouble::Invalid,
                    line: number,
                    message: format!(
                        "XXR gives {rounds} rounds, more than the {MAX_ROUNDS} a TRF line can hold; it is not read."
                    ),
                }),
                Err(_) => t.problems.push(Problem {
                    trouble: Trouble::Invalid,
                    line: number,
                    message: format!("XXR gives '{}' rounds, which is not a number.", rest()),
                }),
            },
            _ => {}
        }
    }
    if let Some((stated, line)) = xxr {
        past_xxr(&mut t, stated, line);
    }
    t.rounds = t
        .rounds
        .max(t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0));
    check(&mut t);
    t
}

/// An `XXS` line (JaVaFo's scoring): `CODE=VALUE` items, `rest` after
/// the record's name.
fn xxs(t: &mut Tournament, rest: &str, number: u64) {
    for item in rest.split_whitespace() {
        let set = item.split_once('=').and_then(|(code, value)| {
            let value = tenths(value)?;
            t.scoring.set_xxs(code, value).then_some(())
        });
        if set.is_none() {
            t.problems.push(Problem {
                trouble: Trouble::Invalid,
                line: number,
                message: format!("XXS item '{item}' is no CODE=VALUE of JaVaFo's scoring."),
            });
        }
    }
}

/// A `162` line (TRF-2026's scoring): a result symbol and its points every
/// nine columns from column 6.
fn scoring_162(t: &mut Tournament, line: &str, number: u64) {
    let width = line.chars().count();
    let mut at = 6;
    while at <= width {
        let symbol = field(line, at, at).chars().next().unwrap_or(' ');
        let value = tenths(field(line, at + 1, at + 4));
        match value {
            Some(value) if t.scoring.set_162(symbol, value) => {}
            _ => t.problems.push(Problem {
                trouble: Trouble::Invalid,
                line: number,
                message: format!(
                    "The scoring record has '{}' at columns {at}-{}, no result symbol and points.",
                    field(line, at, at + 4).trim(),
                    at + 4
                ),
            }),
        }
        at += 9;
    }
}

/// One `001` line, or a problem.
fn player(line: &str, number: u64, problems: &mut Vec<Problem>) -> Option<Player> {
    let mut invalid = |message: String| {
        problems.push(Problem {
            trouble: Trouble::Invalid,
            line: number,
            message,
        });
    };
    let Ok(rank) = field(line, 5, 8).trim().parse::<u16>() else {
        invalid(format!(
            "The starting rank '{}' (columns 5-8) is not a number.",
            field(line, 5, 8).trim()
        ));
        return None;
    };
    let rating = field(line, 49, 52).trim();
    let rating = if rating.is_empty() {
        0
    } else {
        rating.parse().unwrap_or_else(|_| {
            invalid(format!(
                "Player {rank}'s rating '{rating}' (columns 49-52) is not a number."
            ));
            0
        })
    };
    let fide = field(line, 58, 68).trim();
    let fide_id = if fide.is_empty() {
        None
    } else {
        match fide.parse::<u64>() {
            Ok(0) => None,
            Ok(id) => Some(id),
            Err(_) => {
                invalid(format!(
                    "Player {rank}'s FIDE number '{fide}' (columns 58-68) is not a number."
                ));
                None
            }
        }
    };
    let points = field(line, 81, 84).trim();
    let points = if points.is_empty() {
        None
    } else {
        match tenths(points) {
            Some(p) => Some(p),
            None => {
                invalid(format!(
                    "Player {rank}'s points '{points}' (columns 81-84) are not a number."
                ));
                None
            }
        }
    };
    let mut rounds = Vec::new();
    let mut at = 92;
    let width = line.chars().count();
    while at <= width && rounds.len() < MAX_ROUNDS {
        rounds.push(round_cell(line, at, rank, rounds.len() + 1, &mut invalid));
        at += 10;
    }
    Some(Player {
        line: number,
        rank,
        title: field(line, 11, 13).trim().to_owned(),
        name: field(line, 15, 47).trim().to_owned(),
        rating,
        fide_id,
        points,
        rounds,
    })
}

/// The cell of round `round` at column `at` of player `rank`'s line:
/// opponent, colour and result; what cannot be read goes to `invalid`
/// (its column and what is wrong).
fn round_cell(
    line: &str,
    at: usize,
    rank: u16,
    round: usize,
    invalid: &mut dyn FnMut(String),
) -> Round {
    let opponent = field(line, at, at + 3).trim();
    let opponent = match opponent {
        "" => None,
        digits => match digits.parse::<u16>() {
            Ok(0) => None,
            Ok(n) => Some(n),
            Err(_) => {
                invalid(format!(
                    "Player {rank}'s opponent '{digits}' in round {} (columns {at}-{}) is not a starting rank.",
                    round,
                    at + 3
                ));
                None
            }
        },
    };
    let colour = match field(line, at + 5, at + 5).bytes().next() {
        None | Some(b' ' | b'-') => None,
        Some(b'w' | b'W') => Some(Colour::White),
        Some(b'b' | b'B') => Some(Colour::Black),
        Some(other) => {
            invalid(format!(
                "Player {rank}'s colour '{}' in round {} (column {}) is none of w, b, -.",
                other as char,
                round,
                at + 5
            ));
            None
        }
    };
    let code = field(line, at + 7, at + 7).bytes().next().unwrap_or(b' ');
    let outcome = Outcome::parse(code).unwrap_or_else(|| {
        invalid(format!(
            "Player {rank}'s result '{}' in round {} (column {}) is no TRF result code.",
            code as char,
            round,
            at + 7
        ));
        Outcome::Bye(Score::Loss)
    });
    Round {
        opponent,
        colour,
        outcome,
        code: match code.to_ascii_uppercase() {
            b' ' => b'Z',
            c => c,
        },
    }
}

/// `XXR` (on `line`) states fewer rounds than the players' lines hold a
/// game or a result in: said, naming the last such round and a player.
fn past_xxr(t: &mut Tournament, stated: usize, line: u64) {
    let held = |p: &Player| {
        p.rounds
            .iter()
            .rposition(|r| r.opponent.is_some() || r.code != b'Z')
            .map_or(0, |r| r + 1)
    };
    let Some(last) = t.players.iter().max_by_key(|p| held(p)) else {
        return;
    };
    let rounds = held(last);
    if rounds > stated {
        t.problems.push(Problem {
            trouble: Trouble::Inconsistent,
            line,
            message: format!(
                "XXR gives {stated} rounds, but the player lines hold games or results in {rounds} (player {}, '{}', line {}, has round {rounds}).",
                last.rank, last.name, last.line
            ),
        });
    }
}

/// Player `p`'s pairings against the lines of the players they name:
/// each pair is told once, by the lower rank.
fn check_pairings(
    p: &Player,
    by_rank: &HashMap<u16, &Player>,
    inconsistent: &mut dyn FnMut(u64, String),
) {
    for (r, round) in p.rounds.iter().enumerate() {
        let Some(o) = round.opponent else {
            continue;
        };
        if o == p.rank {
            inconsistent(
                p.line,
                format!("In round {}, player {o} is paired with himself.", r + 1),
            );
            continue;
        }
        let Some(opp) = by_rank.get(&o) else {
            inconsistent(
                p.line,
                format!(
                    "Player {} is paired in round {} with {o}, who is not in the file.",
                    p.rank,
                    r + 1
                ),
            );
            continue;
        };
        let theirs = opp.rounds.get(r);
        let agrees = theirs.is_some_and(|t| {
            t.opponent == Some(p.rank)
                && (t.outcome == round.outcome.mirrored()
                    // Both can lose: a double forfeit, or an arbiter's
                    // decision.
                    || (t.outcome.score() == Score::Loss && round.outcome.score() == Score::Loss))
                && (round.colour.is_none() || t.colour.is_none() || t.colour != round.colour)
        });
        // Each pair is told once, by the lower rank.
        if !agrees && (p.rank < o || theirs.is_none_or(|t| t.opponent != Some(p.rank))) {
            inconsistent(
                p.line,
                format!(
                    "In round {}, player {} is paired with {o}, but player {o}'s line (line {}) does not show the same game.",
                    r + 1,
                    p.rank,
                    opp.line
                ),
            );
        }
    }
}

/// Lines that contradict each other.
fn check(t: &mut Tournament) {
    let mut problems = Vec::new();
    let mut inconsistent = |line: u64, message: String| {
        problems.push(Problem {
            trouble: Trouble::Inconsistent,
            line,
            message,
        });
    };
    let by_rank: HashMap<u16, &Player> = t.players.iter().map(|p| (p.rank, p)).collect();
    let mut ids: HashMap<u64, &Player> = HashMap::new();
    for p in &t.players {
        if let Some(id) = p.fide_id
            && let Some(first) = ids.insert(id, p)
        {
            inconsistent(
                p.line,
                format!(
                    "Players {} and {} have the same FIDE ID {id}.",
                    first.rank, p.rank
                ),
            );
        }
        check_pairings(p, &by_rank, &mut inconsistent);
        let sum: u32 = p.rounds.iter().map(|r| t.scoring.points(r)).sum();
        if let Some(stated) = p.points
            && stated != sum
        {
            inconsistent(
                p.line,
                format!(
                    "Player {} is given {} points, but the rounds add up to {}{}.",
                    p.rank,
                    shown(stated),
                    shown(sum),
                    if t.scoring == Scoring::default() {
                        ""
                    } else {
                        " under the file's scoring"
                    }
                ),
            );
        }
    }
    // A player paired twice in one round.
    for r in 0..t.rounds.min(MAX_ROUNDS) {
        let mut seen: HashMap<u16, u16> = HashMap::new();
        for p in &t.players {
            if let Some(o) = p.rounds.get(r).and_then(|x| x.opponent)
                && let Some(other) = seen.insert(o, p.rank)
            {
                inconsistent(
                    p.line,
                    format!(
                        "In round {}, player {o} is paired with both {other} and {}.",
                        r + 1,
                        p.rank
                    ),
                );
            }
        }
    }
    t.problems.extend(problems);
    t.problems.sort_by_key(|p| p.line);
}

/// Tenths of a point as the TRF writes points: `11.5`.
pub fn shown(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

#[cfg(test)]
mod tests;
