"""The `[scoring]` table: the shipped presets carry the RULES.md values (written out by hand, each citing its
rule ID), `Scoring.cap` answers from them, and every class of mistake is one RuleError line naming the file and
the dotted key."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gameclock.core.scoring import KINDS, Scoring
from gameclock.rules.loader import EVENT_SCORING_KINDS, EVENTS, RuleError, load_preset

REPO_RULES = Path(__file__).resolve().parents[2] / "rules"
RULE_FILES = sorted(REPO_RULES.glob("*.toml"))
README = (REPO_RULES / "README.md").read_text(encoding="utf-8")

# --- the shipped presets, by hand -------------------------------------------------------------------------

# XW-6: win 2, draw 1, loss 0. XW-8: (level, cap, last qualifying game's cap); the final has no cap.
# XW-9: bye +100, primary-school Crossword +50.
CROSSWORD = Scoring(
    kind="crossword", win_points=2, draw_points=1, loss_points=0,
    caps=(("primary", 100, 80), ("secondary", 250, 200)),   # XW-8: primary Crossword 100/80; secondary 250/200
    default_level=None,   # XW-8: the level is each game's set-up on the clock, never a silent default
    bye_spread=(("primary", 50), ("secondary", 100)),       # XW-9
)
AMATH_KHAMKOM = Scoring(
    kind="crossword", win_points=2, draw_points=1, loss_points=0,
    caps=(("primary", 150, 120), ("secondary", 250, 200)),  # XW-8: primary A-Math and Kham Kom 150/120
    default_level=None,
    bye_spread=(("primary", 100), ("secondary", 100)),      # XW-9: +100 (the +50 is primary Crossword only)
)
MAKRUK = Scoring(kind="makruk", win_points=2, draw_points=1, loss_points=0)  # MR-9: MP 2/1/0; MR-1: a flag loses
MAKRUK_003 = Scoring(kind="makruk", win_points=2, draw_points=1, loss_points=0,
                     flag_needs_material=True)                                # MR-2: seed 003's event only
MAKHOS = Scoring(kind="makhos", win_points=2, draw_points=1, loss_points=0)  # MH-7: game points 2/1/0
SUDOKU = Scoring(kind="sudoku")                                              # SU-2, SU-3
NONE = Scoring()                                                             # DGT-class presets: no [scoring]

EXPECTED = {
    "crossword": CROSSWORD,
    "crossword-nocut": CROSSWORD,
    "amath": AMATH_KHAMKOM,
    "amath-nocut": AMATH_KHAMKOM,     # XW-5 with A-Math's own caps and bye
    "khamkom": AMATH_KHAMKOM,
    "khamkom-nocut": AMATH_KHAMKOM,
    "makruk-45": MAKRUK,
    "makruk-30": MAKRUK_003,
    "makhos-move": MAKHOS,
    "makhos-stopwatch": MAKHOS,
    "makhos-move-2x5": MAKHOS,
    "makhos-30": MAKHOS,
    "makhos-tiebreak-20": MAKHOS,
    "sudoku-60": SUDOKU,
    "fischer-3+2": NONE,
    "fischer-5+3": NONE,
    "fischer-15+10": NONE,
    "bronstein-5d3": NONE,
    "delay-5d3": NONE,
    "byoyomi-10+5x30": NONE,
    "hourglass-5": NONE,
    "fide-classical": NONE,
    "handicap-5-3": NONE,
}


def shipped(preset_id: str):
    return load_preset(REPO_RULES / f"{preset_id}.toml")


def test_every_shipped_file_has_a_hand_written_expectation() -> None:
    assert sorted(EXPECTED) == sorted(p.stem for p in RULE_FILES)


@pytest.mark.parametrize("preset_id", sorted(EXPECTED))
def test_shipped_scoring(preset_id: str) -> None:
    assert shipped(preset_id).scoring == EXPECTED[preset_id]


@pytest.mark.parametrize("path", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_scoring_kind_fits_the_event_and_the_rules_cited(path: Path) -> None:
    p = load_preset(path)
    if p.scoring.kind == "none":
        assert p.event == "custom"
        return
    assert p.scoring.kind in EVENT_SCORING_KINDS[p.event]
    cited = {"crossword": {"XW-6", "XW-8", "XW-9"}, "makruk": {"MR-9"}, "makhos": {"MH-7"}, "sudoku": {"SU-2"}}
    assert cited[p.scoring.kind] <= set(p.rule_ids), f"{path.name}: cite the rules the [scoring] table carries"


def test_crossword_caps() -> None:
    s = shipped("crossword").scoring
    assert s.cap("primary", "qualifying") == 100   # XW-8: primary-school Crossword
    assert s.cap("primary", "last") == 80          # XW-8: its last qualifying game
    assert s.cap("secondary", "qualifying") == 250  # XW-8: lower and upper secondary
    assert s.cap("secondary", "last") == 200
    with pytest.raises(ValueError, match="no level set"):  # XW-8: no silent default level
        s.cap(None, "qualifying")
    for level in ("primary", "secondary", None):
        assert s.cap(level, "final") is None        # XW-8: final round, no cap (whatever the level)
    assert dict(s.bye_spread) == {"primary": 50, "secondary": 100}  # XW-9


@pytest.mark.parametrize("preset_id", ["amath", "khamkom"])
def test_amath_and_khamkom_caps(preset_id: str) -> None:
    s = shipped(preset_id).scoring
    assert s.cap("primary", "qualifying") == 150    # XW-8: primary A-Math and Kham Kom
    assert s.cap("primary", "last") == 120
    assert s.cap("secondary", "qualifying") == 250
    assert s.cap("secondary", "last") == 200
    assert s.cap("primary", "final") is None and s.cap("secondary", "final") is None  # XW-8
    assert dict(s.bye_spread) == {"primary": 100, "secondary": 100}  # XW-9


def test_scoring_summary() -> None:
    assert shipped("crossword").scoring_summary == \
        "2/1/0, primary: cap 100/80 bye 50; secondary: cap 250/200 bye 100"
    assert shipped("makruk-45").scoring_summary == "2/1/0, flag loses"
    assert shipped("makruk-30").scoring_summary == "2/1/0, flag needs material (MR-2)"
    assert shipped("sudoku-60").scoring_summary == "sudoku"
    assert shipped("fischer-5+3").scoring_summary == "-"


# --- the documentation -------------------------------------------------------------------------------------


def test_readme_documents_every_scoring_key() -> None:
    section = README[README.index("## `[scoring]`"):README.index("## Example")]
    for key in ("kind", "win", "draw", "loss", "default_level", "flag_needs_material", "[scoring.caps]",
                "[scoring.bye_spread]"):
        assert f"`{key}`" in section, key
    for kind in KINDS:
        assert f"`{kind}`" in section, kind


def test_readme_example_is_the_shipped_crossword_file() -> None:
    block = re.search(r"```toml\n# rules/crossword.toml\n(.*?)```", README, flags=re.DOTALL)
    assert block, "rules/README.md lost its example"
    assert block.group(1) == (REPO_RULES / "crossword.toml").read_text(encoding="utf-8")


# --- files written here -----------------------------------------------------------------------------------

HEAD = """\
[preset]
id = "x"
name = "Test"
event = "{event}"
rules = {rules}

[clock]
mode = "countdown"
time = "22:00"

"""
FAMILY_RULE = {"crossword": '["XW-2"]', "amath": '["XW-2"]', "khamkom": '["XW-2"]', "makruk": '["MR-1"]',
               "makhos": '["MH-4"]', "sudoku": '["SU-1"]', "custom": "[]"}

GOOD_SCORING = """\
[scoring]
kind = "crossword"
win = 2
draw = 1
loss = 0
default_level = "secondary"

[scoring.caps]
primary = [100, 80]
secondary = [250, 200]

[scoring.bye_spread]
primary = 50
secondary = 100
"""


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(scoring: str, event: str = "crossword") -> Path:
    path = Path("x.toml")
    path.write_text(HEAD.format(event=event, rules=FAMILY_RULE[event]) + scoring, encoding="utf-8")
    return path


def error(scoring: str, event: str = "crossword") -> RuleError:
    with pytest.raises(RuleError) as info:
        load_preset(write(scoring, event))
    return info.value


def check(err: RuleError, key: str, fragment: str) -> None:
    message = str(err)
    assert "\n" not in message and "\r" not in message, message
    assert message.startswith(f"x.toml: {key}: "), message
    assert fragment in message, message
    assert err.file == "x.toml" and err.key == key


def edit(old: str, new: str) -> str:
    assert old in GOOD_SCORING, old
    return GOOD_SCORING.replace(old, new)


def test_good_scoring_loads(in_tmp: Path) -> None:
    # the file fixes its level with default_level: the organiser's explicit choice for the event
    assert load_preset(write(GOOD_SCORING)).scoring == Scoring(**{**CROSSWORD.__dict__, "default_level": "secondary"})


def test_without_a_scoring_table_the_preset_scores_nothing(in_tmp: Path) -> None:
    assert load_preset(write("")).scoring == Scoring() == NONE
    assert NONE.kind == "none" and NONE.cap(None, "qualifying") is None


def test_documented_error_example(in_tmp: Path) -> None:
    err = error(edit("primary = [100, 80]", "primary = [100, 120]"))
    assert str(err) == "x.toml: scoring.caps.primary[1]: the last-game cap 120 is above the cap 100"


# The error classes the change asks for, then the rest.


@pytest.mark.parametrize(
    ("scoring", "key", "fragment"),
    [
        (edit("loss = 0\n", "loss = 0\nbye = 100\n"), "scoring.bye", "unknown key"),
        (edit("win = 2\n", "wins = 2\n"), "scoring.wins", "unknown key (did you mean 'win'?)"),
        (edit("[scoring.caps]\n", "[scoring.cap]\nx = 1\n[scoring.caps]\n"), "scoring.cap",
         "unknown key (did you mean 'caps'?)"),
        ('[scoring]\nkind = "makruk"\nmp = 2\n', "scoring.mp", "unknown key"),
    ],
)
def test_unknown_scoring_key(in_tmp: Path, scoring: str, key: str, fragment: str) -> None:
    check(error(scoring, "makruk" if "makruk" in scoring else "crossword"), key, fragment)


@pytest.mark.parametrize(
    ("event", "kind", "expected"),
    [
        ("crossword", "makruk", "crossword"),
        ("amath", "sudoku", "crossword"),
        ("khamkom", "makhos", "crossword"),
        ("makruk", "crossword", "makruk"),
        ("makhos", "makruk", "makhos"),
        ("sudoku", "crossword", "sudoku"),
        ("crossword", "none", "crossword"),
        ("makruk", "none", "makruk"),
    ],
)
def test_kind_not_fitting_the_event(in_tmp: Path, event: str, kind: str, expected: str) -> None:
    check(error(f'[scoring]\nkind = "{kind}"\n', event), "scoring.kind",
          f"kind '{kind}' does not fit event '{event}' (expected {expected})")


def test_every_kind_fits_a_custom_event(in_tmp: Path) -> None:
    for kind in KINDS:
        assert load_preset(write(f'[scoring]\nkind = "{kind}"\n', "custom")).scoring == Scoring(kind=kind)
    assert set(EVENT_SCORING_KINDS) == set(EVENTS)


@pytest.mark.parametrize(
    ("scoring", "key", "fragment"),
    [
        (edit("primary = [100, 80]", "primary = [100, 101]"), "scoring.caps.primary[1]",
         "the last-game cap 101 is above the cap 100"),
        (edit("secondary = [250, 200]", "secondary = [200, 250]"), "scoring.caps.secondary[1]",
         "the last-game cap 250 is above the cap 200"),
    ],
)
def test_last_game_cap_above_the_cap(in_tmp: Path, scoring: str, key: str, fragment: str) -> None:
    check(error(scoring), key, fragment)


def test_last_game_cap_may_equal_the_cap(in_tmp: Path) -> None:
    assert load_preset(write(edit("primary = [100, 80]", "primary = [100, 100]"))).scoring.cap("primary", "last") == 100


@pytest.mark.parametrize(
    ("scoring", "fragment"),
    [
        (edit('default_level = "secondary"', 'default_level = "tertiary"'),
         "'tertiary' is not a level of [scoring.caps] (one of primary, secondary)"),
        (edit('default_level = "secondary"', 'default_level = "Secondary"'),
         "'Secondary' is not a level of [scoring.caps] (one of primary, secondary) (did you mean 'secondary'?)"),
        ('[scoring]\nkind = "crossword"\ndefault_level = "primary"\n', "needs [scoring.caps]"),
    ],
)
def test_default_level_not_a_cap_level(in_tmp: Path, scoring: str, fragment: str) -> None:
    check(error(scoring), "scoring.default_level", fragment)


def test_several_levels_and_no_default_level_leave_the_level_to_each_game(in_tmp: Path) -> None:
    # XW-8: the level is part of the game's set-up (the clock's Level, or the pairing): no silent default
    s = load_preset(write(edit('default_level = "secondary"\n', ""))).scoring
    assert s.default_level is None
    assert s.cap("primary", "qualifying") == 100 and s.cap("secondary", "last") == 200


def test_flag_needs_material_is_a_makruk_boolean(in_tmp: Path) -> None:
    # MR-2 per preset (second edition)
    makruk = '[scoring]\nkind = "makruk"\nflag_needs_material = {}\n'
    assert load_preset(write(makruk.format("true"), event="makruk")).scoring.flag_needs_material
    assert not load_preset(write('[scoring]\nkind = "makruk"\n', event="makruk")
                           ).scoring.flag_needs_material  # default: MR-1's plain flag
    with pytest.raises(RuleError) as info:
        load_preset(write(makruk.format('"yes"'), event="makruk"))
    check(info.value, "scoring.flag_needs_material", "expected true or false, got string 'yes'")
    with pytest.raises(RuleError) as info:
        load_preset(write('[scoring]\nkind = "makhos"\nflag_needs_material = true\n', event="makhos"))
    check(info.value, "scoring.flag_needs_material", "not used by kind 'makhos'")


def test_one_level_is_the_default(in_tmp: Path) -> None:
    s = load_preset(write('[scoring]\nkind = "crossword"\n[scoring.caps]\nopen = [300, 250]\n')).scoring
    assert s.default_level == "open" and s.cap(None, "last") == 250 and s.bye_spread == ()
    assert s.win_points == 2 and s.draw_points == 1 and s.loss_points == 0  # XW-6 are the defaults


@pytest.mark.parametrize(
    ("scoring", "key", "fragment"),
    [
        (edit('kind = "crossword"', "kind = 1"), "scoring.kind", "expected a string, got integer 1"),
        (edit("win = 2", 'win = "2"'), "scoring.win", "expected an integer, got string '2'"),
        (edit("draw = 1", "draw = 1.0"), "scoring.draw", "expected an integer, got float 1.0"),
        (edit("loss = 0", "loss = false"), "scoring.loss", "expected an integer, got false"),
        (edit('default_level = "secondary"', "default_level = 2"), "scoring.default_level",
         "expected a string, got integer 2"),
        (edit("primary = [100, 80]", "primary = 100"), "scoring.caps.primary",
         "expected [cap, last_game_cap] like [250, 200], got integer 100"),
        (edit("primary = [100, 80]", "primary = [100]"), "scoring.caps.primary",
         "expected [cap, last_game_cap] like [250, 200], got array of 1"),
        (edit("primary = [100, 80]", "primary = [100, 80, 60]"), "scoring.caps.primary", "got array of 3"),
        (edit("primary = [100, 80]", 'primary = [100, "80"]'), "scoring.caps.primary[1]",
         "expected an integer, got string '80'"),
        (edit("primary = [100, 80]", "primary = [100.0, 80]"), "scoring.caps.primary[0]",
         "expected an integer, got float 100.0"),
        (edit("primary = 50", 'primary = "50"'), "scoring.bye_spread.primary", "expected an integer, got string '50'"),
        (edit("[scoring.caps]\nprimary = [100, 80]\nsecondary = [250, 200]\n", "caps = 250\n")
         .replace("[scoring.bye_spread]\nprimary = 50\nsecondary = 100\n", ""), "scoring.caps",
         "expected a table [scoring.caps] like primary = [100, 80], got integer 250"),
        (edit("[scoring.bye_spread]\nprimary = 50\nsecondary = 100\n", "")
         .replace("[scoring.caps]\n", "bye_spread = [50, 100]\n[scoring.caps]\n"), "scoring.bye_spread", "expected a table [scoring.bye_spread] like primary = 50, got array"),
    ],
)
def test_wrong_type(in_tmp: Path, scoring: str, key: str, fragment: str) -> None:
    check(error(scoring), key, fragment)


def test_scoring_that_is_not_a_table(in_tmp: Path) -> None:
    path = Path("x.toml")
    path.write_text('scoring = "crossword"\n' + HEAD.format(event="crossword", rules='["XW-2"]'), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_preset(path)
    check(info.value, "scoring", "expected a table [scoring], got string 'crossword'")


@pytest.mark.parametrize(
    ("scoring", "event", "key", "fragment"),
    [
        ("[scoring]\nwin = 2\n", "crossword", "scoring.kind", "missing (required: crossword for event 'crossword')"),
        ("[scoring]\nwin = 2\n", "custom", "scoring.kind", "missing (required: crossword or makruk or makhos"),
        ('[scoring]\nkind = "scrabble"\n', "custom", "scoring.kind", "unknown kind 'scrabble' (one of crossword, "),
        ('[scoring]\nkind = "makrook"\n', "makruk", "scoring.kind", "(did you mean 'makruk'?)"),
        ('[scoring]\nkind = "makruk"\ndefault_level = "primary"\n', "makruk", "scoring.default_level",
         "not used by kind 'makruk'"),
        ('[scoring]\nkind = "makhos"\n[scoring.caps]\nprimary = [100, 80]\n', "makhos", "scoring.caps",
         "not used by kind 'makhos'"),
        ('[scoring]\nkind = "sudoku"\nwin = 2\n', "sudoku", "scoring.win", "not used by kind 'sudoku'"),
        ('[scoring]\nkind = "none"\nloss = 0\n', "custom", "scoring.loss", "not used by kind 'none'"),
        (edit("primary = 50", "tertiary = 50"), "crossword", "scoring.bye_spread.tertiary",
         "unknown level 'tertiary' (the levels are the keys of [scoring.caps]: one of primary, secondary)"),
        ('[scoring]\nkind = "crossword"\n[scoring.bye_spread]\nprimary = 50\n', "crossword", "scoring.bye_spread.primary",
         "there is no [scoring.caps] table"),
        (edit("primary = 50", "primary = -50"), "crossword", "scoring.bye_spread.primary", "must be at least 0, got -50"),
        (edit("primary = [100, 80]", "primary = [0, 0]"), "crossword", "scoring.caps.primary[0]", "must be at least 1, got 0"),
        (edit("primary = [100, 80]", "primary = [100, -80]"), "crossword", "scoring.caps.primary[1]", "at least 1"),
        (edit("primary = [100, 80]", '"Primary School" = [100, 80]'), "crossword", "scoring.caps.Primary School",
         "is not a level name"),
        ('[scoring]\nkind = "crossword"\n[scoring.caps]\n', "crossword", "scoring.caps", "must not be empty"),
        (edit("[scoring.bye_spread]\nprimary = 50\nsecondary = 100\n", "[scoring.bye_spread]\n"), "crossword",
         "scoring.bye_spread", "must not be empty"),
        (edit("win = 2", "win = -2"), "crossword", "scoring.win", "must be at least 0, got -2"),
        (edit("win = 2", "win = 0"), "crossword", "scoring.win", "must be more than scoring.loss (0 <= 0)"),
        (edit("draw = 1", "draw = 3"), "crossword", "scoring.draw", "must be between scoring.loss and scoring.win (0..2), got 3"),
        (edit("loss = 0", "loss = 1").replace("draw = 1", "draw = 0"), "crossword", "scoring.draw",
         "must be between scoring.loss and scoring.win (1..2), got 0"),
    ],
)
def test_other_mistakes(in_tmp: Path, scoring: str, event: str, key: str, fragment: str) -> None:
    check(error(scoring, event), key, fragment)


def test_other_game_points(in_tmp: Path) -> None:
    s = load_preset(write('[scoring]\nkind = "makruk"\nwin = 3\ndraw = 1\nloss = 0\n', "makruk")).scoring
    assert (s.kind, s.win_points, s.draw_points, s.loss_points) == ("makruk", 3, 1, 0)
    assert s.caps == () and s.cap(None, "last") is None
