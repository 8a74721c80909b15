//! PyO3 bindings of `hupai-core`: the private extension module `hupai._core`.
//! Import from `hupai`, not from here.

mod analysis;
mod batch;
mod errors;
mod hand;
mod tiles;

use pyo3::prelude::*;

/// Rust core of the `hupai` package. Import from `hupai`, not from here.
#[pymodule]
mod _core {
    #[pymodule_export]
    use crate::analysis::{
        PyShapes, decompose, discard_options, is_winning, shanten, shanten_forms, useful_tiles,
        waits,
    };
    #[pymodule_export]
    use crate::batch::{batch_is_winning, batch_shanten, batch_waits};
    #[pymodule_export]
    use crate::errors::{HupaiError, InvalidHandError, InvalidTileError, RuleConfigError};
    #[pymodule_export]
    use crate::hand::{PyHand, PyMeld};
    #[pymodule_export]
    use crate::tiles::{PyTile, format_tiles, from_counts, parse_tiles, to_counts};

    use super::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        hupai_core::ensure_init();
        Ok(())
    }
}
