"""Write one explained puzzle: frames, contact sheet, GIF, steps.json (RENDERING.md).

Fast path: scenes are built in this process (pure Python), then two worker
processes (fork) each keep one ``FrameRenderer`` and turn scenes into
pixels, write the frame files and send back a reduced copy for the contact
sheet and the GIF.
"""
from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from explainer.explanation import Explanation
from explainer.grid import value_char
from techniques import single_names

from .scene import Scene, initial_scene, solution_scene
from .scene import scene as make_scene

SINGLES_TEXT = {"en": "Singles: {cells}.", "fr": "Singletons : {cells}."}
SINGLES_MANY = {"en": "Singles: {k} values placed one after the other by single positions and single "
                      "candidates (in red), each the only place or the only candidate left.",
                "fr": "Singletons : {k} valeurs placées l'une après l'autre par positions uniques et "
                      "candidats uniques (en rouge), chacune la seule place ou le seul candidat restant."}


@dataclass
class Frame:
    """One picture to write: its file stem, scene, and what it shows."""

    stem: str
    scene: Scene
    kind: str  # initial | step | solution
    steps: tuple[int, ...] = ()  # 0-based indexes of the steps it shows
    technique: str = ""


@dataclass
class Written:
    """What write_puzzle wrote (paths are strings)."""

    out_dir: str
    frames: list[str] = field(default_factory=list)
    contact: str | None = None
    gif: str | None = None
    steps_json: str | None = None
    html: str | None = None
    seconds: float = 0.0
    gif_bytes: int = 0

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def technique_stem(name: str) -> str:
    return name.upper().replace(" ", "-")


def normalise_only(only: Iterable[str] | str | None) -> set[str] | None:
    """Step names for --only (aliases accepted); None keeps every step."""
    if only is None:
        return None
    if isinstance(only, str):
        only = [x for x in only.split(",")]
    names: set[str] = set()
    for name in only:
        key = name.strip().lower().replace("-", " ").replace("_", " ")
        if not key:
            continue
        if key == "singles":
            names.update(single_names())
            continue
        try:
            from techniques import lookup

            t = lookup(key)
            names.update(t.produces if key == t.name or key in t.aliases else (key,))
            names.add(t.name)
        except KeyError:
            names.add(key)  # a step name the registry may not list (e.g. a later technique)
    return names


def fold_singles(steps: Sequence[Explanation]) -> list[tuple[tuple[int, ...], Explanation]]:
    """Runs of two or more consecutive singles become one step placing all their values."""
    out: list[tuple[tuple[int, ...], Explanation]] = []
    singles = single_names()
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and steps[j].technique in singles:
            j += 1
        if j - i >= 2:
            run = steps[i:j]
            place = tuple(p for s in run for p in s.place)
            texts = {}
            for lang, tmpl in SINGLES_TEXT.items():
                if len(place) > 10:
                    texts[lang] = SINGLES_MANY[lang].format(k=len(place))
                    continue
                cells = ", ".join(f"r{r + 1}c{c + 1} = {value_char(v)}" for r, c, v in place)
                texts[lang] = tmpl.format(cells=cells)
            folded = Explanation(technique="singles", place=place, show_candidates=False,
                                 text=texts["en"], translations=(("fr", texts["fr"]),),
                                 before=run[0].before)
            out.append((tuple(range(i, j)), folded))
            i = j
        else:
            out.append(((i,), steps[i]))
            i += 1
    return out


def plan_frames(puzzle: Any, *, group_singles: bool = False, only: Any = None, lang: str = "en") -> list[Frame]:
    """The frames of a puzzle, in order, with their file stems."""
    steps = puzzle.steps
    givens = puzzle.grid.values
    width = max(3, len(str(len(steps) + 1)))
    frames = [Frame(f"{0:0{width}d}-INITIAL-GRID", initial_scene(puzzle.initial_state(), givens=givens, lang=lang),
                    "initial")]
    items = fold_singles(steps) if group_singles else [((i,), s) for i, s in enumerate(steps)]
    keep = normalise_only(only)
    for idx, step in items:
        if keep is not None and not (step.technique in keep or
                                     (step.technique == "singles" and keep & set(single_names()))):
            continue
        number = (idx[0] + 1, idx[-1] + 1)
        sc = make_scene(step.before, step, number=number, givens=givens, lang=lang)
        frames.append(Frame(f"{idx[0] + 1:0{width}d}-{technique_stem(step.technique)}", sc, "step", idx,
                            step.technique))
    final = puzzle.state_before(len(steps))
    frames.append(Frame(f"{len(steps) + 1:0{width}d}-SOLUTION",
                        solution_scene(final, givens=givens, lang=lang, steps=len(steps),
                                       difficulty=puzzle.difficulty, complete=puzzle.complete),
                        "solution"))
    return frames


# ---- rendering (in worker processes) -------------------------------------------------

_JOB: dict[str, Any] = {}


def _render_one(i: int) -> tuple[int, bytes, tuple[int, int]]:
    from .frame import THUMB_STEPS, FrameRenderer, quantize_image

    job = _JOB
    r = job.get("renderer")
    if r is None:
        r = job["renderer"] = FrameRenderer(job["n"], job["theme"], job["dpi"], job["size"])
    sc = job["scenes"][i]
    path = job["paths"][i]
    im = r.image(sc)
    if path is not None:
        if job["fmt"] == "svg":
            with open(path, "wb") as f:
                f.write(r.svg(sc))
        else:
            quantize_image(im, r.theme).save(path, format="PNG", compress_level=job["compress"])
    thumb = b""
    tsize = (0, 0)
    if job["thumb"]:
        t = im.reduce(job["thumb"]) if job["thumb"] > 1 else im
        t = quantize_image(t, r.theme, THUMB_STEPS)
        thumb, tsize = t.tobytes(), t.size
    return i, thumb, tsize


def _render_all(frames: list[Frame], paths: list[str | None], *, n: int, theme: Any, dpi: Any, size: Any,
                fmt: str, thumb: int, workers: int, progress: Callable[[int, int], None] | None,
                compress: int = 1) -> list[tuple[bytes, tuple[int, int]]]:
    import multiprocessing as mp

    from .frame import FrameRenderer

    global _JOB
    # the renderer is built and primed (static grid drawn) once, here; forked
    # workers inherit it ready to use
    r = FrameRenderer(n, theme, dpi, size)
    r._prime()
    _JOB = {"n": n, "theme": theme, "dpi": dpi, "size": size, "fmt": fmt, "thumb": thumb,
            "scenes": [f.scene for f in frames], "paths": paths, "compress": compress, "renderer": r}
    total = len(frames)
    out: list[Any] = [None] * total
    done = 0
    if workers > 1 and total >= 8 and "fork" in mp.get_all_start_methods():
        ctx = mp.get_context("fork")
        with ctx.Pool(workers) as pool:
            chunk = max(1, min(8, total // (workers * 4)))
            for i, data, tsize in pool.imap_unordered(_render_one, range(total), chunksize=chunk):
                out[i] = (data, tsize)
                done += 1
                if progress:
                    progress(done, total)
    else:
        for k in range(total):
            i, data, tsize = _render_one(k)
            out[i] = (data, tsize)
            done += 1
            if progress:
                progress(done, total)
    _JOB = {}
    return out


def _workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def _palette_image(theme: Any) -> Any:
    from .frame import THUMB_STEPS, theme_palette

    return theme_palette(theme, THUMB_STEPS)


def contact_sheet(thumbs: list[Any], columns: int = 3, gap: int = 6, background: str = "white") -> Any:
    """Frames tiled ``columns`` wide (palette images share the first one's palette)."""
    from PIL import Image

    tw = max(t.size[0] for t in thumbs)
    th = max(t.size[1] for t in thumbs)
    rows = math.ceil(len(thumbs) / columns)
    shape = (columns * tw + (columns + 1) * gap, rows * th + (rows + 1) * gap)
    if thumbs[0].mode == "P":
        sheet = Image.new("P", shape, 0)
        sheet.putpalette(thumbs[0].getpalette())
    else:
        sheet = Image.new("RGB", shape, background)
    for k, t in enumerate(thumbs):
        r, c = divmod(k, columns)
        sheet.paste(t, (gap + c * (tw + gap), gap + r * (th + gap)))
    return sheet


def write_gif(thumbs: list[Any], path: str, durations: list[int], loop: int | None = 0) -> int:
    """An animated GIF of palette images sharing one palette; bytes written.

    Pause lengths are per-frame durations (Pillow merges identical frames and
    stores only the changed rectangle of each frame). ``optimize`` trims the
    colour table to the colours used: a third of the size of an untrimmed one."""
    from PIL import Image

    frames = [t if t.mode == "P" else t.quantize(colors=64, dither=Image.Dither.NONE) for t in thumbs]
    kw: dict[str, Any] = {"save_all": True, "append_images": frames[1:], "duration": durations,
                          "optimize": True, "disposal": 1}
    if loop is not None:
        kw["loop"] = loop
    frames[0].save(path, format="GIF", **kw)
    return os.path.getsize(path)


def write_puzzle(puzzle: Any, out_dir: str | os.PathLike, *, frames: bool = True, gif: bool = True,
                 contact: bool = True, fmt: str = "png", palette: Any = "default", dpi: float | None = None,
                 size: int | None = None, group_singles: bool = False, only: Any = None, lang: str = "en",
                 html: bool = False, gif_duration: int = 700, gif_hold: int = 2000, gif_loop: int | None = 0,
                 gif_width: int | None = None, columns: int = 3, workers: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Written:
    """Write the files of RENDERING.md for one puzzle into ``out_dir``; say what was written.

    ``steps.json`` is always written. ``fmt`` is "png" or "svg" (frames only;
    the contact sheet and GIF are raster). ``gif_duration`` is the time per
    step in ms, ``gif_hold`` the time on the initial grid and the solution,
    ``gif_loop`` 0 loops forever, None plays once.
    """
    from PIL import Image

    from .frame import Layout
    from .theme import palette as get_palette

    start = time.perf_counter()
    if fmt not in ("png", "svg"):
        raise ValueError(f"unknown frame format {fmt!r} (png or svg)")
    if lang not in ("en", "fr"):
        raise ValueError(f"unknown language {lang!r} (en or fr)")
    theme = get_palette(palette)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rec = Written(str(out))

    steps_path = out / "steps.json"
    doc = puzzle.to_json()
    steps_path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    rec.steps_json = str(steps_path)

    need_pixels = frames or gif or contact or html
    if not need_pixels:
        rec.seconds = time.perf_counter() - start
        return rec

    plan = plan_frames(puzzle, group_singles=group_singles, only=only, lang=lang)
    n = puzzle.grid.n
    paths = [str(out / f"{f.stem}.{fmt}") if frames else None for f in plan]
    layout = Layout(n, dpi, size)
    full_w = layout.pixels[0]
    factor = 0  # thumbnails (contact sheet, GIF) are the frame reduced by this factor
    if gif or contact or html:
        factor = max(1, round(full_w / (gif_width or 460)))
    results = _render_all(plan, paths, n=n, theme=theme, dpi=dpi, size=size, fmt=fmt, thumb=factor,
                          workers=workers or _workers(), progress=progress)
    if frames:
        rec.frames = [p for p in paths if p]
    pal = _palette_image(theme)
    thumbs = []
    for data, tsize in (results if factor else []):
        t = Image.frombytes("P", tsize, data)
        t.putpalette(pal.getpalette())
        thumbs.append(t)
    if contact:
        sheet = contact_sheet(thumbs, columns=columns, background=theme["background"])
        cpath = out / "EXPLANATIONS.png"
        sheet.save(cpath, format="PNG", compress_level=1)
        rec.contact = str(cpath)
    if gif:
        gpath = out / "explanation.gif"
        durations = [gif_hold if f.kind != "step" else gif_duration for f in plan]
        rec.gif_bytes = write_gif(thumbs, str(gpath), durations, loop=gif_loop)
        rec.gif = str(gpath)
    if html:
        from .viewer import data_uri, write_viewer

        if frames:
            sources = [Path(p).name for p in paths]
        else:  # no frame files: inline the reduced frames
            sources = [data_uri(t) for t in thumbs]
        rec.html = str(write_viewer(out, plan, sources, puzzle=puzzle, lang=lang))
    rec.seconds = time.perf_counter() - start
    return rec
