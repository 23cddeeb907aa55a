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


def test_the_startup_lines_name_the_public_url_and_the_dock():
    local = commands.startup_lines("127.0.0.1", 8017)
    assert "--public-url http://THIS-PC-ADDRESS:8017" in local[1] and "QR" in local[1]
    hall = commands.startup_lines("0.0.0.0", 9000, "http://192.168.1.10:9000")
    assert hall[2] == "  the players' QR codes carry http://192.168.1.10:9000"
    assert "--public-url" in commands.startup_lines("0.0.0.0", 9000)[2]
    docked = commands.startup_lines("127.0.0.1", 8017, None, ["auto"])
    assert "serving the dock on auto" in docked[-1] and "gameclock receive must not" in docked[-1]


def test_dock_is_its_own_option_and_port_stays_the_web_port():
    import argparse

    parser = argparse.ArgumentParser()
    commands.add_arguments(parser)
    args = parser.parse_args(["--port", "9000", "--dock", "auto", "--dock", "/dev/ttyACM3"])
    assert args.port == 9000 and args.dock == ["auto", "/dev/ttyACM3"]
    assert parser.parse_args([]).dock == []
    assert "--dock" in parser.format_help()


def test_the_demo_serves_and_leaves_no_folder_behind(tmp_path):
    """`gameclock desk --demo` (make desk): serves the demo event, and its temporary database goes
    when the desk is stopped (Ctrl-C: SIGINT), so first looks do not pile up in /tmp."""
    import os
    import re
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "gameclock", "desk", "--demo", "--port", str(port)],
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        m = re.search(r"demo database (\S+)", line)
        assert m, line
        folder = Path(m.group(1)).parent
        assert folder.parent == tmp_path and folder.is_dir()
        body = ""
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/e/demo/standings") as r:
                    body = r.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert 'data-testid="standings-row"' in body and "มาลี ศรีสุข" in body
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    assert not folder.exists() and list(tmp_path.iterdir()) == []


def test_a_forgotten_password_is_set_again_on_the_pcs_terminal(organiser, db, capsys):
    """`gameclock desk --new-password NAME`: the way back in for an organiser who forgot theirs (issue 26:
    with named accounts nobody else may know it); typed twice, not echoed; the account's sessions end."""
    from deskhelp import ORGANISER, log_in

    store = organiser.app.state.desk.store
    answers = iter(["a brand new password", "a brand new password"])
    assert commands.new_password(db, ORGANISER.upper(), lambda prompt: next(answers)) == 0
    assert "a new password for organiser" in capsys.readouterr().err
    assert organiser.get("/admin").status_code == 303                       # its session ended
    assert log_in(organiser, "a brand new password").status_code == 303
    assert store.account_changes()[-1]["action"] == "password"
    assert store.account_changes()[-1]["by"].endswith(" (terminal)")
    # typed differently, too short, no such account: nothing changes, one line says why
    for answers, name in ((["one password!", "another one!"], ORGANISER), (["short", "short"], ORGANISER),
                          (["long enough pw", "long enough pw"], "nobody")):
        typed = iter(answers)
        assert commands.new_password(db, name, lambda prompt, typed=typed: next(typed)) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("gameclock desk: "), err
    assert organiser.get("/admin").status_code == 200
