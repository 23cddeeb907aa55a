"""organiser/csvcells.py: the cells of the CSVs written for spreadsheets (OWASP "CSV Injection":
issue 24, B7). Expected cells worked by hand from OWASP's advice: a text beginning with =, +, -, @,
a tab or a carriage return gets a single quote first; every text cell is quoted; numbers stay numbers."""
from __future__ import annotations

import csv
import io

from gameclock.organiser.csvcells import csv_line, plain_cell, text_cell


def test_text_a_spreadsheet_would_run_gets_a_quote_and_numbers_stay_numbers():
    line = csv_line(["=1+2", "+1", "-x", "@SUM(A1)", "\tx", "\rx", "-30", "412", "2.5", "", "Anan", "สมชาย"])
    assert line == ('"\'=1+2","\'+1","\'-x","\'@SUM(A1)","\'\tx","\'\rx",-30,412,2.5,,"Anan","สมชาย"\n')
    # read back by a CSV reader: one cell each, the quote then the text
    assert next(csv.reader(io.StringIO(line))) == ["'=1+2", "'+1", "'-x", "'@SUM(A1)", "'\tx", "'\rx", "-30", "412",
                                                   "2.5", "", "Anan", "สมชาย"]


def test_a_separator_or_a_quote_inside_a_name_starts_no_new_cell():
    # a spreadsheet that splits on ";" (many locales) or a tab sees one quoted cell, not "x" then "=1+2"
    line = csv_line(['x;=1+2', 'say "hi", =2', "a\t=3"])
    assert line == '"x;=1+2","say ""hi"", =2","a\t=3"\n'
    assert next(csv.reader(io.StringIO(line))) == ['x;=1+2', 'say "hi", =2', "a\t=3"]


def test_numbers_only_when_plain():
    # "-30" is a number (a spread); "-30 pts", "+30", "1e5", "-" and "--1" are text
    assert csv_line(["-30 pts", "+30", "1e5", "-", "--1"]) == '"\'-30 pts","\'+30","1e5","\'-","\'--1"\n'


def test_plain_cell_undoes_text_cell_even_for_a_text_that_begins_with_the_quote():
    for text in ("=1", "'=1", "''@x", "'plain", "plain", "-", "it's", ""):
        assert plain_cell(text_cell(text)) == text, text
    assert text_cell("'=1") == "''=1" and text_cell("'plain") == "'plain"


def test_formula_starts_past_the_first_character_and_in_full_width_get_the_quote_too():
    # A fresh-eyes review of issue 24. OWASP's list now has the line feed too (LF, 0x0A, added in 2025);
    # spaces before the sign (ASCII, no-break U+00A0, ideographic U+3000) are taken off by an import that
    # trims spaces (LibreOffice's "Trim spaces"), leaving "=..."; the full-width signs ＝ ＋ － ＠ (U+FF1D,
    # U+FF0B, U+FF0D, U+FF20) are what an East Asian input method types for = + - @. Each gets the quote.
    texts = ["\n=1+2", " =1+2", "\u00a0@SUM(A1)", "\u3000+1", "\uff1d1+2", "\uff0b1", "\uff0d1", "\uff20SUM(A1)",
             "-1+1"]
    line = csv_line(texts)
    assert next(csv.reader(io.StringIO(line))) == ["'" + t for t in texts]
    # text that is no formula stays as it was: a space before a word, a sum without a sign, a lone space
    assert csv_line([" x", "1+1", " "]) == '" x","1+1"," "\n'
    for text in texts + ["'" + t for t in texts]:
        assert plain_cell(text_cell(text)) == text, repr(text)
