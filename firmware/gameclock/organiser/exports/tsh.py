"""tsh `.t` files (DESIGN.md §6): one per division, one player per line, the player's id its line
number from 1 (the division's id order: exports/__init__.py):

    NAME RATING OPP1 OPP2 ...; SCORE1 SCORE2 ...; p12 P1 P2 ...; board B1 B2 ...

- RATING: the player's rating in the event's player list, 0 when it has none (exports/__init__.py).
- OPPn: the opponent's id in round n (one column per slot: exports/__init__.py); 0 for a bye.
- SCOREn: the player's final score as the clock recorded it: the board score less the XW-3 overtime
  penalty (10 points per started minute over). A bye's score is its XW-9 spread, from the preset's
  `[scoring.bye_spread]` at the division's level: +100, or +50 in primary-school Crossword (tsh reads
  a bye's score as its spread, as when an operator enters one).
- p12: 1 the player moved first, 2 second (the record's `first`: the side whose clock was started),
  0 a bye, 4 not known (a game ended before anyone's clock ran, e.g. a no-show: tsh's
  "indeterminate").
- board: the table number (0 for a bye, or when the clock recorded none).

A forfeit without board scores (the organiser's hand entry of one, issue 26: the game was not played,
docs/rules.md) is written as tsh writes one: each player against 0 (a bye's column) with its spread as
the score, the winner's +100 (XW-9's bye spread; +50 primary Crossword) and the absent player's -100,
p12 0 and board 0, since the two did not meet. (A clock's forfeit carries the scores its arbiter
entered: written with them, as any game.)

Only the crossword family's results go to tsh (other kinds: TRF or CSV). tsh works out wins and
spread from the two scores itself; our XW-8 caps are in the standings, not in
the file (give tsh the event's cap in its own configuration). A game whose entered outcome (a forfeit,
an agreement) disagrees with its scores is written with its scores and reported as a warning.

Every line is checked with tsh's own reading pattern before it is written: it must read back to the
same name, opponents and scores (a name ending in a number cannot, nor one holding `#`, where tsh's
comments start; the export then fails naming the player). Encoding: UTF-8, or windows-874 (tsh's Thai profile): a name that
windows-874 cannot hold fails the export naming the player. A round a player has neither a game nor a
bye in has no tsh notation: the export is refused naming every such gap.
"""
from __future__ import annotations

import re

from gameclock.organiser.exports import Division, ExportError, bye_spread, check_named, file_stem, grid, where
from gameclock.organiser.said import listed_words, words
from gameclock.organiser.standings.games import Game

# tsh's own reading pattern (DESIGN.md §6): name, rating, opponents; scores; extra fields
TSH_LINE = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$")
ENCODINGS = {"utf-8": "utf-8", "windows-874": "cp874"}
P12_BYE, P12_FIRST, P12_SECOND, P12_UNKNOWN = 0, 1, 2, 4


def format_line(name: str, rating: int, opps: list[int], scores: list[int], p12: list[int],
                board: list[int]) -> str:
    def nums(xs: list[int]) -> str:
        return " ".join(str(x) for x in xs)
    return f"{name} {rating} {nums(opps)}; {nums(scores)}; p12 {nums(p12)}; board {nums(board)}"


def parse_line(line: str) -> tuple[str, str, list[int], list[int], dict[str, list[str]]] | None:
    """A `.t` line as tsh's pattern reads it: (name, rating as written, opponents, scores, extra
    fields by key); None if it does not match."""
    m = TSH_LINE.match(line)
    if m is None:
        return None
    name, rating, opps, scores, extras = m.groups()
    extra: dict[str, list[str]] = {}
    for chunk in extras.split(";")[1:]:
        words = chunk.split()
        if words:
            extra[words[0]] = words[1:]
    return name, rating, [int(x) for x in opps.split()], [int(x) for x in scores.split()], extra


def _score(g: Game, side: str) -> int:
    """`side`'s score in `g` (division_lines refuses results without both scores first)."""
    score = (g.scores or {}).get(side)
    if score is None:
        raise ExportError(f"{where(g)} has no {side} score")
    return score


def _unplayed(g: Game) -> bool:
    """A forfeit without board scores (module doc: tsh's forfeit, against 0)."""
    return g.forfeit and g.scores is None


def division_lines(division: Division, warnings: list[str] | None = None) -> list[str]:
    """The division's `.t` lines (without newlines), player 1 first."""
    kinds = sorted({g.kind for g in division.games} - {"crossword"})
    if kinds:
        raise ExportError(words("{division}: tsh is for the crossword family; these results are {kinds} (export trf or "
                                "csv)", division=division.name, kinds=", ".join(kinds)))
    check_named(division, "tsh")
    slots, cells = grid(division)
    ids = division.ids()
    no_scores = [words("{result} ({kind})", result=where(g), kind=g.kind) for g in division.games
                 if not _unplayed(g) and (g.scores is None or any(g.scores.get(s) is None for s in ("left", "right")))]
    if no_scores:
        raise ExportError(words("{division}: tsh needs both players' scores, and {results} has none: export trf or csv "
                                "instead", division=division.name, results=listed_words(no_scores)))
    spread = bye_spread(division) if division.byes else None
    if warnings is not None:
        for g in division.games:
            if _unplayed(g):
                continue   # written as tsh writes a forfeit (module doc): no scores to disagree with
            a, b = _score(g, "left"), _score(g, "right")
            by_score = "left" if a > b else "right" if b > a else "draw"
            if g.winner is not None and g.winner != by_score:
                warnings.append(f"{division.name}: {where(g)} was won by {g.winner} ({g.reason}) but its "
                                f"scores are {a}-{b}: tsh will count it by the scores")
    lines = []
    for pid, name in enumerate(division.players, start=1):
        if "#" in name or any(ord(c) < 32 for c in name):
            raise ExportError(f"{division.name}: player {pid} {name!r}: a tsh name cannot hold '#' or "
                              "control characters")
        opps: list[int] = []
        scores: list[int] = []
        p12: list[int] = []
        board: list[int] = []
        for cell in cells[name]:
            assert cell is not None, "grid() without absent_ok leaves no gaps"
            if cell.is_bye:
                assert spread is not None, "a division with a bye has its bye spread"
                opps.append(0)
                scores.append(spread)
                p12.append(P12_BYE)
                board.append(0)
                continue
            g, side, other = cell.played()
            if _unplayed(g):   # not played: against 0 with the forfeit's spread (module doc)
                opps.append(0)
                scores.append(int((g.spread or {}).get(side) or 0))
                p12.append(P12_BYE)
                board.append(0)
                continue
            opps.append(ids[g.name(other)])
            scores.append(_score(g, side))
            p12.append(P12_UNKNOWN if g.first is None else P12_FIRST if g.first == side else P12_SECOND)
            board.append(g.table or 0)
        line = format_line(name, division.ratings.get(name, 0), opps, scores, p12, board)
        back = parse_line(line)
        if back is None or back[0] != name or back[2] != opps or back[3] != scores:
            raise ExportError(f"{division.name}: player {pid} {name!r}: tsh would not read this name back "
                              "(a tsh name cannot end in a number)")
        lines.append(line)
    return lines


def encode(division: Division, lines: list[str], encoding: str) -> bytes:
    """The file's bytes; ExportError naming the player whose name `encoding` cannot hold."""
    codec = ENCODINGS.get(encoding)
    if codec is None:
        raise ExportError(words("unknown encoding {encoding} (utf-8 or windows-874)", encoding=repr(encoding)))
    out = []
    for pid, line in enumerate(lines, start=1):
        try:
            out.append(line.encode(codec) + b"\n")
        except UnicodeEncodeError as exc:
            name = division.players[pid - 1]
            raise ExportError(words("{division}: player {id} {name} cannot be written in {encoding} (character {char}): "
                                    "use --encoding utf-8", division=division.name, id=pid, name=repr(name),
                                    encoding=encoding, char=repr(exc.object[exc.start]))) from None
    return b"".join(out)


def export(divisions: list[Division], encoding: str = "utf-8",
           warnings: list[str] | None = None) -> dict[str, bytes]:
    """{file name: bytes}: DIVISION.t for every division."""
    return {f"{file_stem(d.name)}.t": encode(d, division_lines(d, warnings), encoding) for d in divisions}
