"""Make the pictures of docs/arbiter.md from the simulator (issue 15).

    PYTHONPATH=firmware .venv/bin/python docs/arbiter/make_pictures.py [--keep DIR]

Runs `gameclock sim --display png DIR --script FILE` for the scripted sessions of docs/arbiter/ (the
three corrections) and docs/arbiter/pictures/, picks frames by what each session's frames.log says
(never by frame number: a changed screen or a new message only moves them) and writes them to
docs/arbiter/img/NAME.png: both displays side by side on a grey surround, scaled x2 with NEAREST so
the pixels stay sharp on a web page. Nothing is drawn by hand: rerun it after the screens change
(the sessions run in real time, in parallel: about a minute). `--keep DIR` keeps the sessions'
frames and logs in DIR to look at; `--check` only runs the sessions and says which pictures it
would pick (nothing written).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

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
    dock: bool = False                # --dock: the game journal (a power cut comes back), a pty
    setup: Callable[[Path], None] | None = None
    after: str | None = None          # run after this session (same state folder)


def _pairing(state: Path) -> None:
    """The settings a pairing from the organiser's PC leaves when it comes during a game: held for the
    next game (loop/pairings.py), which then starts with its preset and players."""
    held = {"event": "1", "round": 3, "table": 5, "players": {"left": "Somchai", "right": "Malee"},
            "level": None, "stage": None, "language": None, "preset": "makruk-30"}
    (state / "settings.json").write_text(json.dumps({"round": 3, "table": 5, "next_pairing": held}),
                                         encoding="utf-8")


SESSIONS: dict[str, Session] = {
    "set-time": Session("set-time.txt", "crossword"),
    "undo-press": Session("undo-press.txt", "crossword"),
    "take-back": Session("take-back-extension.txt", "makhos-move-2x5"),
    "start": Session("pictures/start.txt"),
    "pieces": Session("pictures/pieces-count.txt", "makruk-45"),
    "flag": Session("pictures/flag.txt", "makruk-45"),
    "end": Session("pictures/end-game.txt"),
    "language": Session("pictures/language.txt"),
    "pairing": Session("pictures/ready-pairing.txt", "crossword", state="pairing", setup=_pairing),
    "power-cut": Session("pictures/power-cut.txt", "makruk-45", state="power", dock=True),
    "restored": Session("pictures/restored.txt", None, state="power", dock=True, after="power-cut"),
}


@dataclass(frozen=True)
class Picture:
    """A frame of `session`: the first (or `last`) line of its frames.log holding every one of `has`
    and none of `hasnt`, among the lines after the first one holding `after`."""
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
    Picture("game-menu", "start", ["MENU GAME: Board count: right"],
            shows="the game menu after the unlock: Resume, the counts of the side on move, Corrections"),
    Picture("set-time", "set-time", ["CORRECTIONS: Left 0:1[0]:34"], shows="Left 0:1[0]:34"),
    Picture("undo-confirm", "undo-press", ["Undo last press?: Yes"], shows="the question, Yes chosen"),
    Picture("take-back", "take-back", ["CORRECTIONS: Take back right extra"],
            shows="Take back right extra first; +5:00 on the right display"),
    Picture("pieces-page", "pieces", ["PIECES RIGHT: R[2]"], shows="R[2] N0 S0 M0, From 5 to 8"),
    Picture("pieces-counting", "pieces", ["COUNT 5/8", "running: right"], shows="RIGHT COUNTS 5/8"),
    Picture("count-limit", "pieces", ["RESULT DRAW: COUNT"], last=True,
            shows="the clocks stopped, the result entry with DRAW: COUNT"),
    Picture("flag", "flag", ["| flagged |", " FLAG"], hasnt=["| result "], last=True,
            shows="the flag screen, held"),
    Picture("result-scores", "end", ["Left score 41[2]"], shows="Left score 41[2]"),
    Picture("result-confirm", "end", ["PRESS TO CONFIRM"], shows="the result on both displays"),
    Picture("result-saved", "end", ["| result saved"], shows="RESULT SAVED"),
    Picture("pause-th", "language", ["| paused |"], shows="PAUSE in Thai"),
    Picture("restored", "restored", ["restored: paused at"], shows="the game back, paused"),
)


def run_sessions(work: Path) -> dict[str, list[str]]:
    """Run every session (in parallel, those with `after` once it is done); frames.log lines each."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO / "firmware"), *filter(None, [os.environ.get("PYTHONPATH")])]))
    states: dict[str, Path] = {}

    def start(name: str, s: Session) -> subprocess.Popen[bytes]:
        out = work / name
        cmd = [sys.executable, "-m", "gameclock", "sim", "--display", "png", str(out),
               "--script", str(HERE / s.script)]
        if s.preset:
            cmd += ["--preset", s.preset]
        if s.state:
            state = states.setdefault(s.state, work / f"state-{s.state}")
            state.mkdir(exist_ok=True)
            if s.setup:
                s.setup(state)
            cmd += ["--state-dir", str(state)]
        if s.dock:
            cmd += ["--dock", str(work / f"dock-{name}")]
        return subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=open(work / f"{name}.err", "wb"))

    def wait(name: str, p: subprocess.Popen[bytes]) -> None:
        if p.wait(timeout=180) != 0:
            raise SystemExit(f"make_pictures: session {name} failed:\n"
                             + (work / f"{name}.err").read_text(encoding="utf-8", errors="replace"))

    first = {n: start(n, s) for n, s in SESSIONS.items() if s.after is None}
    for name, s in SESSIONS.items():
        if s.after is not None:
            wait(s.after, first[s.after])
            wait(name, start(name, s))
    for name, p in first.items():
        wait(name, p)
    return {n: (work / n / "frames.log").read_text(encoding="utf-8").splitlines() for n in SESSIONS}


def pick(lines: Sequence[str], pic: Picture) -> int:
    """The frame number `pic` asks for in a frames.log (SystemExit when no frame fits)."""
    found, seen_after = [], pic.after is None
    for line in lines:
        number, _, text = line.partition(" ")
        if not number.isdigit():
            continue  # a beep line
        if not seen_after:
            seen_after = pic.after in text
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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", metavar="DIR", help="keep the sessions' frames and logs in DIR")
    ap.add_argument("--check", action="store_true", help="pick the frames, write nothing")
    args = ap.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="arbiter-pictures-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        logs = run_sessions(work)
        chosen = [(pic, pick(logs[pic.session], pic)) for pic in PICTURES]
        if not args.check:
            IMG.mkdir(exist_ok=True)
            for old in IMG.glob("*.png"):
                old.unlink()
        for pic, number in chosen:
            src = work / pic.session / f"frame-{number:06d}.png"
            print(f"{pic.name:16} {pic.session}/frame-{number:06d}.png  ({pic.shows})")
            if not args.check:
                framed(Image.open(src)).save(IMG / f"{pic.name}.png", optimize=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
