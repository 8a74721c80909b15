//! One folder per preset (or family of presets sharing one rule module): what the preset's data
//! file (`presets/<id>.toml`) cannot say.

pub mod dingniu;
pub mod doudizhu;
pub mod erren;
pub mod gouji;
pub mod hebei;
pub mod hebei_draft4;
pub mod huanle3d;
pub mod kawuxing;
pub mod mcr;
pub mod shaanxi;
pub mod shanghai;
pub mod sichuan;
pub mod wuhan;
pub mod zipai;
