"""Standings by each event's rules (issue 7) from the results stored on the organiser's PC.

    games.py      Game / Bye: one stored record as the rules see it
    table.py      Row / Standings, rank_rows (shared places), table / CSV / JSON forms
    crossword.py  XW-6 .. XW-9, XW-11 (medal score)        sudoku.py  SU-3, SU-4
    makruk.py     MR-9 .. MR-12 (individual and team)       makhos.py  MH-7, MH-8
"""
