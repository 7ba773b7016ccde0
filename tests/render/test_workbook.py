"""workbook.pdf (--pdf): page count, paper sizes, pages not blank, raster or vector frames.

Rendered through poppler's ``pdftoppm`` (Debian: poppler-utils; .ci/run installs it)."""
from __future__ import annotations

import math
import os
import shutil
import subprocess

import pytest

from explainer import Puzzle
from render.export import write_puzzle
from render.plan import plan_frames
from render.workbook import page_count

FOUR = "3..22.....4....."


def _pdftoppm() -> str:
    exe = shutil.which("pdftoppm")
    if exe is None:
        (pytest.fail if os.environ.get("CI") else pytest.skip)(
            "no pdftoppm (apt-get install -y poppler-utils) to render workbook.pdf")
    return exe


def _pages(pdf, tmp_path, dpi=20):
    from PIL import Image

    subprocess.run([_pdftoppm(), "-r", str(dpi), "-png", str(pdf), str(tmp_path / "pg")], check=True,
                   capture_output=True, timeout=300)
    return [Image.open(p).convert("L") for p in sorted(tmp_path.glob("pg-*.png"))]


def _not_blank(im) -> bool:
    dark = sum(im.histogram()[:128])
    return dark > 0.002 * im.size[0] * im.size[1]


@pytest.mark.parametrize(("paper", "size_in"), [("a4", (8.27, 11.69)), ("letter", (8.5, 11.0))])
def test_workbook_pages(seed_puzzle, tmp_path, paper, size_in):
    out = tmp_path / "o"
    puzzle = seed_puzzle if paper == "a4" else Puzzle(FOUR)
    rec = write_puzzle(puzzle, out, frames=False, contact=False, gif=False, pdf=True, paper=paper)
    steps = len(puzzle.steps)
    want = 1 + math.ceil(steps / 2) + 1  # short captions: two steps a page
    assert rec.pdf_pages == page_count(plan_frames(puzzle), puzzle.grid.n, paper) == want
    assert (out / "workbook.pdf").read_bytes()[:5] == b"%PDF-"
    pages = _pages(out / "workbook.pdf", tmp_path)
    assert len(pages) == want
    for k, im in enumerate(pages, 1):
        assert abs(im.size[0] - size_in[0] * 20) <= 1 and abs(im.size[1] - size_in[1] * 20) <= 1, k
        assert _not_blank(im), f"page {k} is blank"


def _caption_text(pdf) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_raster_workbook_frames_are_images(seed_puzzle, tmp_path):
    """pdf_raster: each step's frame is one image, at the frame renderer's pixels (never
    resampled to the page), all of one size; the puzzle and solution pages are vector;
    captions are text."""
    import re

    rec = write_puzzle(seed_puzzle, tmp_path, frames=False, contact=False, gif=False, pdf=True,
                       only=["locked-candidate"], pdf_raster=True)
    data = (tmp_path / "workbook.pdf").read_bytes()
    steps = len(seed_puzzle.steps_using("locked candidate"))
    assert data.count(b"/Subtype /Image") == steps
    widths = [int(w) for w in re.findall(rb"/Subtype /Image /Width (\d+)", data)]
    assert len(set(widths)) == 1 and 350 <= widths[0] <= 800, widths  # about 120 dpi: 3 to 6 in wide
    if shutil.which("pdftotext"):
        k = seed_puzzle.steps_using("locked candidate")[0]
        assert seed_puzzle.steps[k].text.split(":")[0] in _caption_text(tmp_path / "workbook.pdf")
    assert rec.pdf_pages == 1 + math.ceil(steps / 2) + 1  # two steps a page
    assert all(_not_blank(im) for im in _pages(tmp_path / "workbook.pdf", tmp_path))


def test_workbook_is_vector_with_text(seed_puzzle, tmp_path):
    """By default the frames are paths (no embedded raster images); the captions are real text."""
    rec = write_puzzle(seed_puzzle, tmp_path, frames=False, contact=False, gif=False, pdf=True,
                       only=["locked-candidate"])
    data = (tmp_path / "workbook.pdf").read_bytes()
    assert b"/Subtype /Image" not in data
    if shutil.which("pdftotext"):
        text = _caption_text(tmp_path / "workbook.pdf")
        k = seed_puzzle.steps_using("locked candidate")[0]
        assert seed_puzzle.steps[k].text.split(":")[0] in text
    assert rec.pdf_pages == 1 + math.ceil(len(seed_puzzle.steps_using("locked candidate")) / 2) + 1


def test_pdf_flag_and_manifest(tmp_path):
    from explainer.app.cli import main

    out = tmp_path / "w"
    assert main([FOUR, "--out", str(out), "--pdf", "--paper", "letter", "--no-gif", "-q"]) == 0
    assert (out / "workbook.pdf").exists()
    manifest = (out / ".explain-sudoku-manifest.json").read_text()
    assert "workbook.pdf" in manifest
    ras = tmp_path / "r"
    assert main([FOUR, "--out", str(ras), "--pdf-raster", "--no-gif", "-q"]) == 0  # implies --pdf
    assert b"/Subtype /Image" in (ras / "workbook.pdf").read_bytes()
    assert b"/Subtype /Image" not in (out / "workbook.pdf").read_bytes()


# ---- issue 41, item 4: printed pages explain their marks; one frame size; pages filled --------

def test_pdf_pages_carry_the_legend(seed_puzzle, tmp_path):
    """Each step's legend (what its marks mean) is printed beside its frame, as text."""
    if not shutil.which("pdftotext"):
        pytest.skip("no pdftotext")
    write_puzzle(seed_puzzle, tmp_path, frames=False, contact=False, gif=False, pdf=True,
                 only=["locked-candidate", "chain"], lang="fr")
    text = " ".join(_caption_text(tmp_path / "workbook.pdf").split())
    plan = [f for f in plan_frames(seed_puzzle, only=["locked-candidate", "chain"], lang="fr") if f.kind == "step"]
    legends = {f.legend for f in plan if f.legend}
    assert legends
    for legend in legends:
        assert " ".join(legend.split()) in text, legend


def test_pdf_frame_size_does_not_follow_the_caption():
    """One box for every step: a long caption runs on under its frame, never shrinks it, and
    the next step follows on the same page when it fits."""
    from types import SimpleNamespace

    from render.workbook import paginate, step_box

    box = step_box(9)
    short, long_ = "A short caption.", "A long caption with many words. " * 60
    assert box.height(short, "") == box.frame_h
    beside, under = box.lines(long_, "Legend words.")
    assert under and under[-1] == ("Legend words.", True)
    assert box.frame_h < box.height(long_, "") < box.inner_h
    frames = [SimpleNamespace(caption=c, legend="") for c in (long_, short, short, short)]
    pages = paginate(frames, box)  # type: ignore[arg-type]
    assert [len(p) for p in pages] == [1, 2, 1] or [len(p) for p in pages] == [2, 2]
