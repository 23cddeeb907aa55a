"""The words on the clock in the clock's language (issue 15): English or Thai.

Every user-visible string in `ui/` is written in English in the code and passed through
`tr(text, lang)` where it is shown; `lang` is the clock's `Settings.language` (the arbiter's
setting, or the one a pairing from the organiser's PC brought). The Thai words live in
`text_th.py`, keyed by the English text, so a missing translation shows the English, never "?".
"""
from __future__ import annotations

from gameclock.ui.text_th import TH

LANGUAGES = ("en", "th")
DEFAULT_LANGUAGE = "en"


def tr(text: str, lang: str | None) -> str:
    """`text` (English) in `lang`: the Thai catalog's words when `lang` is "th" and it has them."""
    if lang == "th":
        return TH.get(text, text)
    return text
