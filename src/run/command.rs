//! The command line as a whole: the arguments parsed, the subcommands, and
//! the run, down to the exit status.

use std::{
    ffi::OsString,
    io::{self, Write},
    path::{Path, PathBuf},
};

use clap::{CommandFactory, Parser};

use crate::{
    Status,
    cli::{Cli, Command, SUBCOMMANDS},
    config::Config,
};

/// glibc's malloc raises its mmap threshold to the largest block freed and
/// then keeps freed blocks in each thread's arena, so after a game of
/// megabytes in every worker the memory held grows with the threads (183
/// MiB at `-j 8` on games of 3.9 MB tags, 34 MiB with this). A fixed
/// threshold gives blocks over 128 KiB back to the system when freed.
///
/// And one arena for every thread, unless `MALLOC_ARENA_MAX` (or
/// `glibc.malloc.arena_max` in `GLIBC_TUNABLES`) says otherwise: the workers take turns writing the reports, so a Parquet
/// writer's buffers were made in each worker's arena in turn and each
/// arena kept its peak (125 MiB at `-j 8` on a flood of tiny games, 62
/// MiB with one arena, at the same speed on two cores: bench/RESULTS.md).
/// Small blocks come from each thread's own cache all the same.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn bound_the_allocator() {
    let arenas = std::env::var_os("MALLOC_ARENA_MAX").is_none()
        && !std::env::var("GLIBC_TUNABLES").is_ok_and(|t| t.contains("arena_max"));
    // SAFETY: mallopt only sets a malloc parameter, under malloc's own
    // lock; the binary calls it before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
        if arenas {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn bound_the_allocator() {}

/// The command line, where a first argument that names an existing file or
/// directory (a PGN file called `help` or `frames`) is that input, not the
/// subcommand of the same name; a note says so.
fn parse(mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
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
    let mut cli = Cli::try_parse_from(args)?;
    if let Some(name) = shadowed
        && let Some(first) = cli.inputs.first_mut()
    {
        *first = PathBuf::from(name);
    }
    Ok(cli)
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
        Command::Frames { .. } | Command::Across { .. } => return None,
    }
    let mut out = io::stdout().lock();
    match out.write_all(&text).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Some(Ok(())),
        done => Some(done),
    }
}

/// The command line's run, from its arguments (the program's name first)
/// to its exit status: what the binary and the Python module's
/// `pgn-arbiter` script both do.
pub fn main(args: Vec<OsString>) -> u8 {
    crate::output::ignore_file_size_signal();
    let cli = match parse(args) {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version are printed on standard output and exit 0;
            // a usage error on stderr with clap's status 2.
            let _ = err.print();
            return u8::try_from(err.exit_code()).unwrap_or(Status::Trouble as u8);
        }
    };
    if let Some(command) = &cli.command {
        let status = match (command, shell_docs(command)) {
            (Command::Frames { file }, _) => crate::run::frames(file),
            (Command::Across { list, memory_limit }, _) => {
                crate::run::results::across(list, *memory_limit)
            }
            (_, Some(Ok(()))) => Status::Clean,
            (_, Some(Err(err))) => {
                eprintln!("pgn-arbiter: cannot write to standard output: {err}");
                Status::Trouble
            }
            (_, None) => Status::Trouble,
        };
        return status as u8;
    }
    let status = match Config::from_cli(cli) {
        Ok(config) => crate::run::run(&config),
        Err(err) => {
            eprintln!("pgn-arbiter: {}", err.0);
            Status::Trouble
        }
    };
    status as u8
}
