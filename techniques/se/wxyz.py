"""Sukaku Explainer's WXYZ-wing (5.5 / 5.6) and VWXYZ-wing (6.2 – 6.4).

An almost locked set of k cells that all see each other (3 cells holding 4
values, or 4 holding 5) and a bivalue cell {x, z} (the *wing*) whose two
values are in the set. A value is *restricted* when every cell of the set
holding it sees the wing cell. With x restricted, z is in the wing or in the
set, so z leaves every cell seeing the wing and the set's z cells. With both
restricted (*doubly linked*) x leaves likewise, and each other value of the
set leaves the cells seeing all of the set's cells holding it.

Sukaku Explainer scans the set's cells in index order (each next cell among
the later peers of all the previous ones), then the wing among the cells
seeing one of them. Its rating: 5.5 for a WXYZ-wing, + 0.1 when its largest
cell holds three candidates; 6.2 for a VWXYZ-wing, + 0.1 for a largest cell
of two or four candidates, + 0.2 for three. It collects every hint, sorts
them by rating, then by more removals, then by its suffix (doubly linked, the
largest cell, the candidates of the set: larger first), and takes the first.

Kept apart from the registry: the registry's WXYZ-wing (``techniques.xywings``)
is the general rule (four cells, four values, one value not restricted) without
a bivalue wing or a mutually seeing set, and it removes only z; Sukaku
Explainer's wing finds other hints (and, doubly linked, more removals), and the
registry has no VWXYZ-wing.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache, cmp_to_key
from typing import Any

from explainer.model.explanation import Explanation, cands, cell_coords
from explainer.model.grid import bits, geometry, values_of
from explainer.model.i18n import OR, Cells, Value, Values, Words, render, say
from explainer.model.roles import Role, link, on_cands, on_cells
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from ..deadly import Removed
from ..seorder import N, check_size, step

TEMPLATE = {
    "en": "{title} on {values}: {cells} hold only {set_values}, {k1} values for {k} cells that see each other, "
          "so all but one of these values are in them; the wing {wing} holds only {x} and {z}. {why} "
          "So {removed}.",
    "fr": "{title} sur {values} : {cells} ne contiennent que {set_values}, {k1} valeurs pour {k} cases qui se "
          "voient, donc toutes ces valeurs sauf une y sont ; l'aile {wing} ne contient que {x} et {z}. {why} "
          "Donc {removed}.",
}
ONE_LINK = {
    "en": "Every cell of the set holding {x} sees {wing}: if {wing} is {x}, the set has no {x} and must hold "
          "{z}; else {wing} is {z}. Either way one of {zcells} is {z}.",
    "fr": "Chaque case de l'ensemble qui contient {x} voit {wing} : si {wing} vaut {x}, l'ensemble n'a plus "
          "de {x} et doit contenir {z} ; sinon {wing} vaut {z}. Dans les deux cas l'une de {zcells} vaut {z}.",
}
TWO_LINKS = {
    "en": "Every cell of the set holding {x} or {z} sees {wing}, so the set and the wing together hold each "
          "of their values once: {x} and {z} each in the set or in {wing}, every other value in the set.",
    "fr": "Chaque case de l'ensemble qui contient {x} ou {z} voit {wing}, donc l'ensemble et l'aile "
          "contiennent chacune de leurs valeurs une fois : {x} et {z} dans l'ensemble ou en {wing}, toute "
          "autre valeur dans l'ensemble.",
}
TITLES = {3: {"en": "WXYZ wing", "fr": "Aile WXYZ"}, 4: {"en": "VWXYZ wing", "fr": "Aile VWXYZ"}}
NAMES = {3: "wxyz wing", 4: "vwxyz wing"}


@cache
def _forward() -> tuple[int, ...]:
    """Each cell's peers of larger index, as a mask (a constant table of SE's geometry)."""
    geo = geometry(N)
    return tuple(geo.peer_mask[c] & ~((2 << c) - 1) for c in range(geo.ncells))


def rating(k: int, biggest: int) -> float:
    """Sukaku Explainer's rating of a wing of k set cells whose largest holds ``biggest`` candidates."""
    if k == 3:
        return 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1
    return 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1


def _sets(state: State, k: int) -> Iterator[tuple[list[int], int]]:
    """(cells, their candidates) of every set of k mutually seeing cells holding k + 1 values, in
    Sukaku Explainer's order."""
    cand = state.cand
    fwd = _forward()
    limit = k + 1
    # the cells a set may hold: 2 .. k + 1 candidates
    fit = sum(1 << c for c, m in enumerate(cand) if 2 <= m.bit_count() <= limit)

    # nested loops (set cells in increasing index, each next one a later peer of all the previous
    # ones): the same sets in the same order as a recursive scan, without its nested generators
    for a in bits(fit):
        ua = cand[a]
        room_b = fwd[a] & fit
        for b in bits(room_b):
            ub = ua | cand[b]
            if ub.bit_count() > limit:
                continue
            room_c = room_b & fwd[b]
            rest = room_c
            while rest:  # the hottest loop: its bits inline
                low = rest & -rest
                rest ^= low
                c = low.bit_length() - 1
                uc = ub | cand[c]
                n = uc.bit_count()
                if k == 3:
                    if n == limit:
                        yield [a, b, c], uc
                elif n <= limit:
                    for d in bits(room_c & fwd[c]):
                        ud = uc | cand[d]
                        if ud.bit_count() == limit:
                            yield [a, b, c, d], ud


def _hints(state: State, k: int) -> Iterator[tuple[Any, ...]]:
    geo = state.geo
    cand, peer, pos = state.cand, geo.peer_mask, state.pos
    bivalue = sum(1 << c for c, m in enumerate(cand) if m.bit_count() == 2)
    for cells, union in _sets(state, k):
        # the wings: bivalue cells seeing a cell of the set, both their values in the set
        near = 0
        for c in cells:
            near |= peer[c]
        for w in range(9):
            if not union >> w & 1:
                near &= ~pos[w]
        wings = near & bivalue & ~sum(1 << c for c in cells)
        if not wings:
            continue
        mask = sum(1 << c for c in cells)
        biggest = max(cand[c].bit_count() for c in cells)
        size = sum(cand[c].bit_count() for c in cells)
        for wing in bits(wings):
            m = cand[wing]
            lo, hi = values_of(m)

            # a value is restricted when no set cell blind to the wing holds it
            blind = 0
            for c in cells:
                if not peer[wing] >> c & 1:
                    blind |= cand[c]
            double = not blind >> (hi - 1) & 1
            if not blind >> (lo - 1) & 1:
                x, z = lo, hi
            elif double:
                x, z, double = hi, lo, False
            else:
                continue
            removed: list[tuple[int, int]] = []
            outside = ~(mask | 1 << wing)
            weak = strong_x = False
            if double:
                for w in values_of(union & ~m):
                    seen = geo.all_cells
                    for c in cells:
                        if cand[c] >> (w - 1) & 1:
                            seen &= peer[c]
                    got = [(c, w) for c in bits(seen & outside & pos[w - 1])]
                    weak = weak or bool(got)
                    removed += got
                got = _seeing(state, wing, cells, x, outside)
                strong_x = bool(got)
                removed += got
            got = _seeing(state, wing, cells, z, outside)
            removed += got
            if double and not weak and (not got or not strong_x):
                double = False
            if removed:
                yield rating(k, biggest), len(removed), f"{2 if double else 1}{biggest}{size}", cells, wing, x, z, \
                    double, removed


def _seeing(state: State, wing: int, cells: list[int], a: int, outside: int) -> list[tuple[int, int]]:
    """The candidates a seeing the wing cell and every cell of the set holding a."""
    peer, cand = state.geo.peer_mask, state.cand
    seen = peer[wing]
    for c in cells:
        if cand[c] >> (a - 1) & 1:
            seen &= peer[c]
    return [(c, a) for c in bits(seen & outside & state.pos[a - 1])]


def _order(a: tuple[Any, ...], b: tuple[Any, ...]) -> int:
    """Sukaku Explainer's comparison: rating, then more removals, then the larger suffix (as text)."""
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    if a[1] != b[1]:
        return int(b[1] - a[1])
    return int(b[2] > a[2]) - int(b[2] < a[2])


def _find(state: State, ctx: Context, k: int) -> Iterator[Explanation]:
    check_size(state)
    for hint in sorted(_hints(state, k), key=cmp_to_key(_order)):
        yield _step(ctx, state, k, hint)


def find_wxyz(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    yield from _find(state, ctx, 3)


def find_vwxyz(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    yield from _find(state, ctx, 4)


def _step(ctx: Context, state: State, k: int, hint: tuple[Any, ...]) -> Explanation:
    rated, _, suffix, cells, wing, x, z, double, removed = hint
    geo, cand = state.geo, state.cand

    def build() -> dict[str, Any]:
        union = 0
        for c in cells:
            union |= cand[c]
        links = (x, z) if double else (z,)
        marked = [(c, v) for c in list(cells) + [wing] for v in links if cand[c] >> (v - 1) & 1]
        zcells = [c for c in cells if cand[c] >> (z - 1) & 1] + [wing]
        words: dict[str, Any] = dict(x=Value(x), z=Value(z), wing=geo.cell_name(wing),
                                     zcells=Cells(geo, zcells, last=OR))
        why = TWO_LINKS if double else ONE_LINK
        return dict(cells=cell_coords(geo, [wing]), cells_alt=cell_coords(geo, cells), marked=cands(geo, marked),
                    **say(TEMPLATE, title=Words(**TITLES[k]), values=Values(links), cells=Cells(geo, cells),
                          set_values=Values(values_of(union)), k1=k + 1, k=k,
                          why=Words(**{lang: render(why, lang, words) for lang in why}), removed=Removed(geo, removed),
                          **words),
                    roles=(on_cells("pivot", geo, [wing]), on_cells("pincer", geo, cells),
                           on_cands("z", geo, marked)) + _links(state, wing, cells, (x, z) if double else (x,)))

    return step(ctx, NAMES[k], rated, eliminate=removed, build=build,
                detail=(("suffix", suffix), ("double", double), ("value", z)))



def _links(state: State, wing: int, cells: list[int], values: tuple[int, ...]) -> tuple[Role, ...]:
    """The weak links of the restricted values: from the wing cell to each set cell holding one."""
    cand = state.cand
    return tuple(link("weak", (wing // N, wing % N, v), (c // N, c % N, v))
                 for v in values for c in cells if cand[c] >> (v - 1) & 1)
