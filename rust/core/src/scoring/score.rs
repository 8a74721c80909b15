//! [`Score`]: the result of scoring one win, the same type for every preset.
//!
//! What every preset has is a field: the variant, the counted fans / patterns, the raw and capped
//! totals with their unit, the amount one payer pays, who pays whom (zero-sum payments between the
//! table's seats), the decomposition used, whether the minimum is met. What only some presets have
//! (胡息, 舵, 醒, 根 list, 花 count …) goes in one map, [`Score::extras`], whose keys each preset
//! documents (`docs/presets.md`, "One API for every preset").
//!
//! ## Seats of the payments
//!
//! Payments name table seats `0..players` in turn order (seat `k + 1` plays after seat `k`). The
//! winner sits at `situation.seat` (default: the seat wind's index, E 0 · S 1 · W 2 · N 3); the
//! discarder of a discard win at `situation.discarder` (default: the winner's 上家, the seat before
//! him); the dealer at `situation.dealer_seat` (default: the winner when `situation.dealer`, else
//! seat 0, or seat 1 when the winner sits at 0). The payments are what this win pays as the only
//! event of a hand at that table (no kongs, no declarations of other seats): a hand record settled
//! with `Ruleset::settle` gives the whole hand.
//!
//! ## JSON
//!
//! [`Score`] serialises to one object for every preset, keys in alphabetical order (the order of a
//! `serde_json::Map`, so writing the struct and writing its `Value` give the same text):
//! `decomposition`, `extras`, `fans` (`count`, `en`, `id`, `op`, `value`, `zh`), `meets_minimum`,
//! `net`, `payments` (`amount`, `payee`, `payer`), `per_payer`, `raw_total`, `total`, `unit`,
//! `variant`. The decomposition has the shape of `hupai.decompose` ([`decomposition_json`]).

use std::borrow::Cow;
use std::mem::MaybeUninit;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::decompose::Decomposition;
use crate::error::{Error, Result};
use crate::preset::{FanDef, FanOp};
use crate::tile::Tile;

/// Text that is usually borrowed from the preset data (no allocation) and owned otherwise.
pub type Text = Cow<'static, str>;

/// The unit of a score's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// 番 (MCR fan points, 四川 番 before the doubling, …).
    Fan,
    /// 倍: the totals are a multiplier of the base.
    Multiplier,
    /// 分 / 点: the totals are points.
    Point,
    /// 胡息 (字牌).
    Huxi,
}

impl Unit {
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Fan => "fan",
            Unit::Multiplier => "multiplier",
            Unit::Point => "point",
            Unit::Huxi => "huxi",
        }
    }
}

impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One counted fan / pattern of a score: its table entry in the preset data (id and names), the
/// value of one occurrence, how it combines, how many times it counts. 16 bytes and `Copy`: a
/// score's fan list costs no allocation of names.
#[derive(Clone, Copy, Debug)]
pub struct FanHit {
    def: &'static FanDef,
    value: i32,
    count: u16,
    op: FanOp,
}

impl PartialEq for FanHit {
    fn eq(&self, o: &Self) -> bool {
        self.def.id == o.def.id && self.value == o.value && self.count == o.count && self.op == o.op
    }
}

impl Eq for FanHit {}

/// The table entry of a blank [`FanHit`] (no id, no names, value 0).
static BLANK_FAN: FanDef = FanDef {
    id: String::new(),
    zh: String::new(),
    en: String::new(),
    value: 0,
    op: FanOp::Add,
    excludes: Vec::new(),
    reduces: std::collections::BTreeMap::new(),
    scope: String::new(),
    countable: false,
    note: String::new(),
    enabled: false,
    fallback: false,
};

/// A blank hit (no id, value 0, count 0): only the filler of a [`Fans`] list's unused slots.
impl Default for FanHit {
    fn default() -> Self {
        FanHit {
            def: &BLANK_FAN,
            value: 0,
            count: 0,
            op: FanOp::Add,
        }
    }
}

impl FanHit {
    /// A hit of `def` (an entry of the embedded preset data, or of a preset module's own static
    /// table) worth `value` per occurrence, combining by `op`, counted `count` times. Values and
    /// counts beyond `i32` / `u16` saturate.
    #[inline]
    pub fn new(def: &'static FanDef, value: i64, op: FanOp, count: u32) -> FanHit {
        FanHit {
            def,
            value: i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX }),
            count: u16::try_from(count).unwrap_or(u16::MAX),
            op,
        }
    }
    /// The same hit counted `count` times (saturating beyond `u16`).
    #[inline]
    pub fn with_count(self, count: u32) -> FanHit {
        FanHit {
            count: u16::try_from(count).unwrap_or(u16::MAX),
            ..self
        }
    }
    /// A hit of a table entry with its own value and op.
    pub fn of(def: &'static FanDef, count: u32) -> FanHit {
        FanHit::new(def, def.value, def.op, count)
    }
    /// A hit of a (switch-adjusted) copy `f` of an entry of `data`: `f`'s value and op, the
    /// data's names.
    pub fn entry(data: &'static crate::preset::PresetData, f: &FanDef, count: u32) -> FanHit {
        FanHit::new(data.fan_named(&f.id, &f.zh, &f.en), f.value, f.op, count)
    }
    /// A hit of a table entry with its value after the switches.
    pub fn of_static(def: &'static FanDef, value: i64, count: u32) -> FanHit {
        FanHit::new(def, value, def.op, count)
    }
    /// The table entry.
    pub fn def(&self) -> &'static FanDef {
        self.def
    }
    pub fn id(&self) -> &'static str {
        self.def.id.as_str()
    }
    pub fn zh(&self) -> &'static str {
        self.def.zh.as_str()
    }
    pub fn en(&self) -> &'static str {
        self.def.en.as_str()
    }
    /// The value of one occurrence, in the score's unit (or the factor of a `mul` pattern).
    pub fn value(&self) -> i64 {
        i64::from(self.value)
    }
    /// How it combines with the others.
    pub fn op(&self) -> FanOp {
        self.op
    }
    /// How many times it counts (根 ×2, 花 ×n …).
    pub fn count(&self) -> u32 {
        u32::from(self.count)
    }
}

impl Serialize for FanHit {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Fan", 6)?;
        m.serialize_field("count", &self.count)?;
        m.serialize_field("en", self.en())?;
        m.serialize_field("id", self.id())?;
        m.serialize_field("op", &self.op)?;
        m.serialize_field("value", &self.value)?;
        m.serialize_field("zh", self.zh())?;
        m.end()
    }
}

/// A short list kept inline (no allocation) up to `N` items, on the heap beyond: the payments and
/// extras of a score are usually a few entries, and a score is made millions of times. Reads as a
/// slice (`Deref<Target = [T]>`).
///
/// The inline slots past the length are left uninitialised: making an empty list writes no
/// items, and filling it writes each item once.
pub struct Few<T, const N: usize> {
    /// How many inline slots hold items (0 once the items went to the heap).
    len: usize,
    /// Invariant: `inline[..len]` are initialised, `len <= N`, and `len == 0` whenever `heap` is
    /// not empty. Every other slot is uninitialised (never read, never dropped).
    inline: [MaybeUninit<T>; N],
    /// Every item once more than `N` were pushed (`inline` is then unused).
    heap: Vec<T>,
}

impl<T, const N: usize> Default for Few<T, N> {
    #[inline]
    fn default() -> Self {
        Few {
            len: 0,
            inline: [const { MaybeUninit::uninit() }; N],
            heap: Vec::new(),
        }
    }
}

impl<T, const N: usize> Drop for Few<T, N> {
    #[inline]
    fn drop(&mut self) {
        let items: *mut [T] = self.inline_items_mut();
        // SAFETY: `inline[..len]` are initialised (the invariant) and dropped only here; nothing
        // reads them after (the list is going away). The heap drops itself.
        unsafe { std::ptr::drop_in_place(items) }
    }
}

impl<T: Clone, const N: usize> Clone for Few<T, N> {
    fn clone(&self) -> Self {
        let mut out = Self::default();
        for x in self.inline_items() {
            out.inline[out.len].write(x.clone());
            // counted as soon as written: a panicking `clone` leaves `out` valid
            out.len += 1;
        }
        out.heap = self.heap.clone();
        out
    }
}

impl<T, const N: usize> Few<T, N> {
    /// How many items fit inline.
    pub const INLINE: usize = N;

    /// The initialised inline items (empty when the items are on the heap).
    #[inline(always)]
    fn inline_items(&self) -> &[T] {
        // SAFETY: `inline[..len]` are initialised (the invariant); `MaybeUninit<T>` has the
        // layout of `T`.
        unsafe { std::slice::from_raw_parts(self.inline.as_ptr().cast::<T>(), self.len) }
    }
    #[inline(always)]
    fn inline_items_mut(&mut self) -> &mut [T] {
        // SAFETY: as `inline_items`, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.inline.as_mut_ptr().cast::<T>(), self.len) }
    }

    /// The first `len` items of `items` (`len <= N`); the others are dropped.
    #[inline]
    pub fn from_array(items: [T; N], len: usize) -> Self {
        assert!(len <= N, "Few::from_array: {len} > {N}");
        let mut out = Few {
            len: 0,
            inline: items.map(MaybeUninit::new),
            heap: Vec::new(),
        };
        let tail: *mut [T] = std::ptr::slice_from_raw_parts_mut(
            // SAFETY: `len <= N`: in bounds of `inline`.
            unsafe { out.inline.as_mut_ptr().add(len).cast::<T>() },
            N - len,
        );
        // SAFETY: all `N` slots were initialised from `items`; the tail is dropped here once and
        // never counted (`out.len` is 0 until after, so a panicking drop leaks the head instead).
        unsafe { std::ptr::drop_in_place(tail) };
        out.len = len;
        out
    }

    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub fn push(&mut self, item: T) {
        if self.heap.is_empty() && self.len < N {
            self.inline[self.len].write(item);
            self.len += 1;
            return;
        }
        if self.heap.is_empty() {
            self.heap.reserve(N * 2 + 1);
            let len = std::mem::replace(&mut self.len, 0);
            // SAFETY: `inline[..len]` were initialised and are no longer counted (`len` is 0):
            // each is moved out exactly once.
            self.heap.extend(
                self.inline[..len]
                    .iter()
                    .map(|x| unsafe { x.assume_init_read() }),
            );
        }
        self.heap.push(item);
    }

    /// The items of `items` (inline when they fit).
    #[inline]
    pub fn from_slice(items: &[T]) -> Self
    where
        T: Clone,
    {
        let mut out = Self::default();
        if !out.fill_inline(items.len(), items.iter().cloned()) {
            out.heap = items.to_vec();
        }
        out
    }

    /// Overwrite the list, in place, with the items of `items` when they are at most `N` (`n`:
    /// how many `items` yields; items past the `N`th are ignored); `false`, the list unchanged,
    /// when they would not fit inline. A score fills its lists where they lie rather than
    /// building them beside it and copying them in, and without the heap checks of
    /// [`Few::push`] on every item; the slots past the items are not written.
    #[inline(always)]
    pub fn fill_inline(&mut self, n: usize, items: impl IntoIterator<Item = T>) -> bool {
        if n > N {
            return false;
        }
        self.clear();
        let mut len = 0;
        for (slot, x) in self.inline.iter_mut().zip(items) {
            slot.write(x);
            len += 1;
        }
        // `self.len` stayed 0 while `items` ran: a panic there leaks the items written so far
        // rather than exposing a half-counted list.
        self.len = len;
        true
    }

    /// Replace the items, in place, with those of `items`: the first `N` written straight into
    /// the inline slots (without the checks of [`Few::push`] on each, and without counting
    /// `items` first), the rest, if any, pushed after them (to the heap). A score fills its lists
    /// where they lie rather than building them beside it and copying them in.
    #[inline(always)]
    pub fn fill(&mut self, items: impl IntoIterator<Item = T>) {
        self.clear();
        let mut it = items.into_iter();
        let mut len = 0;
        for slot in self.inline.iter_mut() {
            let Some(x) = it.next() else { break };
            slot.write(x);
            len += 1;
        }
        // `self.len` stayed 0 while `items` ran: a panic there leaks the items written so far
        // rather than exposing a half-counted list.
        self.len = len;
        if len == N {
            self.push_rest(it);
        }
    }

    /// The items past the `N`th of [`Few::fill`] (rare: kept out of line).
    #[cold]
    #[inline(never)]
    fn push_rest(&mut self, it: impl Iterator<Item = T>) {
        for x in it {
            self.push(x);
        }
    }

    /// Remove every item.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.heap = Vec::new();
        let items: *mut [T] = self.inline_items_mut();
        self.len = 0;
        // SAFETY: the items were initialised and are no longer counted: dropped once.
        unsafe { std::ptr::drop_in_place(items) }
    }

    /// Remove the last item.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.heap.is_empty() {
            if self.len == 0 {
                return None;
            }
            self.len -= 1;
            // SAFETY: slot `len` was initialised and is no longer counted: moved out once.
            Some(unsafe { self.inline[self.len].assume_init_read() })
        } else {
            self.heap.pop()
        }
    }

    /// Keep the items for which `f` is true (in order).
    pub fn retain(&mut self, mut f: impl FnMut(&T) -> bool) {
        let mut kept = Self::default();
        for x in std::mem::take(self).into_vec() {
            if f(&x) {
                kept.push(x);
            }
        }
        *self = kept;
    }

    /// The items as a `Vec`.
    pub fn into_vec(mut self) -> Vec<T> {
        if self.heap.is_empty() {
            let len = std::mem::replace(&mut self.len, 0);
            // SAFETY: `inline[..len]` were initialised and are no longer counted (`len` is 0, so
            // `Drop` skips them): each is moved out exactly once.
            self.inline[..len]
                .iter()
                .map(|x| unsafe { x.assume_init_read() })
                .collect()
        } else {
            std::mem::take(&mut self.heap)
        }
    }

    /// Sort by a key (stable).
    pub fn sort_by_key<K: Ord>(&mut self, f: impl FnMut(&T) -> K) {
        std::ops::DerefMut::deref_mut(self).sort_by_key(f);
    }
}

impl<T, const N: usize> std::ops::Deref for Few<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        if self.heap.is_empty() {
            self.inline_items()
        } else {
            &self.heap
        }
    }
}

impl<T, const N: usize> std::ops::DerefMut for Few<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        if self.heap.is_empty() {
            self.inline_items_mut()
        } else {
            &mut self.heap
        }
    }
}

impl<T, const N: usize> FromIterator<T> for Few<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(it: I) -> Self {
        let mut out = Self::default();
        out.extend(it);
        out
    }
}

impl<T, const N: usize> Extend<T> for Few<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, it: I) {
        for x in it {
            self.push(x);
        }
    }
}

impl<T, const N: usize> From<Vec<T>> for Few<T, N> {
    fn from(v: Vec<T>) -> Self {
        if v.len() <= N {
            v.into_iter().collect()
        } else {
            Few {
                len: 0,
                inline: [const { MaybeUninit::uninit() }; N],
                heap: v,
            }
        }
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a Few<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: std::fmt::Debug, const N: usize> std::fmt::Debug for Few<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq, const N: usize> PartialEq for Few<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq, const N: usize> Eq for Few<T, N> {}

impl<T: std::hash::Hash, const N: usize> std::hash::Hash for Few<T, N> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h);
    }
}

impl<T: PartialEq, const N: usize> PartialEq<Vec<T>> for Few<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == **other
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for Few<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        **self == *other
    }
}

impl<T, const N: usize> IntoIterator for Few<T, N> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<T: Serialize, const N: usize> Serialize for Few<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

/// The payments of a score (inline up to 3: one win has at most three payers at a table of four).
pub type Payments = Few<Payment, 3>;
/// The counted fans of a score (inline up to 12: one MCR win counts at most 11 in practice; more
/// go to the heap).
pub type Fans = Few<FanHit, 12>;
/// The extras of a score (keys sorted; empty costs no allocation).
pub type Extras = Vec<(&'static str, Value)>;

/// One zero-sum payment between table seats (see the module documentation for the seats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Payment {
    pub payer: u8,
    pub payee: u8,
    pub amount: i64,
}

impl Serialize for Payment {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Payment", 3)?;
        m.serialize_field("amount", &self.amount)?;
        m.serialize_field("payee", &self.payee)?;
        m.serialize_field("payer", &self.payer)?;
        m.end()
    }
}

/// The decomposition a score used: a tile decomposition (rendered by [`decomposition_json`]) or,
/// for games of other pieces (字牌 cards), the same shape already rendered by the preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    Tiles(Decomposition),
    Data(Value),
}

/// The score of one win.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// The preset id.
    pub variant: &'static str,
    /// Counted fans / patterns, in the preset table's order.
    pub fans: Fans,
    /// The hand's total before the preset's cap, in `unit`.
    pub raw_total: i64,
    /// The total after the cap.
    pub total: i64,
    pub unit: Unit,
    /// Whether the hand reaches the preset's minimum (a win below it is not legal: MCR 8 番,
    /// 字牌 minimum 胡息; presets that refuse such hands outright always say `true`).
    pub meets_minimum: bool,
    /// What one payer pays for the win itself (MCR: 8 + total; seat factors such as 庄家翻倍 are in
    /// `payments`).
    pub per_payer: i64,
    /// Seats at the table (the length of `net`).
    pub players: u8,
    /// Who pays whom (see the module documentation), zero-sum by construction.
    pub payments: Payments,
    pub decomposition: Option<Reading>,
    /// Preset-only values, keys sorted (documented per preset in `docs/presets.md`).
    pub extras: Extras,
}

impl Score {
    /// The net result per seat (winner positive), from the payments.
    pub fn net(&self) -> Vec<i64> {
        let mut net = vec![0i64; usize::from(self.players)];
        for p in &self.payments {
            if let Some(x) = net.get_mut(usize::from(p.payer)) {
                *x -= p.amount;
            }
            if let Some(x) = net.get_mut(usize::from(p.payee)) {
                *x += p.amount;
            }
        }
        net
    }
    /// An extra value by key.
    pub fn extra(&self, key: &str) -> Option<&Value> {
        self.extras.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
    /// Whether a fan / pattern of this id counted.
    pub fn has(&self, id: &str) -> bool {
        self.fans.iter().any(|f| f.id() == id)
    }
    /// Set the extras, sorted by key (the JSON order).
    pub fn with_extras(mut self, extras: Vec<(&'static str, Value)>) -> Score {
        let mut extras = extras;
        extras.sort_by_key(|(k, _)| *k);
        self.extras = extras;
        self
    }
    /// The JSON value of this score.
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
    /// Check that the payments only name seats of the table and pay non-negative amounts.
    pub fn check_payments(&self) -> Result<()> {
        for p in &self.payments {
            if p.payer >= self.players || p.payee >= self.players || p.payer == p.payee {
                return Err(Error::settlement(format!(
                    "payment {} → {} is not between two seats of {}",
                    p.payer, p.payee, self.players
                )));
            }
            if p.amount < 0 {
                return Err(Error::settlement("negative payment"));
            }
        }
        Ok(())
    }
}

struct ExtrasOut<'a>(&'a [(&'static str, Value)]);

impl Serialize for ExtrasOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

struct ReadingOut<'a>(&'a Option<Reading>);

impl Serialize for ReadingOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            None => s.serialize_none(),
            Some(Reading::Tiles(d)) => DecompositionOut(d).serialize(s),
            Some(Reading::Data(v)) => v.serialize(s),
        }
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Score", 11)?;
        m.serialize_field("decomposition", &ReadingOut(&self.decomposition))?;
        m.serialize_field("extras", &ExtrasOut(&self.extras))?;
        m.serialize_field("fans", &self.fans)?;
        m.serialize_field("meets_minimum", &self.meets_minimum)?;
        m.serialize_field("net", &self.net())?;
        m.serialize_field("payments", &self.payments)?;
        m.serialize_field("per_payer", &self.per_payer)?;
        m.serialize_field("raw_total", &self.raw_total)?;
        m.serialize_field("total", &self.total)?;
        m.serialize_field("unit", &self.unit)?;
        m.serialize_field("variant", self.variant)?;
        m.end()
    }
}

/// A tile serialised as its canonical name.
#[derive(Clone, Copy)]
struct TileName(Tile);

impl Serialize for TileName {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

struct Tiles<'a>(&'a [Tile]);

impl Serialize for Tiles<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|&t| TileName(t)))
    }
}

struct SetOut<'a>(&'a crate::decompose::Set);

impl Serialize for SetOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let x = self.0;
        let t = x.tile.index();
        let n = match x.kind {
            crate::hand::MeldKind::Kong => 4,
            _ => 3,
        };
        let mut tiles = [TileName(x.tile); 4];
        if x.kind == crate::hand::MeldKind::Chow {
            for (k, slot) in tiles.iter_mut().enumerate().take(3) {
                *slot = TileName(Tile::new_unchecked(t + k as u8));
            }
        }
        let mut m = s.serialize_struct("Set", 4)?;
        m.serialize_field("concealed", &x.concealed)?;
        m.serialize_field("declared", &x.declared)?;
        m.serialize_field("kind", x.kind.name())?;
        m.serialize_field("tiles", &tiles[..n])?;
        m.end()
    }
}

/// The knitted suits of 全不靠 / 组合龙 as `["147", "258", "369"]` in suit order m, p, s.
pub const KNITTED_NAMES: [&str; 3] = ["147", "258", "369"];

/// A decomposition in the one shape of hupai (also `hupai.decompose`): `form`, `knitted` (per suit
/// m p s the ranks `"147"`/`"258"`/`"369"`, or null), `pair`, `pairs` (七对), `sets` (`concealed`,
/// `declared`, `kind` chow/pung/kong, `tiles`), `wildcards` (what each wildcard stands for).
pub struct DecompositionOut<'a>(pub &'a Decomposition);

impl Serialize for DecompositionOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let d = self.0;
        let mut m = s.serialize_struct("Decomposition", 6)?;
        m.serialize_field("form", d.form.name())?;
        m.serialize_field(
            "knitted",
            &d.knitted
                .map(|k| [0, 1, 2].map(|i| KNITTED_NAMES[usize::from(k[i] % 3)])),
        )?;
        m.serialize_field("pair", &d.pair.map(TileName))?;
        m.serialize_field("pairs", &Tiles(&d.pairs))?;
        let sets: Vec<SetOut<'_>> = d.sets.iter().map(SetOut).collect();
        m.serialize_field("sets", &sets)?;
        m.serialize_field("wildcards", &Tiles(&d.wildcards))?;
        m.end()
    }
}

/// A decomposition as a JSON value (the shape of [`DecompositionOut`]).
pub fn decomposition_json(d: &Decomposition) -> Value {
    serde_json::to_value(DecompositionOut(d)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decompose::{Shapes, decompose};

    /// `Few` with items that own memory and count their drops: every item is dropped exactly
    /// once, whatever path (inline, spilled, filled, cleared, popped, cloned) made the list.
    #[test]
    fn few_drops_each_item_once() {
        use std::cell::Cell;
        use std::rc::Rc;
        #[derive(Clone, Debug, PartialEq)]
        struct D(Rc<Cell<u32>>, String);
        impl Drop for D {
            fn drop(&mut self) {
                self.0.set(self.0.get() + 1);
            }
        }
        let drops = Rc::new(Cell::new(0));
        let d = |k: usize| D(drops.clone(), k.to_string());
        let ids = |f: &Few<D, 3>| f.iter().map(|x| x.1.clone()).collect::<Vec<_>>();
        {
            let mut f = Few::<D, 3>::new();
            assert!(f.is_empty());
            f.push(d(0));
            f.push(d(1));
            assert_eq!(ids(&f), ["0", "1"]);
            let g = f.clone();
            assert_eq!(g, f);
            f.push(d(2));
            f.push(d(3)); // spills to the heap
            assert_eq!(ids(&f), ["0", "1", "2", "3"]);
            assert_eq!(f.pop().map(|x| x.1.clone()), Some("3".into()));
            assert_eq!(drops.get(), 1);
            f.fill((10..12).map(d)); // back inline, the heap items dropped
            assert_eq!(drops.get(), 4);
            assert_eq!(ids(&f), ["10", "11"]);
            f.fill((20..25).map(d)); // more than fit: the rest on the heap
            assert_eq!(drops.get(), 6);
            assert_eq!(ids(&f), ["20", "21", "22", "23", "24"]);
            assert!(f.fill_inline(1, [d(30)]));
            assert_eq!(drops.get(), 11);
            assert!(!f.fill_inline(4, (40..44).map(d)));
            assert_eq!(ids(&f), ["30"]);
            let h = Few::<D, 3>::from_array([d(50), d(51), d(52)], 1);
            assert_eq!(drops.get(), 13);
            assert_eq!(ids(&h), ["50"]);
            assert_eq!(ids(&Few::from_slice(&[d(60), d(61)])), ["60", "61"]);
            assert_eq!(
                Few::<D, 3>::from_slice(&[d(62), d(63), d(64), d(65)]).len(),
                4
            );
            let v = f.clone().into_vec();
            assert_eq!(v.len(), 1);
            drop(v);
            let mut r: Few<D, 3> = (70..75).map(d).collect();
            r.retain(|x| x.1 != "72");
            assert_eq!(ids(&r), ["70", "71", "73", "74"]);
            drop((g, h, r));
        }
        // every item made was dropped exactly once
        // (made: 0..4, 2 clones, 10..12, 20..25, 30, 50..53, 60..62 and 2 clones, 62..66 and 4
        // clones, 1 clone, 70..75; 40..44 never made: a refused `fill_inline` takes no item)
        let made = 4 + 2 + 2 + 5 + 1 + 3 + 4 + 8 + 1 + 5;
        assert_eq!(drops.get(), made);
    }

    #[test]
    fn decomposition_shape() {
        let c = crate::tile::to_counts(&crate::tile::parse_tiles("123m456p789sCCCEE").unwrap())
            .unwrap();
        let d = &decompose(&c, &[], Shapes::STANDARD).unwrap()[0];
        let v = decomposition_json(d);
        assert_eq!(v["form"], "standard");
        assert_eq!(v["pair"], "E");
        assert_eq!(v["sets"][0]["kind"], "chow");
        assert_eq!(v["sets"][0]["tiles"], serde_json::json!(["1m", "2m", "3m"]));
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["form", "knitted", "pair", "pairs", "sets", "wildcards"]
        );
    }

    #[test]
    fn score_json_is_sorted_and_zero_sum() {
        let sc = Score {
            variant: "mcr",
            fans: Fans::new(),
            raw_total: 8,
            total: 8,
            unit: Unit::Fan,
            meets_minimum: true,
            per_payer: 16,
            players: 4,
            payments: Payments::from_array(
                [
                    Payment {
                        payer: 1,
                        payee: 0,
                        amount: 16,
                    },
                    Payment {
                        payer: 2,
                        payee: 0,
                        amount: 8,
                    },
                    Payment::default(),
                ],
                2,
            ),
            decomposition: None,
            extras: vec![],
        }
        .with_extras(vec![("z", Value::from(1)), ("a", Value::from(2))]);
        let text = serde_json::to_string(&sc).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
        assert_eq!(sc.net(), vec![24, -16, -8, 0]);
        assert_eq!(sc.net().iter().sum::<i64>(), 0);
    }
}
