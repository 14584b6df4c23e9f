//! pgn-arbiter audits PGN chess archives.
//!
//! The stages in the order a game meets them; a stage imports only itself
//! and earlier ones (`tests/integration/modules.rs`: `stages_depend_forward_only`):
//!
//! - [`read`]: from bytes to games. [`read::input`] opens the bytes (directory
//!   walk, decompression by magic bytes, UTF-16, lone carriage returns);
//!   [`read::blocks`] cuts them into blocks of whole games for the workers;
//!   [`read::lexer`] reads each game the way pgn-reader does ([`read::pgn`],
//!   the only module that knows pgn-reader, holds it to that) and says
//!   where every tag, move and comment is, filling [`read::tags`] and giving a
//!   [`read::game::RawGame`]; [`read::comments`] reads what the comments
//!   say (clocks, the comments that leave findings out); [`read::notation`] reads a move token's text,
//!   [`read::outcome`] the four results;
//!   [`read::frames`] lists a zstd file's frames and [`read::shard`] reads the
//!   games that start in a range of frames or bytes (a shard);
//!   [`read::trf`] reads a tournament's report file (TRF) with what is wrong
//!   with it located; [`read::hash`] holds every hash of a game.
//!   [`read`]'s map says in which five places a game's start is decided,
//!   and why.
//! - [`board`]: facts from the board, without findings: [`board::san`] and
//!   [`board::lenient`] resolve moves (strictly, then by a plain reading),
//!   [`board::replay`] plays the mainline and tells an observer each ply,
//!   [`board::variations`] replays the variations, [`board::rules`] holds the
//!   editions and the one table of citations, [`board::winnable`] says
//!   whether a side can still mate.
//! - [`finding`]: the kinds of finding (code, severity, what each rests on)
//!   and one finding's place in its game.
//! - [`checks`]: judges the game, one module per rule area, each deciding its
//!   findings (below); [`checks::verdict`] holds what they share, and
//!   [`checks::draws::history`] the positions the draw rules need.
//!   [`checks::across`] holds the checks that need every game of the run
//!   (duplicates, rounds, the games against a TRF), behind one trait
//!   ([`checks::across::Across`]) that the writer calls with each game in
//!   input order and once at the end.
//! - [`fix`]: `--fix`, a game written back with the corrections its findings
//!   justify, each explained by a comment: of the tags, the result and the
//!   moves, each in a module of its own.
//! - [`report`]: which findings are reported ([`report::selection`]:
//!   `--select`, `--ignore`, `--baseline`), both CSV reports in input
//!   order with spreadsheet-safe cells ([`report::cell`](mod@report::cell)), the counts
//!   ([`report::summary`]) and the audit page ([`report::page`], `--html`).
//!   The report decides no finding: it writes what [`checks`] decided.
//! - [`output`]: where outputs go, each put in place only when the run
//!   completes and never over an input; [`output::corrected`], where each
//!   input's corrected copy (`--fix`) goes.
//! - [`cli`], [`config`]: the command line, checked once into a [`Config`](crate::config::Config).
//! - [`run`](mod@run): the run itself ([`run::run`]: outputs opened, the sink that
//!   writes in input order, the end with the exit status), the reader
//!   thread, the workers and the ordered writer they take turns at
//!   ([`run::pipeline`], [`run::affinity`]), the progress bar; and the command line as a whole, from its arguments to
//!   its exit status ([`run::command`]), which the binary and the Python
//!   module's `pgn-arbiter` both run.
//!
//! Where each finding is decided (a test holds this list to the code):
//!
//! - `src/checks/tags.rs`: `malformed-tag`, `encoding`, `invalid-result`,
//!   `non-standard-tag`
//! - `src/checks/header.rs`: `missing-tag`, `unknown-tag-value`,
//!   `invalid-date`, `plycount-mismatch`, `duplicate-tag`, `invalid-elo`,
//!   `invalid-fide-id`, `invalid-time-control`, `non-standard-time-control`,
//!   `fen-without-setup`
//! - `src/checks/setup.rs`: `invalid-fen`, `unsupported-variant`
//! - `src/checks/moves.rs`: `illegal-move`, `ambiguous-move`,
//!   `malformed-move`, `wrong-check-suffix`, `unterminated-comment`,
//!   `text-after-result`, `non-standard-san`, `non-standard-movetext`,
//!   `move-number`, `illegal-move-in-variation`,
//!   `ambiguous-move-in-variation`, `malformed-move-in-variation`,
//!   `empty-variation`
//! - `src/checks/draws/mod.rs`: `unclaimed-threefold`,
//!   `unclaimed-fifty-moves`, `played-past-fivefold`,
//!   `played-past-seventy-five-moves`, `played-past-dead-position`
//! - `src/checks/result.rs`: `missing-result`, `truncated-game`, `result-mismatch`,
//!   `result-contradicts-checkmate`, `result-contradicts-stalemate`,
//!   `result-contradicts-dead-position`, `result-contradicts-fivefold`,
//!   `result-contradicts-seventy-five-moves`
//! - `src/checks/wins.rs`: `unwinnable-win-on-time`,
//!   `unwinnable-win-by-resignation`, `bare-king-win`,
//!   `unexplained-win-unwinnable`, `bare-king-forfeit-win`
//! - `src/checks/mod.rs`: `game-too-large` (a game too large to read is
//!   never judged; the reader asks for this finding)
//! - `src/checks/across/duplicates.rs`: `duplicate-game` (run-wide, like the
//!   two below: the writer gives these checks every game of the run, in
//!   order)
//! - `src/checks/across/rounds.rs`: `player-twice-in-round`,
//!   `duplicate-board`
//! - `src/checks/across/tournament.rs`: `trf-invalid`, `trf-inconsistent`,
//!   `trf-game-missing`, `game-not-in-trf`, `trf-result-mismatch`,
//!   `trf-colour-mismatch`, `trf-player-mismatch` (with --trf: the games
//!   against the tournament's report file)
//! - `src/checks/suppress.rs`: `unused-suppression` (a game's comments that
//!   leave its findings out: judged by the writer once it has all of them)
//! - `src/checks/across/identity.rs`: `player-name-variant`,
//!   `player-id-conflict` (run-wide: one FIDE ID under several names, one
//!   name and rating under several IDs in an event)
//! - `src/checks/clocks.rs`: `clock-rises`, `clock-drift`, `clock-forfeit-contradicted`,
//!   `played-past-flag` (the clock readings after the moves, against the
//!   TimeControl and the result)
//! - `src/checks/variants.rs`: `result-contradicts-variant-end` (lichess's
//!   variants replayed by their own rules; their illegal and ambiguous
//!   moves and a threefold repetition played on from are reported under
//!   the codes above, citing those rules)
//!
//! The whole path of a run, for one input in memory ([`audit_bytes`]): the
//! games are cut, replayed and judged, and both reports written.
//!
//! ```
//! use pgn_arbiter::{audit_bytes, board::rules::Edition, checks::Judging};
//!
//! let pgn = b"[Event \"Club\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";
//! let judging = Judging {
//!     edition: Edition::Fide2023,
//!     ..Judging::default()
//! };
//! let (findings, games, count) = audit_bytes(pgn, judging, false)?;
//! assert_eq!(count, 1);
//! // One row a finding: the king cannot go to e3.
//! let findings = String::from_utf8(findings)?;
//! assert!(findings.lines().any(|row| row.contains(",illegal-move,")));
//! // One row a game, after the header.
//! assert_eq!(String::from_utf8(games)?.lines().count(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Design priorities, in order: never crash or hang on any input; correct on
//! valid PGN, article by article; every game accounted for, exactly once;
//! deterministic output; throughput; convenience.

pub mod board;
pub mod checks;
pub mod cli;
pub mod config;
pub mod finding;
pub mod fix;
pub mod output;
pub mod read;
pub mod report;
pub mod run;

#[cfg(test)]
mod testing;

pub use run::{Status, audit_bytes, fix_bytes, run};
