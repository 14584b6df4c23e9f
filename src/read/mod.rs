//! From bytes to games: opening the inputs (decompression, encodings, the
//! directory walk), cutting them into games where pgn-reader would, and
//! reading each game's tags and movetext with every position located. The
//! only stage that knows pgn-reader. [`trf`] reads the other input a run
//! may have, a tournament's report file; [`notation`] what a move token says
//! before any board; [`listed`] bounds what can repeat within a game;
//! [`hash`] holds every hash of a game.
//!
//! Where a game starts is decided in five places, each for its reason:
//!
//! - [`lexer`] reads a game as pgn-reader does, with two boundary rules of
//!   its own (a blank line in movetext ends a game only after its
//!   termination marker; a repeated tag name after a blank line starts the
//!   next game), because real archives need them.
//! - [`lexer::last_game_start`] is where [`blocks`] may end a block: exactly
//!   where the lexer, reading the whole input, would end a game, so a block
//!   never splits one.
//! - [`lexer::guess_game_start`] is where [`blocks`] guesses a block ends
//!   when workers on other threads check the blocks: a guess, cheaper than
//!   reading, that the worker checking the block confirms as the lexer's
//!   end of its last game; a wrong one is read again.
//! - `blocks::next_tagged_start`, after a game too large to read: any `[`
//!   that starts a line after a blank line, looser than the lexer, because
//!   what comes before is junk that no rule can read.
//! - [`shard`] starts a shard at a `[` after a blank line whose last line
//!   before ends with a termination marker, stricter than the lexer, so that
//!   a shard can find a start from any byte without reading what came
//!   before, and shards split an archive into the games of one run.

pub mod blocks;
pub mod comments;
pub mod frames;
pub mod game;
pub mod hash;
pub mod input;
pub mod lexer;
pub mod listed;
pub mod notation;
pub mod outcome;
pub mod pgn;
pub mod shard;
pub mod tags;
pub mod trf;
