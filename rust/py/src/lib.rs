//! PyO3 bindings of `hupai-core`: the private extension module `hupai._core`.
//! Import from `hupai`, not from here.

mod compat;
mod convert;
mod errors;
mod hand;
mod score;
mod tiles;
mod variant;

use pyo3::prelude::*;

/// Rust core of the `hupai` package. Import from `hupai`, not from here.
#[pymodule]
mod _core {
    #[pymodule_export]
    use crate::compat::{_set_compat_error, mcr_fan_calculator, mcr_shanten};
    #[pymodule_export]
    use crate::errors::{HupaiError, InvalidHandError, InvalidTileError, RuleConfigError};
    #[pymodule_export]
    use crate::hand::{PyHand, PyMeld, decompose};
    #[pymodule_export]
    use crate::score::{
        PyFan, PyScore, PySituation, mcr_settlement, mcr_waits, score, score_batch, score_json,
    };
    #[pymodule_export]
    use crate::tiles::{PyTile, format_tiles, from_counts, parse_tiles, to_counts};
    #[pymodule_export]
    use crate::variant::{PyVariant, variants};

    use super::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        Ok(())
    }
}
