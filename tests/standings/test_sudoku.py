"""Sudoku standings (gameclock.organiser.standings.sudoku) of a hand-built two-round event: each round's score is
the record's final (SU-2 puzzle points plus the SU-3 bonus, given only when all were correct), the
total ranks, the top five go to the final (SU-4). Expected tables worked out by hand in the comments."""
from __future__ import annotations

from kit import games, preset, rec
from kit import su as su_event

from gameclock.organiser.standings import compute
from gameclock.organiser.standings.sudoku import standings


def su(n, *args, **kw) -> dict:
    """kit.su in event "su"."""
    return su_event(n, "su", *args, **kw)


# round 1: t1 Anong 80 + 27 bonus = 107, Bua 90;   t2 Chan 100 + 30 = 130, Duang 60
#          t3 Ead 70, Fon 95;                       t4 Gai 50, an empty seat (0)
# round 2: t1 Bua 100 + 15 = 115, Chan 40;          t2 Duang 85 + 12 = 97, Anong 50
#          t3 Fon 60, Gai 100 + 21 = 121;           t4 Ead 90, an empty seat
EVENT = [
    su(1, 1, 1, "Anong", "Bua", 80, 90, left_bonus=27),
    su(2, 1, 2, "Chan", "Duang", 100, 60, left_bonus=30),
    su(3, 1, 3, "Ead", "Fon", 70, 95),
    su(4, 1, 4, "Gai", None, 50, 0),
    su(5, 2, 1, "Bua", "Chan", 100, 40, left_bonus=15),
    su(6, 2, 2, "Duang", "Anong", 85, 50, left_bonus=12),
    su(7, 2, 3, "Fon", "Gai", 60, 100, right_bonus=21),
    su(8, 2, 4, "Ead", None, 90, 0),
]


def table(st) -> list[tuple]:
    return [(r.place, r.player, *(r.values[c] for c in st.columns)) for r in st.rows]


def test_two_rounds_a_shared_fifth_place_takes_six_to_the_final():
    st = standings(games(*EVENT), [], preset("sudoku-60"))
    assert (st.event, st.method, st.rules) == ("su", "sudoku", ["SU-2", "SU-3", "SU-4"])
    assert st.columns == ["R1", "R2", "Bonus", "Total", "Final"]
    # totals: Bua 90 + 115 = 205; Gai 50 + 121 = 171; Chan 130 + 40 = 170; Ead 70 + 90 = 160;
    # Anong 107 + 50 = 157; Duang 60 + 97 = 157; Fon 95 + 60 = 155.
    # Anong and Duang share 5th: both are in the top five (SU-4), six players in all.
    assert table(st) == [
        ("1", "Bua", 90, 115, 15, 205, "yes"),
        ("2", "Gai", 50, 121, 21, 171, "yes"),
        ("3", "Chan", 130, 40, 30, 170, "yes"),
        ("4", "Ead", 70, 90, 0, 160, "yes"),
        ("=5", "Anong", 107, 50, 27, 157, "yes"),
        ("=5", "Duang", 60, 97, 12, 157, "yes"),
        ("7", "Fon", 95, 60, 0, 155, None),
    ]
    assert st.notes == ["SU-4: a shared place puts 6 players in the top five (Bua, Gai, Chan, Ead, Anong, "
                        "Duang): the organiser decides who plays the final"]


def test_after_round_1_the_top_five_are_marked():
    st = compute(games(*EVENT), [], preset("sudoku-60"), round=1)
    # round 1 alone: Chan 130, Anong 107, Fon 95, Bua 90, Ead 70 | Duang 60, Gai 50 (SU-4: five)
    assert table(st) == [
        ("1", "Chan", 130, 30, 130, "yes"),
        ("2", "Anong", 107, 27, 107, "yes"),
        ("3", "Fon", 95, 0, 95, "yes"),
        ("4", "Bua", 90, 0, 90, "yes"),
        ("5", "Ead", 70, 0, 70, "yes"),
        ("6", "Duang", 60, 0, 60, None),
        ("7", "Gai", 50, 0, 50, None),
    ]
    assert st.notes == []   # the empty seats scored 0: nothing to say


def test_what_is_not_counted_is_named():
    pending = rec("clock5-000009", "su", 3, 1, "Anong", "Bua", None, scores=None, preset="sudoku-60",
                  kind="sudoku")
    nameless = su(10, 3, 2, "Chan", None, 40, 35)
    final = su(11, 4, 1, "Bua", "Gai", 120, 110, stage="final")
    st = standings(games(su(1, 1, 1, "Anong", "Bua", 80, 90, left_bonus=27), pending, nameless, final),
                   [], preset("sudoku-60"))
    # counted: round 1 (Anong 107, Bua 90) and Chan's 40 in round 3; round 3's table 1 has no result
    assert table(st) == [
        ("1", "Anong", 107, None, 27, 107, "yes"),
        ("2", "Bua", 90, None, 0, 90, "yes"),
        ("3", "Chan", None, 40, 0, 40, "yes"),
    ]
    assert st.notes == [
        "no result yet, not counted: round 3 table 1 (clock5-000009)",
        "not counted, a competitor has no name: round 3 table 2 (clock5-000010) right scored 35",
        "final stage, not counted here: round 4 table 1 (clock5-000011) Bua 120, Gai 110",
    ]


def test_records_without_a_winner_or_game_points_are_counted_by_their_scores():
    # Sudoku records carry no winner and no game points (outcome null, scores.game_points null): the
    # competitors are not opponents, the final scores are the result (SU-2, SU-3). The event above with
    # both taken out ranks exactly as worked out in the first test: Bua 205, Gai 171, Chan 170, Ead 160,
    # Anong and Duang 157 (shared 5th), Fon 155.
    bare = [dict(r, outcome=None, reason=None, scores=dict(r["scores"], game_points=None)) for r in EVENT]
    assert all(g.winner is None for g in games(*bare))
    st = standings(games(*bare), [], preset("sudoku-60"))
    assert [(r.place, r.player, r.values["Total"], r.values["Final"]) for r in st.rows] == [
        ("1", "Bua", 205, "yes"), ("2", "Gai", 171, "yes"), ("3", "Chan", 170, "yes"), ("4", "Ead", 160, "yes"),
        ("=5", "Anong", 157, "yes"), ("=5", "Duang", 157, "yes"), ("7", "Fon", 155, None)]
    assert not any("no result yet" in n for n in st.notes)
    # through compute (the command's path), after round 1: Chan 130, Anong 107, Fon 95, Bua 90, Ead 70, ...
    st = compute(games(*bare), [], preset("sudoku-60"), round=1)
    assert [(r.player, r.values["Total"]) for r in st.rows][:3] == [("Chan", 130), ("Anong", 107), ("Fon", 95)]
    # a record without its final scores still has no result: not counted, named
    pending = rec("clock5-000012", "su", 3, 1, "Anong", "Bua", None, scores=None, points=None, preset="sudoku-60",
                  kind="sudoku")
    st = standings(games(bare[0], pending), [], preset("sudoku-60"))
    assert [(r.player, r.values["Total"]) for r in st.rows] == [("Anong", 107), ("Bua", 90)]
    assert st.notes == ["no result yet, not counted: round 3 table 1 (clock5-000012)"]
