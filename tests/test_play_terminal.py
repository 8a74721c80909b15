"""``hupai play --human 0`` through a pseudo-terminal: a person plays a hand to its end by typing
numbers (and tile names), as over ssh; the hand it prints is the core's (the written log replays
and holds the person's decisions)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

import hupai
from hupai.game import read_jsonl

PROMPT = re.compile(rb"\[1-(\d+)\]> $")


class Term:
    """A child process on a pseudo-terminal, read until a pattern shows."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = pty.openpty()
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env.update({"TERM": "xterm-256color", "COLUMNS": "100", "LINES": "40", "PYTHONIOENCODING": "utf-8"})
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.buf = b""

    def read_until(self, pattern: re.Pattern[bytes], timeout: float = 120.0) -> re.Match[bytes] | None:
        """Read until ``pattern`` matches the output so far (kept from the last match on), or EOF."""
        while True:
            m = pattern.search(self.buf)
            if m:
                return m
            r, _, _ = select.select([self.master], [], [], timeout)
            if not r:
                raise TimeoutError(self.buf[-2000:].decode("utf-8", "replace"))
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the child closed the terminal
                return None
            if not chunk:
                return None
            self.buf += chunk

    def send(self, text: str) -> None:
        self.buf = b""
        os.write(self.master, text.encode())

    def close(self) -> int:
        try:
            return self.proc.wait(30)
        finally:
            os.close(self.master)


@pytest.mark.parametrize(("variant", "seed"), [("sichuan", 2), ("mcr", 4)])
def test_play_a_hand_in_a_pseudo_terminal(tmp_path: Path, variant: str, seed: int) -> None:
    log = tmp_path / "hand.jsonl"
    term = Term([sys.executable, "-m", "hupai", "play", "--variant", variant, "--human", "0", "--seed", str(seed), "--log", str(log)])
    transcript = b""
    answers: list[str] = []
    try:
        first = True
        while True:
            m = term.read_until(PROMPT)
            screen = term.buf
            transcript += screen
            if m is None:  # the hand is over: the child printed the settlement and left
                break
            text = screen.decode("utf-8", "replace")
            assert "手牌" in text  # the board is drawn before each decision
            menu = dict(re.findall(r"(\d+)\) (\S+(?: \S+)?)", text))
            wins = [k for k, label in menu.items() if label.startswith("胡")]
            ans = wins[0] if wins else "1"
            if first and "轮到你" in text and not wins:
                # a tile name discards it, as one types over ssh: the first of the hand that is a discard
                first = False
                hand = re.search(r"\(([0-9a-zA-Z ]+)\)(?:   摸 .*?)?\r?\n", text)
                assert hand is not None
                for code in hand.group(1).split():
                    if f"打 {hupai.format_tiles([code], chinese=True).strip()}" in menu.values():
                        ans = code
                        break
            answers.append(ans)
            term.send(ans + "\n")
            assert len(answers) < 400
    finally:
        code = term.close()
    out = transcript.decode("utf-8", "replace")
    assert code == 0, out[-2000:]
    assert "== 结算 Settlement ==" in out and "收支 net:" in out
    assert "\x1b[" in out  # a terminal gets colour
    # the log the session wrote is the hand that was played: it replays, the person's decisions in it
    records = read_jsonl(log)
    t = hupai.replay(records)
    assert t.done and records[0]["variant"] == variant and records[0]["seed"] == seed
    assert sum(1 for r in records if r["type"] == "action" and r["seat"] == 0) == len(answers)
    assert any(not a.isdigit() for a in answers)  # a tile typed by name was taken
    net = re.search(r"收支 net: (.*)", out)
    assert net is not None
    shown = [int(x) for x in re.findall(r"[东南西北] ([+-]?\d+)", net.group(1))]
    assert shown == list(t.balances)


def test_quit_and_bad_input(tmp_path: Path) -> None:
    term = Term([sys.executable, "-m", "hupai", "play", "--variant", "sichuan", "--human", "1", "--seed", "3"])
    try:
        assert term.read_until(PROMPT) is not None
        term.send("abc\n")
        assert term.read_until(re.compile(rb"\? .*\n.*\[1-\d+\]> $")) is not None
        term.send("q\n")
        term.read_until(re.compile("退出".encode()))
    finally:
        code = term.close()
    assert code == 1


def test_human_seat_out_of_range_is_one_line() -> None:
    r = subprocess.run([sys.executable, "-m", "hupai", "play", "--variant", "erren", "--human", "2"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "human" in r.stderr and "0..1" in r.stderr


def test_play_a_doudizhu_hand_in_a_pseudo_terminal(tmp_path: Path) -> None:
    """斗地主 in the terminal: the board shows the person's cards, each seat's cards left and the
    move on the table; a move typed in the game's notation (``33``) is taken; the log replays."""
    log = tmp_path / "ddz.jsonl"
    term = Term([sys.executable, "-m", "hupai", "play", "--variant", "doudizhu_qq", "--human", "0", "--seed", "3", "--log", str(log)])
    transcript = b""
    answers: list[str] = []
    typed = False
    try:
        while True:
            m = term.read_until(PROMPT)
            screen = term.buf
            transcript += screen
            if m is None:
                break
            text = screen.decode("utf-8", "replace")
            assert "张" in text and "上一手" in text  # cards left per seat, each seat's latest decision
            menu = dict(re.findall(r"(\d+)\) (\S+(?: \S+)*?)(?=\s{2,}|\r?\n|$)", text))
            ans = "1"
            if "叫3分" in menu.values():  # bid 3: the person is the landlord and leads
                ans = next(k for k, v in menu.items() if v == "叫3分")
            elif not typed:
                # type the first multi-card move of the menu in the notation, cards apart (a bare
                # number picks a menu line)
                for label in menu.values():
                    cards = label.split(" ")
                    if cards[0] == "出牌" and len(cards) >= 3:
                        ans, typed = " ".join(cards[1:]), True
                        break
            answers.append(ans)
            term.send(ans + "\n")
            assert len(answers) < 200
    finally:
        code = term.close()
    out = transcript.decode("utf-8", "replace")
    assert code == 0, out[-2000:]
    assert "== 结算 Settlement ==" in out and "赢家 winners:" in out and "收支 net:" in out
    assert re.search(r"剩 \d+ 张", out) and "桌面 " in out
    records = read_jsonl(log)
    t = hupai.replay(records)
    assert t.done and records[0]["variant"] == "doudizhu_qq"
    mine = [r for r in records if r["type"] == "action" and r["seat"] == 0]
    assert len(mine) == len(answers) and typed
    typed_answer = next(a for a in answers if " " in a)
    assert any(r.get("tiles") == typed_answer.split() for r in mine)
    net = re.search(r"收支 net: (.*)", out)
    assert net is not None
    assert [int(x) for x in re.findall(r"[东南西北] ([+-]?\d+)", net.group(1))] == list(t.balances)
