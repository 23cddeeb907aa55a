"""The `[counting]` table (MR-4..MR-8, MH-6): the shipped presets carry the RULES.md values (written out by hand),
the table maps into the Control's count_* fields, and every mistake is one RuleError line naming file and key."""
from __future__ import annotations

from pathlib import Path

import pytest

from gameclock.core.control import Control
from gameclock.rules.loader import RuleError, load_preset

REPO_RULES = Path(__file__).resolve().parents[2] / "rules"

# (board_limit, pieces_with_kings, makhos_limit, makhos_both, counts offered on the knob)
MAKRUK = (64, True, 16, False, ("makruk",))   # MR-4: 64; MR-7: seed 003 §10 counts both kings
MAKHOS = (64, True, 16, False, ("makhos",))   # MH-6: 16, the requester's own moves (003 §5.3, 004 §3.8.3)
EXPECTED = {
    "makruk-45": MAKRUK,
    "makruk-30": MAKRUK,
    "makhos-move": MAKHOS,
    "makhos-move-2x5": MAKHOS,
    "makhos-30": MAKHOS,
    "makhos-tiebreak-20": MAKHOS,
}


def fields(preset) -> tuple:
    c = preset.control
    return (c.count_board_limit, c.count_pieces_with_kings, c.count_makhos_limit, c.count_makhos_both, preset.counts)


@pytest.mark.parametrize("preset_id", sorted(EXPECTED))
def test_shipped_counting(preset_id: str) -> None:
    p = load_preset(REPO_RULES / f"{preset_id}.toml")
    assert fields(p) == EXPECTED[preset_id]
    text = (REPO_RULES / f"{preset_id}.toml").read_text(encoding="utf-8")
    assert "\n[counting]\n" in text, "the counting rules are written out in the file"
    cited = {"MR-4", "MR-7"} if p.event == "makruk" else {"MH-6"}
    assert cited <= set(p.rule_ids)
    section = text[text.index("[counting]"):]
    for rid in cited:
        assert rid in section, f"{preset_id}: cite {rid} in the [counting] comments"


def test_presets_of_other_events_offer_no_count() -> None:
    for path in sorted(REPO_RULES.glob("*.toml")):
        p = load_preset(path)
        if p.event not in ("makruk", "makhos"):
            assert p.counts == (), path.name


def test_readme_documents_the_counting_keys() -> None:
    readme = (REPO_RULES / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## `[counting]`"):readme.index("## Example")]
    for key in ("pieces_start", "board_limit", "count", "limit"):
        assert f"`{key}`" in section, key
    for value in ("both-kings", "no-kings", "own", "both"):
        assert f'`"{value}"`' in section, value


# --- files written here -----------------------------------------------------------------------------------

MAKRUK_HEAD = '[preset]\nid = "x"\nname = "T"\nevent = "makruk"\nrules = ["MR-4"]\n\n[clock]\nmode = "countdown"\ntime = "45:00"\n'
MAKHOS_HEAD = MAKRUK_HEAD.replace('"makruk"', '"makhos"').replace('"MR-4"', '"MH-6"')
CUSTOM_HEAD = MAKRUK_HEAD.replace('"makruk"', '"custom"')
XWORD_HEAD = MAKRUK_HEAD.replace('"makruk"', '"crossword"').replace('"MR-4"', '"XW-2"')


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


def test_no_kings_reading(in_tmp: Path) -> None:
    # MR-7, seed 001 §7(12): "count every piece on the board except the kings"
    p = load(MAKRUK_HEAD + '\n[counting]\npieces_start = "no-kings"\nboard_limit = 64\n')
    assert p.control.count_pieces_with_kings is False and p.control.count_board_limit == 64


def test_makhos_both_sides(in_tmp: Path) -> None:
    # MH-6, seed 003 §5.4: the arbiter counts both sides' moves, 16 in all
    p = load(MAKHOS_HEAD + '\n[counting]\ncount = "both"\nlimit = 16\n')
    assert p.control.count_makhos_both is True and p.control.count_makhos_limit == 16
    assert p.counts == ("makhos",)


def test_without_a_table_the_defaults(in_tmp: Path) -> None:
    d = Control()
    p = load(MAKRUK_HEAD)
    assert (p.control.count_board_limit, p.control.count_pieces_with_kings) == (d.count_board_limit, True)
    assert p.counts == ("makruk",)
    assert load(MAKHOS_HEAD).counts == ("makhos",)
    assert load(CUSTOM_HEAD).counts == ()


def test_custom_event_offers_the_counts_it_sets(in_tmp: Path) -> None:
    p = load(CUSTOM_HEAD + '\n[counting]\nboard_limit = 50\ncount = "both"\nlimit = 20\n')
    assert p.counts == ("makruk", "makhos")
    assert (p.control.count_board_limit, p.control.count_makhos_both, p.control.count_makhos_limit) == (50, True, 20)
    assert load(CUSTOM_HEAD + '\n[counting]\nlimit = 12\n').counts == ("makhos",)


@pytest.mark.parametrize(("head", "table", "expected"), [
    (MAKRUK_HEAD, 'pieces_start = "kings"', "x.toml: counting.pieces_start: unknown value 'kings' (one of both-kings, no-kings)"),
    (MAKRUK_HEAD, "pieces_start = 1", "x.toml: counting.pieces_start: expected a string, got integer 1"),
    (MAKRUK_HEAD, "board_limit = 0", "x.toml: counting.board_limit: must be at least 1, got 0"),
    (MAKRUK_HEAD, 'board_limit = "64"', "x.toml: counting.board_limit: expected an integer, got string '64'"),
    (MAKRUK_HEAD, 'count = "own"', "x.toml: counting.count: not used by event 'makruk'"),
    (MAKRUK_HEAD, "board_limt = 64", "x.toml: counting.board_limt: unknown key (did you mean 'board_limit'?)"),
    (MAKHOS_HEAD, 'count = "mine"', "x.toml: counting.count: unknown value 'mine' (one of own, both)"),
    (MAKHOS_HEAD, "limit = -1", "x.toml: counting.limit: must be at least 1, got -1"),
    (MAKHOS_HEAD, "limit = true", "x.toml: counting.limit: expected an integer, got true"),
    (MAKHOS_HEAD, "board_limit = 64", "x.toml: counting.board_limit: not used by event 'makhos'"),
    (CUSTOM_HEAD, "moves = 3", "x.toml: counting.moves: unknown key"),
])
def test_counting_errors(in_tmp: Path, head: str, table: str, expected: str) -> None:
    assert error(head + "\n[counting]\n" + table + "\n").startswith(expected)


def test_counting_table_only_for_counting_events(in_tmp: Path) -> None:
    assert error(XWORD_HEAD + "\n[counting]\nlimit = 16\n").startswith(
        "x.toml: counting: event 'crossword' does not count moves")


def test_counting_not_a_table(in_tmp: Path) -> None:
    assert error(MAKRUK_HEAD.replace("[preset]", "counting = 3\n[preset]")).startswith(
        "x.toml: counting: expected a table [counting], got integer 3")
