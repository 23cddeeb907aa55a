"""The desk's pictures in docs/desk.md: every page of `gameclock desk --demo`, in Thai and in English,
taken in headless Chromium with only the shipped fonts (bench/browser.py).

    .venv/bin/python docs/desk/make_pictures.py [--out docs/desk] [--only NAME ...]

Look at every picture before committing them (the docs' rule for screens). The public pages are also
taken at a phone's size, since that is where players open them (the QR codes). What the organiser types
(the reasons of an amendment, a withdrawal, a hand entry) is typed in Thai, as at the demo's Thai event:
it is the event's data, like the players' names, the same on both languages' pictures.
"""
from __future__ import annotations

import argparse
import os
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))             # bench/ beside the package
sys.path.insert(0, str(HERE.parents[1] / "firmware"))  # the package, also without an install

from bench.browser import Browser, serve  # noqa: E402
from bench.enrollcrash import CLOCK_CODE, _Relay  # noqa: E402
from gameclock.organiser.desk import demo  # noqa: E402
from gameclock.organiser.desk.app import create_app  # noqa: E402

PASSWORD = "demo demo demo"
ORGANISER = "สมชาย"          # the organiser's account, made at the first start
ARBITERS = {"th": "มาลี", "en": "Malee"}   # the arbiters' accounts the pictures make (one per language)
EV = demo.NAME
# issue 28: the event's header and the desk's public address as an organiser sets them on the event's page
HEADER = {"title": "การแข่งขันครอสเวิร์ดสาธิต ประจำปี 2567", "venue": "หอประชุมโรงเรียนสาธิต",
          "dates": "2-3 พ.ย. 2567", "arbiters": "อ.มาลี ศรีสุข, อ.บุญมี มีสุข", "round_times": "1 09:00 · 2 10:30 · 3 13:00"}
PUBLIC_URL = "http://192.168.1.10:8017"
AMENDED = f"{demo.SERIAL}-000007"   # round 2, table 3: a 377-377 draw, amended to 380-377 for the pictures
# (picture, path, sizes): the public pages
PUBLIC = [
    ("events", "/", ("laptop",)),
    ("standings", f"/e/{EV}/standings", ("laptop", "phone")),
    ("crosstable", f"/e/{EV}/crosstable", ("laptop",)),
    ("final", f"/e/{EV}/final", ("laptop", "phone")),
    ("pairings", f"/e/{EV}/pairings/2", ("laptop", "phone")),
    ("players", f"/e/{EV}/players", ("laptop", "phone")),
    ("player", f"/e/{EV}/players/2", ("phone",)),
    # issue 28: find my table, a table's page (its QR code's), the QR codes to print
    ("find", f"/e/{EV}/find?q=ใจ", ("laptop", "phone")),
    ("table", f"/e/{EV}/pairings/2/table/2", ("phone",)),
    ("qr-players", f"/e/{EV}/qr/players", ("laptop",)),
    ("qr-round", f"/e/{EV}/qr/round/2", ("laptop",)),
    ("projector", f"/e/{EV}/projector", ("wide",)),   # the hall's wall, 1920x1080 (issue 28)
    ("setup", "/setup", ("laptop",)),   # the first start's password (before it is set)
]
# the organiser's pages (after logging in)
ADMIN = [
    ("login", "/login"),
    ("admin-events", "/admin"),
    ("admin-new-event", "/admin/events/new"),
    ("admin-event", f"/admin/e/{EV}"),
    ("admin-prizes", f"/admin/e/{EV}/prizes"),
    ("admin-options", f"/admin/e/{EV}/options"),
    ("admin-player", f"/admin/e/{EV}/players/7"),          # withdrawn after round 2 (`players_during`)
    ("admin-player-edit", f"/admin/e/{EV}/players/8"),     # playing: edit and withdraw (her Latin name corrected)
    ("admin-late", f"/admin/e/{EV}/players/new"),
    ("admin-round", f"/admin/e/{EV}/round/2"),
    ("admin-clocks", "/admin/clocks"),
    ("admin-accounts", "/admin/accounts"),
    ("admin-result", f"/admin/results/{demo.SERIAL}-000005"),
    ("admin-result-amended", f"/admin/results/{AMENDED}"),
]
# issue 26, the organiser's bad day, in a desk of its own (a fresh demo: round 2's table 4 still missing):
# `bad_day` enters table 4 by hand, then clocks send a result for it, one with round 1's names at table
# 3, one with the event left at "1", and a refused one. The table's page is taken before the entry.
PHANTOM = f"{demo.SERIAL}-000011"
BAD_DAY = [
    ("admin-table", f"/admin/e/{EV}/round/2/table/4"),   # the table whose clock died: its hand entry form
    ("admin-uploads", "/admin/uploads"),
    ("admin-round-hand", f"/admin/e/{EV}/round/2"),
    ("admin-hand", "/admin/results/hand:000001"),
    ("admin-result-move", f"/admin/results/{PHANTOM}"),
    ("admin-table-held", f"/admin/e/{EV}/round/2/table/4"),   # the hand entry, the dead clock's own result held
]


def submit(b: Browser, fields: dict[str, str]) -> None:
    """Fill the page's form fields by name and submit the form the last one is in."""
    from selenium.webdriver.common.by import By

    el = None
    for name, value in fields.items():
        el = b.driver.find_element(By.NAME, name)
        el.clear()
        el.send_keys(value)
    assert el is not None
    el.submit()


def log_in(b: Browser, url: str) -> None:
    b.get(f"{url}/setup")
    if "/setup" in b.driver.current_url:
        submit(b, {"name": ORGANISER, "password": PASSWORD, "again": PASSWORD})
    b.get(f"{url}/login")
    submit(b, {"name": ORGANISER, "password": PASSWORD})
    b.wait_for("location.pathname.startsWith('/admin')")


def notices(b: Browser, url: str) -> list[Path]:
    """The notices in both languages, each as the page shows it right after its form: an arbiter's
    account made (a success), and Pair refused while a board has no result (an error)."""
    from selenium.webdriver.common.by import By

    pictures = []
    b.resize("laptop")
    for lang in ("th", "en"):
        b.get(f"{url}/admin/accounts?lang={lang}")
        form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=new-account]")
        for name, value in (("name", ARBITERS[lang]), ("password", PASSWORD), ("again", PASSWORD)):
            form.find_element(By.NAME, name).send_keys(value)
        form.submit()
        b.wait_for("document.querySelector('.notice-success') !== null")
        pictures.append(b.screenshot("admin-notice-success", lang, full_page=False))
        b.get(f"{url}/admin/e/{EV}?lang={lang}")
        b.driver.find_element(By.CSS_SELECTOR, "[data-testid=pair]").click()
        b.wait_for("document.querySelector('.notice-error') !== null")
        pictures.append(b.screenshot("admin-notice-error", lang, full_page=False))
    return pictures


def amend(b: Browser, url: str) -> None:
    """The organiser's amendment the pictures show: the scoresheet recounted (XW-6: a win now)."""
    from selenium.webdriver.common.by import By

    b.get(f"{url}/admin/results/{AMENDED}?lang=en")
    form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=amend-form]")
    for name, value in (("score_left", "380"), ("score_right", "377"),
                        ("reason", "นับคะแนนในใบบันทึกใหม่กับผู้เล่นทั้งสอง: ฝั่งซ้าย 380")):
        field = form.find_element(By.NAME, name)
        field.clear()  # the form starts from what counts now
        field.send_keys(value)
    b.js("arguments[0].querySelector('[name=outcome]').value = 'left';", form)
    form.submit()
    try:
        b.wait_for("document.querySelector('[data-testid=amended]') !== null")
    except AssertionError:
        raise SystemExit(f"the amendment was refused at {b.driver.current_url}: {b.driver.page_source[-1500:]}") from None


def set_option(b: Browser, url: str) -> None:
    """The organiser's change of options the pictures show: seed 000 §2's King of the Hill for the last
    two qualifying games, decided by the committee after round 2 (XW-10)."""
    from selenium.webdriver.common.by import By

    b.get(f"{url}/admin/e/{EV}/options?lang=en")
    form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=options-form]")
    for name, value in (("o_koth_rounds", "2"), ("reason", "มติคณะกรรมการ: King of the Hill เกมที่ 5 และ 6 "
                                                            "(seed 000 §2)")):
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.submit()
    try:
        b.wait_for("document.querySelector('[data-testid=option-change-row]') !== null")
    except AssertionError:
        raise SystemExit(f"the options were refused at {b.driver.current_url}: {b.driver.page_source[-1500:]}") from None


def players_during(b: Browser, url: str) -> None:
    """The players' changes the pictures show (issue 26): player 7 withdraws after round 2 (ill), and
    player 8's Latin name is corrected, both from their pages."""
    from selenium.webdriver.common.by import By

    b.get(f"{url}/admin/e/{EV}/players/7?lang=en")
    form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=withdraw-player-form]")
    form.find_element(By.NAME, "reason").send_keys("ป่วย กลับบ้านหลังรอบ 2 (แจ้งหัวหน้ากรรมการ)")
    form.submit()
    b.wait_for("location.pathname.endsWith('/admin/e/demo')")
    b.get(f"{url}/admin/e/{EV}/players/8?lang=en")
    form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=player-form]")
    for name, value in (("latin", "Fahsai Jaingam"), ("reason", "สะกดตามรายชื่อของโรงเรียน")):
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.submit()
    b.wait_for("location.pathname.endsWith('/admin/e/demo')")


def drafts(b: Browser, url: str, store: Any) -> list[Path]:
    """The drafts that cannot surprise (issue 26), in both languages: round 2's last result arrives, round
    3 is paired and two tables swapped; then Pair asks first (what would be lost), a page showing an
    older version publishes and is refused with the difference, and an amendment of round 2 warns
    that round 3 was paired after it."""
    import random

    from selenium.webdriver.common.by import By

    from gameclock.organiser import event as events

    r2 = events.round_of(store, EV, 2)
    last = [x for x in r2["boards"] if x["right"] is not None][len(demo.ROUNDS[-1])]
    names = {p["id"]: p["name"] for p in store.event_players(EV)}
    store.put_result(demo.demo_record(20, 2, last["table"], names[last["left"]], names[last["right"]],
                                      (402, 377), random.Random(3)), "0" * 64, "demo", "demo")
    b.get(f"{url}/admin/e/{EV}?lang=en")
    b.driver.find_element(By.CSS_SELECTOR, "[data-testid=pair]").click()
    b.wait_for("document.querySelector('[data-testid=swap]') !== null")
    form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=swap]").find_element(By.XPATH, "./..")
    form.find_element(By.NAME, "a").send_keys("1")
    form.find_element(By.NAME, "b").send_keys("2")
    form.submit()
    b.wait_for("document.querySelector('[data-testid=message]') !== null")
    pictures = []
    for lang in ("th", "en"):
        b.get(f"{url}/admin/e/{EV}?lang={lang}")
        b.driver.find_element(By.CSS_SELECTOR, "[data-testid=pair]").click()
        b.wait_for("document.querySelector('[data-testid=pair-confirm]') !== null")
        pictures.append(b.screenshot("admin-pair-confirm", lang))
    for lang, tables in (("th", (3, 4)), ("en", (3, 4))):
        b.get(f"{url}/admin/e/{EV}?lang={lang}")
        events.edit(store, EV, swaps=[tables], by=ORGANISER)      # the organiser's other tab
        b.driver.find_element(By.CSS_SELECTOR, "[data-testid=publish]").click()
        b.wait_for("document.querySelector('[data-testid=draft-changed]') !== null")
        pictures.append(b.screenshot("admin-draft-changed", lang))
    rid = f"{demo.SERIAL}-000006"     # round 2, table 2
    for lang in ("th", "en"):
        b.get(f"{url}/admin/results/{rid}?lang={lang}")
        form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=amend-form]")
        for name, value in (("score_right", "405"), ("reason", "นับคะแนนใหม่: ฝั่งขวา 405")):
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(value)
        form.submit()
        b.wait_for("document.querySelector('[data-testid=amend-warning]') !== null")
        b.js("document.querySelector('[data-testid=amend-warning]').scrollIntoView()")
        pictures.append(b.screenshot("admin-amend-warning", lang))
    return pictures


def bad_day(b: Browser, url: str, store: Any) -> None:
    """Table 4's clock died: its result entered by hand from the score slip (390-372, the left 1:05 over:
    XW-3 20 off, 370-372); then the clock comes back and sends its own, a clock still holding round 1's
    names sends round 2 table 3's, a clock whose event was left at "1" sends a game, one is refused."""
    import random

    from selenium.webdriver.common.by import By

    b.get(f"{url}/admin/e/{EV}/round/2/table/4?lang=en")
    form = b.driver.find_element(By.CSS_SELECTOR, "[data-testid=hand-form]")
    for name, value in (("score_left", "390"), ("score_right", "372"), ("overtime_left", "1:05"),
                        ("reason", "แบตเตอรี่นาฬิกาโต๊ะ 4 หมด ใบบันทึกคะแนนลงชื่อทั้งสองฝ่าย")):
        form.find_element(By.NAME, name).send_keys(value)
    form.submit()
    b.wait_for("location.pathname.endsWith('/round/2')")
    r2 = next(r for r in store.event_rounds(EV) if r["round"] == 2)
    names = {p["id"]: p["name"] for p in store.event_players(EV)}
    t4 = next(x for x in r2["boards"] if x["table"] == 4)
    r1 = next(r for r in store.event_rounds(EV) if r["round"] == 1)
    r1t4 = next(x for x in r1["boards"] if x["table"] == 4)
    for seq, rnd, table, left, right, event in (
            (9, 2, 4, names[t4["left"]], names[t4["right"]], EV),             # the dead clock's own, later
            (10, 2, 3, names[r1t4["left"]], names[r1t4["right"]], EV),        # round 1's names at table 3
            (11, 2, 2, None, None, "1")):                                     # the event left at "1"
        rec = demo.demo_record(seq, rnd, table, left or "", right or "", (388, 372), random.Random(seq))
        rec["event"], rec["players"] = event, {"left": left, "right": right}
        store.put_result(rec, "0" * 64, "demo", "/dev/ttyACM1")
    store.refusal("bad-signature", "the signature does not match the record under its key",
                  serial="demo0000000000e", rid="demo0000000000e-000003", source="/dev/ttyACM2")


def bad_day_pictures(b: Browser, folder: Path, wanted: Callable[[str], bool]) -> None:
    """The bad day's pictures (BAD_DAY), in both languages, from a desk of their own over a fresh demo."""
    app = create_app(folder / "bad-day.db", demo=True)
    served = serve(app)
    try:
        log_in(b, served.url)
        for lang in ("th", "en"):
            if wanted("admin-table"):
                print(take(b, served.url, "admin-table", BAD_DAY[0][1], lang, "laptop"))
        bad_day(b, served.url, app.state.desk.store)
        for lang in ("th", "en"):
            for name, path in BAD_DAY[1:]:
                if wanted(name):
                    print(take(b, served.url, name, path, lang, "laptop"))
    finally:
        served.stop()
        app.state.desk.store.close()


class Clock:
    """A clock docked at the desk (`gameclock upload --enroll`, the clock's side of an enrollment, on
    one end of a pty cable whose other end the desk serves), to picture the enrollment."""

    SERIAL = "00000000e1c0a5e1"

    def __init__(self, folder: Path) -> None:
        self.relay = _Relay()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path[:2] + [os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gameclock", "upload", "--port", self.relay.path_a, "--state-dir",
             str(folder), "--serial", self.SERIAL, "--enroll", "--stay", "--timeout", "300"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.out = ""

    def code(self, timeout: float = 30.0) -> str:
        """The code the clock shows (as it prints it), once it shows one."""
        assert self.proc.stdout is not None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if select.select([self.proc.stdout], [], [], 0.1)[0]:
                self.out += os.read(self.proc.stdout.fileno(), 65536).decode("utf-8", "replace")
                found = CLOCK_CODE.findall(self.out)
                if found:
                    return str(found[-1])
        raise SystemExit(f"the clock showed no code: {self.out}")

    def say_yes(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("yes\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        self.relay.close()


def enrollment(b: Browser, url: str, clock: Clock) -> list[Path]:
    """The clocks page with a clock docked: its enrollment's code (both languages), then enrolled, then serving
    table 1 of the demo event (assigned in docking order) with round 2's pairing taken."""
    from selenium.webdriver.common.by import By

    b.resize("laptop")
    for _ in range(30):  # the page is not live: loaded again until the clock's hello has reached the desk
        b.get(f"{url}/admin/clocks?lang=en")
        try:
            b.wait_for(f"document.querySelector('[data-serial=\"{clock.SERIAL}\"] [data-testid=enroll]') !== null",
                       timeout=1)
            break
        except AssertionError:
            continue
    else:
        raise SystemExit(f"the clock never docked: {clock.out}")
    b.driver.find_element(By.CSS_SELECTOR, f'[data-serial="{clock.SERIAL}"] [data-testid=enroll]').click()
    try:
        b.wait_for("document.querySelector('[data-testid=pc-code]') !== null", timeout=30)
    except AssertionError:
        raise SystemExit(f"no code on the page at {b.driver.current_url}: {b.text('main')[:300]}") from None
    pictures = []
    for lang in ("th", "en"):
        b.get(f"{url}/admin/clocks?lang={lang}")
        b.wait_for("document.querySelector('[data-testid=pc-code]') !== null", timeout=30)
        pictures.append(b.screenshot("admin-clocks-enroll", lang))
    code = clock.code()
    assert code == b.text("[data-testid=pc-code]"), (code, b.text("[data-testid=pc-code]"))
    clock.say_yes()   # the arbiter: the codes are the same, YES on the clock
    b.driver.find_element(By.CSS_SELECTOR, "[data-testid=code-input]").send_keys(code.replace(" ", ""))
    b.driver.find_element(By.CSS_SELECTOR, "[data-testid=code-submit]").click()
    b.wait_for("document.querySelector('[data-testid=enroll-outcome][data-stage=done]') !== null", timeout=30)
    for lang in ("th", "en"):
        b.get(f"{url}/admin/clocks?lang={lang}")
        b.wait_for("document.querySelector('[data-testid=enroll-outcome][data-stage=done]') !== null")
        pictures.append(b.screenshot("admin-clocks-enrolled", lang))
    # issue 26: the clock serves a table of the demo event (in docking order: table 1), and is sent round 2's
    b.driver.find_element(By.CSS_SELECTOR, "[data-testid=assign-order-submit]").click()
    b.wait_for("document.querySelector('.notice-success') !== null")
    for lang in ("th", "en"):
        b.get(f"{url}/admin/clocks?lang={lang}")
        b.wait_for("document.querySelector('[data-testid=pushed][data-state=taken]') !== null", timeout=30)
        pictures.append(b.screenshot("admin-clocks-assigned", lang))
    return pictures


def wall(store) -> None:
    """The projector's head as in a hall (issue 28): round 2 started 42 minutes ago, an announcement typed
    in Thai and English."""
    store.start_round(EV, 2, time.time_ns() - 42 * 60 * 1_000_000_000, "organiser")
    store.add_announcement(EV, "พักกลางวัน 12:00-13:00 น. ที่โรงอาหาร · Lunch 12:00-13:00 in the canteen", "organiser")


def take(b: Browser, url: str, name: str, path: str, lang: str, size: str) -> Path:
    b.resize(size)
    sep = "&" if "?" in path else "?"
    b.get(f"{url}{path}{sep}lang={lang}")
    b.wait_for("document.readyState === 'complete'")
    if name == "projector":
        b.wait_for("document.querySelector('[data-testid=live-standings] [data-testid=standings-row]') !== null", timeout=10)
        b.wait_for("document.querySelector('[data-testid=wall-round]') !== null", timeout=10)
    return b.screenshot(name, lang, full_page=name != "projector")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--only", metavar="NAME", nargs="+", default=None,
                    help="take only these pictures (e.g. admin-event admin-options; admin-clocks-enroll: the enrollment)")
    args = ap.parse_args()
    wanted = (lambda name: True) if args.only is None else (lambda name: name in args.only)
    with tempfile.TemporaryDirectory(prefix="gameclock-desk-pictures-") as tmp:
        clock = Clock(Path(tmp) / "clock")
        app = create_app(Path(tmp) / "demo.db", demo=True, dock=[clock.relay.path_b])
        app.state.desk.store.set_event_header(EV, HEADER, ORGANISER)
        app.state.desk.store.set_setting("public_url", PUBLIC_URL)
        wall(app.state.desk.store)
        served = serve(app)
        b = Browser("laptop", args.out)
        try:
            for lang in ("th", "en"):
                for name, path, sizes in PUBLIC:
                    for size in sizes:
                        if wanted(name):
                            print(take(b, served.url, name, path, lang, size))
            log_in(b, served.url)
            if wanted("admin-clocks-enroll"):
                for picture in enrollment(b, served.url, clock):
                    print(picture)
            amend(b, served.url)
            set_option(b, served.url)
            players_during(b, served.url)
            if wanted("admin-notice"):
                for picture in notices(b, served.url):
                    print(picture)
            for lang in ("th", "en"):
                for name, path in ADMIN:
                    if wanted(name):
                        print(take(b, served.url, name, path, lang, "laptop"))
            if any(wanted(n) for n in ("admin-pair-confirm", "admin-draft-changed", "admin-amend-warning")):
                b.resize("laptop")
                for picture in drafts(b, served.url, app.state.desk.store):
                    print(picture)
            if any(wanted(name) for name, _ in BAD_DAY):
                bad_day_pictures(b, Path(tmp), wanted)
        finally:
            b.quit()
            served.stop()
            app.state.desk.store.close()
            clock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
