"""Headless Chromium for the web pages' tests (tests/browser/) and benches (bench/livepage.py).

Debian's `chromium`, driven by Selenium through Debian's `chromium-driver`: the driver is built from the
same source package as the browser, so their versions always match exactly (no download: `make test`
installs both as root, else names them). Three window sizes: a laptop (1366x768), a phone (390x844,
touch, mobile viewport) and a hall's full-HD screen (1920x1080).

Fonts: the browser is started with a fontconfig of its own that holds only the shipped fonts
(gameclock/fonts: Loma and Loma-Bold, which have Latin letters too), never the machine's. So a page shows
the same on every machine, a screenshot in the docs does not depend on which fonts a developer has
installed, and a Thai letter that a page does not give its font shows as tofu boxes in the screenshots
instead of being saved by a system font that an organiser's browser might not have.

`serve(app)` runs any ASGI app (Starlette's, or a bare callable) with uvicorn on 127.0.0.1, on a port the
kernel picks, in a thread; `Served.stop()` ends it.
"""
from __future__ import annotations

import base64
import os
import shutil
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

SIZES = {"laptop": (1366, 768), "phone": (390, 844), "wide": (1920, 1080)}
APT = "sudo apt-get install chromium chromium-driver"
SCREENSHOTS_ENV = "GAMECLOCK_SCREENSHOTS"  # the folder the screenshots go to (the docs' pictures)


class Missing(RuntimeError):
    """Something the browser harness needs is not installed; the message says how to install it."""


def fonts_dir() -> Path:
    return Path(str(resources.files("gameclock") / "fonts"))


def _fontconfig(folder: Path) -> Path:
    conf = folder / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>{fonts_dir()}</dir>
  <cachedir>{folder / "cache"}</cachedir>
</fontconfig>
""")
    return conf


class Browser:
    """One headless Chromium (a Selenium WebDriver in `.driver`), at one of SIZES."""

    def __init__(self, size: str = "laptop", screenshots: Path | None = None) -> None:
        chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
        missing = [pkg for pkg, path in (("chromium", chromium), ("chromium-driver", chromedriver)) if not path]
        if missing:
            raise Missing(f"the browser tests need the Debian packages {' and '.join(missing)}: {APT} "
                          "(`make test` as root installs them)")
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError as e:
            raise Missing("the browser tests need selenium (the `dev` extra: .venv/bin/pip install -e '.[dev]', "
                          "which `make test` does)") from e
        self._tmp = tempfile.TemporaryDirectory(prefix="gameclock-browser-")
        tmp = Path(self._tmp.name)
        options = webdriver.ChromeOptions()
        options.binary_location = str(chromium)
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--hide-scrollbars", "--force-device-scale-factor=1", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-features=Translate,OptimizationHints,MediaRouter",
                    "--window-size=1366,900", f"--user-data-dir={tmp / 'profile'}"):
            options.add_argument(arg)
        env = dict(os.environ, FONTCONFIG_FILE=str(_fontconfig(tmp)))
        # the driver is named, so Selenium Manager never tries to download one
        service = Service(executable_path=str(chromedriver), env=env, log_output=str(tmp / "chromedriver.log"))
        try:
            self.driver = webdriver.Chrome(options=options, service=service)
        except Exception:
            self._tmp.cleanup()
            raise
        self.screenshots = screenshots if screenshots is not None else tmp / "screenshots"
        self.size = ""
        self.resize(size)

    def resize(self, size: str) -> None:
        """The viewport of a laptop or of a phone (exact CSS pixels; the phone as a touch device)."""
        width, height = SIZES[size]
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": size == "phone"})
        self.size = size

    def get(self, url: str) -> None:
        self.driver.get(url)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def text(self, selector: str) -> str | None:
        """The text of the first element matching the CSS selector (None when there is none)."""
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                       selector)

    def wait_for_text(self, selector: str, text: str, timeout: float = 5.0) -> float:
        """Poll until the element's text contains `text` (live updates, no reload); the seconds waited.
        Fails with what the element showed when it does not come within `timeout`."""
        t0 = time.monotonic()
        shown = None
        while True:
            shown = self.text(selector)
            if shown is not None and text in shown:
                return time.monotonic() - t0
            if time.monotonic() - t0 > timeout:
                raise AssertionError(f"{text!r} did not show in {selector!r} within {timeout} s; it shows "
                                     f"{shown!r}")
            time.sleep(0.01)

    def wait_for(self, expression: str, timeout: float = 5.0) -> float:
        """Poll until the JavaScript expression is true in the page (e.g. its EventSource is open); the
        seconds waited."""
        t0 = time.monotonic()
        while not self.js(f"return Boolean({expression});"):
            if time.monotonic() - t0 > timeout:
                raise AssertionError(f"{expression} did not become true within {timeout} s")
            time.sleep(0.01)
        return time.monotonic() - t0

    def screenshot(self, name: str, lang: str, full_page: bool = True) -> Path:
        """A PNG of the page (all of it, or the viewport) as NAME-LANG-SIZE.png in the screenshots' folder.
        The page must say it is in `lang` (<html lang>), so a "th" picture is never of the English page."""
        page_lang = self.js("return document.documentElement.lang;")
        assert page_lang == lang, f"the page is in {page_lang!r}, not {lang!r}"
        self.js("return document.fonts.ready.then(() => true);")  # the web fonts are in
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            m = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
            params |= {"captureBeyondViewport": True,
                       "clip": {"x": 0, "y": 0, "width": max(m["width"], SIZES[self.size][0]),
                                "height": max(m["height"], SIZES[self.size][1]), "scale": 1}}
        png = base64.b64decode(self.driver.execute_cdp_cmd("Page.captureScreenshot", params)["data"])
        self.screenshots.mkdir(parents=True, exist_ok=True)
        path = self.screenshots / f"{name}-{lang}-{self.size}.png"
        path.write_bytes(png)
        return path

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            self._tmp.cleanup()


class Served:
    """An ASGI app under uvicorn on 127.0.0.1:`port`, in a thread (`url` is its root)."""

    def __init__(self, app: Any, timeout: float = 10.0) -> None:
        try:
            import uvicorn
        except ImportError as e:
            raise Missing("serving a web app needs uvicorn (the `dev` extra: .venv/bin/pip install -e '.[dev]', "
                          "which `make test` does)") from e
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))  # the kernel's free port, held from here on: no race with another test
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # an open event stream must not hold the shutdown: it is cut after 1 s
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="auto",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(sock,), name=f"uvicorn-{self.port}", daemon=True)
        self.thread.start()
        self._wait(timeout)

    def _run(self, sock: socket.socket) -> None:
        try:
            self.server.run(sockets=[sock])
        except BaseException as e:  # shown by _wait or stop
            self.error = e
        finally:
            sock.close()

    def _wait(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.thread.is_alive():
                raise RuntimeError(f"the app's server stopped while starting: {self.error!r}")
            if self.server.started:
                try:
                    urllib.request.urlopen(self.url + "/", timeout=1).close()
                    return
                except urllib.error.HTTPError:
                    return  # it answers (a 404 or a redirect is an answer)
                except OSError:
                    pass
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"the app did not answer on {self.url} within {timeout} s")

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise RuntimeError(f"the app's server on {self.url} did not stop within {timeout} s")


def serve(app: Any) -> Served:
    return Served(app)


def post_form(url: str, fields: dict[str, str], timeout: float = 5.0) -> int:
    """POST an urlencoded form (as a browser's form does), without following a redirect; the status."""
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    data = urllib.parse.urlencode(fields).encode()
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, data=data, method="POST"), timeout=timeout) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


Store = Callable[[str], None]
