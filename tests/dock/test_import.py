"""`gameclock import FILE.jsonl`: results collected on another organiser PC are merged into this one,
each line verified with this PC's keys (or those copied with --keys-from); forged, altered or broken
lines are refused with their reason, never stored."""
from __future__ import annotations

import functools
import hashlib
import hmac
import json

import pytest

from gameclock.cli import main
from gameclock.organiser.store import Store
from gameclock.record import record_from_log

WALL = 1_700_000_000.25
KEY_A = bytes(range(32))            # clockA's key
KEY_A2 = bytes(range(100, 132))     # clockA's key after a re-enrollment
KEY_B = bytes([7]) * 32             # clockB's key
FORGER = bytes([66]) * 32           # a key no PC ever enrolled


@functools.cache
def _record(serial: str, seq: int, table: int) -> str:
    log = (f"preset crossword\nlevel secondary\nevent 3\nround 1\ntable {table}\n"
           "player left Anan\nplayer right Boon\n"
           "0 start left\n600 press left\n900 press right\n1300 finish\n"
           "1310 score left 412\n1311 score right 388\n1312 confirm left\n1313 confirm right\n")
    return json.dumps(record_from_log(log, "t.log", serial, seq, WALL, WALL + 1300))


def make_record(serial="clockA", seq=1, table=1) -> dict:
    return json.loads(_record(serial, seq, table))


def sign(key: bytes, record: dict) -> str:
    """PROTOCOL.md: HMAC-SHA256, hex, over b"result\\n" + the record's canonical JSON."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(key, b"result\n" + text.encode("utf-8"), hashlib.sha256).hexdigest()


def kid(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:16]


def line(record: dict, key: bytes, **over) -> str:
    out = {"id": record["id"], "record": record, "sig": sign(key, record), "kid": kid(key),
           "serial": record["clock"]["serial"], "received_at": "2024-11-02T03:50:00.125Z",
           "source": "serial:/dev/ttyACM0"}
    out.update(over)
    return json.dumps(out, ensure_ascii=False)


def gameclock(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def other_pc(tmp_path):
    """Another PC's database: clockA enrolled, re-enrolled; clockB enrolled; 3 results, the first
    signed with clockA's first key."""
    path = tmp_path / "other.db"
    with Store(path) as s:
        s.add_key("clockA", KEY_A)
        r1 = make_record("clockA", 1, table=1)
        assert s.put_result(r1, sign(KEY_A, r1), kid(KEY_A), "serial:/dev/ttyACM0") == "stored"
        s.add_key("clockA", KEY_A2)
        r2 = make_record("clockA", 2, table=2)
        assert s.put_result(r2, sign(KEY_A2, r2), kid(KEY_A2), "serial:/dev/ttyACM0") == "stored"
        s.add_key("clockB", KEY_B)
        r3 = make_record("clockB", 1, table=3)
        assert s.put_result(r3, sign(KEY_B, r3), kid(KEY_B), "serial:/dev/ttyACM1") == "stored"
        with open(tmp_path / "other.jsonl", "w", encoding="utf-8") as f:
            assert s.export_jsonl(f) == 3
    return path


def test_import_round_trips_an_export(tmp_path, capsys, other_pc):
    db = tmp_path / "pc.db"
    code, out, err = gameclock(capsys, "import", str(tmp_path / "other.jsonl"), "--db", str(db),
                               "--keys-from", str(other_pc))
    assert code == 0, err
    assert out == "3 stored, 0 duplicates, 0 conflicts, 0 refused\n"
    exported = (tmp_path / "other.jsonl").read_text(encoding="utf-8")
    with Store(db) as s:
        # the result signed before clockA's re-enrollment verified with its old key
        assert s.result("clockA-000001")["kid"] == kid(KEY_A)
        again = tmp_path / "again.jsonl"
        with open(again, "w", encoding="utf-8") as f:
            s.export_jsonl(f)
        assert s.refusals() == []
    assert again.read_text(encoding="utf-8") == exported  # same ids, records, signatures, times, sources
    # the same file again: nothing new
    code, out, err = gameclock(capsys, "import", str(tmp_path / "other.jsonl"), "--db", str(db))
    assert (code, out) == (0, "0 stored, 3 duplicates, 0 conflicts, 0 refused\n")


def test_without_the_other_pcs_keys_every_line_is_refused(tmp_path, capsys, other_pc):
    db = tmp_path / "pc.db"
    code, out, err = gameclock(capsys, "import", str(tmp_path / "other.jsonl"), "--db", str(db))
    assert code == 1
    assert out == "0 stored, 0 duplicates, 0 conflicts, 3 refused\n"
    lines = err.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"{tmp_path / 'other.jsonl'}:1: unenrolled: no key {kid(KEY_A)} for clock clockA")
    assert lines[2].startswith(f"{tmp_path / 'other.jsonl'}:3: unenrolled: no key {kid(KEY_B)} for clock clockB")
    with Store(db) as s:
        assert s.count_results() == 0
        refusals = s.refusals()
    assert [(r["reason"], r["serial"], r["rid"], r["source"]) for r in refusals] == [
        ("unenrolled", "clockA", "clockA-000001", f"import:{tmp_path / 'other.jsonl'}:1"),
        ("unenrolled", "clockA", "clockA-000002", f"import:{tmp_path / 'other.jsonl'}:2"),
        ("unenrolled", "clockB", "clockB-000001", f"import:{tmp_path / 'other.jsonl'}:3")]


def test_forged_altered_and_broken_lines_are_refused(tmp_path, capsys):
    db = tmp_path / "pc.db"
    with Store(db) as s:
        s.add_key("clockA", KEY_A)
    good = make_record("clockA", 1)
    altered = make_record("clockA", 1)
    altered["scores"]["entered"]["left"] = 500       # the score changed after signing
    no_outcome = make_record("clockA", 3)
    del no_outcome["outcome"]                          # signed properly, but not a record
    renumbered = make_record("clockA", 4)
    renumbered["id"] = "clockA-000099"                 # id not serial + seq, signed properly
    other_content = make_record("clockA", 1)
    other_content["players"]["left"] = "Chai"          # same id, other content, signed properly
    lines = [
        line(good, KEY_A),                                                    # 1 stored
        line(altered, KEY_A, sig=sign(KEY_A, good)),                          # 2 bad-signature
        line(make_record("clockA", 2), FORGER),                               # 3 unenrolled (forger's kid)
        line(make_record("clockA", 2), FORGER, kid=kid(KEY_A)),               # 4 bad-signature (real kid)
        line(make_record("clockA", 2), KEY_A, id="clockA-000007"),            # 5 bad-id
        line(make_record("clockA", 2), KEY_A, serial="clockZ"),               # 6 wrong-clock
        '{"id": "clockA-000002", "record": {',                                # 7 bad-json
        line(no_outcome, KEY_A),                                              # 8 bad-record
        line(renumbered, KEY_A),                                              # 9 bad-id
        "",                                                                   # 10 blank: skipped
        line(good, KEY_A),                                                    # 11 duplicate
        line(other_content, KEY_A),                                           # 12 conflict
        json.dumps({"id": "clockA-000002", "record": make_record("clockA", 2)}),  # 13 bad-line
        '[1, 2]',                                                             # 14 bad-json
        line(make_record("clockA", 2), KEY_A, received_at="yesterday"),       # 15 bad-line
    ]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "in.jsonl"), "--db", str(db))
    assert code == 1
    assert out == "1 stored, 1 duplicates, 1 conflicts, 11 refused\n"
    name = str(tmp_path / "in.jsonl")
    reported = [tuple(e.removeprefix(name + ":").split(": ")[:2]) for e in err.splitlines()]
    assert reported == [("2", "bad-signature"), ("3", "unenrolled"), ("4", "bad-signature"),
                        ("5", "bad-id"), ("6", "wrong-clock"), ("7", "bad-json"), ("8", "bad-record"),
                        ("9", "bad-id"), ("12", "conflict"), ("13", "bad-line"), ("14", "bad-json"),
                        ("15", "bad-line")]
    assert "missing 'outcome'" in err.splitlines()[6]
    with Store(db) as s:
        assert s.count_results() == 1
        assert s.result("clockA-000001")["record"] == good
        assert [c["record"]["players"]["left"] for c in s.conflicts()] == ["Chai"]
        assert [r["reason"] for r in s.refusals()] == [
            "bad-signature", "unenrolled", "bad-signature", "bad-id", "wrong-clock", "bad-json",
            "bad-record", "bad-id", "bad-line", "bad-json", "bad-line"]
        assert s.refusals()[1]["source"] == f"import:{name}:3"


def test_a_line_that_is_not_utf8_is_refused(tmp_path, capsys):
    (tmp_path / "in.jsonl").write_bytes(b'{"id": "\xff"}\n')
    code, out, err = gameclock(capsys, "import", str(tmp_path / "in.jsonl"), "--db", str(tmp_path / "pc.db"))
    assert (code, out) == (1, "0 stored, 0 duplicates, 0 conflicts, 1 refused\n")
    assert err == f"{tmp_path / 'in.jsonl'}:1: bad-utf8: the line is not UTF-8\n"


def test_a_db_that_is_not_sqlite_gives_a_clear_error(tmp_path, capsys, other_pc):
    notes = tmp_path / "notes.txt"
    notes.write_text("table 1: Anan v Boon\n")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "other.jsonl"), "--db", str(notes))
    assert code == 1 and out == ""
    assert err == f"{notes}: not a gameclock database (not an SQLite file)\n"
    assert notes.read_text() == "table 1: Anan v Boon\n"


def test_keys_from_a_file_that_is_not_ours_gives_a_clear_error(tmp_path, capsys, other_pc):
    notes = tmp_path / "keys.txt"
    notes.write_text("secret\n")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "other.jsonl"), "--db", str(tmp_path / "pc.db"),
                               "--keys-from", str(notes))
    assert (code, out) == (1, "")
    assert err == f"{notes}: not a gameclock database (not an SQLite file)\n"


def test_a_missing_file_gives_a_clear_error(tmp_path, capsys):
    code, out, err = gameclock(capsys, "import", str(tmp_path / "none.jsonl"), "--db", str(tmp_path / "pc.db"))
    assert (code, out) == (1, "")
    assert err == f"{tmp_path / 'none.jsonl'}: cannot read (No such file or directory)\n"


def test_the_default_db_is_gameclock_db_here_or_gameclock_db_env(tmp_path, capsys, monkeypatch, other_pc):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GAMECLOCK_DB", raising=False)
    code, out, err = gameclock(capsys, "import", "other.jsonl", "--keys-from", "other.db")
    assert code == 0, err
    with Store(tmp_path / "gameclock.db") as s:
        assert s.count_results() == 3
    monkeypatch.setenv("GAMECLOCK_DB", str(tmp_path / "event.db"))
    code, out, err = gameclock(capsys, "import", "other.jsonl", "--keys-from", "other.db")
    assert (code, out) == (0, "3 stored, 0 duplicates, 0 conflicts, 0 refused\n")
    with Store(tmp_path / "event.db") as s:
        assert s.count_results() == 3


def test_a_revoked_key_vouches_only_for_what_this_pc_already_holds(tmp_path, capsys):  # issue 24 B3
    # A result signed with a revoked key used to import when the file's own `received_at` claimed a
    # time before the revocation: a claim nobody checks (whoever stole the key writes the file). Now a
    # revoked key vouches for nothing new: a result signed with it is refused, unless this PC stored that
    # very result itself (then it is a duplicate); one with the same id and other content is refused too.
    with Store(tmp_path / "pc.db") as s:
        s.add_key("clockA", KEY_A)
        kept = make_record(seq=1)
        assert s.put_result(kept, sign(KEY_A, kept), kid(KEY_A), "serial:/dev/ttyACM0") == "stored"
        s.add_key("clockA", KEY_A2, revoke_others=True)  # re-enrolled: KEY_A is revoked now
        assert s.revoked("clockA", kid(KEY_A)) is not None
    claimed = make_record(seq=2, table=2)  # never received here; the file claims it was received in 2000
    altered = make_record(seq=1)
    altered["players"]["left"] = "Chai"
    (tmp_path / "in.jsonl").write_text("\n".join([
        line(kept, KEY_A),
        line(claimed, KEY_A, received_at="2000-01-01T00:00:00.000Z"),
        line(altered, KEY_A, received_at="2000-01-01T00:00:00.000Z"),
        line(make_record(seq=3, table=3), KEY_A2),  # the clock's new key: stored
    ]) + "\n")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "in.jsonl"), "--db", str(tmp_path / "pc.db"))
    assert (code, out) == (1, "1 stored, 1 duplicates, 0 conflicts, 2 refused\n")
    name = str(tmp_path / "in.jsonl")
    assert [e.split(": ")[0:2] for e in err.splitlines()] == [[f"{name}:2", "revoked"], [f"{name}:3", "revoked"]]
    assert "received_at" in err.splitlines()[0]  # it says why the file's time does not count
    with Store(tmp_path / "pc.db") as s:
        assert sorted(r["id"] for r in s.results()) == ["clockA-000001", "clockA-000003"]
        assert s.result("clockA-000001")["record"] == kept and s.conflicts() == []


# --------------------------------------------------- hostile lines (issue 13 hole 8: import stopped for good)
def test_a_deeply_nested_line_is_refused_and_the_import_goes_on(tmp_path, capsys):
    # issue 13 hole 8: a line nested 100,000 deep was a RecursionError: the import stopped, the good lines
    # after it were never stored. Now: line 2 refused (too-deep), lines 1 and 4 stored, exit 1.
    db = tmp_path / "pc.db"
    with Store(db) as s:
        s.add_key("clockA", KEY_A)
    lines = [line(make_record("clockA", 1), KEY_A),
             "[" * 100_000 + "]" * 100_000,
             '{"id": ' + "[" * 33 + "]" * 33 + "}",      # 34 deep with the object: over boundedjson's 32
             line(make_record("clockA", 2), KEY_A)]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "in.jsonl"), "--db", str(db))
    assert (code, out) == (1, "2 stored, 0 duplicates, 0 conflicts, 2 refused\n")
    name = str(tmp_path / "in.jsonl")
    assert err.splitlines() == [f"{name}:2: too-deep: nested deeper than 32",
                                f"{name}:3: too-deep: nested 34 deep, at most 32"]
    with Store(db) as s:
        assert s.count_results() == 2
        assert [(r["reason"], r["source"]) for r in s.refusals()] == [
            ("too-deep", f"import:{name}:2"), ("too-deep", f"import:{name}:3")]


def test_a_line_over_the_size_limit_is_refused_without_holding_it(tmp_path, capsys):
    # issue 13 hole 8: a 3 MiB line (no newline for 3 MiB) is cut at 512 KiB + 1 and refused; the next
    # line is still read and stored
    from gameclock.organiser.commands_import import MAX_LINE_BYTES
    assert MAX_LINE_BYTES == 512 * 1024
    db = tmp_path / "pc.db"
    with Store(db) as s:
        s.add_key("clockA", KEY_A)
    big = '{"pad": "' + "x" * (3 * 1024 * 1024) + '"}'
    (tmp_path / "in.jsonl").write_text(big + "\n" + line(make_record("clockA", 1), KEY_A) + "\n", encoding="utf-8")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "in.jsonl"), "--db", str(db))
    assert (code, out) == (1, "1 stored, 0 duplicates, 0 conflicts, 1 refused\n")
    assert err == f"{tmp_path / 'in.jsonl'}:1: too-large: 524289 bytes, at most 524288\n"


def test_nan_and_huge_numbers_are_refused_by_line(tmp_path, capsys):
    # boundedjson refuses NaN (nothing can sign it) and integers of more than 30 digits
    (tmp_path / "in.jsonl").write_text('{"id": NaN}\n{"id": ' + "9" * 40 + "}\n", encoding="utf-8")
    code, out, err = gameclock(capsys, "import", str(tmp_path / "in.jsonl"), "--db", str(tmp_path / "pc.db"))
    assert (code, out) == (1, "0 stored, 0 duplicates, 0 conflicts, 2 refused\n")
    assert [e.split(": ")[1] for e in err.splitlines()] == ["bad-json", "bad-json"]


def test_dev_zero_is_refused_not_read(tmp_path, capsys):
    # issue 13 hole 8: an endless file without a newline; only regular files are imported
    code, out, err = gameclock(capsys, "import", "/dev/zero", "--db", str(tmp_path / "pc.db"))
    assert (code, out, err) == (1, "", "/dev/zero: not a regular file (a character device)\n")


def test_read_lines_cuts_a_long_line_and_keeps_the_numbering():
    import io

    from gameclock.organiser.commands_import import read_lines
    data = b"ab\n" + b"c" * 20 + b"\n\nlast"
    assert list(read_lines(io.BytesIO(data), max_bytes=5)) == [b"ab", b"cccccc", b"", b"last"]
    assert list(read_lines(io.BytesIO(b"x" * 9), max_bytes=5)) == [b"xxxxxx"]
    assert list(read_lines(io.BytesIO(b"12345\n"), max_bytes=5)) == [b"12345"]
