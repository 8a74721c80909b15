"""Helpers shared by the regional preset tests: case dicts in the case schema and ledger balances."""

from __future__ import annotations

from typing import Any

import hupai


def tiles(s: str) -> list[str]:
    return [str(t) for t in hupai.parse_tiles(s)]


def hand(concealed: str, win: str, melds: list[dict[str, Any]] | None = None, **flags: Any) -> dict[str, Any]:
    return {"hand": {"concealed": tiles(concealed), "win_tile": win, "melds": melds or []}, "situation": flags}


def balances(ledger: hupai.Settlement | dict[str, Any]) -> dict[str, int]:
    b = dict(ledger["balances"] if isinstance(ledger, dict) else ledger.balances)
    assert sum(b.values()) == 0
    return b


def ids(score: hupai.Score) -> list[str]:
    """The fan / pattern ids of a score, in table order."""
    return [f.id for f in score.fans]


def core(case: dict[str, Any]) -> dict[str, Any]:
    """The case (``hand``, ``situation``) of a fixture line that also carries ids and expectations."""
    return {k: case[k] for k in ("hand", "situation") if k in case}


def events(record: dict[str, Any]) -> dict[str, Any]:
    """A hand record written with ``kongs`` (``{owner, kind|type, feeder}``) and ``wins`` (or one
    ``win``) as the record format's ``events`` list: the kongs in order, then the wins."""
    rec = {k: v for k, v in record.items() if k not in ("kongs", "wins", "win")}
    ev: list[dict[str, Any]] = []
    for k in record.get("kongs") or []:
        k = dict(k)
        if "kind" in k:
            k["type"] = k.pop("kind")
        ev.append({"kind": "kong", **k})
    wins = list(record.get("wins") or [])
    if record.get("win"):
        wins.append(record["win"])
    ev += [{"kind": "win", **w} for w in wins]
    rec["events"] = ev + list(record.get("events") or [])
    return rec


def settle(record: dict[str, Any], variant: Any) -> hupai.Settlement:
    """``hupai.settle_hand`` of a record written with ``kongs`` / ``wins`` (see :func:`events`)."""
    return hupai.settle_hand(events(record), variant)


def flat_case(case: dict[str, Any], keys: tuple[str, ...] = ("win_type", "players", "liangdao", "dealer", "blessing", "wall_last", "last_kong", "void_suit")) -> dict[str, Any]:
    """A ``variants_ref.jsonl`` case (flat ``concealed``/``win_tile``/``melds``, ``situation.dingque``)
    in the case schema ``{"hand", "situation"}`` (the situation keys of ``keys`` are kept)."""
    if "hand" in case:
        return core(case)
    sit_in = dict(case.get("situation") or {})
    sit = {k: sit_in[k] for k in keys if k in sit_in}
    if sit_in.get("dingque"):
        sit["void_suit"] = sit_in["dingque"]
    melds = [{"type": m["type"], "tiles": list(m["tiles"])} for m in case.get("melds") or []]
    return {"hand": {"melds": melds, "concealed": list(case["concealed"]), "win_tile": case["win_tile"]}, "situation": sit}
