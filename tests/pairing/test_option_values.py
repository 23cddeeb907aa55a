"""Option values as organiser/pairing/options.py reads and writes them (issue 25): the text of `--option`
and of the desk's fields typed, written back the same way, and the rules for when an option may still
change, worked by hand from the rules the declarations cite."""
from __future__ import annotations

import pytest

from gameclock.organiser.pairing import options as schema
from gameclock.organiser.pairing.model import Player

WHO = schema.Entrants(tuple(Player(i, i) for i in ("P1", "P2", "P3", "P4")))


def published(*boards: tuple[int, str, str | None, int, str]) -> tuple[dict, ...]:
    """Published rounds from (round, left, right, game, note) boards."""
    rounds: dict[int, list[dict]] = {}
    for rnd, left, right, game, note in boards:
        rounds.setdefault(rnd, []).append({"table": len(rounds.get(rnd, [])) + 1, "left": left, "right": right,
                                           "game": game, "note": note})
    return tuple({"round": r, "boards": b} for r, b in sorted(rounds.items()))


@pytest.mark.parametrize(("system", "name", "text", "value"), [
    ("makruk-rr", "order", "p3 P1\nP4,,P2", ["P3", "P1", "P4", "P2"]),   # ids in any case, any separator
    ("makruk-rr", "lot_seed", "42", 42),
    ("makruk-ko", "third_place", "Yes", True),
    ("makruk-ko", "lots", "P3>P1, P4 > P2", {"P3 v P1": "P3", "P4 v P2": "P4"}),
    ("makruk-ko", "lots", "P3,P1,P4,P2", {"P3 v P1": "P3", "P4 v P2": "P4"}),
    ("makhos-ko", "gives_first", "P2>P4", {"P2 v P4": "P2"}),
    ("makhos-groups", "tiebreak", "P1-P2-P3,P4+p2", None),                  # P2 twice: refused below
    ("makhos-groups", "tiebreak", "P1-P2-P3", [["P1", "P2", "P3"]]),
    ("dutch", "initial_colour", "Black", "black"),
])
def test_a_text_is_typed_and_written_back(system, name, text, value):
    o = schema.option_of(system, name)
    if value is None:
        with pytest.raises(schema.OptionError, match=r"^option tiebreak: P2 is in two lists$"):
            o.parse(text, WHO)
        return
    assert o.parse(text, WHO) == value
    assert o.parse(o.text(value), WHO) == value          # what show and the form print reads back the same
    assert o.parse("", WHO) is None                         # empty: not given


def test_ids_holding_a_dash_are_told_apart_by_the_event_s_ids():
    who = schema.Entrants(tuple(Player(i, i) for i in ("A-1", "A", "1", "B")))
    o = schema.option_of("makhos-groups", "tiebreak")
    with pytest.raises(schema.OptionError, match=r"^option tiebreak: 'A-1-B' reads two ways: join its ids with \+ "
                                                 r"instead$"):
        o.parse("A-1-B", who)   # A-1 and B, or A, 1 and B
    assert o.parse("A-1+B", who) == [["A-1", "B"]]
    assert o.parse("A-B", who) == [["A", "B"]]
    # written back with + when an id of the event holds a -, so that it reads back the one way
    value = [["A-1", "B"], ["A", "1"]]
    assert o.text(value, who) == "A-1+B,A+1" and o.parse(o.text(value, who), who) == value
    assert o.text([["A", "B"]], who) == "A+B" and o.text([["A", "B"]]) == "A-B"


def test_a_lot_changes_only_before_round_1_is_published():
    o = schema.option_of("makruk-rr", "order")
    assert o.when.refuse(None, ["P1"], WHO) is None
    who = schema.Entrants(WHO.players, rounds=published((1, "P1", "P2", 1, "")))
    assert o.when.refuse(None, ["P1"], who) == "round 1 is published: the lot it drew cannot change"


def test_xw10_s_change_overs_are_set_until_round_5():
    # XW-10: games 3 and 5 are the change-overs, game 5 or 6 King of the Hill: round 5 decides the last use
    o = schema.option_of("xw10", "table_group")
    four = schema.Entrants(WHO.players, rounds=published(*[(r, "P1", "P2", 1, "") for r in (1, 2, 3, 4)]))
    five = schema.Entrants(WHO.players, rounds=published(*[(r, "P1", "P2", 1, "") for r in (1, 2, 3, 4, 5)]))
    assert o.when.refuse(2, 4, four) is None
    assert o.when.refuse(2, 4, five) == "round 5 is published: the change-overs are paired"


def test_sudoku_keeps_its_published_qualifying_rounds_and_final():
    # SU-1: 2 qualifying rounds by default, round 3 the final (SU-4)
    q, f = schema.option_of("sudoku", "qualifying_rounds"), schema.option_of("sudoku", "finalists")
    two = schema.Entrants(WHO.players, rounds=published((1, "P1", "P2", 1, ""), (2, "P1", "P2", 1, "")))
    assert q.when.refuse(None, 3, two) is None               # a third qualifying round: round 3 not out yet
    assert q.when.refuse(None, 1, two) == "round 2 is published as a qualifying round: give 2 or more"
    assert f.when.refuse(None, 8, two) is None
    three = schema.Entrants(WHO.players, rounds=two.rounds + published((3, "P1", None, 1, "alone")))
    assert q.when.refuse(None, 3, three) == "round 3, the final, is published: the qualifying rounds cannot change"
    assert f.when.refuse(None, 8, three) == "round 3, the final, is published: its finalists cannot change"
    # with 3 qualifying rounds (given with it), round 3 is a qualifying one: the finalists may change
    longer = schema.Entrants(WHO.players, rounds=three.rounds, options={"qualifying_rounds": 3})
    assert f.when.refuse(None, 8, longer) is None


def test_the_third_place_match_once_published_stays():
    o = schema.option_of("makruk-ko", "third_place")
    final = schema.Entrants(WHO.players, rounds=published((3, "P1", "P2", 1, "final: game 1 of 2"),
                                                          (3, "P3", "P4", 1, "third place: game 1 of 2")))
    assert o.when.refuse(None, True, final) is None           # switched on later: paired next
    assert o.when.refuse(True, False, final) == "round 3 is published with the third-place match: it cannot be taken back"
    assert o.when.refuse(True, False, WHO) is None


def test_typed_values_are_checked_like_texts():
    o = schema.option_of("makruk-ko", "lots")
    assert o.check({"P1 v P3": "p3"}, WHO) == {"P3 v P1": "P3"}       # the winner written first
    with pytest.raises(schema.OptionError, match=r"^option lots: P1 v P3: P2 is not one of them$"):
        o.check({"P1 v P3": "P2"}, WHO)
    with pytest.raises(schema.OptionError, match=r"^option lots: 'P1-P3' is not a match 'A v B'$"):
        o.check({"P1-P3": "P1"}, WHO)
    with pytest.raises(schema.OptionError, match=r"^option lots: give it as P3>P1,P4>P2$"):
        o.check(["P1", "P3"], WHO)
    withdrawn = schema.Entrants(WHO.players, withdrawn=frozenset({"P4"}))
    # MR-10: a withdrawn player's number stays in the order (their opponents have a bye); a bracket's seeds
    # are the players who play
    assert schema.option_of("makruk-rr", "order").check(["P1", "P2", "P3"], withdrawn) == ["P1", "P2", "P3"]
    assert schema.option_of("makruk-rr", "order").check(["P1", "P4", "P2", "P3"], withdrawn) == ["P1", "P4", "P2", "P3"]
    with pytest.raises(schema.OptionError, match=r"^option seeds: P4 has withdrawn$"):
        schema.option_of("makruk-ko", "seeds").check(["P1", "P4", "P2", "P3"], withdrawn)
    with pytest.raises(schema.OptionError, match=r"^option third_place: 1 is not true or false$"):
        schema.option_of("makruk-ko", "third_place").check(1, WHO)
    with pytest.raises(schema.OptionError, match=r"^option groups: True is not a whole number from 1 to 2$"):
        schema.option_of("makhos-groups", "groups").check(True, WHO)
    with pytest.raises(schema.OptionError, match=r"^option order: more than 5000 items$"):
        schema.option_of("makruk-rr", "order").parse(",".join(["P1"] * 5001), WHO)
