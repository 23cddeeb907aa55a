"""Exports of an event the PC pairs (issue 26): the ratings of the event's player list are carried to
tsh's rating column and TRF16's (columns 49-52), and file names keep their Thai marks.

Found by an organiser's day at the desk: every rating was written as 0 (the clocks know none, and
the exports read only the clocks' records), and `ครอสเวิร์ด-ม.ปลาย-2568.t` came out as
`ครอสเว_ร_ด-ม.ปลาย-2568.t` (a Thai vowel or tone mark is not a "word" character to Python's `\\w`)."""
from __future__ import annotations

from exportkit import makruk_event, xw

from gameclock.organiser import event as events
from gameclock.organiser.exports import file_stem
from gameclock.organiser.exports.commands import export_outputs
from gameclock.organiser.pairing.model import Player
from gameclock.organiser.store import Store

THAI_EVENT = "ครอสเวิร์ด-ม.ปลาย-2568"


def event_with_ratings(store: Store, name: str, system: str, ratings: dict[str, int]) -> None:
    players = [Player(id=str(i), name=n, rating=r) for i, (n, r) in enumerate(ratings.items(), start=1)]
    events.create_event(store, name, system, events.PlayerList(players))


def test_tsh_carries_the_event_lists_ratings(tmp_path):
    with Store(tmp_path / "pc.db") as store:
        # the event's list: Anan 1850, Boon 1620, Chai unrated (0), Dao 2010
        event_with_ratings(store, "x", "xw10", {"Anan": 1850, "Boon": 1620, "Chai": 0, "Dao": 2010})
        for r in (xw(1, "x", 1, 1, "Anan", "Boon", 420, 380, "left"), xw(2, "x", 1, 2, "Chai", "Dao", 300, 350, "right")):
            assert store.put_result(r, "0" * 64, "kid0", "test") == "stored"
        (out,) = export_outputs(store, "tsh", "x")
    # tsh: NAME RATING OPPS; SCORES; p12 ...; board ...  (ids by first appearance: Anan 1, Boon 2, Chai 3, Dao 4)
    assert out.data.decode().splitlines() == ["Anan 1850 2; 420; p12 1; board 1", "Boon 1620 1; 380; p12 2; board 1",
                                              "Chai 0 4; 300; p12 2; board 2", "Dao 2010 3; 350; p12 1; board 2"]


def test_trf_carries_the_event_lists_ratings_in_columns_49_to_52(tmp_path):
    with Store(tmp_path / "pc.db") as store:
        event_with_ratings(store, "mk", "makruk-rr", {"Arun": 1432, "Bua": 987, "Chan": 2104, "Dee": 0})
        for r in makruk_event():
            assert store.put_result(r, "0" * 64, "kid0", "test") == "stored"
        (out,) = export_outputs(store, "trf", "mk")
    lines = out.data.decode().split("\r\n")
    # TRF16: the rating right-aligned in columns 49-52 (1-based); 0 for a player without one
    ratings = {line[14:47].rstrip(): line[48:52] for line in lines if line.startswith("001")}
    assert ratings == {"Arun": "1432", "Bua": " 987", "Chan": "2104", "Dee": "   0"}


def test_a_thai_event_names_its_files_with_every_mark_kept(tmp_path):
    assert file_stem(THAI_EVENT) == THAI_EVENT
    assert file_stem("ก/ข:ค") == "ก_ข_ค"            # a path's separators still are not
    with Store(tmp_path / "pc.db") as store:
        for r in (xw(1, THAI_EVENT, 1, 1, "อนันต์", "บุญ", 420, 380, "left"),):
            assert store.put_result(r, "0" * 64, "kid0", "test") == "stored"
        names = [o.name for fmt in ("tsh", "trf", "csv", "jsonl") for o in export_outputs(store, fmt, THAI_EVENT)]
    assert names == [f"{THAI_EVENT}.t", f"{THAI_EVENT}.trf", f"{THAI_EVENT}.csv", f"{THAI_EVENT}.jsonl"]
