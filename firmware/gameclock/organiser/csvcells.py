"""The cells of the CSV files gameclock writes for spreadsheets (the exports' CSV, `gameclock
standings --format csv`): safe to open in Excel, LibreOffice or Google Sheets.

    csv_header(names) -> str    # the header line: our column names as they are
    csv_line(cells) -> str      # one data line, "\\n"-terminated: numbers as they are, text quoted
    text_cell("=SUM(A1)")       # -> "'=SUM(A1)": what a spreadsheet shows as text
    plain_cell("'=SUM(A1)")     # -> "=SUM(A1)": gameclock's own readers take the quote off again

CSV injection (OWASP, "CSV Injection"): a spreadsheet runs a cell that begins with `=`, `+`, `-` or
`@` as a formula (`=HYPERLINK("http://...?d="&A1, "click")` sends the sheet's data away at a click;
`+cmd|' /C calc'!A0` starts a program in older Excel), and a tab, a carriage return or a line feed
at the start does the same in some of them. So do those signs after spaces (ASCII, no-break, ideographic)
in an import that trims spaces (LibreOffice's "Trim spaces" option), and, as a precaution, their
full-width forms (＝ ＋ － ＠), which an East Asian input method types for them (a fresh-eyes review of
issue 24: these are quoted too). A player's name is anybody's text (a clock's pairing, an uploaded
player list), and the exports' CSV has a byte-order mark so that a spreadsheet opens it at a click.
So, as OWASP advises, a text cell that begins with one of those characters gets a single quote
before it (the spreadsheet shows `'=HYPERLINK(...)`: the name stays readable), and every text cell is
quoted, its own double quotes doubled, so that a `;` or a tab inside a name cannot start a new cell
(with the formula) in a spreadsheet that splits its lines on those.

Only text is neutralised: a plain number (an optional minus, digits, optional decimals: `-30`,
`412`, `2.5`) is written as it is, unquoted, so a negative spread stays a number the spreadsheet can
sum (`-30` is not a formula; OWASP's advice is about text). An empty cell stays empty.

The quote comes off again in gameclock's own readers (`plain_cell`: `gameclock pairings` reads the
export back): a cell of quotes then one of those characters loses its first quote. The writer puts
one more quote before a text that already begins with quotes then such a character, so a name that
itself begins with `'=` comes back whole.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

# what makes a spreadsheet run a cell (OWASP): =, +, -, @, a tab, a carriage return, a line feed; also
# after spaces (an import that trims them) and the full-width = + - @ (U+FF1D, U+FF0B, U+FF0D, U+FF20)
FORMULA = re.compile(r"'*(?:\s*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r\n])")
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def text_cell(text: str) -> str:
    """`text` as a spreadsheet shows it as text: a single quote before it when it begins with a
    formula's character (or with quotes then one); else unchanged."""
    return "'" + text if FORMULA.match(text) else text


def plain_cell(text: str) -> str:
    """The text a cell written by `text_cell` came from (the reverse of text_cell)."""
    return text[1:] if FORMULA.match(text) and text.startswith("'") else text


def csv_cell(value: str) -> str:
    """One cell of a CSV line: "" and plain numbers as they are, text neutralised and quoted."""
    if not value or NUMBER.fullmatch(value):
        return value
    return '"' + text_cell(value).replace('"', '""') + '"'


def csv_line(cells: Iterable[str]) -> str:
    """One line of a CSV for spreadsheets (comma-separated, "\\n"-terminated) of `cells`."""
    return ",".join(csv_cell(c) for c in cells) + "\n"


def csv_header(names: Iterable[str]) -> str:
    """The header line: gameclock's own column names (plain words: `division`, `Medal score`), as
    they are, so the header reads as it always did."""
    return ",".join(names) + "\n"
