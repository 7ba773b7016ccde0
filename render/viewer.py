"""index.html: a self-contained step viewer for one explained puzzle.

One page, no network: the frames are the files beside it (or inlined as
base64 when no frame files were written), the titles and captions are in
the page. Previous / next / play buttons, ←/→ keys (space plays), and a step
list grouped by technique that jumps to a step.
"""
from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from techniques import title as step_title

LABELS = {
    "en": {"prev": "◀ Previous", "next": "Next ▶", "play": "▶ Play", "pause": "❚❚ Pause",
           "steps": "Steps by technique", "start": "Start", "end": "End", "step": "Step"},
    "fr": {"prev": "◀ Précédent", "next": "Suivant ▶", "play": "▶ Lecture", "pause": "❚❚ Pause",
           "steps": "Étapes par technique", "start": "Début", "end": "Fin", "step": "Étape"},
}


def data_uri(image: Any) -> str:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def write_viewer(out_dir: str | Path, plan: Sequence[Any], sources: Sequence[str], *, puzzle: Any = None,
                 lang: str = "en", title: str | None = None) -> Path:
    """Write ``index.html`` showing ``plan``'s frames (``sources``: file names or data URIs)."""
    words = LABELS.get(lang, LABELS["en"])
    frames = []
    for f, src in zip(plan, sources, strict=True):
        frames.append({"src": src, "title": f.scene.text("title"), "caption": f.scene.text("caption"),
                       "kind": f.kind, "technique": f.technique, "steps": [k + 1 for k in f.steps]})
    groups: dict[str, list[int]] = {}
    for i, f in enumerate(frames):
        if f["kind"] == "step":
            groups.setdefault(f["technique"], []).append(i)
    parts = []
    parts.append(f'<li><button class="jump" data-k="0">{html.escape(words["start"])}</button></li>')
    for tech, idx in groups.items():
        spans = ("–".join(str(s) for s in sorted({frames[i]["steps"][0], frames[i]["steps"][-1]})) for i in idx)
        buttons = " ".join(f'<button class="jump" data-k="{i}">{span}</button>'
                           for i, span in zip(idx, spans, strict=True))
        parts.append(f'<li><details open><summary>{html.escape(step_title(tech, lang))} '
                     f'({len(idx)})</summary>{buttons}</details></li>')
    parts.append(f'<li><button class="jump" data-k="{len(frames) - 1}">{html.escape(words["end"])}</button></li>')
    page_title = title or (f"Sudoku {puzzle.grid.to_line()}" if puzzle is not None else "Sudoku")
    data = json.dumps({"frames": frames, "labels": words}, ensure_ascii=False).replace("</", "<\\/")
    doc = TEMPLATE.format(lang=html.escape(lang), title=html.escape(page_title), steps=html.escape(words["steps"]),
                          prev=html.escape(words["prev"]), next=html.escape(words["next"]),
                          play=html.escape(words["play"]), groups="\n".join(parts), data=data)
    path = Path(out_dir) / "index.html"
    path.write_text(doc, encoding="utf-8")
    return path


TEMPLATE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
 body {{ font-family: system-ui, sans-serif; margin: 0; display: flex; gap: 1rem; padding: 1rem;
        background: #fafafa; color: #111; }}
 main {{ flex: 1 1 auto; max-width: 820px; }}
 aside {{ flex: 0 0 16rem; max-height: 95vh; overflow: auto; }}
 #frame {{ max-width: 100%; max-height: calc(100vh - 9rem); width: auto; height: auto;
          border: 1px solid #ccc; background: white; display: block; }}
 #bar {{ display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }}
 #bar button {{ font-size: 1rem; padding: .3rem .8rem; }}
 #counter {{ margin-left: auto; font-variant-numeric: tabular-nums; }}
 #caption {{ font-size: 1.05rem; line-height: 1.4; min-height: 3em; }}
 #heading {{ font-size: 1.2rem; margin: .2rem 0; }}
 aside ul {{ list-style: none; padding: 0; margin: 0; }}
 aside li {{ margin: .25rem 0; }}
 aside button.jump {{ margin: 1px; }}
 aside button.current {{ background: #2ca02c; color: white; }}
</style>
</head>
<body>
<main>
 <h1 id="heading"></h1>
 <div id="bar">
  <button id="prev" title="←">{prev}</button>
  <button id="play" title="space">{play}</button>
  <button id="next" title="→">{next}</button>
  <span id="counter"></span>
 </div>
 <img id="frame" alt="">
 <p id="caption"></p>
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
  const head = document.getElementById("heading"), counter = document.getElementById("counter");
  const playBtn = document.getElementById("play");
  function show(i) {{
    k = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[k];
    img.src = f.src; img.alt = f.title;
    head.textContent = f.title;
    cap.textContent = f.caption;
    counter.textContent = (k + 1) + " / " + frames.length;
    document.querySelectorAll("button.jump").forEach(b => b.classList.toggle("current", +b.dataset.k === k));
    if (location.hash !== "#" + k) history.replaceState(null, "", "#" + k);
  }}
  function play(on) {{
    if (timer) {{ clearInterval(timer); timer = null; }}
    if (on) {{
      if (k >= frames.length - 1) show(0);
      timer = setInterval(() => {{ if (k >= frames.length - 1) play(false); else show(k + 1); }}, 1200);
    }}
    playBtn.textContent = timer ? L.pause : L.play;
  }}
  document.getElementById("prev").onclick = () => {{ play(false); show(k - 1); }};
  document.getElementById("next").onclick = () => {{ play(false); show(k + 1); }};
  playBtn.onclick = () => play(!timer);
  document.querySelectorAll("button.jump").forEach(b => b.onclick = () => {{ play(false); show(+b.dataset.k); }});
  document.addEventListener("keydown", e => {{
    if (e.key === "ArrowRight") {{ play(false); show(k + 1); e.preventDefault(); }}
    else if (e.key === "ArrowLeft") {{ play(false); show(k - 1); e.preventDefault(); }}
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
