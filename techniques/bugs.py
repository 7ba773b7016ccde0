"""BUG types 2, 3 and 4 (Bivalue Universal Grave), as Sudoku Explainer defines them.

A *BUG* is a position where every empty cell holds two candidates and every
value has zero or two places in every row, column and box. Such a position
never has exactly one solution (its values can be swapped in pairs), so a
puzzle with one solution (the engine proves it before explaining;
``uniqueness=False`` / ``--no-uniqueness`` leaves this out) that is a BUG
once some *BUG candidates* are removed has one of those candidates true.

The BUG candidates are found as Sudoku Explainer finds them: in each house
where a value has neither zero nor two places, the one place in a cell of
three candidates or more (the *BUG cells*) is a BUG candidate; if none is,
there is no BUG; if several are, another house decides. Without them every
empty cell must hold two candidates and every value two places per house.
One BUG cell is bug+1 (``techniques.uniqueness``); with two or more:

- type 2: every BUG candidate is the same value v: one of the BUG cells is
  v, so v goes from every cell seeing them all;
- type 3: the BUG cells share a house; their BUG values X act as one cell
  (one of them takes a value of X): with k other cells of the house holding
  together |X ∪ …| = k + 1 values, a naked set forms and its values leave
  the house's other cells (at least two BUG values, else it is type 2);
- type 4: two BUG cells in one house both hold one other value x, which
  (no BUG value) has its two places there: one is x, so the other takes one
  of its BUG values; neither can hold anything else.

Step name ``bug``, detail ``type`` (2, 3, 4), ``cells`` (the BUG cells) and
``size`` (type 3's set). Frames: ``cells`` the BUG cells, ``marked`` the
BUG candidates, ``cells_alt`` / ``marked_alt`` type 3's other cells of the
set and their values, type 4's x in the two cells. Roles: the BUG cells and
their BUG candidates (``extra``), type 3's other cells of the set in a tint
of their own (``set``), type 4's x as the pattern's values joined by a strong
link (the house holds x only there).

``se_finder`` is Sudoku Explainer's BUG (the ``se`` orders): the BUG
candidates as SE finds them (``se_bug_candidates``), type 1 (bug+1, 5.6) with
the others (5.7, type 3 + 0.1 per naked value past one), SE's own type-3 scan
and the order in which SE adds its hints, each step built by this module's
step with SE's rating recorded (the set's other cells as pincers, no link).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits, values_of
from explainer.model.i18n import OR, Arg, Cells, House, Value, Values, say
from explainer.model.roles import Role, link, on_cands, on_cells, on_houses
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder

from .deadly import Removed, detail, live, virtual_naked_sets
from .seorder import check_size, rated, subsets
from .uniqueness import ONE


class _BugCandidates(Arg):
    """The BUG candidates cell by cell: '5 and 9 in r1c1, 9 in r1c5'."""

    IN = {"en": "in", "fr": "en"}

    def __init__(self, geo: Geometry, extras: dict[int, int]) -> None:
        self.cells = [(Values(values_of(m)), geo.cell_name(c)) for c, m in sorted(extras.items())]

    def fmt(self, lang: str) -> str:
        return ", ".join(f"{values.fmt(lang)} {self.IN[lang]} {cell}" for values, cell in self.cells)


BUG = {"en": "every empty cell holds two candidates but {cells}, and without their BUG candidates ({bug}) "
             "every value would have two places in each house: a deadly pattern (two solutions), so one "
             "of these is true",
       "fr": "toutes les cases vides ont deux candidats sauf {cells}, et sans leurs candidats BUG ({bug}) "
             "chaque valeur aurait deux places dans chaque maison : un motif mortel (deux solutions), donc "
             "l'un d'eux est vrai"}


def _t(en: str, fr: str) -> dict[str, str]:
    return {"en": "BUG type " + en.replace("{BUG}", BUG["en"]) + " " + ONE["en"],
            "fr": "BUG type " + fr.replace("{BUG}", BUG["fr"]) + " " + ONE["fr"]}


TYPE_2 = _t("2: {BUG}. So one of {either} is {v}, and {removed}.",
            "2 : {BUG}. Donc l'une de {either} vaut {v}, et {removed}.")
TYPE_3 = _t("3: {BUG}. So one of {either} takes a value among {extra}; with {others} they form a naked set "
            "on {values} in {house}, and {removed}.",
            "3 : {BUG}. Donc l'une de {either} prend une valeur parmi {extra} ; avec {others} elles forment "
            "un ensemble nu sur {values} dans {house}, et {removed}.")
TYPE_4 = _t("4: {BUG}. In {house}, {x} can only go in {cells}: one is {x}, so the other is one of its BUG "
            "candidates, and neither can be anything else: {removed}.",
            "4 : {BUG}. Dans {house}, le {x} ne peut aller qu'en {cells} : l'une vaut {x}, donc l'autre vaut "
            "l'un de ses candidats BUG, et aucune ne peut valoir autre chose : {removed}.")


def find_bug(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """BUG types 2, 3 and 4: two BUG cells or more, the rest of the grid a BUG."""
    geo = state.geo
    cand = state.cand
    multi = [c for c, m in enumerate(cand) if m.bit_count() > 2]
    if len(multi) < 2:
        return  # none or one BUG cell: bug+1's
    # cheap: types 3 and 4 need the BUG cells in one house, type 2 one BUG value, so
    # three candidates each, one of them common to all
    common = cand[multi[0]]
    for c in multi:
        common &= cand[c]
    if not (common and all(cand[c].bit_count() == 3 for c in multi)) and not _shared_houses(geo, multi):
        return
    extras = _bug_candidates(state, multi)
    if extras is None:
        return
    all_extra = 0
    for m in extras.values():
        all_extra |= m
    out: list[Explanation | None] = []
    if all_extra.bit_count() == 1:
        out.append(_type_2(state, extras, all_extra))
    shared = _shared_houses(geo, multi)
    if len(multi) == 2 and shared:
        out.append(_type_4(state, extras, all_extra, shared[0]))
    if all_extra.bit_count() > 1:
        for h in shared:
            out.extend(_type_3(state, extras, all_extra, h))
    # easiest first: types 2 and 4 (5.7), then type 3 by the size of its set
    yield from sorted((s for s in out if s is not None), key=lambda s: int(s.get("size", 0)))


def _shared_houses(geo: Geometry, cells: Iterable[int]) -> list[int]:
    """The houses holding every one of ``cells``."""
    out = []
    for h, hm in enumerate(geo.house_mask):
        if all(hm >> c & 1 for c in cells):
            out.append(h)
    return out


def _bug_candidates(state: State, multi: list[int]) -> dict[int, int] | None:
    """BUG cell -> its BUG values, or None if the grid is no BUG without them."""
    cand = state.cand
    breaks = _breaks(state, sum(1 << c for c in multi))
    if breaks is None:
        return None
    extras = _alone(breaks)
    # without them: every empty cell bivalue, every value twice or never in each house
    if set(extras) != set(multi) or any((cand[c] & ~extras[c]).bit_count() != 2 for c in multi):
        return None
    return extras if _bug_without(state, extras) else None


def se_bug_candidates(state: State, one_value: bool) -> dict[int, int] | None:
    """The BUG candidates as Sudoku Explainer finds them (``se_finder``): the same
    search, every empty cell bivalue without them; ``one_value`` (Sukaku Explainer's default,
    lkSudoku's fix): when every house breaking the rule breaks it on one value, every cell of
    three candidates or more holding it there is a BUG cell too (on that value)."""
    cand, values = state.cand, state.values
    breaks = _breaks(state, sum(1 << c for c, m in enumerate(cand) if m.bit_count() > 2))
    if breaks is None:
        return None
    extras = _alone(breaks)
    if one_value and breaks and len({v for v, _ in breaks}) == 1:
        for _, cells in breaks:
            for c in bits(cells):
                extras.setdefault(c, 1 << breaks[0][0])
    if any(not values[c] and (m & ~extras.get(c, 0)).bit_count() != 2 for c, m in enumerate(cand)):
        return None
    return extras if _bug_without(state, extras) else None


def _breaks(state: State, multi: int) -> list[tuple[int, int]] | None:
    """(value index, its places there among ``multi``, the cells of three candidates or more) of
    every house where a value has neither zero nor two places, house by house; None if such
    places hold no cell of ``multi`` (no BUG)."""
    pos = state.pos
    out = []
    for hm in state.geo.house_mask:
        for v in range(state.geo.n):
            places = pos[v] & hm
            count = places.bit_count()
            if count == 0 or count == 2:
                continue
            if not places & multi:
                return None  # too many places, none in a BUG cell
            out.append((v, places & multi))
    return out


def _alone(breaks: list[tuple[int, int]]) -> dict[int, int]:
    """BUG cell -> its BUG values: each cell alone among its house's places of a value breaking the rule."""
    extras: dict[int, int] = {}
    for v, cells in breaks:
        if cells & (cells - 1) == 0:
            c = cells.bit_length() - 1
            extras[c] = extras.get(c, 0) | 1 << v
    return extras


def _bug_without(state: State, extras: dict[int, int]) -> bool:
    """True if every value has zero or two places in every house once the BUG candidates go."""
    pos = state.pos
    removed = [0] * state.geo.n
    for c, m in extras.items():
        for v in bits(m):
            removed[v] |= 1 << c
    return all((pos[v] & ~removed[v] & hm).bit_count() in (0, 2)
               for hm in state.geo.house_mask for v in range(state.geo.n))


def _marked(extras: dict[int, int]) -> list[tuple[int, int]]:
    return [(c, v) for c, m in extras.items() for v in values_of(m)]


def _step(state: State, kind: int, template: dict[str, str], extras: dict[int, int],
          removed: list[tuple[int, int]], houses: Iterable[int] = (), alt_cells: Sequence[int] = (),
          marked_alt: Iterable[tuple[int, int]] = (), size: int = 0, conjugate: tuple[int, int, int] | None = None,
          se: bool = False, **more: Arg | str) -> Explanation | None:
    """A BUG step; ``alt_cells``: type 3's other cells of the set (their own tint); ``conjugate``:
    type 4's (cell, cell, x), the only places of x in their house (a strong link); ``se``: Sudoku
    Explainer's step (type 1 is bug+1; the set's other cells are pincers, x no link)."""
    geo = state.geo
    removed = live(state.cand, removed)
    if not removed:
        return None
    cells = sorted(extras)
    shown: tuple[Role, ...] = (on_cells("set", geo, alt_cells, 0),) if alt_cells else ()
    if conjugate is not None:
        x, y, v = conjugate
        shown = (on_cands("value", geo, [(x, v), (y, v)]), link("strong", (*geo.rc(x), v), (*geo.rc(y), v)))
    if se:
        shown = (on_cells("pincer", geo, alt_cells), on_cands("extra", geo, _marked(extras)),
                 on_cands("value", geo, marked_alt))
    else:
        shown = (on_cands("extra", geo, _marked(extras)),) + shown
    return Explanation(
        technique="bug+1" if kind == 1 else "bug",
        eliminate=cands(geo, removed),
        cells=cell_coords(geo, cells), cells_alt=cell_coords(geo, alt_cells),
        houses=house_keys(geo, houses),
        marked=cands(geo, _marked(extras)), marked_alt=cands(geo, marked_alt),
        **say(template, cells=Cells(geo, cells), either=Cells(geo, cells, last=OR),
              bug=_BugCandidates(geo, extras), removed=Removed(geo, removed), **more),
        detail=detail(kind, size, cells=tuple(geo.rc(c) for c in cells)),
        roles=(on_cells("cells", geo, cells), on_houses("house", geo, houses)) + shown,
    )


def _type_2(state: State, extras: dict[int, int], value: int) -> Explanation | None:
    geo = state.geo
    seen = state.pos[value.bit_length() - 1]
    for c in extras:
        seen &= geo.peer_mask[c]
    v = value.bit_length()
    return _step(state, 2, TYPE_2, extras, [(c, v) for c in bits(seen)], v=Value(v))


def _type_4(state: State, extras: dict[int, int], all_extra: int, h: int) -> Explanation | None:
    cand = state.cand
    c1, c2 = sorted(extras)
    common = cand[c1] & cand[c2] & ~all_extra
    if common.bit_count() != 1:
        return None
    x = common.bit_length()
    removed = [(c, v) for c in (c1, c2) for v in values_of(cand[c] & ~extras[c] & ~common)]
    return _step(state, 4, TYPE_4, extras, removed, [h], marked_alt=[(c1, x), (c2, x)], conjugate=(c1, c2, x),
                 house=House(state.geo, h), x=Value(x))


def _type_3(state: State, extras: dict[int, int], all_extra: int, h: int) -> Iterator[Explanation | None]:
    """The BUG cells' BUG values as one virtual cell, completing a naked set in house h."""
    geo = state.geo
    for group, values, removed in virtual_naked_sets(state, h, extras, all_extra):
        yield _step(state, 3, TYPE_3, extras, removed, [h], group,
                    [(c, v) for c in group for v in values_of(state.cand[c])], size=len(group) + 1,
                    extra=Values(values_of(all_extra), last=OR), others=Cells(geo, group),
                    values=Values(values_of(values)), house=House(geo, h))


# ---- Sudoku Explainer's scan order (the ``se`` orders) ---------------------------------------

SE_TYPE_1 = {
    "en": "BUG type 1: every empty cell holds two candidates but {cell}, and without its BUG candidates ({bug}) "
          "every value would have two places in each house: a deadly pattern (two solutions), so {cell} is "
          "one of {values}, and {removed}. " + ONE["en"],
    "fr": "BUG type 1 : toutes les cases vides ont deux candidats sauf {cell}, et sans ses candidats BUG ({bug}) "
          "chaque valeur aurait deux places dans chaque maison : un motif mortel (deux solutions), donc {cell} "
          "vaut l'un de {values}, et {removed}. " + ONE["fr"],
}
# a hint of SE's BUG: (type, SE's rating, the removals, the step's builder)
_SeHint = tuple[int, float, list[tuple[int, int]], Callable[[], Explanation | None]]


def se_finder(lk: bool) -> Finder:
    """Sudoku Explainer's BUG (``lk``: Sukaku Explainer's default, lkSudoku's fixes), type 1 (5.6)
    with the others: the BUG candidates as SE finds them (``se_bug_candidates``), SE giving up
    when two BUG cells or more hold two BUG values or more and no cell sees them all; then its
    hints in the order SE adds them (``_se_hints``), each built by this module's step."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        check_size(state)
        extras = se_bug_candidates(state, lk)
        if not extras:
            return
        for kind, rating, removed, make in _se_hints(state, extras, lk):
            yield rated(ctx, "bug+1" if kind == 1 else "bug", rating, partial(_made, make), eliminate=removed,
                        first=True)

    return find_se


def _made(make: Callable[[], Explanation | None]) -> Explanation:
    made = make()
    assert made is not None  # SE's hints remove live candidates
    return made


def _se_hints(state: State, extras: dict[int, int], lk: bool) -> Iterator[_SeHint]:
    """SE's BUG hints in the order it adds them; none when SE gives up."""
    geo, cand = state.geo, state.cand
    cells = list(extras)
    all_values = 0
    for m in extras.values():
        all_values |= m
    common = geo.all_cells
    for c in cells:
        common &= geo.peer_mask[c]
    # the shared regions in SE's order: block, row, column
    shared = sorted(_shared_houses(geo, cells), key=lambda h: (h // geo.n + 1) % 3)
    if len(cells) == 1:
        cell = cells[0]
        removed = [(cell, v) for v in values_of(cand[cell] & ~all_values)]
        yield 1, 5.6, removed, partial(_step, state, 1, SE_TYPE_1, extras, removed, se=True, cell=geo.cell_name(cell),
                                       values=Values(values_of(extras[cell]), last=OR))
    elif all_values.bit_count() == 1:
        value = all_values.bit_length()
        removed = [(c, value) for c in bits(common & state.pos[value - 1])]
        if removed:
            yield 2, 5.7, removed, partial(_step, state, 2, TYPE_2, extras, removed, se=True, v=Value(value))
        if len(cells) == 2:
            yield from _se_type_4(state, extras, all_values, shared)
    elif common:
        if len(cells) == 2:
            yield from _se_type_4(state, extras, all_values, shared)
        yield from _se_type_3(state, extras, all_values, common, shared, lk)


def _se_type_4(state: State, extras: dict[int, int], all_values: int, shared: list[int]) -> Iterator[_SeHint]:
    cand = state.cand
    c1, c2 = extras
    common = cand[c1] & cand[c2] & ~all_values
    if common.bit_count() != 1:
        return
    x = common.bit_length()
    for h in shared:
        removed = [(c, v) for c in (c1, c2) for v in values_of(cand[c] & ~extras[c] & ~common)]
        yield 4, 5.7, removed, partial(_step, state, 4, TYPE_4, extras, removed, [h], marked_alt=[(c1, x), (c2, x)],
                                       se=True, house=House(state.geo, h), x=Value(x))


def _se_type_3(state: State, extras: dict[int, int], all_values: int, common: int, shared: list[int],
               lk: bool) -> Iterator[_SeHint]:
    """SE's naked sets of the BUG cells' BUG values and degree - 1 cells seeing them all in a
    shared region: by degree then region (``lk``), else by region then degree."""
    geo, cand = state.geo, state.cand
    order = [(d, h) for d in range(2, 7) for h in shared] if lk else [(d, h) for h in shared for d in range(2, 7)]
    for degree, h in order:
        region_cells = list(bits(common & geo.house_mask[h]))
        if len(region_cells) < degree:
            continue
        for at in subsets(degree - 1, len(region_cells)):
            naked = [region_cells[i] for i in at]
            union = 0
            ok = all_values.bit_count() > 1
            for c in naked:
                union |= cand[c]
                ok = ok and cand[c].bit_count() > 1
            if union.bit_count() != degree or not ok or (union | all_values).bit_count() != degree:
                continue
            erasable = [c for c in region_cells if c not in naked and c not in extras]
            removed = [(c, v) for c in erasable for v in values_of(cand[c] & union)]
            if erasable and removed:
                yield 3, 5.7 + (degree - 1) * 0.1, removed, partial(
                    _step, state, 3, TYPE_3, extras, removed, [h], naked,
                    [(c, v) for c in naked for v in values_of(cand[c])], se=True,
                    extra=Values(values_of(all_values), last=OR), others=Cells(geo, naked),
                    values=Values(values_of(union)), house=House(geo, h))
