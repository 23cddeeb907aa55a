"""`gameclock` imports only the module of the subcommand it runs (issue 14: `gameclock run` at boot
does not pay for the organiser's commands), and still lists every subcommand with its help."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gameclock import cli

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "firmware"), str(REPO)])}


def gameclock(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gameclock", *args], cwd=REPO, env=ENV,
                          capture_output=True, text=True, timeout=60)


def test_help_lists_every_subcommand_with_its_help():
    proc = gameclock("--help")
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())  # argparse wraps the help lines
    for name, (_module, help_text) in cli.COMMANDS.items():
        assert f" {name} " in flat
        assert " ".join(help_text.split()) in flat


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_each_subcommand_has_its_own_help(name):
    module_name, _ = cli.COMMANDS[name]
    module = importlib.import_module(module_name)
    assert callable(module.add_arguments) and callable(module.run)
    with pytest.raises(SystemExit) as exc:
        cli.main([name, "--help"])
    assert exc.value.code == 0


@pytest.mark.parametrize(("argv", "want"), [
    (["run", "--sim-pins"], "run"), (["--version"], None), ([], None), (["-h", "sim"], "sim"),
    (["--", "presets"], "presets"), (["no-such"], None), (["export", "run"], "export")])
def test_the_command_named(argv, want):
    assert cli.command_named(argv) == want


def test_run_imports_only_its_own_module():
    """Parsing `gameclock run ...` loads gameclock.daemon and none of the other commands' modules."""
    code = ("import json, sys; from gameclock import cli; "
            "cli.build_parser(sys.argv[1:]).parse_args(sys.argv[1:]); "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('gameclock'))))")
    proc = subprocess.run([sys.executable, "-c", code, "run", "--sim-pins"], cwd=REPO, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded = set(json.loads(proc.stdout))
    assert "gameclock.daemon" in loaded
    others = {module for name, (module, _) in cli.COMMANDS.items() if name != "run"}
    assert not loaded & others
    assert not any(m.startswith(("gameclock.organiser", "gameclock.dock.pcside")) for m in loaded)
