"""A peer's text made safe for one log line (issue 24 B5): every character that is not printable is
escaped, as Python writes it in a string literal (ESC -> `\\x1b`, CR -> `\\r`, U+202E -> `\\u202e`).

Text from outside -- a dock frame's words, a PC's name, a clock's firmware string -- reaches the
clock's journal and the organiser's terminal through log lines. Left raw, an escape sequence would
clear or retitle the terminal that shows the log, a CR or LF would forge a log line of its own, and a
bidi override would turn the rest of the line around. Thai (its vowels and tone marks are printable)
and every other printable character is kept as it is.

    log.warning("dock: the PC says %s", printable(text))

Every place a peer's text reaches a log line on either end of the dock goes through here (the refusal
log, dock/refusals.py, escapes every argument it logs).
"""
from __future__ import annotations


def printable(text: str, limit: int | None = None) -> str:
    """`text` with its non-printable characters escaped (`str.isprintable`'s sense: controls, format
    characters such as bidi overrides, line and paragraph separators; the space is kept), cut to
    `limit` characters of the original text with "..." after it when longer."""
    if limit is not None and len(text) > limit:
        return printable(text[:limit]) + "..."
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in "\r\n\t":
        return {"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
