"""The organiser's desk (issue 17): a web app on the organiser's PC over the same store `gameclock
receive` writes (`gameclock desk`). Public, read-only pages (events, standings with the time used per
round, the crosstable, pairings, players with a QR code to their page, the projector, which pages
through long tables) and the organiser's pages under /admin (event set-up, round progress, clocks,
results with amendments and their withdrawal, exports), live through server-sent events. Amendments
count everywhere because the store applies them (organiser/amendments.py, `Store.summaries`).

    app.py       create_app(db_path, ...): the Starlette app, its routes and middleware
    auth.py      the organiser's password (scrypt), the session secret file, CSRF tokens, login throttle
    views.py     what each page shows, from the store and the organiser's own modules (no HTTP)
    charts.py    inline SVG built on the server: move times, time per round (the crosstable is a table:
                 views.crosstable)
    live.py      the store polled cheaply; subscribers woken on a change (SSE)
    i18n.py      Thai and English
    demo.py      an embedded demo event (`gameclock desk --demo`)
    commands.py  `gameclock desk` (imports the web stack only when run)

Starlette, Jinja2, uvicorn and itsdangerous are the `organiser` extra's (pyproject.toml); nothing of
this package is imported by the clock.
"""
