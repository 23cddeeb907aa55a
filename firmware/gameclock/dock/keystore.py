"""The clock's dock key: `dock.key` in the state folder, 64 hex digits, mode 0600; and, in the same form,
`dock.key.new`: the key of an enrollment its arbiter confirmed that the PC has not yet proven it holds.

Written durably (temp file, fsync, rename, fsync the folder) so a power cut during enrollment leaves
the old key or the new one. A damaged file reads as no key (logged): the clock then shows NOT
ENROLLED and the organiser enrolls it again; its results wait in the outbox meanwhile. So does one
that is not a regular file (a FIFO, a device, a symbolic link) or too large: it is never waited for
nor read whole (boundedfile, issue 24 B6); the pending key likewise.

Why a pending key (issue 24): the PC stores a new key and revokes the clock's others as soon as both
people confirmed the code, so that a stolen old key stops working at once, whatever frame is lost next.
The clock writes the new key aside *before* it sends its confirmation, so whenever the PC can have
revoked the old key the clock holds the new one; it becomes `dock.key` only when the PC proves it holds
it (`enroll-done`, or a welcome whose MAC is under it: clockside.py), so a clock holds no key the PC lacks.
It is dropped only then (or replaced by a later enrollment's), never at a PC's `enroll-cancel`: that frame
carries no MAC, and a forged one after the PC stored the key would leave the clock with its revoked old key.
"""
from __future__ import annotations

import errno
import logging
import os
import re

from gameclock import boundedfile

KEY_FILE = "dock.key"
PENDING_FILE = "dock.key.new"
MAX_KEY_FILE = 256  # bytes: 64 hex digits and a newline
log = logging.getLogger(__name__)


class KeyStore:
    def __init__(self, state_dir: str | os.PathLike[str], name: str = KEY_FILE):
        self.path = os.path.join(os.fspath(state_dir), name)
        self._key: bytes | None = None
        self._loaded = False
        self._pending: KeyStore | None = None  # dock.key.new, made when first asked for

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
        tmp = os.path.join(folder, ".tmp-" + os.path.basename(self.path))
        # whatever is at the temp name goes first (a folder kept aside as .bad-N), and the new file is made with
        # O_EXCL: an open of what is there would wait for ever on a FIFO (the dock thread stalled) or write the
        # key through a link (persist/fsio.new_temp does the same for the other state files)
        if os.path.isdir(tmp) and not os.path.islink(tmp):
            n = 1
            while os.path.lexists(f"{tmp}.bad-{n}"):
                n += 1
            os.rename(tmp, f"{tmp}.bad-{n}")
        elif os.path.lexists(tmp):
            os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
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

    # ------------------------------------------------------------------ the pending key (issue 24)
    def _pending_file(self) -> KeyStore:
        if self._pending is None:
            self._pending = KeyStore(os.path.dirname(self.path) or ".", PENDING_FILE)
        return self._pending

    @property
    def pending(self) -> bytes | None:
        """The key of an enrollment the arbiter confirmed here, until the PC proved it holds it (or None)."""
        return self._pending_file().key

    def set_pending(self, key: bytes) -> None:
        """Keep `key` aside (durably): the arbiter confirmed its enrollment, the PC has not proven it holds it."""
        self._pending_file().set(key)

    def drop_pending(self) -> None:
        """Forget the pending key (its enrollment ended without the PC storing it, or it became the key).
        Never raises: a pending key that could not be removed is only tried again at the next hello."""
        p = self._pending_file()
        try:
            os.unlink(p.path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.error("%s could not be removed (%s): tried again at the next docking", p.path, exc)
        p._key, p._loaded = None, True
