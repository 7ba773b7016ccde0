"""Uniqueness techniques: unique rectangle (types 1-6, hidden) and bug+1.

Both rely on the puzzle having exactly one solution (the engine proves it
before explaining; a user may switch them off, ``uniqueness=False`` /
``--no-uniqueness``). Standard definitions (HoDoKu's "Uniqueness" page,
SudokuWiki's "Unique Rectangles", "Hidden Unique Rectangles", "BUG"):

A *deadly pattern*: four empty cells at the corners of a rectangle on two
rows, two columns and exactly two boxes, each left with only the same two
values {a, b}. Its a's and b's could be swapped, giving a second solution,
so a unique puzzle never reaches it: whatever would complete it is false.
The argument is about the corners' values, not their candidates, so a
corner may have lost a or b to an earlier step (HoDoKu's *missing
candidates*: ``detail`` ``missing`` is then true); each corner still holds
a or b, and at least one corner (the floor) only a and b.
The step name is ``unique rectangle`` for every type; ``detail`` ``type``
tells which (1..6 or ``hidden``). Frames show the *floor* (corners holding
only a and b) in ``cells``, the *roof* (corners with more) in ``cells_alt``,
a and b of the rectangle in ``marked`` and the extra candidates (or the
conjugate a's of types 4, 6 and hidden) in ``marked_alt``. In the roles, the
conjugate a's are values of the rectangle joined by strong links (a house
holds a only on those two corners), never extra candidates.

- type 1: three corners hold only {a, b}: the fourth loses a and b;
- type 2: the two roof corners, in one line or box, hold {a, b, c}: one is
  c, so c goes from every cell seeing both;
- type 3: the roof corners share a house and their extras X act as one
  cell: with k other cells of that house holding together |X ∪ …| = k + 1
  values, a naked subset of any size forms and its values leave the
  house's other cells (a line's and a box's both, when the set lies in
  their intersection; ``detail`` ``size``: the set's cells, the roof as one);
- type 4: the roof corners share a house where a lives only on them: one is
  a, so neither can be b (else the other is a as well... completing the
  pattern): b goes from both;
- type 5: the extra c sits on two diagonal corners (or three): c goes from
  every cell seeing every c corner;
- type 6: two diagonal floor corners, and a lives in both rows (or both
  columns) only on the rectangle: the two other corners cannot be a;
- hidden: a floor corner A (one floor corner, or two on a diagonal: then
  either may be A); in the row and the column of the opposite corner D, a
  lives only on the rectangle: D cannot be b (D may be a floor corner too).

bug+1 (Binary Universal Grave + 1): every empty cell holds two candidates
but one, which holds three, and every value appears exactly twice in every
house but at that cell's value v, which appears three times in each of its
houses. Without v there the grid would be a deadly BUG: v is the cell's value.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from explainer.core import ur
from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits, value_char, values_of
from explainer.model.i18n import OR, Agree, Arg, Cells, House, Value, Values, Words, say
from explainer.model.rating import UR_CHAIN
from explainer.model.roles import on_cands, on_cells, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from .deadly import pattern_step, split, virtual_naked_sets

ONE = {"en": "This step relies on the puzzle having a single solution.",
       "fr": "Cette étape suppose que la grille a une seule solution."}


def _t(en: str, fr: str) -> dict[str, str]:
    return {"en": "Unique rectangle type " + en + " " + ONE["en"],
            "fr": "Rectangle unique type " + fr + " " + ONE["fr"]}


TYPE_1 = _t("1 on {a} and {b}: {floor} {hold} only {a} and {b}; if {roof} were {a} or {b} too, the four "
            "corners could swap {a} and {b} and the puzzle would have two solutions. So {a} and {b} are "
            "removed from {roof}.",
            "1 sur {a} et {b} : {floor} {hold} que {a} et {b} ; si {roof} valait aussi {a} ou "
            "{b}, les quatre coins pourraient échanger {a} et {b} et la grille aurait deux solutions. "
            "Donc {a} et {b} sont retirés de {roof}.")
TYPE_2 = _t("2 on {a} and {b}: {floor} {hold} only {a} and {b}; {roofs} hold only {a}, {b} and {c}. Without "
            "{c} the rectangle would be deadly (two solutions), so one of {roof} is {c} and {removed}.",
            "2 sur {a} et {b} : {floor} {hold} que {a} et {b} ; {roofs} ne contiennent que {a}, {b} et "
            "{c}. Sans {c} le rectangle serait mortel (deux solutions), donc l'un de {roof} vaut {c} et "
            "{removed}.")
TYPE_3 = _t("3 on {a} and {b}: {floor} {hold} only {a} and {b}; one of {roof} must take a value among "
            "{extra} (else two solutions), so with {others} they form a naked set on {values} in {house}, "
            "and {removed}.",
            "3 sur {a} et {b} : {floor} {hold} que {a} et {b} ; l'un de {roof} doit prendre une "
            "valeur parmi {extra} (sinon deux solutions), donc avec {others} ils forment un ensemble nu "
            "sur {values} dans {house}, et {removed}.")
TYPE_4 = _t("4 on {a} and {b}: {floor} {hold} only {a} and {b}; in {house}, {a} can only go in {roof}, so "
            "one of them is {a}, and if the other were {b} the rectangle would be deadly (two solutions). "
            "So {removed}{unheld}.",
            "4 sur {a} et {b} : {floor} {hold} que {a} et {b} ; dans {house}, le {a} ne peut "
            "aller qu'en {roof}, donc l'un d'eux vaut {a}, et si l'autre valait {b} le rectangle serait "
            "mortel (deux solutions). Donc {removed}{unheld}.")
# type 4 with a roof corner that holds no b: said, so the frame's one removal is not a riddle
UNHELD = {"en": " ({cell} holds no {b})", "fr": " ({cell} n'a pas de {b})"}
TYPE_5 = _t("5 on {a} and {b}: {floor} {hold} only {a} and {b}; {roofs} hold only {a}, {b} and {c}. Without "
            "{c} the rectangle would be deadly (two solutions), so one of {roof} is {c} and {removed}, "
            "which {see} all of them.",
            "5 sur {a} et {b} : {floor} {hold} que {a} et {b} ; {roofs} ne contiennent que {a}, {b} et "
            "{c}. Sans {c} le rectangle serait mortel (deux solutions), donc l'un de {roof} vaut {c} et "
            "{removed}, qui les {see} tous.")
TYPE_6 = _t("6 on {a} and {b}: {floor} {hold} only {a} and {b}, and in {lines}, {a} can only go on the "
            "rectangle. If {roof} held {a}, the floor corners would both be {b} and the rectangle deadly "
            "(two solutions). So {removed}.",
            "6 sur {a} et {b} : {floor} {hold} que {a} et {b}, et dans {lines}, le {a} ne peut "
            "aller que sur le rectangle. Si {roof} avait le {a}, les deux coins du plancher vaudraient "
            "{b} et le rectangle serait mortel (deux solutions). Donc {removed}.")
HIDDEN = {
    "en": "Hidden unique rectangle on {a} and {b}: {floor} holds only {a} and {b}; in {lines} through the "
          "opposite corner {target}, {a} can only go on the rectangle. If {target} were {b}, both its "
          "partners would be {a} and the four corners could swap (two solutions). So {removed}. "
          + ONE["en"],
    "fr": "Rectangle unique caché sur {a} et {b} : {floor} ne contient que {a} et {b} ; dans {lines} qui "
          "passent par le coin opposé {target}, le {a} ne peut aller que sur le rectangle. Si {target} "
          "valait {b}, ses deux voisins du rectangle vaudraient {a} et les quatre coins pourraient "
          "s'échanger (deux solutions). Donc {removed}. " + ONE["fr"],
}
BUG = {
    "en": "BUG+1: every empty cell holds two candidates except {cell}, and every value lies twice in each "
          "house except {v}, three times in each house of {cell}. Without {v} at {cell} the grid would be "
          "a deadly pattern with two solutions, so {cell} is {v}. " + ONE["en"],
    "fr": "BUG+1 : toutes les cases vides ont deux candidats sauf {cell}, et chaque valeur est deux fois "
          "dans chaque unité sauf le {v}, trois fois dans chaque unité de {cell}. Sans {v} en {cell} la "
          "grille serait un motif mortel à deux solutions, donc {cell} vaut {v}. " + ONE["fr"],
}
def _common_houses(geo: Geometry, cells: Iterable[int]) -> list[int]:
    """Houses holding every cell (row, column, box order): among the first cell's houses."""
    cells = list(cells)
    c0 = cells[0]
    out = []
    for h in (geo.row_of[c0], geo.n + geo.col_of[c0], 2 * geo.n + geo.box_of[c0]):
        m = geo.house_mask[h]
        if all(m >> c & 1 for c in cells):
            out.append(h)
    return out


# explainer.core.ur's kinds: 1 to 6, and the hidden rectangle
KINDS: dict[int, object] = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, ur.HIDDEN: "hidden"}


def find_unique_rectangle(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Unique rectangles, type by type over every rectangle (types 1, 2, 4, 5, 6, hidden, 3).

    The search (``explainer.core.ur``: compiled, or its pure twin keeping each rectangle's
    leads in the session) lists every rectangle's steps that remove something as leads (type,
    set size, corners, values); they are sorted by type here and a step is built only when
    asked for: a caller taking the first step builds one."""
    found: list[tuple[tuple[int, int, int], int, ur.Lead]] = []
    order = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, "hidden": 5, 3: 6}
    # on SE's path (the engine keeps the lowest-rated step: ctx.lowest_first) types 1 to 4 rate
    # 4.5 to 4.6 (+0.1 a cell of type 3's set past a pair), types 5, 6 and hidden a chain (7.0):
    # cheaper first, and those only under the ceiling
    chain_types = ("hidden", 5, 6)
    skip_chains = ctx.lowest_first and ctx.ceiling <= UR_CHAIN
    leads = ur.rectangles(state, None if ur.compiled() else session_of(state, ctx))
    for lead in leads:
        kind, size = KINDS[lead[0]], lead[1]
        if kind in chain_types:
            if skip_chains:
                continue
            key = (2, order[kind], 0) if ctx.lowest_first else (order[kind], 0, 0)
        elif ctx.lowest_first:
            key = (1, size, order[kind]) if kind == 3 else (0, order[kind], 0)
        else:
            key = (order[kind], size, 0)
        found.append((key, len(found), lead))
    found.sort(key=lambda t: t[:2])
    listed: dict[tuple[int, ...], list[_Lazy]] = {}  # a rectangle's steps, listed once a call
    for _, _, (_, _, j, c0, c1, c2, c3, ab) in found:
        rect = (c0, c1, c2, c3)
        steps = listed.get((c0, c1, c2, c3, ab))
        if steps is None:
            steps = listed[(c0, c1, c2, c3, ab)] = list(_rectangle_steps(state, rect, ab, _mask(rect)))
        step = steps[j][2]()
        if step is not None:
            yield step


_Lazy = tuple[object, int, Callable[[], Explanation | None]]  # a step's type, type 3's set size, how to build it


def _see(cells: int) -> Agree:
    """"which see(s)" agreeing with the removed cells (type 5 names them)."""
    return Agree(cells.bit_count(), en=("sees", "see"), fr=("voit", "voient"))


def _rectangle_steps(state: State, rect: tuple[int, int, int, int], ab: int, rm: int) -> Iterator[_Lazy]:
    """The rectangle's possible steps, type and builder (None if it would remove nothing)."""
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    a, b = (v + 1 for v in bits(ab))
    floor, roof, extra = split(cand, rect, ab)
    missing = any(cand[c] & ab != ab for c in rect)

    def step(kind: object, template: dict[str, str], removed_pairs: Iterable[tuple[int, int]],
             marked_alt: Iterable[tuple[int, int]] = (), houses: Iterable[int] = (), size: int = 0,
             conjugates: Iterable[tuple[int, int, int]] = (), naked: Iterable[int] = (), **more: Any) -> _Lazy:
        def build() -> Explanation | None:
            common = dict(a=Value(a), b=Value(b), floor=Cells(geo, floor), roof=Cells(geo, roof, last=OR),
                          roofs=Cells(geo, roof),
                          hold=Agree(len(floor), en=("holds", "hold"), fr=("ne contient", "ne contiennent")))
            corners = tuple(geo.rc(c) for c in rect)
            recorded = (("type", kind), ("values", (a, b)), ("corners", corners)) + (
                (("size", size),) if size else ()) + ((("missing", True),) if missing else ())
            return pattern_step(state, "unique rectangle", rect, (a, b), floor, roof, template, removed_pairs,
                                marked_alt, houses, {**common, **more}, recorded, conjugates, (), naked)
        return kind, size, build

    out = []
    if len(floor) == 3:
        r = roof[0]
        out.append(step(1, TYPE_1, [(r, a), (r, b)], [(r, v) for v in values_of(cand[r] & ~ab)]))
    if len(roof) == 2 and extra.bit_count() == 1 and all(cand[c] & ~ab == extra for c in roof):
        c = extra.bit_length()
        seen = pos[c - 1] & peer[roof[0]] & peer[roof[1]]
        kind = 2 if peer[roof[0]] >> roof[1] & 1 else 5
        out.append(step(kind, TYPE_2 if kind == 2 else TYPE_5, [(x, c) for x in bits(seen)],
                        [(x, c) for x in roof], c=Value(c), see=_see(seen)))
    if len(roof) == 3 and extra.bit_count() == 1 and all(cand[x] & extra for x in roof):
        c = extra.bit_length()
        seen = pos[c - 1] & peer[roof[0]] & peer[roof[1]] & peer[roof[2]]
        out.append(step(5, TYPE_5, [(x, c) for x in bits(seen)], [(x, c) for x in roof], c=Value(c),
                        see=_see(seen)))
    if len(roof) == 2 and peer[roof[0]] >> roof[1] & 1:
        houses = _common_houses(geo, roof)
        for h in houses:  # type 4
            hm = geo.house_mask[h]
            for x, y in ((a, b), (b, a)):
                # x lives in h, only on the roof (a value already placed in h would make this vacuous)
                if pos[x - 1] & hm and not pos[x - 1] & hm & ~(1 << roof[0] | 1 << roof[1]):
                    bare = [geo.cell_name(r) for r in roof if not cand[r] >> (y - 1) & 1]
                    unheld = Words(**{lang: t.format(cell=bare[0], b=value_char(y)) for lang, t in UNHELD.items()}
                                   ) if len(bare) == 1 else ""
                    out.append(step(4, TYPE_4, [(r, y) for r in roof], [(r, x) for r in roof], [h],
                                    conjugates=[(roof[0], roof[1], x)], house=House(geo, h), a=Value(x),
                                    b=Value(y), unheld=unheld))
        for h in houses:  # type 3 (a set inside a line and a box: both houses at once, from the line)
            out.extend(_type_3(state, step, roof, extra, h, houses))
    if len(floor) == 2 and not peer[floor[0]] >> floor[1] & 1:  # type 6: diagonal floor
        for lines in (sorted({geo.row_of[c] for c in rect}), sorted({geo.n + geo.col_of[c] for c in rect})):
            for x, y in ((a, b), (b, a)):
                if all(pos[x - 1] & geo.house_mask[h] and not pos[x - 1] & geo.house_mask[h] & ~rm for h in lines):
                    out.append(step(6, TYPE_6, [(r, x) for r in roof], [(c, x) for c in rect], lines,
                                    conjugates=_conjugates(geo, rect, lines, x), lines=_lines(geo, lines),
                                    a=Value(x), b=Value(y)))
    diagonal = len(floor) == 2 and not peer[floor[0]] >> floor[1] & 1
    for corner in floor if len(floor) == 1 or diagonal else ():  # hidden
        opposite = next(c for c in rect if geo.row_of[c] != geo.row_of[corner] and geo.col_of[c] != geo.col_of[corner])
        lines = [geo.row_of[opposite], geo.n + geo.col_of[opposite]]
        for x, y in ((a, b), (b, a)):
            if all(pos[x - 1] & geo.house_mask[h] and not pos[x - 1] & geo.house_mask[h] & ~rm for h in lines):
                out.append(step("hidden", HIDDEN, [(opposite, y)],
                                [(c, x) for c in rect if c != corner], lines,
                                conjugates=_conjugates(geo, rect, lines, x), lines=_lines(geo, lines),
                                target=Cells(geo, [opposite]), floor=Cells(geo, [corner]),
                                a=Value(x), b=Value(y)))
    yield from out


def _conjugates(geo: Geometry, rect: tuple[int, int, int, int], lines: Iterable[int], x: int
                ) -> list[tuple[int, int, int]]:
    """Per line, its two corners of the rectangle: x lives in the line only there (a strong link)."""
    out = []
    for h in lines:
        c1, c2 = (c for c in rect if geo.house_mask[h] >> c & 1)
        out.append((c1, c2, x))
    return out


def _mask(cells: Iterable[int]) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def _lines(geo: Geometry, lines: Sequence[int]) -> Arg:
    from .wording import Lines

    if geo.house_key(lines[0])[0] == geo.house_key(lines[-1])[0]:
        return Lines(geo, lines)
    from explainer.model.i18n import Houses

    return Houses(geo, lines)


def _type_3(state: State, step: Callable[..., _Lazy], roof: list[int], extra: int,
            h: int, houses: list[int]) -> Iterator[_Lazy]:
    """The roof's extras as one virtual cell, completing a naked subset of any size in house h.

    ``houses``: every house holding the roof. A set whose cells also lie in
    another of them (a line's set inside a box) clears both houses: it is
    found once, from the first house (row or column before box)."""
    geo = state.geo
    cand = state.cand
    n = geo.n
    for group, u, removed in virtual_naked_sets(state, h, roof, extra, n):
        both = [x for x in houses if x != h and all(geo.house_mask[x] >> c & 1 for c in group)]
        if any(x < h for x in both):
            continue  # found from the earlier house, with this one's removals
        for x in both:
            removed = removed + [(c, v) for c in geo.houses[x] if cand[c] and c not in roof and c not in group
                                 and not geo.house_mask[h] >> c & 1 for v in values_of(cand[c] & u)]
        yield step(3, TYPE_3, removed, [(c, v) for c in roof for v in values_of(cand[c] & extra)],
                   [h, *both], size=len(group) + 1, naked=group, extra=Values(values_of(extra), last=OR),
                   others=Cells(geo, group), values=Values(values_of(u)), house=_house_or_both(geo, h, both))


def _house_or_both(geo: Geometry, h: int, both: list[int]) -> Arg:
    if not both:
        return House(geo, h)
    from explainer.model.i18n import Houses

    return Houses(geo, [h, *both])


def find_bug_plus_one(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """bug+1: one trivalue cell, every other empty cell bivalue, every value twice per house."""
    geo = state.geo
    cand, pos = state.cand, state.pos
    three = -1
    for c, m in enumerate(cand):
        k = m.bit_count()
        if k == 0 or k == 2:
            continue
        if k != 3 or three >= 0:
            return
        three = c
    if three < 0:
        return
    target = 0
    for hm in geo.house_mask:
        inside = hm >> three & 1
        for v in range(geo.n):
            count = (pos[v] & hm).bit_count()
            if count in (0, 2):
                continue
            if count != 3 or not inside or not cand[three] >> v & 1:
                return
            if target and target != v + 1:
                return
            target = v + 1
    if not target:
        return
    houses = [geo.row_of[three], geo.n + geo.col_of[three], 2 * geo.n + geo.box_of[three]]
    if any((pos[target - 1] & geo.house_mask[h]).bit_count() != 3 for h in houses):
        return
    yield Explanation(
        technique="bug+1",
        place=cands(geo, [(three, target)]),
        cells=cell_coords(geo, [three]),
        houses=house_keys(geo, houses),
        marked=cands(geo, [(three, target)]),
        **say(BUG, cell=Cells(geo, [three]), v=Value(target)),
        detail=(("value", target),),
        # the value's three places in each house of the cell: what makes it the cell's value
        roles=(on_cells("cells", geo, [three]), on_houses("house", geo, houses),
               on_cands("value", geo, [(c, target) for h in houses for c in bits(pos[target - 1] & geo.house_mask[h])
                                       if c != three]),
               on_cands("extra", geo, [(three, target)])),
    )
