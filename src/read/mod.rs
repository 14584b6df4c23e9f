//! From bytes to games: opening the inputs (decompression, encodings, the
//! directory walk), cutting them into games where pgn-reader would, and
//! reading each game's tags and movetext with every position located. The
//! only stage that knows pgn-reader.

pub mod frames;
pub mod game;
pub mod input;
pub mod lexer;
pub mod pgn;
pub mod shard;
pub mod tags;
