"""The module graph of the whole repository: no cycle, imports only downward (docs/architecture.md).

Every Python file counts (the packages, the console script ``explain_sudoku.py``,
``setup.py``, ``tests/``, ``benchmarks/``), and every import in it: one made inside
a function (a lazy import still ties two modules together) and one made only
for the type checker (``if TYPE_CHECKING:``: a typing-only arrow up is still an
arrow up, and a typing-only circle still a circle).

The floors, each importing only the floors below it (and itself):

    model       explainer.model        grid, values, state, steps, ratings, technique records, orders
    core        explainer.core         compiled kernels, their pure twins, the exact-cover solver
    engine      explainer.engine       the step loop, the orders, every step of a position
    techniques  techniques             the finders and their registry          (model, core)
    render      render                 drawing                 (model; core: compiled pixel loops, routing's twin)
    api         explainer.api          Puzzle / explain: the engine with the registry plugged in
    app         explainer.app          cli, bank, generate, hints, allsteps, hodoku, solvers, backends
    facade      explainer (__init__)   the public names, loaded on first use
    program     explain_sudoku.py      the console script

``tests`` and ``benchmarks`` may import any of them; nothing imports them. Inside
the application, the parts do not import each other, but the command line (it
runs them all), ``allsteps`` (it reads positions as ``hints`` does, and HoDoKu's
lines) and ``solvers`` (its back-ends). Inside render, three stages: scene (pure
Python, no drawing library) ← raster (``frame``) ← files. No module outside
render imports a drawing library.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".venv", "output", "build", ".git", "sudoku_explainer.egg-info"}


def _modules() -> dict[str, Path]:
    """Every Python file of the repository, by module name (``tests.render.test_roles``)."""
    out: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if SKIP & set(rel.parts):
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _raw_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module name that module ``name`` imports anywhere in its body (typing-only too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def add(module: str) -> None:
        # a script's sibling imported by name (benchmarks: ``from bench_rating import spearman``)
        top = module.split(".")[0]
        if package and top not in known and not any(k.startswith(top + ".") for k in known) \
                and f"{package}.{module}" in known:
            module = f"{package}.{module}"
        found.add(module)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                add(sub if sub in known else module)
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ``known`` that module ``name`` imports anywhere in its body."""
    out = set()
    for m in _raw_imports(name, path, known):  # "techniques.links" or a deeper name: keep the longest known prefix
        while m and m not in known:
            m = m.rpartition(".")[0]
        if m and m != name:
            out.add(m)
    return out


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    return {name: _imports(name, path, set(mods)) for name, path in mods.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def dfs(u: str) -> list[str] | None:
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in state:
                cycle = dfs(v)
                if cycle:
                    return cycle
        stack.pop()
        state[u] = 2
        return None

    for u in sorted(graph):
        if u not in state:
            cycle = dfs(u)
            if cycle:
                return cycle
    return None


# ---- the floors and their arrows ---------------------------------------------------------------

FLOORS = ("model", "core", "engine", "techniques", "render", "api", "app", "facade", "program")
BELOW: dict[str, set[str]] = {
    "model": set(),
    "core": {"model"},
    "engine": {"model", "core"},
    "techniques": {"model", "core"},
    "render": {"model", "core"},  # core: compiled inner loops with pure twins (pixels, routing)
    "api": {"model", "core", "engine", "techniques", "render"},
    "app": {"model", "core", "engine", "techniques", "render", "api"},
    "facade": {"model", "core", "engine", "techniques", "render", "api", "app"},
    "program": {"model", "core", "engine", "techniques", "render", "api", "app", "facade"},
    "tests": set(FLOORS) | {"benchmarks"},
    "benchmarks": set(FLOORS),
    "build": set(),  # setup.py
}
# inside the application: the parts a part may import besides itself
APP_ARROWS = {"cli": {"allsteps", "bank", "generate", "hints", "hodoku", "solvers", "backends", "serve"},
              "allsteps": {"hints", "hodoku"}, "solvers": {"backends"}, "serve": {"hints", "bank", "generate"}}
# inside render: the stage of each module (scene: pure Python; raster: pixels; files: the rest)
RENDER_SCENE = {"shapes", "styles", "sizes", "routing", "proofdraw", "view", "scene", "theme", "options", "plan",
                "scenejson", "colournames", "typeset"}
RENDER_STAGES = ("scene", "raster", "files")
DRAWING = ("matplotlib", "PIL", "imageio")


def floor(module: str) -> str:
    """The floor (or outer part: tests, benchmarks, build) a module belongs to."""
    names = module.split(".")
    if names[0] == "explainer":
        return "facade" if len(names) == 1 else names[1]
    return {"explain_sudoku": "program", "setup": "build"}.get(names[0], names[0])


def app_part(module: str) -> str:
    """The application's part of a module of explainer.app ("" for the package itself)."""
    names = module.split(".")
    return names[2] if len(names) > 2 else ""


def render_stage(module: str) -> str:
    name = module.split(".")[1] if "." in module else ""
    return "scene" if name in RENDER_SCENE or not name else "raster" if name == "frame" else "files"


def test_every_file_is_in_the_graph() -> None:
    graph = import_graph()
    assert {"explain_sudoku", "setup", "explainer", "explainer.model.grid", "tests.test_architecture",
            "benchmarks.bench_orders", "tests.data.make_hodoku_positions"} <= set(graph)
    assert {floor(m) for m in graph} <= set(BELOW), sorted({floor(m) for m in graph} - set(BELOW))
    # function-level, typing-only and sibling imports count
    assert "explainer.app.allsteps" in graph["explainer"] and "explainer.app.cli" in graph["explain_sudoku"]
    assert "benchmarks.bench_rating" in graph["benchmarks.bench_orders"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_imports_point_down() -> None:
    wrong = sorted(f"{m} ({floor(m)}) -> {d} ({floor(d)})" for m, deps in import_graph().items()
                   for d in deps if floor(d) != floor(m) and floor(d) not in BELOW[floor(m)])
    assert not wrong, "imports against docs/architecture.md:\n" + "\n".join(wrong)


def test_the_application_parts_stay_apart() -> None:
    graph = import_graph()
    wrong = sorted(f"{m} -> {d}" for m, deps in graph.items() if floor(m) == "app" for d in deps
                   if floor(d) == "app" and app_part(d) and app_part(d) != app_part(m)
                   and app_part(d) not in APP_ARROWS.get(app_part(m), set()))
    assert not wrong, "explainer.app's parts import each other:\n" + "\n".join(wrong)


def test_render_stages_point_back() -> None:
    graph = import_graph()
    wrong = sorted(f"{m} ({render_stage(m)}) -> {d} ({render_stage(d)})" for m, deps in graph.items()
                   if floor(m) == "render" for d in deps if floor(d) == "render"
                   and RENDER_STAGES.index(render_stage(d)) > RENDER_STAGES.index(render_stage(m)))
    assert not wrong, "render's stages: scene <- raster <- files:\n" + "\n".join(wrong)


def test_no_drawing_library_outside_render_and_its_scene_stage() -> None:
    mods = _modules()
    shipped = set(FLOORS) - {"render"}
    wrong = sorted(f"{name} imports {m}" for name, path in mods.items()
                   if floor(name) in shipped or (floor(name) == "render" and render_stage(name) == "scene")
                   for m in _raw_imports(name, path, set(mods)) if m.split(".")[0] in DRAWING)
    assert not wrong, "drawing belongs in render's raster and files stages:\n" + "\n".join(wrong)


def test_the_facade_names_what_it_loads() -> None:
    """explainer/__init__.py loads each public name from the module its typing block imports it from."""
    import explainer

    tree = ast.parse((ROOT / "explainer" / "__init__.py").read_text(encoding="utf-8"))
    typed = {alias.asname or alias.name: f"explainer.{node.module}" for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module for alias in node.names}
    assert typed == explainer._WHERE
    assert sorted(explainer.__all__) == sorted(explainer._WHERE)
    assert all(issubclass(getattr(explainer, n), explainer.PuzzleError) for n in explainer.__all__
               if n.endswith(("Error", "Mistake", "Busy")))


def _loaded(code: str) -> list[str]:
    """The project's modules a fresh interpreter has loaded after ``code``."""
    probe = f"import sys; {code}; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
            "('explainer', 'techniques', 'render', 'explain_sudoku')))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""})
    return ast.literal_eval(out.stdout.strip())


def test_a_model_module_loads_nothing_else() -> None:
    """The facade loads its names on first use: the model alone stays light, and the engine
    never loads the registry (it is handed its techniques)."""
    assert _loaded("import explainer.model.grid") == ["explainer", "explainer.model", "explainer.model.grid"]
    assert not [m for m in _loaded("import explainer.engine") if m.split(".")[0] in ("techniques", "render")]
    assert not [m for m in _loaded("import render.export") if floor(m) not in ("render", "model", "core", "facade")]
