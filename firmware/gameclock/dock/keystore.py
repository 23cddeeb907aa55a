"""The clock's dock key: `dock.key` in the state folder, 64 hex digits, mode 0600.

Written durably (temp file, fsync, rename, fsync the folder) so a power cut during enrollment leaves
the old key or the new one. A damaged file reads as no key (logged): the clock then shows NOT
ENROLLED and the organiser enrolls it again; its results wait in the outbox meanwhile. So does one
that is not a regular file (a FIFO, a device, a symbolic link) or too large: it is never waited for
nor read whole (boundedfile, issue 24 B6).
"""
from __future__ import annotations

import errno
import logging
import os
import re

from gameclock import boundedfile

KEY_FILE = "dock.key"
MAX_KEY_FILE = 256  # bytes: 64 hex digits and a newline
log = logging.getLogger(__name__)


class KeyStore:
    def __init__(self, state_dir: str | os.PathLike[str]):
        self.path = os.path.join(os.fspath(state_dir), KEY_FILE)
        self._key: bytes | None = None
        self._loaded = False

    @property
    def key(self) -> bytes | None:
        if not self._loaded:
            self._key = self._load()
            self._loaded = True
        return self._key

    def _load(self) -> bytes | None:
        try:
            text = boundedfile.read(self.path, max_bytes=MAX_KEY_FILE, follow=False).decode("ascii").strip()
        except boundedfile.FileLimitError as exc:
            if exc.errno == errno.ENOENT:
                return None
            log.error("%s: %s: the clock counts as not enrolled", self.path, exc)
            return None
        except UnicodeDecodeError as exc:
            log.error("%s unreadable (%s): the clock counts as not enrolled", self.path, exc)
            return None
        if not re.fullmatch(r"[0-9a-f]{64}", text):
            log.error("%s is damaged: the clock counts as not enrolled", self.path)
            return None
        return bytes.fromhex(text)

    def set(self, key: bytes) -> None:
        folder = os.path.dirname(self.path) or "."
        os.makedirs(folder, exist_ok=True)
        tmp = os.path.join(folder, ".tmp-" + KEY_FILE)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, key.hex().encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        self._key, self._loaded = key, True
