"""What a frame shows, as plain data: a list of shapes, each with a role.

``scene(state, step)`` reads the candidate state *before* the step and the
step's highlight fields (STEPS_JSON.md) and lays them out in grid units:
x = column, y = row (0 at the top), a cell is 1×1, candidate v of a cell sits
at the same spot of an m×m sub-grid. No matplotlib here, and no reasoning:
the step says what matters, the scene only says where it goes.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import groupby
from typing import Any

from explainer.model.explanation import Explanation
from explainer.model.i18n import notation, sentence, text_in
from explainer.model.proof import Proof
from explainer.model.roles import Role, roles_of
from explainer.model.state import AnyState
from explainer.model.technique import StepKind, title_of

from .colournames import colour_name
from .proofdraw import ALL, Part
from .routing import Obstacles, route
from .shapes import Scene, Shape, spot
from .sizes import LINK_CLEAR, disk_r, spot_gap
from .styles import CAND_ORDER, CELL_ORDER, style, tinted
from .theme import DEFAULT

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


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


Cell = tuple[int, int]  # (row, col)
Cand = tuple[int, int, int]  # (row, col, value)

# No kinds known: a step is titled by its name (``title_of``).
NO_KINDS: Mapping[str, StepKind] = {}


def technique_title(technique: str, lang: str = "en", detail: Any = (),
                    kinds: Mapping[str, StepKind] = NO_KINDS) -> str:
    """The title of a step name in a language, by its kind in ``kinds`` (the run's step kinds,
    ``Puzzle.kinds``; a tuple's by its size)."""
    return title_of(technique, kinds, lang, tuple(dict(detail or ()).items()))


def step_title(number: int | str | tuple[int, int], technique: str, lang: str = "en", detail: Any = (),
               kinds: Mapping[str, StepKind] = NO_KINDS) -> str:
    w = words(lang)
    name = technique_title(technique, lang, detail, kinds)
    if isinstance(number, tuple) and number[0] != number[1]:
        return f"{w['steps']} {number[0]}–{number[1]} — {name}"
    k = number[0] if isinstance(number, tuple) else number
    return f"{w['step']} {k} — {name}"


# the roles a frame shows, in words (the caption's last line): one entry per role, or per pair
# of roles read together; only the roles a frame draws are named. ``{key}`` is the name of the
# palette colour ``key`` in the frame's palette (render/colournames.py): a legend names each
# role by its look, in words, in every palette and language (issue 41). French names colours
# as nouns ("disques en bleu"), dashed lines "tirets" and dotted ones "pointillés".
LEGEND: dict[str, dict[tuple[str, ...], str]] = {
    "en": {
        ("placed",): "{place}: the value placed",
        ("removed",): "struck {eliminate} disks: removed",
        ("house",): "solid {houses} outline: the house the step reads",
        ("reason",): "{cells} circles: the solved cells that rule the other places out, by their value "
                     "or by being filled",
        ("cells",): "{cells_fill} cells: the pattern's cells",
        ("on", "off"): "{on} disks “on”, {off} disks “off”",
        ("on",): "{on} disks “on”", ("off",): "{off} disks “off”",
        ("value",): "{marked} disks: the pattern's values",
        ("pivot", "pincer"): "{pivot_fill} cell: the pivot, {cells_alt} outlines: the pincers",
        ("pivot",): "{pivot_fill} cell: the pivot", ("pincer",): "{cells_alt} outlines: the pincers",
        ("base", "cover"): "solid {base} outlines: the base, dashed {cover}: the cover",
        ("base",): "solid {base} outline: where the value is locked",
        ("cover",): "dashed {cover} outlines: the houses whose values rule the other places out",
        ("fin",): "{fin} rings: the fin, in its box",
        ("floor", "roof"): "{cells_fill} cells: the floor, {cells_alt} outlines: the roof",
        ("floor",): "{cells_fill} cells: the floor", ("roof",): "{cells_alt} outlines: the roof",
        ("extra",): "{extra} rings: the extra candidates",
        ("cycle",): "{cycle} band: the loop",
        ("z",): "{z} rings: the value removed, where it lies in the pattern",
        ("set",): "each set in its own tint ({tint0}, {tint1}, …)",
        ("petal", "stem"): "{stem_fill} cell: the stem, each petal in the tint of the stem value it answers",
        ("restricted-common",): "{rc} disks: the linking values",
        ("colour", "removed-tinted"): "{tint0} disks: colour A, {tint1} disks: colour B, a removed candidate "
                                      "ringed in its colour",
        ("colour",): "{tint0} disks: colour A, {tint1} disks: colour B",
        ("removed-tinted",): "a removed candidate ringed in the tint of its group",
        ("line",): "dashed {line} outlines: the rectangle's row and column",
        ("grouped",): "{group_fill} cells: a group, its candidates read as one",
        ("link-directed", "link-strong", "link-weak"): "arrows: the chain as it reads, solid {strong_link}: "
                                                       "strong links, dashed {weak_link}: weak links",
        ("link-directed", "link-strong"): "arrows: the chain as it reads, solid {strong_link}: strong links",
        ("link-directed", "link-weak"): "dashed {weak_link} arrows: weak links, as the step reads them",
        ("link-strong", "link-weak"): "solid {strong_link} lines: strong links, dashed {weak_link}: weak links",
        ("link-strong",): "solid {strong_link} lines: strong links",
        ("link-weak",): "dashed {weak_link} lines: weak links",
        ("assumption", "assumption-groups"): "thick rings: each case's assumption in its own colour ({tint0}, "
                                             "{tint1}, …), filled in it when true, struck when ruled out",
        ("assumption",): "thick {assume} ring: the assumption",
        ("implied-true",): "{proof_true} disks: true",
        ("implied-false",): "struck {proof_false} rings: ruled out",
        ("implies",): "arrows: implications",
        ("contradiction",): "{contradiction} marks: the contradiction",
        ("conclusion",): "wide {conclusion} rings: what every case concludes",
        ("house-decides",): "dotted: the house that decides",
        ("faint",): "faint: stated in an earlier frame",
    },
    "fr": {
        ("placed",): "en {place} : la valeur placée",
        ("removed",): "disques barrés en {eliminate} : retirés",
        ("house",): "contour plein en {houses} : l'unité où l'étape raisonne",
        ("reason",): "cercles en {cells} : les cases résolues qui excluent les autres places, par leur valeur "
                     "ou parce qu'elles sont remplies",
        ("cells",): "cases en {cells_fill} : les cases du motif",
        ("on", "off"): "disques en {on} « vrai », disques en {off} « faux »",
        ("on",): "disques en {on} « vrai »", ("off",): "disques en {off} « faux »",
        ("value",): "disques en {marked} : les valeurs du motif",
        ("pivot", "pincer"): "case en {pivot_fill} : le pivot, contours en {cells_alt} : les pinces",
        ("pivot",): "case en {pivot_fill} : le pivot", ("pincer",): "contours en {cells_alt} : les pinces",
        ("base", "cover"): "contours pleins en {base} : la base, tirets en {cover} : la couverture",
        ("base",): "contour plein en {base} : là où la valeur est bloquée",
        ("cover",): "tirets en {cover} : les unités dont les valeurs excluent les autres places",
        ("fin",): "anneaux en {fin} : l'aileron, dans son bloc",
        ("floor", "roof"): "cases en {cells_fill} : le plancher, contours en {cells_alt} : le toit",
        ("floor",): "cases en {cells_fill} : le plancher", ("roof",): "contours en {cells_alt} : le toit",
        ("extra",): "anneaux en {extra} : les candidats en plus",
        ("cycle",): "bande en {cycle} : la boucle",
        ("z",): "anneaux en {z} : la valeur retirée, là où elle est dans le motif",
        ("set",): "chaque ensemble dans sa propre teinte ({tint0}, {tint1}, …)",
        ("petal", "stem"): "case en {stem_fill} : la tige, chaque pétale dans la teinte de la valeur de la tige "
                           "à laquelle il répond",
        ("restricted-common",): "disques en {rc} : les valeurs de liaison",
        ("colour", "removed-tinted"): "disques en {tint0} : couleur A, disques en {tint1} : couleur B, un "
                                      "candidat retiré entouré de sa couleur",
        ("colour",): "disques en {tint0} : couleur A, disques en {tint1} : couleur B",
        ("removed-tinted",): "un candidat retiré entouré de la teinte de son groupe",
        ("line",): "tirets en {line} : la ligne et la colonne du rectangle",
        ("grouped",): "cases en {group_fill} : un groupe, ses candidats lus comme un seul",
        ("link-directed", "link-strong", "link-weak"): "flèches : la chaîne dans son sens de lecture, traits "
                                                       "pleins en {strong_link} : liens forts, tirets en "
                                                       "{weak_link} : liens faibles",
        ("link-directed", "link-strong"): "flèches : la chaîne dans son sens de lecture, traits pleins en "
                                          "{strong_link} : liens forts",
        ("link-directed", "link-weak"): "flèches en tirets {weak_link} : liens faibles, dans le sens où l'étape "
                                        "les lit",
        ("link-strong", "link-weak"): "traits pleins en {strong_link} : liens forts, tirets en {weak_link} : "
                                      "liens faibles",
        ("link-strong",): "traits pleins en {strong_link} : liens forts",
        ("link-weak",): "tirets en {weak_link} : liens faibles",
        ("assumption", "assumption-groups"): "anneaux épais : l'hypothèse de chaque cas dans sa couleur ({tint0}, "
                                             "{tint1}, …), remplie si vraie, barrée si exclue",
        ("assumption",): "anneau épais en {assume} : l'hypothèse",
        ("implied-true",): "disques en {proof_true} : vrai",
        ("implied-false",): "anneaux barrés en {proof_false} : exclu",
        ("implies",): "flèches : implications",
        ("contradiction",): "marques en {contradiction} : la contradiction",
        ("conclusion",): "anneaux larges en {conclusion} : ce que chaque cas conclut",
        ("house-decides",): "pointillés : l'unité qui décide",
        ("faint",): "pâle : dit dans une image précédente",
    },
}


class _Names(dict[str, str]):
    """Palette keys → colour names in one language (``str.format_map``)."""

    def __init__(self, theme: Mapping[str, Any], lang: str) -> None:
        super().__init__()
        self.theme, self.lang = theme, lang

    def __missing__(self, key: str) -> str:
        colour = self.theme.get(key, key)
        return colour_name(str(colour), self.lang)


def legend_phrase(key: tuple[str, ...], lang: str = "en", theme: Mapping[str, Any] | None = None) -> str:
    """One legend entry in ``lang``, its colours named in ``theme`` (default: the default palette)."""
    table = LEGEND.get(lang, LEGEND["en"])
    return table[key].format_map(_Names(theme if theme is not None else DEFAULT, lang))


def deciding_house(shapes: Iterable[Shape]) -> set[str]:
    """{"house-decides"} when a proof's fact draws the house that decides it (dotted),
    for the legend to name it only then."""
    return {"house-decides"} if any(s.kind == "dotted" and s.house is not None for s in shapes) else set()


PLAIN_ROLES = frozenset({"given", "earlier", "candidate"})  # the plain digits' roles (legend_roles)


def legend_roles(shapes: Iterable[Shape]) -> set[str]:
    """The legend's keys for what ``shapes`` draw: their roles, the links' kinds and direction,
    a removed candidate ringed in its group's tint, the house that decides a proof's fact, the
    cases' own colours, marks stated in an earlier frame."""
    # the plain digits (a big grid's thousands of candidates and values) name nothing the legend
    # says ("given", "earlier", "candidate" are none of LEGEND's keys): left out of the passes
    shapes = [s for s in shapes if s.role not in PLAIN_ROLES or s.faint or s.kind not in ("value", "candidate")]
    names = {s.role for s in shapes} | {f"link-{s.kind}" for s in shapes if s.role == "link"}
    if any(s.directed for s in shapes if s.role == "link"):
        names.add("link-directed")
    if any(s.kind == "thick" and tinted(s.role) for s in shapes):
        names.add("removed-tinted")
    if any(s.role == "assumption" and s.group is not None for s in shapes):
        names.add("assumption-groups")
    if any(s.faint for s in shapes):
        names.add("faint")
    return names | deciding_house(shapes)


def legend_text(roles: set[str], lang: str = "en", theme: Mapping[str, Any] | None = None) -> str:
    """The roles a frame shows, in words (the caption's last line), their colours named in
    ``theme``'s palette (default: the default palette)."""
    table = LEGEND.get(lang, LEGEND["en"])
    out = []
    left = set(roles)
    for key in table:
        if set(key) <= left:
            out.append(legend_phrase(key, lang, theme))
            left -= set(key)
    if not out:
        return ""
    text = (" ; " if lang == "fr" else "; ").join(out)
    return sentence(text) + "."


@lru_cache(maxsize=1 << 15)
def plain_candidate(r: int, c: int, v: int) -> Shape:
    """The plain candidate v of cell (r, c): one immutable shape, made once and shared by the
    frames (a 16x16 frame shows about a thousand; making each again was a third of laying
    out its values and candidates)."""
    return Shape("candidate", "candidate", r, c, v, colour="candidate")


@lru_cache(maxsize=1 << 15)
def plain_value(given: bool, r: int, c: int, v: int) -> Shape:
    """The given (or earlier value) v of cell (r, c), as ``plain_candidate``: one shape shared
    by the frames (a 25x25 frame shows hundreds; made again each time, 0.5 ms a frame)."""
    role = "given" if given else "earlier"
    return Shape(role, "value", r, c, v, colour=role)


@lru_cache(maxsize=1 << 16)
def plain_candidates(r: int, c: int, mask: int) -> tuple[Shape, ...]:
    """``plain_candidate`` of every candidate of ``mask`` (bit v - 1: candidate v) in cell
    (r, c), in value order: a cell's candidates change a few times a puzzle, and the frames
    of a 16x16 puzzle lay out about a thousand of them each."""
    out: list[Shape] = []
    v = 1
    while mask:
        if mask & 1:
            out.append(plain_candidate(r, c, v))
        mask >>= 1
        v += 1
    return tuple(out)


def _values_and_candidates(out: Scene, state: AnyState, place: Mapping[Cell, int], covered: AbstractSet[Cand],
                           givens: Sequence[int] | None, show_candidates: bool, obstacles: Obstacles | None,
                           kept: AbstractSet[Cell] = frozenset(), words_only: bool = False) -> None:
    """Big digits and candidates; each also an obstacle for lines (``obstacles``
    None: the frame has no line to route). ``kept``: placed cells drawn with their
    candidates (the step marks some of them). ``words_only``: the values placed alone
    (the scene is laid out for its legend, which names no given, earlier value or plain
    candidate: a 16x16 frame's thousand candidates are not made for it)."""
    n = out.n
    values = state.values
    for cell, v in enumerate(values if not words_only else ()):
        if v:
            r, c = divmod(cell, n)
            out.append(plain_value(givens is None or givens[cell] == v, r, c, v))
            if obstacles is not None:
                obstacles.add_value(r, c)
    for (r, c), v in place.items():
        if (r, c) in kept:
            continue
        out.append(Shape("placed", "value", r, c, v, colour="place"))
        if obstacles is not None:
            obstacles.add_value(r, c)
    if not show_candidates and not kept or words_only:
        return
    covered_cells = {(r, c) for r, c, _v in covered}
    for cell, mask in enumerate(state.cand):
        if not mask:
            continue
        r, c = divmod(cell, n)
        if (r, c) in place and (r, c) not in kept:
            continue
        if not show_candidates and (r, c) not in kept:
            continue
        shapes = plain_candidates(r, c, mask)
        if (r, c) in covered_cells:
            out.extend(s for s in shapes if (r, c, s.value) not in covered)
        else:
            out.extend(shapes)
        if obstacles is not None:
            obstacles.add_plain_candidates(r, c, mask)


def _shared_values_and_candidates(out: Scene, state: AnyState, covered: AbstractSet[Cand],
                                  givens: Sequence[int] | None, grid: dict[str, Any]) -> Obstacles:
    """``_values_and_candidates`` of a proof part's picture (nothing placed, every candidate
    shown, lines routed) into ``out``; returns the obstacles, a copy of its own. The values,
    the candidates cell by cell and the obstacles of ``state`` are laid out once
    (``_values_and_candidates``, nothing covered) and kept in ``grid`` for the next part drawn on
    the same state (a step's parts share one: the 25x25 example lays out 1,232 parts of 147
    steps), then only the candidates the part's facts cover are left out; the last state's
    only (a plan's frames are drawn in order)."""
    if grid.get("state") is not state or grid.get("givens") is not givens:
        base, obstacles = Scene(out.n), Obstacles(out.n)
        _values_and_candidates(base, state, {}, frozenset(), givens, True, obstacles)
        cands = (s for s in base if s.kind == "candidate")  # after the values, cell by cell
        grid.clear()
        grid.update(state=state, givens=givens, obstacles=obstacles,
                    values=[s for s in base if s.kind != "candidate"],
                    cells=[(rc, tuple(shapes)) for rc, shapes in groupby(cands, key=lambda s: (s.row, s.col))])
    out.extend(grid["values"])
    covered_cells = {(r, c) for r, c, _v in covered}
    for rc, shapes in grid["cells"]:
        if rc in covered_cells:
            out.extend(s for s in shapes if (*rc, s.value) not in covered)
        else:
            out.extend(shapes)
    copy: Obstacles = grid["obstacles"].copy()
    return copy


def assumed_truth(proof: Proof | None, role: Role, cand: Cand) -> bool:
    """Whether an assumption role's candidate is assumed true: its own branch's (``group``)
    assumption when the role names that candidate, else true (a branch recorded as "x false"
    may be named by the candidate the strong link then makes true). Per branch, not per
    candidate: two branches assuming one candidate true and false keep their own truths."""
    if proof is None or role.role != "assumption" or not proof.branches:
        return True
    k = role.group or 0
    if k >= len(proof.branches):
        return True
    r, c, v, t = proof.branches[k].assume
    return bool(t) if (r, c, v) == tuple(cand) else True


def _role_shapes(state: AnyState, roles: Sequence[Role], place: Mapping[Cell, int], kept: AbstractSet[Cell],
                 proof: Proof | None) -> tuple[list[Shape], list[Shape], list[Shape], list[Role]]:
    """(cell shapes, house shapes, candidate shapes, links) of a step's roles: one body
    per candidate (the first of ``CAND_ORDER``), rings around it for an assumption,
    a contradiction or a conclusion; one fill per cell (the first of ``CELL_ORDER``),
    outlines and circles on top."""
    n = state.geo.n
    values = state.values
    by_cand: dict[Cand, list[Role]] = {}
    by_cell: dict[Cell, list[Role]] = {}
    houses: list[Shape] = []
    links: list[Role] = []
    bands: list[Shape] = []
    for role in roles:
        name = role.role
        if name == "link":
            links.append(role)
            continue
        shape, key = style(name, "cell", role.group) if role.cells else ("", "")
        if shape == "band":  # a closed line through the cells, in the role's order
            pts = tuple((c + 0.5, r + 0.5) for r, c in role.cells)
            bands.append(Shape(name, shape, points=pts + pts[:1], colour=key, group=role.group))
            continue
        for h in role.houses:
            shape, key = style(name, "house", role.group)
            houses.append(Shape(name, shape, house=(h.kind, h.k), colour=key, group=role.group))
        for cell in role.cells:
            by_cell.setdefault((cell[0], cell[1]), []).append(role)
        for cand in role.candidates:
            by_cand.setdefault((cand[0], cand[1], cand[2]), []).append(role)
    cells: list[Shape] = bands
    for (r, c), rs in by_cell.items():
        solved = bool(values[r * n + c]) or ((r, c) in place and (r, c) not in kept)
        rs = sorted(rs, key=lambda x: CELL_ORDER.index(x.role) if x.role in CELL_ORDER else len(CELL_ORDER))
        filled = False
        for role in rs:
            shape, key = style(role.role, "cell", role.group)
            if solved and shape in ("fill", "outline"):
                shape = "circle"
            if shape == "fill":
                if filled:
                    continue
                filled = True
            cells.append(Shape(role.role, shape, r, c, values[r * n + c], colour=key, group=role.group))
    cands: list[Shape] = []
    overlays = ("assumption", "contradiction", "conclusion")
    for (r, c, v), rs in sorted(by_cand.items()):
        if values[r * n + c] or not state.cand[r * n + c] >> (v - 1) & 1:
            continue  # a solved cell: its big digit says it all
        if (r, c) in place and (r, c) not in kept:
            continue
        body = [x for x in rs if x.role not in overlays]
        body.sort(key=lambda x: CAND_ORDER.index(x.role) if x.role in CAND_ORDER else len(CAND_ORDER))
        if body:
            role = body[0]
            shape, key = style(role.role, "cand", role.group)
            if role.role == "placed":
                shape = "ring"  # the placed value's red, as a ring: never the removed red disk
            cands.append(Shape(role.role, shape, r, c, v, colour=key, group=role.group))
            if role.role == "removed":
                # removed, and part of a tinted group (a colour, a set): the struck disk keeps
                # the group's tint as a ring, so the picture says which it belongs to
                group = next((x for x in body[1:] if tinted(x.role)), None)
                if group is not None:
                    _, ring = style(group.role, "cand", group.group)
                    cands.append(Shape(group.role, "thick", r, c, v, colour=ring, group=group.group))
        for role in rs:
            if role.role not in overlays:
                continue
            shape, key = style(role.role, "cand", role.group)
            t = assumed_truth(proof, role, (r, c, v))
            if role.role == "assumption" and not body:
                cands.append(Shape(role.role, "disk" if t else "struck-ring", r, c, v, colour=key, group=role.group,
                                   truth=t))
            cands.append(Shape(role.role, shape, r, c, v, colour=key, group=role.group, truth=t))
    return cells, houses, cands, links


def in_cell_arc(n: int, a: Cand, b: Cand, obstacles: Obstacles | None = None) -> tuple[tuple[float, float], ...]:
    """A link inside one cell: a quadratic arc leaving the first disk and entering the second
    on their edges (75° off the line joining them), so that its arrowhead lands on its digit's
    disk. It bulges as far as the cell allows, on the side clear of the cell's other
    candidates (``obstacles``): in a cell of two candidates, towards the empty middle.
    Points: the start, the control point, the end (in grid units)."""
    (ax, ay), (bx, by) = spot(n, *a), spot(n, *b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    d = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / d, dy / d
    m = math.isqrt(n)
    radius = LINK_CLEAR * disk_r(m)
    along, off = radius * math.cos(math.radians(75)), radius * math.sin(math.radians(75))  # 75° off the chord
    top, left = a[0], a[1]
    inward = (a[1] + 0.5 - mx) * -uy + (a[0] + 0.5 - my) * ux >= 0  # is +perpendicular towards the centre?

    def arc(side: float, lift: float) -> tuple[tuple[float, float], ...]:
        px, py = -uy * side, ux * side
        return ((ax + along * ux + off * px, ay + along * uy + off * py),
                (mx + (off + lift) * px, my + (off + lift) * py),
                (bx - along * ux + off * px, by - along * uy + off * py))

    def fits(pts: tuple[tuple[float, float], ...]) -> bool:
        (x0, y0), (x1, y1), (x2, y2) = pts
        peak = ((x0 + 2 * x1 + x2) / 4, (y0 + 2 * y1 + y2) / 4)  # the curve's middle
        inside = all(left + 0.04 <= x <= left + 0.96 and top + 0.04 <= y <= top + 0.96
                     for x, y in (peak, pts[0], pts[2]))
        return inside and (obstacles is None or obstacles.cost(pts, {a, b}, stop=0)[0] == 0)

    sides = (1.0, -1.0) if inward else (-1.0, 1.0)
    for k in (1.6, 1.3, 1.0, 0.8, 0.6, 0.45):
        for side in sides:
            pts = arc(side, k * spot_gap(m))
            if fits(pts):
                return pts
    return arc(-sides[0], 0.45 * spot_gap(m))  # outwards, the least bulge


def _kept(roles: Sequence[Role], place: Mapping[Cell, int]) -> set[Cell]:
    """Placed cells drawn with their candidates: those where a role other than placed marks
    a candidate (the pattern must be seen before the value goes in, e.g. a BUG+1 cell)."""
    out = set()
    for role in roles:
        if role.role in ("placed", "conclusion"):
            continue
        ends = [role.source, role.target] if role.role == "link" else []
        for r, c, _v in [*role.candidates, *(x for x in ends if x is not None)]:
            if (r, c) in place:
                out.add((r, c))
    return out


def scene(state: AnyState, step: Explanation | None = None, *, number: int | tuple[int, int] | None = None,
          title: str | None = None, caption: str | None = None, givens: Sequence[int] | None = None,
          lang: str = "en", show_candidates: bool | None = None,
          kinds: Mapping[str, StepKind] = NO_KINDS, depth: int = ALL, routed: bool = True,
          theme: Mapping[str, Any] | None = None) -> Scene:
    """The shapes of one frame: ``state`` is the grid before ``step`` (None: just the grid).

    ``givens``: the puzzle's givens (values told apart from placed ones);
    ``number``: the step number (1-based, or a first–last range) for the title;
    ``kinds``: the run's step kinds (``Puzzle.kinds``), whose titles the title shows.
    The step's roles (``explainer.model.roles``) are drawn in their styles
    (``render.styles``); a forcing step's proof is drawn whole when it fits one
    frame, else the frame shows its roles and each branch's main chain as far as
    its arrows allow, and ``proof_scenes`` gives the rest (the caption names its
    frames drawn up to level ``depth``). ``routed`` False: lines and proof arrows
    straight, no given, earlier value or plain candidate (the words alone are wanted, e.g. the
    legend a printed page writes). ``theme``: the
    palette whose colours the legend names (default: the default palette).
    """
    from . import proofdraw

    n = state.geo.n
    out = Scene(n)
    obstacles = Obstacles(n)
    free: Obstacles | None = obstacles if routed else None  # None: nothing is routed
    roles = roles_of(step) if step is not None else ()
    place = {(r, c): v for role in roles if role.role == "placed" for r, c, v in role.candidates}
    kept = _kept(roles, place)
    proof = step.proof if step is not None else None
    whole = proof is not None and not proofdraw.needs_subframes(proof)
    cells, houses, cands, links = _role_shapes(state, roles, place, kept, proof)
    out.extend(cells)
    out.extend(houses)

    if show_candidates is None:
        show_candidates = bool(step is not None and step.show_candidates)
    if proof is not None:
        show_candidates = True
    proof_shapes: list[Shape] = []
    covered = {(s.row, s.col, s.value) for s in cands if s.kind not in ("thick", "halo")}
    lines = (bool(links) or proof is not None) and routed
    _values_and_candidates(out, state, place, covered if not whole else set(), givens, show_candidates,
                           obstacles if lines else None, kept, words_only=not routed)
    if step is not None and isinstance(number, tuple) and number[0] != number[1]:
        # one frame for several steps (a run of singles, plan.fold_singles): each value
        # placed carries its rank in the run
        for k, (r, c, _v) in enumerate(step.place, 1):
            out.append(Shape("order", "label", r, c, text=str(k), colour="place"))
    if lines and not show_candidates:  # the marked candidates are still in the way
        for (r, c, v) in covered:
            obstacles.add_candidate(*spot(n, r, c, v), (r, c, v))
    out.extend(_link_shapes(n, links, cells + cands, obstacles, routed))
    if proof is not None:
        cands, proof_shapes = _proof_shapes(out, proof, state, free, place, cands, whole)
    out.extend(cands)
    out.extend(proof_shapes)

    _add_words(out, step, number, title, caption, lang, depth, kinds, theme)
    return out


def _link_shapes(n: int, links: Sequence[Role], marked: Sequence[Shape], obstacles: Obstacles,
                 routed: bool) -> list[Shape]:
    """The step's links, each routed around the cells the step marks that it does not join
    (``routing.Obstacles.add_cell``) and around the digits in ``obstacles``; straight when
    not ``routed``."""
    out: list[Shape] = []
    around = obstacles.copy() if links else obstacles
    for r, c in sorted({(s.row, s.col) for s in marked if s.row >= 0}):
        if links:
            around.add_cell(r, c, ("cell", r, c))
    for role in links:
        assert role.source is not None and role.target is not None  # a link role has both ends
        a: Cand = (role.source[0], role.source[1], role.source[2])
        b: Cand = (role.target[0], role.target[1], role.target[2])
        shape, key = style("link", "link", role.group, role.kind)
        ends = {a, b, ("cell", a[0], a[1]), ("cell", b[0], b[1])}
        if not routed:
            pts: tuple[tuple[float, float], ...] = (spot(n, *a), spot(n, *b))
        elif a[:2] == b[:2]:
            pts = in_cell_arc(n, a, b, obstacles)
        else:
            pts = route(spot(n, *a), spot(n, *b), around, ends)
        out.append(Shape("link", shape, points=pts, colour=key, group=role.group, directed=role.directed))
    return out


def _proof_shapes(out: list[Shape], proof: Proof, state: AnyState, free: Obstacles | None,
                  place: Mapping[tuple[int, int], int], cands: list[Shape],
                  whole: bool) -> tuple[list[Shape], list[Shape]]:
    """A forcing step's proof: drawn whole when it fits one frame, else the main chains as far
    as the arrows allow (the roles keep the assumptions and ends). The proof draws its own
    facts: the plain digits under them leave ``out``. Returns the role marks still drawn and
    the proof's shapes."""
    from . import proofdraw

    n = state.geo.n
    removed = {(s.row, s.col, s.value) for s in cands if s.role == "removed"}
    if whole:
        proof_shapes = proofdraw.whole_shapes(n, proof, state, free, set(place))
    else:
        marked = {(s.row, s.col, s.value) for s in cands}
        proof_shapes = [s for s in proofdraw.summary_shapes(n, proof, state, free, set(place))
                        if (s.row, s.col, s.value) not in marked or s.kind == "dotted"]
    # a removed candidate keeps its struck disk (the proof's rings go around it)
    proof_shapes = [s for s in proof_shapes
                    if (s.row, s.col, s.value) not in removed or s.kind in ("thick", "halo")]
    drawn = proofdraw.fact_cands(proof_shapes)
    out[:] = [s for s in out if not (s.role == "candidate" and (s.row, s.col, s.value) in drawn)]
    if whole:
        cands = [s for s in cands if s.role in ("removed", "placed")]
    return cands, proof_shapes


def _add_words(out: list[Shape], step: Explanation | None, number: int | tuple[int, int] | None,
               title: str | None, caption: str | None, lang: str, depth: int, kinds: Mapping[str, StepKind],
               theme: Mapping[str, Any] | None) -> None:
    """The frame's title, caption and legend (the roles its shapes show, in the theme's colour names)."""
    w = words(lang)
    if title is None:
        if step is None:
            title = w["initial"]
        else:
            title = step_title(number if number is not None else 0, step.technique, lang, getattr(step, "detail", ()),
                               kinds)
    if caption is None:
        caption = step_caption(step, number, lang, depth) if step is not None else ""
    out.append(Shape("title", "text", text=title))
    if caption:
        out.append(Shape("caption", "text", text=caption))
    lt = legend_text(legend_roles(out), lang, theme)
    if lt:
        out.append(Shape("legend", "text", text=lt))


def step_caption(step: Explanation, number: int | tuple[int, int] | None, lang: str = "en",
                 depth: int = ALL) -> str:
    """A step frame's caption: the step's text, and for a proof drawn in sub-frames, the
    frames drawn up to level ``depth`` (known before any shape is laid out)."""
    from . import proofdraw

    caption = text_in(step, lang)
    if step.proof is not None and number is not None:
        parts = proofdraw.plan(step.proof, depth=depth)
        if parts:
            caption += proofdraw.overview_words(step.proof, parts, number, lang)
    return notation(caption, lang)


def part_title(step: Explanation, part: Part, number: int | tuple[int, int] | None, lang: str = "en",
               kinds: Mapping[str, StepKind] = NO_KINDS) -> str:
    """'Step 17a — forcing chain': a proof sub-frame's title."""
    k = number[0] if isinstance(number, tuple) else number
    return step_title(f"{k if k is not None else ''}{part.suffix}", step.technique, lang, kinds=kinds)


def part_scene(state: AnyState, step: Explanation, part: Part, *, number: int | tuple[int, int] | None = None,
               givens: Sequence[int] | None = None, lang: str = "en", kinds: Mapping[str, StepKind] = NO_KINDS,
               depth: int = ALL, routed: bool = True, theme: Mapping[str, Any] | None = None,
               memo: dict[str, Any] | None = None, grid: dict[str, Any] | None = None) -> Scene:
    """The frame of one part of a proof (``proofdraw.Part``): its facts and arrows on the grid
    before the step, its title and its caption (naming the nested frames drawn up to
    ``depth``); ``routed`` False: arrows straight (the words alone are wanted: the legend
    names the arrows a frame draws). ``memo``: what the frame's two layouts share (the
    candidates its proof draws on, its caption), kept there by the first (the frame's plan
    holds it: the legend's layout before drawing, the picture's in a worker forked after).
    ``grid``: what the pictures of a proof's parts share, all drawn on one grid (its values,
    candidates and their obstacles: ``_shared_values_and_candidates``), the last grid's kept there."""
    from . import proofdraw

    n = state.geo.n
    obstacles = Obstacles(n)
    sc = Scene(n, suffix=part.suffix, level=part.level)
    memo = {} if memo is None else memo
    # the proof's shapes unrouted (the words alone), and the candidates they draw on (no plain
    # digit under them); the picture's are routed around every digit, laid out after the digits
    unrouted = None if routed else proofdraw.part_shapes(n, part, state, None)
    if "covered" not in memo:
        memo["covered"] = proofdraw.fact_cands(unrouted if unrouted is not None
                                               else proofdraw.part_shapes(n, part, state, None))
    if routed and grid is not None:
        obstacles = _shared_values_and_candidates(sc, state, memo["covered"], givens, grid)
    else:
        _values_and_candidates(sc, state, {}, memo["covered"], givens, True, obstacles if routed else None,
                               words_only=not routed)
    sc.extend(unrouted if unrouted is not None else proofdraw.part_shapes(n, part, state, obstacles))
    if "caption" not in memo:
        memo["caption"] = proofdraw.part_caption(part, n, lang, number, depth)
    sc.append(Shape("title", "text", text=part_title(step, part, number, lang, kinds)))
    sc.append(Shape("caption", "text", text=memo["caption"]))
    sc.append(Shape("legend", "text", text=legend_text(legend_roles(sc), lang, theme)))
    return sc


def proof_scenes(state: AnyState, step: Explanation, *, number: int | tuple[int, int] | None = None,
                 givens: Sequence[int] | None = None, lang: str = "en", limit: int | None = None,
                 kinds: Mapping[str, StepKind] = NO_KINDS, depth: int = ALL,
                 theme: Mapping[str, Any] | None = None) -> list[Scene]:
    """The sub-frames of a forcing step's proof up to level ``depth``, in file order
    (RENDERING.md wave 2).

    ``[]`` when the step has no ``proof`` or when its own frame (``scene``)
    shows it whole. Otherwise one Scene per part (``proofdraw.plan``): each
    branch cut into parts, each followed by the frames of the nested proofs it
    asserts (a proof of more parts than a handful: its main chains first). Each
    Scene has its ``suffix`` (file names ``017a-TECHNIQUE.png``, ``017c1-…``
    after ``017-TECHNIQUE.png``) and ``level``, the title ``Step 17a — …`` and a
    caption reading that part of the proof for a learner.
    """
    from . import proofdraw

    proof = getattr(step, "proof", None)
    if proof is None:
        return []
    return [part_scene(state, step, part, number=number, givens=givens, lang=lang, kinds=kinds, depth=depth,
                       theme=theme)
            for part in proofdraw.plan(proof, limit or proofdraw.LIMIT, depth)]


def initial_caption(state: AnyState, lang: str = "en") -> str:
    """'30 givens.'"""
    return words(lang)["givens"].format(k=sum(1 for v in state.values if v)) + "."


def initial_scene(state: AnyState, *, givens: Sequence[int] | None = None, lang: str = "en",
                  caption: str | None = None, theme: Mapping[str, Any] | None = None) -> Scene:
    if caption is None:
        caption = initial_caption(state, lang)
    return scene(state, None, title=words(lang)["initial"], caption=caption, givens=givens, lang=lang,
                 theme=theme)


def solution_caption(lang: str = "en", steps: int = 0, difficulty: str = "", complete: bool = True) -> str:
    """'Solved in 87 steps (medium).'"""
    w = words(lang)
    d = DIFFICULTY_FR.get(difficulty, difficulty) if lang == "fr" else difficulty
    return (w["solved"] if complete else w["unsolved"]).format(k=steps, d=d)


def solution_scene(state: AnyState, *, givens: Sequence[int] | None = None, lang: str = "en",
                   steps: int = 0, difficulty: str = "", complete: bool = True,
                   theme: Mapping[str, Any] | None = None) -> Scene:
    caption = solution_caption(lang, steps, difficulty, complete)
    return scene(state, None, title=words(lang)["solution"], caption=caption, givens=givens, lang=lang,
                 show_candidates=not complete, theme=theme)


def step_scenes(state: AnyState, step: Explanation, *, number: int | tuple[int, int] | None = None,
                givens: Sequence[int] | None = None, lang: str = "en",
                kinds: Mapping[str, StepKind] = NO_KINDS, depth: int = ALL,
                theme: Mapping[str, Any] | None = None) -> list[Scene]:
    """What an exporter writes for one step: its frame (``suffix`` ""), then the
    sub-frames of its proof up to level ``depth`` if it needs them (``suffix`` "a", "b" …):
    file stems ``f"{k:03d}{sc.suffix}-{TECHNIQUE}"``, e.g. 017-…, 017a-…, 017b-…"""
    main = scene(state, step, number=number, givens=givens, lang=lang, kinds=kinds, depth=depth, theme=theme)
    return [main] + proof_scenes(state, step, number=number, givens=givens, lang=lang, kinds=kinds, depth=depth,
                                 theme=theme)
