"""Shared helpers for the rules tests."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
REPO_RULES = REPO_ROOT / "rules"
# The CI checkout has shared/ beside the repository.
SHARED_RULES_MD = REPO_ROOT.parent / "shared" / "RULES.md"

GOOD_CROSSWORD = """\
[preset]
id = "{id}"
name = "Crossword 22:00"
short = "XWORD 22"
event = "crossword"
rules = ["XW-2", "XW-3"]

[clock]
mode = "countdown"
time = "22:00"
negative = true
penalty_points_per_minute = 10
"""


@pytest.fixture(scope="session")
def rules_md_ids() -> frozenset[str]:
    if not SHARED_RULES_MD.is_file():
        pytest.fail(f"{SHARED_RULES_MD} is missing: the rule-ID check needs shared/RULES.md beside the repository "
                    f"(the CI checkout puts shared/ next to it)")
    text = SHARED_RULES_MD.read_text(encoding="utf-8")
    # Table rows start with the ID: "| XW-3 | ... |"
    ids = frozenset(re.findall(r"^\|\s*((?:XW|SU|MR|MH|CL)-\d+)\s*\|", text, flags=re.MULTILINE))
    assert ids, f"no rule IDs found in {SHARED_RULES_MD}"
    return ids


@pytest.fixture
def good_crossword() -> str:
    """A valid rule file's text; "{id}" is replaced by the file name when written with write_rule."""
    return GOOD_CROSSWORD


@pytest.fixture
def write_rule(tmp_path: Path):
    """write_rule(text, name="x") -> path of tmp_path/<name>.toml holding dedented text ({id} -> name)."""

    def write(text: str, name: str = "x") -> Path:
        path = tmp_path / f"{name}.toml"
        path.write_text(textwrap.dedent(text).replace("{id}", name), encoding="utf-8")
        return path

    return write
