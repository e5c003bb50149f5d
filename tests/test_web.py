"""``satnono serve``: the API on a real uvicorn server (limits, bad input, 20 requests at
once) and the page in a real Chromium (Debian's chromium and chromium-driver, through
Selenium): draw, check, open a file, solve and replay, count, export."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from satnono.web.app import Limits, make_app  # noqa: E402

from .conftest import wait_for  # noqa: E402

#: the full suite only (python -m pytest); the fast tier (--fast) leaves these out
pytestmark = pytest.mark.full

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real uvicorn serving the app in a thread of this process."""

    def __init__(self, limits: Limits):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(make_app(limits), host="127.0.0.1", port=self.port,
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        for _ in range(100):
            if self.server.started:
                return self
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def post(self, path: str, body: dict | bytes, timeout: float = 60) -> tuple[int, dict]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


WEBPBN = ROOT.parent / "shared" / "webpbn"
WEBPBN_FILES = sorted(WEBPBN.glob("*/*.xml"))
needs_webpbn = pytest.mark.skipif(not WEBPBN_FILES, reason="../shared/webpbn is not present")


@pytest.fixture(scope="module")
def server():
    with Server(Limits(timeout=5, cells=40 * 40, body=200_000, workers=2, queue=4)) as s:
        yield s


def puzzle(rows, columns, goal=None) -> str:
    obj = {"rows": rows, "columns": columns}
    if goal:
        obj["goal"] = goal
    return json.dumps(obj)


def test_every_route_and_every_field_it_answers_is_in_the_api_page(server):
    """docs/web-api.md names each route the app serves, and each field a real answer of
    it holds (a client reads the page, not the source)."""
    import base64
    import re

    doc = (ROOT / "docs" / "web-api.md").read_text()
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(?:GET|POST) (/api/\w+)` \|(.*)$", doc,
                                           re.M)}
    app_routes = {r.path for r in make_app(Limits()).routes if r.path.startswith("/api/")}
    assert set(rows) == app_routes
    cup = (ROOT / "puzzles" / "cup.non").read_bytes()
    opened = server.post("/api/open", {"name": "cup.non",
                                       "data": base64.b64encode(cup).decode()})[1]
    with urllib.request.urlopen(server.url + "/api/info", timeout=60) as res:
        answers = {"/api/info": json.loads(res.read()), "/api/open": opened,
                   "/api/cancel": server.post("/api/cancel", {"id": "none"})[1]}
    for route in ("check", "solve", "count"):
        answers[f"/api/{route}"] = server.post(f"/api/{route}", {"puzzle": opened["json"]})[1]
    answers["/api/export"] = server.post("/api/export", {"puzzle": opened["json"],
                                                         "what": "non"})[1]
    assert set(answers) == app_routes
    for route, answer in answers.items():
        assert "error" not in answer, (route, answer)
        missing = [k for k in answer if f"`{k}`" not in rows[route]]
        assert not missing, (route, missing)


def test_check_solve_count_and_export_answer_as_the_library_does(server):
    p = puzzle([[1], [1]], [[1], [1]], ["#.", ".#"])
    status, data = server.post("/api/check", {"puzzle": p})
    assert status == 200 and data["verdict"] == "multiple" and data["complete"]
    assert sorted(map(tuple, data["ambiguous"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert data["switches"] == [[0, 0]] and "search" in data["rating"]
    assert sorted(data["solutions"]) == [["#.", ".#"], [".#", "#."]]
    status, data = server.post("/api/solve", {"puzzle": p})
    assert status == 200 and data["verdict"] == "multiple" and len(data["solutions"]) == 2
    assert data["steps"] and all({"text", "changes", "kind"} <= set(s) for s in data["steps"])
    # the changes, applied in turn, give the board of each step: the last is the second
    # solution, and first_found points at the first
    grid = [[-1, -1], [-1, -1]]
    boards = []
    for step in data["steps"]:
        for r, c, was, now in step["changes"]:
            assert grid[r][c] == was
            grid[r][c] = now
        boards.append(["".join(".#"[v] if v >= 0 else "?" for v in row) for row in grid])
    assert boards[-1] == data["solutions"][1]
    assert boards[data["first_found"]] == data["solutions"][0]
    status, data = server.post("/api/count", {"puzzle": puzzle([[1]] * 6, [[1]] * 6)})
    assert status == 200 and data["count"] == "720" and data["complete"]
    assert data["estimate"] is None  # a count, not an estimate
    status, data = server.post("/api/export", {"puzzle": p, "what": "non"})
    assert status == 200 and data["name"] == "puzzle.non" and "rows" in data["text"]
    # each format its own name, so that two exports never become "puzzle (1).txt"
    for what, name in (("webpbn", "puzzle.xml"), ("japan", "puzzle-japan.dat"),
                       ("mathprog", "puzzle-mathprog.dat"), ("taai", "puzzle-taai.txt"),
                       ("spoj", "puzzle-spoj.txt")):
        status, data = server.post("/api/export", {"puzzle": p, "what": what})
        assert status == 200 and data["name"] == name
    colour = json.dumps({"rows": [[[1, "red"], [1, "blue"]]],
                         "columns": [[[1, "red"]], [[1, "blue"]]],
                         "palette": {"white": {"char": ".", "rgb": "ffffff"},
                                     "red": {"char": "r", "rgb": "ff0000"},
                                     "blue": {"char": "b", "rgb": "0000ff"}},
                         "background": "white"})
    status, data = server.post("/api/export", {"puzzle": colour, "what": "japan"})
    assert status == 400 and "black-and-white puzzles only" in data["error"]
    status, data = server.post("/api/export", {"puzzle": colour, "what": "webpbn"})
    assert status == 200 and 'color="red"' in data["text"]
    with urllib.request.urlopen(server.url + "/api/info") as res:
        offered = json.loads(res.read())["exports"]
    assert {e["what"]: e["colour"] for e in offered}["japan"] is False
    assert all(e["name"].startswith("puzzle") for e in offered)
    assert len({e["name"] for e in offered}) == len(offered)  # no two alike
    titled = json.dumps({"title": "Cup of tea / 2", "rows": [[1]], "columns": [[1]]})
    for what, name in (("non", "Cup-of-tea-2.non"), ("solution.png", "Cup-of-tea-2-solution.png")):
        status, data = server.post("/api/export", {"puzzle": titled, "what": what})
        assert status == 200 and data["name"] == name
    status, data = server.post("/api/export", {"puzzle": p, "what": "solution.svg"})
    assert status == 200 and data["text"].startswith("<svg")
    import base64

    status, data = server.post("/api/export", {"puzzle": p, "what": "blank.png"})
    assert status == 200 and base64.b64decode(data["text"]).startswith(b"\x89PNG")


def test_open_reads_any_format_and_pictures(server):
    import base64

    text = (ROOT / "puzzles" / "cup.non").read_bytes()
    status, data = server.post("/api/open", {"name": "cup.non",
                                             "data": base64.b64encode(text).decode()})
    assert status == 200 and (data["width"], data["height"]) == (16, 16)
    pbm = b"P1\n3 2\n1 0 1\n0 1 0\n"
    status, data = server.post("/api/open", {"name": "x.pbm",
                                             "data": base64.b64encode(pbm).decode()})
    assert status == 200 and data["goal"] == ["#.#", ".#."]
    import io

    from PIL import Image

    def png(img) -> str:
        out = io.BytesIO()
        img.save(out, "PNG")
        return base64.b64encode(out.getvalue()).decode()

    # a small colour picture opens in colour
    img = Image.new("RGB", (4, 2), "white")
    img.putpixel((0, 0), (220, 20, 20))
    img.putpixel((1, 0), (220, 20, 20))
    img.putpixel((3, 1), (20, 20, 220))
    status, data = server.post("/api/open", {"name": "c.png", "data": png(img)})
    assert status == 200 and len(data["palette"]) == 3
    assert [ch for row in data["goal"] for ch in row if ch != "."] and len(
        set("".join(data["goal"]))) == 3
    # larger than the server takes: the size it would be scaled to is offered, then done
    big = Image.new("L", (80, 60), 255)
    status, data = server.post("/api/open", {"name": "big.png", "data": png(big)})
    assert status == 400 and "at most 1,600 cells" in data["error"]
    w, h = data["fit"]
    assert w * h <= 1600 and abs(w / h - 80 / 60) < 0.1
    status, data = server.post("/api/open", {"name": "big.png", "data": png(big),
                                             "fit": "yes"})
    assert status == 200 and (data["width"], data["height"]) == (w, h)


def test_bad_input_gets_the_one_line_message_and_no_traceback(server):
    status, data = server.post("/api/check", {"puzzle": puzzle([[5]], [[1]])})
    assert status == 400 and data["error"] == ("puzzle.json: row 1: clue 5 needs 5 cells, "
                                               "the row has 1")
    status, data = server.post("/api/check", b"not json")
    assert status == 400 and data["error"] == "the request is not JSON"
    status, data = server.post("/api/check", b"[" * 100_000 + b"]" * 100_000)
    assert status == 400 and data["error"] == "the request is nested too deeply"
    status, data = server.post("/api/check", {"puzzle": 5})
    assert status == 400 and "expected puzzle as text" in data["error"]
    status, data = server.post("/api/export", {"puzzle": puzzle([[1]], [[1]]), "what": "x"})
    assert status == 400 and "unknown export 'x'" in data["error"]
    import base64

    status, data = server.post("/api/open", {"name": "pasted", "data": base64.b64encode(
        b"hello world\n").decode()})  # what the page has is what it suggests, not --from
    assert status == 400 and data["error"].startswith("pasted: not a puzzle in any format")
    assert data["error"].endswith("; the page reads puzzle files in those formats, and "
                                  "pictures (PNG, GIF, BMP, JPEG)")
    assert "--from" not in data["error"]
    import base64

    status, data = server.post("/api/open", {"name": "bad.non",
                                             "data": base64.b64encode(b"width 2\n").decode()})
    assert status == 400 and data["error"].startswith("bad.non") and "Traceback" not in str(data)


def test_a_lone_surrogate_or_a_body_cut_short_is_the_clients_fault(server, caplog):
    """Half a UTF-16 pair in a JSON string is no text: a 400, not a 500 with a traceback;
    a client that sends less than it announced and hangs up leaves no traceback."""
    import logging

    caplog.set_level(logging.DEBUG)
    uvicorn_log = logging.getLogger("uvicorn")  # which keeps its records from the root's
    uvicorn_log.addHandler(caplog.handler)
    try:
        _lone_surrogates_and_cut_bodies(server)
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


def _lone_surrogates_and_cut_bodies(server) -> None:
    for path, body in (("/api/check", b'{"puzzle": "\\ud800"}'),
                       ("/api/open", b'{"name": "\\ud800.non", "data": "eA=="}')):
        status, data = server.post(path, body)
        assert status == 400 and "not valid Unicode" in data["error"], (path, data)
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 1000\r\n\r\n{\"puzzle\"")
    status, data = server.post("/api/check", {"puzzle": puzzle([[1]], [[1]])})
    assert status == 200  # still up


def test_limits_on_size_cells_and_time(server):
    status, data = server.post("/api/check", {"puzzle": "x" * 300_000})
    assert status == 413 and "at most 200,000" in data["error"]
    big = puzzle([[1]] * 50, [[1]] * 50)
    status, data = server.post("/api/check", {"puzzle": big})
    assert status == 400 and "at most 1600 cells" in data["error"]
    started = time.monotonic()
    status, data = server.post("/api/count", {"puzzle": puzzle([[1]] * 14, [[1]] * 14)})
    assert status == 200 and not data["complete"]  # 14! is past the 5 s limit
    assert time.monotonic() - started < 12


def test_twenty_requests_at_once_are_answered_or_refused_and_the_server_stays_up(server):
    p = puzzle([[1]] * 7, [[1]] * 7)
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: server.post("/api/count", {"puzzle": p}),
                                range(20)))
    assert {s for s, _ in answers} <= {200, 503}, [d for s, d in answers if s not in (200, 503)]
    assert any(s == 200 for s, _ in answers) and any(s == 503 for s, _ in answers)
    assert all(d["count"] == "5040" for s, d in answers if s == 200)
    assert all("busy" in d["error"] for s, d in answers if s == 503)
    with urllib.request.urlopen(server.url + "/api/info", timeout=10) as res:
        assert json.loads(res.read())["cells"] == 1600


def test_a_cancelled_request_stops_and_frees_its_place():
    # one solving process at a time: the next request waits unless the first is stopped
    with Server(Limits(timeout=30, workers=1, queue=4)) as one:
        slow = {"puzzle": puzzle([[1]] * 14, [[1]] * 14), "id": "slow-1"}  # 14!: 30 s
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(one.post, "/api/count", slow)
            time.sleep(1.0)
            status, data = one.post("/api/cancel", {"id": "slow-1"})
            assert status == 200 and data["cancelled"]
            assert first.result(timeout=5) == (499, {"error": "cancelled"})
        started = time.monotonic()
        status, data = one.post("/api/check", {"puzzle": puzzle([[1]], [[1]])}, timeout=30)
        assert status == 200 and data["verdict"] == "unique"
        assert time.monotonic() - started < 5
        assert one.post("/api/cancel", {"id": "slow-1"})[1] == {"cancelled": False}


# -- the page in a real browser ------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
needs_browser = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason="no browser: apt install chromium chromium-driver")


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1400,1000"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def _wait(driver, test, timeout: float = 30):
    """Until ``test`` holds; an element the page replaced while it was read (the verdict
    is rewritten as the run goes) is read again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,)
                         ).until(lambda d: test(d))


def _new_drawing(driver, width: int | str, height: int | str) -> None:
    """Type a size into the maker's fields and start a new drawing of it."""
    from selenium.webdriver.common.by import By

    for field, value in (("width", width), ("height", height)):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    driver.find_element(By.ID, "new").click()


def _cell(driver, r: int, c: int):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'#grid td.cell[data-r="{r}"][data-c="{c}"]')


SHOTS = Path(os.environ.get("SATNONO_SCREENSHOTS", "")) if os.environ.get(
    "SATNONO_SCREENSHOTS") else None


def _shot(driver, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"{name}.png"))


@needs_browser
def test_draw_check_open_solve_replay_count_export_in_chromium(server, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url + "/")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    _shot(d, "1-empty")
    _new_drawing(d, 4, 3)
    assert len(d.find_elements(By.CSS_SELECTOR, "#grid td.cell")) == 12
    # two single cells, then a drag along the bottom row: a picture with a 2×2 switch
    ActionChains(d).click(_cell(d, 0, 0)).click(_cell(d, 1, 1)).perform()
    ActionChains(d).click_and_hold(_cell(d, 2, 2)).move_to_element(_cell(d, 2, 3)) \
        .release().perform()
    rows = [td.text.replace("\n", " ") for td in d.find_elements(By.CSS_SELECTOR, "td.rowclue")]
    cols = [td.text.replace("\n", " ") for td in d.find_elements(By.CSS_SELECTOR, "td.colclue")]
    assert rows == ["1", "1", "2"] and cols == ["1", "1", "1", "1"]
    _shot(d, "2-drawing")
    d.find_element(By.ID, "check").click()
    verdict = _wait(d, lambda d: d.find_element(By.ID, "verdict").text)
    assert verdict.startswith("NOT unique")
    amb = {(int(td.get_attribute("data-r")), int(td.get_attribute("data-c")))
           for td in d.find_elements(By.CSS_SELECTOR, "#grid td.cell.amb")}
    from satnono import puzzle_from_picture, uniqueness
    from satnono.model.solution import Solution

    drawn = puzzle_from_picture(Solution(4, (0b0001, 0b0010, 0b1100)))
    assert amb == set(uniqueness(drawn).ambiguous) and len(amb) > 2
    sw = {(int(td.get_attribute("data-r")), int(td.get_attribute("data-c")))
          for td in d.find_elements(By.CSS_SELECTOR, "#grid td.cell.sw")}
    assert sw == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert len(d.find_elements(By.CSS_SELECTOR, "#pair table")) == 2
    _shot(d, "3-checked-multiple")
    # open a file of the kind the corpus holds, solve it, step through the replay
    d.find_element(By.ID, "file").send_keys(str(ROOT / "puzzles" / "cup.non"))
    _wait(d, lambda d: "Opened a 16×16" in d.find_element(By.ID, "message").text)
    d.find_element(By.ID, "solve").click()
    _wait(d, lambda d: d.find_element(By.ID, "verdict").text == "Unique solution")
    stepno = d.find_element(By.ID, "stepno")
    total = int(stepno.text.split()[-1])
    assert total > 10 and stepno.text == f"step {total} of {total}"
    assert not d.find_elements(By.CSS_SELECTOR, "#grid td.cell.unknown")
    d.find_element(By.ID, "first").click()
    assert stepno.text == f"step 1 of {total}"
    assert d.find_elements(By.CSS_SELECTOR, "#grid td.cell.unknown")
    d.find_element(By.ID, "step").click()
    d.find_element(By.ID, "step").click()
    assert stepno.text == f"step 3 of {total}" and d.find_element(By.ID, "steptext").text
    _shot(d, "4-replay")
    d.find_element(By.ID, "count").click()
    assert _wait(d, lambda d: d.find_element(By.ID, "counted").text) == "1 solution(s)"
    from selenium.webdriver.support.ui import Select

    Select(d.find_element(By.ID, "exportwhat")).select_by_value("json")
    d.find_element(By.ID, "export").click()
    _wait(d, lambda d: "Exported" in d.find_element(By.ID, "message").text)
    exported = d.execute_script("return state.exported")
    assert exported["name"] == "Cup-of-tea.json" and json.loads(exported["text"])["rows"]
    # a file dropped on the page opens as one chosen does
    d.execute_script("""
        const dt = new DataTransfer();
        dt.items.add(new File([arguments[0]], "two.dat"));
        document.dispatchEvent(new DragEvent("drop", {dataTransfer: dt}));""",
                     (ROOT / "puzzles" / "two.dat").read_text())
    _wait(d, lambda d: "Opened a 2×2" in d.find_element(By.ID, "message").text)
    # bad input: the one-line message on the page
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 1\nrows\n5\ncolumns\n1\n1\n")
    d.find_element(By.ID, "file").send_keys(str(bad))
    _wait(d, lambda d: "error" in d.find_element(By.ID, "status").get_attribute("class"))
    assert d.find_element(By.ID, "message").text.startswith("bad.non")


@needs_webpbn
def test_solve_answers_from_the_engine_and_bounds_the_replay(server):
    """9-Dom: ``satnono solve`` answers in well under a second, tracing all of the native
    solver's 67,000 steps takes 16 s. The answer comes from the engine; the replay runs for
    half the answer's time (at least REPLAY_LEAST), says it is unfinished, and its steps
    still apply one after another."""
    from satnono import load, solve
    from satnono.io.formats import jsonfmt
    from satnono.web.work import REPLAY_LEAST, REPLAY_SHARE

    p = load(WEBPBN / "dom" / "9-dom.xml")
    started = time.monotonic()
    status, data = server.post("/api/solve", {"puzzle": jsonfmt.write(p)})
    elapsed = time.monotonic() - started
    assert status == 200 and data["verdict"] == "unique"
    assert data["solutions"] == [next(iter(solve(p, limit=1))).strings()]
    assert not data["replay_complete"] and data["steps"]
    assert data["replay_seconds"] <= max(REPLAY_LEAST, REPLAY_SHARE * data["seconds"]) + 0.5
    assert elapsed < data["seconds"] + data["replay_seconds"] + 3
    grid = [[-1] * p.width for _ in range(p.height)]
    for step in data["steps"]:
        for r, c, was, now in step["changes"]:
            assert grid[r][c] == was
            grid[r][c] = now


@pytest.fixture(scope="module")
def roomy_server():
    """The server as ``satnono serve`` starts it (its default limits but a time limit of
    10 s, which three of the files' Check reaches on both sides), for real files."""
    with Server(Limits(timeout=10)) as s:
        yield s


def _timed_click(driver, button: str, done) -> float:
    """Seconds from a click on ``button`` until ``done`` holds, looked at every 20 ms; the
    last answer is cleared first, so that only the new one counts."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("document.getElementById('result').innerHTML = '';")
    started = time.monotonic()
    driver.find_element(By.ID, button).click()
    WebDriverWait(driver, 120, poll_frequency=0.02,
                  ignored_exceptions=(StaleElementReferenceException,)).until(done)
    return time.monotonic() - started


@needs_browser
@needs_webpbn
def test_every_webpbn_file_checks_and_solves_in_the_page_within_twice_the_command_line(
        roomy_server, browser):
    """Each of ../shared/webpbn's 22 files opened in the page: Check and Solve answer with
    the command line's verdict, within twice the time ``satnono check`` and ``satnono
    solve`` take on it (the page's work runs in a process of its own, as the command's
    does; 0.5 s more for the page's own round trip), in one of three turns. Both under
    the server's time limit."""
    import subprocess
    import sys

    from selenium.webdriver.common.by import By

    limit = "10"  # the server's
    d = browser
    d.get(roomy_server.url + "/")
    words = {"unique solution": "Unique solution", "no solution": "No solution"}
    slow = []
    for path in WEBPBN_FILES:
        d.execute_script("document.getElementById('message').textContent = '';")
        d.find_element(By.ID, "file").send_keys(str(path))
        _wait(d, lambda d: "Opened" in d.find_element(By.ID, "message").text)
        for command, button in (("solve", "solve"), ("check", "check")):
            # timed in turns on a shared machine: slow only when the page is behind in
            # each of three turns, so that a moment's load on the other core (another
            # test's browser or solver) is not taken for the page's cost
            turns = []
            for _ in range(3):
                started = time.monotonic()
                cli = subprocess.run([sys.executable, "-m", "satnono", command, str(path),
                                      "--timeout", limit], capture_output=True, text=True)
                cli_seconds = time.monotonic() - started
                said = cli.stdout + cli.stderr
                page = _timed_click(d, button, lambda d: d.find_elements(By.ID, "verdict"))
                verdict = d.find_element(By.ID, "verdict").text
                for cli_words, page_words in words.items():
                    if cli_words in said:
                        assert verdict == page_words, (path.name, command, verdict, said)
                if command == "solve" and verdict == "Unique solution":
                    # the board shows the answer, whether or not the replay reached it
                    assert not d.find_elements(By.CSS_SELECTOR, "#grid td.cell.unknown"), \
                        path
                turns.append((round(page, 2), round(cli_seconds, 2)))
                if page <= 2 * cli_seconds + 0.5:
                    break
            else:
                slow.append((path.name, command, turns))
    assert not slow


TOURNAMENT = ROOT.parent / "shared" / "tournaments" / "zxkyjimmy__NonogramRecord" / \
    "question" / "taai2017.txt"
needs_tournament = pytest.mark.skipif(not TOURNAMENT.exists(),
                                      reason="../shared/tournaments is not present")


@needs_tournament
def test_a_file_of_many_puzzles_opens_any_of_them_by_number(roomy_server):
    """A tournament file of 1,000 puzzles: the first opens, with every title offered; any
    other opens by its number, the one satnono reads at that place; a number out of range
    is one line."""
    import base64

    from satnono import load

    data = base64.b64encode(TOURNAMENT.read_bytes()).decode()
    status, first = roomy_server.post("/api/open", {"name": TOURNAMENT.name, "data": data})
    assert status == 200 and first["index"] == 1 and len(first["puzzles"]) == 1000
    assert "1,000" not in first["note"] and "1000 puzzles" in first["note"]
    status, other = roomy_server.post("/api/open", {"name": TOURNAMENT.name, "data": data,
                                                    "index": "742"})
    assert status == 200 and other["index"] == 742
    want = load(TOURNAMENT, index=742)
    assert other["rows"] == [[[b.length, 1] for b in clue] for clue in want.rows]
    assert other["title"] == (want.title or "") and first["puzzles"][741].startswith("742: ")
    for bad in ("0", "1001", "x"):
        status, said = roomy_server.post("/api/open", {"name": TOURNAMENT.name, "data": data,
                                                       "index": bad})
        assert status == 400 and "holds 1000" in said["error"]


@needs_browser
@needs_tournament
def test_choosing_another_puzzle_of_a_file_in_chromium(roomy_server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from satnono import load, uniqueness

    d = browser
    d.get(roomy_server.url + "/")
    d.find_element(By.ID, "file").send_keys(str(TOURNAMENT))
    _wait(d, lambda d: "number 1 is open" in d.find_element(By.ID, "message").text)
    which = Select(d.find_element(By.ID, "which"))
    assert d.find_element(By.ID, "which").is_displayed() and len(which.options) == 1000
    which.select_by_value("5")
    _wait(d, lambda d: "number 5 is open" in d.find_element(By.ID, "message").text)
    want = load(TOURNAMENT, index=5)
    rows = [td.text.replace("\n", " ") for td in d.find_elements(By.CSS_SELECTOR, "td.rowclue")]
    assert rows == [" ".join(str(b.length) for b in clue) or "0" for clue in want.rows]
    d.find_element(By.ID, "check").click()
    words = {"unique": "Unique solution", "multiple": "NOT unique: more than one solution"}
    shown = _wait(d, lambda d: d.find_element(By.ID, "verdict").text)
    assert shown == words[uniqueness(want).verdict.value]
    _shot(d, "7-many-puzzles")
    d.find_element(By.ID, "new").click()  # a drawing is not one of the file's puzzles
    assert not d.find_element(By.ID, "which").is_displayed()


@needs_browser
def test_undo_redo_the_keyboard_and_zoom_in_chromium(server, browser):
    """A maker's tools: a stroke is undone and redone as one (buttons and Ctrl-Z/Ctrl-Y),
    New drawing and opening a file are undone too; the arrows move a cursor and Space
    paints it, the digits choose the ink; + and - change the cells' size."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.get(server.url + "/")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    _new_drawing(d, 5, 4)

    def grid():
        return d.execute_script("return state.grid")

    def filled():
        return {(r, c) for r, row in enumerate(grid()) for c, v in enumerate(row) if v}

    assert not d.find_element(By.ID, "redo").is_enabled()
    ActionChains(d).click_and_hold(_cell(d, 0, 0)).move_to_element(_cell(d, 0, 1)) \
        .move_to_element(_cell(d, 0, 2)).move_to_element(_cell(d, 0, 3)).release().perform()
    assert filled() == {(0, 0), (0, 1), (0, 2), (0, 3)}
    ActionChains(d).click(_cell(d, 2, 2)).perform()
    d.find_element(By.ID, "undo").click()
    assert filled() == {(0, 0), (0, 1), (0, 2), (0, 3)}
    d.find_element(By.ID, "undo").click()  # the whole stroke at once
    assert filled() == set()
    d.find_element(By.ID, "redo").click()
    assert filled() == {(0, 0), (0, 1), (0, 2), (0, 3)}
    rows = [td.text for td in d.find_elements(By.CSS_SELECTOR, "td.rowclue")]
    assert rows == ["4", "0", "0", "0"]  # the clues follow the board back
    d.find_element(By.TAG_NAME, "body").click()
    ActionChains(d).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert filled() == set()
    ActionChains(d).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
    assert filled() == {(0, 0), (0, 1), (0, 2), (0, 3)}
    # the keyboard: the cursor is where the last click was, and the arrows move it
    ActionChains(d).click(_cell(d, 3, 0)).perform()  # paints (3, 0), the cursor there
    ActionChains(d).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.SPACE,
                              Keys.ARROW_UP, Keys.SPACE).perform()
    assert filled() == {(0, 0), (0, 1), (0, 2), (0, 3), (3, 0), (3, 2), (2, 2)}
    assert d.find_elements(By.CSS_SELECTOR, '#grid td.cell.cursor[data-r="2"][data-c="2"]')
    ActionChains(d).send_keys(Keys.SPACE).perform()  # Space again empties it
    assert (2, 2) not in filled()
    # New drawing is undone too
    d.find_element(By.ID, "new").click()
    assert filled() == set()
    d.find_element(By.ID, "undo").click()
    assert filled() == {(0, 0), (0, 1), (0, 2), (0, 3), (3, 0), (3, 2)}
    # zoom: larger and smaller cells
    before = _cell(d, 0, 0).size["width"]
    d.find_element(By.ID, "zoomin").click()
    d.find_element(By.ID, "zoomin").click()
    assert _cell(d, 0, 0).size["width"] >= before + 6
    ActionChains(d).send_keys("-", "-", "-").perform()
    assert _cell(d, 0, 0).size["width"] < before
    _shot(d, "8-undo-keyboard-zoom")


@needs_browser
@pytest.mark.parametrize("width", ["-3", "2.5", "0", "999"])
def test_a_wrong_width_is_said_and_the_drawing_kept_in_chromium(server, browser, width):
    """A width of -3 silently became 1: now the page says what a side may be and keeps
    the drawing it had."""
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url + "/")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    before = len(d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    box = d.find_element(By.ID, "width")
    box.clear()
    box.send_keys(width)
    d.find_element(By.ID, "new").click()
    said = _wait(d, lambda d: d.find_element(By.ID, "message").text)
    assert said.startswith("The width must be a whole number from 1 to "), said
    assert len(d.find_elements(By.CSS_SELECTOR, "#grid td.cell")) == before


@needs_browser
def test_colour_drawing_in_chromium(server, browser):
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url + "/")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    _new_drawing(d, 3, 2)
    _cell(d, 0, 0).click()  # black
    # the picker is set apart and named, not a swatch among the palette's inks
    adding = d.find_element(By.ID, "adding")
    assert adding.text.startswith("new colour")
    assert not d.find_elements(By.CSS_SELECTOR, "#palette #newcolour")
    assert adding.value_of_css_property("border-left-style") == "solid"
    d.find_element(By.ID, "addcolour").click()  # the colour input's red, chosen at once
    _cell(d, 0, 1).click()
    _cell(d, 1, 1).click()
    rows = d.find_elements(By.CSS_SELECTOR, "td.rowclue span.coloured")
    cols = d.find_elements(By.CSS_SELECTOR, "td.colclue span.coloured")
    # in colour every block's clue is drawn in its colour: black 1 and red 1, red 1;
    # black 1, red 2
    assert [s.text for s in rows] == ["1", "1", "1"] and [s.text for s in cols] == ["1", "2"]
    assert [s.value_of_css_property("background-color") for s in rows] == [
        "rgba(0, 0, 0, 1)", "rgba(208, 32, 32, 1)", "rgba(208, 32, 32, 1)"]
    d.find_element(By.ID, "check").click()
    assert _wait(d, lambda d: d.find_element(By.ID, "verdict").text) == "Unique solution"
    _shot(d, "5-colour")


@needs_browser
def test_the_page_after_solve_paint_limits_exports_and_big_pictures(server, browser, tmp_path):
    """Solve after Check clears the outlines and opens on the first solution; painting after
    Solve shows the drawing, not the replay; the cell limit is said when the size is
    chosen; Export offers only formats that hold the puzzle; a picture too large is offered
    scaled; column clues stand apart; the busy sign is drawn, not an emoji."""
    from PIL import Image
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url + "/")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    assert d.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href")
    assert "spinner" in d.find_element(By.ID, "busy").get_attribute("class")
    _new_drawing(d, 50, 50)  # the server takes 1600 cells: said now, not at Check
    assert "up to 1600 cells" in d.find_element(By.ID, "message").text
    assert "error" in d.find_element(By.ID, "status").get_attribute("class")
    assert len(d.find_elements(By.CSS_SELECTOR, "#grid td.cell")) != 2500
    _new_drawing(d, 4, 3)
    ActionChains(d).click(_cell(d, 0, 0)).click(_cell(d, 1, 1)).perform()
    ActionChains(d).click(_cell(d, 2, 2)).click(_cell(d, 2, 3)).perform()
    d.find_element(By.ID, "check").click()
    _wait(d, lambda d: d.find_element(By.ID, "verdict").text.startswith("NOT unique"))
    assert d.find_elements(By.CSS_SELECTOR, "#grid td.cell.amb")
    report = d.find_element(By.ID, "report").text
    assert "difficulty" not in report.lower()  # said once, above the report
    d.find_element(By.ID, "solve").click()
    _wait(d, lambda d: d.find_element(By.ID, "verdict").text.startswith("More than one"))
    assert not d.find_elements(By.CSS_SELECTOR, "#grid td.cell.amb, #grid td.cell.sw")
    step = d.execute_script("return state.at")
    assert d.find_element(By.ID, "whichstep").text.startswith(f"The first solution is "
                                                               f"complete at step {step + 1}")
    shown = d.execute_script("return state.replayGrid")
    first = d.execute_script("return state.steps.length")
    assert all(v is not None for row in shown for v in row) and step < first - 1
    _shot(d, "6-solved-multiple")
    # painting now: the drawing comes back, not the replay's grey cells
    _cell(d, 0, 3).click()
    assert not d.find_elements(By.CSS_SELECTOR, "#grid td.cell.unknown")
    assert not d.find_element(By.ID, "replay").is_displayed()
    assert d.execute_script("return state.grid[0][3]") == 1
    assert d.execute_script("return state.grid[0][0]") == 1  # the drawing as it was
    # column clues apart from their neighbours' (alternate shading)
    heads = d.find_elements(By.CSS_SELECTOR, "td.colclue")
    assert heads[0].value_of_css_property("background-color") != \
        heads[1].value_of_css_property("background-color")
    # Export: a colour drawing offers only the formats that hold colour
    options = lambda: [o.get_attribute("value") for o in  # noqa: E731
                       d.find_elements(By.CSS_SELECTOR, "#exportwhat option")]
    assert "japan" in options() and "webpbn" in options()
    d.find_element(By.ID, "addcolour").click()
    _cell(d, 1, 3).click()
    assert "japan" not in options() and "webpbn" in options() and "solution.png" in options()
    # a picture larger than the server takes: offered scaled, and opened so
    big = Image.new("L", (80, 60), 255)
    for x in range(10, 70):
        big.putpixel((x, 30), 0)
    big.save(tmp_path / "big.png")
    d.find_element(By.ID, "file").send_keys(str(tmp_path / "big.png"))
    fit = _wait(d, lambda d: d.find_elements(By.ID, "fit"))[0]
    assert "80×60" in d.find_element(By.ID, "message").text
    w, h = (int(x) for x in fit.text.split()[-1].split("×"))
    assert w * h <= 1600
    fit.click()
    _wait(d, lambda d: f"Opened a {w}×{h}" in d.find_element(By.ID, "message").text)
    _shot(d, "7-scaled-picture")


def test_serve_refuses_a_bad_port_a_busy_one_and_a_bad_host_in_one_line():
    import subprocess
    import sys

    def serve(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "satnono", "serve", *args],
                              capture_output=True, text=True, timeout=60)

    r = serve("--port", "99999")
    assert r.returncode == 2 and "a port from 1 to 65535" in r.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        r = serve("--port", str(busy.getsockname()[1]))
    assert r.returncode == 2 and r.stderr.strip().endswith("the port is in use")
    assert "serving on" not in r.stderr
    r = serve("--host", "no.such.host.invalid")
    assert r.returncode == 2 and "not an address to listen on" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def _take(mb: int) -> dict:
    block = bytearray(mb << 20)  # touched: the memory is really taken
    return {"took": len(block) >> 20}


def test_a_request_gets_its_memory_beyond_what_the_server_had():
    """The cap is on what a request's process maps beyond the server's own (a fork starts
    with all of it): 50 MB fit under a 200 MB cap, 400 MB do not, and the answer says so,
    however large the process that serves (this test's own is hundreds of MB)."""
    from satnono.web.app import Limits, Pool, _mapped

    assert _mapped() > 200 << 20  # the serving process is larger than the cap itself
    pool = Pool(Limits(timeout=30, memory=200 << 20, workers=1, queue=1))
    assert pool.run(_take, (50,)) == (200, {"took": 50})
    status, answer = pool.run(_take, (400,))
    assert status == 400 and "more memory than this server gives" in answer["error"]


def _page_served(port: int) -> None:
    """Wait until the server at ``port`` answers a request for its page."""

    def served() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                return r.status == 200
        except OSError:
            return False

    assert wait_for(served, 60), "the page was never served"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_server_stopped_on_request_stops_quietly_with_0(sig):
    """Ctrl-C (or SIGTERM, a service manager's stop) is how a server is meant to stop: one
    line saying so and status 0, not the "interrupted, the work is incomplete" of a
    command cut short."""
    import subprocess
    import sys

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "satnono", "serve", "--port", str(port)],
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a terminal's
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert first.startswith("satnono: serving on"), first
        _page_served(port)  # the server is up, its own handlers in place
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, err
    assert err == "satnono: stopped\n"


def test_open_without_a_browser_says_where_the_page_is(capsys, monkeypatch):
    from satnono.web.app import open_page

    monkeypatch.setenv("BROWSER", "/nonexistent/browser")  # the only browser: none
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert open_page("http://127.0.0.1:8000/") is False
    assert capsys.readouterr().err == ("satnono: no browser found on this machine; open "
                                       "http://127.0.0.1:8000/ in one\n")
