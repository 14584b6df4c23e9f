//! Parses the flags, runs, and maps the outcome to an exit status.

use std::{
    ffi::OsString,
    io::{self, Write},
    path::{Path, PathBuf},
    process::ExitCode,
};

use clap::{CommandFactory, Parser};
use pgn_arbiter::{
    Status,
    cli::{Cli, Command, SUBCOMMANDS},
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

/// The command line, where a first argument that names an existing file or
/// directory (a PGN file called `help` or `frames`) is that input, not the
/// subcommand of the same name; a note says so.
fn parse() -> Cli {
    let mut args: Vec<OsString> = std::env::args_os().collect();
    let shadowed = args
        .get(1)
        .filter(|a| SUBCOMMANDS.iter().any(|s| a.as_os_str() == *s) && Path::new(a).exists())
        .cloned();
    if let Some(name) = &shadowed {
        eprintln!(
            "pgn-arbiter: reading the file {:?}, not the subcommand of that name (run the subcommand where no such file is)",
            Path::new(name)
        );
        // A path clap cannot take for a subcommand, put back once parsed.
        args[1] = Path::new(".").join(name).into_os_string();
    }
    let mut cli = Cli::parse_from(args);
    if let Some(name) = shadowed
        && let Some(first) = cli.inputs.first_mut()
    {
        *first = PathBuf::from(name);
    }
    cli
}

/// The subcommands other than `frames`: completions and the man page,
/// made whole before they are written (a closed pipe then ends them
/// quietly, as it ends an audit).
fn shell_docs(command: &Command) -> Option<io::Result<()>> {
    let mut definition = Cli::command();
    let mut text = Vec::new();
    match command {
        Command::Completions { shell } => {
            clap_complete::generate(*shell, &mut definition, "pgn-arbiter", &mut text);
        }
        Command::Man => {
            if let Err(err) = clap_mangen::Man::new(definition).render(&mut text) {
                return Some(Err(err));
            }
        }
        Command::Frames { .. } => return None,
    }
    let mut out = io::stdout().lock();
    match out.write_all(&text).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Some(Ok(())),
        done => Some(done),
    }
}

fn main() -> ExitCode {
    bound_the_allocator();
    let cli = parse();
    if let Some(command) = &cli.command {
        let status = match (command, shell_docs(command)) {
            (Command::Frames { file }, _) => pgn_arbiter::run::frames(file),
            (_, Some(Ok(()))) => Status::Clean,
            (_, Some(Err(err))) => {
                eprintln!("pgn-arbiter: cannot write to standard output: {err}");
                Status::Trouble
            }
            (_, None) => Status::Trouble,
        };
        return ExitCode::from(status as u8);
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
