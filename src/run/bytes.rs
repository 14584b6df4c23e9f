//! A run over one input held in memory, with one thread: the whole path a
//! run takes, for the fuzz targets, the Python module's tests and the
//! library's users.

use std::{io, sync::Arc};

use super::pipeline::{self, Checked};
use crate::{
    checks,
    read::input,
    report::{self, Report},
};

/// Audits one input held in memory (compressed or not) with one thread and
/// returns both reports and the number of games: the whole path a run takes,
/// for the fuzz target and its regression tests.
pub fn audit_bytes(
    data: &[u8],
    judging: checks::Judging,
    raw_csv: bool,
) -> io::Result<(Vec<u8>, Vec<u8>, u64)> {
    let mut opened = input::decode(Box::new(io::Cursor::new(data.to_vec())))?;
    let (findings, games) = (SharedBuf::default(), SharedBuf::default());
    let out = report::format::FindingsWriter::new(
        Box::new(findings.clone()),
        report::format::Format::Csv,
        raw_csv,
        true,
        None,
    )
    .map_err(io::Error::other)?;
    let mut report = Report::new(
        out,
        Some(Box::new(games.clone())),
        raw_csv,
        judging.edition,
        true,
    )
    .map_err(io::Error::other)?;
    // Duplicates and rounds are looked for, as a run does by default.
    report.find_duplicates(0);
    let judging = checks::Judging {
        duplicates: true,
        ..judging
    };
    let mut worker = pipeline::Worker::new(judging, true);
    let mut number = 0;
    let mut failed = None;
    crate::read::blocks::read_stream(
        &mut *opened.reader,
        &mut |piece: crate::read::blocks::Piece| {
            worker.check(piece, &mut |checked| {
                if let Checked::Games { games, .. } = checked {
                    for game in &games {
                        number += 1;
                        if let Err(err) = report.write_game("-", number, game) {
                            failed = Some(err);
                            return false;
                        }
                    }
                }
                true
            })
        },
    );
    if let Some(err) = failed {
        return Err(io::Error::other(err));
    }
    report.finish()?;
    drop(report);
    Ok((findings.take(), games.take(), number))
}

/// The corrected copy (`--fix`, every finding kept) of one input held in
/// memory, with one thread, and the number of games read and of games too
/// large to copy: for the fuzz target over `--fix` and its tests.
pub fn fix_bytes(data: &[u8], judging: checks::Judging) -> io::Result<(Vec<u8>, u64, u64)> {
    let mut opened = input::decode(Box::new(io::Cursor::new(data.to_vec())))?;
    let mut worker = pipeline::Worker::new(judging, false);
    worker.fix = Some(Arc::new(crate::report::selection::Selection::default()));
    let (mut copy, mut games, mut too_large) = (Vec::new(), 0, 0);
    crate::read::blocks::read_stream(
        &mut *opened.reader,
        &mut |piece: crate::read::blocks::Piece| {
            worker.check(piece, &mut |checked| {
                if let Checked::Games {
                    games: part,
                    copy: bytes,
                    ..
                } = checked
                {
                    games += part.len() as u64;
                    too_large += part.iter().filter(|g| g.fixed.is_none()).count() as u64;
                    copy.extend_from_slice(&bytes);
                }
                true
            })
        },
    );
    Ok((copy, games, too_large))
}

/// A writer that a report owns while its creator reads what was written.
#[derive(Clone, Default)]
struct SharedBuf(Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedBuf {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
