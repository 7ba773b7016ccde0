"""Templates (HoDoKu's "Template Set" and "Template Delete", the pattern overlay method).

A *template* of a value v is one way to place all n copies of v: one cell per
row, per column and per box, each holding v already or having v as a
candidate. The solution's own v cells are one template, and it shares no cell
with the solution's template of any other value, so a template of v that
overlaps every template of some other value w cannot be the solution's, and
goes (HoDoKu's template reduction, repeated until nothing goes). Then

- a cell that every template of v uses is v (template set: every such cell
  is placed at once);
- a candidate v that no template uses is false (template delete).

Templates are counted band by band (m rows of boxes): a band's part of a
template takes one cell per row in distinct columns and distinct stacks; the
columns the bands before it took and the columns the bands after it can take
decide which parts extend to whole templates (``count``: a 9×9 band has at
most 162 parts, each band boundary at most 84 column sets). A value with at
most ``MAX_LISTED`` templates has them listed (for the reduction); one with
more keeps its count, and a template of another value fits beside it when
its cells still leave one (counted again without them). Grids above 9×9 are
not searched (their bands have too many parts). The templates of a position
are kept in the run's session, keyed by the candidates.
"""
from __future__ import annotations

from collections.abc import Iterator

from explainer.core.templates import reduce
from explainer.model.explanation import Explanation, cands
from explainer.model.grid import Geometry, bits
from explainer.model.i18n import Cells, Value, Words, say
from explainer.model.roles import on_cands
from explainer.model.session import StaleTable, session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

MAX_SIZE = 9  # grids searched: 4×4 and 9×9
MAX_LISTED = 2000  # templates listed per value for the reduction (more: counted only)

SET = {
    "en": "Templates for {v}: there {ways} to place every {v} (one per row, column and box, on {v}s placed "
          "or candidates) leaving room for every other value, and each of them puts a {v} in {cells}. So "
          "{cells_again} {are} {v}.",
    "fr": "Gabarits du {v} : il y a {ways} de placer tous les {v} (un par ligne, colonne et bloc, sur des "
          "{v} placés ou candidats) en laissant la place à chaque autre valeur, et chacune met un {v} en "
          "{cells}. Donc {cells_again} {are} {v}.",
}
DELETE = {
    "en": "Templates for {v}: there {ways} to place every {v} (one per row, column and box, on {v}s placed "
          "or candidates) leaving room for every other value, and none of them uses {cells}. So "
          "{cells_again} {cannot} be {v}.",
    "fr": "Gabarits du {v} : il y a {ways} de placer tous les {v} (un par ligne, colonne et bloc, sur des "
          "{v} placés ou candidats) en laissant la place à chaque autre valeur, et aucune n'utilise "
          "{cells}. Donc {cells_again} {cannot} valoir {v}.",
}


def count(geo: Geometry, allowed: int) -> tuple[int, int, int]:
    """(number of templates, cells some template uses, cells every template uses) of a value
    whose templates may use the cells ``allowed``, counted band by band."""
    n, m = geo.n, geo.m
    full = (1 << n) - 1
    parts = [_parts(geo, allowed, b) for b in range(m)]  # per band: (columns, cells) of each part
    # ways to fill the bands before b with each column set, and the bands from b on
    before: list[dict[int, int]] = [{0: 1}]
    for b in range(m):
        nxt: dict[int, int] = {}
        for mp, k in before[-1].items():
            for cols, _ in parts[b]:
                if not mp & cols:
                    nxt[mp | cols] = nxt.get(mp | cols, 0) + k
        before.append(nxt)
    after: list[dict[int, int]] = [{0: 1}]
    for b in reversed(range(m)):
        nxt = {}
        for ms, k in after[0].items():
            for cols, _ in parts[b]:
                if not ms & cols:
                    nxt[ms | cols] = nxt.get(ms | cols, 0) + k
        after.insert(0, nxt)
    total = before[m].get(full, 0)
    if not total:
        return 0, 0, 0
    some, every = 0, 0
    for b in range(m):
        inter = -1
        for cols, cells in parts[b]:
            if any(not mp & cols and after[b + 1].get(full ^ mp ^ cols) for mp in before[b]):
                some |= cells
                inter &= cells
        every |= inter if inter != -1 else 0
    return total, some, every


def listed(geo: Geometry, allowed: int) -> list[int]:
    """Every template (cell mask) using only ``allowed`` cells."""
    n, m = geo.n, geo.m
    full = (1 << n) - 1
    parts = [_parts(geo, allowed, b) for b in range(m)]
    out: list[int] = []

    def walk(b: int, cols: int, cells: int) -> None:
        if b == m:
            if cols == full:
                out.append(cells)
            return
        for pc, pcells in parts[b]:
            if not cols & pc:
                walk(b + 1, cols | pc, cells | pcells)

    walk(0, 0, 0)
    return out


class Templates:
    """Every value's templates after the reduction: per value index, (count, cells some
    template uses, cells every template uses); count 0: none (an impossible position).

    ``before``: the templates of an earlier position of the same run. A value listed there
    whose allowed cells only shrank starts from its templates kept there that still fit
    (neither counted nor listed again): the reduction's result is the greatest set of
    templates that all fit beside each other, and the new position's lies within the old
    one's, so starting from that smaller set ends at the same lists."""

    def __init__(self, state: State, before: Templates | None = None) -> None:
        geo = state.geo
        n = geo.n
        self.allowed = allowed = list(state.pos)
        for c, x in enumerate(state.values):
            if x:
                allowed[x - 1] |= 1 << c
        if before is not None and any(a & ~b for a, b in zip(allowed, before.allowed, strict=True)):
            before = None  # not an earlier position of this one
        lists: list[list[int] | None] = []
        self.counted: list[tuple[int, int, int]] = []
        old: list[list[int] | None] = before.lists if before is not None else [None] * n
        old_allowed = before.allowed if before is not None else allowed
        for v, a in enumerate(allowed):
            kept = old[v]
            if kept is not None:
                lists.append(kept if a == old_allowed[v] else [t for t in kept if not t & ~a])
                self.counted.append((-1, 0, 0))  # listed: the counts are the list's
                continue
            counted = count(geo, a)
            self.counted.append(counted)
            lists.append(listed(geo, a) if 0 < counted[0] <= MAX_LISTED else None)
        # the reduction (explainer.core.templates: compiled when every value's templates are listed)
        self.lists: list[list[int] | None] = reduce(lists, lambda t, w: count(geo, self.allowed[w] & ~t)[0] > 0)
        lists = self.lists
        self.values: list[tuple[int, int, int]] = []
        for v in range(n):
            mine = lists[v]
            if mine is None:
                self.values.append(self.counted[v])
                continue
            some, every = 0, -1 if mine else 0
            for t in mine:
                some |= t
                every &= t
            self.values.append((len(mine), some, every))


def _parts(geo: Geometry, allowed: int, band: int) -> list[tuple[int, int]]:
    """(column mask, cell mask) of every way to take one allowed cell per row of the band, in
    distinct columns and distinct stacks."""
    n, m = geo.n, geo.m
    out: list[tuple[int, int]] = []

    def walk(r: int, cols: int, stacks: int, cells: int) -> None:
        if r == m:
            out.append((cols, cells))
            return
        row = band * m + r
        for c in range(n):
            cell = row * n + c
            if allowed >> cell & 1 and not cols >> c & 1 and not stacks >> (c // m) & 1:
                walk(r + 1, cols | 1 << c, stacks | 1 << (c // m), cells | 1 << cell)

    walk(0, 0, 0, 0)
    return out


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Template sets (every value, placements first), then template deletes."""
    geo = state.geo
    if geo.n > MAX_SIZE:
        return
    session = session_of(state, ctx)
    memo = session.slot(__name__)
    key = (tuple(state.values), tuple(state.cand))
    if memo.get("key") != key:
        memo["key"], memo["templates"] = key, Templates(state, memo.get("templates"))
        if session.check and memo["templates"].values != Templates(state).values:
            raise StaleTable("templates: reduced from an earlier position, they differ from a fresh reduction")
    found: Templates = memo["templates"]
    if any(total == 0 for total, _, _ in found.values):
        return  # no template for some value: the position has no solution
    for v, (total, _, every) in enumerate(found.values):
        place = every & state.pos[v]
        if place:
            yield _step(state, "template set", v, total, place)
    for v, (total, some, _) in enumerate(found.values):
        delete = state.pos[v] & ~some
        if delete:
            yield _step(state, "template delete", v, total, delete)


def _step(state: State, name: str, v: int, count: int, cells: int) -> Explanation:
    geo = state.geo
    where = list(bits(cells))
    pairs = [(c, v + 1) for c in where]
    setting = name == "template set"
    again = Cells(geo, where)
    return Explanation(
        technique=name, place=cands(geo, pairs) if setting else (), eliminate=() if setting else cands(geo, pairs),
        marked=cands(geo, [(c, v + 1) for c in bits(state.pos[v])]),
        **say(SET if setting else DELETE, v=Value(v + 1),
              ways=Words(en=f"is {count} way" if count == 1 else f"are {count} ways",
                         fr=f"{count} façon" if count == 1 else f"{count} façons"),
              cells=Cells(geo, where), cells_again=again,
              are=again.verb(en=("is", "are"), fr=("vaut", "valent")),
              cannot=again.verb(en=("cannot", "cannot"), fr=("ne peut pas", "ne peuvent pas"))),
        detail=(("value", v + 1), ("templates", count), ("cells", len(where))),
        roles=(on_cands("value", geo, [(c, v + 1) for c in bits(state.pos[v])]),),
    )
