//! `Meld`, `Hand` and `decompose`.

use hupai_core::decompose::Decomposition;
use hupai_core::hand::{self, Hand, Meld, MeldKind};
use hupai_core::tile;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::AnyInt;
use crate::convert::Text;
use crate::errors::{BindResult, hand_err};
use crate::tiles::{PyTile, tile_from_py, tiles_from_py};

/// A declared meld: ``Meld("345m")``, ``Meld("EEE", from_seat=1)``, ``Meld("5555p", concealed=True)``.
///
/// ``from_seat``: for a pung/kong the seat the tile was claimed from (1 = 上家 left, 2 = 对家,
/// 3 = 下家 right, 0 = unknown); for a chow which of its tiles was claimed (1..3, low to high).
#[pyclass(
    frozen,
    eq,
    hash,
    from_py_object,
    module = "hupai._core",
    name = "Meld"
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMeld {
    pub(crate) inner: Meld,
}

#[pymethods]
impl PyMeld {
    #[new]
    #[pyo3(signature = (tiles, /, *, concealed = false, from_seat = AnyInt(0)))]
    #[pyo3(text_signature = "(tiles, /, *, concealed=False, from_seat=0)")]
    fn new(tiles: &Bound<'_, PyAny>, concealed: bool, from_seat: AnyInt) -> BindResult<Self> {
        let from: u8 = from_seat.within("from_seat", 0, 3, hand_err)?;
        Ok(Self {
            inner: Meld::from_tiles(&tiles_from_py(tiles)?, concealed, from)?,
        })
    }

    /// Build a meld from its type and tile (``kind`` chow/pung/kong; for a chow ``tile`` is its
    /// lowest tile unless ``middle=True``).
    #[staticmethod]
    #[pyo3(signature = (kind, tile, *, concealed = false, from_seat = AnyInt(0), middle = false))]
    #[pyo3(text_signature = "(kind, tile, *, concealed=False, from_seat=0, middle=False)")]
    fn of(
        kind: Text,
        tile: &Bound<'_, PyAny>,
        concealed: bool,
        from_seat: AnyInt,
        middle: bool,
    ) -> BindResult<Self> {
        let kind = MeldKind::parse(&kind)?;
        let mut t = tile_from_py(tile)?;
        if middle && kind == MeldKind::Chow {
            t = match t.rank() {
                Some(r) if (2..=8).contains(&r) => hupai_core::Tile::new_unchecked(t.index() - 1),
                _ => return Err(hand_err(format!("{t} cannot be the middle tile of a chow"))),
            };
        }
        let from: u8 = from_seat.within("from_seat", 0, 3, hand_err)?;
        Ok(Self {
            inner: Meld::new(kind, t, concealed, from)?,
        })
    }

    /// ``"chow"``, ``"pung"`` or ``"kong"``.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.name()
    }
    /// Lowest tile of a chow; the tile of a pung or kong.
    #[getter]
    fn tile(&self) -> PyTile {
        PyTile {
            inner: self.inner.tile,
        }
    }
    #[getter]
    fn tiles(&self) -> Vec<PyTile> {
        self.inner
            .tiles()
            .into_iter()
            .map(|inner| PyTile { inner })
            .collect()
    }
    #[getter]
    fn concealed(&self) -> bool {
        self.inner.concealed
    }
    #[getter(from_seat)]
    fn claimed_from(&self) -> u8 {
        self.inner.from
    }
    fn __repr__(&self) -> String {
        let t = tile::format_tiles(&self.inner.tiles());
        match (self.inner.concealed, self.inner.from) {
            (true, _) => format!("Meld('{t}', concealed=True)"),
            (false, 0) => format!("Meld('{t}')"),
            (false, f) => format!("Meld('{t}', from_seat={f})"),
        }
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<((String,), Bound<'py, PyDict>)> {
        let kw = PyDict::new(py);
        kw.set_item("concealed", self.inner.concealed)?;
        kw.set_item("from_seat", self.inner.from)?;
        Ok(((tile::format_tiles(&self.inner.tiles()),), kw))
    }
}

/// A validated hand: standing tiles plus declared melds.
///
/// ``Hand("123m456p789sEEEC")``, ``Hand(["1m", "2m", ...], melds=[Meld("EEE")])`` or, in bracket
/// notation, ``Hand.parse("[345m,3][2222s]67mEE")``. A hand has ``13 - 3·melds`` (waiting) or
/// ``14 - 3·melds`` (complete) standing tiles and at most four copies of any tile.
#[pyclass(
    frozen,
    eq,
    hash,
    from_py_object,
    module = "hupai._core",
    name = "Hand"
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyHand {
    pub(crate) inner: Hand,
}

fn melds_from_py(melds: Option<&Bound<'_, PyAny>>) -> BindResult<Vec<Meld>> {
    let mut out = Vec::new();
    let Some(melds) = melds else { return Ok(out) };
    if melds.is_none() {
        return Ok(out);
    }
    if melds.cast::<PyString>().is_ok() {
        return Err(hand_err(
            "melds must be a list of Meld objects or tile strings, not one string",
        ));
    }
    for item in melds.try_iter()? {
        let item = item?;
        if let Ok(m) = item.cast::<PyMeld>() {
            out.push(m.get().inner);
        } else {
            out.push(Meld::from_tiles(&tiles_from_py(&item)?, false, 0)?);
        }
    }
    Ok(out)
}

#[pymethods]
impl PyHand {
    #[new]
    #[pyo3(signature = (concealed, /, melds = None))]
    fn new(concealed: &Bound<'_, PyAny>, melds: Option<&Bound<'_, PyAny>>) -> BindResult<Self> {
        Ok(Self {
            inner: Hand::new(tiles_from_py(concealed)?, melds_from_py(melds)?)?,
        })
    }

    /// Parse bracket notation ``"[345m,3][2222s][5555p,1]67mEE"``; a trailing ``+T`` winning tile is
    /// added to the standing tiles.
    #[staticmethod]
    #[pyo3(signature = (text, /))]
    fn parse(text: Text) -> BindResult<Self> {
        let (mut standing, melds, win) = hand::parse_notation(&text)?;
        standing.extend(win);
        Ok(Self {
            inner: Hand::new(standing, melds)?,
        })
    }

    /// Standing tiles, sorted.
    #[getter]
    fn concealed(&self) -> Vec<PyTile> {
        self.inner
            .concealed()
            .iter()
            .map(|&inner| PyTile { inner })
            .collect()
    }
    #[getter]
    fn melds(&self) -> Vec<PyMeld> {
        self.inner
            .melds()
            .iter()
            .map(|&inner| PyMeld { inner })
            .collect()
    }
    /// 34-count list of the standing tiles.
    #[getter]
    fn counts(&self) -> Vec<u32> {
        self.inner.counts().iter().map(|&c| u32::from(c)).collect()
    }
    /// True for 14 + kongs tiles (a complete hand), false for a waiting hand.
    #[getter]
    fn is_complete(&self) -> bool {
        self.inner.is_complete()
    }
    /// The hand with one more standing tile.
    fn with_tile(&self, tile: &Bound<'_, PyAny>) -> BindResult<Self> {
        Ok(Self {
            inner: self.inner.with_tile(tile_from_py(tile)?)?,
        })
    }
    fn __len__(&self) -> usize {
        self.inner.concealed().len() + 3 * self.inner.melds().len()
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Hand.parse('{}')", self.inner)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let parse = slf.get_type().getattr("parse")?;
        Ok((parse, (slf.get().inner.to_string(),)))
    }
}

/// A `Hand`, or anything `Hand(...)` accepts as standing tiles (string, list of tiles).
#[allow(dead_code)] // kept for the scoring bindings
pub fn hand_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Hand> {
    if let Ok(h) = obj.cast::<PyHand>() {
        return Ok(h.get().inner.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let (mut standing, melds, win) = hand::parse_notation(crate::convert::text(s, "text")?)?;
        standing.extend(win);
        return Ok(Hand::new(standing, melds)?);
    }
    Ok(Hand::new(tiles_from_py(obj)?, Vec::new())?)
}

pub fn decomposition_to_py<'py>(py: Python<'py>, d: &Decomposition) -> PyResult<Bound<'py, PyAny>> {
    crate::convert::json_to_py(py, &hupai_core::scoring::score::decomposition_json(d))
}
