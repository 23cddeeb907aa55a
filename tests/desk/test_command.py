"""`gameclock desk`: the missing extra said in one line; where it listens said at start."""
from __future__ import annotations

import importlib.util

from gameclock.cli import main
from gameclock.organiser.desk import commands


def test_without_the_web_stack_it_says_which_extra_in_one_line(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["desk", "--db", "x.db"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs uvicorn" in err and "gameclock[organiser]" in err


def test_the_startup_line_says_how_to_open_it_to_the_hall():
    local = commands.startup_lines("127.0.0.1", 8017)
    assert local[0].startswith("gameclock desk: open http://127.0.0.1:8017/")
    assert "--host 0.0.0.0" in local[1]
    hall = commands.startup_lines("0.0.0.0", 9000)
    assert "http://127.0.0.1:9000/" in hall[0] and "hall" in hall[1]
