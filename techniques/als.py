"""ALS-XZ: two almost locked sets joined by a restricted common value.

An ALS is p cells of one house holding p + 1 values together. Two ALSs A
and B (no shared cell) have a *restricted common* value x when every x
candidate of A sees every x candidate of B: x is then true in at most one
of them, so the other is a locked set without x. For any other common
value z, one of A, B must hold z, so a z candidate outside both that sees
every z candidate of A and of B is false.

The enumeration, the pair join and the eliminations are the search core's
(``explainer.core.search``). On the compiled path the state's ALSs are
enumerated once per state into a table the whole family reads
(``als_table``), and a step makes Python objects of the two to six sets it
names only (``als_at``); the pure path reads the ALS list (cells, values,
per value the cells holding it and the cells that see all of them), built
once per state by the solving session, each house's sets kept while the
house is unchanged. Smaller pairs are tried first; on SE's path only pairs
whose sizes can rate below the engine's ceiling, each as a lead rated from
its sizes.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, partial
from typing import Any

from explainer.core import search
from explainer.model import rating
from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import bits
from explainer.model.i18n import Arg, Cells, Value, Values, say
from explainer.model.roles import on_cands, set_link, set_roles
from explainer.model.session import Session, session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

TEXT = {
    "en": "ALS-XZ: {a} {hold_a} only {va} and {b} {hold_b} only {vb}, one value more than cells each. Every "
          "{x} of one sees every {x} of the other, so at most one of them has {x}, and the other is "
          "then locked on its other values. Either way one of them holds {z}, so {targets} (seeing "
          "every {z} of both) cannot be {z}.",
    "fr": "EPV-XZ : {a} ne {hold_a} que {va} et {b} que {vb}, une valeur de plus que de cases "
          "chacun. Chaque {x} de l'un voit chaque {x} de l'autre, donc au plus l'un des deux a {x}, et "
          "l'autre est alors verrouillé sur ses autres valeurs. Dans tous les cas l'un d'eux contient "
          "{z}, donc {targets} ({see} tous les {z} des deux) ne {can} pas valoir {z}.",
}


def targets_seeing(targets: Cells) -> dict[str, Arg]:
    """The cells losing the value, with the words agreeing with them ("qui voit" / "qui voient",
    "peut" / "peuvent"): the ALS family's captions end alike."""
    return {"targets": targets, "see": targets.verb(en=("sees", "see"), fr=("qui voit", "qui voient")),
            "can": targets.verb(en=("can", "can"), fr=("peut", "peuvent"))}


class ALS:
    """An almost locked set: ``cells`` (mask), ``values`` (mask), ``size``; ``where`` (value
    index -> cells of the ALS holding it) and ``sees`` (value index -> cells outside seeing
    every such cell), built on first use when the set comes from ``als_list``."""

    __slots__ = ("cells", "values", "size", "_where", "_sees", "_tables")

    def __init__(self, cells: int, values: int, where: dict[int, int], sees: dict[int, int]) -> None:
        self.cells, self.values = cells, values
        self.size = cells.bit_count()
        self._where: dict[int, int] | None = where
        self._sees: dict[int, int] | None = sees
        self._tables: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @classmethod
    def of(cls, cells: int, values: int, wheres: tuple[int, ...], sees: tuple[int, ...]) -> ALS:
        """An ALS from the search core's tuples (one entry per value, ascending)."""
        a = cls.__new__(cls)
        a.cells, a.values, a.size = cells, values, cells.bit_count()
        a._where = a._sees = None
        a._tables = (wheres, sees)
        return a

    def _unpacked(self) -> tuple[dict[int, int], dict[int, int]]:
        """``where`` and ``sees``, made from the search core's tuples on first use."""
        if self._where is None or self._sees is None:
            assert self._tables is not None
            vals = list(bits(self.values))
            wheres, sees = self._tables
            self._where = dict(zip(vals, wheres, strict=True))
            self._sees = dict(zip(vals, sees, strict=True))
        return self._where, self._sees

    @property
    def where(self) -> dict[int, int]:
        return self._unpacked()[0]

    @property
    def sees(self) -> dict[int, int]:
        return self._unpacked()[1]

    def __repr__(self) -> str:
        return f"<ALS cells={self.cells:#x} values={self.values:#x}>"


def _build(state: State, memo: dict[Any, tuple[Any, Any]] | None) -> list[ALS]:
    return [ALS.of(*a) for a in search.als_sets(state.geo.n, state.cand, state.pos, memo)]


def als_list(state: State, session: Session | None = None) -> list[ALS]:
    """Every ALS of the state, smallest first (``explainer.core.search.als_sets``); the
    session's (built once per state, each house's sets kept while the house is unchanged)
    when given one for this state."""
    if session is None or session.state is not state:
        return _build(state, None)
    return session.derived("als", lambda s: _build(s, session.parts("als.houses")))


def als_table(state: State, session: Session) -> object | None:
    """The state's ALS table for the compiled searches (``explainer.core.search.als_table``),
    built once per state by the session: ALS-XZ, the XY wing, the chain, the blossom and the
    steps' sets then share one enumeration. None on the pure path or for another state."""
    if not search.compiled() or session.state is not state:
        return None
    return session.derived("als.table", lambda s: search.als_table(s.geo.n, s.cand, s.pos))


def als_at(state: State, session: Session | None, which: Iterable[int]) -> dict[int, ALS]:
    """The ALSs at these indexes of ``als_list(state)``: a step names a few sets of hundreds,
    so on the compiled path only those are made (``explainer.core.search.als_some``), each
    once per state when a session of this state is given; else read from the list."""
    which = list(dict.fromkeys(which))
    if not search.compiled() or session is None or session.state is not state:
        listed = als_list(state, session)
        return {i: listed[i] for i in which}
    made: dict[int, ALS] = session.derived("als.some", lambda s: {})
    missing = [i for i in which if i not in made]
    if missing:
        table = als_table(state, session)
        for i, a in zip(missing, search.als_some(state.geo.n, state.cand, state.pos, missing, table), strict=True):
            made[i] = ALS.of(*a)
    return {i: made[i] for i in which}


def restricted_pairs(state: State, min_common: int = 2, max_size: int = 0,
                     wanted: list[int] | None = None, session: Session | None = None) -> list[tuple[int, int, int]]:
    """(A, B, x) for every pair of disjoint ALSs with a restricted common x and at least
    ``min_common`` common values (x included; ALS-XZ needs another one), as indexes into
    ``als_list(state)``, smaller pairs first; with ``max_size``, only ALSs of at most that
    many cells; with ``wanted`` (a value mask per ALS), only pairs sharing a wanted value
    of both besides x (``explainer.core.search.als_pairs``)."""
    sets = None if search.compiled() else als_list(state, session)
    return search.als_pairs(state.geo.n, state.cand, state.pos, min_common, max_size, wanted, sets)


def least_rating(sizes: tuple[int, int]) -> float:
    """The least rating an ALS-XZ step of two sets of these sizes can get on SE's path
    (``explainer.model.rating``: a bivalue cell and a set of 3 / 4 / 5 cells as Sukaku Explainer's
    wings, two sets of 2+ cells as a chain through two ALS nodes); -inf where the rating is
    the kind's base weight, which only the engine knows (the finder then keeps the pair).
    A probe step without ``biggest`` gets the least of its size's additions."""
    return rating.rate(Explanation("als", detail=(("sizes", sizes),)), float("-inf"))


@cache
def _least_ratings() -> tuple[tuple[float, ...], ...]:
    """``least_rating`` of every pair of sizes up to 31 (``allow_sizes``' range), by [i][j]:
    rated once, then compared with each ceiling."""
    return tuple(tuple(least_rating((i, j)) for j in range(32)) for i in range(32))


@cache
def _allowed(ceiling: float) -> bytes | None:
    """The pair sizes an ALS-XZ step may have to rate below ``ceiling`` (None: any)."""
    if ceiling == float("inf"):
        return None
    least = _least_ratings()
    return search.allow_sizes(lambda i, j: least[i][j] < ceiling)


BIG_GRID_MAX_CELLS = search.BIG_GRID_MAX_CELLS  # largest ALS from 16×16 on

# ALS-XZ events asked of the compiled core at first: the engine reads one or two steps
FIRST_EVENTS = 4


@cache
def _lead_least(sizes: tuple[int, int]) -> float:
    """The least rating on SE's view (the simplest order's, ``rating.ALS_XZ_AS_CHAIN``) of an
    ALS-XZ step of two sets of these sizes: a lead's, which the engine builds only if it may win.
    Exact (SE's multiple forcing chain through the sets' cells, as many as their sizes say) but
    for a bivalue cell and a set of a Sukaku Explainer wing's size, rated by the set's biggest
    cell, which a lead does not read: the least of its size's."""
    cells, alt = (tuple((k, c) for c in range(size)) for k, size in enumerate(sizes))
    return rating.rate(Explanation("als", cells=cells, cells_alt=alt, detail=(("sizes", sizes),)), 0.0,
                       rating.ALS_XZ_AS_CHAIN)


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """ALS-XZ steps, smaller pairs first (``explainer.core.search.als_xz``); under the
    engine's ceiling only pairs of sizes that can rate below it. To an engine that takes
    leads on SE's view, each step comes as a lead with its least rating (from its sets' sizes):
    the sets are read and the step built only for a lead that may win."""
    allow = _allowed(ctx.ceiling)
    if allow is not None and not any(allow):
        return
    session = session_of(state, ctx)
    n, cand, pos = state.geo.n, state.cand, state.pos
    leads = ctx.leads and ctx.bound is not None and ctx.bound.view == "se-equivalent"
    # the first events, then more only for a caller reading past them; the compiled core
    # builds its own tables, the pure path is given the session's ALS list
    listed = None if search.compiled() else als_list(state, session)
    table = als_table(state, session)
    limit, done = FIRST_EVENTS, 0
    while True:
        events = search.als_xz(n, cand, pos, allow, limit, listed, table)
        for i, j, x, z, elim, si, sj in events[done:]:
            if leads:
                yield Lead("als", partial(_step_of, state, session, i, j, x, z, elim), _lead_least((si, sj)), 0,
                           elim.bit_count())
                continue
            sets = als_at(state, session, (i, j)) if listed is None else listed
            yield _step(state, sets[i], sets[j], x, z, elim)
        if not limit or len(events) < limit:
            return
        done = len(events)
        limit = 0 if limit >= 256 else limit * 8


def _step_of(state: State, session: Session, i: int, j: int, x: int, z: int, elim: int) -> Explanation:
    """The step of ``als_xz``'s event on sets i and j of the state's ALS list."""
    sets = als_at(state, session, (i, j))
    return _step(state, sets[i], sets[j], x, z, elim)


def _step(state: State, a: ALS, b: ALS, x: int, z: int, elim: int) -> Explanation:
    geo = state.geo
    xs = [c for c in bits(a.cells)]
    ys = [c for c in bits(b.cells)]
    return Explanation(
        technique="als",
        eliminate=cands(geo, [(c, z + 1) for c in bits(elim)]),
        cells=cell_coords(geo, xs), cells_alt=cell_coords(geo, ys),
        marked=cands(geo, [(c, x + 1) for c in bits(a.where[x])]),
        marked_alt=cands(geo, [(c, x + 1) for c in bits(b.where[x])]),
        **say(TEXT, a=(ca := Cells(geo, xs)), b=(cb := Cells(geo, ys)),
              hold_a=ca.verb(en=("holds", "hold"), fr=("contient", "contiennent")),
              hold_b=cb.verb(en=("holds", "hold"), fr=("contient", "contiennent")),
              va=Values(v + 1 for v in bits(a.values)),
              vb=Values(v + 1 for v in bits(b.values)), x=Value(x + 1), z=Value(z + 1),
              **targets_seeing(Cells(geo, bits(elim), last={"en": "and", "fr": "et"}))),
        detail=(("sizes", (a.size, b.size)), ("restricted", x + 1), ("value", z + 1)) + _biggest(state, a, b),
        roles=(set_roles(geo, 0, a.cells), set_roles(geo, 1, b.cells),
               on_cands("restricted-common", geo, [(c, x + 1) for c in bits(a.where[x] | b.where[x])]),
               on_cands("z", geo, [(c, z + 1) for c in bits(a.where[z] | b.where[z])]),
               set_link(geo, x + 1, a.where[x], b.where[x])),
    )


def _biggest(state: State, a: ALS, b: ALS) -> tuple[tuple[str, object], ...]:
    """With a bivalue cell for one set, the most candidates in a cell of the other (detail
    ``biggest``: the rating of Sukaku Explainer's VWXYZ-wing reads it)."""
    if min(a.size, b.size) != 1:
        return ()
    other = b if a.size == 1 else a
    return (("biggest", max(state.cand[c].bit_count() for c in bits(other.cells))),)


def alternate_cells(chain: list[ALS]) -> tuple[int, int]:
    """The cells of a chain's 1st, 3rd … sets and of its 2nd, 4th … (its two colours' cells)."""
    odd = even = 0
    for k, a in enumerate(chain):
        if k % 2:
            even |= a.cells
        else:
            odd |= a.cells
    return odd, even
