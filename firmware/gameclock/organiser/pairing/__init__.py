"""Pairing systems of the seeds (issue 16): pure functions from an event's players and games to a
round's draft. `model.py` holds the shared types and the registry `SYSTEMS`; each system module
registers itself when imported (`load_systems()` imports them all)."""
from __future__ import annotations

from gameclock.organiser.pairing.model import SYSTEMS, Pairer

SYSTEM_MODULES: tuple[str, ...] = ("roundrobin", "knockout", "makhos", "crossword", "dutch")  # the modules that register systems


def load_systems() -> dict[str, Pairer]:
    """Every registered system by name (imports the system modules)."""
    import importlib

    for name in SYSTEM_MODULES:
        importlib.import_module(f"gameclock.organiser.pairing.{name}")
    return SYSTEMS
