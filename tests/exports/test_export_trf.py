"""FIDE TRF16 export (DESIGN.md §6): each field in its columns, sliced by the column numbers
DESIGN.md §6 gives (start rank 5-8, name 15-47, rating 49-52, points 81-84, rank 86-89, then
10-column round blocks from 92: opponent, colour, result), compared with values worked out by hand:
a Makruk round robin with a forfeit and draws ranked by MR-10 (MP, then head-to-head), a `U` bye
block, `--absent`'s `Z`, Thai names in windows-874."""
from __future__ import annotations

import pytest
from exportkit import crossword_event_3, makruk_event, mk
from kit import bye, rec

from gameclock.organiser.exports import ExportError, divisions, trf
from gameclock.organiser.standings import compute
from gameclock.organiser.standings.games import games_from_records
from gameclock.rules.loader import find_preset


def cols(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive), as TRF16 numbers them."""
    return line[first - 1:last]


def round_block(line: str, n: int) -> tuple[str, str, str]:
    """Round n's opponent (92-95 for round 1), colour (97) and result (99); 10 columns a round."""
    at = 92 + 10 * (n - 1)
    return cols(line, at, at + 3), cols(line, at + 5, at + 5), cols(line, at + 7, at + 7)


def export_lines(records, byes=(), absent=False, encoding="utf-8") -> dict[str, list[str]]:
    out = trf.export(divisions(games_from_records(records), byes), encoding, absent)
    codec = {"utf-8": "utf-8", "windows-874": "cp874"}[encoding]
    return {name: data.decode(codec).split("\r\n") for name, data in out.items()}


def player_lines(lines: list[str]) -> dict[str, str]:
    return {cols(line, 15, 47).rstrip(): line for line in lines if line.startswith("001")}


def test_makruk_round_robin_in_trf_columns():
    out = export_lines(makruk_event())
    assert list(out) == ["mk.trf"]
    lines = out["mk.trf"]
    assert lines[:3] == ["012 mk", "062 4", "XXR 3"] and lines[-1] == ""   # every line ends CR LF
    players = player_lines(lines)
    assert list(players) == ["Arun", "Bua", "Chan", "Dee"]
    # Hand-worked. Start ranks by first appearance: round 1 table 1 Arun, Bua; table 2 Chan, Dee.
    # FIDE points: win 1 (also by forfeit), draw 0.5, loss 0:
    #   Arun: beat Bua, lost to Chan, drew Dee            = 1.5     MP 2 + 0 + 1 = 3
    #   Bua: lost to Arun, forfeited to Dee, beat Chan   = 1.0     MP 2
    #   Chan: drew Dee, beat Arun, lost to Bua            = 1.5     MP 3
    #   Dee: drew Chan, won Bua's forfeit, drew Arun      = 2.0     MP 4
    # MR-10: MP, then head-to-head: Dee 1; Arun and Chan 3 MP each, Chan beat Arun: Chan 2, Arun 3;
    # Bua 4. Colours: the side that moved first is white; the forfeit (no clock ran) has none.
    want = {  # name: (start rank, points, rank, [(opponent, colour, result) per round])
        "Arun": (1, " 1.5", 3, [("   2", "w", "1"), ("   3", "b", "0"), ("   4", "b", "=")]),
        "Bua": (2, " 1.0", 4, [("   1", "b", "0"), ("   4", "-", "-"), ("   3", "w", "1")]),
        "Chan": (3, " 1.5", 2, [("   4", "b", "="), ("   1", "w", "1"), ("   2", "b", "0")]),
        "Dee": (4, " 2.0", 1, [("   3", "w", "="), ("   2", "-", "+"), ("   1", "w", "=")]),
    }
    for name, (start, points, rank, rounds) in want.items():
        line = players[name]
        assert cols(line, 1, 3) == "001" and cols(line, 4, 4) == " "
        assert cols(line, 5, 8) == f"{start:4d}"
        assert cols(line, 15, 47) == name.ljust(33)
        assert cols(line, 49, 52) == "   0"                       # the clocks know no ratings
        assert cols(line, 81, 84) == points
        assert cols(line, 86, 89) == f"{rank:4d}"
        assert cols(line, 90, 91) == "  "
        assert [round_block(line, n) for n in (1, 2, 3)] == rounds
        assert len(line) == 99 + 20                                  # three blocks, nothing after
    # the ranks are the standings' own (MR-10)
    st = compute(games_from_records(makruk_event()), [], find_preset("makruk-45"), event="mk")
    assert {r.player: r.rank for r in st.rows} == {n: w[2] for n, w in want.items()}


def test_a_pairing_bye_is_a_U_block_with_opponent_0000():
    # round 1: Arun beats Bua (table 1), Chan has the bye; round 2: Chan (left, first) beats Arun, Bua
    # has the bye. Byes: opponent 0000, no colour, U, worth 1 FIDE point (TRF's default for U).
    records = [mk(1, 1, 1, "Arun", "Bua", "left", "mate", "left", (9, 4)),
               mk(2, 2, 1, "Chan", "Arun", "left", "mate", "left", (8, 3))]
    byes = [bye("mk", 1, "Chan"), bye("mk", 2, "Bua")]
    lines = export_lines(records, byes)["mk.trf"]
    assert lines[:3] == ["012 mk", "062 3", "XXR 2"]
    players = player_lines(lines)
    chan, bua, arun = players["Chan"], players["Bua"], players["Arun"]
    assert round_block(chan, 1) == ("0000", "-", "U") and round_block(chan, 2) == ("   1", "w", "1")
    assert round_block(bua, 1) == ("   1", "b", "0") and round_block(bua, 2) == ("0000", "-", "U")
    assert round_block(arun, 1) == ("   2", "w", "1") and round_block(arun, 2) == ("   3", "b", "0")
    # start ranks: Arun 1, Bua 2 (round 1 table 1), Chan 3 (round 1's bye)
    assert [cols(players[n], 5, 8) for n in ("Arun", "Bua", "Chan")] == ["   1", "   2", "   3"]
    assert [cols(players[n], 81, 84) for n in ("Arun", "Bua", "Chan")] == [" 1.0", " 1.0", " 2.0"]
    # the rank column is the player's place in the event's standings, whatever a bye is worth there
    st = compute(games_from_records(records), byes, find_preset("makruk-45"), event="mk")
    assert {n: int(cols(players[n], 86, 89)) for n in players} == {r.player: r.rank for r in st.rows}


def test_a_missing_round_is_refused_unless_absent_then_Z():
    records = [mk(1, 1, 1, "Arun", "Bua", "left", "mate", "left", (9, 4)),
               mk(2, 2, 1, "Chan", "Arun", "left", "mate", "left", (8, 3))]
    with pytest.raises(ExportError, match=r"^mk: no result and no bye for Bua in round 2, Chan in round 1 "):
        export_lines(records)
    players = player_lines(export_lines(records, absent=True)["mk.trf"])
    assert round_block(players["Chan"], 1) == ("0000", "-", "Z")    # known absence, 0 points
    assert round_block(players["Bua"], 2) == ("0000", "-", "Z")
    assert cols(players["Chan"], 81, 84) == " 1.0" and cols(players["Bua"], 81, 84) == " 0.0"


def test_thai_names_keep_their_columns_in_windows_874():
    records = [mk(1, 1, 1, "สมชาย ใจดี", "ประเสริฐ วงศ์ใหญ่", "draw", "agreement", "right", (5, 5))]
    for encoding in ("windows-874", "utf-8"):
        players = export_lines(records, encoding=encoding)["mk.trf"]
        line = players[3]
        assert cols(line, 15, 47) == "สมชาย ใจดี".ljust(33)
        assert cols(line, 81, 84) == " 0.5" and round_block(line, 1) == ("   2", "b", "=")
    data = trf.export(divisions(games_from_records(records)), "windows-874")["mk.trf"]
    assert len(data.split(b"\r\n")[3]) == len(line)                   # one byte a character


def test_a_long_name_is_cut_to_33_columns_with_a_warning():
    name = "Somchai Jaidee-Srisuk Wongyai Kaewmanee"                   # 39 characters
    records = [mk(1, 1, 1, name, "Bua", "left", "mate", "left", (9, 4))]
    warnings: list[str] = []
    data = trf.export(divisions(games_from_records(records)), warnings=warnings)["mk.trf"]
    line = data.decode().split("\r\n")[3]
    assert cols(line, 15, 47) == name[:33] and cols(line, 48, 48) == " " and cols(line, 49, 52) == "   0"
    assert warnings == [f"mk: player 1 {name!r}: cut to 33 characters (TRF columns 15-47)"]


def test_a_crossword_event_ranks_by_its_own_standings():
    # event 3 (tests/exports/exportkit.py): XW-7 GP then spread. Malee: bye + win = 4 GP; Chai and
    # Anan: a win and a draw, 3 GP each, Chai's spread +50 beats Anan's +40; Boon a loss and a bye,
    # Somchai two losses.
    records, byes = crossword_event_3()
    players = player_lines(export_lines(records, byes)["3.trf"])
    assert {n: int(cols(line, 86, 89)) for n, line in players.items()} == \
        {"Malee": 1, "Chai": 2, "Anan": 3, "Boon": 4, "Somchai": 5}


def test_a_makhos_match_has_a_block_per_game():
    # MH-7: a round is a match of several games (makhos-move-2x5: 2); each game is a TRF round of its
    # own, in game order. Round 1: Arun (left, first) wins game 1; game 2, Bua moving first, is drawn.
    records = [rec(f"mh1-{n:06d}", "mh", 1, 3, "Arun", "Bua", winner, reason=reason, first=first,
                   preset="makhos-move-2x5", kind="makhos", game=n, serial="mh1")
               for n, winner, reason, first in ((1, "left", "no-pieces", "left"), (2, "draw", "agreement", "right"))]
    lines = export_lines(records)["mh.trf"]
    assert lines[:3] == ["012 mh", "062 2", "XXR 2"]
    players = player_lines(lines)
    assert [round_block(players["Arun"], n) for n in (1, 2)] == [("   2", "w", "1"), ("   2", "b", "=")]
    assert [round_block(players["Bua"], n) for n in (1, 2)] == [("   1", "b", "0"), ("   1", "w", "=")]
    assert cols(players["Arun"], 81, 84) == " 1.5" and cols(players["Bua"], 81, 84) == " 0.5"
    # MH-7: Arun won the match (match points 3 to 0): first
    assert (cols(players["Arun"], 86, 89), cols(players["Bua"], 86, 89)) == ("   1", "   2")


def test_sudoku_has_no_trf():
    records = [rec("su1-000001", "su", 1, 1, "Anan", "Boon", "left", scores=(80, 60), preset="sudoku-60",
                   kind="sudoku", serial="su1")]
    with pytest.raises(ExportError, match=r"^su: Sudoku competitors share a clock, they are not opponents"):
        export_lines(records)
