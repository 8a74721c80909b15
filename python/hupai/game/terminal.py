"""``hupai play --human SEAT``: play a hand in the terminal against the built-in bots.

Plain text and ``input()`` — it works over ssh, in any terminal and through a pipe. The board is
drawn before each of the person's decisions: every seat's melds, flowers and river (the last
discard marked), the person's hand in Chinese, then the legal actions numbered (the core's
``Table.legal_actions``; nothing of the rules is here). Answer with a number, with a tile name to
discard it (``5m``), a card game's move written out (``3 3``, ``TT``; a bare number picks a line), ``?`` to draw the board again or ``q`` to leave. At the end: the wins with
their fans, each seat's balance and the payments of the ledger.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from hupai._core import Variant
from hupai._text import pad as _pad
from hupai._text import width as _width
from hupai.game.session import PlaySession, card_names, card_words, event_text

__all__ = ["play_terminal"]


class _Style:
    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, s: str, code: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if self.on else s


def _pieces(ps: Sequence[str], zh: dict[str, str]) -> str:
    return " ".join(zh.get(p, p) for p in ps)


def _seat_lines(d: dict[str, Any], human: int, b: dict[str, Any], st: _Style) -> list[str]:
    tags = []
    if d["dealer"]:
        tags.append("庄")
    if d["void"]:
        tags.append(f"缺{d['void']}")
    if d["declared"]:
        tags.append("听")
    if d["won"]:
        tags.append("胡 " + _pieces(d["won"], b["zh"]))
    who = d["name"] + (" (你)" if d["seat"] == human else "")
    head = f"{st(who, '1')} {' '.join(tags)}".rstrip()
    if b["to_act"] == d["seat"] and not b["done"]:
        head += st("  ← 行动", "33")
    if b["result"] is not None:
        v = b["result"]["balances"][d["seat"]]
        head += f"  {'+' if v > 0 else ''}{v}"
    lines = [head]
    if d["hand"] is not None and d["seat"] != human:
        lines.append(f"    手牌 {_pieces(d['hand'], b['zh'])}")
    elif d["seat"] != human:
        lines.append(f"    手牌 {d['count']} 张")
    if d["melds"]:
        melds = "  ".join(f"[{_pieces(m['tiles'], b['zh'])}]" for m in d["melds"])
        lines.append(f"    副露 {melds}")
    if d["flowers"]:
        lines.append(f"    花   {_pieces(d['flowers'], b['zh'])}")
    if b["family"] == "cards":  # card games: cards left, the seat's latest decision
        lp = b.get("last_play")
        mine = lp is not None and lp["seat"] == d["seat"] and not b["done"]
        act = d.get("last_action") or "—"
        if d["seat"] == human or d["hand"] is not None:
            lines.append(f"    剩 {d['count']} 张")
        lines.append(f"    上一手 {st(act, '31;1') if mine else act}")
        return lines
    river = [b["zh"].get(p, p) for p in d["discards"]]
    last = b["last_discard"]
    if river and last is not None and last["seat"] == d["seat"] and not b["done"]:
        river[-1] = st(f"<{river[-1]}>", "31;1")
    lines.append(f"    河   {' '.join(river) if river else '—'}")
    return lines


def render(b: dict[str, Any], human: int, st: _Style) -> str:
    """The board as text, the person's seat last."""
    if b["family"] == "cards":
        out = [st(f"== {b['name']} ({b['variant']}) · {b['phase']} ==", "1;32")]
        lp = b.get("last_play")
        if lp is not None and not b["done"]:
            out.append(f"桌面 {lp['name']}: {st(_pieces(lp['tiles'], b['zh']), '1;31')}")
    else:
        out = [st(f"== {b['name']} ({b['variant']}) · 牌墙 {b['wall']} ==", "1;32")]
    if b.get("laizi"):
        out.append(f"癞子 {b['laizi']['zh']}")
    n = b["n"]
    for k in range(1, n + 1):
        out.extend(_seat_lines(b["seats"][(human + k) % n], human, b, st))
    me = b["seats"][human]
    if me["hand"] is not None:
        drawn = f"   摸 {st(b['zh'].get(b['drawn'], b['drawn']), '1;33')}" if b.get("drawn") else ""
        out.append(f"    手牌 {st(_pieces(me['hand'], b['zh']), '1')}    ({' '.join(me['hand'])}){drawn}")
    return "\n".join(out)


def _menu(legal: list[dict[str, Any]]) -> str:
    cells = [f"{a['i'] + 1:>2}) {a['label']}" for a in legal]
    w = max(_width(c) for c in cells) + 2
    cols = max(1, min(6, 96 // w))
    rows = [cells[i : i + cols] for i in range(0, len(cells), cols)]
    return "\n".join("  " + "".join(_pad(c, w) for c in r).rstrip() for r in rows)


def _prompt_text(b: dict[str, Any]) -> str:
    kinds = {a["kind"] for a in b["legal"]}
    last = b["last_discard"]
    if "pass" in kinds and last is not None:
        offers = " / ".join(a["label"] for a in b["legal"] if a["kind"] != "pass")
        return f"{last['name']} 打出 {last['zh']} ({last['tile']}): {offers} 还是 过?"
    if "exchange" in kinds:
        return "换三张: 选三张同花色的牌"
    if "declare_void" in kinds:
        return "定缺: 选一门花色"
    if "discard" in kinds:
        return "轮到你: 打一张牌 (数字或牌名, 例如 5m)"
    if b["family"] == "cards" and kinds & {"play", "lay", "open", "kou"}:
        return "轮到你: 数字, 或写出要出的牌, 空格分开 (例如 3 3 或 T T; 过 = pass)"
    return "轮到你:"


def _result_text(b: dict[str, Any], st: _Style) -> str:
    r = b["result"]
    out = [st("== 结算 Settlement ==", "1;32")]
    if b["family"] == "cards":
        out.append("赢家 winners: " + (" ".join(r["winners"]) or "—"))
        for w in r["wins"]:
            fans = "、".join(f"{f}{'×' + str(c) if c > 1 else ''}" for f, c in w["fans"])
            out.append(f"{w['name']} {w['value']}" + (f": {fans}" if fans else ""))
    elif not r["wins"]:
        out.append("荒庄: 没有人胡 (the wall ran out)")
    for w in r["wins"] if b["family"] != "cards" else []:
        how = f"{w['how']} ← {w['from']}" if w["from"] else w["how"]
        fans = "、".join(f"{f}{'×' + str(c) if c > 1 else ''}" for f, c in w["fans"])
        out.append(f"{w['name']} 胡 {w['zh']} ({how}) {w['value']}" + (f": {fans}" if fans else ""))
    names = [s["name"] for s in b["seats"]]
    out.append("收支 net: " + "  ".join(f"{n} {'+' if v > 0 else ''}{v}" for n, v in zip(names, r["balances"])))
    for e in r["payments"]:
        pays = ", ".join(f"{p['from']}→{p['to']} {p['amount']}" for p in e["payments"])
        out.append(f"  {e['reason'] or e['kind']}: {pays}")
    return "\n".join(out)


def _ask(prompt: str, stdin: IO[str], stdout: IO[str]) -> str | None:
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    return None if not line else line.strip()


def play_terminal(
    variant: Variant,
    human: int,
    seed: int,
    bots: str | Sequence[str] = "greedy",
    *,
    log: str | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    color: bool | None = None,
) -> int:
    """Play one hand with the person at seat ``human``; returns the exit code (0 at the end of the
    hand, 1 when the person leaves or the input ends)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if color is None:
        color = stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
    st = _Style(color)
    s = PlaySession(variant, human=human, seed=seed, bots=bots)
    names = s.board()["seat_names"]
    cards = s.table.family == "cards"  # a card game's pieces and decisions by the core's names
    pieces = card_names(s.table.variant) if cards else None
    words = card_words(s.table.variant) if cards else None
    seen = 0

    def news() -> None:
        nonlocal seen
        recs = s.table.log[seen:]
        seen = len(s.table.log)
        lines = [x for x in (event_text(r, names, pieces, words) for r in recs) if x]
        if lines:
            stdout.write(st("· " + " · ".join(lines), "2") + "\n")

    print(f"hupai play: {variant.name} ({variant.id}), seed {seed}, 你坐 {names[human]} (seat {human}); q 退出", file=stdout)
    while not s.done:
        news()
        b = s.board()
        stdout.write("\n" + render(b, human, st) + "\n")
        stdout.write(st(_prompt_text(b), "1;33") + "\n" + _menu(b["legal"]) + "\n")
        while True:
            ans = _ask(f"选择 [1-{len(b['legal'])}]> ", stdin, stdout)
            if ans is None or ans.lower() in ("q", "quit", "exit"):
                stdout.write("\n退出 (left the table)\n")
                return 1
            if ans == "?":
                stdout.write(render(b, human, st) + "\n" + _menu(b["legal"]) + "\n")
                continue
            choice = _choice(ans, b["legal"])
            if choice is None:
                stdout.write(f"? 输入 1-{len(b['legal'])} 的数字, 或要打的牌名 (5m)\n")
                continue
            break
        s.act(choice)
    news()
    b = s.board()
    stdout.write("\n" + render(b, human, st) + "\n" + _result_text(b, st) + "\n")
    if log:
        from hupai.game.log import write_jsonl

        write_jsonl(s.table.log, log)
        stdout.write(f"牌谱 log: {log}\n")
    return 0


def _choice(ans: str, legal: list[dict[str, Any]]) -> int | None:
    if ans.isdigit():
        k = int(ans) - 1
        return k if 0 <= k < len(legal) else None
    for a in legal:
        if a["kind"] == "discard" and a["tile"] == ans:
            return int(a["i"])
    typed = "".join(ans.split())
    for a in legal:  # a card game's move written out ("3 3", "TTT2"): the same cards, any order
        cards = a["tiles"] or ([a["tile"]] if a["tile"] else [])
        if a["kind"] in ("play", "lay", "open", "kou") and cards and sorted("".join(cards)) == sorted(typed):
            return int(a["i"])
    for a in legal:  # a kind by name: "win", "pass", "pung" (or its label's Chinese, 胡 过 碰)
        if ans in (a["kind"], a["label"].split(" ")[0]):
            return int(a["i"])
    return None
