//! The run's counts: per input and in total, for the summary on standard
//! error, the JSON summary (`--summary`), the audit page and the exit
//! status.

use std::{collections::BTreeMap, time::Duration};

use serde::Serialize;

use crate::finding::{Kind, Severity, counted};

/// Counts of one input.
#[derive(Debug, Default, Clone, Serialize)]
pub struct InputCounts {
    /// The input's name, as the `file` column has it.
    pub name: String,
    /// Whether it was read to its end.
    pub complete: bool,
    /// Why not, when it was not.
    pub problem: Option<String>,
    /// Games reported.
    pub games: u64,
    /// Plies replayed.
    pub plies: u64,
    /// Findings reported.
    pub findings: u64,
    /// Findings per severity, by name.
    pub by_severity: BTreeMap<&'static str, u64>,
    /// Findings per code.
    pub by_code: BTreeMap<&'static str, u64>,
    /// Its SHA-256 as stored (compressed or not), when the summary or the
    /// page is written: what a recipient checks the file they hold
    /// against. `None` for a shard or an input not read.
    pub sha256: Option<String>,
}

/// Counts for the summary and the exit status.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    /// Inputs read to their end or failed.
    pub files: u64,
    /// Games reported.
    pub games: u64,
    /// Plies replayed.
    pub plies: u64,
    /// Findings per severity.
    pub by_severity: BTreeMap<Severity, u64>,
    /// Findings per code.
    pub by_kind: BTreeMap<Kind, u64>,
    /// Operational problems (unreadable inputs, corrupt streams).
    pub problems: u64,
    /// Findings left out because the baseline has them.
    pub in_baseline: u64,
    /// Findings left out by a comment of their game (`{pgn-arbiter: ignore CODE}`).
    pub suppressed: u64,
    /// Rows of the baseline that matched no finding (fixed since), once
    /// the run is over; `None` without a baseline.
    pub baseline_unmatched: Option<u64>,
    /// Counts per input, in input order; the one being written is last.
    pub inputs: Vec<InputCounts>,
    /// What `--fix` changed; `None` without it.
    pub fixed: Option<FixCounts>,
    /// The games against the tournament report file (`--trf`).
    pub tournament: Option<TournamentCounts>,
}

/// The games against the tournament report file, round by round.
#[derive(Debug, Default, Clone, Serialize)]
pub struct TournamentCounts {
    /// The TRF as named on the command line.
    pub file: String,
    /// The tournament's name (`012`).
    pub name: String,
    /// Its players.
    pub players: usize,
    /// What is wrong with the file itself.
    pub file_problems: usize,
    /// Per round: pairings played, found, missing, and games matched to
    /// none.
    pub rounds: Vec<crate::checks::across::tournament::RoundCount>,
    /// The TRF's SHA-256.
    pub sha256: Option<String>,
}

/// What `--fix` changed in a run.
#[derive(Debug, Default, Clone, Serialize)]
pub struct FixCounts {
    /// Games written with at least one change.
    pub games: u64,
    /// Changes made.
    pub changes: u64,
    /// Changes per code of the finding each corrects.
    pub by_code: BTreeMap<&'static str, u64>,
}

impl FixCounts {
    /// Counts one game's changes.
    pub fn count(&mut self, changes: &[crate::fix::Change]) {
        if changes.is_empty() {
            return;
        }
        self.games += 1;
        for change in changes {
            self.changes += 1;
            *self.by_code.entry(change.kind.code()).or_default() += 1;
        }
    }
}

impl Summary {
    /// Counts from now on go to this input as well.
    pub fn begin_input(&mut self, name: &str) {
        let by_severity = [Severity::Error, Severity::Warning, Severity::Info]
            .into_iter()
            .map(|s| (s.as_str(), 0))
            .collect();
        self.inputs.push(InputCounts {
            name: name.to_owned(),
            by_severity,
            ..InputCounts::default()
        });
    }

    /// The summary as JSON (`--summary`): the run (`rules`, `options`,
    /// whether it is `complete`), the totals and the counts per input.
    pub fn json(
        &self,
        elapsed: Duration,
        complete: bool,
        rules: &str,
        options: serde_json::Value,
    ) -> String {
        let secs = elapsed.as_secs_f64();
        let by_severity: BTreeMap<&str, u64> = [Severity::Error, Severity::Warning, Severity::Info]
            .into_iter()
            .map(|s| (s.as_str(), self.by_severity.get(&s).copied().unwrap_or(0)))
            .collect();
        let by_code: BTreeMap<&str, u64> =
            self.by_kind.iter().map(|(k, n)| (k.code(), *n)).collect();
        let value = serde_json::json!({
            "version": env!("CARGO_PKG_VERSION"),
            "commit": env!("PGN_ARBITER_COMMIT"),
            "commit_date": env!("PGN_ARBITER_COMMIT_DATE"),
            "game_id_scheme": crate::read::game::GAME_ID_SCHEME,
            "rules": rules,
            "options": options,
            "complete": complete,
            "elapsed_seconds": secs,
            "games_per_second": if secs > 0.0 { self.games as f64 / secs } else { 0.0 },
            "total": {
                "files": self.files,
                "games": self.games,
                "plies": self.plies,
                "findings": by_severity.values().sum::<u64>(),
                "by_severity": by_severity,
                "by_code": by_code,
                "duplicates": by_code.get(Kind::DuplicateGame.code()).copied().unwrap_or(0),
                "left_out_by_baseline": self.in_baseline,
                "left_out_by_comments": self.suppressed,
                "baseline_unmatched": self.baseline_unmatched,
                "input_problems": self.problems,
                "fixed": self.fixed,
            },
            "tournament": self.tournament,
            "inputs": self.inputs,
        });
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        text
    }

    /// One more game of `plies` plies, in the total and its input's.
    pub fn count_game(&mut self, plies: usize) {
        self.games += 1;
        self.plies += plies as u64;
        if let Some(input) = self.inputs.last_mut() {
            input.games += 1;
            input.plies += plies as u64;
        }
    }

    /// The input being written has been read: to its end, or not (`problem`).
    pub fn end_input(&mut self, problem: Option<String>) {
        self.files += 1;
        if let Some(input) = self.inputs.last_mut() {
            input.complete = problem.is_none();
            input.problem = problem;
        }
    }

    /// Findings at or above a severity.
    pub fn at_least(&self, severity: Severity) -> u64 {
        self.by_severity.range(severity..).map(|(_, n)| *n).sum()
    }

    /// The summary lines for stderr.
    pub fn render(&self, elapsed: Duration, rules: &str) -> String {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            self.games as f64 / secs
        } else {
            0.0
        };
        let count = |s| self.by_severity.get(&s).copied().unwrap_or(0);
        let mut out = format!(
            "pgn-arbiter: {}, {}, {}; {}, {}, {}; rules {rules}; {secs:.2} s, {rate:.0} games/s\n",
            counted(self.files, "file", "files"),
            counted(self.games, "game", "games"),
            counted(self.plies, "ply", "plies"),
            counted(count(Severity::Error), "error", "errors"),
            counted(count(Severity::Warning), "warning", "warnings"),
            counted(count(Severity::Info), "info", "infos"),
        );
        // Errors first, then warnings, then infos.
        let mut by_kind: Vec<_> = self.by_kind.iter().collect();
        by_kind.sort_by_key(|(kind, _)| std::cmp::Reverse(kind.severity()));
        for (kind, n) in by_kind {
            out.push_str(&format!(
                "  {n:>10}  {} ({})\n",
                kind.code(),
                kind.severity()
            ));
        }
        if let Some(fixed) = &self.fixed {
            out.push_str(&format!(
                "  --fix: {} corrected, {}\n",
                counted(fixed.games, "game", "games"),
                counted(fixed.changes, "change", "changes")
            ));
        }
        if let Some(t) = &self.tournament {
            out.push_str(&format!("  --trf {}:\n", t.file));
            for r in &t.rounds {
                let round = if r.round == 0 {
                    "no round".to_owned()
                } else {
                    format!("round {}", r.round)
                };
                out.push_str(&format!(
                    "    {round}: {} played, {} found, {} missing; {} extra; {} and {} differ\n",
                    counted(r.pairings, "pairing", "pairings"),
                    r.found,
                    r.missing,
                    counted(r.extra, "game", "games"),
                    counted(r.results_differ, "result", "results"),
                    counted(r.colours_differ, "colour", "colours"),
                ));
            }
        }
        if self.in_baseline > 0 {
            out.push_str(&format!(
                "  {} finding(s) left out: the baseline has them\n",
                self.in_baseline
            ));
        }
        if let Some(n) = self.baseline_unmatched.filter(|&n| n > 0) {
            out.push_str(&format!(
                "  {n} baseline row(s) matched no finding: fixed since, or their games changed\n"
            ));
        }
        if self.problems > 0 {
            out.push_str(&format!(
                "  {} input problem(s), reported above\n",
                self.problems
            ));
        }
        out
    }
}
