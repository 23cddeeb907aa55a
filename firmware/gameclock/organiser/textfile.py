"""The organiser's own text files (pairings, teams) as text: UTF-8 first (a BOM dropped); Thai windows-874
(tsh's Thai profile, Thai Excel) only when the bytes are not UTF-8 and read as windows-874 give text that
is really Thai; anything else is refused, never guessed (issue 13 hole 5: Latin-1 "José" became "Jos้").

    text, encoding = read_text(path, max_bytes=..., error=PairingError)   # encoding: "UTF-8" or "windows-874"

"Really Thai": every character is ASCII or a Thai letter, vowel, tone mark or digit (U+0E01-U+0E5B),
at least one Thai consonant, every combining vowel or tone mark follows a consonant (or another mark),
and no Thai character touches a Latin letter ("Jos้", "ษric" are Latin-1 read wrongly, not Thai).
"""
from __future__ import annotations

import os

from gameclock import boundedfile
from gameclock.dataerrors import display_path, printable

UTF8, THAI = "UTF-8", "windows-874"
THAI_BLOCK = range(0x0E01, 0x0E5C)        # ก .. ๛
THAI_CONSONANTS = range(0x0E01, 0x0E2F)   # ก .. ฮ
# the combining vowels above and below (ั ิ ี ึ ื ุ ู ฺ) and the marks (็ ่ ้ ๊ ๋ ์ ํ ๎): never first in a word
THAI_MARKS = frozenset([0x0E31, *range(0x0E34, 0x0E3B), *range(0x0E47, 0x0E4F)])


def is_thai_text(text: str) -> bool:
    """True if `text` (windows-874 decoded) reads as Thai: see the module doc."""
    consonant = False
    prev = 0
    for c in text:
        o = ord(c)
        if o < 0x80:
            if c.isalpha() and prev in THAI_BLOCK:
                return False
        elif o in THAI_BLOCK:
            if prev < 0x80 and chr(prev).isalpha():
                return False
            if o in THAI_MARKS and not (prev in THAI_CONSONANTS or prev in THAI_MARKS):
                return False
            consonant = consonant or o in THAI_CONSONANTS
        else:
            return False  # windows-874's €, …, curly quotes, no-break space: not in a Thai name file
        prev = o
    return consonant


def decode(data: bytes, shown: str, error: type[Exception]) -> tuple[str, str]:
    """(text, "UTF-8" or "windows-874") of a file's bytes; `error` (one line, `FILE:LINE: ...`) if neither."""
    try:
        return data.decode("utf-8-sig"), UTF8
    except UnicodeDecodeError as exc:
        first = exc
    line = data[:first.start].count(b"\n") + 1
    byte = f"byte 0x{data[first.start]:02x}"
    try:
        text = data.decode("cp874")
    except UnicodeDecodeError:
        raise error(f"{shown}:{line}: neither UTF-8 nor windows-874 (Thai): {byte}; save the file as UTF-8") from None
    if not is_thai_text(text):
        start = data.rfind(b"\n", 0, first.start) + 1
        end = data.find(b"\n", first.start)
        sample = data[start:end if end >= 0 else len(data)].decode("cp874", "replace").strip()[:40]
        raise error(f"{shown}:{line}: neither UTF-8 nor windows-874 (Thai): {byte} is not UTF-8, and read as "
                    f"windows-874 the text is not Thai ({printable(sample)!r}); save the file as UTF-8") from None
    return text, THAI


def read_text(path: str | os.PathLike[str], *, max_bytes: int, error: type[Exception]) -> tuple[str, str]:
    """The text of a regular file of at most `max_bytes` and its encoding (`decode`); `error` otherwise."""
    shown = display_path(path)
    try:
        data = boundedfile.read(path, max_bytes=max_bytes)
    except boundedfile.FileLimitError as exc:
        raise error(f"{shown}: {exc}") from None
    return decode(data, shown, error)
