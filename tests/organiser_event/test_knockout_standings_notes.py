"""The standings' knockout notes of an event the PC pairs (issue 25: "the standings note then says 'goes
through' after one game"): each match as the event's pairing system reads it -- the bracket the event
keeps, a match decided only when its rule says so -- through the desk's path (Pair with a new random
seed, Publish, each board's result stored as the receiver stores it) and read as the desk's standings
page and `gameclock standings` read it (`event_standings`)."""
from __future__ import annotations

import pytest
from playkit import new_event, pair_and_publish, play

from gameclock.organiser.standings.commands import event_standings
from gameclock.organiser.store import Store

MS = 600_000


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pc.db")
    yield s
    s.close()


def knockout_notes(store, name: str, rnd: int | None = None) -> list[str]:
    (st,) = event_standings(store, name, rnd)
    return [n for n in st.notes if n.startswith(("semi-final", "final", "third place", "quarter-final", "knockout"))]


def said(note: str, where: str, x: str, y: str, px: int, py: int, games: int) -> bool:
    """Whether `note` is match `where`'s with x's and y's game points after `games` (either player first:
    the note says them in the bracket's order)."""
    return (note.startswith(f"{where}: Player {x} {px}-{py} Player {y} ({games} game(s)): ")
            or note.startswith(f"{where}: Player {y} {py}-{px} Player {x} ({games} game(s)): "))


def starter_wins(b) -> str:
    """Every game won by the player who started the match's game 1 (game 2 swaps the sides)."""
    return "left" if b["game"] % 2 == 1 else "right"


def test_mr12_one_game_played_is_not_a_match_decided(store):
    """MR-12 (seed 003 Makruk §1 and note): a match is 2 games. Round 1 = game 1 of each semi-final,
    published and played (the starter wins): 2-0 after one game decides nothing, game 2 comes next
    with the sides swapped. Round 2 = game 2, won by the same player: 4-0 after 2 games: through."""
    new_event(store, "ko", "makruk-ko", "WXYZ", preset="makruk-30")
    r1 = pair_and_publish(store, "ko")
    play(store, "ko", r1, starter_wins, kind="makruk")
    notes = knockout_notes(store, "ko")
    starts = {b["table"]: (b["left"], b["right"]) for b in r1["boards"]}
    assert not any("goes through" in n for n in notes), notes
    for t, (x, y) in starts.items():
        assert any(said(n, f"semi-final {t}", x, y, 2, 0, 1) and n.endswith(
            ": not decided yet; next, game 2: game 2 of 2, sides swapped") for n in notes), notes
    r2 = pair_and_publish(store, "ko")
    play(store, "ko", r2, starter_wins, kind="makruk")
    notes = knockout_notes(store, "ko")
    for t, (x, y) in starts.items():
        assert any(said(n, f"semi-final {t}", x, y, 4, 0, 2) and n.endswith(f": Player {x} goes through")
                   for n in notes), notes
    # the standings after round 1 (--round 1) read the bracket as it was then
    assert not any("goes through" in n for n in knockout_notes(store, "ko", 1))


def test_mh8_five_games_won_are_not_six(store):
    """MH-8 (seed 004 §3.9.2): a match is 6 games ("แข่งขันจำนวน 6 กระจาด"). The player who started game 1
    wins games 1-5: 10-0 after 5 decides nothing yet (the system pairs game 6); after game 6, 12-0: through."""
    new_event(store, "mh", "makhos-ko", "ABCD", preset="makhos-30")
    rnd = pair_and_publish(store, "mh")
    starts = {b["table"]: (b["left"], b["right"]) for b in rnd["boards"]}
    for game in range(1, 6):
        if game > 1:
            rnd = pair_and_publish(store, "mh")
        play(store, "mh", rnd, lambda b: (starter_wins(b), None, (MS, MS)))
        notes = knockout_notes(store, "mh")
        assert not any("goes through" in n for n in notes), (game, notes)
        assert all(any(said(n, f"semi-final {t}", x, y, 2 * game, 0, game) and "not decided yet" in n
                       for n in notes) for t, (x, y) in starts.items()), notes
    play(store, "mh", pair_and_publish(store, "mh"), lambda b: (starter_wins(b), None, (MS, MS)))
    notes = knockout_notes(store, "mh")
    for t, (x, y) in starts.items():
        assert any(said(n, f"semi-final {t}", x, y, 12, 0, 6) and n.endswith(f": Player {x} goes through")
                   for n in notes), notes
