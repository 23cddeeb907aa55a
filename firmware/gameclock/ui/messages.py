"""The loop's messages as the displays say them (issue 15): a few words a seated player reads in the
headline band (ui/screens.py, HEAD_ROWS) for `screens.MESSAGE_NS`, while the whole sentence stays
the simulator's text line and the log. Pure: text in, text out; `short` gives the English, which
`text.tr` turns into the clock's language."""
from __future__ import annotations

from gameclock.ui.text import tr

# (the start of a loop message, its words on the displays), first match wins. The loop writes its
# messages in loop/*.py and the result entry's in ui/resultentry.py; a message not listed shows its
# first clause (up to ":" or "(").
SHORT: tuple[tuple[str, str], ...] = (
    ("menu locked", "Menu locked"),
    ("menu unlocked", "Menu unlocked"),
    ("extra time: the arbiter gives it", "Ask the arbiter"),
    ("arbiter call", "Arbiter call"),  # MR-13: a side has 5:00 left (loop/render.py)
    ("this preset has no extra time", "No extra time"),
    ("no extra time", "No extra time"),
    ("last press undone", "Press undone"),
    ("left extra time given", "Left: extra time"),
    ("right extra time given", "Right: extra time"),
    ("left extra time taken back", "Left: extra taken back"),
    ("right extra time taken back", "Right: extra taken back"),
    ("left time set", "Left time set"),
    ("right time set", "Right time set"),
    ("left moves set", "Left moves set"),
    ("right moves set", "Right moves set"),
    ("players cleared", "Players cleared"),
    ("settings not saved", "Settings not saved"),
    ("count reached", "Count reached: draw"),
    ("FLAG: push the knob", "Arbiter: push the knob"),
    ("enrolment confirmed", "Enrolment confirmed"),
    ("enrolment refused", "Enrolment refused"),
    ("pairing refused", "Pairing refused"),
    ("pairing:", "Pairing received"),
    ("restored", "Game restored"),
    ("the arbiter is entering the result", "Arbiter entering"),
    ("players confirm with their buttons", "Press to confirm"),
    ("missing:", "Result incomplete"),
    ("RESULT NOT SAVED", "Result not saved"),
)
QUIET = ("RESULT SAVED", "SAVING RESULT")  # the result screens say these themselves


def short(message: str) -> str:
    """The words the displays show for loop message `message` ("" for none)."""
    message = message.strip()
    if not message or message in QUIET:
        return ""
    for start, words in SHORT:  # the loop's English, or its Thai (a message written with `tr`)
        if message.startswith(start) or (tr(start, "th") != start and message.startswith(tr(start, "th"))):
            return words
    head = message.split("(")[0].split(":")[0].strip()
    return head[:1].upper() + head[1:]


# The dock's status-line tags (dock/clockside.py DockStatus.tag), longest first: the words before the
# figures are translated, the figures kept ("DOCK 1/3" -> "ส่งผล 1/3").
DOCK_WORDS = ("DOCK STATE READ-ONLY", "DOCK ENROL?", "DOCK REFUSED", "DOCK DAMAGED", "DOCK UPDATE", "DOCK ERROR",
              "DOCK OK", "ENROL?", "DOCK")


def dock_words(tag: str, lang: str | None) -> str:
    """The dock's tag in `lang` (its words translated, its figures kept)."""
    for words in DOCK_WORDS:
        if tag == words or tag.startswith(words + " "):
            return tr(words, lang) + tag[len(words):]
    return tag
