"""Unique loops (types 1-4): the deadly pattern of a rectangle, grown to 6, 8, 10 … cells.

A *unique loop* (Sudoku Explainer's "Unique Loop", SudokuWiki's "Unique
Rectangles" extended) is a closed path of empty cells that all hold the same
two values {a, b}, consecutive cells sharing a house, where every row,
column and box the loop passes holds exactly two of its cells, one at an
even and one at an odd place along the loop. Were every cell a or b, the
values would alternate along the loop and could all be swapped, leaving a
second solution; a puzzle with one solution (the engine proves it before
explaining; ``uniqueness=False`` / ``--no-uniqueness`` leaves this out)
never reaches that, so the cells holding more than {a, b} (the *extra*
cells, at most two, or any number sharing one single extra value) rescue it:

- type 1: one extra cell: it cannot be a or b;
- type 2: the extra cells hold one extra value c and nothing else: one of
  them is c, so c goes from every cell seeing them all;
- type 3: two extra cells in one house; their extras X act as one cell
  (one of them takes a value of X): with k other cells of the house holding
  together |X ∪ …| = k + 1 values, a naked set forms and its values leave
  the house's other cells;
- type 4: two extra cells in one house where a lives only on them: one is
  a, so the other cannot be b (the loop would be deadly): b goes from both.

Four cells are a unique rectangle (``techniques.uniqueness``): this finder
starts at six. It runs at every step, so it rejects at once a pair {a, b}
held by fewer than six cells, none of them bivalue, or whose cells thin out
to fewer than six once every cell alone in one of its houses is dropped.
Frames: ``cells`` the loop's cells holding only {a, b}, ``cells_alt`` the
extra cells, ``marked`` a and b in every loop cell, ``marked_alt`` the
extras (type 4: the a's in the house; type 3: also the values of the set's
other cells). The loop's order is in the text and in detail ``cells``; the
frame draws it as a closed band through the cells (role ``cycle``), not as
links, which frames read as a chain of inferences; type 4's a's are joined by
a strong link, type 3's set cells take a tint of their own.

``se_finder`` is Sudoku Explainer's unique rectangles and loops (the ``se``
orders): from every bivalue cell in index order SE's depth-first walk
(``_se_walk``: block, row, column, not the type of the last move; compiled in
``explainer.core.sepattern``, this Python its twin) closes loops of four cells
or more; a valid one (no region holding two cells at
places of one parity, the odd and even places in the same regions) gives
types 1, 2, 3 (SE's naked and hidden sets) and 4 in SE's conditions; rated
4.5, + 0.1 for 6 cells, + 0.2 for 8, + 0.5 for 10 or more, type 3 + 0.1 per
naked value (hidden cell) past one; SE sorts every hint by rating, then type,
and takes the first. Classic SE shares the walk's extras between siblings;
Sukaku Explainer (lkSudoku's fix) keeps them per branch and looks for type 3
from degree 2. Its steps are this module's (a rectangle's words for four
cells) with SE's rating recorded.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, partial
from typing import Any

from explainer.core import sepattern, ur
from explainer.model.explanation import Explanation
from explainer.model.grid import Geometry, bits, geometry, values_of
from explainer.model.i18n import OR, Arg, Cells, House, Value, Values
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder

from .deadly import detail, pattern_step, split, virtual_naked_sets
from .seorder import N, check_size, rated, subsets
from .uniqueness import ONE

MIN_CELLS = 6  # four are a unique rectangle
# The search's bound per call, in cells tried: real positions need a few hundred at most
# (top1465, hardest300, se_rated); a made-up grid where one pair fills half the cells would
# need millions. Past it the finder gives the loops found so far.
BUDGET = 20_000


class _Path(Arg):
    """The loop's cells in loop order: 'r1c1–r1c4–r2c4–r2c7–r3c7–r3c1'."""

    def __init__(self, geo: Geometry, loop: Iterable[int]) -> None:
        self.names = [geo.cell_name(c) for c in loop]

    def fmt(self, lang: str) -> str:
        return "–".join(self.names)


LOOP = {"en": "the {length} cells {loop} form a loop, two in each row, column and box they pass",
        "fr": "les {length} cases {loop} forment une boucle, deux dans chaque ligne, colonne et bloc "
              "qu'elles traversent"}


def _t(en: str, fr: str) -> dict[str, str]:
    return {"en": "Unique loop type " + en.replace("{LOOP}", LOOP["en"]) + " " + ONE["en"],
            "fr": "Boucle unique type " + fr.replace("{LOOP}", LOOP["fr"]) + " " + ONE["fr"]}


TYPE_1 = _t("1 on {a} and {b}: {LOOP}; all but {roof} hold only {a} and {b}. If {roof} were {a} or {b} "
            "too, the loop could swap {a} and {b} and the puzzle would have two solutions. So {a} and {b} "
            "are removed from {roof}.",
            "1 sur {a} et {b} : {LOOP} ; toutes sauf {roof} ne contiennent que {a} et {b}. Si {roof} "
            "valait aussi {a} ou {b}, la boucle pourrait échanger {a} et {b} et la grille aurait deux "
            "solutions. Donc {a} et {b} sont retirés de {roof}.")
TYPE_2 = _t("2 on {a} and {b}: {LOOP}; {floor} {hold} only {a} and {b}, {roofs} only {a}, {b} and {c}. "
            "Without {c} the loop would be deadly (two solutions), so one of {roof} is {c} and {removed}.",
            "2 sur {a} et {b} : {LOOP} ; {floor} ne {hold} que {a} et {b}, {roofs} que {a}, {b} et {c}. "
            "Sans {c} la boucle serait mortelle (deux solutions), donc l'une de {roof} vaut {c} et "
            "{removed}.")
TYPE_3 = _t("3 on {a} and {b}: {LOOP}; {floor} {hold} only {a} and {b}; one of {roof} must take a value "
            "among {extra} (else two solutions), so with {others} they form a naked set on {values} in "
            "{house}, and {removed}.",
            "3 sur {a} et {b} : {LOOP} ; {floor} ne {hold} que {a} et {b} ; l'une de {roof} doit prendre "
            "une valeur parmi {extra} (sinon deux solutions), donc avec {others} elles forment un "
            "ensemble nu sur {values} dans {house}, et {removed}.")
TYPE_4 = _t("4 on {a} and {b}: {LOOP}; {floor} {hold} only {a} and {b}; in {house}, {a} can only go in "
            "{roof}, so one of them is {a}, and if the other were {b} the loop would be deadly (two "
            "solutions). So {removed}.",
            "4 sur {a} et {b} : {LOOP} ; {floor} ne {hold} que {a} et {b} ; dans {house}, le {a} ne peut "
            "aller qu'en {roof}, donc l'une d'elles vaut {a}, et si l'autre valait {b} la boucle serait "
            "mortelle (deux solutions). Donc {removed}.")


def find_unique_loop(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Unique loops of six cells or more, easiest first (shortest loop, then type)."""
    found: list[tuple[int, int, int, int, Explanation]] = []
    budget = [BUDGET]
    for ab, only, cells in ur.loop_pairs(state, MIN_CELLS):
        for loop in _loops(state, ab, cells & only, cells, budget):
            for step in _loop_steps(state, loop, ab):
                found.append((len(loop), int(step.get("size", 0)), int(step.get("type")), len(found), step))
    found.sort(key=lambda t: t[:4])
    for *_, step in found:
        yield step


def _loops(state: State, ab: int, only: int, cells: int, budget: list[int]) -> Iterator[list[int]]:
    """Every loop on {a, b} among ``cells`` (``only``: those holding just a and b) with an
    extra cell, each found once: from its first cell holding just a and b, in loop order."""
    geo = state.geo
    for start in bits(only):
        # no cell holding only a and b before ``start``
        allowed = (cells & ~only) | (only & ~((1 << start) - 1))
        for members in _closures(geo, state.cand, ab, only, allowed, start, budget):
            if members.bit_count() >= MIN_CELLS and members & ~only:
                order = _cycle(geo, members, start, budget)
                if order is not None:
                    yield order


def _closures(geo: Geometry, cand: list[int], ab: int, only: int, allowed: int, start: int,
              budget: list[int]) -> Iterator[int]:
    """Sets of cells from ``start`` where every house holds 0 or 2 of them, the two of
    opposite colours, and the extra cells are at most two or share one extra value.

    Depth first: the open house with the fewest cells left to join is filled first; a cell
    can join only while none of its houses holds two already (``blocked``), and once two
    extra cells are in, only cells holding just a and b (and the one extra value, if the
    two share it) can. ``budget[0]``: cells left to try in this call (shared by all pairs)."""
    houses, masks = geo.cell_houses, geo.house_mask

    def add(members: int, odd: int, open_h: int, blocked: int, y: int, y_odd: bool
            ) -> tuple[int, int, int, int] | None:
        for h in houses[y]:
            if open_h >> h & 1:
                if bool(odd & members & masks[h]) == y_odd:
                    return None  # two cells of one colour in a house
                open_h &= ~(1 << h)
                blocked |= masks[h]
            else:
                open_h |= 1 << h
        return members | 1 << y, odd | (1 << y if y_odd else 0), open_h, blocked

    def grow(members: int, odd: int, open_h: int, blocked: int, extra_cells: int, extras: int,
             allowed: int) -> Iterator[int]:
        if not open_h:
            yield members
            return
        if extra_cells >= 2:  # no third extra cell unless all share one extra value
            allowed &= only | (_holding(cand, allowed, ab | extras) if extras.bit_count() == 1 else 0)
        best, options = -1, 0
        for h in bits(open_h):
            o = allowed & masks[h] & ~members & ~blocked
            if not o:
                return
            if best < 0 or o.bit_count() < options.bit_count():
                best, options = h, o
        x_odd = bool(odd & masks[best])
        for y in bits(options):
            budget[0] -= 1
            if budget[0] < 0:
                return
            more = cand[y] & ~ab
            nxt = add(members, odd, open_h, blocked, y, not x_odd)
            if nxt is not None:
                yield from grow(*nxt, extra_cells + (1 if more else 0), extras | more, allowed)

    first = add(0, 0, 0, 0, start, False)
    assert first is not None
    yield from grow(*first, 0, 0, allowed)


def _holding(cand: list[int], cells: int, values: int) -> int:
    """The cells of ``cells`` whose candidates are exactly ``values``."""
    out = 0
    for c in bits(cells):
        if cand[c] == values:
            out |= 1 << c
    return out


def _cycle(geo: Geometry, members: int, start: int, budget: list[int]) -> list[int] | None:
    """The cells in loop order (consecutive cells share a house), or None if no loop
    passes every cell once (Sudoku Explainer's loops are such paths) or the budget ends."""
    near = {c: sorted({x for h in geo.cell_houses[c] for x in bits(members & geo.house_mask[h]) if x != c})
            for c in bits(members)}
    size = len(near)
    path = [start]
    seen = {start}

    def walk() -> bool:
        last = path[-1]
        if len(path) == size:
            return start in near[last]
        for y in near[last]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if y not in seen:
                path.append(y)
                seen.add(y)
                if walk():
                    return True
                path.pop()
                seen.discard(y)
        return False

    return path if walk() else None


def _words(geo: Geometry, loop: list[int], a: int, b: int, floor: list[int], roof: list[int]) -> dict[str, Any]:
    """The words every loop template reads: the values, floor and roof cells, the loop."""
    floor_cells = Cells(geo, floor)
    return dict(a=Value(a), b=Value(b), floor=floor_cells, roof=Cells(geo, roof, last=OR), roofs=Cells(geo, roof),
                loop=_Path(geo, loop), length=len(loop),
                hold=floor_cells.verb(en=("holds", "hold"), fr=("contient", "contiennent")))


def _loop_steps(state: State, loop: list[int], ab: int) -> Iterator[Explanation]:
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    a, b = (v + 1 for v in bits(ab))
    floor, roof, extra = split(cand, loop, ab)
    common = _words(geo, loop, a, b, floor, roof)

    cells = tuple(geo.rc(c) for c in loop)

    def step(kind: int, template: dict[str, str], removed: list[tuple[int, int]],
             marked_alt: Iterable[tuple[int, int]], houses: Iterable[int] = (), size: int = 0,
             conjugates: Iterable[tuple[int, int, int]] = (), naked: Iterable[int] = (),
             **more: Arg) -> Explanation | None:
        return pattern_step(state, "unique loop", loop, (a, b), floor, roof, template, removed, marked_alt, houses,
                            {**common, **more}, detail(kind, size, length=len(loop), values=(a, b), cells=cells),
                            conjugates, loop, naked)

    out: list[Explanation | None] = []
    if len(roof) == 1:
        r = roof[0]
        out.append(step(1, TYPE_1, [(r, a), (r, b)], [(r, v) for v in values_of(cand[r] & ~ab)]))
    elif extra.bit_count() == 1:
        c = extra.bit_length()
        seen = pos[c - 1]
        for x in roof:
            seen &= peer[x]
        out.append(step(2, TYPE_2, [(x, c) for x in bits(seen)], [(x, c) for x in roof], c=Value(c)))
    if len(roof) == 2 and peer[roof[0]] >> roof[1] & 1:
        shared = [h for h in geo.cell_houses[roof[0]] if geo.house_mask[h] >> roof[1] & 1]
        pair = 1 << roof[0] | 1 << roof[1]
        for h in shared:  # type 4
            for x, y in ((a, b), (b, a)):
                if not pos[x - 1] & geo.house_mask[h] & ~pair:
                    out.append(step(4, TYPE_4, [(r, y) for r in roof], [(r, x) for r in roof], [h],
                                    conjugates=[(roof[0], roof[1], x)], house=House(geo, h), a=Value(x),
                                    b=Value(y)))
        if extra.bit_count() > 1:
            for h in shared:  # type 3: the extras as one cell of a naked set
                for group, values, removed in virtual_naked_sets(state, h, roof, extra):
                    marked = [(c, v) for c in roof for v in values_of(cand[c] & extra)]
                    marked += [(c, v) for c in group for v in values_of(cand[c])]
                    out.append(step(3, TYPE_3, removed, marked, [h], size=len(group) + 1, naked=group,
                                    extra=Values(values_of(extra), last=OR), others=Cells(geo, group),
                                    values=Values(values_of(values)), house=House(geo, h)))
    for s in out:
        if s is not None:
            yield s



# ---- Sudoku Explainer's scan order (the ``se`` orders) ---------------------------------------

TYPE_3_HIDDEN = _t("3 on {a} and {b}: {LOOP}; {floor} {hold} only {a} and {b}; one of {roof} must take a value "
                   "among {extra} (else two solutions), so together they hold {a} or {b} once at most: taken as "
                   "one cell, they and {others} are the only places in {house} for {values}, a hidden set, and "
                   "{removed}.",
                   "3 sur {a} et {b} : {LOOP} ; {floor} ne {hold} que {a} et {b} ; l'une de {roof} doit prendre "
                   "une valeur parmi {extra} (sinon deux solutions), donc à elles deux elles contiennent {a} ou "
                   "{b} une fois au plus : prises comme une seule case, elles et {others} sont les seules places "
                   "de {house} pour {values}, un ensemble caché, et {removed}.")
# a hint of SE's walk: (its rating, type, removals, marked extras, region or None, type 3's set or ())
_SeHint = tuple[float, int, list[tuple[int, int]], tuple[tuple[int, int], ...], int | None, tuple[Any, ...]]


def _rectangle(template: dict[str, str]) -> dict[str, str]:
    """A loop template worded for a loop of four cells, a unique rectangle."""
    return {"en": template["en"].replace("Unique loop", "Unique rectangle"),
            "fr": template["fr"].replace("Boucle unique", "Rectangle unique")}


def _se_rating(size: int) -> float:
    """SE's rating of a loop of ``size`` cells (summed as SE sums it)."""
    return 4.5 + (0.3 if size >= 10 else 0) + (0.2 if size >= 8 else 0.1 if size >= 6 else 0)


@cache
def _se_regions() -> tuple[tuple[int, int, int], ...]:
    """Each cell's houses in SE's order of region types: block, row, column (a constant table)."""
    return tuple((b, r, c) for r, c, b in geometry(N).cell_houses)


def se_finder(lk: bool) -> Finder:
    """Sudoku Explainer's unique rectangles and loops (``lk``: Sukaku Explainer's default fixes):
    the loops of SE's walk from every bivalue cell (``_se_walk``), its hints of each valid one,
    sorted as SE sorts them (rating, type, then as found)."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        cand = state.cand
        found: list[tuple[float, int, int, list[int], int, int, _SeHint]] = []
        # a loop's hints depend on its extra cells in loop order, its values and its length only:
        # the walk finds most loops again from their other cells and the other way round
        hints_of: dict[tuple[tuple[int, ...], int, int, int], list[_SeHint]] = {}
        for start in range(N * N):
            if cand[start].bit_count() != 2:
                continue
            v1, v2 = values_of(cand[start])
            for loop in _se_loops(state, start, v1, v2, lk):
                key = (tuple(c for c in loop if cand[c].bit_count() > 2), v1, v2, len(loop))
                hints = hints_of.get(key)
                if hints is None:
                    hints = hints_of[key] = list(_se_hints(state, loop, v1, v2, lk))
                for hint in hints:
                    found.append((hint[0], hint[1], len(found), loop, v1, v2, hint))
        found.sort(key=lambda t: t[:3])
        for rating, _, _, loop, v1, v2, hint in found:
            yield rated(ctx, "unique rectangle" if len(loop) == 4 else "unique loop", rating,
                        partial(_se_step, state, loop, v1, v2, *hint[1:]), eliminate=hint[2], first=True)

    return find_se


def _se_loops(state: State, start: int, v1: int, v2: int, per_branch: bool) -> list[list[int]]:
    """The valid loops of SE's walk from ``start`` (``_se_walk`` then ``_se_valid``), in the walk's
    order: the compiled core's walk when it is in use (``explainer.core.sepattern``), else the
    Python below, its twin."""
    if sepattern.compiled():
        holding = state.pos[v1 - 1] & state.pos[v2 - 1]
        return sepattern.unique_loops(state.cand, holding, start, 1 << (v1 - 1) | 1 << (v2 - 1), per_branch)
    return [loop for loop in _se_walk(state, start, v1, v2, per_branch) if _se_valid(loop)]


def _se_walk(state: State, start: int, v1: int, v2: int, per_branch: bool) -> list[list[int]]:
    """The loops of SE's depth-first walk from ``start``, in the order SE records them: to a cell
    holding v1 and v2 of one of the current cell's regions (block, row, column; not the type of
    the move that led there), at most two cells with extras, more while the extras are one value.
    Classic SE accumulates the extras once per cell visited (siblings see each other's);
    Sukaku Explainer (``per_branch``, lkSudoku's fix) keeps them per branch."""
    cand, house_mask = state.cand, state.geo.house_mask
    both = 1 << (v1 - 1) | 1 << (v2 - 1)
    regions = _se_regions()
    loop: list[int] = []
    results: list[list[int]] = []
    # only cells holding both values extend a loop (the start is one): a house's next cells are its
    # bits among them, in increasing index like its cell list
    holding = state.pos[v1 - 1] & state.pos[v2 - 1]

    def visit(cell: int, allowed: int, extras: int, last: int, used: int) -> None:
        loop.append(cell)
        used |= 1 << cell
        shared = extras  # classic SE: one copy per call, shared by the siblings
        for kind in (0, 1, 2):
            if kind == last:
                continue
            room = house_mask[regions[cell][kind]] & holding
            while room:
                low = room & -room
                room ^= low
                nxt = low.bit_length() - 1
                if nxt == start and len(loop) >= 4:
                    results.append(list(loop))
                elif not used >> nxt & 1:
                    m = cand[nxt]
                    if per_branch:
                        mine = (extras | m) & ~both
                    else:
                        shared = (shared | m) & ~both
                        mine = shared
                    k = m.bit_count()
                    if k == 2 or mine.bit_count() == 1 or allowed > 0:
                        visit(nxt, allowed - (1 if k > 2 else 0), mine, kind, used)
        loop.pop()

    visit(start, 2, 0, -1, 0)
    return results


def _se_valid(loop: list[int]) -> bool:
    """SE's test: no region holds two cells at places of one parity, and the regions of the odd
    and the even places are the same."""
    regions = _se_regions()
    seen: tuple[set[int], set[int]] = (set(), set())
    for i, cell in enumerate(loop):
        side = seen[i % 2]
        for h in regions[cell]:
            if h in side:
                return False
            side.add(h)
    return seen[0] == seen[1]


def _se_hints(state: State, loop: list[int], v1: int, v2: int, lk: bool) -> Iterator[_SeHint]:
    """The hints of one loop, in SE's order: type 1 (one extra cell), 2 (one extra value, more
    than two extra cells or two), 3 then 4 (two extra cells)."""
    cand = state.cand
    both = 1 << (v1 - 1) | 1 << (v2 - 1)
    extra_cells = [c for c in loop if cand[c].bit_count() > 2]
    base = _se_rating(len(loop))
    if len(extra_cells) == 1:
        r = extra_cells[0]
        yield base, 1, [(r, v1), (r, v2)], (), None, ()
    elif len(extra_cells) > 2:
        yield from _se_type_2(state, extra_cells, both, base)
    elif len(extra_cells) == 2:
        c1, c2 = extra_cells
        extra = (cand[c1] | cand[c2]) & ~both
        if extra.bit_count() == 1:
            yield from _se_type_2(state, extra_cells, both, base)
        elif extra.bit_count() >= 2:
            yield from _se_type_3(state, v1, v2, c1, c2, extra, base, lk)
        lock = _se_type_4(state, c1, c2, v1, v2)
        if lock is not None:
            h, x, y = lock
            yield base, 4, [(c1, y), (c2, y)], ((c1, x), (c2, x)), h, ()


def _se_type_4(state: State, c1: int, c2: int, v1: int, v2: int) -> tuple[int, int, int] | None:
    """(region, locked value, removed value) of SE's type 4: the last shared region (block, row,
    column) where v1 is confined to the two cells, else the last where v2 is."""
    geo, pos = state.geo, state.pos
    r1 = r2 = None
    regions = _se_regions()
    for h in regions[c1]:
        if h not in regions[c2]:
            continue
        rest = geo.house_mask[h] & ~(1 << c1 | 1 << c2)
        if not pos[v1 - 1] & rest:
            r1 = h
        if not pos[v2 - 1] & rest:
            r2 = h
    if r1 is not None:
        return r1, v1, v2
    if r2 is not None:
        return r2, v2, v1
    return None


def _se_type_2(state: State, extra_cells: list[int], both: int, base: float) -> Iterator[_SeHint]:
    geo, cand = state.geo, state.cand
    value = (cand[extra_cells[0]] & ~both & -(cand[extra_cells[0]] & ~both)).bit_length()
    seen = geo.all_cells
    for c in extra_cells:
        seen &= geo.peer_mask[c]
    removed = [(c, value) for c in bits(seen & state.pos[value - 1])]
    if removed:
        yield base, 2, removed, tuple((c, value) for c in extra_cells), None, ()


def _se_type_3(state: State, v1: int, v2: int, c1: int, c2: int, extra: int, base: float, lk: bool
               ) -> Iterator[_SeHint]:
    """SE's type 3 in each region the two extra cells share: a naked set of ``degree`` cells
    with their extras, or a hidden set through them, by degree (Sukaku Explainer from 2, classic
    SE from the extras' count)."""
    geo = state.geo
    regions = _se_regions()
    for degree in range(2 if lk else extra.bit_count(), 8):
        for h in regions[c1]:
            if h not in regions[c2]:
                continue
            empty = sum(1 for c in geo.houses[h] if not state.values[c])
            if degree * 2 <= empty and (not lk or degree >= extra.bit_count()):
                yield from _se_naked(state, h, c1, c2, extra, degree, base)
            if degree * 2 < empty:
                yield from _se_hidden(state, h, v1, v2, c1, c2, extra, degree, base)


def _se_naked(state: State, h: int, c1: int, c2: int, extra: int, degree: int, base: float) -> Iterator[_SeHint]:
    """Type 3's naked sets: c1 (standing for both extra cells, holding ``extra``) and degree - 1
    other cells of region h, SE's subsets of the region's places in order."""
    cand, cells = state.cand, state.geo.houses[h]
    i1, i2 = cells.index(c1), cells.index(c2)
    for at in subsets(degree, 9):
        if i1 not in at or i2 in at:
            continue
        naked = extra & cand[c1] & cand[c2]
        union = 0
        others = []
        ok = extra.bit_count() > 1
        for i in at:
            if i == i1:
                union |= extra
                continue
            m = cand[cells[i]]
            naked |= m
            union |= m
            others.append(cells[i])
            ok = ok and m.bit_count() > 1
        if naked.bit_count() != degree or not ok or union.bit_count() != degree:
            continue
        removed = [(c, v) for c in cells if c not in others and c != c1 and c != c2 for v in values_of(cand[c] & union)]
        if removed:
            marked = tuple((c, v) for c in (c1, c2) for v in values_of(cand[c] & extra))
            marked += tuple((c, v) for c in others for v in values_of(cand[c]))
            yield base + (degree - 1) * 0.1, 3, removed, marked, h, ("naked", others, union, extra)


def _se_hidden(state: State, h: int, v1: int, v2: int, c1: int, c2: int, extra: int, degree: int, base: float
               ) -> Iterator[_SeHint]:
    """Type 3's hidden sets: v1, v2 and degree - 2 values neither the loop's nor extras, whose
    places in region h (c2 left out: c1 stands for both) are degree cells."""
    cand, pos = state.cand, state.pos
    rest = [v for v in range(1, 10) if v not in (v1, v2) and not extra >> (v - 1) & 1]
    if degree - 2 > len(rest) or (degree == 2 and not rest):
        return
    hm = state.geo.house_mask[h] & ~(1 << c2)
    for at in subsets(degree - 2, len(rest)):
        values = [rest[i] for i in at] + [v1, v2]
        union = 0
        ok = True
        for v in values:
            where = pos[v - 1] & hm
            ok = ok and where != 0
            union |= where
        if not ok or union.bit_count() != degree:
            continue
        hidden = sum(1 << (v - 1) for v in values)
        places = union & ~(1 << c1)
        removed = [(c, v) for c in bits(places) for v in values_of(cand[c] & ~hidden)]
        if removed:
            marked = tuple((c, v) for c in bits(places) for v in values_of(cand[c] & hidden))
            yield base + (places.bit_count() - 1) * 0.1, 3, removed, marked, h, ("hidden", list(bits(places)),
                                                                                  hidden, extra)


def _se_step(state: State, loop: list[int], v1: int, v2: int, kind: int, removed: list[tuple[int, int]],
             marked: tuple[tuple[int, int], ...], h: int | None, third: tuple[Any, ...]) -> Explanation:
    """An SE loop's step: this module's templates (a rectangle's for four cells), the pattern's step."""
    geo = state.geo
    floor, roof, _ = split(state.cand, loop, 1 << (v1 - 1) | 1 << (v2 - 1))
    words = _words(geo, loop, v1, v2, floor, roof)
    template = {1: TYPE_1, 2: TYPE_2, 4: TYPE_4}.get(kind, TYPE_3)
    if h is not None:
        words["house"] = House(geo, h)
    if kind == 2:
        words["c"] = Value(marked[0][1])
    elif kind == 4:
        x = marked[0][1]
        words.update(a=Value(x), b=Value(v2 if x == v1 else v1))
    elif kind == 3:
        how, others, values, extras = third
        words.update(extra=Values(values_of(extras), last=OR), others=Cells(geo, others),
                     values=Values(values_of(values)))
        template = TYPE_3 if how == "naked" else TYPE_3_HIDDEN
    made = pattern_step(state, "unique rectangle" if len(loop) == 4 else "unique loop", loop, (v1, v2), floor, roof,
                        _rectangle(template) if len(loop) == 4 else template, removed, marked,
                        [] if h is None else [h], words, (("type", kind), ("length", len(loop)), ("values", (v1, v2))))
    assert made is not None  # SE's hints remove live candidates
    return made
