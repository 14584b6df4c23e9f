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
    /// Half-points under standard scoring.
    fn halves(self) -> u32 {
        match self {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }

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
}

/// One `001` record.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// 1-based line in the file.
    pub line: u64,
    /// Starting rank.
    pub rank: u16,
    /// `m`, `w` or blank.
    pub sex: String,
    /// Title, as written.
    pub title: String,
    /// Name, as written ("Lastname, Firstname").
    pub name: String,
    /// FIDE rating (0: none).
    pub rating: u16,
    /// Federation.
    pub federation: String,
    /// FIDE ID (`None`: blank or 0).
    pub fide_id: Option<u64>,
    /// Points, as stated (in half-points).
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
    /// 1-based column, where one is to blame.
    pub column: Option<usize>,
    /// One plain sentence.
    pub message: String,
}

/// A tournament as its TRF tells it.
#[derive(Debug, Clone, Default)]
pub struct Tournament {
    /// `012`.
    pub name: String,
    /// `022`.
    pub city: String,
    /// `042`, as written.
    pub start: String,
    /// The players, in file order.
    pub players: Vec<Player>,
    /// Rounds: `XXR` when given, else the most any player has.
    pub rounds: usize,
    /// What is wrong with the file.
    pub problems: Vec<Problem>,
    /// The file declares a scoring other than 1, ½, 0 (`162`, `XXS`):
    /// points are then not checked.
    pub other_scoring: bool,
}

impl Tournament {
    /// The player of a starting rank.
    pub fn player(&self, rank: u16) -> Option<&Player> {
        self.players.iter().find(|p| p.rank == rank)
    }
}

/// Columns of a line, 1-based and inclusive, as text (blank past its end).
fn field(line: &str, from: usize, to: usize) -> &str {
    let start = from - 1;
    let end = to.min(line.len());
    line.get(start..end).unwrap_or("")
}

/// Reads a TRF. Never fails: what cannot be read is a problem.
pub fn read(text: &str) -> Tournament {
    let mut t = Tournament::default();
    for (index, raw) in text.lines().enumerate() {
        let number = index as u64 + 1;
        let line = raw.trim_end_matches(['\r', ' ', '\t']);
        if line.is_empty() || line.starts_with("###") {
            continue;
        }
        let rest = || line.get(4..).unwrap_or("").trim().to_owned();
        match line.get(..3).unwrap_or(line) {
            "001" => {
                if let Some(player) = player(line, number, &mut t.problems) {
                    t.players.push(player);
                }
            }
            "012" => t.name = rest(),
            "022" => t.city = rest(),
            "042" => t.start = rest(),
            "162" | "XXS" => t.other_scoring = true,
            "XXR" => match rest().parse() {
                Ok(rounds) => t.rounds = rounds,
                Err(_) => t.problems.push(Problem {
                    trouble: Trouble::Invalid,
                    line: number,
                    column: Some(5),
                    message: format!("XXR gives '{}' rounds, which is not a number.", rest()),
                }),
            },
            _ => {}
        }
    }
    t.rounds = t
        .rounds
        .max(t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0));
    check(&mut t);
    t
}

/// One `001` line, or a problem.
fn player(line: &str, number: u64, problems: &mut Vec<Problem>) -> Option<Player> {
    let mut invalid = |column: usize, message: String| {
        problems.push(Problem {
            trouble: Trouble::Invalid,
            line: number,
            column: Some(column),
            message,
        });
    };
    let Ok(rank) = field(line, 5, 8).trim().parse::<u16>() else {
        invalid(
            5,
            format!(
                "The starting rank '{}' (columns 5-8) is not a number.",
                field(line, 5, 8).trim()
            ),
        );
        return None;
    };
    let rating = field(line, 49, 52).trim();
    let rating = if rating.is_empty() {
        0
    } else {
        rating.parse().unwrap_or_else(|_| {
            invalid(
                49,
                format!("Player {rank}'s rating '{rating}' (columns 49-52) is not a number."),
            );
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
                invalid(
                    58,
                    format!(
                        "Player {rank}'s FIDE number '{fide}' (columns 58-68) is not a number."
                    ),
                );
                None
            }
        }
    };
    let points = field(line, 81, 84).trim();
    let points = if points.is_empty() {
        None
    } else {
        match points.parse::<f64>() {
            Ok(p) if p >= 0.0 && (p * 2.0).fract() == 0.0 => Some((p * 2.0) as u32),
            _ => {
                invalid(
                    81,
                    format!(
                        "Player {rank}'s points '{points}' (columns 81-84) are not a number of half-points."
                    ),
                );
                None
            }
        }
    };
    let mut rounds = Vec::new();
    let mut at = 92;
    while at <= line.len() {
        let opponent = field(line, at, at + 3).trim();
        let opponent = match opponent {
            "" => None,
            digits => match digits.parse::<u16>() {
                Ok(0) => None,
                Ok(n) => Some(n),
                Err(_) => {
                    invalid(
                        at,
                        format!(
                            "Player {rank}'s opponent '{digits}' in round {} (columns {at}-{}) is not a starting rank.",
                            rounds.len() + 1,
                            at + 3
                        ),
                    );
                    None
                }
            },
        };
        let colour = match field(line, at + 5, at + 5).bytes().next() {
            None | Some(b' ' | b'-') => None,
            Some(b'w' | b'W') => Some(Colour::White),
            Some(b'b' | b'B') => Some(Colour::Black),
            Some(other) => {
                invalid(
                    at + 5,
                    format!(
                        "Player {rank}'s colour '{}' in round {} (column {}) is none of w, b, -.",
                        other as char,
                        rounds.len() + 1,
                        at + 5
                    ),
                );
                None
            }
        };
        let code = field(line, at + 7, at + 7).bytes().next().unwrap_or(b' ');
        let outcome = Outcome::parse(code).unwrap_or_else(|| {
            invalid(
                at + 7,
                format!(
                    "Player {rank}'s result '{}' in round {} (column {}) is no TRF result code.",
                    code as char,
                    rounds.len() + 1,
                    at + 7
                ),
            );
            Outcome::Bye(Score::Loss)
        });
        rounds.push(Round {
            opponent,
            colour,
            outcome,
        });
        at += 10;
    }
    Some(Player {
        line: number,
        rank,
        sex: field(line, 10, 10).trim().to_owned(),
        title: field(line, 11, 13).trim().to_owned(),
        name: field(line, 15, 47).trim().to_owned(),
        rating,
        federation: field(line, 54, 56).trim().to_owned(),
        fide_id,
        points,
        rounds,
    })
}

/// Lines that contradict each other.
fn check(t: &mut Tournament) {
    let mut problems = Vec::new();
    let mut inconsistent = |line: u64, message: String| {
        problems.push(Problem {
            trouble: Trouble::Inconsistent,
            line,
            column: None,
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
        for (r, round) in p.rounds.iter().enumerate() {
            let Some(o) = round.opponent else {
                continue;
            };
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
        let halves: u32 = p.rounds.iter().map(|r| r.outcome.score().halves()).sum();
        if !t.other_scoring
            && let Some(stated) = p.points
            && stated != halves
        {
            inconsistent(
                p.line,
                format!(
                    "Player {} is given {} points, but the rounds add up to {}.",
                    p.rank,
                    half_points(stated),
                    half_points(halves)
                ),
            );
        }
    }
    // A player paired twice in one round.
    for r in 0..t.rounds {
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

fn half_points(halves: u32) -> String {
    format!(
        "{}{}",
        halves / 2,
        if halves % 2 == 1 { ".5" } else { ".0" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(rank: u16, name: &str, id: u64, points: &str, rounds: &[(u16, char, char)]) -> String {
        let mut s = format!(
            "001 {rank:>4}      {name:<33} 2000 GER {id:>11} 2000/01/01 {points:>4} {rank:>4}  "
        );
        for &(o, c, r) in rounds {
            s.push_str(&format!("{o:>4} {c} {r}  "));
        }
        s.trim_end().to_owned()
    }

    #[test]
    fn a_consistent_tournament_has_no_problem() {
        let text = [
            "012 Test".to_owned(),
            line(1, "Alpha, A", 101, "1.5", &[(2, 'w', '1'), (3, 'b', '=')]),
            line(2, "Beta, B", 102, "1.0", &[(1, 'b', '0'), (0, '-', 'U')]),
            line(3, "Gamma, C", 103, "0.5", &[(0, '-', 'Z'), (1, 'w', '=')]),
        ]
        .join("\n");
        let t = read(&text);
        assert_eq!(t.problems, []);
        assert_eq!(t.rounds, 2);
        assert_eq!(t.players[0].name, "Alpha, A");
        assert_eq!(t.players[0].fide_id, Some(101));
        assert_eq!(
            t.players[1].rounds[1],
            Round {
                opponent: None,
                colour: None,
                outcome: Outcome::Bye(Score::Win)
            }
        );
    }

    #[test]
    fn contradictions_are_found() {
        let text = [
            line(1, "Alpha, A", 101, "2.0", &[(2, 'w', '1')]),
            line(2, "Beta, B", 101, "0.0", &[(1, 'b', '1')]),
            line(3, "Gamma, C", 103, "0.0", &[(2, 'w', '0')]),
        ]
        .join("\n");
        let t = read(&text);
        let messages: Vec<&str> = t.problems.iter().map(|p| p.message.as_str()).collect();
        assert!(
            messages.iter().any(|m| m.contains("same FIDE ID 101")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("does not show the same game")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("given 2.0 points, but the rounds add up to 1.0")),
            "{messages:?}"
        );
        assert!(
            messages.iter().any(|m| m.contains("paired with both")),
            "{messages:?}"
        );
        assert!(
            t.problems
                .iter()
                .all(|p| p.trouble == Trouble::Inconsistent)
        );
    }

    #[test]
    fn unreadable_fields_are_located() {
        let t = read("001 abcd      X\n001    2      Y                                 20x0");
        assert_eq!(t.problems.len(), 2, "{:?}", t.problems);
        assert_eq!((t.problems[0].line, t.problems[0].column), (1, Some(5)));
        assert_eq!((t.problems[1].line, t.problems[1].column), (2, Some(49)));
        assert!(t.problems.iter().all(|p| p.trouble == Trouble::Invalid));
    }

    /// The TRF `scripts/pgn_to_trf.py` builds from the FIDE Women's World
    /// Rapid 2024 broadcast: every pairing on both sides, the points
    /// adding up.
    #[test]
    fn the_converted_broadcast_is_consistent() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/trf/fwwrc-2024.trf");
        let t = read(&std::fs::read_to_string(path).unwrap());
        assert_eq!((t.players.len(), t.rounds), (110, 11));
        assert_eq!(t.problems, []);
        assert!(t.players.iter().all(|p| p.fide_id.is_some()));
        let games: usize = t
            .players
            .iter()
            .map(|p| p.rounds.iter().filter(|r| r.opponent.is_some()).count())
            .sum();
        assert_eq!(games, 2 * 605);
    }

    /// Every real TRF shipped in `fixtures/trf/` reads, with its players
    /// and rounds.
    #[test]
    fn real_files_read() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/trf");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "trf") {
                continue;
            }
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            let t = read(&text);
            let lines = text.lines().filter(|l| l.starts_with("001")).count();
            assert_eq!(t.players.len(), lines, "{}", path.display());
            assert!(t.rounds > 0, "{}", path.display());
            let invalid = t
                .problems
                .iter()
                .filter(|p| p.trouble == Trouble::Invalid)
                .count();
            assert_eq!(invalid, 0, "{}: {:?}", path.display(), t.problems);
            if std::env::var_os("TRF_PROBLEMS").is_some() {
                for p in &t.problems {
                    eprintln!("{}:{}: {}", path.display(), p.line, p.message);
                }
            }
            files += 1;
        }
        assert!(files >= 10, "{files} files");
    }
}
