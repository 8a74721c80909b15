//! PyO3 bindings of `hupai-core`: the private extension module `hupai._core`.
//! Import from `hupai`, not from here.

mod analysis;
mod batch;
mod compat;
mod convert;
mod dingniu;
mod doudizhu;
mod env;
mod errors;
mod fastcall;
mod flow;
mod flow_wuhan;
mod gouji;
mod hand;
mod pipeline;
mod request;
mod score;
mod serve;
mod settlement;
mod table;
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
    use crate::dingniu::{
        PyDingniuGame, PyDingniuRules, dingniu_action_id, dingniu_action_name, dingniu_batch_legal,
        dingniu_openings, dingniu_parse_hand, dingniu_place, dingniu_placements, dingniu_replay,
        dingniu_settle, dingniu_silan, dingniu_tile, dingniu_tile_set, dingniu_turn_actions,
        dingniu_zhang_check, dingniu_zhang_settle,
    };
    #[pymodule_export]
    use crate::doudizhu::{
        PyDdzGame, PyDdzRules, ddz_action_cards, ddz_action_id, ddz_action_space,
        ddz_action_space_size, ddz_auction, ddz_batch_legal_count, ddz_batch_legal_mask, ddz_beats,
        ddz_chinese, ddz_classify, ddz_from_counts, ddz_legal_moves, ddz_legal_plays, ddz_parse,
        ddz_profiles, ddz_readings, ddz_replay, ddz_settle, ddz_split, ddz_to_counts, ddz_variants,
    };
    #[pymodule_export]
    use crate::env::{PyVecEnv, env_encoding, logs_to_arrays, table_encode};
    #[pymodule_export]
    use crate::errors::{
        HupaiError, IllegalActionError, InvalidHandError, InvalidTileError, ReplayError,
        RuleConfigError, SettlementError,
    };
    #[pymodule_export]
    use crate::flow::{
        flow_check, flow_claims, flow_draw_end, flow_gen_zhuang, flow_kai_bao, flow_next_hand,
        flow_pass_lock, flow_ready_discards, flow_turn, flow_waits,
    };
    #[pymodule_export]
    use crate::flow_wuhan::{wuhan_flow_claims, wuhan_flow_turn, wuhan_laizi, wuhan_ready};
    #[pymodule_export]
    use crate::gouji::{
        PyGoujiGame, PyGoujiPlay, PyGoujiRules, gouji_action_space, gouji_answer_rights,
        gouji_batch_can_burn, gouji_batch_legal_count, gouji_beats, gouji_bie_san_ok,
        gouji_burn_lead, gouji_burn_options, gouji_burn_priority, gouji_buy_three, gouji_compare,
        gouji_decode_action, gouji_dian_gong, gouji_encode_action, gouji_first_leader,
        gouji_format_cards, gouji_is_gouji, gouji_kaidian_eligible, gouji_legal_plays,
        gouji_may_revolt, gouji_parse_cards, gouji_places, gouji_ranks, gouji_remainder_feasible,
        gouji_replay, gouji_score, gouji_tribute, gouji_tribute_cards,
    };
    #[pymodule_export]
    use crate::hand::{PyHand, PyMeld};
    #[pymodule_export]
    use crate::score::{
        PyFan, PyScore, PySituation, mcr_waits, score, score_batch, score_json, score_jsonl,
        settle_hand, waiting_value,
    };
    #[pymodule_export]
    use crate::serve::{serve_score, serve_score_batch, serve_shanten, serve_waits};
    #[pymodule_export]
    use crate::settlement::PySettlement;
    #[pymodule_export]
    use crate::table::{
        PyAction, PyBot, PyEvent, PyMatch, PyObservation, PyTable, PyTables, arrange_wall,
        build_wall, check_games, game_seed, replay, seat_names, simulate_games, table_seats,
        tile_names,
    };
    #[pymodule_export]
    use crate::tiles::{PyTile, format_tiles, from_counts, parse_tiles, to_counts};
    #[pymodule_export]
    use crate::variant::{PyVariant, analyse, variants};
    #[pymodule_export]
    use crate::zipai::{
        PyZipaiCard, zipai_batch_huxi, zipai_batch_is_winning, zipai_chi_options, zipai_claims,
        zipai_decompose, zipai_discard_check, zipai_duo, zipai_format_cards, zipai_from_counts,
        zipai_group_huxi, zipai_huxi, zipai_is_sanlong_wukan, zipai_next_dealer, zipai_parse_cards,
        zipai_to_counts, zipai_waits,
    };

    use super::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        hupai_core::ensure_init();
        crate::fastcall::install(m)?;
        crate::score::install(m)
    }
}

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
