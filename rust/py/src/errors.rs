//! Core errors → Python exceptions, all under `hupai.HupaiError(ValueError)`.

use hupai_core::Error as CoreError;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    hupai._core,
    HupaiError,
    PyValueError,
    "Base class of every hupai error (a ValueError)."
);
create_exception!(
    hupai._core,
    InvalidTileError,
    HupaiError,
    "Tile text or tile value that is not a tile."
);
create_exception!(
    hupai._core,
    InvalidHandError,
    HupaiError,
    "A hand, meld or situation that cannot exist."
);
create_exception!(
    hupai._core,
    RuleConfigError,
    HupaiError,
    "An unknown, invalid or conflicting variant switch."
);

create_exception!(
    hupai._core,
    SettlementError,
    HupaiError,
    "A settlement event that cannot be recorded (not zero-sum, unknown seat, a player who has left)."
);

create_exception!(
    hupai._core,
    IllegalActionError,
    HupaiError,
    "An action that is not legal in the table's current state (the table is unchanged)."
);

create_exception!(
    hupai._core,
    ReplayError,
    HupaiError,
    "An event log that does not replay to the same events."
);

/// Error type of the bindings: a core error or an error raised by Python itself.
pub enum BindError {
    Core(CoreError),
    Py(PyErr),
}

pub type BindResult<T> = Result<T, BindError>;

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BindError::Core(e) => write!(f, "{e}"),
            BindError::Py(e) => write!(f, "{e}"),
        }
    }
}

impl From<CoreError> for BindError {
    fn from(e: CoreError) -> Self {
        Self::Core(e)
    }
}

impl From<PyErr> for BindError {
    fn from(e: PyErr) -> Self {
        Self::Py(e)
    }
}

impl From<BindError> for PyErr {
    fn from(e: BindError) -> PyErr {
        match e {
            BindError::Py(e) => e,
            BindError::Core(e) => core_to_py(e),
        }
    }
}

pub fn core_to_py(e: CoreError) -> PyErr {
    let msg = e.to_string();
    match e {
        CoreError::InvalidTile { .. } => InvalidTileError::new_err(msg),
        CoreError::InvalidHand(_) => InvalidHandError::new_err(msg),
        CoreError::RuleConfig(_) => RuleConfigError::new_err(msg),
        CoreError::Settlement(_) => SettlementError::new_err(msg),
        CoreError::IllegalAction(_) => IllegalActionError::new_err(msg),
        CoreError::Replay(_) => ReplayError::new_err(msg),
    }
}

pub fn hand_err(msg: impl Into<String>) -> BindError {
    BindError::Core(CoreError::hand(msg))
}
