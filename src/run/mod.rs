//! The run: the reader thread, the workers and the ordered writer
//! (`pipeline`), report files put in place only when the run completes
//! (`output`), and the progress bar.

pub mod output;
pub mod pipeline;
pub mod progress;
