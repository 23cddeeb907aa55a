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
