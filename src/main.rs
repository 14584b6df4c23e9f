//! Parses the flags, runs, and maps the outcome to an exit status.

use std::process::ExitCode;

use clap::Parser;
use pgn_arbiter::{
    Status,
    cli::{Cli, Command},
    config::Config,
};

fn main() -> ExitCode {
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
