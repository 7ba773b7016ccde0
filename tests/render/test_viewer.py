"""The HTML viewer in a real browser: Playwright driving Debian's Chromium.

CI needs: ``apt-get install -y chromium`` (gives /usr/bin/chromium) and
``pip install playwright`` (the Python package only; no ``playwright install``).
"""
import json
import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def test_index_html_is_self_contained(seed_out):
    out, rec = seed_out
    page = Path(rec.html).read_text(encoding="utf-8")
    assert "<script" in page and "http://" not in page and "https://" not in page
    for name in re.findall(r'"src": "([^"]+)"', page):
        assert (out / name).exists()


def test_viewer_in_chromium(seed_out, seed_puzzle):
    out, rec = seed_out
    with viewer_page(Path(rec.html).as_uri()) as page:
        page.wait_for_function("document.getElementById('frame').complete")
        src0 = page.get_attribute("#frame", "src")
        cap0 = page.inner_text("#caption")
        assert src0.startswith("000-INITIAL-GRID")
        page.click("#next")
        src1 = page.get_attribute("#frame", "src")
        cap1 = page.inner_text("#caption")
        assert src1 != src0 and src1.startswith("001-")
        assert cap1 != cap0 and cap1 == seed_puzzle.steps[0].text
        page.wait_for_function("document.getElementById('frame').naturalWidth > 0")
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#frame", "src").startswith("002-")
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("#frame", "src").startswith("001-")
        k = seed_puzzle.steps_using("locked candidate")[0]
        page.click(f"aside button.jump:text-is('{k + 1}')")
        assert page.inner_text("#caption") == seed_puzzle.steps[k].text
        # the counter shows the title's step number (1-based; the initial grid is 0)
        assert page.inner_text("#counter") == f"{k + 1} / {len(seed_puzzle.steps)}"
        assert page.inner_text("#heading").startswith(f"Step {k + 1} ")
        shot = out / "viewer.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000


@contextmanager
def viewer_page(url):
    """A 1280x900 Chromium page (Playwright, Debian's Chromium) at ``url``; on a developer's
    machine without a browser the test says what to install; CI (.ci/run installs both)
    must really run it."""
    missing = pytest.fail if os.environ.get("CI") else pytest.skip
    if not os.path.exists(CHROMIUM):
        missing("no /usr/bin/chromium (apt-get install -y chromium)")
    try:
        from playwright import sync_api
    except ImportError:
        missing("playwright not installed (pip install playwright)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            yield page
        finally:
            browser.close()


def test_viewer_layout_speed_and_folder_note(seed_out, seed_puzzle):
    """At 1280x900: the caption once (the frame's own caption strip cropped off), whole and on
    screen; the folder note; a speed control; the initial grid counted 0."""
    out, rec = seed_out
    with viewer_page(Path(rec.html).as_uri()) as page:
        page.wait_for_function("document.getElementById('frame').naturalWidth > 0")
        assert page.inner_text("#counter") == f"0 / {len(seed_puzzle.steps)}"
        assert "copy the whole folder" in page.inner_text("#note")
        longest = max(range(len(seed_puzzle.steps)), key=lambda i: len(seed_puzzle.steps[i].text))
        page.click(f"aside button.jump:text-is('{longest + 1}')")
        page.wait_for_timeout(100)
        box = page.evaluate("""() => {
            const r = e => document.getElementById(e).getBoundingClientRect();
            const c = document.getElementById('caption');
            return {img: r('box'), cap: r('caption'), scroll: c.scrollHeight, client: c.clientHeight,
                    nat: [document.getElementById('frame').naturalWidth,
                          document.getElementById('frame').naturalHeight]};
        }""")
        assert box["cap"]["bottom"] <= 900 and box["img"]["bottom"] <= box["cap"]["top"] + 1
        assert box["scroll"] <= box["client"] + 1  # the caption is not cut
        assert box["img"]["height"] > 400
        # the frame's own caption strip is not shown: the box is wider than the frame's ratio
        w, h = box["nat"]
        assert box["img"]["width"] / box["img"]["height"] > w / h * 1.05
        page.wait_for_selector("#speed")
        assert page.eval_on_selector_all("#speed option", "os => os.map(o => o.value)") == [
            "0.5", "1", "1.5", "2", "3"]
        page.screenshot(path=str(out / "viewer-1280x900.png"))


def test_standalone_viewer_works_copied_alone(seed_puzzle, tmp_path):
    from render.export import write_puzzle

    out = tmp_path / "o"
    rec = write_puzzle(seed_puzzle, out, html_standalone=True, gif=False, contact=False)
    page_text = Path(rec.html).read_text(encoding="utf-8")
    srcs = re.findall(r'"src": "([^"]+)"', page_text)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert 'id="note"' not in page_text
    alone = tmp_path / "elsewhere"
    alone.mkdir()
    copy = alone / "index.html"
    copy.write_text(page_text, encoding="utf-8")
    with viewer_page(copy.as_uri()) as page:
        page.wait_for_function("document.getElementById('frame').naturalWidth > 0")
        page.click("#next")
        page.wait_for_function("document.getElementById('frame').naturalWidth > 0")
        assert page.inner_text("#counter") == f"1 / {len(seed_puzzle.steps)}"


def test_grouped_singles_numbered_in_order(seed_puzzle):
    from render.plan import plan_frames

    plan = plan_frames(seed_puzzle, group_singles=True)
    f = next(f for f in plan if f.technique == "singles")
    order = [(s.row, s.col, int(s.text)) for s in f.scene.of("order")]
    place = [p for k in f.steps for p in seed_puzzle.steps[k].place]
    assert [k for _, _, k in order] == list(range(1, len(place) + 1))
    assert [(r, c) for r, c, _ in order] == [(r, c) for r, c, _ in place]
    cap = f.scene.text("caption")
    spots = [cap.index(f"({k}) r{r + 1}c{c + 1}={v}") for k, (r, c, v) in enumerate(place, 1)]
    assert spots == sorted(spots)


def test_step_list_counts_steps_not_frames(tmp_path):
    """The step list's count per technique is its steps: a forcing step's sub-frames
    (``1a``, ``1b01`` …, nested ones included) are buttons of that step, not more steps."""
    import re

    from explainer import Puzzle
    from render.plan import plan_frames
    from render.viewer import write_viewer
    from tests.conftest import SHARED

    line = (SHARED / "data" / "hardest300.txt").read_text().split("\n")[1].split()[0]
    p = Puzzle(line, max_steps=3)
    plan = plan_frames(p, only="forcing chain", depth=3)
    steps = {f.steps for f in plan if f.kind == "step"}
    assert len([f for f in plan if f.kind == "step"]) > 2 * len(steps)  # sub-frames, nested ones too
    page = write_viewer(tmp_path, plan, [f"{k}.png" for k in range(len(plan))], puzzle=p).read_text()
    (count,) = re.findall(r"<summary>forcing chain \((\d+)\)</summary>", page)
    assert int(count) == len(steps)


def test_viewer_shows_the_legend_under_the_caption(seed_puzzle, tmp_path):
    """Issue 34 (seed, --lang fr --html): the viewer crops the frame's caption strip and showed
    the caption alone, so the legend (what each mark means) never appeared."""
    from render.export import write_puzzle
    from render.scene import scene

    rec = write_puzzle(seed_puzzle, tmp_path / "fr", html=True, gif=False, contact=False, lang="fr")
    k = seed_puzzle.steps_using("locked candidate")[0]
    step = seed_puzzle.steps[k]
    legend = scene(step.before, step, number=k + 1, lang="fr").text("legend")
    assert "disques en vert : les valeurs du motif" in legend
    assert json.dumps(legend, ensure_ascii=False) in Path(rec.html).read_text(encoding="utf-8")
    with viewer_page(Path(rec.html).as_uri()) as page:
        page.click(f"aside button.jump:text-is('{k + 1}')")
        assert page.inner_text("#caption") == dict(step.translations)["fr"]
        assert page.inner_text("#legend") == legend
        box = page.evaluate("""() => {
            const r = e => document.getElementById(e).getBoundingClientRect();
            return {cap: r('caption'), leg: r('legend')};
        }""")
        assert box["cap"]["bottom"] <= box["leg"]["top"] + 1 and box["leg"]["bottom"] <= 900
