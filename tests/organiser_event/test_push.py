"""A published round reaches the clock at docking (issue 16, dock protocol 4): the pushed pairing
carries the game's number in its match inside the signed part, and the clock's game at ready becomes
that game (G2); a pairing held during a game gives the next game its number."""
from __future__ import annotations

import queue
import sys
from pathlib import Path

import pytest
from evkit import NAMES, PLAYERS_CSV

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dock"))

from dockkit import KEY, Wire, frame, make_clock, make_pc, make_store  # noqa: E402

from gameclock.dock import sign  # noqa: E402
from gameclock.inbox import Pairing, PlayerButton  # noqa: E402
from gameclock.loop import Loop  # noqa: E402
from gameclock.organiser import event as events  # noqa: E402
from gameclock.rules.loader import load_presets  # noqa: E402

S = 1_000_000_000
NONCES = [f"{i:032x}" for i in range(1, 50)]


def test_the_push_carries_the_game_signed(tmp_path, fold_system):
    store = make_store(tmp_path / "pc.db")
    try:
        path = tmp_path / "players.csv"
        path.write_text(PLAYERS_CSV, encoding="utf-8")
        events.create_event(store, "mh-open", fold_system, events.load_players(path), language="th",
                            preset="crossword", options={"shuffle": False, "game": 2, "stage": "final"})
        events.draw(store, "mh-open", seed=1)
        events.publish(store, "mh-open")  # table 2: Anan Wong v บุญมี มีสุข, game 2, final
        clock = make_clock(tmp_path / "clock", nonces=NONCES,
                           info=lambda: {"event": "mh-open", "round": 1, "table": 2})
        wire = Wire(clock.endpoint, make_pc(store))
        wire.connect()
        wire.run(1)
        (push,) = wire.sent("pc", "pairing")
        sent = {"event": "mh-open", "round": 1, "table": 2, "players": {"left": NAMES["3"], "right": NAMES["4"]},
                "level": "secondary", "stage": "final", "language": "th", "preset": "crossword", "game": 2}
        assert push["pairing"] == sent
        assert push["mac"] == sign.pairing_mac(KEY, NONCES[0], push["m"], sent)  # the game is inside the MAC
        assert clock.pairings == [sent]
        wire.to_clock_now(frame(dict(push, pairing=dict(sent, game=1))))  # the genuine MAC, another game
        assert [n["reason"] for n in wire.sent("clock", "nak")] == ["bad-mac"]
        assert clock.pairings == [sent]
    finally:
        store.close()


class Null:
    def show(self, frame) -> None:
        pass

    def beep(self, alert, text) -> None:
        pass


class FakeTime:
    def __init__(self, start: int):
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture(scope="module")
def presets():
    return load_presets()


P = {"event": "mh-open", "round": 1, "table": 2, "players": {"left": "Anan Wong", "right": "บุญมี มีสุข"},
     "level": None, "stage": None, "language": None, "preset": None, "game": 2}


def test_the_clock_at_ready_becomes_the_pairings_game(presets):
    t = FakeTime(1_000 * S)
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=t)
    loop.new_game("crossword", 1)
    loop.pump(t.now, [Pairing(t.now, P)])
    assert loop.game_no == 2 and loop.preset.id == "crossword"
    assert loop.state.game == 2  # the core's label: the screens' G2
    assert "G2" in loop.message
    loop.pump(t.now, [Pairing(t.now, P)])  # the same pairing again at the next docking: nothing changes
    assert loop.game_no == 2 and loop.events == []


def test_a_pairing_held_during_a_game_numbers_the_next_game(presets):
    t = FakeTime(1_000 * S)
    loop = Loop(queue.Queue(), presets, Null(), Null(), clock=t)
    loop.new_game("crossword", 1)
    loop.pump(t.now + S, [PlayerButton(t.now + S, 0)])  # the game is under way
    loop.pump(t.now + 2 * S, [Pairing(t.now + 2 * S, dict(P, game=3))])
    assert loop.game_no == 1 and loop.settings.next_pairing["game"] == 3
    loop.new_game("crossword", 2)  # the arbiter's Next game would make it game 2: the pairing says 3
    assert loop.game_no == 3 and loop.settings.next_pairing is None
