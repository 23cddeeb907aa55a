"""tsh `.t` export (DESIGN.md §6): every line parses with tsh's own pattern and reads back to the
opponents and scores the games say, worked out by hand (XW-3 overtime-adjusted scores, XW-9 byes
+100 and +50 in primary-school Crossword, p12 from the record's `first`, board = table); Thai names
in windows-874; what tsh cannot hold is refused naming the player."""
from __future__ import annotations

import pytest
from exportkit import (
    EVENT_3_TSH,
    EVENT_9_PRIMARY_TSH,
    EVENT_9_SECONDARY_TSH,
    crossword_event_3,
    crossword_event_9,
    makruk_event,
    read_tsh,
    xw,
)
from kit import bye

from gameclock.organiser.exports import ExportError, divisions, tsh
from gameclock.organiser.standings.games import games_from_records


def files(records, byes=(), encoding="utf-8", warnings=None) -> dict[str, bytes]:
    return tsh.export(divisions(games_from_records(records), byes), encoding, warnings)


def test_event_3_lines_are_the_hand_worked_ones():
    records, byes = crossword_event_3()
    out = files(records, byes)
    assert list(out) == ["3.t"]
    assert out["3.t"].decode("utf-8").splitlines() == EVENT_3_TSH


def test_every_line_reads_back_to_the_games_opponents_and_scores():
    """Read with tsh's pattern (exportkit.read_tsh), each player's opponents and scores are what the
    games and byes say, round by round."""
    records, byes = crossword_event_3()
    players = read_tsh(files(records, byes)["3.t"].decode("utf-8"))
    name_of = {p["id"]: p["name"] for p in players}
    by_round: dict[tuple[int, str], tuple[str | None, int]] = {}
    for r in records:
        left, right = r["players"]["left"], r["players"]["right"]
        final = r["scores"]["final"]
        by_round[(r["round"], left)] = (right, final["left"])
        by_round[(r["round"], right)] = (left, final["right"])
    for b in byes:
        by_round[(b.round, b.player)] = (None, 100)          # XW-9: a bye is +100 (secondary)
    for p in players:
        assert p["rating"] == "0" and len(p["opps"]) == len(p["scores"]) == 2
        for rnd, (opp, score) in enumerate(zip(p["opps"], p["scores"], strict=False), start=1):
            want_opp, want_score = by_round[(rnd, p["name"])]
            assert (name_of.get(opp), score) == (want_opp, want_score), (p["name"], rnd)
    # XW-3: Somchai's round-2 score is the board's 412 less 4 started minutes of overtime (3:18)
    somchai = next(p for p in players if p["name"] == "Somchai")
    assert somchai["scores"][1] == 412 - 40
    # p12 from `first`; board = the table, 0 for a bye
    malee = next(p for p in players if p["name"] == "Malee")
    assert malee["p12"] == [0, 2] and malee["board"] == [0, 14]


def test_byes_are_worth_100_and_50_in_primary_crossword():
    # XW-9: a bye is a win worth +100 spread; primary-school Crossword bye +50. Event 9 was played at
    # two levels: one .t per level, named EVENT-LEVEL.
    records, byes = crossword_event_9()
    out = files(records, byes)
    assert sorted(out) == ["9-primary.t", "9-secondary.t"]
    assert out["9-primary.t"].decode().splitlines() == EVENT_9_PRIMARY_TSH
    assert out["9-secondary.t"].decode().splitlines() == EVENT_9_SECONDARY_TSH
    for text in (out["9-primary.t"].decode(), out["9-secondary.t"].decode()):
        for p in read_tsh(text):
            for opp, score in zip(p["opps"], p["scores"], strict=False):
                if opp == 0:
                    assert score == (50 if text.startswith("Dao") else 100)


def test_thai_names_in_windows_874_round_trip():
    records = [xw(1, "th", 1, 1, "สมชาย ใจดี", "มาลี ศรีสุข", 401, 399, "right"),
               xw(2, "th", 1, 2, "ประเสริฐ วงศ์ใหญ่", "วิชัย", 350, 380, "left")]
    data = files(records, encoding="windows-874")["th.t"]
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # really windows-874: one byte a Thai letter
    players = read_tsh(data.decode("cp874"))
    assert [(p["name"], p["opps"], p["scores"], p["p12"]) for p in players] == [
        ("สมชาย ใจดี", [2], [401], [2]), ("มาลี ศรีสุข", [1], [399], [1]),
        ("ประเสริฐ วงศ์ใหญ่", [4], [350], [1]), ("วิชัย", [3], [380], [2])]
    assert files(records)["th.t"].decode("utf-8") == data.decode("cp874")  # the same text in UTF-8


def test_a_name_windows_874_cannot_hold_is_refused_naming_the_player():
    records = [xw(1, "e", 1, 1, "Anan", "王小明", 401, 399, "left")]
    with pytest.raises(ExportError, match=r"e: player 2 '王小明' cannot be written in windows-874 "
                                          r"\(character '王'\): use --encoding utf-8"):
        files(records, encoding="windows-874")


@pytest.mark.parametrize("name", ["Team 2", "Bee #1", "Cat 1.5"])
def test_a_name_tsh_would_not_read_back_is_refused(name):
    # "Team 2 0 1; ..." reads as the name "Team" rated 2 with opponents 0 1; '#' starts a comment
    records = [xw(1, "e", 1, 1, "Anan", name, 401, 399, "left")]
    with pytest.raises(ExportError, match=rf"e: player 2 {name!r}"):
        files(records)


def test_a_round_without_a_game_or_a_bye_is_refused_naming_it():
    # tsh has no notation for it: Malee's round-1 bye was never loaded (and Boon's round 2)
    records, _ = crossword_event_3()
    with pytest.raises(ExportError) as exc:
        files(records)
    assert str(exc.value) == ("3: no result and no bye for Boon in round 2, Malee in round 1 (a result not "
                              "received yet? dock the clock, or load the bye with the round's pairings; "
                              "--round N exports the rounds before)")


def test_a_player_twice_in_a_round_is_refused():
    records, byes = crossword_event_3()
    with pytest.raises(ExportError, match=r"^3: a player twice in one round: Malee in round 1: "
                                          r"result clock1-000009 \(round 1, table 9\) and a bye in round 1$"):
        files(records + [xw(9, "3", 1, 9, "Malee", "Zed", 300, 200, "left")], byes)


def test_other_kinds_games_without_scores_or_names_are_refused():
    with pytest.raises(ExportError, match=r"^mk: tsh is for the crossword family; these results are makruk "
                                          r"\(export trf or csv\)$"):
        files(makruk_event())
    records = [xw(1, "e", 1, 1, "Anan", "Boon", 300, 200, "left")]
    records[0]["scores"]["final"] = None                    # no result entered
    with pytest.raises(ExportError, match=r"^e: tsh needs both players' scores, and result clock1-000001 "
                                          r"\(round 1, table 1\) \(crossword\) has none"):
        files(records)
    records, byes = crossword_event_3()
    records[0]["players"]["right"] = None
    with pytest.raises(ExportError, match=r"tsh needs the players' names; the clock recorded none in "
                                          r"result clock1-000001 \(round 1, table 1\)"):
        files(records, byes)


def test_an_outcome_that_disagrees_with_the_scores_is_a_warning():
    records = [xw(1, "e", 1, 1, "Anan", "Boon", 0, 0, "left")]
    records[0]["outcome"], records[0]["reason"] = "left", "forfeit"
    warnings: list[str] = []
    assert files(records, warnings=warnings)["e.t"].decode().splitlines() == [
        "Anan 0 2; 0; p12 1; board 1", "Boon 0 1; 0; p12 2; board 1"]
    assert warnings == ["e: result clock1-000001 (round 1, table 1) was won by left (forfeit) but its "
                        "scores are 0-0: tsh will count it by the scores"]


def test_a_game_nobody_started_has_p12_4():
    # the clock's `first` is null when the game ended before anyone's clock ran (tsh: indeterminate)
    records = [xw(1, "e", 1, 1, "Anan", "Boon", 50, 0, None)]
    assert files(records)["e.t"].decode().splitlines() == ["Anan 0 2; 50; p12 4; board 1",
                                                            "Boon 0 1; 0; p12 4; board 1"]


def test_ids_follow_first_appearance_by_round_table_and_side():
    # round 1: table 1 Dog (left) v Ant, table 2 Bee v Cat; Yai and Zed first appear as round-1
    # byes (by name); Eel and Fox first play in round 2 (table 3)
    records = [xw(1, "e", 1, 2, "Bee", "Cat", 300, 200, "left"), xw(2, "e", 1, 1, "Dog", "Ant", 300, 200, "left"),
               xw(3, "e", 2, 1, "Bee", "Zed", 300, 200, "left"), xw(4, "e", 2, 2, "Dog", "Cat", 300, 200, "left"),
               xw(5, "e", 2, 3, "Fox", "Eel", 300, 200, "left")]
    d = divisions(games_from_records(records), [bye("e", 1, "Zed"), bye("e", 1, "Yai"), bye("e", 2, "Ant"),
                                                 bye("e", 2, "Yai")])
    assert d[0].players == ["Dog", "Ant", "Bee", "Cat", "Yai", "Zed", "Fox", "Eel"]


def test_a_random_swiss_event_reads_back_line_by_line():
    """The standings bench's synthetic event (60 players, 6 rounds, Thai and English names, XW-3
    penalties on about one side in eight, two byes a round): every line parses with tsh's pattern
    and reads back to each round's opponent and final score (entered less the penalty), byes +100."""
    from bench.standings import tournament

    records, bye_rows = tournament(60, 6, seed=11)
    byes = [bye(b["event"], b["round"], b["player"]) for b in bye_rows]
    (data,) = files(records, byes).values()
    players = read_tsh(data.decode("utf-8"))
    assert len(players) == 60
    id_of = {p["name"]: p["id"] for p in players}
    want: dict[tuple[str, int], tuple[int, int]] = {}
    penalised = 0
    for r in records:
        for side, other in (("left", "right"), ("right", "left")):
            entered, penalty = r["scores"]["entered"][side], r["scores"]["penalties"][side]
            penalised += penalty > 0
            want[(r["players"][side], r["round"])] = (id_of[r["players"][other]], entered - penalty)
    for b in byes:
        want[(b.player, b.round)] = (0, 100)
    assert penalised > 0
    for p in players:
        assert [(o, s) for o, s in zip(p["opps"], p["scores"], strict=False)] == [want[(p["name"], n)] for n in range(1, 7)]


def test_byes_of_an_event_without_results_are_left_out():
    # event 4's first pairings are loaded (with a bye) but none of its results is in: event 3 exports
    records, byes = crossword_event_3()
    out = files(records, byes + [bye("4", 1, "Nok")])
    assert list(out) == ["3.t"] and out["3.t"].decode().splitlines() == EVENT_3_TSH
