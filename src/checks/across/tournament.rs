//! `--trf EVENT.trf`: every game matched to a pairing of the tournament's
//! report file, by round (the number before the dot of the Round tag) and
//! players (FIDE ID tags first, then names with case, accents and
//! transliteration folded, "Last, First" and "First Last" alike), never by
//! board number; and at the end, what is wrong with the TRF itself and
//! each pairing it says was played that no game matched.

use std::collections::{BTreeMap, HashMap};

use shakmaty::{Color, KnownOutcome};

use super::check::{Across, Seen};
use crate::{
    finding::{Finding, Kind},
    read::{
        game::fold_name,
        tags::Tag,
        trf::{Colour, Outcome, Player, Round, Score, Tournament, Trouble},
    },
};

/// The TRF, indexed for matching, and the pairings matched so far.
#[derive(Debug)]
pub struct TrfAudit {
    /// How the TRF's rows name it (the `file` column).
    name: String,
    trf: Tournament,
    by_id: HashMap<u64, u16>,
    by_name: HashMap<String, Vec<u16>>,
    /// (round, lower rank, higher rank) of the pairings a game matched,
    /// and what of it differs.
    found: HashMap<(usize, u16, u16), Differs>,
    /// Games that match no pairing, per round (0: no round of the TRF).
    extra: BTreeMap<usize, u64>,
}

/// What of a pairing its game differs in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Differs {
    result: bool,
    colours: bool,
}

impl Differs {
    fn any(self) -> bool {
        self.result || self.colours
    }
}

/// How one cell of the crosstable stands against the PGN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A game matched it, with the same result and colours.
    Agrees,
    /// A game matched it, with another result or colours.
    Differs,
    /// The TRF says it was played; no game matched it.
    Missing,
    /// No game is needed: a forfeit, a bye, a short game, no pairing.
    NoGame,
}

impl Cell {
    /// The word for the page.
    pub fn as_str(self) -> &'static str {
        match self {
            Cell::Agrees => "agrees",
            Cell::Differs => "differs",
            Cell::Missing => "missing",
            Cell::NoGame => "no-game",
        }
    }
}

/// One round's count of pairings and games.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct RoundCount {
    /// The round (0: games whose round is none of the TRF's).
    pub round: usize,
    /// Pairings the TRF says were played.
    pub pairings: u64,
    /// Of them, matched by a game.
    pub found: u64,
    /// Of them, matched by none.
    pub missing: u64,
    /// Games matched to no pairing.
    pub extra: u64,
    /// Of the pairings found, those whose game has another result.
    pub results_differ: u64,
    /// Of the pairings found, those whose game has the colours the other
    /// way round.
    pub colours_differ: u64,
}

/// One player's row of the crosstable.
#[derive(Debug, Clone)]
pub struct Row {
    /// Starting rank.
    pub rank: u16,
    /// Name as the TRF has it.
    pub name: String,
    /// Title.
    pub title: String,
    /// Rating.
    pub rating: u16,
    /// Points, in tenths.
    pub points: Option<u32>,
    /// Per round: the TRF's cell (`12 w 1`) and how the PGN stands to it.
    pub cells: Vec<(String, Cell)>,
}

/// One side of a game as its tags name it.
struct Side<'a> {
    name: &'a str,
    fide: &'a str,
    elo: &'a str,
    title: &'a str,
}

impl TrfAudit {
    /// Audits games against `trf`, read from the file named `name`.
    pub fn new(name: String, trf: Tournament) -> TrfAudit {
        let mut by_id = HashMap::new();
        let mut by_name: HashMap<String, Vec<u16>> = HashMap::new();
        for p in &trf.players {
            if let Some(id) = p.fide_id {
                by_id.entry(id).or_insert(p.rank);
            }
            by_name.entry(fold_name(&p.name)).or_default().push(p.rank);
        }
        TrfAudit {
            name,
            trf,
            by_id,
            by_name,
            found: HashMap::new(),
            extra: BTreeMap::new(),
        }
    }

    /// The TRF player a side of a game is: by FIDE ID, else by name (when
    /// one player has it).
    fn find(&self, side: &Side<'_>) -> Option<&Player> {
        let by_id = side
            .fide
            .trim()
            .parse::<u64>()
            .ok()
            .and_then(|id| self.by_id.get(&id));
        let rank = match by_id {
            Some(rank) => *rank,
            None => match self.by_name.get(&fold_name(side.name)).map(Vec::as_slice) {
                Some([rank]) => *rank,
                _ => return None,
            },
        };
        self.trf.player(rank)
    }

    /// The findings of one game against the TRF.
    fn pairing(&mut self, game: &Seen<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        let line = game.line;
        let [white, black] = [0, 1].map(|side| Side {
            name: game.tags.get(Tag::NAMES[side]),
            fide: game.tags.get(Tag::FIDE_IDS[side]),
            elo: game.tags.get(Tag::ELOS[side]),
            title: game.tags.get(Tag::TITLES[side]),
        });
        let round = game.tags.round_number();
        let Some(r) = round
            .parse::<usize>()
            .ok()
            .filter(|&r| r >= 1 && r <= self.trf.rounds)
        else {
            *self.extra.entry(0).or_default() += 1;
            out.push(Finding::new(
                Kind::GameNotInTrf,
                line,
                format!(
                    "Round '{}' is no round of the TRF ({} rounds), so the game matches no pairing.",
                    game.tags.get(Tag::Round), self.trf.rounds
                ),
            ));
            return out;
        };
        let (Some(w), Some(b)) = (self.find(&white), self.find(&black)) else {
            *self.extra.entry(r).or_default() += 1;
            let missing: Vec<String> = [(&white, "White"), (&black, "Black")]
                .into_iter()
                .filter(|(side, _)| self.find(side).is_none())
                .map(|(side, colour)| format!("{colour} '{}'", side.name))
                .collect();
            out.push(Finding::new(
                Kind::GameNotInTrf,
                line,
                format!(
                    "{} is no player of the TRF (by FIDE ID or name), so the game matches no pairing.",
                    missing.join(" and ")
                ),
            ));
            return out;
        };
        for (side, player, colour) in [(&white, w, "White"), (&black, b, "Black")] {
            if let Some(f) = player_mismatch(side, player, colour, line) {
                out.push(f);
            }
        }
        let Some(theirs) = w.rounds.get(r - 1) else {
            out.push(not_paired(w, b, r, None, line));
            *self.extra.entry(r).or_default() += 1;
            return out;
        };
        if theirs.opponent != Some(b.rank) {
            let other = theirs.opponent.and_then(|o| self.trf.player(o));
            out.push(not_paired(w, b, r, other, line));
            *self.extra.entry(r).or_default() += 1;
            return out;
        }
        let pairing = (r, w.rank.min(b.rank), w.rank.max(b.rank));
        if theirs.colour == Some(Colour::Black) {
            out.push(Finding::new(
                Kind::TrfColourMismatch,
                line,
                format!(
                    "The TRF has {} with White against {} in round {r} (line {}); the game has them the other way round.",
                    b.name, w.name, w.line
                ),
            ));
        }
        out.extend(result_mismatch(game, w, b, theirs));
        let differs = Differs {
            result: out.iter().any(|f| f.kind == Kind::TrfResultMismatch),
            colours: out.iter().any(|f| f.kind == Kind::TrfColourMismatch),
        };
        let entry = self.found.entry(pairing).or_default();
        entry.result |= differs.result;
        entry.colours |= differs.colours;
        out
    }

    /// How a round of a player stands.
    fn cell(&self, p: &Player, index: usize) -> Cell {
        let Some(round) = p.rounds.get(index) else {
            return Cell::NoGame;
        };
        let Some(o) = round.opponent else {
            return Cell::NoGame;
        };
        let key = (index + 1, p.rank.min(o), p.rank.max(o));
        match (self.found.get(&key), round.outcome) {
            (Some(differs), _) if differs.any() => Cell::Differs,
            (Some(_), _) => Cell::Agrees,
            (None, Outcome::Played(_)) => Cell::Missing,
            (None, _) => Cell::NoGame,
        }
    }

    /// Per round: pairings played, found, missing, and games matched to
    /// none (a last row of round 0: games of no round of the TRF).
    pub fn rounds(&self) -> Vec<RoundCount> {
        let mut counts: Vec<RoundCount> = (1..=self.trf.rounds)
            .map(|round| RoundCount {
                round,
                ..RoundCount::default()
            })
            .collect();
        for p in &self.trf.players {
            for (index, round) in p.rounds.iter().enumerate() {
                let (Some(o), Outcome::Played(_)) = (round.opponent, round.outcome) else {
                    continue;
                };
                let Some(count) = counts.get_mut(index).filter(|_| o > p.rank) else {
                    continue;
                };
                count.pairings += 1;
                match self.cell(p, index) {
                    Cell::Missing => count.missing += 1,
                    _ => count.found += 1,
                }
                let differs = self
                    .found
                    .get(&(index + 1, p.rank, o))
                    .copied()
                    .unwrap_or_default();
                count.results_differ += u64::from(differs.result);
                count.colours_differ += u64::from(differs.colours);
            }
        }
        for (&round, &n) in &self.extra {
            match counts.get_mut(round.wrapping_sub(1)) {
                Some(count) if round > 0 => count.extra += n,
                _ => counts.push(RoundCount {
                    round: 0,
                    extra: n,
                    ..RoundCount::default()
                }),
            }
        }
        counts
    }

    /// The crosstable: every player by starting rank, each round's cell as
    /// the TRF writes it and how the PGN stands to it.
    pub fn crosstable(&self) -> Vec<Row> {
        let mut players: Vec<&Player> = self.trf.players.iter().collect();
        players.sort_by_key(|p| p.rank);
        players
            .into_iter()
            .map(|p| Row {
                rank: p.rank,
                name: p.name.clone(),
                title: p.title.clone(),
                rating: p.rating,
                points: p.points,
                cells: (0..self.trf.rounds)
                    .map(|index| (cell_text(p, index), self.cell(p, index)))
                    .collect(),
            })
            .collect()
    }

    /// The tournament's name, as its `012` record gives it.
    pub fn event(&self) -> &str {
        &self.trf.name
    }

    /// Its players.
    pub fn players(&self) -> usize {
        self.trf.players.len()
    }

    /// What is wrong with the file itself.
    pub fn file_problems(&self) -> usize {
        self.trf.problems.len()
    }

    /// The findings of the TRF itself and of the pairings no game matched,
    /// for the rows after the games.
    fn unmatched(&self) -> Vec<Finding> {
        let mut out: Vec<Finding> = self
            .trf
            .problems
            .iter()
            .map(|p| {
                let kind = match p.trouble {
                    Trouble::Invalid => Kind::TrfInvalid,
                    Trouble::Inconsistent => Kind::TrfInconsistent,
                };
                Finding::new(kind, p.line, p.message.clone())
            })
            .collect();
        for p in &self.trf.players {
            for (index, round) in p.rounds.iter().enumerate() {
                let r = index + 1;
                let Some(o) = round.opponent.filter(|&o| o > p.rank) else {
                    continue;
                };
                if !matches!(round.outcome, Outcome::Played(_))
                    || self.found.contains_key(&(r, p.rank, o))
                {
                    continue;
                }
                let name = self.trf.player(o).map_or("?", |q| q.name.as_str());
                out.push(Finding::new(
                    Kind::TrfGameMissing,
                    p.line,
                    format!(
                        "The TRF has {} against {name} in round {r} played and {}, and no game of the PGN is theirs.",
                        p.name,
                        match round.outcome.score() {
                            Score::Win => format!("won by {}", p.name),
                            Score::Draw => "drawn".to_owned(),
                            Score::Loss => format!("won by {name}"),
                        }
                    ),
                ));
            }
        }
        out.sort_by_key(|f| f.line);
        out
    }

    /// How the TRF's rows name it.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Across for TrfAudit {
    fn game(&mut self, game: &Seen<'_>, out: &mut Vec<Finding>) {
        out.extend(self.pairing(game));
    }

    /// The TRF's own findings, at its lines.
    fn finish(&mut self, out: &mut Vec<Finding>) {
        out.extend(self.unmatched());
    }
}

/// A result as White's score.
fn white_score(outcome: KnownOutcome) -> Score {
    match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => Score::Win,
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => Score::Loss,
        KnownOutcome::Draw => Score::Draw,
    }
}

/// The finding that a game's result is not the TRF's for its pairing
/// (`theirs`, White's round), with what the board decides, if it does.
fn result_mismatch(game: &Seen<'_>, w: &Player, b: &Player, theirs: &Round) -> Option<Finding> {
    // The result, from White's side of the game.
    let recorded = match crate::read::outcome::parse(game.tags.get(Tag::Result).as_bytes()) {
        Some(shakmaty::Outcome::Known(known)) => Some(white_score(known)),
        _ => None,
    };
    let trf = match theirs.outcome {
        Outcome::Played(s) => Some(s),
        _ => None,
    };
    if recorded != trf {
        let board = game.expected.map(|e| (e, white_score(e)));
        let laws = match board {
            Some((_, s)) if Some(s) == recorded => {
                " The board decides the game's result, so the Laws support the game, not the TRF."
                    .to_owned()
            }
            Some((_, s)) if Some(s) == trf => {
                " The board decides the TRF's result, so the Laws support the TRF, not the game."
                    .to_owned()
            }
            Some((e, _)) => format!(" The board decides {}, which neither says.", e.as_str()),
            None => String::new(),
        };
        return Some(Finding::new(
            Kind::TrfResultMismatch,
            game.line,
            format!(
                "The game's result is '{}' but the TRF's (line {}) is {}.{laws}",
                game.tags.get(Tag::Result),
                w.line,
                describe(theirs.outcome, w, b)
            ),
        ));
    }
    None
}

/// A round of a player as the TRF writes it: `12 w 1`, or a bye's code.
fn cell_text(p: &Player, index: usize) -> String {
    let Some(r) = p.rounds.get(index) else {
        return String::new();
    };
    let colour = match r.colour {
        Some(Colour::White) => "w",
        Some(Colour::Black) => "b",
        None => "-",
    };
    let code = r.code as char;
    match r.opponent {
        Some(o) => format!("{o} {colour} {code}"),
        None => code.to_string(),
    }
}

fn not_paired(w: &Player, b: &Player, r: usize, other: Option<&Player>, line: u64) -> Finding {
    let with = other.map_or("no one", |o| o.name.as_str());
    Finding::new(
        Kind::GameNotInTrf,
        line,
        format!(
            "In round {r} the TRF pairs {} (line {}) with {with}, not with {}.",
            w.name, w.line, b.name
        ),
    )
}

/// What a TRF result code says, in words, for White of the game `w` - `b`.
fn describe(outcome: Outcome, w: &Player, b: &Player) -> String {
    let who = |s: Score| match s {
        Score::Win => format!("a win for {}", w.name),
        Score::Loss => format!("a win for {}", b.name),
        Score::Draw => "a draw".to_owned(),
    };
    match outcome {
        Outcome::Played(s) => who(s),
        Outcome::Forfeit(Score::Win) => format!("a forfeit won by {}", w.name),
        Outcome::Forfeit(_) => format!("a forfeit lost by {}", w.name),
        Outcome::Unplayed(s) => format!("{} in a game of less than one move", who(s)),
        Outcome::Bye(_) => "a bye".to_owned(),
    }
}

/// A FIDE title as one spelling: TRFs write the codes of FIDE's rating
/// list (`g`, `wg`, `m`, `wm`, `f`, `wf`, `c`, `wc`), PGN tags the titles
/// (`GM`, `WGM`, ...).
fn title_meaning(title: &str) -> String {
    let upper = title.trim().to_ascii_uppercase();
    let full = match upper.as_str() {
        "G" => "GM",
        "WG" => "WGM",
        "M" => "IM",
        "WM" => "WIM",
        "F" => "FM",
        "WF" => "WFM",
        "C" => "CM",
        "WC" => "WCM",
        other => other,
    };
    full.to_owned()
}

/// A side's tags against its TRF line: FIDE ID, name, rating, title.
fn player_mismatch(side: &Side<'_>, p: &Player, colour: &str, line: u64) -> Option<Finding> {
    let mut differs = Vec::new();
    let fide = side.fide.trim();
    if let (Ok(id), Some(trf)) = (fide.parse::<u64>(), p.fide_id)
        && id != trf
    {
        differs.push(format!("FIDE ID {id} against {trf}"));
    }
    if fold_name(side.name) != fold_name(&p.name) {
        differs.push(format!("name '{}' against '{}'", side.name, p.name));
    }
    if let Ok(elo) = side.elo.trim().parse::<u16>()
        && p.rating > 0
        && elo != p.rating
    {
        differs.push(format!("rating {elo} against {}", p.rating));
    }
    let title = side.title.trim();
    if !title.is_empty() && !p.title.is_empty() && title_meaning(title) != title_meaning(&p.title) {
        differs.push(format!("title {title} against {}", p.title));
    }
    if differs.is_empty() {
        return None;
    }
    Some(Finding::new(
        Kind::TrfPlayerMismatch,
        line,
        format!(
            "{colour}'s tags differ from the TRF's player {} (line {}): {}.",
            p.rank,
            p.line,
            differs.join("; ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TRFs write the rating list's codes, PGN the titles: `g` is `GM`.
    #[test]
    fn titles_compare_by_meaning() {
        for (code, title) in [
            ("g", "GM"),
            ("wg", "WGM"),
            ("m", "IM"),
            ("wm", "WIM"),
            ("f", "FM"),
            ("wf", "WFM"),
            ("c", "CM"),
            ("wc", "WCM"),
            ("GM", "gm"),
        ] {
            assert_eq!(title_meaning(code), title_meaning(title), "{code}");
        }
        assert_ne!(title_meaning("g"), title_meaning("IM"));
        assert_ne!(title_meaning("wg"), title_meaning("GM"));
    }

    /// Alpha (1) beat Beta (2) with White in round 1; Gamma (3) had a bye.
    fn audit() -> TrfAudit {
        let line = |rank: u16, name: &str, rating: u16, points: &str, round: &str| {
            format!(
                "001 {rank:>4}      {name:<33} {rating:>4} GER {:>11} 2000/01/01 {points:>4} {rank:>4}  {round}",
                100 + rank
            )
        };
        let text = [
            line(1, "Alpha, A", 2400, "1.0", "   2 w 1"),
            line(2, "Beta, B", 2300, "0.0", "   1 b 0"),
            line(3, "Gamma, C", 2200, "1.0", "   0 - U"),
        ]
        .join("\n");
        TrfAudit::new("t.trf".to_owned(), crate::read::trf::read(&text))
    }

    fn codes(
        audit: &mut TrfAudit,
        white: &str,
        black: &str,
        round: &str,
        result: &str,
        elo: &str,
    ) -> Vec<Kind> {
        let players = ["", "", elo, "", "", ""];
        let game = Seen::pairing([white, black], round, result, players);
        audit.pairing(&game).into_iter().map(|f| f.kind).collect()
    }

    #[test]
    fn each_way_a_game_differs_from_its_pairing() {
        let mut a = audit();
        assert_eq!(
            codes(&mut a, "Alpha, A", "Beta, B", "1.1", "1-0", "2400"),
            []
        );
        assert_eq!(
            codes(&mut a, "A Alpha", "Beta, B", "1", "0-1", ""),
            [Kind::TrfResultMismatch]
        );
        assert_eq!(
            codes(&mut a, "Beta, B", "Alpha, A", "1", "0-1", ""),
            [Kind::TrfColourMismatch]
        );
        assert_eq!(
            codes(&mut a, "Alpha, A", "Beta, B", "1", "1-0", "2399"),
            [Kind::TrfPlayerMismatch]
        );
        assert_eq!(
            codes(&mut a, "Alpha, A", "Gamma, C", "1", "1-0", ""),
            [Kind::GameNotInTrf]
        );
        assert_eq!(
            codes(&mut a, "Alpha, A", "Delta, D", "1", "1-0", ""),
            [Kind::GameNotInTrf]
        );
        assert_eq!(
            codes(&mut a, "Alpha, A", "Beta, B", "2", "1-0", ""),
            [Kind::GameNotInTrf]
        );
        assert!(a.unmatched().is_empty());
        // Without its game, the pairing is missing; the bye needs none.
        let missing: Vec<Kind> = audit().unmatched().into_iter().map(|f| f.kind).collect();
        assert_eq!(missing, [Kind::TrfGameMissing]);
    }

    #[test]
    fn names_fold_across_spellings() {
        assert_eq!(fold_name("Müller, Jan"), fold_name("Jan Mueller"));
        assert_eq!(fold_name("Ju, Wenjun"), fold_name("Wenjun JU"));
        assert_ne!(fold_name("Ju, Wenjun"), fold_name("Lei, Tingjie"));
        assert_eq!(fold_name("Karpov, Anatoly GM"), fold_name("Anatoly Karpov"));
        assert_ne!(fold_name("Bazant, Petr jr"), fold_name("Bazant, Petr sr"));
    }
}
