"""`settings.json`: the menu's settings (`ui.menu.Settings`) kept in the state folder.

Reading never fails: a missing, unreadable or damaged file (not UTF-8, not JSON, nested too deep, wrong
values) gives the defaults for what is wrong, and each problem is logged. Writing is the one
atomic-write recipe of the journal and the outbox (`fsio.atomic_write`: a temp file, fsync, rename,
fsync of the folder): a power cut leaves the old file or the new one. With a writer attached (the
journal's writer thread under `gameclock run`) the loop only hands over the JSON text, made on its own
thread from the settings as they are then (a snapshot), and never waits for the disk.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from gameclock.persist.fsio import FileSystem, atomic_write
from gameclock.persist.writer import Call, Writer
from gameclock.ui.menu import Settings

log = logging.getLogger(__name__)


class SettingsStore:
    """`settings.json` in `directory`. `load()` -> Settings; `save(settings)` writes a snapshot."""

    NAME = "settings.json"

    def __init__(self, directory: str | os.PathLike[str], fs: FileSystem | None = None):
        self.path = Path(directory) / self.NAME
        self.fs = fs or FileSystem()
        self.writer: Writer | None = None

    def __repr__(self) -> str:
        return f"<SettingsStore {self.path}{' (writer thread)' if self.writer else ''}>"

    def attach(self, writer: Writer) -> None:
        """Save from now on through `writer` (its thread does the disk work, in order with the journal)."""
        self.writer = writer

    def load(self) -> Settings:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return Settings()
        except OSError as exc:
            log.warning("%s: cannot read (%s): default settings", self.path, exc)
            return Settings()
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            log.warning("%s: not UTF-8 text (byte %d): default settings", self.path, exc.start)
            return Settings()
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep to be ours
            log.warning("%s: not JSON (%s): default settings", self.path, str(exc)[:80])
            return Settings()
        settings, problems = Settings.from_json(data)
        for problem in problems:
            log.warning("%s: %s", self.path, problem)
        return settings

    def save(self, settings: Settings) -> None:
        """Write `settings` as they are now (the text is made here, so later changes do not leak in)."""
        data = (json.dumps(settings.to_json(), indent=1, sort_keys=True) + "\n").encode("utf-8")
        path = str(self.path)

        def write(fs: FileSystem) -> None:
            fs.mkdir(os.path.dirname(path))
            atomic_write(fs, path, data)

        if self.writer is not None:
            self.writer.submit(Call(write, "settings.json"))
        else:
            write(self.fs)
