//! The integration tests, in one binary (one link, shared helpers in
//! `util`): each module runs the built tool, or reads `src/`, for one
//! concern.
//!
//! - `cli`: the golden fixtures and the command line's promises.
//! - `examples`: every shell example of the README and `docs/` runs.
//! - `fix`: the corrected copies (`--fix`).
//! - `formats`: the findings report's forms (`--output-format`).
//! - `modules`: the shape of `src/` (stages, cycles, where findings are
//!   decided).
//! - `page`: the audit page (`--html`).
//! - `shard`: shards joined equal one run.
//! - `writes`: every output whole or absent: failed writes, signals.
//!
//! `cargo test --test integration MODULE::` runs one of them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod across;
mod cli;
mod examples;
mod fix;
mod formats;
mod modules;
mod page;
mod parquet;
mod shard;
mod util;
mod writes;
