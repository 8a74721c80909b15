//! The preset score a win was taken with, kept from the claim check to the settlement so that each
//! win is scored once. (When the presets share one `Score` type this enum becomes that type.)

use crate::rules::hebei::HebeiScore;
use crate::rules::hebei_draft4::HebeiDraft4Score;
use crate::rules::kawuxing::KawuxingScore;
use crate::rules::shanghai::ShanghaiScore;
use crate::scoring::pattern::PatternScore;

/// The full score of one win, as the preset's settlement reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scored {
    Hebei(HebeiScore),
    HebeiDraft4(HebeiDraft4Score),
    Shanghai(ShanghaiScore),
    Kawuxing(KawuxingScore),
    /// The chip-style presets (欢乐3D, 二人, 陕西, 武汉).
    Pattern(PatternScore),
}
