"""``seqsolve serve`` in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium plays a whole game by clicking, steps through a
record with its annotation, and shows an analysis, checking what the page shows.

Every wait is for an event of the page (``body[data-answers]`` counts the server's
answers, ``body[data-busy]`` says one is awaited), never a sleep.  Where no browser can
be started the tests skip and say why (``.ci/run`` installs one where it can).
"""

from __future__ import annotations

import importlib.resources
import json
import shutil
import socket
import threading
import urllib.parse

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the serve extra (uvicorn) is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from seqsolve.serve import work
from seqsolve.serve.app import allowed_hosts, make_app

EXAMPLE4 = importlib.resources.files("seqsolve").joinpath("data", "example4.sqn").read_text()
#: the longest any one answer of the server may take before a test fails (a bound, not a pace)
PATIENCE = 120
#: the page's three jobs, each with its own controls
MODES = ("play", "review", "analyze")
#: how often a wait looks at the page again (a look costs a round trip to the driver)
POLL = 0.02
#: the analyses here are bounded by their iterations, never by the clock
LIMITS = work.Limits(max_seconds=60.0)


def _browser_paths() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip(
            "no headless browser: install Debian's chromium and chromium-driver"
            " (apt-get install -y chromium chromium-driver) to run the browser tests"
        )
    return chromium, driver


@pytest.fixture(scope="module")
def server():
    """The application under uvicorn on a free loopback port, in a thread; its address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = make_app(LIMITS, allowed_hosts("127.0.0.1", port))
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    running = uvicorn.Server(config)
    started = threading.Event()

    async def serve():
        task = running.serve(sockets=[sock])
        import asyncio

        async def flag():
            while not running.started:
                await asyncio.sleep(0)  # yields to the server until it listens: no clock
            started.set()

        await asyncio.gather(task, flag())

    import asyncio

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    assert started.wait(PATIENCE), "the server did not start"
    yield f"http://127.0.0.1:{port}/"
    running.should_exit = True
    thread.join(PATIENCE)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    chromium, driver_path = _browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(
            options=options, service=webdriver.ChromeService(executable_path=driver_path)
        )
    except WebDriverException as exc:
        pytest.skip(f"headless Chromium could not be started: {str(exc).splitlines()[0]}")
    yield driver
    driver.quit()


def answers(browser) -> int:
    return int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-answers"))


def after(browser, action) -> None:
    """Do ``action``, then wait for the server's answer to it."""
    before = answers(browser)
    action()
    WebDriverWait(browser, PATIENCE, poll_frequency=POLL).until(
        lambda b: (
            answers(b) > before and b.find_element(By.TAG_NAME, "body").get_attribute("data-busy") == "0"
        )
    )


def opened(browser, url: str) -> None:
    browser.get(url)
    WebDriverWait(browser, PATIENCE, poll_frequency=POLL).until(
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
    )


def reloaded(browser) -> None:
    """Reload the page (a new document: its count of answers starts again) and wait for
    its first answer, asked from what the address holds."""
    browser.refresh()
    WebDriverWait(browser, PATIENCE, poll_frequency=POLL).until(
        lambda b: (
            b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
            and answers(b) >= 1
            and b.find_element(By.TAG_NAME, "body").get_attribute("data-busy") == "0"
        )
    )


def message(browser) -> str:
    return browser.find_element(By.ID, "message").text


def address(browser) -> dict:
    return json.loads(urllib.parse.unquote(browser.execute_script("return location.hash").lstrip("#")))


def set_value(browser, element_id: str, value: str) -> None:
    browser.execute_script("document.getElementById(arguments[0]).value = arguments[1];", element_id, value)


def click_svg(browser, element) -> None:
    """A click where a person's would land on the picture (a chip may lie over a card)."""
    ActionChains(browser).move_to_element(element).click().perform()


def test_a_whole_game_is_played_by_clicking_a_card_and_a_cell(browser, server):
    opened(browser, server)
    set_value(browser, "new-variant", "classic[sequences_to_win=1]")
    set_value(browser, "new-bot", "greedy")
    set_value(browser, "new-seed", "5")  # a short game: the greedy bot wins in 7 turns
    after(browser, lambda: browser.find_element(By.ID, "new-game").click())
    assert message(browser) == ""
    status = browser.find_element(By.ID, "status")
    assert status.text.startswith("Your turn: seat 0")
    shown = {name: browser.find_element(By.ID, f"{name}-controls").is_displayed() for name in MODES}
    assert shown == {"play": True, "review": False, "analyze": False}
    clicks = 0
    while status.get_attribute("data-over") != "1":
        clicks += 1
        assert clicks < 300, "the game did not end"
        chips = len(browser.find_elements(By.CSS_SELECTOR, "#board svg .chip"))
        card = browser.find_element(By.CSS_SELECTOR, "#hand button.card:not([disabled])")
        card.click()
        assert "selected" in card.get_attribute("class")
        targets = browser.find_elements(By.CSS_SELECTOR, "#board svg .card.target")
        if targets:
            after(browser, lambda t=targets[0]: click_svg(browser, t))
        else:  # a dead card: its exchange is offered beside the hand
            after(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#choices button").click())
        assert message(browser) == "", message(browser)
        if targets and status.get_attribute("data-over") != "1":
            assert (
                len(browser.find_elements(By.CSS_SELECTOR, "#board svg .chip")) >= chips
            )  # mine and a reply
    assert status.text.startswith("Game over:") and "won" in status.text
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .sequence")
    game = address(browser)["game"]
    assert work.play({"game": game}, LIMITS)["over"]  # the address holds the finished game
    shown = browser.find_element(By.ID, "board").get_attribute("innerHTML")
    reloaded(browser)  # a reload asks the server again from the address
    assert browser.find_element(By.ID, "status").text.startswith("Game over:")
    assert browser.find_element(By.ID, "board").get_attribute("innerHTML") == shown


def test_a_hint_and_an_undo_in_the_page(browser, server):
    opened(browser, server + "#" + urllib.parse.quote(json.dumps({"mode": "play"})))
    set_value(browser, "new-variant", "classic")
    set_value(browser, "new-bot", "random")
    set_value(browser, "new-seed", "4")
    after(browser, lambda: browser.find_element(By.ID, "new-game").click())
    set_value(browser, "hint-iterations", "100")
    after(browser, lambda: browser.find_element(By.ID, "hint").click())
    assert browser.find_element(By.ID, "note").text.startswith("Hint: ")
    assert 1 <= len(browser.find_elements(By.CSS_SELECTOR, "#board svg .mark")) <= 3
    assert len(browser.find_elements(By.CSS_SELECTOR, "#analysis tr")) == len(
        browser.find_elements(By.CSS_SELECTOR, "#board svg .mark")
    )
    browser.find_element(By.CSS_SELECTOR, "#hand button.card:not([disabled])").click()
    target = browser.find_element(By.CSS_SELECTOR, "#board svg .card.target")
    after(browser, lambda: click_svg(browser, target))
    assert len(address(browser)["game"]["moves"]) == 2
    after(browser, lambda: browser.find_element(By.ID, "undo").click())
    assert address(browser)["game"]["moves"] == []
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .chip") == []
    after(browser, lambda: browser.find_element(By.ID, "undo").click())
    assert "nothing to undo" in message(browser)


def _record(seed: int) -> str:
    data = work.new_game({"variant": "classic[sequences_to_win=1]", "seed": seed, "bot": "greedy"}, LIMITS)
    while not data["over"]:
        data = work.play({"game": data["game"], "move": data["legal"][-1]["move"]}, LIMITS)
    return data["record"]


def test_a_record_is_stepped_through_with_its_mistakes_and_the_better_turn(browser, server):
    text = _record(21)
    plies = len(json.loads(text.splitlines()[1])["moves"])
    opened(browser, server)
    browser.find_element(By.ID, "tab-review").click()
    set_value(browser, "review-text", text)
    after(browser, lambda: browser.find_element(By.ID, "review-open").click())
    ply = browser.find_element(By.ID, "ply")
    assert ply.text == f"0 / {plies}"
    shown = {name: browser.find_element(By.ID, f"{name}-controls").is_displayed() for name in MODES}
    assert shown == {"play": False, "review": True, "analyze": False}
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .chip") == []
    after(browser, lambda: browser.find_element(By.ID, "next").click())
    assert ply.text == f"1 / {plies}"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg .chip")) == 1
    after(browser, lambda: browser.find_element(By.ID, "last-ply").click())
    assert ply.text == f"{plies} / {plies}"
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .sequence")
    set_value(browser, "annotate-iterations", "30")
    after(browser, lambda: browser.find_element(By.ID, "annotate").click())
    assert message(browser).startswith("annotated:")
    marked = browser.find_elements(By.CSS_SELECTOR, "#moves li.mistake, #moves li.blunder")
    assert marked, "the always-last-move player made no mistake the analysis saw"
    first = marked[0]
    kind = "blunder" if "blunder" in first.get_attribute("class") else "mistake"
    assert f"({kind}; better " in first.text
    before_it = int(first.get_attribute("data-ply")) - 1
    after(browser, first.click)
    assert ply.text == f"{before_it} / {plies}"  # the position the marked move was played in
    note = browser.find_element(By.ID, "note")
    assert note.get_attribute("data-mark") == kind and "better" in note.text
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#board svg .mark-label")]
    assert "better" in labels and kind in labels
    shown_marks = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves li")]
    reloaded(browser)  # the address keeps the record, the step and the annotation
    assert browser.find_element(By.ID, "ply").text == f"{before_it} / {plies}"
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves li")] == shown_marks
    assert browser.find_element(By.ID, "note").get_attribute("data-mark") == kind
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#board svg .mark-label")]
    assert "better" in labels and kind in labels


def test_an_analysis_is_drawn_and_recomputed_as_moves_are_tried(browser, server):
    opened(browser, server)
    browser.find_element(By.ID, "tab-analyze").click()
    set_value(browser, "analyze-text", "nonsense")
    after(browser, lambda: browser.find_element(By.ID, "analyze-open").click())
    assert message(browser).startswith("the position:1:")
    assert browser.find_element(By.ID, "message").get_attribute("class") == "error"
    set_value(browser, "analyze-text", EXAMPLE4)
    set_value(browser, "analyze-iterations", "100")
    after(browser, lambda: browser.find_element(By.ID, "analyze-open").click())
    assert message(browser) == ""
    rows = browser.find_elements(By.CSS_SELECTOR, "#analysis tr")
    assert len(rows) == 3 and all(r.text.endswith("visits") for r in rows)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg .mark")) >= 1
    status = browser.find_element(By.ID, "status").text
    chips = len(browser.find_elements(By.CSS_SELECTOR, "#board svg .chip"))
    browser.find_element(By.CSS_SELECTOR, "#hand button.card:not([disabled])").click()
    target = browser.find_element(By.CSS_SELECTOR, "#board svg .card.target")
    after(browser, lambda: click_svg(browser, target))
    assert message(browser) == "", message(browser)
    tried = browser.find_element(By.ID, "tried").text
    assert tried.startswith("tried: ") and address(browser)["moves"] == [tried.removeprefix("tried: ")]
    assert browser.find_element(By.ID, "status").text != status
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg .chip")) == chips + 1
    analysed = browser.find_elements(By.CSS_SELECTOR, "#analysis tr")
    assert analysed or browser.find_element(By.ID, "note").text.startswith("No analysis: ")
    after(browser, lambda: browser.find_element(By.ID, "takeback").click())
    assert browser.find_element(By.ID, "tried").text == ""
    assert browser.find_element(By.ID, "status").text == status


def test_a_whole_stacks_game_is_played_by_clicking_a_card_and_a_place_of_the_picture(browser, server):
    """Sequence Stacks as a person plays it on the page: a card of the hand, then a pile,
    a colour's start slot, a discard pile or a seat's chips of the picture (a pass or
    an end by its button); a hint first, drawn as arrows."""
    opened(browser, server)
    set_value(browser, "new-variant", "stacks[stacks_win_chips=3,stacks_win_min_each=1]")  # 3 chips win
    set_value(browser, "new-bot", "random")
    set_value(browser, "new-seed", "11")  # a short game: 19 decisions of the person's, who wins
    after(browser, lambda: browser.find_element(By.ID, "new-game").click())
    assert message(browser) == "" and not browser.find_element(By.ID, "textview").is_displayed()
    set_value(browser, "hint-iterations", "100")
    after(browser, lambda: browser.find_element(By.ID, "hint").click())
    arrows = browser.find_elements(By.CSS_SELECTOR, "#board svg line.mark")
    assert arrows and browser.find_element(By.ID, "note").text.startswith("Hint: ")
    first = browser.find_element(By.CSS_SELECTOR, "#hand button.card:not([disabled])")
    card = first.get_attribute("data-card")
    click_svg(
        browser, browser.find_element(By.CSS_SELECTOR, f'#board svg .card[data-seat="0"][data-card="{card}"]')
    )
    assert "selected" in first.get_attribute("class")  # the hand's card on the picture picks it too
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .target")
    picked = browser.find_elements(By.CSS_SELECTOR, "#board svg .card.picked")
    assert [e.get_attribute("data-card") for e in picked] == [card]
    first.click()  # and a second click puts it back
    assert not browser.find_elements(By.CSS_SELECTOR, "#board svg .target, #board svg .picked")
    status = browser.find_element(By.ID, "status")
    clicked: set[str] = set()
    decisions = 0
    while status.get_attribute("data-over") != "1":
        decisions += 1
        assert decisions < 300, "the game did not end"
        before = len(address(browser)["game"]["moves"])
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand button.card:not([disabled])")
        if cards:
            cards[0].click()
            assert "selected" in cards[0].get_attribute("class")
            targets = browser.find_elements(By.CSS_SELECTOR, "#board svg .target")
            assert targets, "a Stacks card always lands somewhere on the picture"
            target = targets[0]
            clicked.add(target.get_attribute("class").split()[0])
            after(browser, lambda t=target: click_svg(browser, t))
        else:  # pass or end: no card, nowhere to land
            after(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#plain-moves button").click())
        assert message(browser) == "", message(browser)
        assert len(address(browser)["game"]["moves"]) > before
    assert status.text.startswith("Game over:") and "won" in status.text
    assert {"pile-slot", "pile", "discard"} <= clicked
    game = address(browser)["game"]
    assert work.play({"game": game}, LIMITS)["over"]  # the address holds the finished game
    reloaded(browser)
    assert browser.find_element(By.ID, "status").text.startswith("Game over:")
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .pile-slot")


def test_two_tabs_play_two_games(browser, server):
    games = {}
    for seed in ("31", "32"):
        browser.switch_to.new_window("tab")
        opened(browser, server)
        set_value(browser, "new-bot", "random")
        set_value(browser, "new-seed", seed)
        after(browser, lambda: browser.find_element(By.ID, "new-game").click())
        games[browser.current_window_handle] = address(browser)["game"]
    first, second = games
    assert games[first]["seed"] == 31 and games[second]["seed"] == 32
    browser.find_element(By.CSS_SELECTOR, "#hand button.card:not([disabled])").click()
    target = browser.find_element(By.CSS_SELECTOR, "#board svg .card.target")
    after(browser, lambda: click_svg(browser, target))
    assert len(address(browser)["game"]["moves"]) == 2
    browser.switch_to.window(first)
    reloaded(browser)
    assert address(browser)["game"] == games[first]
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg .chip") == []
