//! `--fix OUT`: where each input's corrected copy goes, and the copies
//! written as the games come, in input order.
//!
//! `-`: every copy to standard output, in input order. One input: OUT is
//! the copy (unless OUT is a directory already). Several
//! inputs: OUT is a directory, created if needed, and each copy keeps its
//! input's path below the inputs' nearest common directory (standard input
//! is `stdin.pgn`), without a compression suffix: copies are plain PGN.
//! A copy is written like a report: to a temporary file beside it, renamed
//! into place when the run completes, never over an input. An input that
//! could not be read to its end, or holds a game too large to copy, leaves
//! its copy as `NAME.partial`, which cannot be taken for a whole one.

use std::{
    collections::HashSet,
    fs,
    io::{self, Write},
    path::{Component, Path, PathBuf},
};

use super::{self as output, Commit, Opened, Output, Pending};
use crate::{
    read::input::{Input, Source, identity},
    report::GameResult,
};

/// Compression suffixes a copy's name loses.
const COMPRESSED: [&str; 4] = [".gz", ".bz2", ".zst", ".xz"];

/// Where each input's corrected copy goes (`None`: an input that is no
/// file, such as a directory that could not be listed). No copy may be
/// any file in `read` (the inputs, the TRF, the baseline, the file behind
/// standard input) or a report.
pub fn plan(
    inputs: &[Input],
    read: &[Input],
    out: &Path,
    reports: &[&Output],
) -> Result<Vec<Option<Output>>, String> {
    if out.as_os_str() == "-" {
        if reports.contains(&&Output::Stdout) {
            return Err(
                "--fix - and a report cannot both go to standard output: give the report a file (--findings FILE)"
                    .to_owned(),
            );
        }
        return Ok(vec![Some(Output::Stdout); inputs.len()]);
    }
    let as_dir = out.is_dir() || inputs.len() > 1;
    room_for_copies(out, as_dir)?;
    let targets: Vec<Option<PathBuf>> = if as_dir {
        let files: Vec<PathBuf> = inputs
            .iter()
            .filter_map(|i| match &i.source {
                Source::File(p) | Source::Shard(p, _) => std::path::absolute(p).ok(),
                _ => None,
            })
            .collect();
        let common = common_dir(&files);
        inputs
            .iter()
            .map(|i| match &i.source {
                Source::Stdin => Some(out.join("stdin.pgn")),
                Source::File(p) | Source::Shard(p, _) => {
                    let abs = std::path::absolute(p).ok()?;
                    let rel = abs.strip_prefix(&common).unwrap_or(&abs);
                    let rel: PathBuf = rel
                        .components()
                        .filter(|c| matches!(c, Component::Normal(_)))
                        .collect();
                    Some(out.join(plain_name(&rel)))
                }
                Source::Text(_) => Some(out.join("text.pgn")),
                Source::Unlistable(_) => None,
            })
            .collect()
    } else {
        let name = out.to_string_lossy().to_ascii_lowercase();
        if COMPRESSED.iter().any(|ext| name.ends_with(ext)) {
            return Err(format!(
                "--fix {} names a compressed file, but the corrected copy is plain PGN: choose a name such as fixed.pgn (nothing was written)",
                out.display()
            ));
        }
        vec![Some(out.to_path_buf())]
    };
    let mut seen = HashSet::new();
    for target in targets.iter().flatten() {
        let target_id = fs::metadata(target).ok().as_ref().and_then(identity);
        let clash = read.iter().find(|i| match &i.source {
            Source::Stdin => target_id.is_some() && target_id == output::stdin_identity(),
            Source::File(p) | Source::Shard(p, _) => output::same_file(p, target),
            Source::Unlistable(_) | Source::Text(_) => false,
        });
        if let Some(input) = clash {
            return Err(format!(
                "--fix would write {} over {}, which this run reads; a corrected copy is never written over what the run reads: give --fix another file or directory (nothing was written)",
                target.display(),
                match input.source {
                    Source::Stdin => "the file on standard input",
                    _ => &input.name,
                }
            ));
        }
        if reports
            .iter()
            .any(|r| matches!(r, Output::File(p) if output::same_file(p, target)))
        {
            return Err(format!(
                "--fix would write {} over a report: give each its own file (nothing was written)",
                target.display()
            ));
        }
        if target.is_dir() {
            return Err(format!("--fix: {} is a directory", target.display()));
        }
        if !seen.insert(target.clone()) {
            return Err(format!(
                "--fix would write {} twice (an input given twice?) (nothing was written)",
                target.display()
            ));
        }
    }
    Ok(targets.into_iter().map(|t| t.map(Output::File)).collect())
}

/// Refuses a `--fix` path where the copies cannot go: several inputs'
/// copies (`as_dir`) in a file, or a directory to be made where a file is.
fn room_for_copies(out: &Path, as_dir: bool) -> Result<(), String> {
    if as_dir && out.exists() && !out.is_dir() {
        return Err(format!(
            "--fix {}: with several inputs --fix names a directory for their corrected copies, and this is a file (nothing was written)",
            out.display()
        ));
    }
    // The directory the copies go to is made if need be: what of its path
    // is there must be directories.
    let dir = if as_dir { Some(out) } else { out.parent() };
    if let Some(blocked) = dir.and_then(output::file_on_the_way) {
        return Err(format!(
            "--fix {}: {} is a file, so no directory can be made there for the corrected copies (nothing was written)",
            out.display(),
            blocked.display()
        ));
    }
    Ok(())
}

/// The deepest directory holding every path.
fn common_dir(paths: &[PathBuf]) -> PathBuf {
    let mut common: Option<PathBuf> = None;
    for path in paths {
        let dir = path.parent().unwrap_or(Path::new(""));
        common = Some(match common {
            None => dir.to_path_buf(),
            Some(c) => c
                .components()
                .zip(dir.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    common.unwrap_or_default()
}

/// A file name without its compression suffix.
fn plain_name(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let lower = name.to_ascii_lowercase();
    match COMPRESSED.iter().find(|ext| lower.ends_with(*ext)) {
        Some(ext) => path.with_file_name(&name[..name.len() - ext.len()]),
        None => path.to_path_buf(),
    }
}

/// The copy being written and those written.
struct Copy {
    input: usize,
    writer: Box<dyn Write + Send>,
    pending: Option<Pending>,
}

/// The corrected copies of a run.
pub struct FixFiles {
    targets: Vec<Option<Output>>,
    current: Option<Copy>,
    /// Closed copies, and why each is not whole (if it is not).
    closed: Vec<(Option<Pending>, Option<String>)>,
    /// Per input, why its copy is not whole.
    broken: Vec<Option<String>>,
}

impl FixFiles {
    /// Copies to go to `targets` (from `plan`), one per input.
    pub fn new(targets: Vec<Option<Output>>) -> FixFiles {
        let broken = vec![None; targets.len()];
        FixFiles {
            targets,
            current: None,
            closed: Vec::new(),
            broken,
        }
    }

    fn open(&mut self, input: usize) -> io::Result<()> {
        if self.current.as_ref().is_some_and(|c| c.input == input) {
            return Ok(());
        }
        self.close()?;
        let Some(Some(target)) = self.targets.get(input) else {
            return Ok(());
        };
        if let Output::File(path) = target
            && let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            fs::create_dir_all(dir).map_err(|e| output::named(dir, e))?;
        }
        let (writer, pending) = Opened::open(target)?.into_parts();
        self.current = Some(Copy {
            input,
            writer,
            pending,
        });
        Ok(())
    }

    /// Writes games of `input` as `--fix` made them (`copy`); a game that
    /// was not read (too large) makes the copy incomplete.
    pub fn games(&mut self, input: usize, games: &[GameResult], copy: &[u8]) -> io::Result<()> {
        self.open(input)?;
        if let Some(game) = games.iter().find(|g| g.fixed.is_none()) {
            self.broken_input(
                input,
                format!(
                    "the game at line {} is too large to read, so it could not be copied",
                    game.line
                ),
            );
        }
        if let Some(current) = &mut self.current {
            current.writer.write_all(copy)?;
        }
        Ok(())
    }

    /// The copy of `input` is not whole, and why.
    pub fn broken_input(&mut self, input: usize, why: String) {
        if let Some(slot) = self.broken.get_mut(input) {
            slot.get_or_insert(why);
        }
    }

    /// `input` has been read: its copy is closed.
    pub fn input_done(&mut self, input: usize) -> io::Result<()> {
        if self.current.as_ref().is_some_and(|c| c.input == input) {
            self.close()?;
        }
        Ok(())
    }

    fn close(&mut self) -> io::Result<()> {
        if let Some(mut copy) = self.current.take() {
            copy.writer.flush()?;
            drop(copy.writer);
            if let Some(pending) = &mut copy.pending {
                pending.close();
            }
            let why = self.broken.get(copy.input).cloned().flatten();
            self.closed.push((copy.pending, why));
        }
        Ok(())
    }

    /// Puts the copies in place (whole ones under their names, the rest as
    /// NAME.partial). Returns a message for each copy that is not whole.
    pub fn commit(mut self) -> io::Result<Vec<String>> {
        self.close()?;
        let mut whole = Commit::default();
        let mut messages = Vec::new();
        let mut partial = Vec::new();
        for (pending, why) in self.closed {
            match why {
                None => whole.add(pending),
                Some(why) => partial.push((pending, why)),
            }
        }
        whole.commit()?;
        for (pending, why) in partial {
            let Some(target) = pending.as_ref().map(|p| p.target().display().to_string()) else {
                messages.push(format!(
                    "the corrected copy written to standard output is not whole ({why})"
                ));
                continue;
            };
            let mut one = Commit::default();
            one.add(pending);
            for path in one.commit_partial()? {
                messages.push(format!(
                    "the corrected copy {target} is not whole ({why}); it is left as {}",
                    path.display()
                ));
            }
        }
        Ok(messages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &Path) -> Input {
        Input {
            name: path.display().to_string(),
            source: Source::File(path.to_path_buf()),
        }
    }

    #[test]
    fn copies_keep_their_paths_below_the_common_directory() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        fs::create_dir_all(&a).unwrap();
        fs::create_dir_all(&b).unwrap();
        fs::write(a.join("x.pgn"), "1. e4 *\n").unwrap();
        fs::write(b.join("x.pgn.gz"), "1. e4 *\n").unwrap();
        let out = dir.path().join("out");
        let inputs = [file(&a.join("x.pgn")), file(&b.join("x.pgn.gz"))];
        let targets = plan(&inputs, &inputs, &out, &[]).unwrap();
        let file = |p: PathBuf| Some(Output::File(p));
        assert_eq!(
            targets,
            [file(out.join("a/x.pgn")), file(out.join("b/x.pgn"))]
        );
        // One input: OUT is the copy, and never an input.
        let one = plan(
            &inputs[..1],
            &inputs[..1],
            &dir.path().join("fixed.pgn"),
            &[],
        )
        .unwrap();
        assert_eq!(one, [file(dir.path().join("fixed.pgn"))]);
        // `-`: standard output, unless a report goes there.
        let stdout = plan(&inputs, &inputs, Path::new("-"), &[]).unwrap();
        assert_eq!(stdout, [Some(Output::Stdout), Some(Output::Stdout)]);
        assert!(plan(&inputs, &inputs, Path::new("-"), &[&Output::Stdout]).is_err());
        assert!(plan(&inputs[..1], &inputs[..1], &a.join("x.pgn"), &[]).is_err());
        assert!(
            plan(
                &inputs[..1],
                &inputs[..1],
                &dir.path().join("fixed.pgn.gz"),
                &[]
            )
            .is_err()
        );
        // A directory of inputs fixed into itself would overwrite them.
        assert!(plan(&inputs, &inputs, dir.path(), &[]).is_err());
        let report = Output::File(dir.path().join("fixed.pgn"));
        assert!(
            plan(
                &inputs[..1],
                &inputs[..1],
                &dir.path().join("fixed.pgn"),
                &[&report]
            )
            .is_err()
        );
        // Nor any other file the run reads: a TRF, a baseline.
        let trf = dir.path().join("t.trf");
        fs::write(&trf, "012 x\n").unwrap();
        let read = [
            inputs[0].clone(),
            Input {
                name: "t.trf".into(),
                source: Source::File(trf.clone()),
            },
        ];
        let err = plan(&inputs[..1], &read, &trf, &[]).unwrap_err();
        assert!(err.contains("which this run reads"), "{err}");
    }
}
