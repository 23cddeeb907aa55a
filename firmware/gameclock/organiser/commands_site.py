"""`gameclock export-site DIR --event E [--db FILE] [--lang th|en] [--public-url URL]`: the event's
public pages as a static site in the folder DIR (desk/site.py says what it holds): the index, standings,
pairings of each round, players, each player's card, crosstable and final standings, with relative links
only, the stylesheet and fonts copied in, no JavaScript. Copy DIR to any web host after each round; run it
again to bring it up to date (the files are replaced).

The desk's web stack (the `organiser` extra) renders the pages, the same templates as `gameclock desk`;
the desk itself need not run. The number of files written goes to stderr; a failure's one-line reason
too, exit status 1, nothing written.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from gameclock.dataerrors import display_path
from gameclock.organiser.store import StoreError, default_db_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", metavar="DIR", help="the folder to write the site into (made if new)")
    parser.add_argument("--event", required=True, help="the event to export")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="the database (default: $GAMECLOCK_DB or ./gameclock.db)")
    parser.add_argument("--lang", choices=("th", "en"), default=None,
                        help="the pages' language (default: the event's own, else Thai)")


def run(args: argparse.Namespace) -> int:
    from gameclock.organiser.desk.commands import missing_modules

    if missing := missing_modules():
        print(f"gameclock export-site: needs the organiser's extra ({', '.join(missing)} missing)", file=sys.stderr)
        return 1
    from gameclock.organiser.desk import i18n, site
    from gameclock.organiser.desk.app import create_app

    db = Path(args.db) if args.db else default_db_path()
    if not db.exists():
        print(f"gameclock export-site: {display_path(db)}: no such database", file=sys.stderr)
        return 1
    try:
        with tempfile.TemporaryDirectory() as tmp:
            # the desk's session secret is not needed to render public pages: a throwaway one, so the
            # export leaves nothing beside the database
            app = create_app(db, secret_path=Path(tmp) / "secret")
            desk = app.state.desk
            try:
                ev = desk.store.event(args.event) or {}
                own = ev.get("language")
                lang: str = args.lang or (own if isinstance(own, str) and own in i18n.LANGUAGES else "th")
                files = asyncio.run(site.export_site(app, args.event, lang))
            finally:
                desk.shared.close()
                desk.store.close()
        n = site.write_folder(files, Path(args.dir))
    except (site.SiteError, StoreError, OSError) as exc:
        print(f"gameclock export-site: {exc}", file=sys.stderr)
        return 1
    print(f"gameclock export-site: {n} files in {display_path(Path(args.dir))} (open index.html)", file=sys.stderr)
    return 0
