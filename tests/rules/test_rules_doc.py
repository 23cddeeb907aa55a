"""docs/rules.md, the product's own rule reference: it defines every rule ID of the second edition once,
one table row each, with the seed section the rule comes from; and every ID that the tests and the rule
files cite is one it defines (the repository needs nothing beside it)."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = REPO_ROOT / "docs" / "rules.md"
TESTS = REPO_ROOT / "tests"
RULE_FILES = sorted((REPO_ROOT / "rules").glob("*.toml"))

# A rule's row starts with its ID alone in the first cell: "| XW-3 | ... |" (as the rules_md_ids fixture reads it)
RULE_ROW = re.compile(r"^\|\s*((?:XW|SU|MR|MH|CL)-\d+)\s*\|")
CITED = re.compile(r"\b((?:XW|SU|MR|MH|CL)-\d+)\b")
SEED_SECTION = re.compile(r"00[0-4] §")

# The second edition: XW-1..XW-11, SU-1..SU-4, MR-1..MR-13, MH-1..MH-8, CL-1..CL-6
EDITION = {"XW": 11, "SU": 4, "MR": 13, "MH": 8, "CL": 6}
ALL_IDS = [f"{family}-{n}" for family, count in EDITION.items() for n in range(1, count + 1)]


def doc_rows() -> list[tuple[int, str, list[str]]]:
    """(line number, ID, cells) of every rule row of docs/rules.md, in order."""
    rows = []
    for no, line in enumerate(RULES_DOC.read_text(encoding="utf-8").splitlines(), start=1):
        m = RULE_ROW.match(line)
        if m:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            rows.append((no, m.group(1), cells))
    return rows


def test_every_rule_of_the_edition_has_exactly_one_row():
    counts = Counter(rule_id for _, rule_id, _ in doc_rows())
    missing = [i for i in ALL_IDS if i not in counts]
    extra = sorted(set(counts) - set(ALL_IDS))
    twice = sorted(i for i, n in counts.items() if n > 1)
    assert not missing, f"docs/rules.md has no row for {missing}"
    assert not extra, f"docs/rules.md defines IDs the second edition does not have: {extra}"
    assert not twice, f"docs/rules.md has more than one row for {twice}"


def test_rows_come_one_table_per_family_in_order():
    ids = [rule_id for _, rule_id, _ in doc_rows()]
    assert ids == ALL_IDS, "docs/rules.md: the rows are not XW, SU, MR, MH, CL, each family in number order"
    lines = [no for no, _, _ in doc_rows()]
    for family in EDITION:
        at = [no for no, rule_id, _ in doc_rows() if rule_id.startswith(family + "-")]
        # one table: the family's rows are consecutive lines of the file
        assert at == list(range(at[0], at[0] + len(at))), f"{family}: its rows are not one table"
    assert lines == sorted(lines)


def test_every_row_names_a_seed_section_and_says_how_the_product_serves_it(rules_md_ids):
    assert rules_md_ids == frozenset(ALL_IDS)  # the fixture the preset tests use reads the same rows
    for no, rule_id, cells in doc_rows():
        assert cells[0] == rule_id
        assert any(SEED_SECTION.search(c) for c in cells[1:]), \
            f"docs/rules.md:{no}: {rule_id} names no seed section (such as '000 §3.2')"
        assert len(cells) == 5 and all(cells), f"docs/rules.md:{no}: {rule_id}: expected 5 filled cells"


def cited_ids(path: Path) -> list[tuple[int, str]]:
    """(line number, ID) of every rule ID cited in a text file; nothing for a file that is not UTF-8."""
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return []
    return [(no, m.group(1)) for no, line in enumerate(text.splitlines(), start=1)
            for m in CITED.finditer(line)]


def test_every_rule_id_cited_in_the_tests_and_the_rule_files_is_defined(rules_md_ids):
    files = [p for p in TESTS.rglob("*") if p.is_file()
             and not {"__pycache__", ".hypothesis", ".pytest_cache"} & set(p.parts)]
    files += RULE_FILES
    assert RULE_FILES and len(files) > len(RULE_FILES)
    seen: set[str] = set()
    unknown = []
    for path in files:
        for no, rule_id in cited_ids(path):
            seen.add(rule_id)
            if rule_id not in rules_md_ids:
                unknown.append(f"{path.relative_to(REPO_ROOT)}:{no}: {rule_id}")
    assert not unknown, "rule IDs cited but not defined in docs/rules.md:\n" + "\n".join(unknown)
    assert {"XW-3", "MR-6", "MH-2", "SU-3", "CL-5"} <= seen  # the scan does see the citations
