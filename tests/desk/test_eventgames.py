"""The desk's standings read only the results stored since its last look (issue 28, desk/eventgames.py).

Found by issue 28's profile (200 phones on a 500-player event): reading and JSON-decoding every stored
result again at each new result was most of the desk's time, and it grew with every result. The games
kept in memory must be exactly those a whole read gives, whatever the organiser did meanwhile: new
results, an amendment, a result moved or set aside, two results for one game, a withdrawn amendment, a
player renamed. Each step here compares them, and the standings computed from them, with a read from
scratch; and says which steps read only the new results."""
from __future__ import annotations

import random

from kit import xw

from gameclock.organiser import amendments
from gameclock.organiser.desk import views
from gameclock.organiser.desk.eventgames import EventGames
from gameclock.organiser.standings.games import games_from_summaries
from gameclock.organiser.store import Store


def same_as_from_scratch(kept: EventGames, store: Store, event: str = "t") -> list:
    games = kept.games(store, event)
    assert games == games_from_summaries(store.summaries(event=event))
    assert views.standings(store, event, games=games) == views.standings(store, event)
    return games


def places(store: Store, games: list) -> dict[str, int]:
    [table] = views.standings(store, "t", games=games)["tables"]
    return {r["player"]: int(r["place"]) for r in table["rows"]}


def test_the_games_kept_equal_a_whole_read_through_results_and_corrections(db):
    kept = EventGames()
    with Store(db) as store:
        # event t as conftest.event_t: Dao 1, Boon 2, Anan 3, Chai 4
        games = same_as_from_scratch(kept, store)
        assert (kept.full, kept.added) == (1, 0) and len(games) == 4
        # round 3, t1: Anan 400 v Chai 300 (XW-6 2 GP to Anan, XW-7 spread +100): Anan 4 GP +130 ahead of
        # Dao 4 GP +60; t2: Boon 350 v Dao 350 (XW-6 a draw: 1 GP each): Boon 3 GP, Dao 5 GP +60 first
        store.put_result(xw(5, "t", 3, 1, "Anan", "Chai", 400, 300), "0" * 64, "kid0", "test")
        store.put_result(xw(6, "t", 3, 2, "Boon", "Dao", 350, 350), "0" * 64, "kid0", "test")
        games = same_as_from_scratch(kept, store)
        assert (kept.full, kept.added) == (1, 1)                 # only the two new rows read
        assert places(store, games) == {"Dao": 1, "Anan": 2, "Boon": 3, "Chai": 4}
        # a result of another event changes nothing here, and is not read as this event's
        store.put_result(xw(7, "u", 1, 1, "Eak", "Fah", 300, 200), "0" * 64, "kid0", "test")
        assert len(same_as_from_scratch(kept, store)) == 6
        # an amendment (t3 t2 was 350-360 for Dao): the whole event read again, Dao 6 GP
        amended = xw(6, "t", 3, 2, "Boon", "Dao", 350, 350)
        n = store.add_amendment(amended["id"], amendments.for_record(amended, "right", {"left": 350, "right": 360}),
                                "slip", "o")
        full = kept.full
        games = same_as_from_scratch(kept, store)
        assert kept.full == full + 1 and next(g for g in games if g.id == amended["id"]).amended is not None
        # new results after it: read alone again, the amendment still applied to the one it amends
        added = kept.added
        store.put_result(xw(8, "t", 4, 1, "Chai", "Boon", 390, 300), "0" * 64, "kid0", "test")
        games = same_as_from_scratch(kept, store)
        assert kept.added == added + 1 and next(g for g in games if g.id == amended["id"]).winner == "right"
        # a second result for a game already in (t4 t1 again, another clock: counting.DOUBLE holds both):
        # the whole event read again, neither counts
        store.put_result(xw(9, "t", 4, 1, "Chai", "Boon", 380, 300), "0" * 64, "kid0", "test")
        full = kept.full
        games = same_as_from_scratch(kept, store)
        assert kept.full == full + 1 and {g.id for g in games if g.round == 4} == set()
        # set one aside: the other counts again
        store.add_amendment(xw(9, "t", 4, 1, "Chai", "Boon", 380, 300)["id"], {amendments.ASIDE: True}, "test", "o")
        games = same_as_from_scratch(kept, store)
        assert [g.id for g in games if g.round == 4] == [xw(8, "t", 4, 1, "Chai", "Boon", 390, 300)["id"]]
        # the amendment withdrawn: as the clock signed it again (a draw)
        store.withdraw_amendment(amended["id"], n, "it was right", "o")
        games = same_as_from_scratch(kept, store)
        assert next(g for g in games if g.id == amended["id"]).winner == "draw"


def test_a_seeded_day_of_results_and_amendments_equals_a_whole_read_at_every_step(db):
    """Fifty results in random rounds and tables (seeded), an amendment now and then, looked at after
    each: the games kept equal a whole read at every step, most of them read as new rows only."""
    rng = random.Random(28)
    names = ["Anan", "Boon", "Chai", "Dao", "Eak", "Fah", "Gun", "Hom"]
    kept = EventGames()
    with Store(db) as store:
        same_as_from_scratch(kept, store)
        for n in range(10, 60):
            a, b = rng.sample(names, 2)
            r = xw(n, "t", 3 + n // 4, n % 4 + 1, a, b, rng.randrange(250, 500), rng.randrange(250, 500))
            store.put_result(r, "0" * 64, "kid0", "test")
            if rng.random() < 0.15:
                store.add_amendment(r["id"], amendments.for_record(r, "left", {"left": 501, "right": 200}), "fix", "o")
            same_as_from_scratch(kept, store)
        assert kept.added > 30 and kept.full < 15


def test_memory_holds_at_most_keep_events(db):
    kept = EventGames(keep=1)
    with Store(db) as store:
        store.put_result(xw(7, "u", 1, 1, "Eak", "Fah", 300, 200), "0" * 64, "kid0", "test")
        assert len(kept.games(store, "t")) == 4 and len(kept.games(store, "u")) == 1
        assert list(kept._events) == ["u"]
