"""What a frame shows, as plain data: a list of shapes, each with a role.

``scene(state, step)`` reads the candidate state *before* the step and the
step's highlight fields (STEPS_JSON.md) and lays them out in grid units:
x = column, y = row (0 at the top), a cell is 1×1, candidate v of a cell sits
at the same spot of an m×m sub-grid. No matplotlib here, and no reasoning:
the step says what matters, the scene only says where it goes.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from explainer.grid import value_char
from explainer.i18n import text_in
from techniques import title

# Roles, in the order a learner reads them.
ROLES = ("given", "placed", "place", "candidate", "cells", "cells_alt", "houses",
         "marked", "marked_alt", "eliminate", "strong_link", "weak_link", "title", "caption")

WORDS = {
    "en": {"step": "Step", "steps": "Steps", "initial": "Initial grid", "solution": "Solution",
           "givens": "{k} givens", "solved": "Solved in {k} steps ({d}).",
           "unsolved": "Stuck after {k} steps: the chosen techniques cannot go further.",
           "singles": "Singles: {cells}.", "and": "and"},
    "fr": {"step": "Étape", "steps": "Étapes", "initial": "Grille initiale", "solution": "Solution",
           "givens": "{k} indices", "solved": "Résolue en {k} étapes ({d}).",
           "unsolved": "Bloquée après {k} étapes : les techniques choisies ne vont pas plus loin.",
           "singles": "Singletons : {cells}.", "and": "et"},
}
DIFFICULTY_FR = {"easy": "facile", "medium": "moyenne", "difficult": "difficile"}


@dataclass(frozen=True)
class Shape:
    """One thing to draw. ``kind`` is the shape, ``role`` why it is there.

    kinds: value (large digit), candidate (small digit), square (filled cell),
    circle (ring around a value), outline (thick cell outline), house
    (inset rounded outline), disk (filled disk under a candidate), ring
    (white disk with a ring), strike (line through a candidate), link
    (segment or quadratic curve between two candidate spots), text.
    """

    role: str
    kind: str
    row: int = -1
    col: int = -1
    value: int = 0
    house: tuple[str, int] | None = None
    points: tuple[tuple[float, float], ...] = ()
    text: str = ""

    @property
    def char(self) -> str:
        return value_char(self.value)


class Scene(list):
    """A list of shapes plus the grid size."""

    def __init__(self, n: int, shapes: Iterable[Shape] = ()) -> None:
        super().__init__(shapes)
        self.n = n
        self.m = math.isqrt(n)

    def of(self, role: str, kind: str | None = None) -> list[Shape]:
        return [s for s in self if s.role == role and (kind is None or s.kind == kind)]

    @property
    def roles(self) -> set[str]:
        return {s.role for s in self}

    def text(self, role: str) -> str:
        found = self.of(role)
        return found[0].text if found else ""


def spot(n: int, r: int, c: int, v: int) -> tuple[float, float]:
    """Centre of candidate v of cell (r, c), in grid units."""
    m = math.isqrt(n)
    i, j = divmod(v - 1, m)
    k = (0.78 if m <= 3 else 0.82) / m  # a sub-grid a little inside the cell, clear of the lines
    return c + 0.5 + (j - (m - 1) / 2) * k, r + 0.5 + (i - (m - 1) / 2) * k


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def step_title(number: int | tuple[int, int], technique: str, lang: str = "en") -> str:
    w = words(lang)
    name = title(technique, lang)
    if isinstance(number, tuple) and number[0] != number[1]:
        return f"{w['steps']} {number[0]}–{number[1]} — {name}"
    k = number[0] if isinstance(number, tuple) else number
    return f"{w['step']} {k} — {name}"


def scene(state: Any, step: Any = None, *, number: int | tuple[int, int] | None = None,
          title: str | None = None, caption: str | None = None, givens: Sequence[int] | None = None,
          lang: str = "en", show_candidates: bool | None = None) -> Scene:
    """The shapes of one frame: ``state`` is the grid before ``step`` (None: just the grid).

    ``givens``: the puzzle's givens (values told apart from placed ones);
    ``number``: the step number (or a first–last range) for the title.
    """
    geo = state.geo
    n = geo.n
    out = Scene(n)
    values = state.values

    place = {(r, c): v for r, c, v in (step.place if step else ())}
    special: dict[tuple[int, int, int], str] = {}
    if step is not None:
        for role in ("marked_alt", "marked", "eliminate"):  # later wins
            for cand in getattr(step, role):
                special[tuple(cand)] = role

    # cell highlights first (they lie under the digits)
    if step is not None:
        for r, c in step.cells:
            solved = values[r * n + c] or (r, c) in place
            out.append(Shape("cells", "circle" if solved else "square", r, c, values[r * n + c]))
        for r, c in step.cells_alt:
            solved = values[r * n + c] or (r, c) in place
            out.append(Shape("cells_alt", "circle" if solved else "outline", r, c, values[r * n + c]))
        for kind, k in step.houses:
            out.append(Shape("houses", "house", house=(kind, k)))

    # values
    for cell, v in enumerate(values):
        if v:
            r, c = divmod(cell, n)
            given = givens is None or givens[cell] == v
            out.append(Shape("given" if given else "placed", "value", r, c, v))
    for (r, c), v in place.items():
        out.append(Shape("place", "value", r, c, v))

    # candidates
    if show_candidates is None:
        show_candidates = bool(step is not None and step.show_candidates)
    spots: dict[tuple[int, int, int], tuple[float, float]] = {}
    if show_candidates:
        for cell, mask in enumerate(state.cand):
            if not mask:
                continue
            r, c = divmod(cell, n)
            if (r, c) in place:
                continue
            v = 1
            while mask:
                if mask & 1 and (r, c, v) not in special:
                    out.append(Shape("candidate", "candidate", r, c, v))
                    spots[(r, c, v)] = spot(n, r, c, v)
                mask >>= 1
                v += 1
    for (r, c, v), role in special.items():
        spots[(r, c, v)] = spot(n, r, c, v)

    # links between candidate spots (under the disks, over plain digits)
    if step is not None:
        for role, links in (("strong_link", step.strong_links), ("weak_link", step.weak_links)):
            for a, b in links:
                a, b = tuple(a), tuple(b)
                if a[:2] == b[:2]:
                    continue  # never inside one cell
                pa, pb = spot(n, *a), spot(n, *b)
                obstacles = [p for key, p in spots.items() if key != a and key != b]
                out.append(Shape(role, "link", points=link_path(pa, pb, obstacles, 0.42 / geo.m, n)))

    # marked / eliminated candidates
    for (r, c, v), role in sorted(special.items()):
        if role == "marked":
            out.append(Shape("marked", "disk", r, c, v))
        elif role == "marked_alt":
            out.append(Shape("marked_alt", "ring", r, c, v))
        else:
            out.append(Shape("eliminate", "disk", r, c, v))
            out.append(Shape("eliminate", "strike", r, c, v))

    # words
    w = words(lang)
    if title is None:
        if step is None:
            title = w["initial"]
        else:
            title = step_title(number if number is not None else 0, step.technique, lang)
    if caption is None:
        caption = text_in(step, lang) if step is not None else ""
    out.append(Shape("title", "text", text=title))
    if caption:
        out.append(Shape("caption", "text", text=caption))
    return out


def link_path(a: tuple[float, float], b: tuple[float, float], obstacles: list[tuple[float, float]],
              clearance: float, n: int = 0) -> tuple[tuple[float, float], ...]:
    """A straight segment a–b, or a quadratic curve (a, control, b) bent just
    enough to keep ``clearance`` from every other digit it would cross."""
    ax_, ay = a
    bx, by = b
    dx, dy = bx - ax_, by - ay
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    lo_x, hi_x = min(ax_, bx) - 1, max(ax_, bx) + 1
    lo_y, hi_y = min(ay, by) - 1, max(ay, by) + 1
    near = [(x, y) for x, y in obstacles if lo_x <= x <= hi_x and lo_y <= y <= hi_y]
    for bend in (0.0, 0.12, -0.12, 0.22, -0.22, 0.35, -0.35, 0.5, -0.5):
        cx, cy = (ax_ + bx) / 2 + nx * bend * length, (ay + by) / 2 + ny * bend * length
        if _clear(a, (cx, cy), b, near, clearance, n):
            break
    else:
        bend = 0.22
        cx, cy = (ax_ + bx) / 2 + nx * bend * length, (ay + by) / 2 + ny * bend * length
    if bend == 0.0:
        return (a, b)
    return (a, (cx, cy), b)


def _clear(a, ctrl, b, near, clearance, n=0) -> bool:
    if n and not (0.1 <= ctrl[0] <= n - 0.1 and 0.1 <= ctrl[1] <= n - 0.1):
        return False  # a curve must stay on the grid
    if not near:
        return True
    steps = 24
    c2 = clearance * clearance
    for i in range(2, steps - 1):  # skip the ends (they sit on the joined digits)
        t = i / steps
        u = 1 - t
        x = u * u * a[0] + 2 * u * t * ctrl[0] + t * t * b[0]
        y = u * u * a[1] + 2 * u * t * ctrl[1] + t * t * b[1]
        for px, py in near:
            if (px - x) ** 2 + (py - y) ** 2 < c2:
                return False
    return True


def initial_scene(state: Any, *, givens: Sequence[int] | None = None, lang: str = "en",
                  caption: str | None = None) -> Scene:
    w = words(lang)
    k = sum(1 for v in state.values if v)
    if caption is None:
        caption = w["givens"].format(k=k) + "."
    return scene(state, None, title=w["initial"], caption=caption, givens=givens, lang=lang)


def solution_scene(state: Any, *, givens: Sequence[int] | None = None, lang: str = "en",
                   steps: int = 0, difficulty: str = "", complete: bool = True) -> Scene:
    w = words(lang)
    d = DIFFICULTY_FR.get(difficulty, difficulty) if lang == "fr" else difficulty
    caption = (w["solved"] if complete else w["unsolved"]).format(k=steps, d=d)
    return scene(state, None, title=w["solution"], caption=caption, givens=givens, lang=lang,
                 show_candidates=not complete)
