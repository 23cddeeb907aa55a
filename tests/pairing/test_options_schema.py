"""The pairing systems' declared options (organiser/pairing/options.py, issue 25): every system declares
every option its code reads, and nothing it does not read; each has help in English and Thai; and
docs/rules.md's table of options is the schema's (generated from it, compared here)."""
from __future__ import annotations

import re
from pathlib import Path

from gameclock.organiser.pairing import load_systems
from gameclock.organiser.pairing import options as schema

REPO_ROOT = Path(__file__).resolve().parents[2]
PAIRING = REPO_ROOT / "firmware" / "gameclock" / "organiser" / "pairing"
# the final standings read the options that decide places and medals (a lot in a final, Sudoku's full marks)
FINAL = REPO_ROOT / "firmware" / "gameclock" / "organiser" / "standings" / "final.py"
RULES_DOC = REPO_ROOT / "docs" / "rules.md"

# which systems each module's code pairs (its @system names, and the formats it serves: knockout.py's
# bracket is makhos.py's knockouts' too)
MODULE_SYSTEMS = {
    "roundrobin": {"makruk-rr", "makruk-team"},
    "knockout": {"makruk-ko", "makhos-ko", "makhos-ko-003"},
    "makhos": {"makhos-groups", "makhos-ko", "makhos-ko-003"},
    "crossword": {"xw10", "sudoku"},
    "dutch": {"dutch"},
    "matching": set(),      # the Dutch engine's maximum-weight matchings (dutch.py wires it in)
    "swiss": set(),
    "model": set(),
    "options": set(),
    "final": {"sudoku", "makruk-ko", "makhos-ko", "makhos-ko-003"},
}
# how the systems read an option: options.get("k" / options["k"] / an int helper's (state, "k", ...)
READS = re.compile(r"""options(?:\.get\(|\[)\s*["']([a-z_0-9]+)["']|_int_option\(\s*state\s*,\s*["']([a-z_0-9]+)["']""")


def read_by_module() -> dict[str, set[str]]:
    out = {}
    for path in [*sorted(PAIRING.glob("*.py")), FINAL]:
        if path.stem == "__init__":
            continue
        out[path.stem] = {a or b for a, b in READS.findall(path.read_text(encoding="utf-8"))}
    return out


def test_every_module_is_mapped_to_its_systems():
    assert set(read_by_module()) == set(MODULE_SYSTEMS), "a new pairing module: say which systems it pairs"
    assert set().union(*MODULE_SYSTEMS.values()) == set(load_systems())


def test_every_system_declares_its_options():
    assert set(schema.SCHEMA) == set(load_systems()), "each registered system has its declared options"


def test_every_option_read_is_declared_for_the_systems_that_read_it():
    read = read_by_module()
    for module, names in read.items():
        for name in sorted(names):
            declared = {s for s in MODULE_SYSTEMS[module] if name in schema.names(s)}
            assert declared, f"pairing/{module}.py reads option {name!r}: declare it for its system(s)"
    # each system's options, listed by hand from the modules' code and docstrings
    assert {s: schema.names(s) for s in sorted(schema.SCHEMA)} == {
        "dutch": ["initial_colour"],
        "makhos-groups": ["groups", "lot_seed", "tiebreak"],
        "makhos-ko": ["seeds", "lot_seed", "first_round", "third_place", "lots", "gives_first"],
        "makhos-ko-003": ["seeds", "lot_seed", "first_round", "third_place", "lots"],
        "makruk-ko": ["seeds", "lot_seed", "first_round", "third_place", "lots"],
        "makruk-rr": ["order", "lot_seed", "colours"],
        "makruk-team": ["boards", "order", "lot_seed"],
        "sudoku": ["qualifying_rounds", "finalists", "full_marks"],
        "xw10": ["table_group", "koth_rounds"],
    }


def test_nothing_is_declared_that_no_code_reads():
    read = read_by_module()
    for system, opts in schema.SCHEMA.items():
        modules = [m for m, systems in MODULE_SYSTEMS.items() if system in systems]
        for o in opts:
            assert any(o.name in read[m] for m in modules), f"{system} declares {o.name!r} but no code reads it"


def test_every_option_has_help_in_both_languages_and_a_rule_for_changing():
    for system, opts in schema.SCHEMA.items():
        for o in opts:
            assert o.help and o.help_th and o.default and o.default_th, (system, o.name)
            assert re.search("[\u0e01-\u0e2e]", o.help_th), (system, o.name)   # Thai letters
            assert o.when.text and o.when.text_th, (system, o.name)


def test_the_rules_doc_table_of_options_is_the_schema():
    text = RULES_DOC.read_text(encoding="utf-8")
    m = re.search(re.escape(schema.DOC_BEGIN) + r"\n(.*?)" + re.escape(schema.DOC_END), text, re.S)
    assert m, f"docs/rules.md has the options table between {schema.DOC_BEGIN} and {schema.DOC_END}"
    assert m.group(1) == schema.markdown(), (
        "docs/rules.md's options table differs from organiser/pairing/options.py: print the table with "
        "`.venv/bin/python -m gameclock.organiser.pairing.options` and paste it between the markers")
