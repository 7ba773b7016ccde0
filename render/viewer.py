"""index.html: a step viewer for one explained puzzle.

One page, no network. ``--html``: the frames are the image files beside it,
and the page says so (copy the folder, not the page alone);
``--html-standalone``: the frames are inside the page as data URIs, so
``index.html`` works copied alone. The frame is shown without its own
caption strip (cropped off), the caption once, under it, as text, and the
legend (what each mark means) under the caption. The
counter shows the step number of the title (``0`` the initial grid, ``17``
or ``17a`` a step or a proof sub-frame, ``3–7`` grouped singles) out of the
number of steps. Previous / next / play buttons, ←/→ keys (space plays), a
speed control (each frame shows for the GIF's time, caption length
included, divided by the speed), and a step list grouped by technique.

Levels of detail: previous, next and play go through the steps and the
first sub-frames of their proofs (``main_level``); the deeper sub-frames
(``--proof-depth 2`` and more) are reached from the frame they detail (a
"More detail" row of buttons under it, ↓ key), and lead back up (↑ key);
previous and next then go through the frames of that level. The page is
written frame by frame: inlined frames are read one at a time.
"""
from __future__ import annotations

import base64
import html
import io
import itertools
import json
import mimetypes
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from explainer.model.explained import Explained
from explainer.model.technique import title_of

from .plan import Frame

LABELS = {
    "en": {"prev": "◀ Previous", "next": "Next ▶", "play": "▶ Play", "pause": "❚❚ Pause",
           "deeper": "More detail:", "up": "▲ Back to {k}",
           "steps": "Steps by technique", "start": "Start", "end": "End", "step": "Step", "speed": "Speed",
           "folder": "This page shows the frame files of its folder: copy the whole folder, not index.html "
                     "alone (explain-sudoku --html-standalone writes a page that works alone).",
           "missing": "Frame file not found: {src}. Keep index.html in its folder, next to the frames."},
    "fr": {"prev": "◀ Précédent", "next": "Suivant ▶", "play": "▶ Lecture", "pause": "❚❚ Pause",
           "deeper": "Plus de détail :", "up": "▲ Retour à {k}",
           "steps": "Étapes par technique", "start": "Début", "end": "Fin", "step": "Étape", "speed": "Vitesse",
           "folder": "Cette page montre les images de son dossier : copiez le dossier entier, pas index.html "
                     "seul (explain-sudoku --html-standalone écrit une page qui fonctionne seule).",
           "missing": "Image introuvable : {src}. Gardez index.html dans son dossier, à côté des images."},
}
SPEEDS = (0.5, 1.0, 1.5, 2.0, 3.0)


def data_uri(image: Any) -> str:
    """A PIL image as a PNG data URI."""
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def file_data_uri(path: str | Path) -> str:
    """A frame file (PNG or SVG) as a data URI."""
    mime = mimetypes.guess_type(str(path))[0] or "application/octet-stream"
    return f"data:{mime};base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def frame_number(f: Frame, total: int) -> str:
    """The step number a frame's title shows: 0 initial grid, 17 / 17a / 3–7 a step, total the solution."""
    if f.kind == "initial":
        return "0"
    if f.kind == "solution":
        return str(total)
    first, last = f.steps[0] + 1, f.steps[-1] + 1
    return f"{first}{f.suffix}" if first == last else f"{first}–{last}"


def parents(plan: Sequence[Frame]) -> list[int]:
    """The frame each frame details (-1 for a step's own frame and the first sub-frames of its
    proof): the nearest frame before it, of the same step, less deep, whose name starts its
    name (17c1's is 17c; a proof's parts of every fact, 17c, 17d …, detail the step's 17)."""
    out = []
    for k, f in enumerate(plan):
        up = -1
        if f.level >= 2:
            for j in range(k - 1, -1, -1):
                g = plan[j]
                if g.steps != f.steps:
                    break
                if g.level < f.level and f.suffix.startswith(g.suffix):
                    up = j
                    break
        out.append(up)
    return out


def write_viewer(out_dir: str | Path, plan: Sequence[Frame], sources: Iterable[str], *,
                 puzzle: Explained | None = None, lang: str = "en", title: str | None = None, crop: float = 0.0,
                 durations: Sequence[int] | None = None, standalone: bool | None = None,
                 main_level: int = 1, legends: Sequence[str] | None = None) -> Path:
    """Write ``index.html`` showing ``plan``'s frames (``sources``: file names or data URIs, one
    per frame, read one at a time).

    ``crop``: the fraction of each frame's height at its bottom (its caption) not shown;
    ``durations``: ms per frame at speed 1 (default 1200 each); ``main_level``: the deepest
    sub-frames previous, next and play go through (deeper ones are reached from their frame);
    ``legends``: each frame's legend as drawn (else each scene is laid out again to read it)."""
    words = LABELS.get(lang, LABELS["en"])
    total = len(puzzle.steps) if puzzle is not None else max((k + 1 for f in plan for k in f.steps), default=0)
    sources = iter(sources)
    if standalone is None:
        first = next(sources, "")
        standalone = first.startswith("data:")
        sources = itertools.chain([first], sources)
    durations = list(durations) if durations is not None else [1200] * len(plan)
    up = parents(plan)
    if legends is not None and len(legends) != len(plan):
        legends = None  # not every frame drawn: read the legends off the scenes
    frames: list[dict[str, Any]] = []
    for k, (f, ms) in enumerate(zip(plan, durations, strict=True)):
        legend = legends[k] if legends is not None else f.scene.text("legend")
        frames.append({"title": f.title, "caption": f.caption, "legend": legend,
                       "kind": f.kind, "technique": f.technique,
                       "steps": [k + 1 for k in f.steps], "number": frame_number(f, total), "ms": ms,
                       "main": f.level <= main_level or up[k] < 0, "up": up[k]})
    groups: dict[str, list[int]] = {}
    for i, shown in enumerate(frames):
        if shown["kind"] == "step" and shown["main"]:
            groups.setdefault(shown["technique"], []).append(i)
    kinds = puzzle.kinds if puzzle is not None else {}
    parts = []
    parts.append(f'<li><button class="jump" data-k="0">{html.escape(words["start"])}</button></li>')
    for tech, idx in groups.items():
        buttons = " ".join(f'<button class="jump" data-k="{i}">{html.escape(frames[i]["number"])}</button>'
                           for i in idx)
        parts.append(f'<li><details open><summary>{html.escape(title_of(tech, kinds, lang))} '
                     f'({len({tuple(frames[i]["steps"]) for i in idx})})'
                     f'</summary>{buttons}</details></li>')
    parts.append(f'<li><button class="jump" data-k="{len(frames) - 1}">{html.escape(words["end"])}</button></li>')
    page_title = title or (f"Sudoku {puzzle.grid.to_line()}" if puzzle is not None else "Sudoku")
    speeds = "".join(f'<option value="{v:g}"{" selected" if v == 1 else ""}>{v:g}×</option>' for v in SPEEDS)
    note = "" if standalone else f'<p id="note">{html.escape(words["folder"])}</p>'
    head, tail = TEMPLATE.split("{data}")
    path = Path(out_dir) / "index.html"

    def js(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")

    with open(path, "w", encoding="utf-8") as page:
        page.write(head.format(lang=html.escape(lang), title=html.escape(page_title),
                               steps=html.escape(words["steps"]), prev=html.escape(words["prev"]),
                               next=html.escape(words["next"]), play=html.escape(words["play"]),
                               speed=html.escape(words["speed"]), speeds=speeds, note=note,
                               groups="\n".join(parts)))
        page.write('{"frames": [')
        for k, (shown, src) in enumerate(zip(frames, sources, strict=True)):
            page.write(("," if k else "") + js({"src": src, **shown}))
        page.write(f'], "labels": {js(words)}, "total": {js(total)}, "crop": {js(crop)}}}')
        page.write(tail.format())
    return path


TEMPLATE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
 html, body {{ height: 100%; }}
 body {{ font-family: system-ui, sans-serif; margin: 0; display: flex; gap: 1rem; padding: .8rem 1rem;
        box-sizing: border-box; background: #fafafa; color: #111; overflow: hidden; }}
 main {{ flex: 1 1 auto; max-width: 900px; min-width: 0; height: 100%; display: flex; flex-direction: column; }}
 aside {{ flex: 0 0 15rem; height: 100%; overflow: auto; }}
 #view {{ flex: 1 1 auto; min-height: 8rem; overflow: hidden; }}
 #box {{ overflow: hidden; border: 1px solid #ccc; background: white; }}
 #frame {{ display: block; width: 100%; }}
 #bar {{ display: flex; gap: .5rem; align-items: center; margin: .4rem 0; flex-wrap: wrap; }}
 #bar button {{ font-size: 1rem; padding: .3rem .8rem; }}
 #counter {{ margin-left: auto; font-variant-numeric: tabular-nums; font-weight: 600; }}
 #caption {{ flex: 0 0 auto; font-size: 1.05rem; line-height: 1.4; margin: .5rem 0 0; max-height: 40vh;
            overflow: auto; }}
 #legend {{ flex: 0 0 auto; font-size: .95rem; line-height: 1.35; margin: .3rem 0 0; color: #555; }}
 #heading {{ font-size: 1.2rem; margin: .2rem 0; }}
 #note {{ font-size: .85rem; color: #555; margin: .2rem 0; }}
 #detail {{ display: flex; gap: .3rem; align-items: center; flex-wrap: wrap; margin: 0 0 .4rem; }}
 #detail:empty {{ display: none; }}
 #missing {{ color: #b00; }}
 aside ul {{ list-style: none; padding: 0; margin: 0; }}
 aside li {{ margin: .25rem 0; }}
 aside button.jump {{ margin: 1px; }}
 aside button.current {{ background: #2ca02c; color: white; }}
</style>
</head>
<body>
<main>
 <h1 id="heading"></h1>
 {note}
 <div id="bar">
  <button id="prev" title="←">{prev}</button>
  <button id="play" title="space">{play}</button>
  <button id="next" title="→">{next}</button>
  <label>{speed} <select id="speed">{speeds}</select></label>
  <span id="counter"></span>
 </div>
 <div id="detail"></div>
 <div id="view"><div id="box"><img id="frame" alt=""></div></div>
 <p id="caption"></p>
 <p id="legend"></p>
</main>
<aside>
 <h2>{steps}</h2>
 <ul id="steps">
{groups}
 </ul>
</aside>
<script id="data" type="application/json">{data}</script>
<script>
(function () {{
  const data = JSON.parse(document.getElementById("data").textContent);
  const frames = data.frames, L = data.labels;
  let k = 0, timer = null;
  const img = document.getElementById("frame"), cap = document.getElementById("caption");
  const legend = document.getElementById("legend");
  const head = document.getElementById("heading"), counter = document.getElementById("counter");
  const playBtn = document.getElementById("play"), speed = document.getElementById("speed");
  const view = document.getElementById("view"), box = document.getElementById("box");
  // the frame without its own caption strip (data.crop of its height), as large as the view allows
  function fit() {{
    if (!img.naturalWidth) return;
    const ratio = img.naturalWidth / (img.naturalHeight * (1 - data.crop));
    const w = Math.max(50, Math.min(view.clientWidth, view.clientHeight * ratio));
    box.style.width = w + "px"; box.style.height = (w / ratio) + "px";
  }}
  img.onload = fit;
  window.addEventListener("resize", fit);
  img.onerror = () => {{
    if (img.src.startsWith("data:")) return;
    cap.innerHTML = "";
    const p = document.createElement("span"); p.id = "missing";
    p.textContent = L.missing.replace("{{src}}", frames[k].src);
    cap.appendChild(p);
  }};
  const detail = document.getElementById("detail");
  // previous and next go along a frame's lane: the steps and their first sub-frames, or the
  // deeper frames detailing one frame
  function lane(i) {{
    const out = [];
    frames.forEach((f, j) => {{
      if (frames[i].main ? f.main : (!f.main && f.up === frames[i].up)) out.push(j);
    }});
    return out;
  }}
  function step(d) {{
    const l = lane(k), at = l.indexOf(k);
    show(l[Math.max(0, Math.min(l.length - 1, at + d))]);
  }}
  function children(i) {{
    const out = [];
    frames.forEach((f, j) => {{ if (!f.main && f.up === i) out.push(j); }});
    return out;
  }}
  function button(text, to) {{
    const b = document.createElement("button");
    b.textContent = text; b.className = "drill";
    b.onclick = () => {{ play(false); show(to); }};
    return b;
  }}
  function drill() {{
    detail.innerHTML = "";
    const f = frames[k], kids = children(k);
    if (f.up >= 0) detail.appendChild(button(L.up.replace("{{k}}", frames[f.up].number), f.up));
    if (kids.length) {{
      const s = document.createElement("span"); s.textContent = L.deeper; detail.appendChild(s);
      kids.forEach(j => detail.appendChild(button(frames[j].number, j)));
    }}
  }}
  function show(i) {{
    k = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[k];
    drill();
    img.src = f.src; img.alt = f.title;
    head.textContent = f.title;
    cap.textContent = f.caption;
    legend.textContent = f.legend;
    counter.textContent = f.number + " / " + data.total;
    document.querySelectorAll("button.jump").forEach(b => b.classList.toggle("current", +b.dataset.k === k));
    if (location.hash !== "#" + k) history.replaceState(null, "", "#" + k);
  }}
  function tick() {{
    timer = setTimeout(() => {{
      const l = lane(k), at = l.indexOf(k);
      if (at >= l.length - 1) play(false); else {{ show(l[at + 1]); tick(); }}
    }}, frames[k].ms / (+speed.value || 1));
  }}
  function play(on) {{
    if (timer) {{ clearTimeout(timer); timer = null; }}
    if (on) {{
      while (!frames[k].main) k = frames[k].up;  // play goes along the steps
      if (k >= frames.length - 1) show(0); else show(k);
      tick();
    }}
    playBtn.textContent = timer ? L.pause : L.play;
  }}
  speed.onchange = () => {{ if (timer) play(true); }};
  document.getElementById("prev").onclick = () => {{ play(false); step(-1); }};
  document.getElementById("next").onclick = () => {{ play(false); step(1); }};
  playBtn.onclick = () => play(!timer);
  document.querySelectorAll("button.jump").forEach(b => b.onclick = () => {{ play(false); show(+b.dataset.k); }});
  document.addEventListener("keydown", e => {{
    if (e.key === "ArrowRight") {{ play(false); step(1); e.preventDefault(); }}
    else if (e.key === "ArrowLeft") {{ play(false); step(-1); e.preventDefault(); }}
    else if (e.key === "ArrowDown" && children(k).length) {{ play(false); show(children(k)[0]); e.preventDefault(); }}
    else if (e.key === "ArrowUp" && frames[k].up >= 0) {{ play(false); show(frames[k].up); e.preventDefault(); }}
    else if (e.key === " ") {{ play(!timer); e.preventDefault(); }}
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(frames.length - 1);
  }});
  const start = parseInt(location.hash.slice(1), 10);
  show(isNaN(start) ? 0 : start);
}})();
</script>
</body>
</html>
"""
