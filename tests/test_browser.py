"""The web table end to end: ``cardsim serve`` in a subprocess, each game played to its end in headless
Chromium (Selenium), clicking the page's own buttons.

Debian's ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` are used, never a downloaded driver; when
they are missing the test fails and says why (``make test`` installs them), it does not skip.

Every game is played to its end at two window sizes, a laptop's 1280x720 and a phone's 390x844
screen with its browser's bars (``SIZES``), on the deals ``DEALS`` names for each: at every decision each
element carrying a move (``data-action``), the hand, the middle of the table and the status must be
inside the window, reachable by a click (cards overlap), and the page must not scroll sideways. On
the laptop the page is also reloaded once mid-game and a hint asked for once.

With ``CARDSIM_SCREENSHOTS=FOLDER`` each game also leaves a mid-game screenshot at both sizes,
``FOLDER/GAME.png`` and ``FOLDER/GAME-phone.png``, and the front page and the Gemstones rules
(the eight stones) theirs (how ``docs/web/`` is made).
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
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ADDRESS_PREFIX = "cardsim web table at "
START_TIMEOUT = 30.0  # seconds for the server to print its address
STOP_TIMEOUT = 15.0  # seconds for it to stop after SIGINT
WAIT = 10.0  # seconds for the page to answer a click (bots included)
POLL = 0.01
MAX_CLICKS = 2000
RELOAD_AT = 5  # the click before which the page is reloaded once (on the laptop)
HINT_AT = 2  # the click before which the hint is asked for once (on the laptop)
INTERRUPTED_STATUS = 130

# The windows every game is played in: the page's CSS pixels, the screen's, the device pixel ratio and
# touch. A phone's 390x844 screen leaves the page 390x664 under a browser's address bar and toolbar
# (Safari on an iPhone 12-15; Chrome on Android leaves more): a page that fits that fits every phone
# browser of that screen. (A Gemstones decision with three chains to sell once overflowed 390x701.)
SIZES = {"laptop": (1280, 720, 1280, 720, 1, False), "phone": (390, 664, 390, 844, 2, True)}

# game, cheap opponent, clicks before the docs' screenshot (taken at the person's next move, when the
# table is full of cards)
GAMES = [
    ("straights", "heuristic", 5),
    ("euchre", "simple", 7),
    ("ginrummy", "simple", 10),
    ("gemstones", "greedy", 14),
]
# The deals each game is played on at each size: two on the phone, where a move out of view shows first,
# so that the rarer decisions (a full trade area, three chains to sell, a long run of melds) are met
# there; one on the laptop's wide window (its second deal was the slowest quarter of this file).
DEALS = {"laptop": (11,), "phone": (11, 12)}

# One round trip at each decision: the game-over banner, else the clickable moves (the continue button
# is shown alone) with their actions and a point where a click reaches each (cards overlap); what is
# outside the viewport (every move, your hand, the middle of the table, whose turn it is), whether the
# page scrolls sideways; and the card pictures that have failed to load so far (every face the game
# shows is checked, not only those at its end).
STATE_SCRIPT = """
const width = document.documentElement.clientWidth, height = window.innerHeight;
const inside = (node) => {
  const box = node.getBoundingClientRect();
  return box.width > 0 && box.left >= -0.5 && box.top >= -0.5 && box.right <= width + 0.5 && box.bottom <= height + 0.5;
};
const broken = [...document.querySelectorAll("img.card")]
  .filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.getAttribute("src"));
const sideways = document.documentElement.scrollWidth > width || window.scrollX !== 0;
if (document.querySelector("[data-game-over]")) return {over: true, moves: [], broken, outside: [], sideways};
const reach = (node) => {
  const box = node.getBoundingClientRect();
  const spots = [[box.width / 2, box.height / 2], [4, box.height / 2], [4, 6], [box.width - 4, 6], [box.width / 2, 6]];
  for (const [x, y] of spots) {
    const hit = document.elementFromPoint(box.left + x, box.top + y);
    const reached = hit && (hit === node || node.contains(hit));
    if (reached) return [Math.round(x - box.width / 2), Math.round(y - box.height / 2)];
  }
  return null;
};
const shown = [...document.querySelectorAll("[data-action]")]
  .filter((node) => !node.disabled && node.offsetParent !== null);
const outside = shown.filter((node) => !inside(node)).map((node) => `move ${node.dataset.action}`);
if (shown.length) {
  for (const id of ["status", "hand", "middle"]) if (!inside(document.getElementById(id))) outside.push(`#${id}`);
  for (const id of ["felt", "middle", "mine"]) {  // nothing of them hidden beyond a scroll bar of their own
    const node = document.getElementById(id);
    const hidden = node.scrollHeight > node.clientHeight + 2 || node.scrollWidth > node.clientWidth + 2;
    if (hidden) outside.push(`#${id}'s overflow`);
  }
}
const moves = shown.map((node) => [node, node.dataset.action, reach(node)]);
return {over: false, moves, broken, outside, sideways};
"""

Moves = list[tuple[WebElement, str, tuple[int, int]]]
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
        "--window-size=1280,720",
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


def window(browser: WebDriver, size: str) -> None:
    """The viewport of ``size`` (``SIZES``): exactly its CSS pixels, a touch screen for the phone."""
    width, height, screen_width, screen_height, scale, mobile = SIZES[size]
    metrics = {"width": width, "height": height, "screenWidth": screen_width, "screenHeight": screen_height}
    metrics |= {"deviceScaleFactor": scale, "mobile": mobile}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def page_state(browser: WebDriver, where: str) -> str | Moves:
    """``"over"`` at the game's end, else the moves that can be clicked, their actions and where a click
    reaches each (perhaps none yet); fails when a move, the hand, the middle of the table or the status
    is outside the window, a move cannot be clicked, or the page scrolls sideways."""
    state = browser.execute_script(STATE_SCRIPT)
    broken_seen.update(state["broken"])
    assert not state["sideways"], f"{where}: the page scrolls sideways"
    assert not state["outside"], f"{where}: outside the window: {state['outside']}"
    unreachable = [action for _, action, spot in state["moves"] if spot is None]
    assert not unreachable, f"{where}: moves a click does not reach: {unreachable}"
    return "over" if state["over"] else [(button, action, tuple(spot)) for button, action, spot in state["moves"]]


def next_state(browser: WebDriver, what: str) -> str | Moves:
    """Waits for the game's end or a move to click."""
    try:
        return wait(browser).until(lambda b: page_state(b, what) or False)
    except TimeoutException:
        status = browser.find_element(By.ID, "status").text
        pytest.fail(f"{what}: no move to click and no game over within {WAIT:.0f} s; status: {status!r}")


def table_text(browser: WebDriver) -> dict[str, str]:
    """What the page shows that must survive a reload: status, table, hand, moves, banner, scores and log."""
    texts = browser.execute_script(
        """
        const text = (id) => document.getElementById(id).innerText;
        const faces = (id) => [...document.querySelectorAll(`#${id} img.card`)].map((img) => img.getAttribute("src"));
        const moves = [...document.querySelectorAll("[data-action]")].map((b) => b.dataset.action);
        return {status: text("status"), felt: text("felt") + "\\n" + faces("felt").join(" "),
                hand: faces("hand").join(" "), moves: moves.join(" "), banner: text("banner"), scores: text("scores"),
                facts: text("facts"), log: document.getElementById("log").textContent};
        """
    )
    return dict(texts)


def reload_keeps_state(browser: WebDriver) -> None:
    """A reload draws the same table from the server's state."""
    before = table_text(browser)
    browser.refresh()
    next_state(browser, "after a reload")
    assert table_text(browser) == before


def click(browser: WebDriver, button: WebElement, spot: tuple[int, int]) -> bool:
    """Clicks ``button`` where a click reaches it (``spot``, from its centre) and waits for the page to
    take it (the button is redrawn); False if it was already gone (the page redrew first), so the
    caller looks again."""
    try:
        ActionChains(browser, duration=0).move_to_element_with_offset(button, *spot).click().perform()
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
            """return [...document.querySelectorAll("img.card, .picture img, main.rules img")]
                 .filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.getAttribute("src"));"""
        )
    )


def screenshot(browser: WebDriver, path: Path, whole_page: bool = False, part: str = "") -> None:
    """The window as the person sees it (or the whole page, or the element ``part`` selects), no button
    hovered or focused."""
    ActionChains(browser, duration=0).move_to_element(browser.find_element(By.TAG_NAME, "h1")).perform()
    browser.execute_script("document.activeElement?.blur();")
    options: dict[str, object] = {"format": "png"}
    if whole_page or part:
        size = browser.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        box = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
        if part:
            found = browser.execute_script(
                "const box = document.querySelector(arguments[0]).getBoundingClientRect(), m = 8;"
                "return {x: box.left + scrollX - m, y: box.top + scrollY - m, width: box.width + 2 * m,"
                " height: box.height + 2 * m};",
                part,
            )
            box = {name: found[name] for name in box}
        options |= {"captureBeyondViewport": True, "clip": {**box, "scale": 2 if part else 1}}
    shot = browser.execute_cdp_cmd("Page.captureScreenshot", options)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))


def ask_for_a_hint(browser: WebDriver, where: str) -> None:
    """Clicks "What would best play?": the move best would make is highlighted, and a line says it."""
    browser.find_element(By.ID, "hint").click()
    try:
        wait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-action].hinted"))
    except TimeoutException:
        line = browser.find_element(By.ID, "hint-line").text
        pytest.fail(f"{where}: no move highlighted after asking for a hint; the hint line says {line!r}")
    assert browser.find_element(By.ID, "hint-line").text.startswith("best would ")


def pace_is_remembered(browser: WebDriver) -> None:
    """The bots' pace the person picks is kept across a reload."""
    Select(browser.find_element(By.ID, "pace")).select_by_value("slow")
    browser.refresh()
    wait(browser).until(lambda b: b.find_element(By.ID, "status").text != "Loading…")
    assert browser.find_element(By.ID, "pace").get_attribute("value") == "slow"
    Select(browser.find_element(By.ID, "pace")).select_by_value("normal")


def open_table(browser: WebDriver, server: str, game: str, opponent: str, seed: int) -> None:
    """Starts a game from the page a link to it gives (a link fills the form in: the person starts it),
    then shows the bots' moves at once (``?delay=0``)."""
    browser.get(f"{server}/play/{game}?vs={opponent}&seed={seed}")
    browser.find_element(By.CSS_SELECTOR, "form.new-game button[type=submit]").click()
    wait(browser).until(lambda b: "/table/" in b.current_url)
    assert "/table/" in browser.current_url, f"/play/{game} went to {browser.current_url}: {browser.title}"
    browser.get(browser.current_url.split("?")[0] + "?delay=0")


CASES = [(*case, seed, size) for case in GAMES for size, seeds in DEALS.items() for seed in seeds]
CASE_IDS = [f"{game}-{seed}-{size}" for game, *_, seed, size in CASES]


@pytest.mark.parametrize(("game", "opponent", "screenshot_at", "seed", "size"), CASES, ids=CASE_IDS)
def test_game_played_to_the_end_in_the_browser(
    server: str, driver: WebDriver, tmp_path: Path, game: str, opponent: str, screenshot_at: int, seed: int, size: str
) -> None:
    driver.get_log("browser")  # empties the log of the pages before this one
    broken_seen.clear()
    window(driver, size)
    open_table(driver, server, game, opponent, seed)
    laptop = size == "laptop"
    checks_reload_and_hint = laptop
    first = seed == DEALS[size][0]

    screenshots = os.environ.get("CARDSIM_SCREENSHOTS") if first else None
    chooser = random.Random(seed)
    clicks = continues = 0
    reloaded = hinted = shot = False
    while True:
        where = f"{game} seed {seed} ({size}) after {clicks} clicks"
        state = next_state(driver, where)
        if state == "over":
            break
        assert isinstance(state, list)
        if clicks >= MAX_CLICKS:
            pytest.fail(f"{game}: not over after {MAX_CLICKS} clicks")
        moves = [(button, spot) for button, action, spot in state if action != "continue"]
        if screenshots and not shot and clicks >= screenshot_at and moves:
            screenshot(driver, Path(screenshots) / f"{game}{'' if laptop else '-phone'}.png")
            shot = True
        if checks_reload_and_hint and not reloaded and clicks >= RELOAD_AT and moves:
            reload_keeps_state(driver)
            reloaded = True
            continue  # the reload drew new buttons
        if checks_reload_and_hint and not hinted and clicks >= HINT_AT and len(moves) > 1:
            ask_for_a_hint(driver, where)
            hinted = True
            continue
        button, spot = chooser.choice(moves or [(button, spot) for button, _, spot in state])
        if click(driver, button, spot):
            clicks += 1
            continues += not moves

    assert reloaded or not checks_reload_and_hint, f"{game} ended after {clicks} clicks, before the reload check"
    assert hinted or not checks_reload_and_hint, f"{game} ended after {clicks} clicks, before the hint was asked for"
    banner = driver.find_element(By.ID, "banner")
    assert banner.is_displayed() and banner.get_attribute("data-game-over")
    assert banner.text.startswith("Game over: ")
    assert f"cardsim replay --record cardsim-{game}-{seed}.json" in banner.text
    assert not driver.find_elements(By.CSS_SELECTOR, "#status.problem"), driver.find_element(By.ID, "status").text
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-action]")
    wait(driver).until(lambda b: b.execute_script("return [...document.images].every((img) => img.complete);"))
    assert driver.find_elements(By.CSS_SELECTOR, "img.card"), "no card pictures at the game's end"
    assert broken_pictures(driver) == []
    assert broken_seen == set(), f"card pictures that did not load during the game: {sorted(broken_seen)}"
    severe = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    assert severe == [], f"console errors: {severe}"
    print(f"{game} seed {seed} ({size}): {clicks} clicks ({continues} continue)")


def test_front_page_and_rules(server: str, driver: WebDriver) -> None:
    """The front page shows the four games with their pictures; each game's rules page loads, and the
    Gemstones rules show the eight stones (their letters and shapes tell them apart)."""
    window(driver, "laptop")
    driver.get_log("browser")
    driver.get(server + "/")
    games = driver.find_elements(By.CSS_SELECTOR, ".lobby-game")
    assert [section.get_attribute("id") for section in games] == sorted(game for game, *_ in GAMES)
    assert all(section.find_elements(By.CSS_SELECTOR, ".picture img") for section in games)
    wait(driver).until(lambda b: b.execute_script("return [...document.images].every((img) => img.complete);"))
    assert broken_pictures(driver) == []
    screenshots = os.environ.get("CARDSIM_SCREENSHOTS")
    if screenshots:
        screenshot(driver, Path(screenshots) / "front.png", whole_page=True)
    for game, *_ in GAMES:
        driver.get(f"{server}/rules/{game}")
        assert driver.find_element(By.TAG_NAME, "h3").text, f"{game}'s rules page has no sections"
        wait(driver).until(lambda b: b.execute_script("return [...document.images].every((img) => img.complete);"))
        assert broken_pictures(driver) == []
    stones = driver.find_elements(By.CSS_SELECTOR, "main.rules img")  # the last page: Gemstones'
    assert len({stone.get_attribute("src") for stone in stones}) == 8
    if screenshots:
        screenshot(driver, Path(screenshots) / "gemstones-stones.png", part="main.rules table")
    severe = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    assert severe == [], f"console errors: {severe}"


def test_the_bots_pace_is_remembered_and_skipped(server: str, driver: WebDriver) -> None:
    """The pace the person picks for the bots' moves is kept across a reload; at the slowest, "Skip to
    my turn" shows the person's next decision at once."""
    window(driver, "laptop")
    driver.get(f"{server}/play/gemstones?vs=greedy&seed=11")
    driver.find_element(By.CSS_SELECTOR, "form.new-game button[type=submit]").click()
    wait(driver).until(lambda b: "/table/" in b.current_url and b.find_elements(By.CSS_SELECTOR, "[data-action]"))
    pace_is_remembered(driver)
    Select(driver.find_element(By.ID, "pace")).select_by_value("slow")
    skip = driver.find_element(By.ID, "skip")
    for _ in range(40):  # move until the bot is to play (the person's turn has several decisions)
        state = next_state(driver, "gemstones at the slow pace")
        assert isinstance(state, list)
        button, _, spot = state[-1]
        click(driver, button, spot)
        if skip.is_enabled():
            break
    assert skip.is_enabled(), "the bots never played"
    skip.click()
    began = time.monotonic()
    wait(driver, 5).until(lambda b: b.find_element(By.ID, "status").text == "Your turn.")
    assert time.monotonic() - began < 1.0, "skipping still waited for the slow pace"
    Select(driver.find_element(By.ID, "pace")).select_by_value("normal")
