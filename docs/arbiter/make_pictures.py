"""Make the pictures of docs/arbiter.md from the simulator (issue 15; deterministic since issue 27).

    PYTHONPATH=firmware .venv/bin/python docs/arbiter/make_pictures.py [--keep DIR] [--check]

Plays the scripted sessions of docs/arbiter/ (the three corrections) and docs/arbiter/pictures/ on the
simulator's clock in virtual time (`gameclock.sim.virtual`: the real adapters on mock pins, the real
loop, the script's finger; the clock moves only when a script waits or holds a button), picks frames by
what each session's frames.log says (never by frame number: a changed screen or a new message only
moves them) and writes them to docs/arbiter/img/NAME.png: both displays side by side on a grey
surround, scaled x2 with NEAREST so the pixels stay sharp on a web page. Nothing is drawn by hand,
nothing depends on the machine's speed or its /etc/gameclock: the same pictures every run (the guide's
test, tests/test_arbiter_guide.py, makes them again and compares). Rerun it after the screens change and
look at the pictures before committing them. `--keep DIR` keeps the sessions' frames and logs in DIR to
look at; `--check` only plays the sessions and says which frames it would pick (nothing written).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
IMG = HERE / "img"
SCALE = 2
BORDER, GAP, GREY = 3, 6, 96  # px before scaling: the surround and the gap between the two displays
DISPLAY_W, SIM_GAP = 128, 4  # the sim's frame: left display, 4 px, right display (sim/pngsink.py)


@dataclass(frozen=True)
class Session:
    """One run of the simulator: its script, preset and state folder (set up by `setup`)."""
    script: str                       # relative to docs/arbiter/
    preset: str | None = None
    state: str | None = None          # a state folder shared by the sessions that name it
    journal: bool = False             # the game journaled in the state folder (a power cut comes back)
    setup: Callable[[Path], None] | None = None   # the state folder before the run
    inputs: Callable[[Any], None] | None = None   # what comes to the loop before the script (a dock's status)
    after: str | None = None          # run after this session (same state folder)


def _pairing(state: Path) -> None:
    """The settings a pairing from the organiser's PC leaves when it comes during a game: held for the
    next game (loop/pairings.py), which then starts with its preset and players."""
    held = {"event": "1", "round": 3, "table": 5, "players": {"left": "Somchai", "right": "Malee"},
            "level": None, "stage": None, "language": None, "preset": "makruk-30"}
    (state / "settings.json").write_text(json.dumps({"round": 3, "table": 5, "next_pairing": held}),
                                         encoding="utf-8")


def _docked(sim: Any) -> None:
    """The organiser's PC answers: the clock is known, 1 of its 3 results sent (dock/clockside.py)."""
    from gameclock.dock.clockside import DockStatus
    from gameclock.inbox import DockUpdate
    sim.inbox.put(DockUpdate(sim.now, DockStatus(docked=True, known=True, enrolled=True, pc="pc", sent=1,
                                                 waiting=2)))
    sim.wait(0)


SESSIONS: dict[str, Session] = {
    "set-time": Session("set-time.txt", "crossword"),
    "undo-press": Session("undo-press.txt", "crossword"),
    "take-back": Session("take-back-extension.txt", "makhos-move-2x5"),
    "start": Session("pictures/start.txt"),
    "pieces": Session("pictures/pieces-count.txt", "makruk-45"),
    "flag": Session("pictures/flag.txt", "makruk-45"),
    "end": Session("pictures/end-game.txt"),
    "makhos-end": Session("pictures/makhos-end.txt", "makhos-30"),
    "language": Session("pictures/language.txt"),
    "pairing": Session("pictures/ready-pairing.txt", "crossword", state="pairing", setup=_pairing),
    "docked": Session("pictures/docked.txt", "makruk-45", inputs=_docked),
    "power-cut": Session("pictures/power-cut.txt", "makruk-45", state="power", journal=True),
    "restored": Session("pictures/restored.txt", None, state="power", journal=True, after="power-cut"),
}


@dataclass(frozen=True)
class Picture:
    """A frame of `session`: the first (or `last`) line of its frames.log holding every one of `has`
    and none of `hasnt`, among the lines from the first one holding `after` on."""
    name: str
    session: str
    has: Sequence[str]
    hasnt: Sequence[str] = ()
    last: bool = False
    after: str | None = None
    shows: str = field(default="", compare=False)  # what it must show (the guide's caption)


PICTURES = (
    Picture("start-presets", "start", ["MENU PRESET: "], shows="the start screen: the presets by event"),
    Picture("ready-pairing", "pairing", ["| ready |"], last=True,
            shows="READY with the pairing's preset and the players' names"),
    Picture("pause", "start", ["| paused |"], hasnt=["menu locked", "MENU"],
            shows="PAUSE: a white band with two bars; the resuming side's bottom bar framed"),
    Picture("game-menu", "start", ["MENU GAME: Resume"], after="menu unlocked",
            shows="the game menu after the unlock: Resume, Corrections, the counts of the side on move"),
    Picture("set-time", "set-time", ["CORRECTIONS: Left 0:1[0]:34"], shows="Left 0:1[0]:34"),
    Picture("undo-confirm", "undo-press", ["Undo last press?: Yes"], shows="the question, Yes chosen"),
    Picture("take-back", "take-back", ["CORRECTIONS: Take back right extra"],
            shows="Take back right extra first; +5:00 on the right display"),
    Picture("pieces-page", "pieces", ["PIECES RIGHT: R=[2]"], shows="R=[2] N=0 S=0 M=0, From 5 to 8"),
    Picture("pieces-counting", "pieces", ["COUNT 5/8", "running: right"], shows="RIGHT COUNTS 5/8"),
    Picture("count-limit", "pieces", ["RESULT DRAW: COUNT"], last=True,
            shows="the clocks stopped, the result entry with DRAW: COUNT"),
    Picture("flag", "flag", ["| flagged |", " FLAG"], hasnt=["| result "], last=True,
            shows="the flag screen, held"),
    Picture("result-outcome", "makhos-end", ["RESULT [Draw: agreed]"],
            shows="Makhos after End game: the result opens on Draw: agreed"),
    Picture("result-scores", "end", ["Left score 41[2]"], shows="Left score 41[2]"),
    Picture("result-confirm", "end", ["PRESS TO CONFIRM"], shows="the result on both displays"),
    Picture("result-saved", "end", ["| result saved"], shows="RESULT SAVED"),
    Picture("docked", "docked", ["| ready |"], last=True, shows="READY, docked: 1 of 3 results sent"),
    Picture("pause-th", "language", ["| paused |"], shows="PAUSE in Thai"),
    Picture("restored", "restored", ["restored: paused at"], shows="the game back, paused"),
)


def run_sessions(work: Path) -> dict[str, list[str]]:
    """Play every session (those with `after` once it has run, on its state folder); frames.log lines
    each. The rule files and the wiring are the shipped ones: a machine's /etc/gameclock changes
    nothing here."""
    from gameclock.rules.loader import load_presets
    from gameclock.sim.pngsink import PngSink
    from gameclock.sim.virtual import VirtualSim
    from gameclock.sitedir import ENV_SITE_DIR

    (work / "no-site").mkdir(exist_ok=True)
    before = os.environ.get(ENV_SITE_DIR)
    os.environ[ENV_SITE_DIR] = str(work / "no-site")  # (read when the presets are loaded)
    try:
        presets = load_presets()
    finally:
        if before is None:
            del os.environ[ENV_SITE_DIR]
        else:
            os.environ[ENV_SITE_DIR] = before
    states: dict[str, Path] = {}
    order = [n for n, s in SESSIONS.items() if s.after is None]
    order += [n for n, s in SESSIONS.items() if s.after is not None]
    for name in order:
        s = SESSIONS[name]
        state = None
        if s.state:
            state = states.setdefault(s.state, work / f"state-{s.state}")
            state.mkdir(exist_ok=True)
            if s.setup:
                s.setup(state)
        sink = PngSink(work / name)
        try:
            with VirtualSim(sink, presets=presets, state_dir=state, journal=s.journal, preset=s.preset) as sim:
                if sim.restored:
                    sim.loop.message = sim.restored  # as `gameclock sim --dock` says it
                    sim.wait(0)
                if s.inputs:
                    s.inputs(sim)
                sim.play((HERE / s.script).read_text(encoding="utf-8"))
                sim.wait(0.3)  # the last release drawn (sim.keys.run_script's settle)
        finally:
            sink.stop()
    return {n: (work / n / "frames.log").read_text(encoding="utf-8").splitlines() for n in SESSIONS}


def pick(lines: Sequence[str], pic: Picture) -> int:
    """The frame number `pic` asks for in a frames.log (SystemExit when no frame fits)."""
    found, seen_after = [], pic.after is None
    for line in lines:
        number, _, text = line.partition(" ")
        if not number.isdigit():
            continue  # a beep line
        seen_after = seen_after or (pic.after is not None and pic.after in text)
        if not seen_after:
            continue
        if all(h in text for h in pic.has) and not any(h in text for h in pic.hasnt):
            found.append(int(number))
    if not found:
        raise SystemExit(f"make_pictures: no frame of session {pic.session!r} for {pic.name} "
                         f"(has {list(pic.has)}, not {list(pic.hasnt)}, after {pic.after!r})")
    return found[-1] if pic.last else found[0]


def framed(frame: Image.Image) -> Image.Image:
    """The sim's frame (left display, 4 px, right display) on a grey surround, the displays GAP apart,
    scaled x SCALE (NEAREST)."""
    frame = frame.convert("L")
    left = frame.crop((0, 0, DISPLAY_W, frame.height))
    right = frame.crop((DISPLAY_W + SIM_GAP, 0, 2 * DISPLAY_W + SIM_GAP, frame.height))
    out = Image.new("L", (2 * BORDER + 2 * DISPLAY_W + GAP, 2 * BORDER + frame.height), GREY)
    out.paste(left, (BORDER, BORDER))
    out.paste(right, (BORDER + DISPLAY_W + GAP, BORDER))
    out = out.resize((out.width * SCALE, out.height * SCALE), Image.NEAREST)
    return out.quantize(colors=3)  # black, white, grey: a small palette PNG


def make(work: Path) -> dict[str, Image.Image]:
    """Every picture, by name, played in `work` (its frames and logs stay there)."""
    logs = run_sessions(work)
    out = {}
    for pic in PICTURES:
        number = pick(logs[pic.session], pic)
        out[pic.name] = framed(Image.open(work / pic.session / f"frame-{number:06d}.png"))
        print(f"{pic.name:16} {pic.session}/frame-{number:06d}.png  ({pic.shows})")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--keep", metavar="DIR", help="keep the sessions' frames and logs in DIR")
    ap.add_argument("--check", action="store_true", help="pick the frames, write nothing")
    args = ap.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="arbiter-pictures-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        pictures = make(work)
        if not args.check:
            IMG.mkdir(exist_ok=True)
            for old in IMG.glob("*.png"):
                old.unlink()
            for name, img in pictures.items():
                img.save(IMG / f"{name}.png", optimize=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
