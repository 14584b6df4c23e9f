//! `--html FILE`: the audit page, for a person to read and attach to a
//! report. One self-contained file (no script, no network, no external
//! style or font; boards are inline SVG), well-formed XML as well as HTML,
//! that prints to PDF: what was audited, totals per severity and per code
//! with the rule each rests on, a table per event and round, players'
//! names written several ways by event, then the games with findings,
//! errors first, each finding with its message and a board
//! of the position it is about (a clock finding: the clocks after the
//! moves it concerns), and the changes `--fix` made.
//!
//! Memory stays bounded whatever the run: the page keeps at most
//! `MAX_GAMES` games and `MAX_ROUNDS` event rounds, and says how many more
//! there were (the CSV reports have them all).

use std::{collections::BTreeMap, fmt::Write as _};

mod html;

use self::html::{STYLE, board_svg, capped, esc, iso};
use super::summary::{Summary, TournamentCounts};
use crate::finding::counted;
use crate::{
    board::rules::Edition,
    checks::across::tournament::{Cell, Row},
    finding::{ClockStrip, Finding, Kind, Severity},
    fix::Change,
    read::{
        game::{TagColumns, TagValues},
        tags::Tag,
    },
};

/// Games with findings the page shows (errors first).
pub const MAX_GAMES: usize = 300;
/// Event rounds the page counts.
pub const MAX_ROUNDS: usize = 1000;
/// Findings shown per game.
const MAX_FINDINGS: usize = 30;
/// Players of the crosstable shown.
const MAX_TABLE_PLAYERS: usize = 1000;
/// Boards drawn per game.
const MAX_BOARDS: usize = 6;
/// Games shown for a code of the record's form (not an error, not a draw
/// that could have been claimed or was played past): a code that floods
/// every game of an event is shown by examples, not on every card.
const EXAMPLES_PER_CODE: u64 = 5;

/// One finding as the page shows it.
#[derive(Debug, Clone)]
struct Shown {
    severity: Severity,
    code: &'static str,
    rule: &'static str,
    line: u64,
    mv: String,
    message: String,
    fen: String,
    /// The clocks it concerns, beside their moves.
    clocks: Option<Box<ClockStrip>>,
    /// A code of the record's form already shown in `EXAMPLES_PER_CODE`
    /// games: named on the card, not explained again.
    brief: bool,
}

/// One game with findings.
#[derive(Debug, Clone)]
struct Card {
    file: String,
    number: u64,
    line: u64,
    /// Its tags, each cut short as the page shows it.
    tags: TagColumns,
    game_id: String,
    findings: Vec<Shown>,
    more: usize,
    changes: Vec<Change>,
}

/// Counts of one round of one event.
#[derive(Debug, Clone, Default)]
struct Round {
    games: u64,
    by_severity: [u64; 3],
    /// Findings per code, listed under the round.
    by_code: BTreeMap<Kind, u64>,
}

/// A round as the table orders it: by its number when it is one (1, 2,
/// 10, not 1, 10, 2), then by its text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct RoundKey {
    number: u64,
    text: String,
}

impl RoundKey {
    fn of(round: &str) -> RoundKey {
        RoundKey {
            number: round.parse().unwrap_or(u64::MAX),
            text: round.to_owned(),
        }
    }
}

/// Sites listed per event, at most.
const MAX_SITES: usize = 5;

/// What the page needs of the game being written.
pub struct GameFacts<'a> {
    /// The input's name.
    pub file: &'a str,
    /// The game's number in its input.
    pub number: u64,
    /// Its first line.
    pub line: u64,
    /// Its tags (an event is its name and site).
    pub tags: TagValues<'a>,
    /// The `game_id` column ("" for none).
    pub game_id: &'a str,
    /// The changes `--fix` made.
    pub changes: &'a [Change],
}

/// The page's contents, gathered as games are written.
#[derive(Debug, Default)]
pub struct Page {
    errors: Vec<Card>,
    others: Vec<Card>,
    /// Games with findings not kept.
    left_out: u64,
    /// Per code of the record's form: games shown with it, and games not
    /// shown (their findings all of codes shown often enough).
    examples: BTreeMap<&'static str, (u64, u64)>,
    /// Per event (its name) and round.
    rounds: BTreeMap<(String, RoundKey), Round>,
    /// The sites each event's games give (the first `MAX_SITES`), and how
    /// many more.
    sites: BTreeMap<String, (std::collections::BTreeSet<String>, u64)>,
    /// Games of rounds not counted (past `MAX_ROUNDS`).
    rounds_left_out: u64,
    /// The games against the tournament report file (`--trf`).
    tournament: Option<(TournamentCounts, Vec<Row>)>,
    /// Per event: its players' names written several ways
    /// (`player-name-variant`) or under two IDs (`player-id-conflict`),
    /// for the officer to decide; the first
    /// `MAX_NAMES` of the run, and how many more.
    names: BTreeMap<String, Vec<String>>,
    names_left_out: u64,
}

/// Names written several ways listed on the page, at most.
const MAX_NAMES: usize = 500;

impl Page {
    /// The games against the tournament report file: counts per round and
    /// the crosstable.
    pub fn tournament(&mut self, counts: &TournamentCounts, rows: Vec<Row>) {
        self.tournament = Some((counts.clone(), rows));
    }

    fn tournament_html(&self, out: &mut String) {
        let Some((counts, rows)) = &self.tournament else {
            return;
        };
        let _ = writeln!(
            out,
            "<section>\n<h2>Against the tournament report file</h2>\n<p><code>{}</code>{}: {}, {} players{}.</p>",
            esc(&counts.file),
            counts.sha256.as_ref().map_or(String::new(), |d| format!(
                " (SHA-256 <code>{}</code>)",
                esc(d)
            )),
            esc(&counts.name),
            counts.players,
            if counts.file_problems > 0 {
                format!(
                    "; {} in the file itself (trf-invalid, trf-inconsistent)",
                    counted(counts.file_problems, "problem", "problems")
                )
            } else {
                String::new()
            }
        );
        out.push_str("<table>\n<thead><tr><th>Round</th><th>Pairings played</th><th>Games found</th><th>Missing</th><th>Results differ</th><th>Colours differ</th><th>Games matching no pairing</th></tr></thead>\n<tbody>\n");
        for r in &counts.rounds {
            let round = if r.round == 0 {
                "none of the TRF's".to_owned()
            } else {
                r.round.to_string()
            };
            // A count that is a problem says so in words, not by colour
            // alone (a page printed in black and white).
            let bad = |n: u64| {
                if n > 0 {
                    format!("<td class=\"n error\">✗ {n}</td>")
                } else {
                    "<td class=\"n\">0</td>".to_owned()
                }
            };
            let _ = writeln!(
                out,
                "<tr><td>{round}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>{}{}{}{}</tr>",
                r.pairings,
                r.found,
                bad(r.missing),
                bad(r.results_differ),
                bad(r.colours_differ),
                bad(r.extra)
            );
        }
        out.push_str("</tbody>\n</table>\n");
        out.push_str("<p class=\"legend\">The crosstable as the TRF has it (opponent's starting rank, colour, result); each cell marked by what the PGN says: <span class=\"cell agrees\">agrees</span> <span class=\"cell differs\">✗ differs</span> <span class=\"cell missing\">? no game</span> <span class=\"cell no-game\">none needed</span>.</p>\n");
        out.push_str("<table class=\"crosstable\">\n<thead><tr><th>No.</th><th>Player</th><th>Rating</th><th>Points</th>");
        let rounds = rows.first().map_or(0, |r| r.cells.len());
        for r in 1..=rounds {
            let _ = write!(out, "<th>{r}</th>");
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in rows.iter().take(MAX_TABLE_PLAYERS) {
            let points = row.points.map_or(String::new(), crate::read::trf::shown);
            let _ = write!(
                out,
                "<tr><td class=\"n\">{}</td><td>{} {}</td><td class=\"n\">{}</td><td class=\"n\">{points}</td>",
                row.rank,
                iso(&row.title),
                iso(&row.name),
                row.rating
            );
            for (text, cell) in &row.cells {
                let mark = match cell {
                    Cell::Differs => "✗ ",
                    Cell::Missing => "? ",
                    Cell::Agrees | Cell::NoGame => "",
                };
                let _ = write!(
                    out,
                    "<td class=\"cell {}\">{mark}{}</td>",
                    cell.as_str(),
                    esc(text)
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        if rows.len() > MAX_TABLE_PLAYERS {
            let _ = writeln!(
                out,
                "<p>{} more players are not shown.</p>",
                rows.len() - MAX_TABLE_PLAYERS
            );
        }
        out.push_str("</section>\n");
    }

    /// One game and the findings reported on it.
    pub fn game(&mut self, facts: &GameFacts<'_>, findings: &[&Finding], edition: Edition) {
        let mut counts = [0u64; 3];
        for f in findings {
            counts[f.kind.severity() as usize] += 1;
        }
        // The round number, before any board number (`3.1`).
        let round = facts.tags.round_number();
        let event = capped(facts.tags.get(Tag::Event)).into_owned();
        let key = (event.clone(), RoundKey::of(&capped(round)));
        let known = self.rounds.contains_key(&key);
        if known || self.rounds.len() < MAX_ROUNDS {
            let (sites, more) = self.sites.entry(event).or_default();
            let site = capped(facts.tags.get(Tag::Site));
            if !sites.contains(site.as_ref()) {
                if sites.len() < MAX_SITES {
                    sites.insert(site.into_owned());
                } else {
                    *more += 1;
                }
            }
        }
        let slot = if known || self.rounds.len() < MAX_ROUNDS {
            Some(self.rounds.entry(key).or_default())
        } else {
            None
        };
        match slot {
            Some(r) => {
                r.games += 1;
                for (n, c) in r.by_severity.iter_mut().zip(counts) {
                    *n += c;
                }
                for f in findings {
                    *r.by_code.entry(f.kind).or_default() += 1;
                }
            }
            None => self.rounds_left_out += 1,
        }
        self.names(facts, findings);
        if findings.is_empty() && facts.changes.is_empty() {
            return;
        }
        let has_error = counts[Severity::Error as usize] > 0;
        if !has_error && !self.worth_a_card(findings, facts.changes) {
            return;
        }
        let list = if has_error {
            &mut self.errors
        } else {
            &mut self.others
        };
        if list.len() >= MAX_GAMES {
            self.left_out += 1;
            return;
        }
        // Most serious first, then in the order of the record.
        let mut sorted: Vec<&&Finding> = findings.iter().collect();
        sorted.sort_by_key(|f| std::cmp::Reverse(f.kind.severity()));
        let examples = &self.examples;
        let shown = sorted
            .iter()
            .take(MAX_FINDINGS)
            .map(|f| Shown {
                severity: f.kind.severity(),
                code: f.kind.code(),
                rule: f.rule.cite(edition),
                line: f.line,
                mv: f
                    .mv
                    .as_ref()
                    .map(|m| format!("{}{}", m.number, m.san))
                    .unwrap_or_default(),
                message: f.message.clone(),
                fen: f.fen.clone(),
                clocks: f.clocks.clone(),
                brief: f.kind.severity() != Severity::Error
                    && !is_claim(f.kind.code())
                    && examples
                        .get(f.kind.code())
                        .is_some_and(|e| e.0 > EXAMPLES_PER_CODE),
            })
            .collect();
        list.push(Card {
            file: capped(facts.file).into_owned(),
            number: facts.number,
            line: facts.line,
            tags: TagColumns::of_values(facts.tags, capped),
            game_id: facts.game_id.to_owned(),
            findings: shown,
            more: findings.len().saturating_sub(MAX_FINDINGS),
            changes: facts.changes.to_vec(),
        });
    }

    /// Whether a game without errors gets a card: when a finding says a
    /// draw could have been claimed or the game went on past its end,
    /// when `--fix` changed it, or when one of its codes has been shown in
    /// fewer than `EXAMPLES_PER_CODE` games; else it is counted under its
    /// codes.
    fn worth_a_card(&mut self, findings: &[&Finding], changes: &[Change]) -> bool {
        let shown = findings.iter().any(|f| is_claim(f.kind.code()))
            || !changes.is_empty()
            || findings.iter().any(|f| {
                self.examples
                    .get(f.kind.code())
                    .is_none_or(|e| e.0 < EXAMPLES_PER_CODE)
            });
        for f in findings {
            let entry = self.examples.entry(f.kind.code()).or_default();
            if shown {
                entry.0 += 1;
            } else {
                entry.1 += 1;
            }
        }
        shown
    }

    /// The page.
    pub fn render(&self, summary: &Summary, run: &RunFacts<'_>) -> String {
        let mut out = String::with_capacity(1 << 16);
        let title = format!(
            "pgn-arbiter audit: {}",
            counted(summary.games, "game", "games")
        );
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
            esc(&title),
            esc(&title)
        );
        self.audited(&mut out, summary, run);
        totals(&mut out, summary, run.edition);
        self.rounds_table(&mut out);
        self.names_html(&mut out);
        self.tournament_html(&mut out);
        self.cards(&mut out);
        out.push_str("</body>\n</html>\n");
        out
    }

    fn audited(&self, out: &mut String, summary: &Summary, run: &RunFacts<'_>) {
        out.push_str("<section>\n<h2>What was audited</h2>\n<table class=\"facts\">\n");
        let mut row = |k: &str, v: String| {
            let _ = writeln!(out, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
        };
        row(
            "Files",
            format!(
                "{} ({} plies)",
                counted(summary.files, "file", "files"),
                summary.plies
            ),
        );
        row("Games", summary.games.to_string());
        row("Rules", run.edition.name().to_owned());
        row("Run on", run.date.to_owned());
        row("pgn-arbiter", env!("CARGO_PKG_VERSION").to_owned());
        if !run.complete {
            row(
                "Complete",
                "no: an input could not be read to its end, so this page covers only what was read"
                    .to_owned(),
            );
        }
        if let Some(fixed) = &summary.fixed {
            row(
                "Corrected copy",
                format!(
                    "{} changed, {} in all",
                    counted(fixed.games, "game", "games"),
                    counted(fixed.changes, "change", "changes")
                ),
            );
        }
        out.push_str("</table>\n<ul class=\"files\">\n");
        for input in summary.inputs.iter().take(50) {
            let digest = input.sha256.as_ref().map_or(String::new(), |d| {
                format!(
                    "<br/><span class=\"sha\">SHA-256 <code>{}</code></span>",
                    esc(d)
                )
            });
            let _ = writeln!(
                out,
                "<li><code>{}</code>: {}, {}{digest}</li>",
                esc(&input.name),
                counted(input.games, "game", "games"),
                counted(input.findings, "finding", "findings")
            );
        }
        if summary.inputs.len() > 50 {
            let _ = writeln!(out, "<li>and {} more files</li>", summary.inputs.len() - 50);
        }
        out.push_str("</ul>\n</section>\n");
    }

    fn rounds_table(&self, out: &mut String) {
        out.push_str("<section>\n<h2>Events and rounds</h2>\n<table>\n<thead><tr><th>Event</th><th>Round</th><th>Games</th><th>Errors</th><th>Warnings</th><th>Infos</th></tr></thead>\n<tbody>\n");
        let mut last_event = None;
        for ((event, round), r) in &self.rounds {
            let cell = |severity: Severity| {
                let n = r.by_severity[severity as usize];
                let class = if n > 0 { severity.as_str() } else { "none" };
                format!("<td class=\"n {class}\">{n}</td>")
            };
            // An event is named once, with the sites its games give.
            let name = if last_event == Some(event) {
                String::new()
            } else {
                last_event = Some(event);
                let sites = self
                    .sites
                    .get(event)
                    .map_or(String::new(), |(sites, more)| {
                        let mut list: Vec<String> = sites.iter().map(|s| iso(s)).collect();
                        if *more > 0 {
                            list.push(format!("{more} more"));
                        }
                        let label = if list.len() == 1 { "site" } else { "sites" };
                        format!(
                            "<br/><span class=\"sites\">{label}: {}</span>",
                            list.join("; ")
                        )
                    });
                format!("{}{sites}", iso(event))
            };
            let _ = writeln!(
                out,
                "<tr><td>{name}</td><td>{}</td><td class=\"n\">{}</td>{}{}{}</tr>",
                iso(&round.text),
                r.games,
                cell(Severity::Error),
                cell(Severity::Warning),
                cell(Severity::Info)
            );
            // The round's findings by code, most serious first.
            if !r.by_code.is_empty() {
                let mut codes: Vec<(&Kind, &u64)> = r.by_code.iter().collect();
                codes.sort_by_key(|(k, n)| {
                    (std::cmp::Reverse(k.severity()), std::cmp::Reverse(**n))
                });
                let list: Vec<String> = codes
                    .iter()
                    .map(|(k, n)| format!("<code>{}</code> {n}", k.code()))
                    .collect();
                let _ = writeln!(
                    out,
                    "<tr class=\"codes\"><td></td><td colspan=\"5\">{}</td></tr>",
                    list.join(" · ")
                );
            }
        }
        out.push_str("</tbody>\n</table>\n");
        if self.rounds_left_out > 0 {
            let _ = writeln!(
                out,
                "<p>{} in further event rounds are not counted here (the page counts {MAX_ROUNDS} rounds; the games report has every game).</p>",
                counted(self.rounds_left_out, "game", "games")
            );
        }
        out.push_str("</section>\n");
    }

    /// Keeps the game's `player-name-variant` and `player-id-conflict`
    /// findings for the list by event.
    fn names(&mut self, facts: &GameFacts<'_>, findings: &[&Finding]) {
        for f in findings
            .iter()
            .filter(|f| matches!(f.kind, Kind::PlayerNameVariant | Kind::PlayerIdConflict))
        {
            if self.names.values().map(Vec::len).sum::<usize>() < MAX_NAMES {
                let at = format!("Game {} ({}, line {}): ", facts.number, facts.file, f.line);
                let list = self
                    .names
                    .entry(capped(facts.tags.get(Tag::Event)).into_owned())
                    .or_default();
                list.push(at + &capped(&f.message));
            } else {
                self.names_left_out += 1;
            }
        }
    }

    /// Players' names written several ways, by event: for the officer to
    /// decide which stands (`--fix` renames no one).
    fn names_html(&self, out: &mut String) {
        if self.names.is_empty() {
            return;
        }
        out.push_str("<section>\n<h2>Players' names to decide</h2>\n<p>One player written two ways, or one FIDE ID given to two players (<code>player-name-variant</code>), or one name and rating under two FIDE IDs (<code>player-id-conflict</code>), by event: which name stands is for the officer; <code>--fix</code> renames no one.</p>\n");
        for (event, lines) in &self.names {
            let _ = writeln!(out, "<h3>{}</h3>\n<ul>", esc(event));
            for line in lines {
                let _ = writeln!(out, "<li>{}</li>", esc(line));
            }
            out.push_str("</ul>\n");
        }
        if self.names_left_out > 0 {
            let _ = writeln!(
                out,
                "<p>{} more are in the findings report (the page lists {MAX_NAMES}).</p>",
                self.names_left_out
            );
        }
        out.push_str("</section>\n");
    }

    fn cards(&self, out: &mut String) {
        out.push_str("<section>\n<h2>Games with findings, errors first</h2>\n");
        if self.errors.is_empty() && self.others.is_empty() {
            out.push_str("<p>No game has a finding.</p>\n");
        }
        for card in self.errors.iter().chain(&self.others) {
            card_html(out, card);
        }
        if self.left_out > 0 {
            let _ = writeln!(
                out,
                "<p>{} more with findings are not shown (the page shows {MAX_GAMES} with errors and {MAX_GAMES} others; the findings report has them all).</p>",
                counted(self.left_out, "game", "games")
            );
        }
        let by_example: Vec<String> = self
            .examples
            .iter()
            .filter(|(_, (_, hidden))| *hidden > 0)
            .map(|(code, (_, hidden))| format!("<code>{code}</code> ({hidden})"))
            .collect();
        if !by_example.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"examples\">Not shown: games whose findings, none an error or a draw claim, are all of codes already shown in {EXAMPLES_PER_CODE} games above; per code, the games not shown: {}. The findings report has them all.</p>",
                by_example.join(", ")
            );
        }
        out.push_str("</section>\n");
    }
}

/// Facts of the run for the page.
pub struct RunFacts<'a> {
    /// The rule edition.
    pub edition: Edition,
    /// The run's day, `YYYY-MM-DD`.
    pub date: &'a str,
    /// Whether every input was read to its end.
    pub complete: bool,
}

fn totals(out: &mut String, summary: &Summary, edition: Edition) {
    out.push_str("<section>\n<h2>Findings</h2>\n<p class=\"badges\">");
    for severity in [Severity::Error, Severity::Warning, Severity::Info] {
        let n = summary.by_severity.get(&severity).copied().unwrap_or(0);
        let _ = write!(
            out,
            "<span class=\"badge {s}\">{n} {s}{}</span> ",
            if n == 1 { "" } else { "s" },
            s = severity.as_str()
        );
    }
    out.push_str("</p>\n<table>\n<thead><tr><th>Code</th><th>Severity</th><th>Findings</th><th>Rule</th><th>What it means</th></tr></thead>\n<tbody>\n");
    let mut kinds: Vec<(&Kind, &u64)> = summary.by_kind.iter().collect();
    kinds.sort_by_key(|(k, n)| (std::cmp::Reverse(k.severity()), std::cmp::Reverse(**n)));
    for (kind, n) in kinds {
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td class=\"{s}\">{s}</td><td class=\"n\">{n}</td><td>{}</td><td>{}</td></tr>",
            kind.code(),
            esc(kind.source().cite(edition)),
            esc(&kind.description().replace('`', "")),
            s = kind.severity().as_str()
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn card_html(out: &mut String, card: &Card) {
    let worst = card
        .findings
        .iter()
        .map(|f| f.severity)
        .max()
        .map_or("change", Severity::as_str);
    let _ = writeln!(
        out,
        "<article class=\"game sev-{worst}\">\n<h3>{} – {} <span class=\"result\">{}</span></h3>\n<p class=\"where\"><code>{}</code>, game {}, line {} · {} · round {} · {}{}</p>",
        iso(card.tags.get(Tag::White)),
        iso(card.tags.get(Tag::Black)),
        iso(card.tags.get(Tag::Result)),
        iso(&card.file),
        card.number,
        card.line,
        iso(card.tags.get(Tag::Event)),
        iso(card.tags.get(Tag::Round)),
        iso(card.tags.get(Tag::Date)),
        if card.game_id.is_empty() {
            String::new()
        } else {
            format!(" · id <code>{}</code>", esc(&card.game_id))
        }
    );
    // The findings beside their boards, so that a card takes little of a
    // printed page.
    out.push_str("<div class=\"card-body\">\n<div class=\"card-text\">\n");
    findings_html(out, card);
    if card.more > 0 {
        let _ = writeln!(
            out,
            "<p>{} more in the findings report.</p>",
            counted(card.more, "finding", "findings")
        );
    }
    out.push_str("</div>\n");
    let figures: Vec<&Shown> = card
        .findings
        .iter()
        .filter(|f| !f.fen.is_empty() || f.clocks.is_some())
        .take(MAX_BOARDS)
        .collect();
    if !figures.is_empty() {
        out.push_str("<div class=\"boards\">\n");
        for f in figures {
            if let Some(strip) = &f.clocks {
                clocks_html(out, f.code, strip);
            } else {
                let caption = caption(f.code, &f.mv);
                let _ = writeln!(
                    out,
                    "<figure>{}<figcaption>{}</figcaption></figure>",
                    board_svg(&f.fen),
                    esc(&caption)
                );
            }
        }
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n");
    if !card.changes.is_empty() {
        out.push_str("<p class=\"changes-title\">Changed in the corrected copy:</p>\n<ul class=\"changes\">\n");
        for c in &card.changes {
            let _ = writeln!(
                out,
                "<li>line {}: <code>{}</code>: {}</li>",
                c.line,
                c.kind.code(),
                esc(&c.what)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</article>\n");
}

/// The clocks a clock finding concerns: each move, and its mover's clock
/// after it in that player's column, the readings the finding is about
/// marked.
fn clocks_html(out: &mut String, code: &str, strip: &ClockStrip) {
    out.push_str("<figure><table class=\"clocks\">\n<thead><tr><th>Move</th><th>White</th><th>Black</th></tr></thead>\n<tbody>\n");
    for row in &strip.rows {
        let clock = if row.clock.is_empty() {
            "–".to_owned()
        } else {
            esc(&row.clock)
        };
        let (white, black) = if row.white {
            (clock.as_str(), "")
        } else {
            ("", clock.as_str())
        };
        let _ = writeln!(
            out,
            "<tr{}><td>{}</td><td class=\"n\">{white}</td><td class=\"n\">{black}</td></tr>",
            if row.marked { " class=\"marked\"" } else { "" },
            esc(&row.mv),
        );
    }
    let _ = writeln!(
        out,
        "</tbody>\n</table><figcaption>{code}: each clock after its player's move{}</figcaption></figure>",
        if strip.derived {
            ", worked out from the times taken ([%emt])"
        } else {
            ""
        }
    );
}

/// Whether a code says a draw could have been claimed or a game went on
/// past its automatic end: an arbiter's matter, always on a card.
fn is_claim(code: &str) -> bool {
    code.starts_with("unclaimed-") || code.starts_with("played-past-")
}

/// What a board shows, in words: a game played past its automatic end
/// shows the position after the move that ended it; a draw that could
/// have been claimed, the position in which the claim is made by writing
/// the move down; a move's finding, the position before it; a finding of
/// no move, the position it is about (the final one, for a result).
fn caption(code: &str, mv: &str) -> String {
    if mv.is_empty() {
        format!("{code}: the position it is about")
    } else if code.starts_with("played-past-") {
        format!("{code}: after {mv}")
    } else if code.starts_with("unclaimed-") {
        format!("{code}: the claim, by writing down {mv}")
    } else {
        format!("{code}: before {mv}")
    }
}

/// A card's findings: in full, but for codes shown in enough games
/// already, which are named in one line.
fn findings_html(out: &mut String, card: &Card) {
    let (brief, full): (Vec<&Shown>, Vec<&Shown>) = card.findings.iter().partition(|f| f.brief);
    if !full.is_empty() {
        out.push_str("<ul class=\"findings\">\n");
        for f in full {
            let mv = if f.mv.is_empty() {
                String::new()
            } else {
                format!(" · {}", esc(&f.mv))
            };
            let _ = writeln!(
                out,
                "<li><span class=\"{s}\">{s}</span> <code>{}</code> · line {}{mv} · {}<br/>{}</li>",
                f.code,
                f.line,
                esc(f.rule),
                iso(&f.message),
                s = f.severity.as_str()
            );
        }
        out.push_str("</ul>\n");
    }
    if !brief.is_empty() {
        let mut codes: Vec<&str> = brief.iter().map(|f| f.code).collect();
        codes.sort_unstable();
        codes.dedup();
        let _ = writeln!(
            out,
            "<p class=\"also\">Also {}, as in the games shown for {} above.</p>",
            codes
                .iter()
                .map(|c| format!("<code>{c}</code>"))
                .collect::<Vec<_>>()
                .join(", "),
            if codes.len() == 1 { "it" } else { "them" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_place_pieces_by_fen() {
        let svg = board_svg("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(svg.matches("class=\"piece\"").count(), 3);
        // The white king on e1: file e (x of its centre), bottom rank.
        assert!(
            svg.contains("<text x=\"131\" y=\"203\" class=\"piece\">♔</text>"),
            "{svg}"
        );
        assert!(svg.contains(">♚<"));
    }

    #[test]
    fn text_is_escaped_for_html_and_xml() {
        assert_eq!(
            esc("<a href='x'>&\"\u{1}"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\u{fffd}"
        );
    }

    /// Issue 56: a tag with a right-to-left override cannot reorder the
    /// page: the override is replaced, and each tag is in its own isolate.
    #[test]
    fn right_to_left_overrides_cannot_reorder_the_page() {
        assert_eq!(
            esc("a\u{202e}b\u{2067}c\u{202c}"),
            "a\u{fffd}b\u{fffd}c\u{fffd}"
        );
        // Right-to-left letters stay as they are.
        assert_eq!(esc("גליגוריץ'"), "גליגוריץ&#39;");
        let mut page = Page::default();
        let pgn = "[White \"Alpha\u{202e}1-0\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";
        let game = crate::testing::checked(pgn.as_bytes());
        let facts = GameFacts {
            file: "f.pgn",
            number: 1,
            line: 1,
            tags: game.tags.values(),
            game_id: "",
            changes: &[],
        };
        let shown: Vec<&crate::finding::Finding> = game.findings.iter().collect();
        page.game(&facts, &shown, crate::board::rules::Edition::Fide2023);
        let run = RunFacts {
            edition: crate::board::rules::Edition::Fide2023,
            date: "2026-01-01",
            complete: true,
        };
        let html = page.render(&Default::default(), &run);
        assert!(!html.contains('\u{202e}'), "an override reached the page");
        assert!(
            html.contains("<bdi>Alpha\u{fffd}1-0</bdi> – <bdi>B</bdi>"),
            "{html}"
        );
    }
}
