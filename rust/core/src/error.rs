//! The one error type of the core. The bindings map each variant to a Python exception class
//! under `hupai.HupaiError` (see `rust/py/src/errors.rs`).

use thiserror::Error;

/// Everything that can go wrong in the core. Every message says what is wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// Tile text that is not a tile (`InvalidTileError` in Python).
    #[error("invalid tile {text:?}: {reason}")]
    InvalidTile { text: String, reason: String },
    /// A hand, meld or situation that cannot exist (`InvalidHandError` in Python).
    #[error("invalid hand: {0}")]
    InvalidHand(String),
    /// A variant / switch configuration that is unknown or inconsistent (`RuleConfigError`).
    #[error("invalid rule configuration: {0}")]
    RuleConfig(String),
    /// A settlement event that cannot be recorded: not zero-sum, unknown seat, a player who has
    /// left … (`SettlementError` in Python).
    #[error("invalid settlement event: {0}")]
    Settlement(String),
    /// An action that is not legal in the table's current state (`IllegalActionError`); the
    /// table is unchanged.
    #[error("illegal action: {0}")]
    IllegalAction(String),
    /// An event log that does not replay to the same events (`ReplayError`).
    #[error("replay: {0}")]
    Replay(String),
}

impl Error {
    pub fn tile(text: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::InvalidTile {
            text: text.into(),
            reason: reason.into(),
        }
    }
    /// The same error with `ctx: ` in front of its message; the kind is kept.
    pub fn context(self, ctx: &str) -> Self {
        match self {
            Self::InvalidTile { text, reason } => Self::InvalidTile {
                text,
                reason: format!("{ctx}: {reason}"),
            },
            Self::InvalidHand(m) => Self::InvalidHand(format!("{ctx}: {m}")),
            Self::RuleConfig(m) => Self::RuleConfig(format!("{ctx}: {m}")),
            Self::Settlement(m) => Self::Settlement(format!("{ctx}: {m}")),
            Self::IllegalAction(m) => Self::IllegalAction(format!("{ctx}: {m}")),
            Self::Replay(m) => Self::Replay(format!("{ctx}: {m}")),
        }
    }
    pub fn hand(msg: impl Into<String>) -> Self {
        Self::InvalidHand(msg.into())
    }
    pub fn rule(msg: impl Into<String>) -> Self {
        Self::RuleConfig(msg.into())
    }
    pub fn settlement(msg: impl Into<String>) -> Self {
        Self::Settlement(msg.into())
    }
    pub fn illegal(msg: impl Into<String>) -> Self {
        Self::IllegalAction(msg.into())
    }
    pub fn replay(msg: impl Into<String>) -> Self {
        Self::Replay(msg.into())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
