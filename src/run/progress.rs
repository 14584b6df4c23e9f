//! The progress bar: bytes read of the inputs' total size, games per second
//! and time left, on stderr. Hidden when stderr is not a terminal, when a
//! report's rows go to the same terminal on stdout (the bar would cut into
//! them; the rows show the progress), or with `--quiet`, so callers never
//! branch on it.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` raw bytes (a spinner when the total is unknown).
/// `rows_on_stdout`: a report is written to standard output.
pub fn bar(total: Option<u64>, quiet: bool, rows_on_stdout: bool) -> ProgressBar {
    let rows_on_terminal = rows_on_stdout && std::io::stdout().is_terminal();
    if quiet || rows_on_terminal || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match total {
        Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
    };
    let template = if total.is_some() {
        "{wide_bar} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}"
    } else {
        "{spinner} {binary_bytes} {binary_bytes_per_sec} {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
