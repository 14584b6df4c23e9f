//! Parses the flags, runs, and maps the outcome to an exit status.

use std::process::ExitCode;

use clap::Parser;
use pgn_arbiter::{
    Status,
    cli::{Cli, Command},
    config::Config,
};

/// glibc's malloc raises its mmap threshold to the largest block freed and
/// then keeps freed blocks in each thread's arena, so after a game of
/// megabytes in every worker the memory held grows with the threads (183
/// MiB at `-j 8` on games of 3.9 MB tags, 34 MiB with this). A fixed
/// threshold gives blocks over 128 KiB back to the system when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn bound_the_allocator() {
    // SAFETY: mallopt only sets a malloc parameter; it is called before
    // any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn bound_the_allocator() {}

fn main() -> ExitCode {
    bound_the_allocator();
    let cli = Cli::parse();
    if let Some(Command::Frames { file }) = &cli.command {
        return ExitCode::from(pgn_arbiter::run::frames(file) as u8);
    }
    let status = match Config::from_cli(cli) {
        Ok(config) => pgn_arbiter::run(&config),
        Err(err) => {
            eprintln!("pgn-arbiter: {}", err.0);
            Status::Trouble
        }
    };
    ExitCode::from(status as u8)
}
