//! The game engine: rule queries of the table (flow).

pub mod flow;
