"""The page's requests as plain functions: a request body (a dict) in, a JSON-ready dict out.

No HTTP here (``app`` carries the requests, ``pool`` runs these in worker processes with a
time limit), so each is tested by calling it. A request the server refuses raises
``BadRequest`` (4xx, one line); anything else raised is an engine error (500). The work is
the library's: ``explainer.app.hints`` (mistakes, the next step), ``render.scene``
(the scenes the PNG frames draw), the engine and the registry; this module only reads the
position, calls them and shapes the answer (docs/serve.md).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from explainer.app.hints import hint_text, mistakes, next_step_from
from explainer.model.explanation import Explanation
from explainer.model.grid import LETTERS, value_char
from explainer.model.state import State
from explainer.model.technique import kinds_of, rate_steps
from render.proofdraw import plan
from render.scene import step_scenes, technique_title
from render.scenejson import scene_dict
from techniques import REGISTRY, known_kinds, title

from .position import BadRequest, Position, field, read_position, read_puzzle

HANDLERS = ("start", "check", "hint", "apply")  # run by the worker pool (pool.py)
MAX_STEPS = 2000  # an explanation from a position stops here (a 25×25 has 625 cells)
DEPTH = 1  # proof levels drawn by default (deeper ones on request: ``depth``); level 2 doubles the time
MAX_DEPTH = 9


# ---- answers shared by the handlers ---------------------------------------------------------

def grid_line(state: State) -> str:
    """The learner's values as a line ('.' for an empty cell)."""
    return "".join(LETTERS[v - 1] if v else "." for v in state.values)


def mistakes_of(pos: Position) -> list[dict[str, Any]]:
    return [m.to_dict(pos.lang) for m in mistakes(pos.state, pos.solution)]


def step_rating(step: Explanation, pos: Position) -> float:
    chosen = pos.techniques if pos.techniques is not None else REGISTRY
    kinds = dict(known_kinds())
    kinds.update(kinds_of(chosen))
    return rate_steps([step], kinds, pos.order.view)[0]


def scenes_of(state: State, step: Explanation, pos: Position, number: int | None = None,
              depth: int = DEPTH) -> list[dict[str, Any]]:
    """The step's frame and its proof's sub-frames up to level ``depth`` (render.scene.step_scenes)
    as scene dicts. Without a step number (a hint) the titles name the technique, as ``hint``'s
    PNG does."""
    kinds = known_kinds()
    scenes = [scene_dict(sc) for sc in step_scenes(state, step, number=number, givens=pos.puzzle.values,
                                                      lang=pos.lang, kinds=kinds, depth=depth)]
    opening = opens(step, depth)
    for sc in scenes:
        sc["opens"] = sc["suffix"] in opening
    if number is None:
        name = technique_title(step.technique, pos.lang, getattr(step, "detail", ()), kinds)
        for sc in scenes:
            words = f"{name} ({sc['suffix']})" if sc["suffix"] else name
            sc["title"] = words
            for shape in sc["shapes"]:
                if shape["role"] == "title":
                    shape["text"] = words
    return scenes


def depth_of(body: Mapping[str, Any]) -> int:
    """The proof levels to draw (``depth``, default ``DEPTH``): a nested proof's deepest levels
    can hold hundreds of sub-frames, drawn when the learner opens them."""
    depth = body.get("depth", DEPTH)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise BadRequest(f"depth: expected a proof level 1..{MAX_DEPTH}")
    return depth


def opens(step: Explanation, depth: int) -> set[str]:
    """The suffixes of the sub-frames at level ``depth`` whose nested frames (level ``depth`` + 1)
    were left out: each deeper part follows, in file order, the part that opens it."""
    if step.proof is None:
        return set()
    out: set[str] = set()
    last: str | None = None
    for part in plan(step.proof, depth=depth + 1):
        if part.level == depth:
            last = part.suffix
        elif part.level > depth and last is not None:
            out.add(last)
        elif part.level < depth:
            last = None
    return out


def deeper(step: Explanation, depth: int) -> bool:
    """True when the step's proof has sub-frames below level ``depth``."""
    return step.proof is not None and len(plan(step.proof, depth=depth + 1)) > len(plan(step.proof, depth=depth))


def step_dict(step: Explanation) -> dict[str, Any]:
    return step.to_dict()


class StepCache:
    """The last positions' next steps, in this worker process only (bounded, least recently used
    out): the page asks a hint at level 1, 2, then 3 on one position, and the step (on hardest
    positions a forcing-chain search of up to seconds) is found once. A step depends only on the
    position (values, candidates, puzzle) and the order and techniques asked, the key."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self.steps: OrderedDict[tuple[object, ...], Explanation | None] = OrderedDict()

    @staticmethod
    def key(pos: Position, state: State) -> tuple[object, ...]:
        names = None if pos.techniques is None else tuple(t.name for t in pos.techniques)
        return (pos.puzzle.to_line(), bytes(state.values), tuple(state.cand), pos.order.name, names)

    def step(self, pos: Position, state: State) -> Explanation | None:
        key = self.key(pos, state)
        if key in self.steps:
            self.steps.move_to_end(key)
            return self.steps[key]
        found = next_step_from(state, pos.solution, pos.order, pos.techniques)
        self.steps[key] = found
        if len(self.steps) > self.size:
            self.steps.popitem(last=False)
        return found


STEPS = StepCache()


def next_step(pos: Position, state: State | None = None) -> Explanation | None:
    """The engine's next step from the position (or ``state``), through the worker's ``STEPS``."""
    return STEPS.step(pos, state if state is not None else pos.state)


# ---- the handlers ------------------------------------------------------------------------

def start(body: Mapping[str, Any]) -> dict[str, Any]:
    """A puzzle from any text the command line reads: its line, size and number of givens."""
    if not isinstance(body, Mapping):
        raise BadRequest("the request body is a JSON object")
    text = field(body, "text", str, required=True)
    grid, _ = read_puzzle(text, "puzzle")
    return {"puzzle": grid.to_line(), "n": grid.n, "givens": sum(1 for v in grid.values if v)}


def check(body: Mapping[str, Any]) -> dict[str, Any]:
    """Every mistake of the learner's grid (an empty list: on track)."""
    pos = read_position(body)
    return {"mistakes": mistakes_of(pos)}


def hint(body: Mapping[str, Any]) -> dict[str, Any]:
    """The hint at a level from the learner's position (their marks when they have some)."""
    pos = read_position(body)
    level = body.get("level", 1)
    if isinstance(level, bool) or level not in (1, 2, 3):
        raise BadRequest("level: expected 1, 2 or 3")
    depth = depth_of(body)
    found = mistakes_of(pos)
    if found:
        return {"mistakes": found}
    if pos.state.is_solved():
        return {"level": level, "technique": None, "text": hint_text(None, level, pos.lang), "step": None}
    step = next_step(pos)
    if step is None:
        text = ("No step of the ticked techniques applies here." if pos.lang == "en"
                else "Aucune étape des techniques cochées ne s'applique ici.")
        return {"level": level, "technique": None, "text": text, "step": None, "stuck": True}
    out: dict[str, Any] = {"level": level, "technique": step.technique,
                           "title": title(step.technique, pos.lang, getattr(step, "detail", ())),
                           "text": hint_text(step, level, pos.lang), "step": None}
    if level == 3:
        # the three levels' words at once: a page may reveal them one by one without asking again
        out["texts"] = {str(k): hint_text(step, k, pos.lang) for k in (1, 2, 3)}
        out["step"] = step_dict(step)
        out["scenes"] = scenes_of(pos.state, step, pos, depth=depth)
        out["rating"] = step_rating(step, pos)
        out["depth"] = depth
        out["deeper"] = deeper(step, depth)
    return out


def _cands(value: Any, n: int, name: str) -> list[tuple[int, int, int]]:
    if not isinstance(value, list):
        raise BadRequest(f"step.{name}: expected a list of [row, col, value]")
    out = []
    for x in value:
        if (not isinstance(x, list) or len(x) != 3 or not all(isinstance(k, int) and not isinstance(k, bool)
                                                               for k in x)
                or not (0 <= x[0] < n and 0 <= x[1] < n and 1 <= x[2] <= n)):
            raise BadRequest(f"step.{name}: {x!r} is not a candidate [row, col, value] of a {n}×{n} grid")
        out.append((x[0], x[1], x[2]))
    return out


def marks_line(state: State, explicit: Sequence[bool]) -> str:
    """The candidates line of a state: a value in its own slot; an empty cell's candidates where
    the learner has marks (``explicit``), else no marks ('.' in every slot)."""
    n = state.geo.n
    out = []
    for c in range(state.geo.ncells):
        v = state.values[c]
        if v:
            out.append("".join(LETTERS[k] if k + 1 == v else "." for k in range(n)))
        elif explicit[c]:
            out.append("".join(LETTERS[k] if state.has(c, k + 1) else "." for k in range(n)))
        else:
            out.append("." * n)
    return "".join(out)


def apply(body: Mapping[str, Any]) -> dict[str, Any]:
    """The position after a step (its placements and eliminations on the learner's marks).
    A step that places a wrong value or removes a true candidate is refused (it is not a step
    of this position)."""
    pos = read_position(body)
    step = field(body, "step", dict, required=True)
    n = pos.n
    place = _cands(step.get("place", []), n, "place")
    elim = _cands(step.get("eliminate", []), n, "eliminate")
    for r, c, v in place:
        if pos.solution[r * n + c] != v:
            raise BadRequest(f"step: placing {value_char(v)} in r{r + 1}c{c + 1} is not a step of this position")
    for r, c, v in elim:
        if pos.solution[r * n + c] == v:
            raise BadRequest(f"step: removing {value_char(v)} from r{r + 1}c{c + 1} is not a step of this position")
    marks = body.get("marks")
    explicit = [False] * (n * n)
    if isinstance(marks, str):
        explicit = [any(ch not in ".0_" for ch in marks[c * n:(c + 1) * n]) for c in range(n * n)]
    state = pos.state.copy()
    for r, c, v in place:
        state.place(r * n + c, v)
    for r, c, v in elim:
        state.eliminate(r * n + c, v)
        explicit[r * n + c] = True
    return {"grid": grid_line(state), "marks": marks_line(state, explicit)}
