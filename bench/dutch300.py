"""The 300-player open of issue 25's Dutch figure (bench/pair.py `dutch_ms_300`): its rounds 1-4 and
its round 5 as the reference pairs it, kept in tests/pairing/open300/ (README.md there).

    python -m bench.dutch300 [DIR]     write DIR/open300.trf and DIR/open300.round5 (DIR: that folder)

The event (seed SEED): 300 players rated 1000-2450 (start ranks by rating, highest first), 9 rounds
planned, white drawn for the top seed (TRF `XXC white1`). Rounds 1-4 are paired by gameclock's
Dutch system (organiser/pairing/dutch.py) and played by the ratings (the Elo expectation, a quarter
of the games drawn), with what an open has: two forfeits in round 2 and one in round 4 (TRF `+`/`-`:
no game, no colour), and one player absent in round 3 (`0000 - Z`), so that round has 299 players
and a pairing-allocated bye (`U`). Round 5 (all 300 present) is then paired from the file as read
back by the engine as it is -- caissify-pairings with networkx's matching, the slow path, 5 to 11
minutes -- and written as `open300.round5` in bbpPairings' `-p` format (the board count, then
"white black" per board in the published order), like tests/pairing/bbp/.

`read` reads back the columns `write_trf` writes (TRF16's player lines), so the bench needs nothing
from tests/; tests/pairing/test_dutch_fast.py reads the same file with its own TRF reader as well.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from gameclock.organiser.exports.trf import block, player_line
from gameclock.organiser.pairing.model import DRAW, LOSS, WIN, EventState, Game, Player, RoundDraft

DATA = Path(__file__).resolve().parents[1] / "tests" / "pairing" / "open300"
TRF = "open300.trf"
REFERENCE = "open300.round5"
SEED = 25
PLAYERS = 300
ROUNDS = 9
PLAYED = 4
FORFEITS = {2: (40, 90), 4: (7,)}       # round -> the tables whose game is forfeited (the left wins in round 2)
ABSENT = {3: "150"}                     # round -> the player who is not there (0 points, not paired)
OPTIONS: dict[str, object] = {"initial_colour": "white"}


def field(rng: random.Random) -> tuple[Player, ...]:
    ratings = sorted((rng.randint(1000, 2450) for _ in range(PLAYERS)), reverse=True)
    return tuple(Player(str(rank), f"Player {rank:03d}", rating=r) for rank, r in enumerate(ratings, start=1))


def played(draft: RoundDraft, field_: tuple[Player, ...], rng: random.Random) -> list[Game]:
    """The round's results: by the Elo expectation of the left, a quarter drawn; FORFEITS' tables."""
    rating = {p.id: p.rating for p in field_}
    out: list[Game] = []
    for b in draft.boards:
        if b.right is None:
            out.append(Game(draft.round, b.left, None, WIN))
            continue
        if b.table in FORFEITS.get(draft.round, ()):
            left = WIN if draft.round == 2 else LOSS
            out.append(Game(draft.round, b.left, b.right, left, table=b.table, forfeit=True))
            continue
        expect = 1 / (1 + 10 ** ((rating[b.right] - rating[b.left]) / 400))
        r = rng.random()
        left = DRAW if r < 0.25 else WIN if r < 0.25 + 0.75 * expect else LOSS
        out.append(Game(draft.round, b.left, b.right, left, table=b.table))
    return out


def history() -> EventState:
    """Rounds 1..PLAYED paired by gameclock's Dutch system and played (module doc)."""
    from gameclock.organiser.pairing.dutch import pair
    rng = random.Random(SEED)
    players = field(rng)
    games: list[Game] = []
    for rnd in range(1, PLAYED + 1):
        away = ABSENT.get(rnd)
        here = tuple(p for p in players if p.id != away)
        draft = pair(EventState(here, tuple(games), ROUNDS, dict(OPTIONS)), rnd, SEED)
        games += played(draft, players, rng)
        if away is not None:
            games.append(Game(rnd, away, None, LOSS))
    return EventState(players, tuple(games), ROUNDS, dict(OPTIONS))


def code(g: Game, left: bool) -> str:
    points = g.left_points if left else g.right_points
    if g.forfeit:
        return "+" if points == WIN else "-"
    return {WIN: "1", DRAW: "=", LOSS: "0"}[points]


def write_trf(state: EventState) -> str:
    """The event as a TRF16 (bbpPairings reads it: `bbpPairings --dutch open300.trf -p`)."""
    lines = [f"012 gameclock open300 (issue 25, seed {SEED})"]
    for p in state.players:
        blocks: list[str] = []
        points = 0.0
        for rnd in range(1, PLAYED + 1):
            g = next(g for g in state.games if g.round == rnd and p.id in (g.left, g.right))
            if g.right is None:
                blocks.append(block(0, "-", "U" if g.left_points == WIN else "Z"))
                points += g.left_points
                continue
            left = g.left == p.id
            other = g.right if left else g.left
            blocks.append(block(int(other), "w" if left else "b", code(g, left)))
            points += g.left_points if left else g.right_points
        lines.append(player_line(int(p.id), p.name, p.rating, points, int(p.id), blocks))
    lines += [f"XXR {ROUNDS}", "XXC white1"]
    return "\n".join(lines) + "\n"


RESULTS = {"1": WIN, "=": DRAW, "0": LOSS, "+": WIN, "-": LOSS}


def read(text: str) -> EventState:
    """What `write_trf` wrote, as the Dutch system sees it before round PLAYED + 1 (everyone there)."""
    players: list[Player] = []
    games: list[Game] = []
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        rank = int(line[4:8])
        players.append(Player(str(rank), line[14:47].strip(), rating=int(line[48:52])))
        for rnd in range(1, PLAYED + 1):
            col = 91 + 10 * (rnd - 1)
            opp, colour, result = int(line[col:col + 4]), line[col + 5], line[col + 7]
            if opp == 0:
                games.append(Game(rnd, str(rank), None, WIN if result == "U" else LOSS))
            elif colour == "w":
                games.append(Game(rnd, str(rank), str(opp), RESULTS[result], forfeit=result in "+-"))
    return EventState(tuple(players), tuple(games), ROUNDS, dict(OPTIONS))


def boards_text(draft: RoundDraft) -> str:
    """bbpPairings' `-p` output: the number of boards, then "white black" a board (0: the bye)."""
    lines = [str(len(draft.boards))] + [f"{b.left} {b.right or 0}" for b in draft.boards]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    from caissify_pairings.engines.dutch import DutchEngine

    from gameclock.organiser.pairing.dutch import pair, pair_with
    out = Path(argv[0]) if argv else DATA
    out.mkdir(parents=True, exist_ok=True)
    text = write_trf(history())
    (out / TRF).write_text(text)
    state = read(text)
    t0 = time.perf_counter()
    slow = pair_with(state, PLAYED + 1, SEED, DutchEngine)
    t1 = time.perf_counter()
    fast = pair(state, PLAYED + 1, SEED)
    t2 = time.perf_counter()
    (out / REFERENCE).write_text(boards_text(slow))
    print(f"round {PLAYED + 1}: networkx {t1 - t0:.1f} s, rustworkx {t2 - t1:.2f} s, "
          f"the same boards: {fast.boards == slow.boards}")
    return 0 if fast.boards == slow.boards else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
