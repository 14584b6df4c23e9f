//! Writes the shell completions or the man page, generated from the command
//! line's own definition (`src/cli.rs`), to standard output:
//!
//! ```sh
//! cargo run --example shell_docs -- completions bash > pgn-arbiter.bash
//! cargo run --example shell_docs -- completions zsh > _pgn-arbiter
//! cargo run --example shell_docs -- man > pgn-arbiter.1
//! ```
//!
//! Shells: bash, elvish, fish, powershell, zsh.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io;

use clap::CommandFactory;
use clap_complete::Shell;
use pgn_arbiter::cli::Cli;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut command = Cli::command();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["completions", shell] => {
            let shell: Shell = shell
                .parse()
                .map_err(|e: String| io::Error::new(io::ErrorKind::InvalidInput, e))?;
            clap_complete::generate(shell, &mut command, "pgn-arbiter", &mut io::stdout());
            Ok(())
        }
        ["man"] => clap_mangen::Man::new(command).render(&mut io::stdout()),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "usage: shell_docs completions SHELL | shell_docs man",
        )),
    }
}
