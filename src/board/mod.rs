//! Facts from the board, without findings or message text: the replay and
//! how a move is resolved (strictly, or by a plain reading), the
//! variations, the rule editions and the one table of citations, and
//! whether a side can still mate.

pub mod lenient;
pub mod replay;
pub mod rules;
pub mod san;
pub mod variations;
pub mod winnable;
