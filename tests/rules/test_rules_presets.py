"""The shipped presets in rules/: every file loads, cites real RULES.md IDs, and carries the values the rules
give (written out by hand here, each citing its rule ID)."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.core.control import (
    COUNTDOWN,
    DELAY_BRONSTEIN,
    DELAY_NONE,
    DELAY_SIMPLE,
    GAMECUT,
    PER_MOVE,
    ROUND,
    ExtensionOption,
    Stage,
)
from gameclock.rules.loader import (
    EVENTS,
    RULES_DIR,
    SHORT_MAX,
    Preset,
    RuleError,
    find_preset,
    load_preset,
    load_presets,
)

S = 10**9
MIN = 60 * S

REPO_RULES = Path(__file__).resolve().parents[2] / "rules"
RULE_FILES = sorted(REPO_RULES.glob("*.toml"))


def preset(preset_id: str) -> Preset:
    return load_preset(REPO_RULES / f"{preset_id}.toml")


def test_rules_dir_is_the_repos_rules_folder() -> None:
    assert RULES_DIR.resolve() == REPO_RULES.resolve()


def test_required_presets_exist() -> None:
    ids = {p.stem for p in RULE_FILES}
    required = {
        "crossword", "amath", "khamkom", "crossword-nocut", "makruk-45", "makruk-30", "makhos-move",
        "makhos-30", "makhos-tiebreak-20", "sudoku-60",
        # DGT-class presets players expect
        "fischer-5+3", "bronstein-5d3", "delay-5d3", "byoyomi-10+5x30", "hourglass-5", "fide-classical",
        "handicap-5-3",
    }
    assert required <= ids, f"missing presets: {sorted(required - ids)}"


@pytest.mark.parametrize("path", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_every_rule_file_loads(path: Path, rules_md_ids: frozenset[str]) -> None:
    p = load_preset(path)
    assert p.id == path.stem
    assert p.path == path
    assert p.name.strip()
    assert 0 < len(p.short) <= SHORT_MAX
    assert p.event in EVENTS
    unknown = [r for r in p.rule_ids if r not in rules_md_ids]
    assert not unknown, f"{path.name} cites rule IDs that docs/rules.md does not have: {unknown}"
    if p.event != "custom":
        assert p.rule_ids, f"{path.name}: an event preset must cite its rules"
    assert p.control.initial_ns(0) > 0 and p.control.initial_ns(1) > 0
    assert p.summary


def test_load_presets_is_sorted_and_complete() -> None:
    presets = load_presets()
    assert [p.id for p in presets] == sorted(p.stem for p in RULE_FILES)


# --- values from RULES.md, by hand ------------------------------------------------------------------------


@pytest.mark.parametrize(("preset_id", "minutes"), [("crossword", 22), ("amath", 22), ("khamkom", 25)])
def test_crossword_family_times_and_overtime(preset_id: str, minutes: int) -> None:
    p = preset(preset_id)
    c = p.control
    assert c.mode == COUNTDOWN  # XW-1: a two-sided game clock, each side its own time
    # XW-2: Crossword 22:00, A-Math 22:00, Kham Kom 25:00 per side
    assert c.stages_left == c.stages_right == (Stage(minutes * MIN),)
    assert c.initial_ns(0) == c.initial_ns(1) == minutes * 60 * 10**9
    # XW-3: runs below zero, 10 points per started minute
    assert c.negative is True
    assert c.penalty_points_per_minute == 10
    assert {"XW-2", "XW-3"} <= set(p.rule_ids)
    assert p.sequence == ()
    assert p.control_for(3) == c


def test_crossword_summary() -> None:
    assert preset("crossword").summary == "22:00 negative, -10/min"


def test_crossword_nocut() -> None:
    p = preset("crossword-nocut")
    c = p.control
    assert p.event == "crossword"
    assert "XW-5" in p.rule_ids
    assert c.mode == GAMECUT
    # XW-2: "a game is about 50 minutes in all" -- one shared game time
    assert c.stages_left[0].time_ns == 50 * MIN
    # XW-5: warnings at 10 and at 5 minutes before the end, then 2 more turns each
    assert c.cut_warnings_ns == (10 * MIN, 5 * MIN)
    assert c.cut_extra_turns == 2


@pytest.mark.parametrize(("preset_id", "minutes"), [("makruk-45", 45), ("makruk-30", 30)])
def test_makruk_sudden_death(preset_id: str, minutes: int) -> None:
    p = preset(preset_id)
    c = p.control
    # MR-3 draws (result entry), MR-4, MR-6..MR-8: the [counting] table; MR-9, MR-10: the [scoring]
    # table and the standings; MR-11: [standings]; MR-12: the knockout notes
    common = {"MR-1", "MR-3", "MR-4", "MR-6", "MR-7", "MR-8", "MR-9", "MR-10", "MR-11", "MR-12"}
    # MR-2 and MR-13 are seed 003's event's only (the 30:00 preset)
    assert set(p.rule_ids) == (common | {"MR-2", "MR-13"} if minutes == 30 else common)
    # MR-1: sudden death, 45:00 (university) / 30:00 (seed 003) per side; the first to run out loses
    assert c.mode == COUNTDOWN
    assert c.stages_left == c.stages_right == (Stage(minutes * MIN),)
    assert c.negative is False
    assert c.penalty_points_per_minute == 0
    assert c.delay_kind == DELAY_NONE and c.byoyomi_periods == 0 and not c.hourglass


def test_makruk_30_calls_the_arbiter_at_five_minutes() -> None:
    # MR-13, seed 003 Makruk §3: the arbiter is told when a side has 5:00 or less: its own call, not the
    # players' low-time warning
    c = preset("makruk-30").control
    assert c.arbiter_call_ns == 5 * MIN and 5 * MIN not in c.low_time_ns
    # seed 001 has no such rule
    assert preset("makruk-45").control.arbiter_call_ns == 0


def test_mr2_is_per_preset() -> None:
    # MR-2 second edition: seed 003's 30:00 event applies the material rule; seed 001 §7(3)'s 45:00 does
    # not ("the player whose time runs out first loses")
    assert preset("makruk-30").scoring.flag_needs_material is True
    assert preset("makruk-45").scoring.flag_needs_material is False


def test_makhos_per_move() -> None:
    p = preset("makhos-move")
    c = p.control
    # MH-1, MH-5: the result entry's reasons; MH-6: [counting]; MH-7, MH-8: [scoring] and the standings
    assert set(p.rule_ids) == {"MH-1", "MH-2", "MH-3", "MH-5", "MH-6", "MH-7", "MH-8"}
    # MH-2, seed 002 §3: at 2:00 the player loses
    assert c.move_expiry == "lose"
    assert c.mode == PER_MOVE
    # MH-2: 2:00 per move, announcements at 30 s and 10 s left
    assert c.move_time_ns == 120 * S
    assert c.initial_ns(0) == 120 * S
    assert c.announce_ns == (30 * S, 10 * S)
    # MH-3: two of 5:00, or one of 10:00
    assert c.extension_options == (ExtensionOption(2, 5 * MIN), ExtensionOption(1, 10 * MIN))


def test_makhos_per_move_seed_003_variant() -> None:
    c = preset("makhos-move-2x5").control
    # MH-2 as above; MH-3 seed 003: two of 5:00 only
    assert c.move_time_ns == 120 * S
    assert c.announce_ns == (30 * S, 10 * S)
    assert c.extension_options == (ExtensionOption(2, 5 * MIN),)
    assert c.move_expiry == "lose"  # MH-2, seed 003 §1.5.1


def test_makhos_stopwatch_seed_004() -> None:
    p = preset("makhos-stopwatch")
    c = p.control
    # MH-2, seed 004 §3.2.1: 2:00 a move, one call at 1:30 used (0:30 left); at 2:00 the arbiter orders
    # the move (`call`), the player loses only by refusing
    assert c.mode == PER_MOVE and c.move_time_ns == 120 * S
    assert c.announce_ns == (30 * S,)
    assert c.move_expiry == "call"
    # MH-3, seed 004 §3.2.2: two of 5:00 or one of 10:00
    assert c.extension_options == (ExtensionOption(2, 5 * MIN), ExtensionOption(1, 10 * MIN))


def test_makhos_30_sequence() -> None:
    p = preset("makhos-30")
    assert "MH-4" in p.rule_ids
    assert p.control.mode == COUNTDOWN
    # MH-4 (seed 004 §3.2.3): 30:00 per side for every game of the match; the extra games after a tied
    # match: 25:00, then 20:00, 15:00, 10:00
    assert p.sequence == (30 * MIN, 25 * MIN, 20 * MIN, 15 * MIN, 10 * MIN)
    assert p.control.stages_left[0].time_ns == 30 * MIN
    assert p.control_for() == p.control == p.control_for(0)   # games 1-4 of the match alike
    tb1 = p.control_for(1)
    assert tb1.stages_left[0].time_ns == tb1.stages_right[0].time_ns == 25 * MIN
    assert p.control_for(2).initial_ns(0) == 20 * MIN
    assert p.control_for(3).initial_ns(1) == 15 * MIN
    assert p.control_for(4).initial_ns(0) == 10 * MIN
    # after 10:00 there is no further reduction: step 5 stays 10:00
    assert p.control_for(5).initial_ns(0) == p.control_for(5).initial_ns(1) == 10 * MIN
    assert p.control_for(60).initial_ns(1) == 10 * MIN
    # only the time changes between games
    assert tb1.low_time_ns == p.control.low_time_ns and tb1.mode == COUNTDOWN


def test_control_for_rejects_a_bad_tiebreak_step() -> None:
    p = preset("makhos-30")
    for bad in (-1, True, 1.0, "1"):
        with pytest.raises(ValueError):
            p.control_for(bad)  # type: ignore[arg-type]


def test_makhos_tiebreak_20() -> None:
    p = preset("makhos-tiebreak-20")
    # MH-7 (and MH-8): tie-break games at 20:00 per side
    assert "MH-7" in p.rule_ids
    assert p.control.stages_left == p.control.stages_right == (Stage(20 * MIN),)
    assert p.control.negative is False


def test_sudoku_round() -> None:
    p = preset("sudoku-60")
    c = p.control
    assert set(p.rule_ids) == {"SU-1", "SU-2", "SU-3"}  # SU-2: the [scoring] table
    assert c.mode == ROUND
    # SU-1: rounds of 60 minutes
    assert c.stages_left[0].time_ns == 60 * MIN
    assert c.initial_ns(0) == c.initial_ns(1) == 60 * MIN
    # SU-3: 3 points per whole minute left
    assert c.bonus_points_per_minute == 3


# --- the DGT-class presets --------------------------------------------------------------------------------


def test_fischer_5_3() -> None:
    c = preset("fischer-5+3").control
    assert c.stages_left == c.stages_right == (Stage(5 * MIN, None, 3 * S),)


def test_bronstein_and_simple_delay() -> None:
    b = preset("bronstein-5d3").control
    assert (b.delay_kind, b.delay_ns, b.stages_left[0].time_ns) == (DELAY_BRONSTEIN, 3 * S, 5 * MIN)
    d = preset("delay-5d3").control
    assert (d.delay_kind, d.delay_ns, d.stages_left[0].time_ns) == (DELAY_SIMPLE, 3 * S, 5 * MIN)
    assert b.stages_left[0].increment_ns == d.stages_left[0].increment_ns == 0


def test_byoyomi() -> None:
    c = preset("byoyomi-10+5x30").control
    assert c.stages_left[0].time_ns == 10 * MIN
    assert (c.byoyomi_periods, c.byoyomi_period_ns) == (5, 30 * S)


def test_hourglass() -> None:
    c = preset("hourglass-5").control
    assert c.hourglass is True
    assert c.stages_left == c.stages_right == (Stage(5 * MIN),)


def test_fide_classical_stages() -> None:
    c = preset("fide-classical").control
    # 1:30:00 for 40 moves, then 30:00 for the rest; 30 s increment from move 1
    expected = (Stage(90 * MIN, 40, 30 * S), Stage(30 * MIN, None, 30 * S))
    assert c.stages_left == c.stages_right == expected


def test_handicap_times_per_side() -> None:
    c = preset("handicap-5-3").control
    assert c.initial_ns(0) == 5 * MIN
    assert c.initial_ns(1) == 3 * MIN


# --- find_preset / directory override -----------------------------------------------------------------------


def test_find_preset() -> None:
    assert find_preset("makruk-45").control.initial_ns(0) == 45 * MIN


def test_find_preset_unknown_lists_known_ids() -> None:
    with pytest.raises(RuleError) as info:
        find_preset("chess-960")
    message = str(info.value)
    assert "'chess-960'" in message
    for known in ("crossword", "makhos-move", "sudoku-60"):
        assert known in message
    assert "\n" not in message


def test_find_preset_rejects_path_tricks() -> None:
    with pytest.raises(RuleError):
        find_preset("../rules/crossword")


def test_env_var_overrides_rules_dir(tmp_path: Path, write_rule, good_crossword: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    write_rule(good_crossword, name="only-one")
    monkeypatch.setenv("GAMECLOCK_RULES_DIR", str(tmp_path))
    assert [p.id for p in load_presets()] == ["only-one"]
    assert find_preset("only-one").path == tmp_path / "only-one.toml"
    with pytest.raises(RuleError) as info:
        find_preset("crossword")
    assert "only-one" in str(info.value)


def test_load_presets_stops_at_a_bad_file(tmp_path: Path, write_rule, good_crossword: str) -> None:
    write_rule(good_crossword, name="a-good")
    write_rule(good_crossword.replace('"22:00"', '"22:75"'), name="b-bad")
    with pytest.raises(RuleError) as info:
        load_presets(tmp_path)
    assert "b-bad.toml: clock.time:" in str(info.value)
    # find_preset loads only the file it needs
    assert find_preset("a-good", tmp_path).id == "a-good"


def test_load_presets_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="no such rules folder"):
        load_presets(tmp_path / "nope")


# which seed event each shipped event preset serves (rules/README.md's table says the same)
SERVES = {
    "crossword": "seed 000", "amath": "seed 000", "khamkom": "seed 000", "sudoku-60": "seed 000",
    "crossword-nocut": "seed 000 §3.6", "amath-nocut": "seed 000 §3.6", "khamkom-nocut": "seed 000 §3.6",
    "makruk-45": "seed 001", "makruk-30": "seed 003", "makhos-move": "seed 002",
    "makhos-move-2x5": "seed 003", "makhos-stopwatch": "seed 004", "makhos-30": "seed 004 §3.2.3",
    "makhos-tiebreak-20": "seed 004 §3.9",
}


@pytest.mark.parametrize("path", RULE_FILES, ids=[p.stem for p in RULE_FILES])
def test_every_event_preset_names_the_seed_event_it_serves(path: Path) -> None:
    p = load_preset(path)
    if p.event == "custom":
        assert p.id not in SERVES
        return
    head = path.read_text(encoding="utf-8").split("[preset]")[0]   # the comment above [preset]
    assert SERVES[p.id] in head, f"{path.name}: its opening comment should name {SERVES[p.id]}"
    readme_row = next(line for line in (REPO_RULES / "README.md").read_text(encoding="utf-8").splitlines()
                      if line.startswith(f"| `{p.id}` |"))
    assert SERVES[p.id].split(" §")[0] in readme_row
