"""FIDE TRF16 files (DESIGN.md §6) for the Swiss programs of Makruk and Makhos events: one per
division (exports/__init__.py), fixed columns, lines ending CR LF (TRF16 remark 1).

Header lines: `012 NAME` (the division), `062 N` (players), `XXR N` (rounds, the JaVaFo extension
Swiss programs read). No dates (042/052: the clocks' wall times are UTC and the event's date is the
organiser's) and no 162 line: the points are FIDE's defaults.

One `001` line per player, start rank = the division's player id (first appearance), then a
10-column block per round (per slot: exports/__init__.py). The columns (1-based, as TRF16 counts):

           1         2         3         4         5         6         7         8         9        10        11
  1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012
  001 SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP KKKK  OOOO c r  OOOO c r
  001    1      Somchai                              0                             2.5    1     2 w 1     0000 - U

  1-3 `001`; 5-8 SSSS start rank; 10 s sex, 11-13 TTT title, 54-56 FFF federation, 58-68 FIDE id,
  70-79 birth date: blank (unknown); 15-47 name (cut to 33 characters, with a warning); 49-52 rating
  (the event's player list's, 0 when it has none: exports/__init__.py); 81-84 points (`%4.1f`); 86-89 rank; round n at 92 + 10 (n - 1):
  opponent's start rank (4 wide, `0000` for a bye), colour at +5, result at +7.

- Colour: `w` for the player who moved first (the record's `first`: in Makruk and Makhos the side
  whose clock was started moves first), `b` the other; `-` when not known (a game ended before anyone's
  clock ran) and for byes.
- Result: `1` win, `=` draw, `0` loss as the event's rules decided it (MR-2, MH-8: a draw given
  counts as a loss); `+` / `-` when the game was a forfeit (reason `forfeit`, or MH-5 `late`);
  `U` a pairing-allocated bye (opponent `0000`); with `--absent`, `Z` (TRF's known absence,
  opponent `0000`) for a round a player has neither a game nor a bye in -- without it such a round is
  refused, every gap named, since it is most often a result not received yet.
- Points (81-84): FIDE points, as Swiss programs expect: 1 a win (`1`, `+`), 0.5 a draw, 0 a loss,
  1 a pairing bye (`U`, TRF's default for it), 0 an absence. MR-9 and MH-7's game points (2/1/0)
  halved: the same order.
- Rank (86-89): the player's place in the event's own standings (`standings.compute` by the preset's
  rules: MR-10 head-to-head and piece values, MH-7/MH-8, XW-7 ...); shared places share a rank.

A match of several games a round (MH-7, MR-1) gives a TRF round per game, in game order (`XXR` counts
them). Sudoku has no TRF: its two competitors at a clock are not opponents.

Names: TRF columns count characters, so Thai names line up when read as text (windows-874: one byte a
character, so also for programs that count bytes; UTF-8: use it with programs that read UTF-8).
"""
from __future__ import annotations

from gameclock.organiser.exports import (
    FORFEIT_REASONS,
    Division,
    ExportError,
    check_named,
    file_stem,
    grid,
    standings_ranks,
    where,
)
from gameclock.organiser.exports.tsh import ENCODINGS
from gameclock.organiser.said import words
from gameclock.organiser.standings.games import Game

NAME_WIDTH = 33        # columns 15-47
NEWLINE = "\r\n"
POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0, "U": 1.0, "Z": 0.0}


def block(opponent: int, colour: str, result: str) -> str:
    """One round's 10 columns, from the two spaces before the opponent (90-91 for round 1)."""
    opp = "0000" if opponent == 0 else f"{opponent:4d}"
    return f"  {opp} {colour} {result}"


def player_line(rank: int, name: str, rating: int, points: float, place: int, blocks: list[str]) -> str:
    head = (f"001 {rank:4d} {'':1}{'':3} {name[:NAME_WIDTH]:<{NAME_WIDTH}} {rating:4d} {'':3} {'':11} {'':10} "
            f"{points:4.1f} {place:4d}")
    return (head + "".join(blocks)).rstrip()


def game_code(g: Game, side: str) -> str:
    """`1`, `=`, `0` (or `+`, `-` for a forfeit) for `side` of game `g`."""
    player = g.name(side)
    result = g.result_for(player)
    if result is None:
        raise ExportError(f"{where(g)} has no result (who won?)")
    if g.reason in FORFEIT_REASONS and result != "draw":
        return "+" if result == "win" else "-"
    return {"win": "1", "draw": "=", "loss": "0"}[result]


def division_lines(division: Division, absent: bool = False, warnings: list[str] | None = None) -> list[str]:
    """The division's TRF lines (without line ends): the header, then player 1, 2, ..."""
    if any(g.kind == "sudoku" for g in division.games):
        raise ExportError(words("{division}: Sudoku competitors share a clock, they are not opponents: no TRF (export "
                                "csv)", division=division.name))
    check_named(division, "TRF")
    slots, cells = grid(division, absent_ok=absent)
    ids = division.ids()
    places = standings_ranks(division)
    lines = [f"012 {division.name}", f"062 {len(division.players)}", f"XXR {len(slots)}"]
    for pid, name in enumerate(division.players, start=1):
        if any(ord(c) < 32 for c in name):
            raise ExportError(f"{division.name}: player {pid} {name!r}: control characters in a name")
        if len(name) > NAME_WIDTH and warnings is not None:
            warnings.append(f"{division.name}: player {pid} {name!r}: cut to {NAME_WIDTH} characters "
                            "(TRF columns 15-47)")
        blocks: list[str] = []
        points = 0.0
        for cell in cells[name]:
            if cell is None:
                code, opp, colour = "Z", 0, "-"
            elif cell.is_bye:
                code, opp, colour = "U", 0, "-"
            else:
                g, side, other = cell.played()
                code = game_code(g, side)
                opp = ids[g.name(other)]
                colour = "-" if g.first is None else "w" if g.first == side else "b"
            points += POINTS[code]
            blocks.append(block(opp, colour, code))
        if name not in places:
            raise ExportError(f"{division.name}: {name} is not in the standings")
        lines.append(player_line(pid, name, division.ratings.get(name, 0), points, places[name], blocks))
    return lines


def encode(division: Division, lines: list[str], encoding: str) -> bytes:
    codec = ENCODINGS.get(encoding)
    if codec is None:
        raise ExportError(words("unknown encoding {encoding} (utf-8 or windows-874)", encoding=repr(encoding)))
    out = []
    header = len(lines) - len(division.players)
    for i, line in enumerate(lines):
        try:
            out.append((line + NEWLINE).encode(codec))
        except UnicodeEncodeError as exc:
            pid = i - header + 1
            who = (words("player {id} {name}", id=pid, name=repr(division.players[pid - 1])) if pid >= 1
                   else words("the event name"))
            raise ExportError(words("{division}: {who} cannot be written in {encoding} (character {char}): use "
                                    "--encoding utf-8", division=division.name, who=who, encoding=encoding,
                                    char=repr(exc.object[exc.start]))) from None
    return b"".join(out)


def export(divisions: list[Division], encoding: str = "utf-8", absent: bool = False,
           warnings: list[str] | None = None) -> dict[str, bytes]:
    """{file name: bytes}: DIVISION.trf for every division."""
    return {f"{file_stem(d.name)}.trf": encode(d, division_lines(d, absent, warnings), encoding)
            for d in divisions}
