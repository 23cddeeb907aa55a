"""Words any language can say (issue 26: every page of the desk in its reader's language).

`Words` is an English template with `{name}` fields and their values: `str(w)` says it in English (the
command line, a log), `w.say(tr)` in another language with `tr` the template's translation (the desk's
`i18n.tr`, which keys its Thai by the template).

`Note` is a line of English that is also Words: a `str` (the English text itself, so it prints, compares,
joins, sorts, filters by prefix and is stored as any line) carrying the `Words` it was said with in `words`.
It is for the lines made far from any page -- a pairing system's notes, the standings' notes, a dock
port's last error -- that code and tests handle as text, and that the desk shows in Thai. Anything made
from a Note (a slice, a concatenation, a JSON dump) is plain English text again; a Note kept in the
database is kept as its Words' JSON (`as_json`) and made again from it (`note_of_json`).

    notes.append(note("bye: {player}, the last drawn (XW-9)", player=pid))

Here, below every room that says something (the dock's PC side, the organiser), so each can say it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Words:
    """Words any language can say: `text` an English template with `{name}` fields, `values` the
    fields' values (text, whole numbers, or Words said in the same language). `str(w)` says it in
    English; `w.say(tr)` with `tr` the template's translation (the desk's `i18n.tr`)."""
    text: str
    values: tuple[tuple[str, str | int | Words], ...] = ()

    def say(self, tr: Callable[[str], str] = str) -> str:
        values = {k: v.say(tr) if isinstance(v, Words) else v for k, v in self.values}
        return tr(self.text).format(**values)

    def __str__(self) -> str:
        return self.say()

    def as_json(self) -> dict[str, Any]:
        return {"text": self.text, "values": {k: v.as_json() if isinstance(v, Words) else v for k, v in self.values}}

    @staticmethod
    def of_json(d: Any) -> Words:
        """The Words of `as_json`'s dict; ValueError for anything else (a damaged store)."""
        if not isinstance(d, Mapping) or not isinstance(d.get("text"), str) or not isinstance(d.get("values"), Mapping):
            raise ValueError(f"not words: {str(d)[:60]!r}")
        return Words(d["text"], tuple((str(k), Words.of_json(v) if isinstance(v, Mapping) else v)
                                      for k, v in d["values"].items()))


def words(text: str, /, **values: str | int | Words) -> Words:
    """`Words(text, values)`: `words("game {game} of {games}", game=2, games=6)`. A value that is a Note is
    its Words (said in the same language as the rest)."""
    return Words(text, tuple((k, v.words if isinstance(v, Note) else v) for k, v in values.items()))


def joined(items: Iterable[str | Words], sep: str = ", ") -> Words:
    """`a, b, c` as Words: each item (a text, Words or a Note) said in the same language, `sep` between."""
    values = [(f"i{n}", item) for n, item in enumerate(items)]
    return words(sep.join(f"{{{k}}}" for k, _ in values), **dict(values))


class Note(str):
    """A line of English carrying the `Words` it says (module doc): `Note(words(...))` is `str(words)`."""

    words: Words

    def __new__(cls, said: Words) -> Note:
        self = super().__new__(cls, str(said))
        self.words = said
        return self

    def __reduce__(self) -> tuple[Any, ...]:   # a copy or a pickle is a Note again, not str's own (text,)
        return (Note, (self.words,))


def note(text: str, /, **values: str | int | Words) -> Note:
    """`Note(words(text, values))`: `note("bye: {player}, the last drawn (XW-9)", player="7")`."""
    return Note(words(text, **values))


def line_of(exc: BaseException) -> str:
    """An error's line: the Note it was raised with (`OSError(note(...))`: its Words kept), else its text."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Note) else str(exc)


def as_json(line: str) -> str | dict[str, Any]:
    """A line as the database keeps it: a Note as its Words' JSON, any other text as it is."""
    return line.words.as_json() if isinstance(line, Note) else str(line)


def note_of_json(kept: Any) -> str:
    """A line `as_json` kept: a Note again for its Words' JSON, a text as it is (a store from before
    kept every line as text); ValueError for anything else (a damaged store)."""
    if isinstance(kept, str):
        return kept
    return Note(Words.of_json(kept))
