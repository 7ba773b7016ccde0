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
only those whose candidates fit the pattern, so the search stays small. The
searches run one intersection at a time in the search core
(``explainer.core.sdc``: compiled, with a pure-Python twin) over its cells'
candidate masks, and return compact rows (sets as masks, values, how many
candidates go); each intersection's rows are kept in the solving session while
its line's and box's candidates stay. A step (texts, roles) is built only for
the row the engine takes: to an engine that takes leads, each comes as a lead
whose choice key is known whole.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, partial
from operator import itemgetter

from explainer.core import sdc
from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import bits, geometry, values_of
from explainer.model.i18n import Agree, Cells, House, Values, say
from explainer.model.roles import on_cells, on_houses, set_roles
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

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


@cache
def _parts(n: int) -> tuple[tuple[int, int, tuple[int, ...], int, int], ...]:
    """(line, box, cells, m, l) of each line-box intersection: its cells in the local order the
    searches take (``explainer.core.sdc``: the m cells of the intersection, the line's l others,
    then the box's)."""
    geo = geometry(n)
    hm = geo.house_mask
    out = []
    for r1, r2, inter in geo.intersections:
        core, line, box = list(bits(inter)), list(bits(hm[r1] & ~inter)), list(bits(hm[r2] & ~inter))
        out.append((r1, r2, tuple(core + line + box), len(core), len(line)))
    return tuple(out)


def _marks(state: State, cells: int) -> tuple[tuple[int, int, int], ...]:
    """Every candidate of ``cells``."""
    return cands(state.geo, ((c, v) for c in bits(cells) for v in values_of(state.cand[c])))


def _removals(state: State, cells: int, values: int) -> list[tuple[int, int]]:
    return [(c, v) for c in bits(cells) for v in values_of(state.cand[c] & values)]


def _global(cells: tuple[int, ...], local: int) -> int:
    """The cell mask of a set of positions in a part's ``cells``."""
    return sum(1 << cells[i] for i in bits(local))


def _cells_of(part: tuple[int, int, tuple[int, ...], int, int],
              row: sdc.Found) -> tuple[int, int, int, int, int, int, int, int]:
    """(line, box, E12 or E, E1, E2, their values) of a search's row on an intersection
    (``_parts``' row), the sets as cell masks."""
    r1, r2, cells, _, _ = part
    _, m, m1, m2, f, v1, v2, _ = row
    return r1, r2, _global(cells, m), _global(cells, m1), _global(cells, m2), f, v1, v2


# values outside F one side of a Sue de Coq may hold (each needs one more cell): HoDoKu's
# library needs two at most; a bound keeps the search small
MAX_EXTRAS = 2
MAX_SIDE = 4  # cells on one side (the library needs four at most)


def _found(state: State, ctx: Context, owner: str,
           search: Callable[[list[int], tuple[int, ...], int, int], list[sdc.Found]]
           ) -> list[tuple[int, int, sdc.Found]]:
    """(rank, part, the search's row) of every pattern ``search`` finds, sorted (stably) by the
    row's first term (its rank). Each intersection's rows are kept in the solving session
    (``Session.part``) while its line's and box's candidates stay: their houses' stamps
    (``Session.house_stamps``) are the content; a part found unchanged is read from the
    session's table here (``Session.parts``), the rest (and every part in check mode) through
    ``Session.part``."""
    session = session_of(state, ctx)
    cand = state.cand
    stamps = session.house_stamps()
    table = session.parts(owner)
    reuse = not session.check
    found: list[tuple[int, int, sdc.Found]] = []
    for k, (r1, r2, cells, mi, ml) in enumerate(_parts(state.geo.n)):
        content = (stamps[r1], stamps[r2])
        hit = table.get(k)
        if reuse and hit is not None and hit[0] == content:
            rows = hit[1]
        else:
            rows = session.part(owner, k, content, lambda: search(cand, cells, mi, ml))  # noqa: B023
        if rows:
            found += [(row[0], k, row) for row in rows]
    found.sort(key=itemgetter(0))
    return found


def _leads(state: State, ctx: Context, name: str, build: Callable[..., Explanation],
           found: list[tuple[int, int, sdc.Found]]) -> Iterator[Explanation | Lead]:
    """The steps of ``found`` (``_found``), in its order: to an engine that takes leads, each as a
    lead whose choice key is known whole, so that only the step taken is built: its rating is
    its kind's least (``least`` 0: both kinds are rated by their weight alone), its eliminations
    the search's count (a candidate both houses remove once, as the step lists it), its pattern
    size the cells it highlights, |E12| + |E1| + |E2| (the rank less its 100), with no links."""
    parts = _parts(state.geo.n)
    for _, k, row in found:
        if ctx.leads:
            yield Lead(name, partial(build, state, parts[k], row), 0.0, 0, row[7], (row[0] % 100, 0, 0))
        else:
            yield build(state, parts[k], row)


def find_suedecoq(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Sue de Coq: the plain ones (sides inside F) first, then those whose sides hold values
    outside F, smallest first; a step is built only when it is asked for."""
    found = _found(state, ctx, "suedecoq",
                   lambda cand, cells, mi, ml: sdc.suedecoq_at(cand, cells, mi, ml, MAX_EXTRAS, MAX_SIDE))
    yield from _leads(state, ctx, "suedecoq", _sdc_step, found)


def _sdc_step(state: State, part: tuple[int, int, tuple[int, ...], int, int], row: sdc.Found) -> Explanation:
    """The step of ``sdc.suedecoq_at``'s row on the intersection ``part`` (``_parts``)."""
    r1, r2, m12, m1, m2, f, u1, u2 = _cells_of(part, row)
    hm = state.geo.house_mask
    e = m12 | m1 | m2
    elim = _removals(state, hm[r1] & ~e, (f | u1) & ~u2) + _removals(state, hm[r2] & ~e, (f | u2) & ~u1)
    geo = state.geo
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


def find_suedecoq_bis(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Sue de Coq bis, smallest first; each line-box intersection's kept in the solving session
    while its line's and box's candidates stay; a step is built only when it is asked for."""
    limit = _als_limit(state.geo.n)
    found = _found(state, ctx, "suedecoq bis",
                   lambda cand, cells, mi, ml: sdc.bis_at(cand, cells, mi, ml, limit))
    yield from _leads(state, ctx, "suedecoq bis", _bis_step, found)


def _bis_step(state: State, part: tuple[int, int, tuple[int, ...], int, int], row: sdc.Found) -> Explanation:
    """The step of ``sdc.bis_at``'s row on the intersection ``part`` (``_parts``)."""
    r1, r2, me, m1, m2, f, v1, v2 = _cells_of(part, row)
    hm = state.geo.house_mask
    elim = _removals(state, hm[r1] & ~(m1 | me), v1) + _removals(state, hm[r2] & ~(m2 | me), v2)
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
