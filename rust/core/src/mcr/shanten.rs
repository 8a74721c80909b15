//! Simple, exact shanten numbers for the pymahjonggb-compatible module (`hupai.compat.MahjongGB`).
//!
//! TEMPORARY and isolated on purpose: the table-driven shanten of the analysis work replaces these
//! at merge time. Only the compat entry points call this module.
