"""docs/arbiter.md, the arbiter's guide (issue 15): every link and picture it names exists, every
picture it shows is one `docs/arbiter/make_pictures.py` makes (and each one it makes is shown), and
the scripted sessions it quotes are the scripts' own -- the same steps between `#> begin` and
`#> end`, and the knob-action counts and times it gives are those steps counted the way
tests/test_arbiter_sessions.py counts them (its `correction`).

Issue 27 (the guide and the program disagreed: the pause, the Makhos menu, the menu after RESULT
SAVED, the dock's status, a picture out of date): every menu the guide lists is the clock's own in its
order, played on the simulator's clock; every word it quotes from the displays is one the clock shows;
every picture is the one make_pictures.py makes today, pixel for pixel."""
from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from test_arbiter_sessions import ARBITER, BUSY, HUMAN_S, correction, correction_lines

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "arbiter.md"
TEXT = GUIDE.read_text(encoding="utf-8")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)\)")  # [text](target), "[0]" in a text too
SESSIONS = ("set-time.txt", "undo-press.txt", "take-back-extension.txt")


def _make_pictures():
    """docs/arbiter/make_pictures.py as a module (not run: its sessions take half a minute)."""
    name = "arbiter_make_pictures"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ARBITER / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_link_and_picture_exists():
    targets = [t.split("#", 1)[0] for t in LINK.findall(TEXT) if not re.match(r"[a-z]+:", t)]
    assert targets, "the guide links nothing?"
    missing = [t for t in targets if t and not (GUIDE.parent / t).exists()]
    assert not missing


def test_the_pictures_shown_are_the_generators():
    shown = {Path(t).stem for t in LINK.findall(TEXT) if t.startswith("arbiter/img/") and t.endswith(".png")}
    made = {p.name for p in _make_pictures().PICTURES}
    assert shown == made
    for name in made:  # small enough for a web page
        assert (ARBITER / "img" / f"{name}.png").stat().st_size < 10_000


def test_the_generators_sessions_and_scripts_exist():
    mp = _make_pictures()
    for session in mp.SESSIONS.values():
        assert (ARBITER / session.script).is_file()
    for pic in mp.PICTURES:
        assert pic.session in mp.SESSIONS


@pytest.mark.parametrize("name", SESSIONS)
def test_the_quoted_action_count_and_times_are_the_scripts(name):
    steps = correction(name)
    acts = [str(v) for k, v in steps if k == "act"]
    row = next(ln for ln in TEXT.splitlines() if ln.startswith("|") and f"(arbiter/{name})" in ln)
    quoted = re.search(r"\*\*(\d+)\*\*", row)
    assert quoted is not None, row
    assert int(quoted.group(1)) == len(acts)
    # the time at the script's pace (its waits and the buttons held) and a slow arbiter's (2 s an action)
    times = re.search(r"\| (\d+) s; (\d+) s \|", row)
    assert times is not None, row
    held = sum(BUSY[a] for a in acts)
    waits = sum(float(v) for k, v in steps if k == "wait")
    assert (int(times.group(1)), int(times.group(2))) == (round(waits + held), round(len(acts) * HUMAN_S + held))


@pytest.mark.parametrize("name", SESSIONS)
def test_the_quoted_session_is_the_scripts(name):
    """The guide's code block after "`NAME` (preset ...):" holds the script's steps between the
    markers, line for line."""
    m = re.search(rf"^`{re.escape(name)}` \(preset [\w-]+\):\n\n```\n(.*?)```", TEXT, re.M | re.S)
    assert m is not None, f"{name} is not quoted"
    assert m.group(1).splitlines() == correction_lines(name)


@pytest.mark.parametrize("name", SESSIONS)
def test_the_replay_command_names_the_script_and_its_preset(name):
    preset = re.search(rf"^`{re.escape(name)}` \(preset ([\w-]+)\):", TEXT, re.M)
    assert preset is not None
    header = (ARBITER / name).read_text(encoding="utf-8")
    assert f"--preset {preset.group(1)} " in header  # the script's own "Run:" line
    assert re.search(rf"--preset {preset.group(1)} .*--script docs/arbiter/{re.escape(name)}", TEXT)


def test_readme_links_the_guide():
    assert "(docs/arbiter.md)" in (REPO / "README.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------- issue 27
# The guide against the program: the menus it lists are the clock's own (played on the simulator's
# clock: the real loop composes them), every word it quotes from the displays is one the clock shows
# (the Thai catalogue holds every English text the clock can show: ui/text_th.py), and every picture
# is the one make_pictures.py makes today.


def _section(title: str) -> str:
    """The text of the guide's section whose heading starts with `title`."""
    m = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", TEXT, re.M | re.S)
    assert m is not None, f"no section {title!r}"
    return m.group(1)


def _table(text: str, header: list[str]) -> list[list[str]]:
    """The rows of the markdown table in `text` whose header is `header`."""
    rows, inside = [], False
    for line in text.splitlines():
        if not line.startswith("|"):
            inside = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells == header:
            inside = True
        elif inside and not set(line) <= set("|-: "):
            rows.append(cells)
    assert rows, f"no table {header}"
    return rows


MENUS = _table(_section("3. "), ["page", "when", "its items, in order"])


def _sim(preset: str | None, script: str, tmp_path):
    from gameclock.rules.loader import load_presets
    from gameclock.sim.virtual import FrameList, VirtualSim
    sim = VirtualSim(FrameList(), presets=load_presets(), state_dir=tmp_path, preset=preset)
    try:
        sim.play(script)
    except BaseException:
        sim.close()
        raise
    return sim


def _menu(preset: str | None, script: str) -> Callable[..., tuple[str, list[str]]]:
    """A GAME, PRESET, CORRECTIONS or SETTINGS page reached on the clock: (its title, its items)."""
    def build(tmp_path) -> tuple[str, list[str]]:
        with _sim(preset, script, tmp_path) as sim:
            assert sim.loop.menu.is_open, sim.loop.frame.info
            return sim.loop.menu.view()["title"], sim.loop.menu.labels()
    return build


MAKHOS_END = "left 1s pause hold_push knob_left push knob_right push"  # End game, Yes: the result entry


def _saved(tmp_path) -> tuple[str, list[str]]:
    """Makhos: the game menu after RESULT SAVED (a push): nothing is lost, every item there."""
    with _sim("makhos-30", MAKHOS_END + " push right left push", tmp_path) as sim:
        assert sim.loop.record is not None  # saved: both confirmed
        return sim.loop.menu.view()["title"], sim.loop.menu.labels()


RESULT_NAMES = re.compile(r" (\?|>|none)$")  # a value an item shows: not the item's name


def _result_items(kind: str) -> Callable[..., tuple[str, list[str]]]:
    def build(tmp_path) -> tuple[str, list[str]]:
        from gameclock.core.scoring import Scoring
        from gameclock.ui.keys import BACK
        from gameclock.ui.resultentry import ResultEntry
        r = ResultEntry(Scoring(kind=kind), {"sides": {"left": {}, "right": {}}})
        r.key(BACK, 0)  # out of the first item's edit: the items with nothing entered
        v = r.view()
        return v["title"], [RESULT_NAMES.sub("", label) for label in v["items"]]
    return build


def _outcomes(kind: str) -> Callable[..., tuple[str, list[str]]]:
    """The outcome ring as the knob turns through it from where it opens."""
    def build(tmp_path) -> tuple[str, list[str]]:
        from gameclock.core.scoring import Scoring
        from gameclock.ui.keys import DOWN
        from gameclock.ui.resultentry import ResultEntry
        r = ResultEntry(Scoring(kind=kind), {"sides": {"left": {}, "right": {}}})
        seen = []
        while (label := r.label(0).strip("[]")) not in seen:
            seen.append(label)
            r.key(DOWN, 0)
        return "the result's outcome", seen
    return build


RIGHT_RUNS = "left 1s pause hold_push"  # right on move, paused, unlocked
BUILDERS: dict[tuple[str, str], Callable[..., tuple[str, list[str]]]] = {
    ("PRESET", "the start screen"): _menu(None, "0.1s"),
    ("CROSSWORD FAMILY", "its group opened"): _menu(None, "push"),
    ("MAKRUK", "its group opened"): _menu(None, "knob_right push"),
    ("MAKHOS", "its group opened"): _menu(None, "knob_right knob_right push"),
    ("GAME", "Crossword at READY"): _menu("crossword", "push"),
    ("GAME", "Crossword paused, unlocked"): _menu("crossword", RIGHT_RUNS),
    ("GAME", "Makruk paused, unlocked, right on move"): _menu("makruk-45", RIGHT_RUNS),
    ("GAME", "Makruk, right's board count running"): _menu(
        "makruk-45", RIGHT_RUNS + " knob_right knob_right push hold_push"),
    ("GAME", "Makruk, right's pieces count running"): _menu(
        "makruk-45", RIGHT_RUNS + " knob_right knob_right knob_right push knob_left long_push hold_push"),
    ("GAME", "Makhos paused, unlocked, right on move"): _menu("makhos-30", RIGHT_RUNS),
    ("GAME", "Makhos, right's count running"): _menu("makhos-30", RIGHT_RUNS + " knob_right knob_right push hold_push"),
    # issue 27: a result not saved is left only after the arbiter's unlock, asking what is lost
    ("GAME", "Makhos result entry, a long push"): _menu("makhos-30", MAKHOS_END + " long_push"),
    ("GAME", "Makhos result entry, held 3 s"): _menu("makhos-30", MAKHOS_END + " hold_push"),
    ("GAME", "Makhos result saved"): _saved,
    ("Lose the result?", "New game pushed, the result not saved"): _menu(
        "makhos-30", MAKHOS_END + " hold_push knob_right push"),
    ("CORRECTIONS", "Crossword"): _menu("crossword", RIGHT_RUNS + " knob_right push"),
    ("CORRECTIONS", "Makhos 2:00/move, right on move"): _menu("makhos-move", RIGHT_RUNS + " knob_right push"),
    ("CORRECTIONS", "Makhos 2:00 2x5, right given 5:00 in this move"): _menu(
        "makhos-move-2x5", RIGHT_RUNS + " knob_right push push knob_right push hold_push knob_right push"),
    ("SETTINGS", "no pairing"): _menu("crossword", "push knob_left push"),
    ("End the game?", "End game pushed"): _menu("crossword", RIGHT_RUNS + " knob_left push"),
    ("RESULT", "Crossword (A-Math, Kham Kom)"): _result_items("crossword"),
    ("RESULT", "Makruk"): _result_items("makruk"),
    ("RESULT", "Makhos"): _result_items("makhos"),
    ("RESULT", "Sudoku"): _result_items("sudoku"),
    ("the result's outcome", "Makruk"): _outcomes("makruk"),
    ("the result's outcome", "Makhos"): _outcomes("makhos"),
}


def test_the_guide_lists_the_menus_the_test_knows():
    assert sorted((page, when) for page, when, _ in MENUS) == sorted(BUILDERS)


@pytest.mark.parametrize("page, when, items", MENUS, ids=[f"{p}: {w}" for p, w, _ in MENUS])
def test_each_menu_listed_is_the_clocks_in_its_order(page, when, items, tmp_path):
    title, labels = BUILDERS[(page, when)](tmp_path)
    assert title == page
    assert items.split(" · ") == labels


def _vocabulary():
    from gameclock.ui.messages import DOCK_WORDS
    from gameclock.ui.text_th import TH
    # {n} is a figure ("M{n}": M12, "EXT {n}": EXT 1x5; issue 27's Thai words for the bottom line's tags),
    # not any text: "P{n}" is no licence for "PAUSED"
    templates = [re.compile(re.sub(r"\\\{\w+\\\}", ".+", re.escape(k).replace(r"\{n\}", r"\S*\d\S*"))) for k in TH
                 if "{" in k and re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", k))]  # a word of its own
    return set(TH), templates, DOCK_WORDS


def shown(words: str) -> bool:
    """`words` are the clock's: an English text it shows (its Thai catalogue's key, or a template of
    it, or a menu label built from parts), with figures after it, two questions or "A: B" joined."""
    from gameclock.ui.menu import say
    keys, templates, dock = _vocabulary()
    words = " ".join(words.split())
    if not words:
        return True
    if words in keys or any(t.fullmatch(words) for t in templates) or say(words, "th") != words:
        return True
    if any(words == d or (words.startswith(d + " ") and re.fullmatch(r"[\d/ ]+", words[len(d) + 1:]))
           for d in dock):
        return True
    stripped = re.sub(r"(\s+[-+]?\S*\d\S*)+$", "", words)  # "RIGHT COUNTS 5/8", "OT -40", "Left 0:12:34"
    if stripped != words:
        return shown(stripped)
    if "? " in words:
        return all(shown(q + "?") for q in words.rstrip("?").split("? "))
    if ": " in words:
        return all(shown(part) for part in words.split(": "))
    return False


def quoted_words() -> list[str]:
    """What the guide quotes from the displays: bold capitals (**PAUSE**), double-quoted words that
    begin with a capital ("Menu locked"), and the first column of the tables of what the displays say
    (sections 7 and 9)."""
    out = [m for m in re.findall(r"\*\*([^*]+)\*\*", TEXT) if re.search(r"[A-Z]", m) and m == m.upper()]
    out += [m for m in re.findall(r'"([^"\n]+)"', TEXT) if m[:1].isupper()]
    for title, header in (("7. ", ["display", "meaning", "do"]), ("7. ", ["display", "meaning"]),
                          ("9. ", ["the displays say", "what happened", "do"])):
        out += [w.strip() for row in _table(_section(title), header) for w in row[0].split(", ")]
    return out


def test_every_word_quoted_from_the_displays_is_the_clocks():
    words = quoted_words()
    assert len(words) > 60 and "PAUSE" in words and "Menu locked" in words and "DOCK OK" in words
    assert [w for w in words if not shown(w)] == []


def test_the_vocabulary_check_refuses_words_the_clock_does_not_show():
    assert shown("RIGHT COUNTS 5/8") and shown("Extra right 2x5:00") and shown("Right wins: resigned")
    assert not shown("PAUSED") and not shown("Menu closed") and not shown("Right wins: checkmate")


def test_every_picture_is_the_one_make_pictures_makes_today(tmp_path):
    """The guide's pictures are made again (virtual time: deterministic) and compared pixel for pixel
    with those committed: a screen changed without running make_pictures.py fails here."""
    made = _make_pictures().make(tmp_path)
    assert set(made) == {p.stem for p in (ARBITER / "img").glob("*.png")}
    stale = []
    for name, img in made.items():
        committed = Image.open(ARBITER / "img" / f"{name}.png").convert("L")
        if img.size != committed.size or img.convert("L").tobytes() != committed.tobytes():
            stale.append(name)
    assert stale == [], f"run docs/arbiter/make_pictures.py: {stale} changed"
