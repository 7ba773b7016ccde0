"""The learner's page (``explain-sudoku serve``, issue 39) in a real browser: Playwright
driving Debian's Chromium against the real server, started in a subprocess on a free port.

CI needs what tests/render/test_viewer.py needs (``apt-get install -y chromium``,
``pip install playwright``) and the ``serve`` extra (Starlette, uvicorn).
"""
from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT, SEED, SHARED

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HARDEST = SHARED / "data" / "hardest300.txt"
STATIC = ROOT / "explainer" / "app" / "serve" / "static"
PAGE_BUDGET = 300_000  # bytes of the first load (issue 39)


def _missing() -> object:
    return pytest.fail if os.environ.get("CI") else pytest.skip


def hardest(line: int) -> str:
    return HARDEST.read_text().split()[line - 1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The real server on a free port: its base URL (or the one EXPLAIN_SUDOKU_SERVE_URL names,
    already running: a page developer's loop)."""
    if os.environ.get("EXPLAIN_SUDOKU_SERVE_URL"):
        yield os.environ["EXPLAIN_SUDOKU_SERVE_URL"].rstrip("/")
        return
    for module in ("starlette", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            _missing()(f"{module} not installed (pip install -e '.[serve]')")
    port = free_port()
    log = open(ROOT / ".pytest_cache" / f"serve-{port}.log", "w") if (ROOT / ".pytest_cache").is_dir() else None
    proc = subprocess.Popen([sys.executable, "-m", "explain_sudoku", "serve", "--port", str(port),
                             "--hint-seconds", "120"], cwd=ROOT,
                            stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/api/meta", timeout=2) as res:
                    json.load(res)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the server did not start (status {proc.poll()})")
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log:
            log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        _missing()("no /usr/bin/chromium (apt-get install -y chromium)")
    try:
        from playwright import sync_api
    except ImportError:
        _missing()("playwright not installed (pip install playwright)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class Page:
    """One learner's tab: a fresh browser context (its own storage) on the page, with the
    page's errors (script errors, CSP violations) collected."""

    def __init__(self, browser: object, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.goto(url)

    def goto(self, url: str) -> None:
        self.page.goto(url)
        if url.startswith("http"):
            self.page.wait_for_selector("body[data-ready]", state="attached")

    def wait(self, expression: str, timeout: float = 30) -> None:
        """Wait until a JavaScript expression is true (polled with evaluate: the page's CSP
        forbids the eval that wait_for_function uses)."""
        deadline = time.monotonic() + timeout
        while not self.page.evaluate(f"() => Boolean({expression})"):
            if time.monotonic() > deadline:
                raise AssertionError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    # ---- keyboard only ----
    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def active(self) -> str:
        return str(self.page.evaluate("() => document.activeElement.id || document.activeElement.className"))

    def tab_to(self, selector: str, limit: int = 120) -> None:
        """Tab (forwards) until the element ``selector`` has the focus."""
        for _ in range(limit):
            if self.page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
                return
            self.press("Tab")
        raise AssertionError(f"{selector} not reached with Tab (focus on {self.active()!r})")

    def activate(self, selector: str) -> None:
        self.tab_to(selector)
        self.press("Enter")

    def start(self, puzzle: str) -> None:
        """Start a puzzle with the keyboard: type it in the box, then the start button."""
        if not self.page.evaluate("document.getElementById('start-panel').open"):
            self.activate("#start-panel > summary")
        self.tab_to("#puzzle-text")
        self.page.keyboard.insert_text(puzzle)
        self.activate("#start")
        self.wait("document.querySelectorAll('[role=gridcell]').length > 0")
        self.wait(f"location.hash.includes({json.dumps(puzzle)})")

    def to_cell(self, r: int, c: int) -> None:
        """Focus the grid (its one tab stop), then go to cell (r, c) (0-based) with the keys."""
        self.tab_to("[role=gridcell][tabindex='0']")
        self.press("Control+Home")
        for _ in range(r):
            self.press("ArrowDown")
        for _ in range(c):
            self.press("ArrowRight")

    def label(self, r: int, c: int) -> str:
        n = self.page.evaluate("document.querySelectorAll('[role=row]').length")
        return str(self.page.get_attribute(f"[role=gridcell][data-i='{r * n + c}']", "aria-label"))

    def text(self, selector: str) -> str:
        return str(self.page.inner_text(selector))

    def close(self) -> None:
        assert not [e for e in self.errors if "Content Security Policy" in e], self.errors
        self.context.close()


@contextmanager
def learner(browser: object, url: str) -> Iterator[Page]:
    p = Page(browser, url)
    try:
        yield p
    finally:
        p.close()


def solution(puzzle: str) -> str:
    from explainer.api import Puzzle

    return Puzzle(puzzle).solution.to_line()


# ---------------------------------------------------------------------------------------------

def test_static_files_are_small_and_self_contained() -> None:
    """No CDN, no inline script or style, and the whole first load within the budget."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert "style=" not in html and "<style" not in html
    assert "<script " in html and "<script>" not in html
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "https://" not in text and "cdn" not in text.lower(), path.name
        if path.suffix == ".js":
            # styles through CSSOM (el.style.x = ...) or classes: no style attribute a CSP would block
            assert "setAttribute(\"style\"" not in text and "style=" not in text, path.name
    assert sum(p.stat().st_size for p in STATIC.iterdir()) < PAGE_BUDGET


def test_first_load_bytes_and_no_csp_violation(server, browser) -> None:
    sizes: list[int] = []
    with learner(browser, "about:blank") as p:
        p.page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
        p.goto(server + "/")
        p.page.wait_for_load_state("networkidle")
        assert 0 < sum(sizes) <= PAGE_BUDGET, sizes
        assert p.page.evaluate("document.querySelectorAll('[role=gridcell]').length") == 0
        assert not p.errors, p.errors


def test_bad_puzzle_is_one_line_and_a_generated_one_plays(server, browser) -> None:
    with learner(browser, server + "/") as p:
        p.tab_to("#puzzle-text")
        p.page.keyboard.insert_text("12345")
        p.activate("#start")
        p.wait("document.getElementById('error').textContent.length > 0")
        line = p.text("#error")
        assert "\n" not in line.strip() and "Traceback" not in line
        p.tab_to("#size")
        p.page.select_option("#size", "4")
        p.activate("#generate")
        p.wait("document.querySelectorAll('[role=gridcell]').length == 16")
        assert p.text("#error") == ""
        assert p.page.evaluate("document.querySelectorAll('#pad button').length") == 4


def test_keys_marks_undo_redo_and_reload(server, browser) -> None:
    """Values, marks (Space: mark mode), Backspace, Ctrl+Z / Ctrl+Y; a reload keeps the game
    and its history; the link restores it in another browser."""
    sol = solution(SEED)
    with learner(browser, server + "/") as p:
        p.start(SEED)
        assert p.page.evaluate("document.querySelectorAll('#cells [tabindex=\"0\"]').length") == 1
        p.to_cell(0, 1)  # r1c2, empty in the seed
        p.press(sol[1])
        assert p.label(0, 1) == f"row 1 column 2, {sol[1]}"
        p.press("Control+z")
        assert p.label(0, 1) == "row 1 column 2, empty"
        p.press("Control+y")
        assert p.label(0, 1).endswith(f", {sol[1]}")
        p.press("ArrowRight")  # r1c3
        p.press(" ")  # mark mode
        p.press("4")
        p.press("6")
        p.press("Shift+7")  # Shift: a mark in either mode
        assert p.label(0, 2) == "row 1 column 3, marks 4 6 7"
        p.press("7")
        assert p.label(0, 2) == "row 1 column 3, marks 4 6"
        p.press("ArrowLeft")
        p.press("ArrowLeft")
        p.press("5")  # a given: nothing changes
        assert p.label(0, 0) == "row 1 column 1, given 9"
        p.press("Control+End")
        p.press(" ")  # values again
        p.press(sol[80])
        p.press("Backspace")
        assert p.label(8, 8) == "row 9 column 9, empty"
        p.page.reload()
        p.page.wait_for_selector("body[data-ready]", state="attached")
        assert p.label(0, 1).endswith(f", {sol[1]}")
        assert p.label(0, 2) == "row 1 column 3, marks 4 6"
        p.to_cell(0, 0)
        p.press("Control+z")  # the erase of r9c9, undone after the reload
        assert p.label(8, 8).endswith(f", {sol[80]}")
        link = p.page.url
    assert "#p=" in link
    with learner(browser, link) as other:  # another browser: no storage, only the link
        assert other.label(0, 1).endswith(f", {sol[1]}")
        assert other.label(0, 2) == "row 1 column 3, marks 4 6"
        assert other.label(8, 8).endswith(f", {sol[80]}")


def test_check_names_a_wrong_value_and_a_removed_candidate(server, browser) -> None:
    sol = solution(SEED)
    empty = [i for i, ch in enumerate(SEED) if ch == "."]
    wrong_cell, marked_cell = empty[0], empty[5]
    n = 9
    with learner(browser, server + "/") as p:
        p.start(SEED)
        # a wrong value: any value but the solution's that no given in its row excludes
        p.page.click("#fill")  # the candidates, to pick a wrong value that is still possible
        label = p.label(*divmod(wrong_cell, n))
        options = [ch for ch in label.split("marks ")[1].split() if ch != sol[wrong_cell]]
        p.to_cell(*divmod(wrong_cell, n))
        assert "5" in options, options
        p.press("5")  # r1c2=5: its "why" needs a nested chain through the seed's pending singles (was a 500)
        # a true candidate removed: leave only the other marks in a cell
        p.to_cell(*divmod(marked_cell, n))
        p.press(" ")
        p.press(sol[marked_cell])
        p.press(" ")
        p.activate("#check")
        p.page.wait_for_selector("#mistakes li")
        items = p.page.eval_on_selector_all("#mistakes li", "ls => ls.map(l => l.textContent)")
        r, c = divmod(wrong_cell, n)
        r2, c2 = divmod(marked_cell, n)
        assert len(items) == 2, items
        assert any(f"r{r + 1}c{c + 1}" in t for t in items), items
        assert any(f"r{r2 + 1}c{c2 + 1}" in t and sol[marked_cell] in t for t in items), items
        assert p.page.evaluate("document.querySelectorAll('#svg .mistake').length") == 2
        # "why is it wrong": a drawn proof
        p.activate("#mistakes li button")
        p.wait("document.querySelector('#svg').classList.contains('scene')", 180)
        assert p.text("#caption")
        # a hint on a grid with mistakes gets the mistakes first
        p.activate("#show-step")
        p.wait("document.querySelectorAll('#mistakes li').length == 2")
        assert p.page.is_hidden("#apply")


def test_claim_typed_and_by_gesture_and_explain(server, browser) -> None:
    """"Check my step" typed (justified, then played; false) and made on the grid in claim
    mode; "explain the rest": the rating, the techniques and each step drawn on demand."""
    from explainer.api import Puzzle

    first = Puzzle(SEED, order="simplest").steps[0]
    r, c, v = first.place[0]
    sol = solution(SEED)
    with learner(browser, server + "/") as p:
        p.start(SEED)
        p.tab_to("#claim")
        p.page.keyboard.insert_text(f"r{r + 1}c{c + 1}={v}")
        p.activate("#claim-btn")
        p.page.wait_for_selector("#play-claim:visible")
        assert "justified" in p.text("#result-title")
        assert p.page.evaluate("document.querySelectorAll('#svg [data-role=placed]').length") >= 1
        p.activate("#play-claim")
        assert p.label(r, c).endswith(f", {v}")
        wrong = next(x for x in "123456789" if x != sol[1])
        p.tab_to("#claim")
        p.page.fill("#claim", f"r1c2={wrong}")
        p.activate("#claim-btn")
        p.wait("document.getElementById('result-title').textContent.includes('false')")
        # a gesture: claim mode on, a value typed in a cell is checked, not played
        p.activate("#claim-mode")
        p.to_cell(0, 1)
        p.press(wrong)
        p.wait("document.getElementById('claim').value === 'r1c2=" + wrong + "'")
        p.wait("document.getElementById('result-title').textContent.includes('false')")
        assert p.label(0, 1) == "row 1 column 2, empty"
        p.activate("#claim-mode")
        p.activate("#explain")
        p.page.wait_for_selector("#steps li", timeout=120_000)
        assert "ER" in p.text("#meta") and "single" in p.text("#meta").lower()
        count = p.page.evaluate("document.querySelectorAll('#steps li').length")
        assert count > 10
        p.activate("#steps li:nth-child(2) button")
        p.wait("document.querySelector('#svg').classList.contains('scene')", 120)
        assert p.text("#result-title").startswith("Step 2")


def test_solution_only_behind_a_confirm(server, browser) -> None:
    sol = solution(SEED)
    with learner(browser, server + "/") as p:
        p.start(SEED)
        p.page.once("dialog", lambda d: d.dismiss())
        p.activate("#solution")
        assert p.page.is_hidden("#result") and sol not in p.page.content()
        p.page.once("dialog", lambda d: d.accept())
        p.activate("#solution")
        p.wait("document.getElementById('caption').textContent.length > 0", 120)
        assert p.text("#caption") == sol
        assert p.page.evaluate("document.querySelectorAll('#svg [data-kind=value]').length") == 81


@pytest.mark.slow
def test_keyboard_learner_plays_the_seed_to_the_end(server, browser) -> None:
    """Only keys: the puzzle typed in, then "show the step" and "apply" until solved."""
    with learner(browser, server + "/") as p:
        p.start(SEED)
        p.activate("#fill")  # the hints start from the learner's marks, "apply" plays on them
        for _ in range(200):
            if "Solved" in p.text("#status"):
                break
            p.activate("#show-step")
            p.page.wait_for_selector("#apply:visible")
            assert p.page.evaluate("document.querySelectorAll('#svg [data-role]').length") > 0
            p.activate("#apply")
            p.page.wait_for_selector("#result", state="hidden")
        assert "Solved" in p.text("#status")


def walk(p: Page, levels: int = 2) -> list[str]:
    """Walk the proof's frames forwards, opening nested proofs down to ``levels`` deeper (the
    deepest ones fetched from the server on demand), then close them and walk back to the first."""
    seen = [p.text("#counter")]
    first = p.page.inner_html("#svg")
    opened = 0
    for _ in range(30):
        if opened < levels and p.page.is_visible("#deeper"):
            p.activate("#deeper")
            # opened, or (deeper levels fetched from the server) this frame opens none of them
            p.wait(f"/(level|niveau) {opened + 2}/.test(document.getElementById('counter').textContent) || "
                   "document.getElementById('deeper').hidden || document.getElementById('error').textContent", 240)
            assert not p.text("#error"), p.text("#error")
            if not re.search(f"(level|niveau) {opened + 2}", p.text("#counter")):
                p.activate("#next")
            else:
                opened += 1
        elif p.page.get_attribute("#next", "aria-disabled") == "true":
            break
        else:
            before = p.page.inner_html("#svg")
            p.activate("#next")
            assert p.page.inner_html("#svg") != before
        seen.append(p.text("#counter"))
    assert opened >= 1, seen  # hardest300 line 2's proof is nested
    while p.page.is_visible("#shallower"):
        p.activate("#shallower")
    for _ in range(40):
        if p.page.get_attribute("#prev", "aria-disabled") == "true":
            break
        p.activate("#prev")
    seen.append(p.text("#counter"))
    assert p.page.inner_html("#svg") == first
    return seen


def forcing_chain_hint(p: Page) -> None:
    p.start(hardest(2))
    p.activate("#show-step")
    p.page.wait_for_selector("#proof-nav:visible", timeout=120_000)
    assert "chain" in p.text("#result-title").lower() or "net" in p.text("#result-title").lower()


def test_forcing_chain_hint_walks_its_proof(server, browser) -> None:
    """hardest300 line 2: a nested forcing chain; its proof walked forwards, a nested proof
    opened (the levels the hint sent), closed, and walked back to the first frame."""
    with learner(browser, server + "/") as p:
        forcing_chain_hint(p)
        kinds = set(p.page.eval_on_selector_all("#svg [data-kind]", "es => es.map(e => e.dataset.kind)"))
        assert kinds & {"disk", "thick", "halo", "struck-ring"}, kinds
        seen = walk(p, levels=1)
        assert seen[0].startswith("Frame 1 of") and seen[-1].startswith("Frame 1 of")
        assert p.text("#caption") and p.text("#legend")
        for theme in p.page.eval_on_selector_all("#theme option", "os => os.map(o => o.value)"):
            p.page.select_option("#theme", theme)
            assert_text_contrast(p)


@pytest.mark.slow
def test_forcing_chain_deeper_levels_fetched_on_demand(server, browser) -> None:
    """The levels a hint left out (the server's "deeper") are fetched when the learner opens them."""
    with learner(browser, server + "/") as p:
        forcing_chain_hint(p)
        seen = walk(p, levels=2)
        assert any("level 3" in s for s in seen), seen


def drawn_shapes(p: Page) -> dict[str, int]:
    """(role, kind, cell, value) of every shape the page's SVG draws, counted."""
    out: dict[str, int] = {}
    for key in p.page.eval_on_selector_all(
            "#svg [data-role]:not([data-kind=head])",
            "es => es.map(e => [e.dataset.role, e.dataset.kind, e.dataset.cell || '', e.dataset.value || '']"
            ".join('|'))"):
        out[key] = out.get(key, 0) + 1
    return out


def test_the_svg_draws_every_shape_of_the_scene(server, browser) -> None:
    """The page draws the scene the server sends shape for shape (the PNG renderer draws the same
    scene: render.scenejson), for every frame of a forcing chain's proof."""
    with learner(browser, server + "/") as p:
        p.start(hardest(2))
        with p.page.expect_response("**/api/hint") as answer:
            p.activate("#show-step")
        scenes = answer.value.json()["scenes"]
        p.page.wait_for_selector("#proof-nav:visible")
        for k, scene in enumerate(scenes):
            if k:
                p.activate("#next")
            want: dict[str, int] = {}
            for s in scene["shapes"]:
                if s["kind"] in ("text", "candidate"):
                    continue
                cell = f"{s['row']},{s['col']}" if s["row"] >= 0 else ""
                key = "|".join([s["role"], s["kind"], cell, str(s["value"]) if s["value"] else ""])
                want[key] = want.get(key, 0) + 1
            assert drawn_shapes(p) == want, (k, scene["suffix"])
            plain = sum(1 for s in scene["shapes"] if s["kind"] == "candidate")
            assert p.page.evaluate("document.querySelectorAll('#svg text.cand').length") == plain
            assert p.text("#caption") == scene["caption"]
            if p.page.get_attribute("#next", "aria-disabled") == "true":
                break


def test_every_shape_kind_is_drawn(server, browser) -> None:
    """Each kind of render.shapes.Shape has its SVG (links with arrowheads when directed)."""
    kinds = ["value", "candidate", "fill", "outline", "circle", "square", "band", "solid", "dashed", "dotted",
             "thick", "disk", "light", "ring", "struck", "struck-ring", "halo", "strong", "weak", "arrow", "label"]
    with learner(browser, server + "/") as p:
        out = p.page.evaluate("""async (kinds) => {
          const {sceneMarkup} = await import('/static/draw.js');
          const meta = await (await fetch('/api/meta')).json();
          const shapes = kinds.map((kind, k) => ({role: 'r' + k, kind, row: k % 9, col: (k * 2) % 9, value: 1 + k % 9,
            house: ['solid', 'dashed', 'dotted', 'thick'].includes(kind) ? ['box', k % 9] : null,
            points: ['band', 'strong', 'weak', 'arrow'].includes(kind) ? [[0.5, 0.5], [4.5, 2.5], [8.5, 8.5]] : [],
            text: kind === 'label' ? '3' : '', colour: 'tint' + (k % 6), group: null, faint: false,
            directed: kind !== 'weak', truth: true}));
          const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
          svg.innerHTML = sceneMarkup({n: 9, m: 3, shapes}, meta.themes.default);
          return {kinds: [...svg.querySelectorAll('[data-kind]')].map(e => e.dataset.kind),
                  cands: svg.querySelectorAll('text.cand').length};
        }""", kinds)
        drawn = set(out["kinds"])
        assert set(kinds) - {"candidate"} <= drawn, set(kinds) - drawn
        assert out["cands"] == 1 and "head" in drawn


def test_french_and_another_theme(server, browser) -> None:
    with learner(browser, server + "/") as p:
        p.tab_to("#lang")
        p.page.select_option("#lang", "fr")
        assert p.text("#hint") == "Indice"
        p.start(SEED)
        assert p.label(0, 0) == "ligne 1 colonne 1, donnée 9"
        p.activate("#hint")
        p.wait("document.getElementById('caption').textContent.length > 0")
        assert p.text("#caption").startswith("Cherchez")
        assert p.text("#hint") == "En dire plus"
        p.activate("#show-step")
        p.page.wait_for_selector("#apply:visible")
        p.press("Escape")  # closes the drawn step
        assert p.page.is_hidden("#result")
        p.activate("#show-step")
        p.page.wait_for_selector("#apply:visible")
        placed = "#svg [data-role=placed] text"
        before = p.page.get_attribute(placed, "fill")
        p.tab_to("#theme")
        p.page.select_option("#theme", "colorblind")
        after = p.page.get_attribute(placed, "fill")
        assert before != after
        assert_text_contrast(p)
        p.page.reload()
        p.page.wait_for_selector("body[data-ready]", state="attached")
        assert p.page.input_value("#theme") == "colorblind" and p.text("#hint") == "Indice"
        # every string of the page is French: no English word left on the buttons
        texts = p.page.eval_on_selector_all("button, label, summary, h1, h2", "es => es.map(e => e.textContent)")
        english = {"Hint", "Undo", "Redo", "Erase", "Check my grid", "Show the step", "Apply", "Dismiss"}
        assert not english & {t.strip() for t in texts}, texts


def assert_text_contrast(p: Page) -> None:
    """Every text of the page reads at 4.5:1 or more on what is behind it: the page's own
    (computed colours) and the grid's digits (plain, or on a disk)."""
    low = p.page.evaluate("""() => {
      const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map(x => { x /= 255; return x <= 0.04045 ? x / 12.92
        : ((x + 0.055) / 1.055) ** 2.4; }).reduce((a, x, i) => a + x * [0.2126, 0.7152, 0.0722][i], 0);
      const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + .05) / (y + .05); };
      const hex = h => [1, 3, 5].map(k => parseInt(h.slice(k, k + 2), 16));
      const bg = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
        if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3); } return [255, 255, 255]; };
      const out = [];
      for (const el of document.querySelectorAll('body *:not(svg *)')) {
        if (!el.offsetParent || ![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
        const r = ratio(rgb(getComputedStyle(el).color), bg(el));
        if (r < 4.5) out.push([el.id || el.tagName, el.textContent.slice(0, 30), r]);
      }
      const back = document.querySelector('#svg > rect').getAttribute('fill');
      for (const t of document.querySelectorAll('#svg text')) {
        const disk = t.previousElementSibling && t.previousElementSibling.tagName === 'circle'
          && t.previousElementSibling.getAttribute('fill') !== 'none' ? t.previousElementSibling.getAttribute('fill')
          : back;
        const r = ratio(hex(t.getAttribute('fill')), hex(disk));
        if (r < 4.5) out.push(['svg', t.textContent, r]);
      }
      return out;
    }""")
    assert not low, low


def test_every_control_is_reachable_by_keyboard(server, browser) -> None:
    with learner(browser, server + "/") as p:
        p.start(SEED)
        p.activate("#show-step")
        p.page.wait_for_selector("#apply:visible")
        reached: set[str] = set()
        p.page.evaluate("document.activeElement.blur()")
        for _ in range(200):
            p.press("Tab")
            info = p.page.evaluate("""() => { const e = document.activeElement;
              if (e === document.body) return null;
              return {key: e.id || e.getAttribute('role') || e.value || e.textContent.trim(),
                      summary: e.tagName === 'SUMMARY', open: e.tagName === 'SUMMARY' && e.parentElement.open,
                      visible: e.matches(':focus-visible')}; }""")
            if info is None:  # out of the page and back
                continue
            assert info["visible"], info  # a visible focus
            if info["summary"] and not info["open"]:
                p.press("Enter")  # open the section, then go on into it
            reached.add(info["key"])
        controls = p.page.evaluate("""() => [...document.querySelectorAll(
              'button, select, input, textarea, summary, [role=gridcell][tabindex="0"]')]
            .filter(e => e.getClientRects().length && !e.closest('[hidden]') && !e.disabled)
            .map(e => e.id || e.getAttribute('role') || e.value || e.textContent.trim())""")
        assert set(controls) - reached == set(), sorted(set(controls) - reached)


def test_a_slow_request_shows_progress_and_can_be_cancelled(server, browser) -> None:
    with learner(browser, server + "/") as p:
        p.start(SEED)
        held = []
        p.page.route("**/api/hint", lambda route: held.append(route))
        p.activate("#show-step")
        p.page.wait_for_selector("#busy:visible", timeout=5000)
        p.activate("#cancel")
        p.page.wait_for_selector("#busy", state="hidden")
        assert p.text("#error") == "Cancelled."
        for route in held:
            try:
                route.abort()
            except Exception:  # the page already dropped it
                pass


def test_model_round_trips(server, browser) -> None:
    """The game's storage and link forms give the same game back; undo and redo without limit."""
    with learner(browser, server + "/") as p:
        out = p.page.evaluate("""async (seed) => {
          const {Game, packMarks, unpackMarks} = await import('/static/model.js');
          const g = new Game(seed);
          g.place(1, 5); g.toggleMark(2, 4); g.toggleMark(2, 9); g.fillCandidates();
          for (let k = 0; k < 30; k++) g.place(3 + (k % 5), 1 + (k % 9));
          const back = Game.fromJSON(JSON.parse(JSON.stringify(g)));
          const link = Game.fromFragment(g.fragment());
          let undone = 0; while (back.undo()) undone++;
          const big = new Game('.'.repeat(625)); big.toggleMark(624, 25); big.toggleMark(0, 1);
          return {same: JSON.stringify(back.toJSON().puzzle) === JSON.stringify(seed),
                  link: link.values.join() === g.values.join() && link.marksLine() === g.marksLine(),
                  undone, start: back.values.join() === new Game(seed).values.join(),
                  big: unpackMarks(packMarks(big), 25).join() === big.marks.join()};
        }""", SEED)
        assert out == {"same": True, "link": True, "undone": out["undone"], "start": True, "big": True}
        assert out["undone"] >= 20


def test_ticked_techniques_and_order_are_sent_and_remembered(server, browser) -> None:
    with learner(browser, server + "/") as p:
        p.start(SEED)
        p.activate("#tech-panel > summary")
        p.activate("#tech-none")
        p.tab_to("#techs input[value='single position']")
        p.press("Space")
        p.page.select_option("#order", "seed")
        p.page.reload()
        p.page.wait_for_selector("body[data-ready]", state="attached")
        assert p.page.is_checked("#techs input[value='single position']")
        assert not p.page.is_checked("#techs input[value='single candidate']")
        with p.page.expect_request("**/api/hint") as sent:
            p.activate("#hint")
        body = json.loads(sent.value.post_data or "{}")
        assert body["techniques"] == ["single position"] and body["order"] == "seed"
        p.wait("document.getElementById('caption').textContent.length > 0")
        assert "single position" in p.text("#caption").lower()


def test_every_string_in_both_languages(server, browser) -> None:
    with learner(browser, server + "/") as p:
        keys = p.page.evaluate("""async () => {
          const {STRINGS} = await import('/static/i18n.js');
          const used = [...document.querySelectorAll('[data-i18n], [data-i18n-label]')]
            .map(e => e.dataset.i18n || e.dataset.i18nLabel);
          return {en: Object.keys(STRINGS.en).sort(), fr: Object.keys(STRINGS.fr).sort(),
                  missing: used.filter(k => !(k in STRINGS.en) || !(k in STRINGS.fr))};
        }""")
        assert keys["en"] == keys["fr"] and not keys["missing"], keys["missing"]


def test_a_setting_saved_under_the_old_name_palette_is_the_theme(server, browser) -> None:
    """Issue 40 item 3: the page says "theme" (as --theme does); a choice an older page saved
    as "palette" is read as the theme, and saved again under the new name."""
    with learner(browser, server + "/") as p:
        p.page.evaluate("localStorage.setItem('sudoku-explainer.settings', JSON.stringify({palette: 'colorblind'}))")
        p.page.reload()
        p.page.wait_for_selector("body[data-ready]", state="attached")
        assert p.page.input_value("#theme") == "colorblind"
        assert p.page.evaluate("document.body.dataset.theme") == "colorblind"
        p.page.select_option("#theme", "high-contrast")
        saved = p.page.evaluate("JSON.parse(localStorage.getItem('sudoku-explainer.settings'))")
        assert saved["theme"] == "high-contrast" and "palette" not in saved


def screenshot_chain_hint(base: str, path: Path, theme: str = "default", lang: str = "en") -> None:
    """The page showing the forcing-chain hint of hardest300 line 2 (docs/serve-chain-hint.png)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        p = Page(b, base + "/")
        p.page.select_option("#lang", lang)
        p.page.select_option("#theme", theme)
        p.start(hardest(2))
        p.page.click("#show-step")
        p.page.wait_for_selector("#proof-nav:visible", timeout=120_000)
        p.page.click("#next")
        p.page.evaluate("window.scrollTo(0, 0)")
        p.page.screenshot(path=str(path), full_page=False)
        b.close()


if __name__ == "__main__":  # python tests/serve/test_page.py URL OUT.png [theme] [lang]
    screenshot_chain_hint(sys.argv[1], Path(sys.argv[2]), *sys.argv[3:5])


def test_hint_levels_ask_the_server_once(server, browser) -> None:
    """Levels 1, 2 and the drawn step of one position come from one level-3 answer (its "texts"):
    one request; a move asks again."""
    with learner(browser, server + "/") as p:
        p.start(SEED)
        sent: list[dict] = []
        p.page.on("request", lambda r: sent.append(json.loads(r.post_data or "{}")) if "/api/hint" in r.url else None)
        p.activate("#hint")
        p.wait("document.getElementById('caption').textContent.length > 0")
        first = p.text("#caption")
        p.activate("#hint")
        p.wait(f"document.getElementById('caption').textContent !== {json.dumps(first)}")
        p.activate("#show-step")
        p.page.wait_for_selector("#apply:visible")
        assert [b["level"] for b in sent] == [3], sent
        p.activate("#apply")
        p.page.wait_for_selector("#result", state="hidden")
        p.activate("#hint")
        p.wait("document.getElementById('caption').textContent.length > 0")
        assert len(sent) == 2
