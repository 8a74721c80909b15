//! `Tile`, tile parsing and formatting, and the conversion of Python tile inputs.

use hupai_core::tile::{self, Counts, N_KINDS};
use hupai_core::{Error as CoreError, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::errors::{BindError, BindResult};

/// One tile, e.g. ``Tile("5m")``, ``Tile("E")``, ``Tile("7z")``, ``Tile("红中")`` or ``Tile("f3")``.
///
/// Frozen, hashable, ordered (m, p, s by rank, then E S W N C F P, then flowers) and picklable.
#[pyclass(
    frozen,
    eq,
    hash,
    ord,
    from_py_object,
    module = "hupai._core",
    name = "Tile"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyTile {
    pub(crate) inner: Tile,
}

#[pymethods]
impl PyTile {
    #[new]
    #[pyo3(signature = (notation, /))]
    fn new(notation: &Bound<'_, PyAny>) -> BindResult<Self> {
        Ok(Self {
            inner: tile_from_py(notation)?,
        })
    }

    /// Build a tile from its index (0..34 kinds, 34..42 flowers).
    #[staticmethod]
    fn from_index(index: crate::convert::AnyInt) -> BindResult<Self> {
        u8::try_from(index.0)
            .ok()
            .and_then(Tile::from_index)
            .map(|inner| Self { inner })
            .ok_or_else(|| {
                CoreError::tile(index.0.to_string(), "tile index must be in 0..42").into()
            })
    }

    /// Index in the canonical order: 0..9 1m-9m, 9..18 1p-9p, 18..27 1s-9s, 27..34 E S W N C F P,
    /// 34..42 f1-f8.
    #[getter]
    fn index(&self) -> u8 {
        self.inner.index()
    }
    /// ``"m"``, ``"p"``, ``"s"``, ``"honor"`` or ``"flower"``.
    #[getter]
    fn suit(&self) -> &'static str {
        match self.inner.suit() {
            hupai_core::Suit::Man => "m",
            hupai_core::Suit::Pin => "p",
            hupai_core::Suit::Sou => "s",
            hupai_core::Suit::Honor => "honor",
            hupai_core::Suit::Flower => "flower",
        }
    }
    /// Rank 1..9 of a suited tile, ``None`` for honours and flowers.
    #[getter]
    fn rank(&self) -> Option<u8> {
        self.inner.rank()
    }
    /// Chinese name, e.g. ``"五筒"``, ``"中"``.
    #[getter]
    fn chinese(&self) -> String {
        self.inner.chinese()
    }
    #[getter]
    fn is_honor(&self) -> bool {
        self.inner.is_honor()
    }
    #[getter]
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    #[getter]
    fn is_flower(&self) -> bool {
        self.inner.is_flower()
    }
    /// The default successor (9→1, N→E, P→C), used by wildcard indicators.
    fn next(&self) -> Self {
        Self {
            inner: self.inner.next(),
        }
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Tile('{}')", self.inner)
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, pyo3::types::PyType>, (String,))> {
        Ok((slf.get_type(), (slf.get().inner.to_string(),)))
    }
}

/// One tile from a `Tile`, a string of exactly one tile, or an index.
pub fn tile_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Tile> {
    if let Ok(t) = obj.cast::<PyTile>() {
        return Ok(t.get().inner);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Tile::parse(crate::convert::text(s, "tile")?)?);
    }
    Err(CoreError::tile(
        repr(obj),
        "expected a tile string such as '5m' or a hupai.Tile",
    )
    .into())
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object>".into())
}

/// Tiles from a string (any notation), a list/tuple of tile strings or `Tile`s.
pub fn tiles_from_py(obj: &Bound<'_, PyAny>) -> BindResult<Vec<Tile>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(tile::parse_tiles(crate::convert::text(s, "tiles")?)?);
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let mut out = Vec::new();
        for item in obj.try_iter()? {
            let item = item?;
            if let Ok(t) = item.cast::<PyTile>() {
                out.push(t.get().inner);
            } else if let Ok(s) = item.cast::<PyString>() {
                out.extend(tile::parse_tiles(crate::convert::text(s, "tiles")?)?);
            } else {
                return Err(CoreError::tile(
                    repr(&item),
                    "list items must be tile strings or hupai.Tile",
                )
                .into());
            }
        }
        return Ok(out);
    }
    Err(BindError::Core(CoreError::tile(
        repr(obj),
        "expected a tile string ('123m456pEE'), a list of tiles or a hupai.Hand",
    )))
}

/// A 34-count vector from a sequence of 34 integers (each 0..=4).
pub fn counts_from_seq(values: &[i64]) -> BindResult<Counts> {
    if values.len() != N_KINDS {
        return Err(CoreError::hand(format!(
            "a count vector has 34 entries, got {}",
            values.len()
        ))
        .into());
    }
    let mut c = [0u8; N_KINDS];
    for (i, &v) in values.iter().enumerate() {
        if !(0..=4).contains(&v) {
            return Err(CoreError::hand(format!(
                "count {v} for {} is out of range 0..=4",
                Tile::new_unchecked(i as u8)
            ))
            .into());
        }
        c[i] = v as u8;
    }
    Ok(c)
}

/// Parse tiles in any notation: a string, or a list of tile strings / Tiles.
#[pyfunction]
#[pyo3(signature = (tiles, /))]
pub fn parse_tiles(tiles: &Bound<'_, PyAny>) -> BindResult<Vec<PyTile>> {
    Ok(tiles_from_py(tiles)?
        .into_iter()
        .map(|inner| PyTile { inner })
        .collect())
}

/// Canonical sorted compact notation of tiles (``"123m456p789sEEECC"``), or Chinese names.
#[pyfunction]
#[pyo3(signature = (tiles, /, *, chinese = false))]
pub fn format_tiles(tiles: &Bound<'_, PyAny>, chinese: bool) -> BindResult<String> {
    let t = tiles_from_py(tiles)?;
    Ok(if chinese {
        tile::format_chinese(&t)
    } else {
        tile::format_tiles(&t)
    })
}

/// 34-count list of tiles (flowers rejected; at most four copies).
#[pyfunction]
#[pyo3(signature = (tiles, /))]
pub fn to_counts(tiles: &Bound<'_, PyAny>) -> BindResult<Vec<u32>> {
    Ok(tile::to_counts(&tiles_from_py(tiles)?)?
        .iter()
        .map(|&c| u32::from(c))
        .collect())
}

/// Tiles (canonical order) of a 34-count sequence.
#[pyfunction]
#[pyo3(signature = (counts, /))]
pub fn from_counts(counts: crate::convert::Seq<crate::convert::AnyInt>) -> BindResult<Vec<PyTile>> {
    let counts: Vec<i64> = counts.iter().map(|c| c.0).collect();
    let c = counts_from_seq(&counts)?;
    Ok(tile::from_counts(&c)
        .into_iter()
        .map(|inner| PyTile { inner })
        .collect())
}
