"""The event's set-up in a pairing file (issue 15): `level`, `stage`, `language` and `preset` columns,
read strictly (the bad line and value named), an empty value not given, the command's options filling
what the file does not say; and the shape the clock accepts (`check_pairing`)."""
from __future__ import annotations

import pytest

from gameclock.dock.pairing import PairingError, check_pairing
from gameclock.organiser.pairings import load_pairings

HEADER = "round,table,left,right,level,stage,language,preset\n"


def write(tmp_path, text: str, name: str = "r3.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_set_up_columns_are_read_per_table(tmp_path):
    path = write(tmp_path, HEADER
                 + "3,1,Anan,Boon,Primary,last,TH,amath\n"      # words in any case: kept lower-case
                 + "3,2,Chai,Dao,,,,\n"                          # nothing given: no set-up keys
                 + "3,3,Eak,Fon,secondary,final,en,crossword\n")
    rows = load_pairings(path)
    assert rows[0] == {"event": None, "round": 3, "table": 1, "players": {"left": "Anan", "right": "Boon"},
                       "level": "primary", "stage": "last", "language": "th", "preset": "amath"}
    assert rows[1] == {"event": None, "round": 3, "table": 2, "players": {"left": "Chai", "right": "Dao"}}
    assert (rows[2]["level"], rows[2]["stage"], rows[2]["language"], rows[2]["preset"]) == (
        "secondary", "final", "en", "crossword")
    assert rows.ignored == []  # the set-up columns are used, not "ignored columns"


def test_the_options_fill_what_the_file_does_not_say(tmp_path):
    path = write(tmp_path, "round,table,left,right,level\n3,1,Anan,Boon,\n3,2,Chai,Dao,primary\n")
    rows = load_pairings(path, setup={"level": "secondary", "stage": "last", "language": None, "preset": "amath"})
    # table 1's level is empty: the option's; table 2 says primary: the file's; no stage column: the option's
    assert [(r.get("level"), r.get("stage"), r.get("preset"), "language" in r) for r in rows] == [
        ("secondary", "last", "amath", False), ("primary", "last", "amath", False)]


def test_a_tsh_file_takes_its_set_up_from_the_options(tmp_path):
    path = write(tmp_path, "Anan 1500 2;\nBoon 1400 1;\n", "event.t")
    (row,) = load_pairings(path, setup={"language": "th", "preset": "khamkom"})
    assert row["players"] == {"left": "Anan", "right": "Boon"}
    assert (row["language"], row["preset"], "level" in row) == ("th", "khamkom", False)


@pytest.mark.parametrize("column, value, message", [
    ("level", "tertiary", "r3.csv:3: level 'tertiary' is not one of primary, secondary"),
    ("stage", "semi", "r3.csv:3: stage 'semi' is not one of qualifying, last, final"),
    ("language", "fr", "r3.csv:3: language 'fr' is not one of en, th"),
    ("preset", "Cross Word", "r3.csv:3: preset 'Cross Word' is not a preset id"),
])
def test_each_bad_set_up_value_is_refused_on_its_line(tmp_path, column, value, message):
    good = {"level": "primary", "stage": "last", "language": "th", "preset": "amath"}
    bad = dict(good, **{column: value})
    path = write(tmp_path, HEADER + "3,1,Anan,Boon,primary,last,th,amath\n"
                 + f"3,2,Chai,Dao,{bad['level']},{bad['stage']},{bad['language']},{bad['preset']}\n")
    with pytest.raises(PairingError) as info:
        load_pairings(path)
    assert str(info.value).startswith(f"{tmp_path}/{message}")
    assert "\n" not in str(info.value)


def test_a_bad_option_is_refused_naming_it(tmp_path):
    path = write(tmp_path, "round,table,left,right\n3,1,Anan,Boon\n")
    with pytest.raises(PairingError, match=r"r3.csv: --stage: stage 'semi' is not one of qualifying, last, final"):
        load_pairings(path, setup={"stage": "semi"})


def test_check_pairing_keeps_the_set_up_given_and_refuses_what_it_does_not_know():
    base = {"event": None, "round": 1, "table": 2, "players": {"left": "A", "right": "B"}}
    # on the wire every set-up key is there, null when not given: the clock keeps only what is given
    got = check_pairing(dict(base, level=None, stage="final", language=None, preset="makruk-30"))
    assert got == dict(base, stage="final", preset="makruk-30")
    assert check_pairing(base) == base  # a pairing kept by an older clock (settings.json) has none
    for bad, why in [({"level": "tertiary"}, "level 'tertiary' is not one of primary, secondary"),
                     ({"language": 7}, "language 7 is not text"),
                     ({"preset": "../etc"}, "is not a preset id"),
                     ({"colour": "red"}, "pairing with unknown colour")]:
        with pytest.raises(PairingError, match=why):
            check_pairing(dict(base, **bad))
