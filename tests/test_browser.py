"""The web table end to end: ``cardsim serve`` in a subprocess, each game played to its end in headless
Chromium (Selenium), clicking the page's own buttons.

Debian's ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` are used, never a downloaded driver; when
they are missing the test fails and says why (``make test`` installs them), it does not skip.

With ``CARDSIM_SCREENSHOTS=FOLDER`` each game also leaves a mid-game screenshot ``FOLDER/GAME.png``
(how ``docs/web/`` is made).
"""

from __future__ import annotations

import base64
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ADDRESS_PREFIX = "cardsim web table at "
START_TIMEOUT = 30.0  # seconds for the server to print its address
STOP_TIMEOUT = 15.0  # seconds for it to stop after SIGINT
WAIT = 10.0  # seconds for the page to answer a click (bots included)
POLL = 0.01
MAX_CLICKS = 2000
RELOAD_AT = 5  # the click before which the page is reloaded once
INTERRUPTED_STATUS = 130

# game, cheap opponent, seed, clicks before the docs' screenshot (taken at the person's next move,
# when the table is full of cards)
GAMES = [
    ("straights", "first-legal", 11, 10),
    ("euchre", "simple", 11, 3),
    ("ginrummy", "simple", 11, 10),
    ("gemstones", "greedy", 11, 10),
]

# One round trip: the game-over banner, else the clickable moves (the continue button is shown alone)
# with their actions; and the card pictures that have failed to load so far (every face the game shows
# is checked, not only those at its end).
STATE_SCRIPT = """
const broken = [...document.querySelectorAll("img.card")]
  .filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.getAttribute("src"));
if (document.querySelector("[data-game-over]")) return {over: true, moves: [], broken};
const moves = [...document.querySelectorAll("button[data-action]")]
  .filter((button) => !button.disabled && button.offsetParent !== null)
  .map((button) => [button, button.dataset.action]);
return {over: false, moves, broken};
"""

Moves = list[tuple[WebElement, str]]
broken_seen: set[str] = set()  # card pictures that did not load, from every page state looked at


def default_sigint() -> None:
    """In the server's process before it starts: SIGINT as at a terminal, even when the tests run where
    it is ignored (a background job), so Ctrl-C's handling is what is tested."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_server() -> tuple[subprocess.Popen[str], str]:
    """A ``cardsim serve --port 0`` and the address it printed (``http://HOST:PORT``, no slash)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else None,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: lines.put(process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        line = lines.get(timeout=START_TIMEOUT)
    except queue.Empty:
        line = ""
    if not line.startswith(ADDRESS_PREFIX):
        process.kill()
        _, err = process.communicate()
        said = f"printed {line!r}" if line else f"printed no address in {START_TIMEOUT:.0f} s"
        pytest.fail(f"cardsim serve {said}, not its address; stderr: {err!r}")
    url = line.removeprefix(ADDRESS_PREFIX).split()[0]
    assert line == f"{ADDRESS_PREFIX}{url} (Ctrl-C stops it)\n"
    return process, url.rstrip("/")


def stop_server(process: subprocess.Popen[str]) -> None:
    """SIGINT, as Ctrl-C sends: the server stops with status 130 and one line on stderr."""
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"cardsim serve did not stop within {STOP_TIMEOUT:.0f} s of SIGINT; stderr: {err!r}")
    assert process.returncode == INTERRUPTED_STATUS, f"status {process.returncode}; stderr: {err!r}"
    assert out == "", out
    assert len(err.splitlines()) == 1 and err.endswith("\n"), f"stderr is not one line: {err!r}"
    assert "Traceback" not in err


def host_port(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return host.strip("[]"), int(port)


def connects(url: str) -> bool:
    try:
        socket.create_connection(host_port(url), timeout=5).close()
    except ConnectionRefusedError:
        return False
    return True


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The address of a ``cardsim serve --port 0``; stopped with SIGINT at the end, as Ctrl-C does."""
    process, url = start_server()
    try:
        deadline = time.monotonic() + START_TIMEOUT  # test_address_printed_once_listening is strict about this
        while not connects(url) and time.monotonic() < deadline:
            time.sleep(POLL)
        yield url
    finally:
        stop_server(process)


def test_address_printed_once_listening() -> None:
    """The address line means "open this now": a connection made at once is accepted, not refused."""
    process, url = start_server()
    try:
        assert connects(url), f"{url} refused a connection right after cardsim serve printed it"
    finally:
        stop_server(process)


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """Headless Chromium through Debian's chromedriver (never a download: there may be no network)."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    if missing:
        pytest.fail(
            "make test installs Debian's chromium and chromium-driver with apt-get; it could not: "
            f"{' and '.join(missing)} missing (see .venv/browser-install.log)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
        "--window-size=1400,1000",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        yield browser
    finally:
        browser.quit()


def wait(browser: WebDriver, timeout: float = WAIT) -> WebDriverWait:
    return WebDriverWait(browser, timeout, poll_frequency=POLL, ignored_exceptions=[StaleElementReferenceException])


def page_state(browser: WebDriver) -> str | Moves:
    """``"over"`` at the game's end, else the buttons that can be clicked and their actions (perhaps none yet)."""
    state = browser.execute_script(STATE_SCRIPT)
    broken_seen.update(state["broken"])
    return "over" if state["over"] else [(button, action) for button, action in state["moves"]]


def next_state(browser: WebDriver, what: str) -> str | Moves:
    """Waits for the game's end or a move to click."""
    try:
        return wait(browser).until(lambda b: page_state(b) or False)
    except TimeoutException:
        status = browser.find_element(By.ID, "status").text
        pytest.fail(f"{what}: no move to click and no game over within {WAIT:.0f} s; status: {status!r}")


def table_text(browser: WebDriver) -> dict[str, str]:
    """What the page shows that must survive a reload: status, table, moves, banner, scores and log."""
    texts = browser.execute_script(
        """
        const text = (id) => document.getElementById(id).innerText;
        const faces = [...document.querySelectorAll("#zones img.card")].map((img) => img.getAttribute("src"));
        const moves = [...document.querySelectorAll("button[data-action]")].map((b) => b.dataset.action);
        return {status: text("status"), zones: text("zones") + "\\n" + faces.join(" "), moves: moves.join(" "),
                banner: text("banner"), scores: text("scores"), facts: text("facts"), log: text("log")};
        """
    )
    return dict(texts)


def reload_keeps_state(browser: WebDriver) -> None:
    """A reload draws the same table from the server's state."""
    before = table_text(browser)
    browser.refresh()
    next_state(browser, "after a reload")
    assert table_text(browser) == before


def click(browser: WebDriver, button: WebElement) -> bool:
    """Clicks ``button`` and waits for the page to take it (the button is redrawn); False if it was
    already gone (the page redrew first), so the caller looks again."""
    try:
        button.click()
    except StaleElementReferenceException:
        return False
    try:
        wait(browser).until(lambda b: is_stale(button))
    except TimeoutException:
        status = browser.find_element(By.ID, "status").text
        pytest.fail(f"the page did not take the click within {WAIT:.0f} s; status: {status!r}")
    return True


def is_stale(element: WebElement) -> bool:
    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    return False


def broken_pictures(browser: WebDriver) -> list[str]:
    """The card pictures on the page that did not load."""
    return list(
        browser.execute_script(
            """return [...document.querySelectorAll("img.card")]
                 .filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.getAttribute("src"));"""
        )
    )


def screenshot(browser: WebDriver, path: Path) -> None:
    """The whole page as a reader sees it on arrival: scrolled to the top, no button hovered or focused."""
    ActionChains(browser).move_to_element(browser.find_element(By.TAG_NAME, "h1")).perform()
    browser.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0);")
    size = browser.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
    shot = browser.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))


@pytest.mark.parametrize(("game", "opponent", "seed", "screenshot_at"), GAMES, ids=[game for game, *_ in GAMES])
def test_game_played_to_the_end_in_the_browser(
    server: str, driver: WebDriver, tmp_path: Path, game: str, opponent: str, seed: int, screenshot_at: int
) -> None:
    driver.get_log("browser")  # empties the log of the pages before this one
    broken_seen.clear()
    driver.get(f"{server}/play/{game}?vs={opponent}&seed={seed}")  # a link fills the form in: the person starts it
    driver.find_element(By.CSS_SELECTOR, "form.new-game button[type=submit]").click()
    wait(driver).until(lambda b: "/table/" in b.current_url)
    assert "/table/" in driver.current_url, f"/play/{game} went to {driver.current_url}: {driver.title}"
    driver.get(driver.current_url.split("?")[0] + "?delay=0")

    screenshots = os.environ.get("CARDSIM_SCREENSHOTS")
    chooser = random.Random(seed)
    clicks = continues = 0
    reloaded = shot = False
    while True:
        state = next_state(driver, f"{game} after {clicks} clicks")
        if state == "over":
            break
        assert isinstance(state, list)
        if clicks >= MAX_CLICKS:
            pytest.fail(f"{game}: not over after {MAX_CLICKS} clicks")
        moves = [button for button, action in state if action != "continue"]
        if screenshots and not shot and clicks >= screenshot_at and moves:
            screenshot(driver, Path(screenshots) / f"{game}.png")
            shot = True
        if not reloaded and clicks >= RELOAD_AT and moves:
            reload_keeps_state(driver)
            reloaded = True
            continue  # the reload drew new buttons
        button = chooser.choice(moves or [button for button, _ in state])
        if click(driver, button):
            clicks += 1
            continues += not moves

    assert reloaded, f"{game} ended after {clicks} clicks, before the reload check"
    banner = driver.find_element(By.ID, "banner")
    assert banner.is_displayed() and banner.get_attribute("data-game-over")
    assert banner.text.startswith("Game over: ")
    assert not driver.find_elements(By.CSS_SELECTOR, "#status.problem"), driver.find_element(By.ID, "status").text
    assert not driver.find_elements(By.CSS_SELECTOR, "button[data-action]")
    wait(driver).until(lambda b: b.execute_script("return [...document.images].every((img) => img.complete);"))
    assert driver.find_elements(By.CSS_SELECTOR, "img.card"), "no card pictures at the game's end"
    assert broken_pictures(driver) == []
    assert broken_seen == set(), f"card pictures that did not load during the game: {sorted(broken_seen)}"
    severe = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    assert severe == [], f"console errors: {severe}"
    screenshot(driver, tmp_path / f"{game}.png")
    print(f"{game}: {clicks} clicks ({continues} continue)")
