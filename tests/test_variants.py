"""Presets as data: loading, switch validation, description."""

import pickle

import pytest

import hupai


def test_every_listed_preset_loads() -> None:
    listed = hupai.variants()
    assert listed and all({"id", "name", "description", "players"} <= set(v) for v in listed)
    for v in listed:
        variant = hupai.Variant.load(v["id"])
        assert variant.id == v["id"]
        described = variant.describe()
        assert described["id"] == v["id"]
        assert isinstance(described["fans"], list) and isinstance(described["switches"], list)


def test_unknown_variant() -> None:
    with pytest.raises(hupai.RuleConfigError, match="unknown variant"):
        hupai.Variant.load("no-such-rules")


def test_unknown_switch_names_the_known_ones() -> None:
    with pytest.raises(hupai.RuleConfigError, match='no switch "definitely_not_a_switch"'):
        hupai.Variant("mcr", definitely_not_a_switch=True)


def test_bad_switch_value_type() -> None:
    with pytest.raises(hupai.RuleConfigError, match="bool, an int or a str"):
        hupai.Variant.load("mcr").with_options(anything=1.5)


def test_variant_value_semantics() -> None:
    a, b = hupai.Variant.load("mcr"), hupai.Variant("mcr")
    assert a == b and hash(a) == hash(b)
    assert pickle.loads(pickle.dumps(a)) == a
    assert repr(a) == "Variant('mcr')"
