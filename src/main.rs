//! The `pgn-arbiter` binary: [`pgn_arbiter::run::command`] with the
//! process's arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    pgn_arbiter::run::command::bound_the_allocator();
    pgn_arbiter::output::remove_partials_on_panic();
    ExitCode::from(pgn_arbiter::run::command::main(
        std::env::args_os().collect(),
    ))
}
