"""Issue 34: levels of detail on a real nested proof, frames encoded as they are drawn (one
at a time, nothing accumulates), the video and its missing extra."""
from __future__ import annotations

import inspect
import sys

import numpy as np
import pytest

from explainer import Puzzle
from render import proofdraw
from render.plan import plan_frames
from tests.conftest import SHARED

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


@pytest.fixture(scope="module")
def hardest2():
    """hardest300 line 2: its forcing steps rest on nested contradictions."""
    line = (SHARED / "data" / "hardest300.txt").read_text().split("\n")[1].split()[0]
    return Puzzle(line)


def test_levels_of_a_real_nested_proof(hardest2):
    proof = hardest2.steps[0].proof
    assert proof is not None and proof.level >= 1
    by_depth = {d: proofdraw.plan(proof, depth=d) for d in (0, 1, 2, 3, proofdraw.ALL)}
    assert by_depth[0] == []
    first = by_depth[1]
    assert 1 <= len(first) <= len(by_depth[2])  # what the end rests on: never more than every fact
    assert {p.level for p in first} == {1}
    # each level adds frames, and a frame's name does not depend on the depth drawn
    suffixes = {d: [p.suffix for p in parts] for d, parts in by_depth.items()}
    for lo, hi in ((1, 2), (2, 3), (3, proofdraw.ALL)):
        assert set(suffixes[lo]) < set(suffixes[hi]) or hi == proofdraw.ALL, (lo, hi)
        assert set(suffixes[lo]) <= set(suffixes[hi])
        assert [s for s in suffixes[hi] if s in suffixes[lo]] == suffixes[lo]  # same order
        assert max(p.level for p in by_depth[hi]) <= hi
    assert max(p.level for p in by_depth[proofdraw.ALL]) >= 3  # the nested proofs, one level deeper each


@pytest.mark.parametrize(("lang", "dotted"), [("en", "dotted"), ("fr", "pointillés")])
def test_legend_names_the_deciding_house_only_when_drawn(hardest2, lang, dotted):
    """A proof frame's legend says "dotted: the house that decides" only on a frame that
    draws such a house (hardest300 line 2's frame 005b drew none and said it)."""
    plan = plan_frames(hardest2, lang=lang, depth=1)
    with_house = without = 0
    for f in plan:
        legend = f.scene.text("legend")
        if not legend.startswith(("Thick", "Anneau épais", "Anneaux épais")):
            continue
        drawn = any(s.kind == "dotted" and s.house is not None for s in f.scene)
        assert (dotted in legend) == drawn, (f.stem, legend)
        with_house += drawn
        without += not drawn
    assert with_house and without  # both kinds of frame occur: the test can fail either way


def test_files_per_level(hardest2, tmp_path):
    """The frames written at each depth: the steps' frames alone at 0, a handful more per
    forcing step at 1 (the default: what the end rests on), every fact at "all"; the GIF shows level 1 at most."""
    from PIL import Image

    from render.export import write_puzzle

    only = "forcing chain"
    plans = {d: plan_frames(hardest2, only=only, depth=d) for d in (0, 1, proofdraw.ALL)}
    forcing = sum(1 for s in hardest2.steps if s.technique == only)
    assert forcing >= 2
    assert len(plans[0]) == forcing + 2  # initial grid, the steps, the solution
    subs1 = len(plans[1]) - len(plans[0])
    assert forcing <= subs1 <= len(plans[proofdraw.ALL]) - len(plans[0])
    assert len(plans[proofdraw.ALL]) > 2 * len(plans[1])
    out = tmp_path / "o"
    rec = write_puzzle(hardest2, out, only=only, contact=False, proof_depth=1, workers=1)
    assert [p.rsplit("/", 1)[-1] for p in rec.frames] == [f"{f.stem}.png" for f in plans[1]]
    assert len(list(out.glob("*.png"))) == len(plans[1])
    with Image.open(rec.gif) as gif:
        assert gif.n_frames <= len(plans[1])
    assert rec.gif_frames == gif.n_frames
    deep = write_puzzle(hardest2, tmp_path / "deep", only=only, contact=False, gif=False, frames=False, html=True,
                        proof_depth=2, gif_proof_depth=0)
    page = (tmp_path / "deep" / "index.html").read_text(encoding="utf-8")
    plan2 = plan_frames(hardest2, only=only, depth=2)
    assert any(f.level == 2 for f in plan2)
    assert page.count("data:image/") == len(plan2)  # the viewer holds the deeper frames too
    assert deep.gif is None


def test_frames_are_encoded_one_at_a_time(seed_puzzle, tmp_path, monkeypatch):
    """Each frame reaches the GIF encoder before the next one is drawn (one worker): the
    frames are a generator, never a list."""
    from render import gif, workers
    from render.export import write_puzzle

    assert inspect.isgeneratorfunction(workers.render_frames)
    events: list[tuple[str, int]] = []
    draw_one = workers._render_one

    def drawn(i):
        events.append(("draw", i))
        return draw_one(i)

    write = gif.GifStream.write

    def encoded(self, indices, **kw):
        events.append(("gif", len([e for e in events if e[0] == "draw"])))
        return write(self, indices, **kw)

    monkeypatch.setattr(workers, "_render_one", drawn)
    monkeypatch.setattr(gif.GifStream, "write", encoded)
    rec = write_puzzle(seed_puzzle, tmp_path, only="locked candidate", frames=False, contact=False, workers=1)
    draws = [i for kind, i in events if kind == "draw"]
    gifs = [e for e in events if e[0] == "gif"]
    assert draws == list(range(len(draws))) and len(gifs) == len(draws) >= 4
    # the k-th frame is encoded right after the k-th is drawn, before the (k+1)-th
    assert [seen for _, seen in gifs] == list(range(1, len(draws) + 1))
    assert rec.gif_frames >= 2


def test_gif_stream_holds_one_frame(tmp_path):
    """The GIF writer keeps only the last frame (its time may still grow): each new frame
    writes the one before it to the file."""
    from render.gif import open_gif

    palette = bytes([0, 0, 0, 255, 255, 255, 200, 0, 0])
    path = tmp_path / "t.gif"
    w = open_gif(str(path), (8, 6), palette, 0)
    sizes = []
    for k in range(4):
        a = np.zeros((6, 8), dtype=np.uint8)
        a[k, :] = 1 + k % 2
        w.write(a, duration=100)
        w.file.flush()
        sizes.append(path.stat().st_size)
    w.write(a, duration=50)  # the same frame again: its time grows, nothing is stored
    w.close()
    assert sizes == sorted(sizes) and len(set(sizes)) == 4  # every write flushed the frame before it
    assert w.frames == 4 and w.ms == 450


def test_video_has_the_gifs_timing(seed_puzzle, tmp_path):
    pytest.importorskip("imageio_ffmpeg", reason="--video needs the [video] extra (imageio-ffmpeg)")
    import imageio_ffmpeg

    from render.export import write_puzzle

    rec = write_puzzle(seed_puzzle, tmp_path, only="locked candidate", frames=False, contact=False,
                       video="film.mp4", gif_hold=1000)
    assert rec.video == str(tmp_path / "film.mp4") and str(tmp_path / "film.mp4") in rec.files
    frames, secs = imageio_ffmpeg.count_frames_and_secs(rec.video)
    assert frames >= rec.gif_frames
    assert abs(secs - rec.gif_ms / 1000) <= 0.5


def test_video_without_its_extra_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    from explainer.app.cli import main

    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # importing it raises ImportError
    out = tmp_path / "o"
    assert main([SEED, "--out", str(out), "--video", "film.mp4", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("explain-sudoku: error: --video:") and "sudoku-explainer[video]" in err
    assert not out.exists()
