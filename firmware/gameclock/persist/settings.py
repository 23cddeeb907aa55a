"""`settings.json`: the menu's settings (`ui.menu.Settings`) kept in the state folder.

Reading never fails and never waits: a missing, unreadable or damaged file (not UTF-8, not JSON, nested
too deep, too large, wrong values; not a regular file at all, such as a FIFO or a link to /dev/zero: it is
not opened for reading, issue 24 B6) gives the defaults for what is wrong, and each problem is logged. A file with any
problem is kept aside as `settings.json.bad-N` (the first free N: nothing the arbiter set is lost for
good) and `notice` says so in a few words for the screen ("SETTINGS RESET", or "SETTINGS PARTLY RESET"
when only some values were wrong); the next save writes a good file. Writing is the one
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

from gameclock import boundedjson
from gameclock.persist.fsio import FileSystem, NotReadable, atomic_write, keep_aside
from gameclock.persist.writer import Call, Writer
from gameclock.ui.menu import Settings

log = logging.getLogger(__name__)


class SettingsStore:
    """`settings.json` in `directory`. `load()` -> Settings; `save(settings)` writes a snapshot."""

    NAME = "settings.json"
    MAX_BYTES = 64 * 1024  # a settings file is a few hundred bytes; two long Thai names fit many times

    def __init__(self, directory: str | os.PathLike[str], fs: FileSystem | None = None):
        self.path = Path(directory) / self.NAME
        self.fs = fs or FileSystem()
        self.writer: Writer | None = None
        self.notice = ""        # for the screen after load(): "" or "SETTINGS RESET" / "SETTINGS PARTLY RESET"
        self.kept_aside = ""    # where the bad file went

    def __repr__(self) -> str:
        return f"<SettingsStore {self.path}{' (writer thread)' if self.writer else ''}>"

    def attach(self, writer: Writer) -> None:
        """Save from now on through `writer` (its thread does the disk work, in order with the journal)."""
        self.writer = writer

    def load(self) -> Settings:
        try:
            raw = self.fs.read_bytes(str(self.path), self.MAX_BYTES)
        except FileNotFoundError:
            return Settings()
        except NotReadable as exc:  # a FIFO, a device, a link, a huge file: damaged, so kept aside
            log.warning("%s: default settings", exc)
            self._keep_aside()
            self.notice = "SETTINGS RESET"
            return Settings()
        except OSError as exc:
            log.warning("%s: cannot read (%s): default settings", self.path, exc)
            self.notice = "SETTINGS RESET"
            return Settings()
        try:
            data = boundedjson.loads(raw, max_bytes=self.MAX_BYTES, max_depth=4)
        except boundedjson.JSONLimitError as exc:
            what = {"bad-utf8": "not UTF-8 text", "bad-json": "not JSON", "too-deep": "nested too deep",
                    "too-large": "too large"}.get(exc.reason, exc.reason)
            log.warning("%s: %s (%s): default settings", self.path, what, exc.detail)
            self._keep_aside()
            self.notice = "SETTINGS RESET"
            return Settings()
        settings, problems = Settings.from_json(data)
        for problem in problems:
            log.warning("%s: %s", self.path, problem)
        if problems:
            self._keep_aside()
            self.notice = "SETTINGS PARTLY RESET" if settings != Settings() else "SETTINGS RESET"
        return settings

    def _keep_aside(self) -> None:
        """Rename the bad file to settings.json.bad-N (the first free N), so the next save does not
        overwrite what the arbiter may want to look at."""
        try:
            self.kept_aside = keep_aside(self.fs, str(self.path))
        except OSError as exc:  # a read-only card: the defaults are used all the same
            log.warning("%s: could not be kept aside: %s", self.path, exc)
            return
        log.warning("%s: kept aside as %s", self.path, os.path.basename(self.kept_aside))

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
