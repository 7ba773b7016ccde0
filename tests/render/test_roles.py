"""Roles the renderer is told (issue 23): every step kind draws the roles its finder
states, each role in its own style in every palette, and ``render/`` never names a
technique (it draws roles, it does not reason about them)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from explainer.model.roles import roles_of
from explainer.model.state import State
from render.scene import scene
from render.shapes import FRAME_ROLES
from render.styles import TINTS, luminance
from render.theme import THEME_COLOURS
from techniques import all_kinds

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = Path(__file__).resolve().parent / "data" / "role_positions.txt"

CELL_KINDS = {"fill", "outline", "circle", "square"}
HOUSE_KINDS = {"solid", "dashed", "dotted", "thick"}
LINK_KINDS = {"strong", "weak"}

# the roles each step kind must show (its record's ``StepKind.roles``; placed / removed come from
# the step's changes)
EXPECTED: dict[str, frozenset[str]] = {name: kind.roles for name, kind in all_kinds().items()}


def _target(s) -> str:
    if s.kind in LINK_KINDS:
        return "link"
    if s.house is not None:
        return "house"
    if s.kind in CELL_KINDS:
        return "cell"
    return "cand"


def _name(s) -> str:
    """A role with its group; groups past the palette's tints share their tint (a long ALS
    chain's first and seventh sets: never neighbours)."""
    return s.role if s.group is None else f"{s.role}#{s.group % TINTS}"


def style_clashes(sc, theme) -> list[str]:
    """Pairs of roles of a scene drawn in one style (target, shape, colour) in ``theme``."""
    by_style: dict[tuple, set[str]] = {}
    for s in sc:
        if s.role in FRAME_ROLES or s.faint:
            continue
        key = (_target(s), s.kind, str(theme.get(s.colour, s.colour)).lower())
        by_style.setdefault(key, set()).add(_name(s))
    return [f"{key}: {sorted(names)}" for key, names in by_style.items() if len(names) > 1]


def check_scene(state, step, sc) -> None:
    """Every stated role is drawn (unless a candidate of a solved cell, a cell the step fills,
    or a candidate a stronger role of the same spot covers), and no two roles share a style."""
    n = state.geo.n
    values = state.values
    drawn_cands = {(s.row, s.col, s.value) for s in sc if s.value and _target(s) == "cand" and s.role != "candidate"}
    drawn_by = {}
    for s in sc:
        drawn_by.setdefault(s.role, []).append(s)
    placed = {(r, c) for role in roles_of(step) if role.role == "placed" for r, c, _ in role.candidates}
    for role in roles_of(step):
        shapes = drawn_by.get(role.role, [])
        if role.role == "link":
            assert [s for s in shapes if s.kind == role.kind], (step, role)
            continue
        for h in role.houses:
            assert any(s.house == tuple(h) for s in shapes), (step, role, h)
        for r, c, v in role.candidates:
            live = state.cand[r * n + c] >> (v - 1) & 1 and not values[r * n + c]
            if role.role == "placed":
                assert any((s.row, s.col) == (r, c) for s in shapes), (step, role)
            elif live and (r, c, v) not in drawn_cands and (r, c) not in placed:
                raise AssertionError(f"{role} not drawn at {(r, c, v)} in {step!r}")
        for r, c in role.cells:
            if any(s.kind == "band" and (c + 0.5, r + 0.5) in s.points for s in shapes):
                continue  # a band through the cells' centres, in the role's order
            if not any((s.row, s.col) == (r, c) for s in shapes):
                # one fill per cell: a stronger role's fill may take it
                assert any((s.row, s.col) == (r, c) and s.kind == "fill" for s in sc), (step, role, (r, c))
    for name, theme in THEME_COLOURS.items():
        assert not style_clashes(sc, theme), (name, step, style_clashes(sc, theme))


# ---- every step kind, on a position where the engine takes it -----------------------------

def _positions(path: Path = POSITIONS) -> list[tuple[str, tuple[str, State]]]:
    """(kind, (givens, state before the step)) of each line of a positions file."""
    out = []
    for row in path.read_text().splitlines():
        kind, givens, values, cands = row.split("\t")
        out.append((kind, (givens, State.from_text(values, cands))))
    return out


POS = dict(_positions())


def test_every_step_kind_has_a_position():
    """A kind added to the registry needs its position here (``make_role_positions.py``)."""
    from techniques import step_names

    assert set(step_names()) - {"brutal"} <= set(POS), sorted(set(step_names()) - {"brutal"} - set(POS))
    assert set(step_names()) <= set(EXPECTED), sorted(set(step_names()) - set(EXPECTED))


def _step_of(kind: str, state: State):
    from explainer.model.technique import Context
    from techniques import REGISTRY

    record = next(t for t in REGISTRY if kind in t.produces)
    for every in (False, True):  # a kind only ``steps`` lists: its every-variant finder
        for step in record.finder(every)(state, Context()):
            if step.technique == kind:
                return step
    raise AssertionError(f"no {kind} step on its position")


@pytest.mark.parametrize("kind", sorted(set(POS)))
def test_each_step_kind_draws_its_roles(kind):
    from explainer.model.grid import parse_grid

    givens, state = POS[kind]
    step = _step_of(kind, state)
    sc = scene(state, step, number=1, givens=parse_grid(givens).values)
    check_scene(state, step, sc)
    names = {s.role for s in sc} - set(FRAME_ROLES)
    assert EXPECTED[kind] <= names, (kind, EXPECTED[kind] - names)
    assert {r.role for r in step.roles} >= EXPECTED[kind] - {"placed", "removed"}, kind


def test_a_cell_the_step_fills_shows_its_candidates_when_marked():
    """Issue 23: the BUG+1 cell is drawn with its three candidates, the one that goes in on
    the placed colour (not as a big digit); a trial's cell likewise, with its link. Issue 41:
    as a ring in the placed colour, never the removed candidates' filled disk."""
    for kind in ("bug+1", "trial"):
        givens, state = POS[kind]
        step = _step_of(kind, state)
        sc = scene(state, step, number=1)
        (r, c, v), = step.place
        assert not sc.of("placed", "value") and (r, c, v) in sc.cands("placed", "ring")
        if kind == "bug+1":
            assert len({s.value for s in sc if (s.row, s.col) == (r, c) and s.value}) == 3


def test_brutal_draws_its_roles(brutal_puzzle):
    k = brutal_puzzle.steps_using("brutal")[0]
    step = brutal_puzzle.steps[k]
    sc = scene(step.before, step, number=k + 1)
    check_scene(step.before, step, sc)
    assert EXPECTED["brutal"] <= {s.role for s in sc}


def test_a_clash_is_caught():
    """The style check fails when two roles share a style (it is not vacuous)."""
    from render.shapes import Scene, Shape

    sc = Scene(9, [Shape("value", "disk", 0, 0, 1, colour="marked"), Shape("on", "disk", 0, 1, 2, colour="marked")])
    assert style_clashes(sc, THEME_COLOURS["default"])
    sc = Scene(9, [Shape("set", "fill", 0, 0, colour="tint0", group=0),
                   Shape("set", "fill", 0, 1, colour="tint0", group=1)])
    assert style_clashes(sc, THEME_COLOURS["default"])


# ---- the palettes' tints stay apart, also for colour-blind eyes ----------------------------

def _lab(colour: str) -> tuple[float, float, float]:
    c = colour.lstrip("#")
    rgb = [int(c[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    return _lab_of_linear([x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb])


def _lab_of_linear(lin: list[float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB
DEFICIENCIES = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}


def _seen(colour: str, matrix) -> tuple[float, float, float]:
    c = colour.lstrip("#")
    rgb = [int(c[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
    out = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix]
    return _lab_of_linear(out)


def _delta(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


GROUPED_KEYS = [f"tint{k}" for k in range(TINTS)]


@pytest.mark.parametrize("name", sorted(THEME_COLOURS))
def test_tints_differ_in_every_palette(name):
    theme = THEME_COLOURS[name]
    tints = [theme[k] for k in GROUPED_KEYS]
    for i, a in enumerate(tints):
        for b in tints[i + 1:]:
            assert _delta(_lab(a), _lab(b)) > 25, (name, a, b)
    # colour A (group 0) dark, colour B (group 1) light: the legend says so in every palette
    assert luminance(theme["tint0"]) < luminance(theme["tint1"])


def test_colourblind_tints_survive_protanopia_and_deuteranopia():
    theme = THEME_COLOURS["colorblind"]
    # the neighbours a frame shows side by side: a chain's consecutive sets, Medusa's two colours
    for kind, matrix in DEFICIENCIES.items():
        for k in range(TINTS):
            a, b = theme[f"tint{k}"], theme[f"tint{(k + 1) % TINTS}"]
            assert _delta(_seen(a, matrix), _seen(b, matrix)) > 15, (kind, a, b)


# ---- render/ draws roles only ---------------------------------------------------------------

def test_render_holds_no_technique_name():
    """render/ never branches on (nor spells) a technique or step name: the finder states
    the roles, the renderer draws them."""
    import techniques

    names = {n.lower() for t in techniques.REGISTRY for n in t.all_names} | {n.lower()
                                                                            for n in techniques.step_names()}
    found = []
    for path in sorted((ROOT / "render").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value.strip().lower() in names:
                    found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, found
    assert "x wing" in names and "forcing chain" in names  # the check can fail


def test_a_removed_candidate_keeps_its_colour():
    """Medusa removing a candidate of colour A: the struck disk is ringed in colour A's tint
    (the caption says "itself colour A"), and the legend says so; an uncoloured removal is not."""
    from techniques import medusa
    from tests.techniques.chain_fixtures import open_grid
    from tests.techniques.test_medusa import WRAP

    state = open_grid(keep=WRAP)
    step = next(medusa.find(state))
    sc = scene(state, step, number=1)
    rings = {(s.row, s.col, s.value): s.colour for s in sc if s.kind == "thick"}
    coloured = {**{tuple(c): "tint0" for c in step.marked}, **{tuple(c): "tint1" for c in step.marked_alt}}
    assert (0, 0, 1) in coloured
    for z in step.eliminate:
        assert rings.get(tuple(z)) == coloured.get(tuple(z)), z
    assert "a removed candidate ringed in its colour" in sc.text("legend")


# ---- every legend true and whole (issue 34) --------------------------------------------------
# Marks whose meaning the frame itself tells (the value placed in red, a candidate struck out,
# a house outlined or cells shaded where the caption names them, a solved cell's ring) need no
# words; every other mark a frame draws is named by its legend, and the legend names nothing
# the frame does not draw.
# Issue 41: every role a frame draws is named, in the colour it has (the placed value, the
# removed candidates, the house, the reasons' circles: a class asks what each mark means).
SELF_EVIDENT = {"link"} | set(FRAME_ROLES)


def legend_gaps(sc, lang="en", theme=None):
    """(roles drawn that the legend does not name, legend entries for roles not drawn)."""
    from render.scene import LEGEND, legend_phrase

    drawn = {s.role for s in sc} | {f"link-{s.kind}" for s in sc if s.role == "link"}
    if any(s.faint for s in sc):
        drawn.add("faint")  # marks stated in an earlier frame of a proof
    if any(s.directed for s in sc if s.role == "link"):
        drawn.add("link-directed")
    if any(s.kind == "thick" and s.role != "assumption" for s in sc):
        drawn.add("removed-tinted")
    if any(s.kind == "dotted" and s.house is not None for s in sc):
        drawn.add("house-decides")  # a proof's fact drawn with the house that decides it
    if any(s.role == "assumption" and s.group is not None for s in sc):
        drawn.add("assumption-groups")  # each branch's assumption in its own tint
    told: set[str] = set()
    legend = sc.text("legend")
    for key in LEGEND[lang]:
        phrase = legend_phrase(key, lang, theme)
        if phrase[:1].lower() + phrase[1:] in legend[:1].lower() + legend[1:]:
            told |= set(key)
    missing = drawn - told - SELF_EVIDENT - {"link"}
    extra = {x for x in told if x not in drawn}
    return missing, extra


@pytest.mark.parametrize("kind", sorted(set(POS)))
def test_every_legend_names_what_its_frame_draws(kind):
    from explainer.model.grid import parse_grid

    givens, state = POS[kind]
    step = _step_of(kind, state)
    for lang in ("en", "fr"):
        sc = scene(state, step, number=1, givens=parse_grid(givens).values, lang=lang)
        assert legend_gaps(sc, lang) == (set(), set()), (kind, lang, sc.text("legend"))


# ---- one role, one look, named in words (issue 41, item 3) -----------------------------------
# A line is a line whether it outlines a house or links two candidates: a dashed purple cover
# and a dashed purple weak link read alike, so the look ignores what a mark is drawn on.
LINE_LOOK = {"solid": "solid line", "strong": "solid line", "dashed": "dashed line", "weak": "dashed line"}


def look_clashes(sc, theme) -> list[str]:
    """Pairs of roles of a scene that look alike in ``theme`` (a shape and its colour)."""
    by_look: dict[tuple, set[str]] = {}
    for s in sc:
        if s.role in FRAME_ROLES or s.faint:
            continue
        kind = LINE_LOOK.get(s.kind, s.kind)
        if s.kind in ("struck", "disk") and s.role in ("removed", "placed"):
            kind = s.kind  # a struck disk and a ring are told apart by their shape
        by_look.setdefault((kind, str(theme.get(s.colour, s.colour)).lower()), set()).add(_name(s))
    out = [f"{key}: {sorted(names)}" for key, names in by_look.items() if len(names) > 1]
    # a disk on a cell filled in its own colour does not stand out (high contrast's yellow "off"
    # disks on yellow pattern cells)
    fills = {(s.row, s.col): str(theme.get(s.colour)).lower() for s in sc if s.kind == "fill"}
    out += [f"{s.role} disk on its own colour at r{s.row + 1}c{s.col + 1}" for s in sc
            if s.kind in ("disk", "light") and fills.get((s.row, s.col)) == str(theme.get(s.colour)).lower()]
    return out


def named_roles(sc) -> set[str]:
    """The roles a scene draws that its legend must name (tint groups read as one role)."""
    return {s.role for s in sc if not s.faint} - set(FRAME_ROLES) - {"link", "implies"}


@pytest.mark.parametrize("kind", sorted(set(POS)))
def test_every_role_has_one_look_named_in_each_palette_and_language(kind):
    """Each role a frame draws is named in its legend, in both languages, by the colour it has
    in the frame's palette; no two roles of one frame look alike, lines included."""
    from explainer.model.grid import parse_grid
    from render.colournames import colour_name
    from render.theme import theme as make_theme

    givens, state = POS[kind]
    step = _step_of(kind, state)
    for name in THEME_COLOURS:
        th = make_theme(name)
        assert not look_clashes(scene(state, step, number=1, givens=parse_grid(givens).values, theme=th), th), \
            (kind, name, look_clashes(scene(state, step, number=1, theme=th), th))
        for lang in ("en", "fr"):
            sc = scene(state, step, number=1, givens=parse_grid(givens).values, lang=lang, theme=th)
            legend = sc.text("legend")
            for s in sc:
                if s.role not in named_roles(sc) or s.colour.startswith("tint"):
                    continue
                assert colour_name(str(th[s.colour]), lang) in legend.lower(), (kind, name, lang, s.role, legend)


def test_the_legend_names_colours_not_fills():
    """SE 620 step 46 (empty rectangle): "blue disks “on”", not "filled disks"; French dashed
    lines are "tirets" (pointillés are dotted)."""
    from render.scene import LEGEND

    for lang, table in LEGEND.items():
        for key, phrase in table.items():
            assert "filled disks" not in phrase and "light disks" not in phrase and "disques pleins" not in phrase
            if lang == "fr" and "house-decides" not in key:
                assert "pointillés" not in phrase, phrase
