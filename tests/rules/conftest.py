"""Shared helpers for the rules tests."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
REPO_RULES = REPO_ROOT / "rules"
# The product's own rule reference: every rule ID, one table row each ("| XW-3 | ... |").
RULES_DOC = REPO_ROOT / "docs" / "rules.md"
RULE_ROW = re.compile(r"^\|\s*((?:XW|SU|MR|MH|CL)-\d+)\s*\|", flags=re.MULTILINE)

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


def rules_doc_ids(text: str) -> list[str]:
    """The rule IDs that start a table row of docs/rules.md, in order (repeats kept)."""
    return RULE_ROW.findall(text)


@pytest.fixture(scope="session")
def rules_md_ids() -> frozenset[str]:
    """Every rule ID docs/rules.md defines (the repository's own reference: no file outside it)."""
    assert RULES_DOC.is_file(), f"{RULES_DOC} is missing: it defines the rule IDs the presets and tests cite"
    ids = frozenset(rules_doc_ids(RULES_DOC.read_text(encoding="utf-8")))
    assert ids, f"no rule IDs found in {RULES_DOC}"
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
