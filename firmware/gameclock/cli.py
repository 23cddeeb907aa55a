"""`gameclock` command line: one subcommand per job; each lives in the module that owns it."""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gameclock import __version__

# subcommand -> (module, help). Each module offers `add_arguments(parser)` and `run(args) -> int`.
# Only the module of the subcommand being run is imported (`gameclock run` at boot must not pay for
# the organiser's commands); `gameclock --help` lists them all from this table alone.
COMMANDS: dict[str, tuple[str, str]] = {
    "presets": ("gameclock.rules.commands_presets", "list the event presets"),
    "check-rules": ("gameclock.rules.commands_check", "validate a rule file (an organiser's own preset)"),
    "replay": ("gameclock.replay", "fold an event log and print the clock's state as JSON"),
    "sim": ("gameclock.app", "run the clock in this terminal, keys as buttons"),
    "run": ("gameclock.daemon", "the clock as a service (systemd); --sim-pins runs it off a Pi"),
    "upload": ("gameclock.device.commands_upload", "send the clock's results to the docked PC (clock side)"),
    "receive": ("gameclock.organiser.commands_receive", "receive results from docked clocks (PC side)"),
    "enroll": ("gameclock.organiser.commands_enroll", "enroll a docked clock: agree its key, both confirm a code (PC side)"),
    "import": ("gameclock.organiser.commands_import", "merge results exported by another organiser PC (PC side)"),
    "pairings": ("gameclock.organiser.commands_pairings", "load a round's pairings (CSV or tsh .t) for the clocks (PC side)"),
    "event": ("gameclock.organiser.commands_event", "create an event from a player list, set its options, change its players, or show it (PC side)"),
    "pair": ("gameclock.organiser.commands_pair", "pair an event's next round: draft, fix, publish, print (PC side)"),
    "standings": ("gameclock.organiser.standings.commands", "the events' standings from the stored results (PC side)"),
    "export": ("gameclock.organiser.exports.commands", "write the results as tsh .t, FIDE TRF, CSV or JSON Lines (PC side)"),
    "export-site": ("gameclock.organiser.commands_site", "write an event's public pages as a static site to copy to any web host (PC side)"),
    "desk": ("gameclock.organiser.desk.commands", "the organiser's desk: a web app of the event, live (PC side)"),
}


def command_named(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` asks for: its first word that is not an option (the top-level parser's
    own options, --help and --version, take no value). None: no known subcommand."""
    words = list(argv)
    for i, word in enumerate(words):
        if word == "--":
            return words[i + 1] if i + 1 < len(words) and words[i + 1] in COMMANDS else None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser for `argv`: every subcommand is listed with its help; only the one `argv` names
    gets its arguments, from its module (imported here, and only that one)."""
    parser = argparse.ArgumentParser(prog="gameclock", description=__doc__)
    parser.add_argument("--version", action="version", version=f"gameclock {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = command_named(argv)
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        p.set_defaults(_module=module_name)
        if name == chosen:
            importlib.import_module(module_name).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(words).parse_args(words)
    status: int = importlib.import_module(args._module).run(args)  # each command's run() -> int
    return status


if __name__ == "__main__":
    sys.exit(main())
