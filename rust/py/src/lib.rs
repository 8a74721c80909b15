//! PyO3 bindings of `hupai-core`: the private extension module `hupai._core`.
//! Import from `hupai`, not from here.

mod analysis;
mod batch;
mod compat;
mod convert;
mod errors;
mod fastcall;
mod flow;
mod flow_wuhan;
mod hand;
mod score;
mod score_presets;
mod score_regional;
mod score_sichuan;
mod serve;
mod settlement;
mod tiles;
mod variant;
mod zipai;

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
    use crate::compat::{_set_compat_error, mcr_fan_calculator, mcr_shanten};
    #[pymodule_export]
    use crate::errors::{
        HupaiError, InvalidHandError, InvalidTileError, RuleConfigError, SettlementError,
    };
    #[pymodule_export]
    use crate::flow::{
        flow_check, flow_claims, flow_draw_end, flow_gen_zhuang, flow_kai_bao, flow_next_hand,
        flow_pass_lock, flow_ready_discards, flow_turn, flow_waits,
    };
    #[pymodule_export]
    use crate::flow_wuhan::{wuhan_flow_claims, wuhan_flow_turn, wuhan_laizi, wuhan_ready};
    #[pymodule_export]
    use crate::hand::{PyHand, PyMeld};
    #[pymodule_export]
    use crate::score::{
        PyFan, PyScore, PySituation, mcr_settlement, mcr_waits, score, score_batch, score_json,
    };
    #[pymodule_export]
    use crate::score_presets::{PyPatternScore, settle_hand};
    #[pymodule_export]
    use crate::score_regional::{
        PyVariantScore, hebei_draft4_settle, hebei_settle, kawuxing_da_jiao, kawuxing_score,
        kawuxing_settle, shanghai_settle,
    };
    #[pymodule_export]
    use crate::score_sichuan::{PySichuanScore, sichuan_max_win_value, sichuan_score};
    #[pymodule_export]
    use crate::serve::{serve_score, serve_score_batch, serve_shanten, serve_waits};
    #[pymodule_export]
    use crate::settlement::PySettlement;
    #[pymodule_export]
    use crate::tiles::{PyTile, format_tiles, from_counts, parse_tiles, to_counts};
    #[pymodule_export]
    use crate::variant::{PyVariant, variants};
    #[pymodule_export]
    use crate::zipai::{
        PyZipaiCard, zipai_batch_huxi, zipai_batch_is_winning, zipai_chi_options, zipai_claims,
        zipai_decompose, zipai_discard_check, zipai_duo, zipai_format_cards, zipai_from_counts,
        zipai_group_huxi, zipai_huxi, zipai_is_sanlong_wukan, zipai_next_dealer, zipai_parse_cards,
        zipai_score, zipai_to_counts, zipai_waits,
    };

    use super::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        hupai_core::ensure_init();
        crate::fastcall::install(m)
    }
}
