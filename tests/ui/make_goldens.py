"""Golden screens: the states every preset's screens are checked in, and the tool that rewrites them.

    python tests/ui/make_goldens.py --sheet /tmp/contact.png     # look first: a contact sheet, 3x
    python tests/ui/make_goldens.py --i-looked-at-them           # then rewrite tests/ui/golden/
    python tests/ui/make_goldens.py --i-looked-at-them --only makruk-45   # only these presets' files
    GAMECLOCK_REGEN_GOLDENS=1 python tests/ui/make_goldens.py    # the same

Rewriting refuses to run without that flag or variable (as luma.oled's own tests do), so no test
run can rebaseline itself: a changed screen fails `test_ui_golden.py` until a person has looked at
the new pictures and rewritten the files on purpose.

One PNG per preset and language, `golden/<preset id>.png` (English) and `golden/th/<preset id>.png`
(Thai: every view carries "lang", as the loop adds it): one row per state (top to bottom in `states()`'s
order), each row the left and the right screen side by side with a 4 px gap (260 x 64), rows 4 px
apart. The views are made by folding real core events (`new_game`, `apply`, `view`), never written
by hand:

    running   left starts at 0, presses at 7.2 s, 15.9 s and 21.4 s; the view at 24.7 s (right runs;
              ROUND: both run, at 12:34.3)
    low       the running clock at its low-time state: below `tenths_below` (tenths showing) if the
              preset has one, else just under its first warning (low time, MH-2 announcement, XW-5
              cut warning), else at 0:20
    overtime  presets with negative time (XW-3): 3:18.4 over, with the penalty
    extra     per-move presets with extra time (MH-3): the mover took its first extra time at 24.7 s,
              seen 2 s later
    move-now  per-move presets whose expiry is `call` (MH-2, seed 004): 5 s past the move's time,
              MOVE NOW showing and the time counting on below zero
    cut       game-cut presets (XW-5): 5 s after the shared game time ran out, turns left showing
    paused    paused at 24.7 s (the side that resumes has the open bar), seen 5 s later
    message   the running view with the loop's refusal "menu locked" on both displays (issue 15)
    flagged   presets that can flag (ROUND: the round's time is up): 1.5 s after the flag fell
    count-*   makruk-45 and makhos-move only (COUNT_STATES): a count started at 24.7 s, then a press
              every 3 s, seen 1 s after the last: makruk-45 a pieces' count, K+2R v K with 4 pieces on
              the board, right the lone king (MR-6, MR-7: 5, 6, 7, 8), at 7/8 and at its limit 8/8
              (MR-6: the draw); makhos-move the Makhos count of the right side (MH-6) at 5/16;
              count-paused: makruk-45's count at 7/8 paused (issue 27: PAUSE on the band, the count on
              the bottom line)
    menu      the preset menu with this preset selected (`Menu.open_presets`: its group's page, the
              presets grouped by event as the loop lists them, `loop.base.menu_presets`) on the left display,
              the preset's ready screen on the right, as the loop composes them

And one PNG per state that is not a preset's clock, `golden/states/<state>.png` (Thai:
`golden/th/states/`), its rows as above: the menus, the corrections, the result entry and review,
docking, enrollment, the ready screen with a pairing's set-up, each composed by the real loop after
real inputs (`golden_states.py` says which).

The contact sheets (`--sheet`, docs/screens/contact-en.png and contact-th.png) are one per language,
one row per state (ready, running, low, paused, ...; then the menus, result screens and docking), a
few presets each, every pair of screens captioned.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from PIL import Image

from gameclock.core.clock import apply, new_game
from gameclock.core.clock import view as core_view
from gameclock.core.control import EXPIRY_CALL, GAMECUT, PER_MOVE, ROUND
from gameclock.core.display import format_remaining
from gameclock.core.events import CountStart, Extend, Pause, Press, Start
from gameclock.loop.base import menu_presets
from gameclock.rules.loader import load_presets
from gameclock.ui import menu as menus
from gameclock.ui import screens
from gameclock.ui.messages import short
from gameclock.ui.text import tr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden_states import screen_states  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
ENV_FLAG = "GAMECLOCK_REGEN_GOLDENS"
FLAG = "--i-looked-at-them"
GAP = 4
S = 1_000_000_000
MS = 1_000_000
PRESSES_NS = (7_200 * MS, 15_900 * MS, 21_400 * MS)
RUN_VIEW_NS = 24_700 * MS
ROUND_VIEW_NS = (12 * 60 + 34) * S + 300 * MS
SIDES = ("left", "right")


def _running(preset):
    """(state after the events, the instant to look at, the side whose clock runs)."""
    control = preset.control_for()
    st = new_game(control, label=preset.short, game=1)
    st = apply(st, Start(0, 0))
    if control.mode == ROUND:
        return st, ROUND_VIEW_NS, 1
    side = 0
    for t in PRESSES_NS:
        st = apply(st, Press(t, side))
        side = 1 - side
    return st, RUN_VIEW_NS, side


def _remaining_ms(st, t: int, side: int) -> int:
    return core_view(st, t)["sides"][SIDES[side]]["remaining_ms"]


def _when_remaining(st, t0: int, side: int, target_ms: int) -> int:
    """The first instant >= t0 at which `side`'s remaining time is <= target_ms (binary search on
    the pure view: a running clock's remaining time never goes up by itself)."""
    lo, hi = t0, t0 + S
    while _remaining_ms(st, hi, side) > target_ms:
        lo, hi = hi, t0 + (hi - t0) * 2
    while hi - lo > MS:
        mid = (lo + hi) // 2
        if _remaining_ms(st, mid, side) > target_ms:
            lo = mid
        else:
            hi = mid
    return hi


def _low_target_ms(control) -> int:
    if control.tenths_below_ns:
        return control.tenths_below_ns // MS - 2_650
    warnings = control.low_time_ns or control.announce_ns or (
        control.cut_warnings_ns if control.mode == GAMECUT else ())
    if warnings:
        return min(warnings) // MS - 2_500
    return 20_500


def _flag_time(st, t0: int) -> int | None:
    """When the game flags if nobody presses (None: it never does)."""
    far = t0 + 24 * 3600 * S
    def fallen(t: int) -> bool:
        return any(s["flagged"] for s in core_view(st, t)["sides"].values())

    if not fallen(far):
        return None
    lo, hi = t0, far
    while hi - lo > MS:
        mid = (lo + hi) // 2
        if fallen(mid):
            hi = mid
        else:
            lo = mid
    return hi


# The count rows (name, CountStart fields, the counting side's presses before the view): a count started at
# RUN_VIEW_NS while the right side's clock runs; both sides then alternate, a press every 3 s.
COUNT_STATES = {
    "makruk-45": (("count-7", {"kind": "pieces", "side": 1, "attacker": "RR", "on_board": 4}, 3),   # MR-6, MR-7
                  ("count-limit", {"kind": "pieces", "side": 1, "attacker": "RR", "on_board": 4}, 4)),
    "makhos-move": (("count", {"kind": "makhos", "side": 1}, 5),),                                    # MH-6
}


def _counted(st, t0: int, fields: dict, presses: int):
    """(state, instant to look at): the count started at t0 (the right clock running), then the right
    and the left side alternating, a press every 3 s, until the right side has pressed `presses` times."""
    st = apply(st, CountStart(t0, **fields))
    t, side, done = t0, 1, 0
    while done < presses:
        t += 3 * S
        st = apply(st, Press(t, side))
        done += side == 1
        side = 1 - side
    return st, t + S


# A count paused (issue 27: PAUSE was hidden behind it): makruk-45's count at 7/8, paused 1 s later
COUNT_PAUSED = {"makruk-45": ({"kind": "pieces", "side": 1, "attacker": "RR", "on_board": 4}, 3)}  # MR-6, MR-7

LANGS = ("en", "th")


def states(preset, presets, lang: str = "en") -> list[tuple[str, object, object]]:
    """[(state name, left image, right image)] for `preset` in `lang`, in golden row order."""
    def view(st, t):  # the core's view with what the loop adds: the clock's language
        return dict(core_view(st, t), lang=lang)

    control = preset.control_for()
    st, t_run, side = _running(preset)
    out = []
    v = view(st, t_run)
    out.append(("running", screens.render(v, 0), screens.render(v, 1)))

    t_low = _when_remaining(st, t_run, side, _low_target_ms(control))
    v = view(st, t_low)
    out.append(("low", screens.render(v, 0), screens.render(v, 1)))

    if control.negative:
        t_ot = _when_remaining(st, t_run, side, -198_400)
        v = view(st, t_ot)
        out.append(("overtime", screens.render(v, 0), screens.render(v, 1)))

    if control.mode == PER_MOVE and control.extension_options:
        extended = apply(st, Extend(t_run, side, control.extension_options[0].time_ns))
        v = view(extended, t_run + 2 * S)
        v["extra"] = {SIDES[side]: "+" + format_remaining(control.extension_options[0].time_ns)}  # as the loop adds it
        out.append(("extra", screens.render(v, 0), screens.render(v, 1)))

    if control.mode == PER_MOVE and control.move_expiry == EXPIRY_CALL:
        t_late = _when_remaining(st, t_run, side, -5_000)
        v = view(st, t_late)
        out.append(("move-now", screens.render(v, 0), screens.render(v, 1)))

    if control.mode == GAMECUT:
        t_cut = _when_remaining(st, t_run, side, -5_000)
        v = view(st, t_cut)
        out.append(("cut", screens.render(v, 0), screens.render(v, 1)))

    paused = apply(st, Pause(t_run))
    v = view(paused, t_run + 5 * S)
    out.append(("paused", screens.render(v, 0), screens.render(v, 1)))
    # a refusal on both displays (issue 15): the knob pushed while a clock runs
    v = dict(view(st, t_run), message=tr(short("menu locked while a clock runs: pause first"), lang))
    out.append(("message", screens.render(v, 0), screens.render(v, 1)))

    t_flag = _flag_time(st, t_run)
    if t_flag is not None:
        v = view(st, t_flag + 1_500 * MS)
        out.append(("flagged", screens.render(v, 0), screens.render(v, 1)))

    for name, fields, presses in COUNT_STATES.get(preset.id, ()):
        counted, t_count = _counted(st, t_run, fields, presses)
        v = view(counted, t_count)
        out.append((name, screens.render(v, 0), screens.render(v, 1)))
    if preset.id in COUNT_PAUSED:  # issue 27: PAUSE on the band, the count on the bottom line
        counted, t_count = _counted(st, t_run, *COUNT_PAUSED[preset.id])
        v = view(apply(counted, Pause(t_count)), t_count + S)
        out.append(("count-paused", screens.render(v, 0), screens.render(v, 1)))

    listed, groups = menu_presets(presets)  # the PRESET page as the loop builds it: grouped by event
    menu = menus.Menu(listed, settings=menus.Settings(language=lang), groups=groups)
    menu.open_presets(selected=preset.id)
    ready = view(new_game(control, label=preset.short), 0)
    out.append(("menu", screens.render_menu(menu.view()), screens.render(ready, 1)))
    return out


def pair(left: Image.Image, right: Image.Image) -> Image.Image:
    img = Image.new("1", (left.width + GAP + right.width, max(left.height, right.height)), 0)
    img.paste(left, (0, 0))
    img.paste(right, (left.width + GAP, 0))
    return img


def stack(rows: list[Image.Image]) -> Image.Image:
    img = Image.new("1", (rows[0].width, sum(r.height for r in rows) + GAP * (len(rows) - 1)), 0)
    y = 0
    for r in rows:
        img.paste(r, (0, y))
        y += r.height + GAP
    return img


def split(golden: Image.Image, n: int) -> list[tuple[Image.Image, Image.Image]]:
    """The (left, right) screens of each of the `n` rows of a golden PNG."""
    out = []
    for i in range(n):
        y = i * (64 + GAP)
        out.append((golden.crop((0, y, 128, y + 64)).convert("1"),
                    golden.crop((128 + GAP, y, 256 + GAP, y + 64)).convert("1")))
    return out


def golden_path(preset_id: str, lang: str = "en") -> Path:
    """golden/<id>.png (English), golden/th/<id>.png (Thai)."""
    return GOLDEN_DIR / f"{preset_id}.png" if lang == "en" else GOLDEN_DIR / lang / f"{preset_id}.png"


def golden_image(preset, presets, lang: str = "en") -> Image.Image:
    return stack([pair(l, r) for _, l, r in states(preset, presets, lang)])


def state_path(state: str, lang: str = "en") -> Path:
    """golden/states/<state>.png (English), golden/th/states/<state>.png (Thai)."""
    return (GOLDEN_DIR if lang == "en" else GOLDEN_DIR / lang) / "states" / f"{state}.png"


def state_image(rows) -> Image.Image:
    return stack([pair(l, r) for _, l, r in rows])


# The contact sheets' clock rows: the states of the per-preset goldens in this order, each shown for
# the first SHEET_PER_ROW presets of SHEET_PRESETS that have it.
SHEET_STATES = ("running", "low", "paused", "flagged", "overtime", "count-7", "count", "count-limit", "count-paused",
                "extra", "move-now", "cut", "message")
SHEET_PRESETS = ("crossword", "makruk-45", "makhos-move-2x5", "fischer-5+3", "makhos-move", "sudoku-60",
                 "makhos-stopwatch", "crossword-nocut", "byoyomi-10+5x30", "hourglass-5")
SHEET_PER_ROW = 3
SHEET_LABEL_W = 84
SHEET_CAPTION_H = 12


def sheet_rows(presets, lang: str = "en") -> list[tuple[str, list[tuple[str, Image.Image]]]]:
    """[(state, [(caption, the pair of screens)])] of a contact sheet, top to bottom."""
    by_id = {p.id: p for p in presets}
    clock: dict[str, list[tuple[str, Image.Image]]] = {}
    for pid in SHEET_PRESETS:
        if pid not in by_id:
            continue
        for name, left, right in states(by_id[pid], presets, lang):
            if name in SHEET_STATES and len(clock.setdefault(name, [])) < SHEET_PER_ROW:
                clock[name].append((pid, pair(left, right)))
    out = [(name, clock[name]) for name in SHEET_STATES if clock.get(name)]
    ready = [(cap, pair(left, right)) for cap, left, right in screen_states(lang, presets)[0][1]]
    out.insert(0, ("ready", ready))
    for state, rows in screen_states(lang, presets)[1:]:
        out.append((state, [(cap, pair(left, right)) for cap, left, right in rows]))
    return out


def contact_sheet(presets, scale: int = 3, lang: str = "en") -> Image.Image:
    """One sheet for `lang`: a row per state (wrapped after SHEET_PER_ROW pairs), its name at the left,
    each pair of screens captioned (the preset, or what the state shows); scaled up `scale` times."""
    from PIL import ImageDraw
    rows = sheet_rows(presets, lang)
    pair_w, pair_h = 128 * 2 + GAP, 64
    cell_w, cell_h = pair_w + 10, SHEET_CAPTION_H + pair_h + 8
    lines = sum((len(items) + SHEET_PER_ROW - 1) // SHEET_PER_ROW for _, items in rows)
    sheet = Image.new("L", (SHEET_LABEL_W + cell_w * SHEET_PER_ROW, lines * cell_h + 4), 30)
    d = ImageDraw.Draw(sheet)
    y = 4
    for state, items in rows:
        d.text((4, y + SHEET_CAPTION_H + pair_h // 2 - 6), state, fill=255)
        for i, (cap, img) in enumerate(items):
            if i and i % SHEET_PER_ROW == 0:
                y += cell_h
            x = SHEET_LABEL_W + (i % SHEET_PER_ROW) * cell_w
            d.text((x, y), cap[:44], fill=190)
            sheet.paste(img.convert("L"), (x, y + SHEET_CAPTION_H))
        y += cell_h
        d.line((0, y - 4, sheet.width, y - 4), fill=60)
    return sheet.resize((sheet.width * scale, sheet.height * scale), Image.Resampling.NEAREST)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(FLAG, dest="looked", action="store_true",
                    help="you looked at the contact sheet: rewrite tests/ui/golden/")
    ap.add_argument("--sheet", metavar="PNG", help="write the contact sheets, a state per row (PNG: the English "
                    "one, e.g. docs/screens/contact-en.png; the Thai one beside it, contact-th.png)")
    ap.add_argument("--scale", type=int, default=3, help="the contact sheets' scale (default 3)")
    ap.add_argument("--only", metavar="ID", action="append",
                    help="rewrite (and show) only this preset's golden file (repeatable)")
    args = ap.parse_args(argv)
    presets = load_presets()
    chosen = [p for p in presets if not args.only or p.id in args.only]
    if args.only and len(chosen) != len(set(args.only)):
        print(f"make_goldens: unknown preset in --only {args.only}", file=sys.stderr)
        return 2
    if args.sheet:
        for lang in LANGS:
            out = args.sheet if lang == "en" else args.sheet.replace("-en.png", ".png").replace(".png", f"-{lang}.png")
            contact_sheet(presets, scale=args.scale, lang=lang).save(out, optimize=True)
            print(f"contact sheet: {out}")
        if not (args.looked or os.environ.get(ENV_FLAG) == "1"):
            return 0
    if not (args.looked or os.environ.get(ENV_FLAG) == "1"):
        print(f"make_goldens: refusing to rewrite the golden screens without {FLAG} or {ENV_FLAG}=1.\n"
              f"Look at them first: {sys.argv[0]} --sheet /tmp/contact.png", file=sys.stderr)
        return 2
    keep = set()
    for lang in LANGS:
        for p in chosen:
            path = golden_path(p.id, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            golden_image(p, presets, lang).save(path, optimize=True)
            keep.add(path)
        if not args.only:
            for state, rows in screen_states(lang, presets):
                path = state_path(state, lang)
                path.parent.mkdir(parents=True, exist_ok=True)
                state_image(rows).save(path, optimize=True)
                keep.add(path)
    for stale in GOLDEN_DIR.glob("**/*.png") if not args.only else ():
        if stale not in keep:
            stale.unlink()
    print(f"wrote {len(keep)} golden PNGs to {GOLDEN_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
