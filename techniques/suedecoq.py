"""Sue de Coq, and its "bis" form with almost locked sets.

Both look where a line R1 meets a box R2 (the m cells of a line-box
intersection I).

suedecoq (HoDoKu's definition, with its two extensions): cells E12 ⊂ I (two
or more, not necessarily all of I) whose candidates F number at least
|E12| + 2; cells E1 of R1 and E2 of R2 outside E12 (an unused cell of I may
join either), with candidates V1 and V2 sharing no value. E1 and E2 may hold
values outside F, one more cell for each such value (their *extras*): with
d1 = |E1| - |V1 \\ F| and d2 = |E2| - |V2 \\ F| both at least 1 and
d1 + d2 = |F| - |E12|, the cells number as many as their values
F ∪ V1 ∪ V2. They are pairwise different (E12 ∪ E1 share R1, E12 ∪ E2 share
R2, E1 and E2 share no value), so they hold each of these values once: a
value of F ∪ V1 outside V2 lies in E12 ∪ E1 ⊂ R1 and leaves the rest of R1;
symmetrically F ∪ V2 outside V1 leaves the rest of R2. ``detail`` ``size``:
the cells; ``extras``: the values outside F.

suedecoq bis: an A²LS E ⊂ I (k cells, k + 2 values), an ALS E1 ⊂ R1 \\ R2
and an ALS E2 ⊂ R2 \\ R1 with disjoint values, each sharing at least two
values with E. If a value of E1 were true elsewhere in R1, E1 would lock its
other values, E would lose at least two values and lock the rest, which
leaves E2 at least two values short. So E1's values leave R1 outside E1 and
E, and E2's values leave R2 outside E2 and E.

Subsets of a house part are enumerated with their candidate unions, keeping
only those whose candidates fit the pattern, so the search stays small.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations
from typing import Any

from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import bits, geometry, values_of
from explainer.model.i18n import Agree, Cells, House, Values, say
from explainer.model.roles import on_cells, on_houses, set_roles
from explainer.model.session import Session, session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead, lead

from .wording import Removals

# verbs agreeing with their cells ("r5c2 holds only", "r1c2 and r2c2 hold only")
HOLD = {"en": ("holds", "hold"), "fr": ("contient", "contiennent")}
SDC = {
    "en": "Sue de Coq: {e12}, where {r1} meets {r2}, {hold} only {values}; with {e1} in {r1} "
          "(only {v1}) and {e2} in {r2} (only {v2}), these {k} cells hold each of the {k} values {all} "
          "once, so these candidates are removed: {removed}.",
    "fr": "Sue de Coq : {e12}, là où {r1} croise {r2}, ne {hold} que {values} ; avec "
          "{e1} dans {r1} (seulement {v1}) et {e2} dans {r2} (seulement {v2}), ces {k} cases "
          "prennent chacune des {k} valeurs {all} une fois, donc ces candidats sont retirés : {removed}.",
}
BIS = {
    "en": "Sue de Coq bis: {e}, where {r1} meets {r2}, {hold} {values} ({k} cells, {k2} values); "
          "{e1} in {r1} {hold1} only {v1} and {e2} in {r2} only {v2}, so {v1} cannot go elsewhere in "
          "{r1} nor {v2} elsewhere in {r2}: removed {removed}.",
    "fr": "Sue de Coq bis : {e}, là où {r1} croise {r2}, {hold} {values} ({k} cases, "
          "{k2} valeurs) ; {e1} dans {r1} ne {hold1} que {v1} et {e2} dans {r2} que {v2}, donc "
          "{v1} ne {can} aller ailleurs dans {r1} ni {v2} ailleurs dans {r2} : retirés {removed}.",
}


def _subsets(cells: list[int], cand: list[int]) -> list[tuple[int, int, int]]:
    """[(cell mask, candidate union, size)] of every nonempty subset of ``cells``."""
    subs = [(0, 0, 0)]
    for c in cells:
        subs += [(cm | 1 << c, u | cand[c], s + 1) for cm, u, s in subs]
    return subs[1:]


def _empty(state: State, mask: int) -> list[int]:
    return [c for c in bits(mask) if state.cand[c]]


@cache
def _parts(n: int) -> tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """(line, box, intersection mask, its cells, line cells outside it, box cells outside it)."""
    geo = geometry(n)
    hm = geo.house_mask
    return tuple((r1, r2, inter, tuple(bits(inter)), tuple(bits(hm[r1] & ~inter)), tuple(bits(hm[r2] & ~inter)))
                 for r1, r2, inter in geo.intersections)


def _marks(state: State, cells: int) -> tuple[tuple[int, int, int], ...]:
    """Every candidate of ``cells``."""
    return cands(state.geo, ((c, v) for c in bits(cells) for v in values_of(state.cand[c])))


def _removals(state: State, cells: int, values: int) -> list[tuple[int, int]]:
    return [(c, v) for c in bits(cells) for v in values_of(state.cand[c] & values)]


# values outside F one side of a Sue de Coq may hold (each needs one more cell): HoDoKu's
# library needs two at most; a bound keeps the search small
MAX_EXTRAS = 2
MAX_SIDE = 4  # cells on one side (the library needs four at most)


def _house_subsets(state: State) -> dict[tuple[int, ...], list[tuple[int, int, int]]]:
    """An empty per-state table, filled lazily by ``_sides`` (one entry per house part)."""
    return {}


def _sides(state: State, part: tuple[int, ...], spare: list[int], f: int, most: int,
           extras: int) -> dict[int, list[tuple[int, int, int]]]:
    """d -> [(cell mask, candidate union, size)]: the sets of cells that can be one side of a Sue
    de Coq on F = ``f``: up to ``MAX_SIDE`` empty cells of ``part`` (a house outside the
    intersection), maybe with one unused intersection cell of ``spare``, holding a value of F,
    at most ``extras`` values outside it, and d = size - |values outside F| in 1..``most``.

    The subsets are listed as a doubling (each cell of ``part`` in turn added to every set listed
    before it), in that order. On a 9×9 grid (parts of six cells) every subset of a part is
    listed once per state (most parts are met by several intersections' cell sets), then
    filtered by F; on bigger grids (parts of 12 or 20 cells) a set holding more than ``extras``
    values outside F is dropped as soon as it is made, with every set it would grow into (their
    values only grow): the same sets in the same order, the listing costing the sets kept."""
    cand = state.cand
    nf = ~f
    if state.geo.n <= 9:
        table = state.cached("suedecoq.sides", _house_subsets)
        subs = table.get(part)
        if subs is None:
            subs = [(0, 0, 0)]
            for c in part:
                if cand[c]:
                    bit, cc = 1 << c, cand[c]
                    subs += [(m | bit, u | cc, k + 1) for m, u, k in subs if k < MAX_SIDE]
            table[part] = subs
        rows = subs if not spare else subs + [(m | 1 << c, u | cand[c], k + 1) for c in spare
                                              for m, u, k in subs if k < MAX_SIDE]
    else:
        subs = [(0, 0, 0)]
        for c in part:
            cc = cand[c]
            if cc and (cc & nf).bit_count() <= extras:
                bit = 1 << c
                subs += [(m | bit, u | cc, k + 1) for m, u, k in subs
                         if k < MAX_SIDE and ((u | cc) & nf).bit_count() <= extras]
        rows = subs if not spare else subs + [(m | 1 << c, u | cand[c], k + 1) for c in spare for m, u, k in subs
                                              if k < MAX_SIDE and ((u | cand[c]) & nf).bit_count() <= extras]
    out: dict[int, list[tuple[int, int, int]]] = {}
    for m, u, k, x in [(m, u, k, (u & nf).bit_count()) for m, u, k in rows if u & f]:
        if x <= extras and 1 <= k - x <= most:
            out.setdefault(k - x, []).append((m, u, k))
    return out


_Found = tuple[int, int, int, int, int, int, int, int, int, list[tuple[int, int]]]


def _contents(session: Session) -> list[tuple[int, int]]:
    """What each line-box intersection's search reads: the candidates of its line and its box,
    as the two houses' stamps (``Session.house_stamps``: they change exactly when those
    candidates change)."""
    stamps = session.house_stamps()
    return [(stamps[r1], stamps[r2]) for r1, r2, *_ in _parts(session.state.geo.n)]


def _search(state: State, extras: int, ctx: Context) -> list[_Found]:
    """Every Sue de Coq whose sides hold at most ``extras`` values outside F:
    (rank, r1, r2, m12, m1, m2, f, u1, u2, removals), rank = its cells, plus 100 when a side
    holds a value outside F (the plain ones first); in the order of the intersections, each
    intersection's kept in the solving session while its line's and box's candidates stay."""
    session = session_of(state, ctx)
    found: list[_Found] = []
    for k, (part, content) in enumerate(zip(_parts(state.geo.n), _contents(session), strict=True)):
        found += session.part("suedecoq", k, content, lambda: _search_at(state, extras, part))  # noqa: B023
    return found


def _search_at(state: State, extras: int, part: tuple[int, int, int, tuple[int, ...], tuple[int, ...],
                                                       tuple[int, ...]]) -> list[_Found]:
    """The Sue de Coqs of one line-box intersection (``_parts``' row)."""
    geo = state.geo
    cand = state.cand
    hm = geo.house_mask
    found: list[_Found] = []
    r1, r2, _inter, inter_cells, line_cells, box_cells = part
    core = [c for c in inter_cells if cand[c]]
    if len(core) < 2:
        return found
    if not any(cand[c] for c in line_cells) or not any(cand[c] for c in box_cells):
        return found
    for m12, f, s12 in _subsets(core, cand):
        n_plus = f.bit_count() - s12
        if s12 < 2 or n_plus < 2:
            continue
        spare = [c for c in core if not m12 >> c & 1]  # unused cells of I: either side may take them
        lines = _sides(state, line_cells, spare, f, n_plus - 1, extras)
        if not lines:
            continue
        boxes = _sides(state, box_cells, spare, f, n_plus - 1, extras)
        for d1, sides in lines.items():
            for m2, u2, s2 in boxes.get(n_plus - d1, ()):
                for m1, u1, s1 in sides:
                    if u1 & u2 or m1 & m2:
                        continue
                    e = m12 | m1 | m2
                    elim = (_removals(state, hm[r1] & ~e, (f | u1) & ~u2)
                            + _removals(state, hm[r2] & ~e, (f | u2) & ~u1))
                    if elim:
                        rank = s12 + s1 + s2 + (100 if (u1 | u2) & ~f else 0)
                        found.append((rank, r1, r2, m12, m1, m2, f, u1, u2, elim))
    return found


def find_suedecoq(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Sue de Coq: the plain ones (sides inside F) first, then those whose sides hold values
    outside F, smallest first; a step is built only when it is asked for."""
    found = _search(state, MAX_EXTRAS, ctx)
    found.sort(key=lambda t: t[0])
    for _, r1, r2, m12, m1, m2, f, u1, u2, elim in found:
        yield lead(ctx, "suedecoq", _sdc_step, state, r1, r2, m12, m1, m2, f, u1, u2, elim, eliminate=len(elim))


def _sdc_step(state: State, r1: int, r2: int, m12: int, m1: int, m2: int, f: int, u1: int, u2: int,
              elim: list[tuple[int, int]]) -> Explanation:
    geo = state.geo
    e = m12 | m1 | m2
    k = e.bit_count()
    e12 = Cells(geo, bits(m12))
    return Explanation(
        technique="suedecoq",
        eliminate=cands(geo, elim),
        cells=cell_coords(geo, bits(e)),
        houses=house_keys(geo, [r1, r2]),
        marked=_marks(state, m1),
        marked_alt=_marks(state, m2),
        **say(SDC, e12=e12, hold=e12.verb(**HOLD), r1=House(geo, r1), r2=House(geo, r2),
              values=Values(values_of(f)), e1=Cells(geo, bits(m1)), e2=Cells(geo, bits(m2)),
              v1=Values(values_of(u1)), v2=Values(values_of(u2)), k=k, all=Values(values_of(f | u1 | u2)),
              removed=Removals(geo, elim)),
        detail=(("size", k),) + ((("extras", tuple(values_of((u1 | u2) & ~f))),) if (u1 | u2) & ~f else ()),
        roles=(on_houses("house", geo, [r1, r2]), on_cells("cells", geo, bits(m12)),
               set_roles(geo, 0, m1), set_roles(geo, 1, m2)),
    )


def _als_limit(n: int) -> int:
    """Largest ALS searched in a house part: all of it on 9×9, 4 cells on larger grids."""
    return n if n <= 9 else 4


@cache
def _combination_order(k: int) -> tuple[tuple[int, int], ...]:
    """(position mask, size) of every nonempty subset of k positions, in the order of
    ``combinations`` size by size."""
    return tuple((sum(1 << i for i in chosen), size)
                 for size in range(1, k + 1) for chosen in combinations(range(k), size))


def _als_rows(cells: tuple[int, ...], cand: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The ALSs (cell mask, values, size) among ``cells`` (candidates ``cand``), in the
    order of ``combinations`` size by size: every subset's cells and candidates are
    built at once, indexed by a mask of positions in ``cells``."""
    cms = [0]
    unions = [0]
    for c, x in zip(cells, cand, strict=True):
        bit = 1 << c
        cms += [cm | bit for cm in cms]
        unions += [u | x for u in unions]
    return tuple((cms[pm], unions[pm], s) for pm, s in _combination_order(len(cells))
                 if unions[pm].bit_count() == s + 1)


def _alss(state: State, part: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """ALSs (cell mask, values, size) among the empty cells of a house part (the cells of a
    house outside an intersection), smallest first."""
    cand = state.cand
    cells = tuple([c for c in part if cand[c]])
    if state.geo.n <= 9:
        return _als_rows(cells, tuple([cand[c] for c in cells]))
    return _small_als_rows(cells, tuple([cand[c] for c in cells]), _als_limit(state.geo.n))


def _small_als_rows(cells: tuple[int, ...], cand: tuple[int, ...], limit: int) -> tuple[tuple[int, int, int], ...]:
    """The ALSs of at most ``limit`` cells among ``cells`` (big grids), in the order of
    ``combinations`` size by size."""
    hit = []
    for size in range(1, min(limit, len(cells)) + 1):
        for chosen in combinations(range(len(cells)), size):
            u = 0
            for i in chosen:
                u |= cand[i]
            if u.bit_count() == size + 1:
                hit.append((sum(1 << cells[i] for i in chosen), u, size))
    return tuple(hit)


def find_suedecoq_bis(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Sue de Coq bis, smallest first; each line-box intersection's kept in the solving session
    while its line's and box's candidates stay, a house part's ALSs while its candidates stay;
    a step is built only when it is asked for."""
    session = session_of(state, ctx)
    found: list[tuple[int, int, int, tuple[Any, ...]]] = []
    for k, (part, content) in enumerate(zip(_parts(state.geo.n), _contents(session), strict=True)):
        for size, j, args in session.part("suedecoq bis", k, content,
                                          lambda: _bis_at(state, session, part)):  # noqa: B023
            found.append((size, k, j, args))
    found.sort(key=lambda t: t[:3])
    for _, _, _, args in found:
        yield lead(ctx, "suedecoq bis", _bis_step, state, *args, eliminate=len(args[-1]))


def _bis_at(state: State, session: Session,
            part: tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
            ) -> list[tuple[int, int, tuple[Any, ...]]]:
    """(size, discovery, step arguments) of the Sue de Coq bis of one line-box intersection."""
    geo = state.geo
    cand = state.cand
    hm = geo.house_mask
    r1, r2, inter, inter_cells, line_cells, box_cells = part
    found: list[tuple[int, int, tuple[Any, ...]]] = []
    core = [c for c in inter_cells if cand[c]]
    if len(core) < 1:
        return found
    a2ls = [(cm, u, s) for cm, u, s in _subsets(core, cand) if u.bit_count() == s + 2]
    if not a2ls:
        return found
    line_als = session.part("suedecoq bis.als", line_cells, tuple([cand[c] for c in line_cells]),
                            lambda: _alss(state, line_cells))
    if not line_als:
        return found
    box_als = session.part("suedecoq bis.als", box_cells, tuple([cand[c] for c in box_cells]),
                           lambda: _alss(state, box_cells))
    if not box_als:
        return found
    for me, f, se in a2ls:
        left = [a for a in line_als if (a[1] & f).bit_count() >= 2]
        right = [a for a in box_als if (a[1] & f).bit_count() >= 2]
        for m1, v1, s1 in left:
            for m2, v2, s2 in right:
                if v1 & v2:
                    continue
                elim = (_removals(state, hm[r1] & ~(m1 | me), v1)
                        + _removals(state, hm[r2] & ~(m2 | me), v2))
                if elim:
                    size = se + s1 + s2
                    found.append((size, len(found), (r1, r2, me, f, m1, v1, m2, v2, elim)))
    return found


def _bis_step(state: State, r1: int, r2: int, me: int, f: int, m1: int, v1: int, m2: int, v2: int,
              elim: list[tuple[int, int]]) -> Explanation:
    geo = state.geo
    k = me.bit_count()
    e, e1 = Cells(geo, bits(me)), Cells(geo, bits(m1))
    return Explanation(
        technique="suedecoq bis",
        eliminate=cands(geo, elim),
        cells=cell_coords(geo, bits(me | m1 | m2)),
        houses=house_keys(geo, [r1, r2]),
        marked=_marks(state, m1),
        marked_alt=_marks(state, m2),
        **say(BIS, e=e, hold=e.verb(**HOLD), hold1=e1.verb(**HOLD),
              can=Agree(v1.bit_count(), fr=("peut", "peuvent"), en=("", "")), r1=House(geo, r1), r2=House(geo, r2),
              values=Values(values_of(f)), k=k, k2=k + 2, e1=e1,
              e2=Cells(geo, bits(m2)), v1=Values(values_of(v1)), v2=Values(values_of(v2)),
              removed=Removals(geo, elim)),
        detail=(("size", k + m1.bit_count() + m2.bit_count()),),
        roles=(on_houses("house", geo, [r1, r2]), on_cells("cells", geo, bits(me)),
               set_roles(geo, 0, m1), set_roles(geo, 1, m2)),
    )
