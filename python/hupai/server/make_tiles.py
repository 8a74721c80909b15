"""Generate the SVG tile faces in ``static/tiles/`` (run: ``python -m hupai.server.make_tiles``).

The faces are drawn here for the project: an ivory tile with a suit mark. 万 (m) shows the
number and 萬, 筒 (p) circles, 条 (s) bamboo sticks, honours their character. 字牌 cards (``x1``..
``x10`` small 一..十, ``d1``..``d10`` big 壹..拾) are white paper cards with the numeral written
large, red for 二七十 / 贰柒拾 as on real cards, and a 小/大 corner mark. The generated files are
committed so the page needs no build step; re-run after editing this script.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).with_name("static") / "tiles"
W, H = 60, 80
RED, GREEN, BLUE, INK = "#c0272d", "#1d7a3a", "#1f4e9c", "#1b1b1b"
NUM_ZH = "一二三四五六七八九"
SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹贰叁肆伍陆柒捌玖拾"
#: the eight flowers f1..f8: 春夏秋冬 (seasons, green) and 梅兰竹菊 (plants, blue), with their number
FLOWERS = "春夏秋冬梅兰竹菊"
HONOURS = {"E": ("東", INK), "S": ("南", INK), "W": ("西", INK), "N": ("北", INK), "C": ("中", RED), "F": ("發", GREEN)}

# cell positions (col, row) on a 3x3 grid for 1..9 marks
LAYOUT = {
    1: [(1, 1)],
    2: [(1, 0), (1, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    7: [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    8: [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
    9: [(c, r) for r in range(3) for c in range(3)],
}


def _frame(body: str, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img" aria-label="{label}">'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#fbf6e9" stroke="#8a7f66" '
        'stroke-width="2"/>'
        f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="5" fill="none" stroke="#e3d9bf" '
        'stroke-width="1"/>'
        f"{body}</svg>\n"
    )


def _cell(col: int, row: int) -> tuple[float, float]:
    """Centre of grid cell (col, row)."""
    return 14 + col * 16, 17 + row * 23


def _circle(n: int) -> str:
    if n == 1:
        return (
            f'<circle cx="30" cy="40" r="19" fill="none" stroke="{BLUE}" stroke-width="4"/>'
            f'<circle cx="30" cy="40" r="10" fill="none" stroke="{RED}" stroke-width="4"/>'
            f'<circle cx="30" cy="40" r="3" fill="{GREEN}"/>'
        )
    parts = []
    for i, (c, r) in enumerate(LAYOUT[n]):
        x, y = _cell(c, r)
        colour = RED if (n in (5, 9) and (c, r) == (1, 1)) or (n == 3 and i == 1) else BLUE
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="6.5" fill="none" stroke="{colour}" stroke-width="2.4"/>'
            f'<circle cx="{x}" cy="{y}" r="2" fill="{colour}"/>'
        )
    return "".join(parts)


def _stick(x: float, y: float, colour: str) -> str:
    return (
        f'<rect x="{x - 3}" y="{y - 10}" width="6" height="20" rx="3" fill="{colour}"/>'
        f'<line x1="{x - 3}" y1="{y}" x2="{x + 3}" y2="{y}" stroke="#fbf6e9" stroke-width="1.4"/>'
    )


def _bamboo(n: int) -> str:
    if n == 1:  # the traditional bird, simplified: a green body with a red crest
        return (
            f'<ellipse cx="30" cy="44" rx="13" ry="17" fill="{GREEN}"/>'
            f'<circle cx="30" cy="24" r="7" fill="{GREEN}"/>'
            f'<path d="M27 17 L30 9 L33 17 Z" fill="{RED}"/>'
            f'<circle cx="32" cy="23" r="1.6" fill="#fff"/>'
            f'<path d="M22 58 L30 68 L38 58 Z" fill="{RED}"/>'
        )
    parts = []
    for c, r in LAYOUT[n]:
        x, y = _cell(c, r)
        parts.append(_stick(x, y, RED if (n in (5, 9) and (c, r) == (1, 1)) else GREEN))
    return "".join(parts)


def _char(n: int) -> str:
    return (
        f'<text x="30" y="34" font-size="26" text-anchor="middle" fill="{INK}" '
        f'font-family="serif" font-weight="bold">{NUM_ZH[n - 1]}</text>'
        f'<text x="30" y="68" font-size="28" text-anchor="middle" fill="{RED}" '
        f'font-family="serif" font-weight="bold">萬</text>'
        f'<text x="9" y="17" font-size="11" fill="{INK}" font-family="sans-serif">{n}</text>'
    )


def _card(code: str) -> str:
    """A 字牌 card face: ``x1``..``x10`` (small) or ``d1``..``d10`` (big)."""
    n = int(code[1:])
    big = code[0] == "d"
    ch = (BIG_ZH if big else SMALL_ZH)[n - 1]
    colour = RED if n in (2, 7, 10) else INK
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img" aria-label="{code}">'
        f'<rect x="6" y="1" width="{W - 12}" height="{H - 2}" rx="4" fill="#fffdf7" stroke="#6b6253" '
        'stroke-width="2"/>'
        f'<rect x="10" y="5" width="{W - 20}" height="{H - 10}" rx="2" fill="none" stroke="{colour}" '
        'stroke-width="1" stroke-dasharray="3 2"/>'
        f'<text x="30" y="54" font-size="{30 if big else 34}" text-anchor="middle" fill="{colour}" '
        f'font-family="serif" font-weight="bold">{ch}</text>'
        f'<text x="14" y="17" font-size="10" fill="{INK}" font-family="serif">{"大" if big else "小"}</text>'
        f'<text x="46" y="73" font-size="9" text-anchor="end" fill="#6b6253" font-family="sans-serif">{n}</text>'
        "</svg>\n"
    )


def faces() -> dict[str, str]:
    out: dict[str, str] = {}
    for n in range(1, 10):
        out[f"{n}m"] = _frame(_char(n), f"{n}m")
        out[f"{n}p"] = _frame(_circle(n), f"{n}p")
        out[f"{n}s"] = _frame(_bamboo(n), f"{n}s")
    for t, (ch, colour) in HONOURS.items():
        out[t] = _frame(
            f'<text x="30" y="52" font-size="34" text-anchor="middle" fill="{colour}" '
            f'font-family="serif" font-weight="bold">{ch}</text>',
            t,
        )
    # 白 (P): the blank frame of the white dragon
    out["P"] = _frame(
        f'<rect x="13" y="17" width="34" height="46" rx="3" fill="none" stroke="{BLUE}" stroke-width="3"/>',
        "P",
    )
    for n, ch in enumerate(FLOWERS, start=1):
        colour = GREEN if n <= 4 else BLUE
        out[f"f{n}"] = _frame(
            f'<circle cx="30" cy="42" r="20" fill="none" stroke="{RED}" stroke-width="1.5" stroke-dasharray="2 3"/>'
            f'<text x="30" y="54" font-size="32" text-anchor="middle" fill="{colour}" '
            f'font-family="serif" font-weight="bold">{ch}</text>'
            f'<text x="49" y="17" font-size="11" text-anchor="end" fill="{RED}" font-family="sans-serif">{(n - 1) % 4 + 1}</text>',
            f"f{n}",
        )
    for n in range(1, 11):
        for kind in "xd":
            out[f"{kind}{n}"] = _card(f"{kind}{n}")
    out["back"] = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#2f7d5b" stroke="#1f5a40" '
        'stroke-width="2"/></svg>\n'
    )
    return out


def favicon() -> str:
    """The page's icon: a 中 tile on the felt green, legible at 16 px."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">'
        '<rect x="0" y="0" width="64" height="64" rx="12" fill="#2f7d5b"/>'
        '<rect x="12" y="5" width="40" height="54" rx="6" fill="#fbf6e9" stroke="#8a7f66" stroke-width="2"/>'
        f'<text x="32" y="45" font-size="32" text-anchor="middle" fill="{RED}" font-family="serif" '
        'font-weight="bold">中</text></svg>\n'
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, svg in faces().items():
        (OUT / f"{name}.svg").write_text(svg, encoding="utf-8")
    (OUT.parent / "favicon.svg").write_text(favicon(), encoding="utf-8")


if __name__ == "__main__":
    main()
