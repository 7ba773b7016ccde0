"""The module graph of explainer/, techniques/ and render/ has no cycle.

Every import counts, also one made inside a function (a lazy import still
ties the two modules together); only imports under ``if TYPE_CHECKING:``
are left out (they never run). The engine never imports the registry.
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


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ``known`` that module ``name`` imports anywhere in its body."""
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
    out = set()
    for m in found:  # "techniques.links" or a deeper name: keep the longest known prefix
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
    assert "render.frame" in graph["explainer.explanation"] or "techniques" in graph["explainer.api"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_engine_never_imports_the_registry() -> None:
    graph = import_graph()
    assert not {m for m in graph["explainer.engine"] if m.split(".")[0] == "techniques"}
    code = "import sys, explainer.engine; print(any(m.split('.')[0] == 'techniques' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.stdout.strip() == "False"
