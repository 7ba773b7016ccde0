"""Draw one real step of every technique family in every palette and language, to look at.

    python benchmarks/family_frames.py [--out output/families] [--only NAME,...] [--list]

A family is a kind of picture a teacher reviews on its own: each single, each
wing, each fish shape, each unique rectangle type, each chain shape, each
forcing chain kind and nesting, brutal, templates… (``FAMILIES``). The script
explains the puzzles of ``SOURCES`` in turn (the steps the review named first,
then ``../shared/data``'s collections, then ``examples/``) until every family
has a step, and writes for each family its frame (and the first sub-frames of a
proof) in the three palettes and both languages:
``OUT/NN-family/PALETTE-LANG[-suffix].png``, plus ``OUT/NN-family/all.png``
(the six side by side, half size), ``OUT/families.txt`` (where each step
came from, its caption and legend in both languages) and ``OUT/found.json``
(the steps found, reused by the next run: the search over the collections
takes minutes). A family none of the collections has (remote pair: the
simplest order always finds a cheaper step) is drawn on a real position of
``examples/`` (``EXAMPLE_POSITIONS``: examples/remote-pair.txt, top1465 line 2
before its step 78), else on its kind's position of
``tests/render/data/role_positions.txt``. It prints a line per family.

``--teach`` (issue 41) also writes, under ``OUT/teach/``: H2's forcing proof
(hardest300 line 2, step 1) at each ``--proof`` level in every palette and
language (``h2-proof/LEVEL/PALETTE-LANG[-suffix].png``), the printed outputs of
the seed and of H2 (their contact sheet pages, ``workbook.pdf`` and its page 2
as PNG, when poppler's ``pdftoppm`` is there) and the GIF timing table
(``gif-timing.txt``: frames planned and shown, seconds, what was folded, for
the seed, H2 and examples/16x16-hard.txt). ``--teach-only``: that alone.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA = ROOT.parent / "shared" / "data"
PALETTES = ("default", "colorblind", "high-contrast")
LANGS = ("en", "fr")


def _detail(step: Any, key: str) -> Any:
    return dict(step.detail or ()).get(key)


def _is(*names: str, **detail: Any) -> Callable[[Any], bool]:
    def test(step: Any) -> bool:
        return step.technique in names and all(_detail(step, k) == v for k, v in detail.items())
    return test


def _forcing(kind: str, *, dynamic: bool | None = None, nested: bool = False) -> Callable[[Any], bool]:
    def test(step: Any) -> bool:
        proof = step.proof
        return (step.technique == "forcing chain" and proof is not None and proof.kind == kind
                and (dynamic is None or proof.dynamic == dynamic) and (proof.level > 0) == nested)
    return test


def _alone(*names: str) -> list[tuple[str, Callable[[Any], bool]]]:
    """Families of one technique each, named as the technique."""
    return [(name, _is(name)) for name in names]


# (family, does a step belong to it); the order is the registry's. No "y wing": a y wing of three
# cells whose cells all hold two values is the textbook XY wing, named and drawn as one (issue 41,
# item 0c; the xy wing family shows the seed's); its other three-cell forms hold a cell with one
# candidate or a naked pair, which simpler steps take first: no explanation of se_rated or
# hardest300 shows one.
FAMILIES: list[tuple[str, Callable[[Any], bool]]] = [
    *_alone("single position", "single candidate", "locked candidate", "naked tuple", "hidden tuple",
            "ny wing", "w wing", "xy wing", "xyz wing", "wxyz wing"),
    ("fish", _is("x wing", "swordfish", "jellyfish")),
    ("finned fish", _is("finned x wing", "finned swordfish", "finned jellyfish")),
    ("sashimi fish", _is("sashimi x wing", "sashimi swordfish", "sashimi jellyfish")),
    *((f"unique rectangle type {k}", _is("unique rectangle", type=k)) for k in range(1, 7)),
    ("hidden unique rectangle", _is("unique rectangle", type="hidden")),
    *_alone("unique loop", "bug+1"),
    ("BUG", _is("bug")),
    ("Sue de Coq", _is("suedecoq", "suedecoq bis")),
    ("Medusa", _is("medusa")),
    *_alone("skyscraper", "2-string kite", "turbot fish", "x chain", "xy chain", "remote pair"),
    ("chain (AIC)", _is("chain")),
    ("loop", _is("loop", "discontinuous loop")),
    *_alone("empty rectangle", "grouped chain"),
    ("ALS-XZ", _is("als")),
    ("ALS XY wing", _is("als xy wing")),
    ("ALS chain", _is("als chain")),
    *_alone("death blossom", "trial"),
    ("forcing chain: contradiction", _forcing("contradiction", dynamic=False)),
    ("forcing chain: double", _forcing("double")),
    ("forcing chain: cell", _forcing("cell")),
    ("forcing chain: house", _forcing("house")),
    ("forcing chain: dynamic", _forcing("contradiction", dynamic=True)),
    ("forcing chain: nested", lambda s: s.technique == "forcing chain" and s.proof is not None
     and s.proof.level > 0),
    ("brutal", _is("brutal")),
    ("template", _is("template set", "template delete")),
]

BASIC = "single position,single candidate,locked candidate"


def _lines(path: Path, limit: int | None = None) -> Iterator[tuple[str, str]]:
    k = 0
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split()[0] if line.strip() and not line.startswith("#") else ""
        if text:
            yield f"{path.name}:{i}", text
            k += 1
            if limit is not None and k >= limit:
                return


def _se(k: int) -> tuple[str, str]:
    return f"se_rated.txt:{k}", (DATA / "se_rated.txt").read_text().splitlines()[k - 1].split()[0]


def sources() -> Iterator[tuple[str, str, str | None, str]]:
    """(where, puzzle, techniques or None, order) in the order they are tried."""
    seed = next(_lines(ROOT / "examples" / "seed.txt"))
    yield "examples/seed.txt", seed[1], None, "simplest"
    for k in (17, 620, 35, 369, 61, 458, 2):  # the review's steps
        yield (*_se(k), None, "simplest")
    yield (*_se(4), BASIC + ",brutal", "simplest")
    yield "examples/seed.txt", seed[1], BASIC + ",template", "seed"
    for where, line in _lines(DATA / "se_rated.txt"):
        yield where, line, None, "simplest"
    for where, line in _lines(DATA / "hardest300.txt"):
        yield where, line, None, "simplest"
    for where, line in _lines(DATA / "se_rated.txt"):
        yield where, line, None, "seed"


class Found:
    """A family's step: a puzzle explained (``where``, ``line``, ``techniques``, ``order``) and
    its step number, or a kind's position of ``tests/render/data/role_positions.txt``."""

    def __init__(self, where: str, line: str = "", techniques: str | None = None, order: str = "simplest",
                 number: int = 0, kind: str = "") -> None:
        self.where, self.line, self.techniques, self.order = where, line, techniques, order
        self.number, self.kind = number, kind
        self._puzzle: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("where", "line", "techniques", "order", "number", "kind")}

    @property
    def puzzle(self) -> Any:
        from explainer import Puzzle

        if self._puzzle is None:  # explained up to the step only (a hard puzzle's later steps cost minutes)
            self._puzzle = Puzzle(self.line, self.techniques.split(",") if self.techniques else None,
                                  order=self.order, max_steps=self.number or None)
        return self._puzzle

    def step(self) -> tuple[Any, Any, Any, Any]:
        """(step, state before it, givens, kinds)."""
        if self.kind:
            import techniques
            from explainer.model.grid import parse_grid

            if self.where.startswith("examples/"):  # a real position (a pencil-mark grid): no givens known
                state = example_position(ROOT / self.where)
                return kind_step(self.kind, state), state, None, techniques.all_kinds()
            givens, state = role_position(self.kind)
            return kind_step(self.kind, state), state, parse_grid(givens).values, techniques.all_kinds()
        p = self.puzzle
        step = p.steps[self.number - 1]
        return step, step.before, p.grid.values, p.kinds


ROLE_POSITIONS = ROOT / "tests" / "render" / "data" / "role_positions.txt"


def role_position(kind: str) -> tuple[str, Any]:
    """(givens, state) of ``kind``'s line of the tests' role positions."""
    from explainer.model.state import State

    for row in ROLE_POSITIONS.read_text().splitlines():
        name, givens, values, cands = row.split("\t")
        if name == kind:
            return givens, State.from_text(values, cands)
    raise SystemExit(f"family_frames: no role position for {kind!r} in {ROLE_POSITIONS}")


def example_position(path: Path) -> Any:
    """The state of an example's pencil-mark grid ('#' lines are comments)."""
    from explainer.app.hints.pencilmarks import parse_pencilmarks

    text = "\n".join(x for x in path.read_text(encoding="utf-8").splitlines() if not x.startswith("#"))
    return parse_pencilmarks(text, str(path))


def kind_step(kind: str, state: Any) -> Any:
    """The first ``kind`` step its technique's finders yield on ``state``."""
    from explainer.model.technique import Context
    from techniques import REGISTRY

    record = next(t for t in REGISTRY if kind in t.produces)
    for every in (False, True):  # a kind only ``steps`` lists: its every-variant finder
        step = next((s for s in record.finder(every)(state, Context()) if s.technique == kind), None)
        if step is not None:
            return step
    raise SystemExit(f"family_frames: no {kind} step on its role position")


def find_families(wanted: list[tuple[str, Callable[[Any], bool]]], cache: Path | None = None,
                  verbose: bool = True) -> dict[str, Found]:
    """family -> its first step in ``sources`` (``cache``: the steps found last time, kept while
    they still belong to their family); a family no puzzle has: its kind's role position."""
    import json

    found: dict[str, Found] = {}
    tests = dict(wanted)
    if cache is not None and cache.exists():
        for name, d in json.loads(cache.read_text(encoding="utf-8")).items():
            f = Found(**d)
            if name in tests and (f.kind or tests[name](f.step()[0])):
                found[name] = f
    for name, _test in wanted:  # a family no explanation shows: its real position, no search
        if name in EXAMPLE_POSITIONS and (name not in found or found[name].where != EXAMPLE_POSITIONS[name]):
            found[name] = Found(EXAMPLE_POSITIONS[name], kind=name)
    t0 = time.time()
    for where, line, techs, order in sources():
        left = [(name, test) for name, test in wanted if name not in found]
        if not left:
            break
        f = Found(where, line, techs, order)
        for k, step in enumerate(f.puzzle.steps, 1):
            for name, test in left:
                if name not in found and test(step):
                    found[name] = Found(where, line, techs, order, k)
                    if verbose:
                        print(f"  {name}: {where} step {k} ({time.time() - t0:.0f} s)", flush=True)
    for name, _test in wanted:  # no puzzle has it: the position the frame tests use
        if name not in found and name in POSITION_KINDS:
            found[name] = Found("tests/render/data/role_positions.txt", kind=POSITION_KINDS[name])
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({k: v.to_dict() for k, v in found.items()}, indent=1), encoding="utf-8")
    return found


# families whose steps the collections may lack: the role position of a kind of theirs
POSITION_KINDS = {"remote pair": "remote pair", "template": "template set"}
# ... or, better, a real position where one stands (issue 41: a remote pair of top1465 line 2,
# which no explanation shows because a simpler step always comes first)
EXAMPLE_POSITIONS = {"remote pair": "examples/remote-pair.txt"}


def draw_family(folder: Path, found: Found, subframes: int = 2) -> list[Path]:
    """The step's frames in every palette and language (and the first ``subframes`` of its
    proof); ``all.png``: the six frames side by side at half size. Returns the files written."""
    from PIL import Image

    from render.frame import renderer
    from render.scene import step_scenes
    from render.theme import theme

    step, before, givens, kinds = found.step()
    k = found.number or 1
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    tiles: list[Any] = []
    for palette in PALETTES:
        for lang in LANGS:
            th = theme(palette)  # the legend names the colours of the frame's own palette
            scenes = step_scenes(before, step, number=k, givens=givens, lang=lang, kinds=kinds,
                                 theme=th)[:1 + subframes]
            r = renderer(before.geo.n, th)
            for sc in scenes:
                path = folder / f"{palette}-{lang}{'-' + sc.suffix if sc.suffix else ''}.png"
                path.write_bytes(r.png(sc))
                written.append(path)
                if not sc.suffix:
                    im = Image.open(path).convert("RGB")
                    tiles.append(im.resize((im.width // 2, im.height // 2)))
    w, h = tiles[0].size
    sheet = Image.new("RGB", (w * len(PALETTES), h * len(LANGS)), "white")
    for i, im in enumerate(tiles):  # columns: palettes; rows: languages
        palette, lang = divmod(i, len(LANGS))
        sheet.paste(im, (palette * w, lang * h))
    sheet.save(folder / "all.png")
    return written


def h2_line() -> str:
    return (DATA / "hardest300.txt").read_text().split("\n")[1].split()[0]


def draw_h2_proof(out: Path) -> list[Path]:
    """H2's first step and its proof sub-frames at each ``--proof`` level: summary and first
    in every palette and language, all (every nested proof) in the default palette."""
    from explainer import Puzzle
    from render import proofdraw
    from render.frame import renderer
    from render.scene import step_scenes
    from render.theme import theme

    p = Puzzle(h2_line(), max_steps=1)
    step = p.steps[0]
    written = []
    for level, depth, palettes in (("summary", 0, PALETTES), ("first", 1, PALETTES), ("all", proofdraw.ALL,
                                                                                       PALETTES[:1])):
        folder = out / "h2-proof" / level
        folder.mkdir(parents=True, exist_ok=True)
        for palette in palettes:
            r = renderer(9, theme(palette))
            for lang in LANGS:
                for sc in step_scenes(step.before, step, number=1, givens=p.grid.values, lang=lang, kinds=p.kinds,
                                      depth=depth):
                    path = folder / f"{palette}-{lang}{'-' + sc.suffix if sc.suffix else ''}.png"
                    path.write_bytes(r.png(sc))
                    written.append(path)
        print(f"  H2 proof, --proof {level}: {len(list(folder.glob('*.png')))} frames -> {folder}")
    return written


def draw_printed(out: Path) -> None:
    """The seed's and H2's contact sheet pages and workbook (page 2 as PNG), in the default
    palette in English and the colour-blind one in French."""
    import shutil
    import subprocess

    from explainer import Puzzle
    from render.export import write_puzzle

    seed = next(_lines(ROOT / "examples" / "seed.txt"))[1]
    for name, line in (("seed", seed), ("h2", h2_line())):
        for palette, lang in (("default", "en"), ("colorblind", "fr")):
            folder = out / "printed" / f"{name}-{palette}-{lang}"
            t = time.time()
            rec = write_puzzle(Puzzle(line), folder, frames=False, gif=False, pdf=True, theme=palette, lang=lang)
            if shutil.which("pdftoppm"):
                subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "2", "-l", "2", str(folder / "workbook.pdf"),
                                str(folder / "pdf-page")], check=True)
            print(f"  {name} {palette} {lang}: {len(rec.contact_pages)} sheet pages, {rec.pdf_pages} PDF pages "
                  f"({time.time() - t:.0f} s) -> {folder}")


def gif_table(out: Path) -> str:
    """Each example's GIF from its plan: frames planned and shown, seconds, what was folded (the
    default options: 15 characters a second, 2 s at least, 300 s at most), and its contact
    sheet's pages and fill."""
    from explainer import Puzzle
    from render.gif import gif_durations, gif_timing
    from render.options import RenderOptions
    from render.plan import plan_frames, single_names
    from render.sheet import sheet_layout

    o = RenderOptions()
    rows = ["puzzle                 planned  shown  unfolded s  shown s  sheet pages  fill min/median  folded"]
    for name, line in (("examples/seed.txt", next(_lines(ROOT / "examples" / "seed.txt"))[1]),
                       ("hardest300.txt:2", h2_line()),
                       ("examples/16x16-hard.txt", next(_lines(ROOT / "examples" / "16x16-hard.txt"))[1])):
        p = Puzzle(line)
        plan = plan_frames(p)
        shown = [k for k, f in enumerate(plan) if f.level <= o.animated_depth]
        t = gif_timing(plan, shown, o, single_names(p.kinds) | {"singles"})
        unfolded = sum(gif_durations([plan[k] for k in shown], o)) / 1000
        lay = sheet_layout(plan, p.grid.n)
        fill = sorted(lay.fill()[:-1] or lay.fill())  # the last page is as full as the story is long
        folded = ", ".join(f"{k} {kind}" for kind, k in t.folded.items())
        rows.append(f"{name:24s} {len(plan):6d} {len(t.ms):6d} {unfolded:11.0f} {sum(t.ms.values()) / 1000:8.0f} "
                    f"{len(lay.pages):12d}  {fill[0]:.2f}/{fill[len(fill) // 2]:.2f}       {folded}")
    text = "\n".join(rows) + "\n"
    (out / "gif-timing.txt").write_text(text, encoding="utf-8")
    return text


def teach(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    draw_h2_proof(out)
    draw_printed(out)
    print(gif_table(out), end="")


def folder_name(i: int, name: str) -> str:
    return f"{i:02d}-" + "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in name).strip("-").replace("--", "-")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "output" / "families"))
    ap.add_argument("--only", help="comma-separated family names")
    ap.add_argument("--list", action="store_true", help="list the families and exit")
    ap.add_argument("--search", action="store_true", help="search again (else OUT/found.json, the steps found "
                                                          "last time, is kept while they still fit)")
    ap.add_argument("--teach", action="store_true", help="also H2's proof at each level, the printed outputs and "
                                                         "the GIF timing table (OUT/teach)")
    ap.add_argument("--teach-only", action="store_true", help="only those")
    args = ap.parse_args(argv)
    if args.teach_only:
        teach(Path(args.out) / "teach")
        return 0
    if args.list:
        for i, (name, _) in enumerate(FAMILIES, 1):
            print(f"{i:2d} {name}")
        return 0
    wanted = FAMILIES
    if args.only:
        names = {x.strip() for x in args.only.split(",")}
        wanted = [f for f in FAMILIES if f[0] in names]
    out = Path(args.out)
    found = find_families(wanted, None if args.search else out / "found.json")
    report = []
    from render.scene import scene as make_scene

    for i, (name, _) in enumerate(FAMILIES, 1):
        if name not in found:
            if any(name == w[0] for w in wanted):
                print(f"{i:2d} {name}: NOT FOUND")
            continue
        f = found[name]
        folder = out / folder_name(i, name)
        files = draw_family(folder, f)
        step, before, givens, kinds = f.step()
        where = f"{f.where} ({f.order}{', ' + f.techniques if f.techniques else ''}) step {f.number}" if not f.kind \
            else f"{f.where}: {f.kind}"
        print(f"{i:2d} {name}: {where} -> {folder} ({len(files)} files)")
        report.append(f"## {i:02d} {name}: {where}\n")
        for lang in LANGS:
            sc = make_scene(before, step, number=f.number or 1, givens=givens, lang=lang, kinds=kinds)
            report.append(f"[{lang}] {sc.text('title')}\n  {sc.text('caption')}\n  legend: {sc.text('legend')}\n")
    (out / "families.txt").write_text("\n".join(report), encoding="utf-8")
    if args.teach:
        teach(out / "teach")
    missing = [n for n, _ in wanted if n not in found]
    print(f"{len(wanted) - len(missing)} of {len(wanted)} families drawn into {out}"
          + (f"; not found: {', '.join(missing)}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
