"""``satnono serve``: the API on a real uvicorn server (limits, bad input, 20 requests at
once) and the page in a real Chromium (Debian's chromium and chromium-driver, through
Selenium): draw, check, open a file, solve and replay, count, export."""

from __future__ import annotations

import json
import os
import shutil
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


@pytest.fixture(scope="module")
def server():
    with Server(Limits(timeout=5, cells=40 * 40, body=200_000, workers=2, queue=4)) as s:
        yield s


def puzzle(rows, columns, goal=None) -> str:
    obj = {"rows": rows, "columns": columns}
    if goal:
        obj["goal"] = goal
    return json.dumps(obj)


def test_check_solve_count_and_export_answer_as_the_library_does(server):
    p = puzzle([[1], [1]], [[1], [1]], ["#.", ".#"])
    status, data = server.post("/api/check", {"puzzle": p})
    assert status == 200 and data["verdict"] == "multiple" and data["complete"]
    assert sorted(map(tuple, data["ambiguous"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert data["switches"] == [[0, 0]] and "search" in data["rating"]
    assert sorted(data["solutions"]) == [["#.", ".#"], [".#", "#."]]
    status, data = server.post("/api/solve", {"puzzle": p})
    assert status == 200 and data["verdict"] == "multiple" and len(data["solutions"]) == 2
    assert data["steps"] and all({"text", "board", "kind"} <= set(s) for s in data["steps"])
    status, data = server.post("/api/count", {"puzzle": puzzle([[1]] * 6, [[1]] * 6)})
    assert status == 200 and data["count"] == "720" and data["complete"]
    status, data = server.post("/api/export", {"puzzle": p, "what": "non"})
    assert status == 200 and data["name"] == "puzzle.non" and "rows" in data["text"]
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


def test_bad_input_gets_the_one_line_message_and_no_traceback(server):
    status, data = server.post("/api/check", {"puzzle": puzzle([[5]], [[1]])})
    assert status == 400 and data["error"] == ("puzzle.json: row 1: clue 5 needs 5 cells, "
                                               "the row has 1")
    status, data = server.post("/api/check", b"not json")
    assert status == 400 and data["error"] == "the request is not JSON"
    status, data = server.post("/api/check", {"puzzle": 5})
    assert status == 400 and "expected puzzle as text" in data["error"]
    status, data = server.post("/api/export", {"puzzle": puzzle([[1]], [[1]]), "what": "x"})
    assert status == 400 and "unknown export 'x'" in data["error"]
    import base64

    status, data = server.post("/api/open", {"name": "bad.non",
                                             "data": base64.b64encode(b"width 2\n").decode()})
    assert status == 400 and data["error"].startswith("bad.non") and "Traceback" not in str(data)


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
    assert {s for s, _ in answers} <= {200, 503}
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
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: test(d))


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
    for field, value in (("width", "4"), ("height", "3")):
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    d.find_element(By.ID, "new").click()
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
    assert exported["name"] == "puzzle.json" and json.loads(exported["text"])["rows"]
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


@needs_browser
def test_colour_drawing_in_chromium(server, browser):
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url + "/")
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#grid td.cell"))
    for field, value in (("width", "3"), ("height", "2")):
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    d.find_element(By.ID, "new").click()
    _cell(d, 0, 0).click()  # black
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
