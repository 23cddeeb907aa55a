"""Thai line breaks on the public pages (issue 28): where a line may wrap in Thai text, which has no spaces
between words.

A browser breaks Thai lines with its own dictionary (ICU's), which splits a personal name that is in no
dictionary anywhere it likes (ณัฏฐ์ธ / ยาน์) and a loan word it does not know (เรตติ้ง). So:

- a name (`name_html`): each part (first name, family name: the text between spaces) in a `<span
  class="np">` that never wraps; a line breaks only between the parts. Names are not dictionary words, so no
  segmenter is asked.
- other Thai text (`words_html`: headers, labels, notes): the words found by PyThaiNLP's `newmm` engine with
  its bundled dictionary, each Thai word in a `<span class="w">` that never wraps, a `<wbr>` between words
  (the browser's dictionary may not see a break there). `word-break: keep-all` does not stop Chromium's
  dictionary breaks in Thai (tried), so the spans are the way. Only the text of the page's words goes
  through here (a few short lines a page), never a table's rows: a row's markup stays light.

Segmentations are cached (`_segments`): the same few hundred texts are said on every page.
"""
from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

THAI = re.compile(r"[\u0E00-\u0E7F]")


def has_thai(text: str) -> bool:
    return THAI.search(text) is not None


def name_html(name: object) -> Markup:
    """A person's name with each Thai part unbreakable (module doc); Latin parts as they are (a browser
    breaks Latin only at spaces and hyphens)."""
    text = "" if name is None else str(name)
    if not has_thai(text):
        return escape(text)
    return Markup(" ").join(Markup('<span class="np">%s</span>') % part if has_thai(part) else escape(part)
                            for part in text.split())


@lru_cache(maxsize=4096)
def _segments(text: str) -> tuple[str, ...]:
    """`text` cut into words by newmm (PyThaiNLP's dictionary-based maximal matching, its bundled
    dictionary), whitespace kept as its own pieces."""
    # the organiser's extra (pyproject.toml); imported at the first Thai text (~50 ms)
    from pythainlp.tokenize import word_tokenize

    return tuple(word_tokenize(text, engine="newmm", keep_whitespace=True))


@lru_cache(maxsize=4096)
def _words_html(text: str) -> Markup:
    out: list[str] = []
    after_word = False   # a break between two Thai words only: not after "(" nor before ")"
    for piece in _segments(text):
        thai = has_thai(piece)
        if thai:
            out.append(("<wbr>" if after_word else "") + f'<span class="w">{escape(piece)}</span>')
        else:
            out.append(str(escape(piece)))
        after_word = thai
    # a number after a word stays with it (ชิงอันดับที่ 3: no "3" alone on the next line)
    return Markup(re.sub(r"</span> (?=[0-9])", "</span>&nbsp;", "".join(out)))


@lru_cache(maxsize=64)
def _names_re(names: frozenset[str]) -> re.Pattern[str] | None:
    """The players' names, longest first (a name that holds another is found whole)."""
    thai = sorted((n for n in names if has_thai(n)), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, thai))) if thai else None


def words_html(text: object, lang: str = "th", names: frozenset[str] = frozenset()) -> Markup:
    """Text of the page with its Thai words unbreakable and a break allowed between them (module doc); the
    players' `names` in it said as names (name_html: the segmenter's dictionary would cut a family name
    such as ศรีสุขสวัสดิ์ into its words). Text without Thai, or a page not in Thai, as it is (escaped)."""
    s = "" if text is None else str(text)
    if lang != "th" or not has_thai(s):
        return escape(s)
    found = _names_re(names) if names else None
    if found is None:
        return _words_html(s)
    out, at = [], 0
    for m in found.finditer(s):
        out += [_words_html(s[at:m.start()]) if m.start() > at else Markup(""), name_html(m.group(0))]
        at = m.end()
    out.append(_words_html(s[at:]) if at < len(s) else Markup(""))
    return Markup("").join(out)
