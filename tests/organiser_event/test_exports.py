"""Exports keep working for rounds the PC paired (issue 16): two published rounds, their results as
the clocks send them, exported to tsh and to FIDE TRF and read back by each format's own rules (small
readers here: tsh's line pattern, TRF16's columns) give the published pairings: who played whom at
which table, who started, and the byes."""
from __future__ import annotations

import re

import pytest
from evkit import NAMES, PLAYERS_CSV, store_results, xw_result

from gameclock.organiser import event as events
from gameclock.organiser.exports.commands import export_outputs
from gameclock.organiser.store import Store

EV = "xw-open"
TSH = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$")  # DESIGN.md §6


def read_tsh(text: str) -> dict[int, list[tuple[int, str, str | None, bool]]]:
    """By round: (table, player, opponent or None for a bye, player started) for every player line,
    read with tsh's pattern: the line number is the id, opponent 0 a bye, `board` the table, p12 1 first."""
    lines = text.splitlines()
    parsed = []
    for line in lines:
        m = TSH.match(line)
        assert m is not None, line
        name, _rating, opps, _scores, extras = m.groups()
        extra = {c.split()[0]: [int(x) for x in c.split()[1:]] for c in extras.split(";")[1:] if c.split()}
        parsed.append((name, [int(x) for x in opps.split()], extra))
    out: dict[int, list] = {}
    for name, opps, extra in parsed:
        for rnd, opp in enumerate(opps, start=1):
            other = parsed[opp - 1][0] if opp else None
            out.setdefault(rnd, []).append((extra["board"][rnd - 1], name, other, extra["p12"][rnd - 1] == 1))
    return out


def read_trf(text: str) -> dict[int, list[tuple[str, str | None, str]]]:
    """By round: (player, opponent or None for a bye, colour) of every 001 line, by TRF16's columns:
    start rank 5-8, name 15-47, round n's block at 92 + 10 (n - 1): opponent (4), colour (+5)."""
    lines = [ln for ln in text.split("\r\n") if ln.startswith("001")]
    names = {int(ln[4:8]): ln[14:47].rstrip() for ln in lines}
    out: dict[int, list] = {}
    for ln in lines:
        rnd = 1
        while len(ln) >= 92 + 10 * (rnd - 1):
            at = 92 + 10 * (rnd - 1) - 1
            opp = int(ln[at:at + 4])
            out.setdefault(rnd, []).append((names[int(ln[4:8])], names[opp] if opp else None, ln[at + 5]))
            rnd += 1
    return out


@pytest.fixture
def two_rounds(tmp_path, fold_system):
    store = Store(tmp_path / "pc.db")
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS_CSV, encoding="utf-8")
    events.create_event(store, EV, fold_system, events.load_players(path), language="th", preset="crossword",
                        level="secondary", options={"shuffle": False})
    events.draw(store, EV, seed=5)
    events.edit(store, EV, swaps=[(1, 2)])      # round 1: T1 Anan v บุญมี, T2 สมชาย v มาลี, Chai bye
    events.publish(store, EV)
    store_results(store, [xw_result(1, EV, 1, 1, NAMES["3"], NAMES["4"], 380, 380),
                          xw_result(2, EV, 1, 2, NAMES["1"], NAMES["2"], 400, 350)])
    events.draw(store, EV, seed=6)              # round 2: T1 สมชาย v Chai, T2 Anan v บุญมี, มาลี bye
    events.publish(store, EV)
    store_results(store, [xw_result(3, EV, 2, 1, NAMES["1"], NAMES["5"], 300, 420),
                          xw_result(4, EV, 2, 2, NAMES["3"], NAMES["4"], 390, 350)])
    yield store
    store.close()


def published(store) -> dict[int, set]:
    """By round: {(table, left name, right name)} and {(None, bye name, None)} as published."""
    players = events.players_of(store, EV)
    out: dict[int, set] = {}
    for r in store.event_rounds(EV):
        out[r["round"]] = {(b["table"] if b["right"] else None, players[b["left"]].name,
                            players[b["right"]].name if b["right"] else None) for b in r["boards"]}
    return out


def test_the_published_rounds_as_hand_worked(two_rounds):
    assert published(two_rounds) == {
        1: {(1, "Anan Wong", NAMES["4"]), (2, NAMES["1"], NAMES["2"]), (None, "Chai Dee", None)},
        2: {(1, NAMES["1"], "Chai Dee"), (2, "Anan Wong", NAMES["4"]), (None, NAMES["2"], None)}}


def test_tsh_reads_back_the_published_pairings(two_rounds):
    (out,) = export_outputs(two_rounds, "tsh", event=EV)
    back = read_tsh(out.data.decode("utf-8"))
    for rnd, boards in published(two_rounds).items():
        got = set()
        for table, name, other, started in back[rnd]:
            if other is None:
                got.add((None, name, None))
            elif started:  # the left player started (the clocks' `first`): tsh's p12 1
                got.add((table, name, other))
        assert got == boards


def test_trf_reads_back_the_published_pairings(two_rounds):
    (out,) = export_outputs(two_rounds, "trf", event=EV)
    back = read_trf(out.data.decode("utf-8"))
    for rnd, boards in published(two_rounds).items():
        got = set()
        for name, other, colour in back[rnd]:
            if other is None:
                got.add((name, None))
            elif colour == "w":  # the left player moved first: white
                got.add((name, other))
        assert got == {(left, right) for _, left, right in boards}
