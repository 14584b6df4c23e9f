//! Helpers for tests that read the shared corpora.

use std::path::{Path, PathBuf};

/// The shared corpora, beside the repository. The tests that read them all
/// are `#[ignore]`d, so that `cargo test` passes in a lone clone; `.ci/run`
/// runs them with `--include-ignored`, and they fail (never skip) when the
/// corpora are missing.
pub fn corpora() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    assert!(
        root.is_dir(),
        "the shared corpora are missing at {}",
        root.display()
    );
    root
}

/// A few small files of the shared corpora, copied into the fixtures (see
/// `fixtures/README.md`), for the tests that run everywhere.
pub fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpora-sample")
}

/// Every fixture, the sample among them.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every uncompressed PGN file below `root`, sorted.
pub fn plain_pgn_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `bytes` written to `x.pgn` in `dir`, as the run's one input.
pub fn file_input(dir: &Path, bytes: &[u8]) -> [crate::read::input::Input; 1] {
    use crate::read::input;
    let path = dir.join("x.pgn");
    std::fs::write(&path, bytes).unwrap();
    [input::Input {
        name: "x.pgn".into(),
        source: input::Source::File(path),
    }]
}

/// Short games, each told from the others by its White, to at least
/// `bytes` bytes; and how many.
pub fn short_games(bytes: usize) -> (Vec<u8>, usize) {
    let mut pgn = Vec::new();
    let mut games = 0;
    while pgn.len() < bytes {
        let game = format!("[Event \"E\"]\n[White \"W{games}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n");
        pgn.extend_from_slice(game.as_bytes());
        games += 1;
    }
    (pgn, games)
}

/// The first game of `pgn` as the run checks it (fingerprint and tag
/// columns kept, as for duplicates and a games report).
pub fn checked(pgn: &[u8]) -> crate::report::GameResult {
    use crate::{read::input, run::pipeline};
    let dir = tempfile::tempdir().unwrap();
    let inputs = file_input(dir.path(), pgn);
    let task = pipeline::Task {
        judging: crate::checks::Judging {
            duplicates: true,
            ..Default::default()
        },
        all_rows: true,
        ..Default::default()
    };
    let mut games = Vec::new();
    let tally = input::Tally::default();
    pipeline::run(&inputs, 1, &task, 0, &tally, &mut |checked| {
        if let pipeline::Checked::Games { games: part, .. } = checked {
            games.extend(part);
        }
        true
    });
    games.into_iter().next().expect("a game")
}

/// One game read from PGN text as a run reads it (from line 1): its bytes,
/// tags and located movetext, for the unit tests that build a game.
pub struct Game {
    pub bytes: Vec<u8>,
    pub tags: crate::read::tags::Tags,
    pub lexed: crate::read::lexer::Lexed,
}

/// `pgn` read as one game; see [`Game`].
pub fn game(pgn: impl AsRef<[u8]>) -> Game {
    let bytes = pgn.as_ref().to_vec();
    let mut tags = crate::read::tags::Tags::default();
    let mut lexed = crate::read::lexer::Lexed::default();
    lexed.scan(&bytes, 1, &mut tags);
    Game { bytes, tags, lexed }
}

impl Game {
    /// The game as the checks take it.
    pub fn raw(&self) -> crate::read::game::RawGame<'_> {
        crate::read::game::RawGame {
            bytes: &self.bytes,
            line: 1,
            tags: &self.tags,
            lexed: &self.lexed,
            after_tag_break: false,
        }
    }
}
