"""Errors the desk says in its reader's language (issue 26).

An organiser's error (a player list's bad line, a round that cannot be paired yet, an export with a
gap) is one line of English on the command line, and the desk shows the same line on a Thai page.
`SaidError` carries it as `Words` too (organiser/pairing/model.py: an English template with `{name}`
fields and their values): `str(exc)` stays the command line's English, and the desk says
`exc.words` through its Thai, keyed by the template (desk/i18n.py). An error made of a plain string
has no words; the desk looks the string itself up (a fixed sentence) and shows it as it is otherwise.

    raise EventError(words("round {round}: table {table} given twice", round=3, table=7))

The classes that carry them: event.EventError, store.StoreError, exports.ExportError and the
desk's auth.AuthError. `SaidError` is a mixin, so each keeps its own base (a ValueError stays one).
"""
from __future__ import annotations

from collections.abc import Sequence

from gameclock.organiser.pairing.model import Words, words

__all__ = ["SaidError", "Words", "listed_words", "said_of", "words"]
MAX_LISTED = 5      # items a list names, then "and N more"


class SaidError(Exception):
    """An error whose message may be `Words`: `words` is None for a plain string."""

    def __init__(self, message: str | Words = "", *args: object) -> None:
        self.words: Words | None = message if isinstance(message, Words) else None
        super().__init__(str(message), *args)


def said_of(exc: BaseException) -> Words | str:
    """What an error says, to be said again by another (an error wrapped, a notice): its words (a
    SaidError's, or the Words it was raised with: `PairingError(words(...))`), else its line."""
    found = getattr(exc, "words", None)
    if isinstance(found, Words):
        return found
    if len(exc.args) == 1 and isinstance(exc.args[0], Words):
        return exc.args[0]
    return str(exc)


def listed_words(items: Sequence[Words | str], limit: int = MAX_LISTED, sep: str = ", ") -> Words:
    """`a, b, c` -- at most `limit` of them, then `and N more` -- as Words (each item said in the same language)."""
    shown = items[:limit]
    text = sep.join(f"{{i{n}}}" for n in range(len(shown)))
    values: list[tuple[str, str | int | Words]] = [(f"i{n}", item) for n, item in enumerate(shown)]
    if len(items) > limit:
        return Words("{items} and {more} more", (("items", Words(text, tuple(values))), ("more", len(items) - limit)))
    return Words(text, tuple(values))
