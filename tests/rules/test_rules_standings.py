"""The `[standings]` table (issue 7): MR-11's team boards, MH-7's match games and the order of MH-7's ways of
deciding ties (`tiebreaks`) for `gameclock standings`. The shipped presets carry the seeds' numbers (written out
by hand), and every mistake is one RuleError line naming the file and the dotted key."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.rules.loader import RuleError, StandingsSettings, load_preset

REPO_RULES = Path(__file__).resolve().parents[2] / "rules"

# (team_boards, match_games)
EXPECTED = {
    "makruk-45": (2, 4),          # MR-11, seed 001 §6: boards 1 and 2 of a campus
    "makruk-30": (2, 4),          # MR-11 (match_games unused by makruk: the default)
    "makhos-move": (2, 4),        # MH-7, seed 004 §3.9.1: matches of 4 games
    "makhos-30": (2, 4),          # MH-7
    "makhos-tiebreak-20": (2, 4),  # MH-7
    "makhos-move-2x5": (2, 2),    # MH-8, seed 003 Makhos note: 2 games a match
}


# MH-7 decision (RULES, second edition): match points, game points, game difference, the tie-break games'
# points, then less time used in the tie-break games
MH7_ORDER = ("match_points", "game_points", "game_difference", "tiebreak_points", "tiebreak_time")


@pytest.mark.parametrize("preset_id", sorted(EXPECTED))
def test_shipped_standings(preset_id: str) -> None:
    p = load_preset(REPO_RULES / f"{preset_id}.toml")
    assert (p.standings.team_boards, p.standings.match_games) == EXPECTED[preset_id]
    assert p.standings.tiebreaks == MH7_ORDER
    text = (REPO_RULES / f"{preset_id}.toml").read_text(encoding="utf-8")
    section = text[text.index("\n[standings]\n"):]
    assert ("MR-11" if p.event == "makruk" else "MH-") in section, "the [standings] comments cite the rule"
    if p.event == "makhos":   # the order is written out, with MH-7 and seed 004 §3.9.1 ค. cited above it
        assert "\ntiebreaks = " in section
        comment = section[:section.index("\ntiebreaks = ")].rsplit("match_games", 1)[1]
        assert "MH-7" in comment and "seed 004 §3.9.1 ค." in comment


def test_other_presets_have_the_defaults() -> None:
    for path in sorted(REPO_RULES.glob("*.toml")):
        p = load_preset(path)
        if p.event not in ("makruk", "makhos"):
            assert p.standings == StandingsSettings(2, 4), path.name
            assert "[standings]" not in path.read_text(encoding="utf-8"), path.name


def test_readme_documents_the_standings_keys() -> None:
    readme = (REPO_RULES / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## `[standings]`"):readme.index("## Example")]
    for key in ("team_boards", "match_games", "tiebreaks", *MH7_ORDER):
        assert f"`{key}`" in section, key
    assert "standings.tiebreaks[2]: unknown method 'time'" in section   # the error shown
    assert "our extension" in section  # MR-11 defines 2 boards only


# --- files written here -----------------------------------------------------------------------------------

MAKRUK_HEAD = '[preset]\nid = "x"\nname = "T"\nevent = "makruk"\nrules = ["MR-9"]\n\n[clock]\nmode = "countdown"\ntime = "45:00"\n'
MAKHOS_HEAD = MAKRUK_HEAD.replace('"makruk"', '"makhos"').replace('"MR-9"', '"MH-7"')
CUSTOM_HEAD = MAKRUK_HEAD.replace('"makruk"', '"custom"')
XWORD_HEAD = MAKRUK_HEAD.replace('"makruk"', '"crossword"').replace('"MR-9"', '"XW-2"')


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def load(text: str):
    Path("x.toml").write_text(text, encoding="utf-8")
    return load_preset(Path("x.toml"))


def error(text: str) -> str:
    with pytest.raises(RuleError) as info:
        load(text)
    message = str(info.value)
    assert "\n" not in message and message.startswith("x.toml: "), message
    return message


def test_values_are_read(in_tmp: Path) -> None:
    assert load(MAKRUK_HEAD + "\n[standings]\nteam_boards = 4\n").standings == StandingsSettings(4, 4)
    assert load(MAKHOS_HEAD + "\n[standings]\nmatch_games = 6\n").standings == StandingsSettings(2, 6)
    assert load(CUSTOM_HEAD + "\n[standings]\nteam_boards = 1\nmatch_games = 12\n").standings == StandingsSettings(1, 12)
    assert load(MAKRUK_HEAD + "\n[standings]\n").standings == StandingsSettings()  # an empty table: the defaults
    assert load(MAKRUK_HEAD).standings == StandingsSettings()
    assert StandingsSettings().tiebreaks == MH7_ORDER


def test_tiebreaks_are_read_in_their_order(in_tmp: Path) -> None:
    # MH-7 (seed 004 §3.9.1 ค.: the committee decides, "for example" ...): the rule file may reorder or drop methods
    p = load(MAKHOS_HEAD + '\n[standings]\ntiebreaks = ["match_points", "game_difference", "game_points"]\n')
    assert p.standings == StandingsSettings(2, 4, ("match_points", "game_difference", "game_points"))
    p = load(MAKHOS_HEAD + '\n[standings]\nmatch_games = 2\ntiebreaks = ["tiebreak_time"]\n')
    assert p.standings == StandingsSettings(2, 2, ("tiebreak_time",))
    p = load(CUSTOM_HEAD + '\n[standings]\ntiebreaks = ["game_points", "match_points"]\n')
    assert p.standings.tiebreaks == ("game_points", "match_points")
    assert load(MAKHOS_HEAD + "\n[standings]\nmatch_games = 4\n").standings.tiebreaks == MH7_ORDER


# MH-7: the names a rule file may use, in the default order
ONE_OF = "(one of match_points, game_points, game_difference, tiebreak_points, tiebreak_time)"


@pytest.mark.parametrize(("head", "table", "expected"), [
    (MAKHOS_HEAD, 'tiebreaks = ["match_points", "game_points", "time"]',
     f"x.toml: standings.tiebreaks[2]: unknown method 'time' {ONE_OF}"),
    (MAKHOS_HEAD, 'tiebreaks = ["game_diference"]',
     f"x.toml: standings.tiebreaks[0]: unknown method 'game_diference' {ONE_OF} (did you mean 'game_difference'?)"),
    (CUSTOM_HEAD, 'tiebreaks = ["match_points", "tiebreak_points", "tiebrak_time"]',
     f"x.toml: standings.tiebreaks[2]: unknown method 'tiebrak_time' {ONE_OF} (did you mean 'tiebreak_time'?)"),
    (MAKHOS_HEAD, 'tiebreaks = ["game_points", "match_points", "game_points"]',
     "x.toml: standings.tiebreaks[2]: 'game_points' is listed twice (each method at most once)"),
    (MAKHOS_HEAD, "tiebreaks = []",
     "x.toml: standings.tiebreaks: must not be empty (leave the key out for the default order: match_points, "
     "game_points, game_difference, tiebreak_points, tiebreak_time)"),
    (MAKHOS_HEAD, 'tiebreaks = "match_points"',
     'x.toml: standings.tiebreaks: expected an array of method names like ["match_points", "game_points"], '
     "got string 'match_points'"),
    (MAKHOS_HEAD, "tiebreaks = 1",
     'x.toml: standings.tiebreaks: expected an array of method names like ["match_points", "game_points"], '
     "got integer 1"),
    (MAKHOS_HEAD, 'tiebreaks = {first = "match_points"}',
     'x.toml: standings.tiebreaks: expected an array of method names like ["match_points", "game_points"], '
     "got table"),
    (MAKHOS_HEAD, 'tiebreaks = ["match_points", 2]',
     "x.toml: standings.tiebreaks[1]: expected a method name (a string), got integer 2"),
    (MAKHOS_HEAD, 'tiebreaks = [["match_points"]]',
     "x.toml: standings.tiebreaks[0]: expected a method name (a string), got array"),
    (MAKRUK_HEAD, 'tiebreaks = ["match_points"]', "x.toml: standings.tiebreaks: not used by event 'makruk'"),
    (MAKHOS_HEAD, 'tiebreak = ["match_points"]',
     "x.toml: standings.tiebreak: unknown key (did you mean 'tiebreaks'?)"),
])
def test_tiebreaks_errors(in_tmp: Path, head: str, table: str, expected: str) -> None:
    assert error(head + "\n[standings]\n" + table + "\n") == expected


@pytest.mark.parametrize(("head", "table", "expected"), [
    (MAKRUK_HEAD, "team_boards = 0", "x.toml: standings.team_boards: must be at least 1, got 0"),
    (MAKRUK_HEAD, "team_boards = 9", "x.toml: standings.team_boards: must be at most 8, got 9"),
    (MAKRUK_HEAD, 'team_boards = "2"', "x.toml: standings.team_boards: expected an integer, got string '2'"),
    (MAKRUK_HEAD, "team_boards = 2.0", "x.toml: standings.team_boards: expected an integer, got float 2.0"),
    (MAKRUK_HEAD, "team_boards = true", "x.toml: standings.team_boards: expected an integer, got true"),
    (MAKRUK_HEAD, "match_games = 4", "x.toml: standings.match_games: not used by event 'makruk'"),
    (MAKRUK_HEAD, "team_board = 2", "x.toml: standings.team_board: unknown key (did you mean 'team_boards'?)"),
    (MAKHOS_HEAD, "match_games = 0", "x.toml: standings.match_games: must be at least 1, got 0"),
    (MAKHOS_HEAD, "match_games = 13", "x.toml: standings.match_games: must be at most 12, got 13"),
    (MAKHOS_HEAD, "match_games = [4]", "x.toml: standings.match_games: expected an integer, got array"),
    (MAKHOS_HEAD, "team_boards = 2", "x.toml: standings.team_boards: not used by event 'makhos'"),
    (MAKHOS_HEAD, "tiebreak = 4", "x.toml: standings.tiebreak: unknown key"),
    (CUSTOM_HEAD, "boards = 2", "x.toml: standings.boards: unknown key"),
])
def test_standings_errors(in_tmp: Path, head: str, table: str, expected: str) -> None:
    assert error(head + "\n[standings]\n" + table + "\n").startswith(expected)


def test_standings_table_only_for_makruk_makhos_custom(in_tmp: Path) -> None:
    assert error(XWORD_HEAD + "\n[standings]\nteam_boards = 2\n").startswith(
        "x.toml: standings: event 'crossword' has no standings settings")


def test_standings_not_a_table(in_tmp: Path) -> None:
    assert error(MAKRUK_HEAD.replace("[preset]", "standings = 2\n[preset]")).startswith(
        "x.toml: standings: expected a table [standings], got integer 2")
