"""The module graph of explainer/, techniques/ and render/: no cycle, one-way arrows.

Every import counts, also one made inside a function (a lazy import still
ties the two modules together); only imports under ``if TYPE_CHECKING:``
are left out (they never run). The engine never imports the registry.

The parts and the arrows allowed between them (docs/architecture.md):

- core (``explainer``: grid, state, solver(s), values, explanation, proof,
  technique, engine, i18n) imports only core; the one arrow up is the
  package's lazy ``Puzzle``/``explain``, loaded from ``explainer.api``;
- ``explainer.api`` (the library facade) plugs the registry into the engine
  and draws notebook pictures: core, techniques, render;
- ``techniques`` import only core (never the api: it imports them);
- ``render`` imports core and techniques (step titles, the singles set);
- the app layer: ``explainer.bank``, ``explainer.generate`` and
  ``explainer.hints`` use core, api, techniques and render but not each
  other; the command line (``explainer.cli*``) may use everything.

No module outside ``render`` imports a drawing library.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("explainer", "techniques", "render")


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _raw_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module name that module ``name`` imports anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking_only(node):
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.add(sub if sub in known else module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
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


def test_the_graph_sees_function_level_imports() -> None:
    graph = import_graph()
    assert "render.frame" in graph["explainer.model.explanation"] or "techniques" in graph["explainer.api"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_engine_never_imports_the_registry() -> None:
    graph = import_graph()
    assert not {m for m in graph["explainer.engine.loop"] if m.split(".")[0] == "techniques"}
    code = "import sys, explainer.engine.loop; print(any(m.split('.')[0] == 'techniques' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.stdout.strip() == "False"


APP = ("bank", "generate", "hints", "allsteps")
ALSO = ("hodoku", "solvers", "backends")
ALLOWED = {
    "core": {"core"},
    "api": {"core", "techniques", "render"},
    "techniques": {"core", "techniques"},
    "render": {"core", "render"},
    **{app: {"core", "api", "techniques", "render", app} for app in APP},
    # every step from a position reads positions the way hint does
    "allsteps": {"core", "api", "techniques", "render", "allsteps", "hints", "hodoku"},
    "hodoku": {"core", "hodoku"}, "backends": {"core", "backends"}, "solvers": {"core", "backends", "solvers"},
    "cli": {"core", "api", "techniques", "render", "cli", *APP, *ALSO},
}
UPWARD = {("explainer", m) for m in ("explainer.api", "explainer.app.allsteps", "explainer.app.solvers",
                                      "explainer.app.hints", "explainer.app.bank.db")}
DRAWING = ("matplotlib", "PIL", "imageio")


def part(module: str) -> str:
    """The part a module belongs to: core, api, techniques, render, cli, bank, generate or hints."""
    names = module.split(".")
    if names[0] != "explainer":
        return names[0]
    if len(names) > 2 and names[1] == "app":
        names = names[1:]
    sub = names[1] if len(names) > 1 else ""
    if sub == "api":
        return "api"
    if sub == "cli" or sub.startswith("cli_"):
        return "cli"
    return sub if sub in APP + ("hodoku", "solvers", "backends") else "core"


def test_every_module_has_a_part() -> None:
    assert {part(m) for m in import_graph()} <= set(ALLOWED)
    assert part("explainer.app.cli.db") == "cli"
    assert part("explainer.app.bank.build") == "bank" and part("explainer.model.state") == "core"


def test_arrows_point_one_way() -> None:
    wrong = sorted(f"{m} ({part(m)}) -> {d} ({part(d)})" for m, deps in import_graph().items()
                   for d in deps if part(d) not in ALLOWED[part(m)] and (m, d) not in UPWARD)
    assert not wrong, "imports against docs/architecture.md:\n" + "\n".join(wrong)


def test_no_drawing_library_outside_render() -> None:
    mods = _modules()
    wrong = sorted(f"{name} imports {m}" for name, path in mods.items() if part(name) != "render"
                   for m in _raw_imports(name, path, set(mods)) if m.split(".")[0] in DRAWING)
    assert not wrong, "drawing belongs in render/:\n" + "\n".join(wrong)
