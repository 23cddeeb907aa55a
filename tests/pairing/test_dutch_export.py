"""A round paired by the Dutch system, played, exported as TRF16 (organiser/exports/trf.py) and read
back by TRF16's own columns (tests/pairing/trfkit.py, independent of the exporter): each round's
boards -- White (the side that moved first), Black, the bye as `0000 - U` -- are the draft's."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "standings"))

from kit import bye, rec  # noqa: E402
from trfkit import read_trf  # noqa: E402

from gameclock.organiser.exports import divisions, trf  # noqa: E402
from gameclock.organiser.pairing.dutch import pair  # noqa: E402
from gameclock.organiser.pairing.model import EventState, Game, Player  # noqa: E402
from gameclock.organiser.standings.games import games_from_records  # noqa: E402

NAMES = ["Anan", "Boon", "Chai", "Daeng", "Ek"]


def test_dutch_rounds_exported_to_trf_read_back():
    players = tuple(Player(n, n, rating=2000 - 100 * i) for i, n in enumerate(NAMES))
    games: list[Game] = []
    records: list[dict] = []
    byes = []
    drafts = []
    for rnd in (1, 2, 3):
        draft = pair(EventState(players, tuple(games), rounds=3, options={"initial_colour": "white"}), rnd, 0)
        drafts.append(draft)
        for b in draft.boards:
            if b.right is None:
                games.append(Game(rnd, b.left, None, 1.0))
                byes.append(bye("open", rnd, b.left))
                continue
            winner = "left" if NAMES.index(b.left) < NAMES.index(b.right) else "right"   # the favourite wins
            games.append(Game(rnd, b.left, b.right, 1.0 if winner == "left" else 0.0, table=b.table))
            records.append(rec(f"c-{len(records) + 1}", "open", rnd, b.table, b.left, b.right, winner,
                               first="left", preset="makruk-45", kind="makruk"))
    out = trf.export(divisions(games_from_records(records), byes))
    t = read_trf(out["open.trf"].decode("utf-8"))
    name = {str(rank): t.names[rank] for rank in t.ranks}
    assert sorted(name.values()) == sorted(NAMES)
    for draft in drafts:
        read = {(name[w], None if b is None else name[b]) for w, b in t.pairs(draft.round)}
        assert read == {(b.left, b.right) for b in draft.boards}
        assert sum(1 for b in draft.boards if b.right is None) == 1     # five players: one bye a round
