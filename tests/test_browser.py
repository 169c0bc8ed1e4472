"""The archive in a real browser: Debian's chromium, headless, driven over the DevTools protocol on a
pipe (`--remote-debugging-pipe`: JSON messages ended by NUL on file descriptors 3 and 4; the standard
library is enough). For a finished game of each ruleset it opens the game's page, follows the turn links
from the start, opens the last turn, and checks that every page loaded with no missing image, no failed
load and no console error; it takes a screenshot of a board page.

`make test` installs chromium where it is missing; where it cannot be installed these tests are skipped.
With PBEM_SCREENSHOTS=DIR the screenshots are also copied to DIR (`docs/screenshots` for the README).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from test_archive import finished_games
from rooms import GAMES
from pbem.archive import write_archive

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and os.access(p, os.X_OK)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (make test installs it)")
TIMEOUT = 30.0
WIDTH, HEIGHT = 1000, 1100


class Browser:
    """A headless chromium and one tab, over the DevTools protocol on a pipe."""

    def __init__(self, profile: Path) -> None:
        to_child_r, self._out = os.pipe()     # we write, chromium reads on its fd 3
        self._in, from_child_w = os.pipe()    # chromium writes on its fd 4, we read
        # far above 4, so that the child's dup2 onto 3 and 4 cannot clobber one another
        a = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 20)
        b = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 20)
        os.close(to_child_r)
        os.close(from_child_w)

        def wire() -> None:  # in the child, before exec
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
             f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            close_fds=False, preexec_fn=wire)
        os.close(a)
        os.close(b)
        self._next = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr: list[bytes] = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=WIDTH, height=HEIGHT,
                  deviceScaleFactor=1, mobile=False)

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._in, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._replies[-1] = {"error": {"message": "chromium closed the pipe"}}
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._cond:
                        self._replies[message["id"]] = message
                        self._cond.notify_all()
                else:
                    self.events.put(message)

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        with self._cond:
            while ident not in self._replies and -1 not in self._replies:
                left = deadline - time.monotonic()
                assert left > 0, f"chromium did not answer {method} in {TIMEOUT:.0f}s"
                self._cond.wait(left)
            reply = self._replies.pop(ident, None) or self._replies[-1]
        assert "error" not in reply, f"{method}: {reply['error']}; chromium said: {self.stderr()}"
        return reply["result"]

    def stderr(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")[-2000:]

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def open(self, url: str) -> list[str]:
        """Load `url` and wait for its load event; the problems seen on the way (console errors,
        exceptions, failed loads, images that did not load)."""
        self.drain()
        self.call("Page.navigate", session=True, url=url)
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"{url} did not load in {TIMEOUT:.0f}s"
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            seen.append(event)
            if event.get("method") == "Page.loadEventFired":
                break
        time.sleep(0.05)  # messages logged right after the load event
        seen += self.drain()
        problems = []
        for e in seen:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
                problems.append(f"console {params['type']}: {[a.get('value') for a in params.get('args', [])]}")
            elif method == "Runtime.exceptionThrown":
                problems.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                problems.append(f"log {params['entry']['level']}: {params['entry']['text']} {params['entry'].get('url', '')}")
            elif method == "Network.loadingFailed":
                problems.append(f"failed to load: {params.get('errorText')} ({params.get('type')})")
        broken = self.evaluate("Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
                               ".map(i => i.getAttribute('src'))")
        problems += [f"image not shown: {src}" for src in broken]
        return problems

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def screenshot(self, path: Path, most: int = 1800) -> None:
        """The whole page (up to `most` pixels high) as PNG."""
        size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": WIDTH, "height": min(most, int(size["height"])), "scale": 1}
        data = self.call("Page.captureScreenshot", session=True, format="png", clip=clip,
                         captureBeyondViewport=True)["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except AssertionError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._out)
        os.close(self._in)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, Any]]]:
    root = tmp_path_factory.mktemp("browser")
    gd, states = finished_games(root / "games", commit_every=40)
    out = root / "site"
    done, problems = write_archive(gd, None, out)
    assert not problems and len(done) == len(states)
    return out, states


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


FOLLOW = 4  # turn links followed from the start of each game (every page is the same template)


@pytest.mark.parametrize("game", GAMES)
def test_finished_game_in_a_browser(site, browser: Browser, game: str, tmp_path: Path) -> None:
    out, states = site
    state = states[game]
    problems = browser.open((out / "index.html").as_uri())
    assert problems == [], problems
    assert browser.evaluate(f"document.querySelector('a[href=\"{game}/index.html\"]') !== null")

    url = (out / game / "index.html").as_uri()
    assert browser.open(url) == []
    assert browser.evaluate("document.querySelector('h1').textContent").startswith(game)
    assert state["seed"] in browser.evaluate("document.body.innerText")  # finished: the seed is published
    start = browser.evaluate("document.querySelector('a.button').href")

    # from the start, the "next" links, one page after another
    url = start
    visited = []
    for _ in range(FOLLOW):
        assert browser.open(url) == [], url
        visited.append(url.rsplit("/", 1)[1])
        assert browser.evaluate("document.querySelectorAll('figure.board img').length") == 1
        url = browser.evaluate("document.querySelector('a[rel=next]').href")
    turns = list(dict.fromkeys(e["turn"] for e in state["log"]))  # a page a decision (of one player or more)
    assert visited == [f"turn-{t:04d}.html" for t in [0] + turns[:FOLLOW - 1]]

    # the last turn: no next link, the previous one leads back
    last = turns[-1]
    assert browser.open((out / game / f"turn-{last:04d}.html").as_uri()) == []
    assert browser.evaluate("document.querySelector('a[rel=next]')") is None
    previous = browser.evaluate("document.querySelector('a[rel=prev]').href")
    assert previous.endswith(f"turn-{turns[-2]:04d}.html")

    # a screenshot of a board in the middle of the game
    middle = state["log"][len(state["log"]) // 2]["turn"]
    assert browser.open((out / game / f"turn-{middle:04d}.html").as_uri()) == []
    shot = tmp_path / f"{game}.png"
    board = browser.evaluate("Math.ceil(document.querySelector('figure.board').getBoundingClientRect().bottom"
                             " + window.scrollY) + 12")
    browser.screenshot(shot, most=board)  # the page down to the board and its caption
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    keep = os.environ.get("PBEM_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / f"{game}.png")


def test_a_missing_picture_is_seen(site, browser: Browser, tmp_path: Path) -> None:
    """The check itself: a page whose picture is gone is reported."""
    out, states = site
    page = tmp_path / "page.html"
    page.write_text((out / "medici" / "turn-0001.html").read_text("utf-8").replace('href="../style.css"',
                                                                                     f'href="{(out / "style.css").as_uri()}"'))
    problems = browser.open(page.as_uri())
    assert any("image not shown: turn-0001.svg" in p for p in problems), problems
    assert any("failed to load" in p or "log error" in p for p in problems), problems
