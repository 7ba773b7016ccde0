"""Fish: x wing, swordfish, jellyfish, and their finned forms.

A value v and p *base* lines (rows, or columns) whose v candidates lie in
only p *cover* lines of the other kind: each base line puts its v in a
different cover line, so the cover lines are full and lose v everywhere
else. A finned fish adds a box R holding the *fins*: the extra v
candidates of the base lines that spoil the plain fish; whether a fin is
true or not, the cells the finder lists cannot hold v. The fin is only the
base candidates outside every cover line: a candidate on a base line and a
cover line is part of the body, even inside R. A finned fish one of whose
fin-carrying base lines has no candidate on a cover line inside R (without
its fin that line would not belong to the fish) is a *sashimi* fish
(TECHNIQUES.md, "Wave 2 additions"). A step records the three roles: base
and cover lines (``houses`` after the box, ``detail`` ``base_lines`` and
``cover_lines``) and the fin (``marked_alt``, ``detail`` ``fin``).

Everything works on one value at a time through per-line masks (for each
base line, the bit set of cover lines where v can go). Base lines are grown
by depth-first search, dropping a branch as soon as the cover lines already
exceed p, so the search never looks at combinations that cannot be a fish.
Sizes are tried smallest first across every value.

A value's fish depend on its places alone: each value's are kept in the
solving session with the places they were found in (``Session.part``), and
a step searches again only the values whose places it changed. A step is
built when it is asked for (a lead on the simplest order: ``Context.leads``).

``se_fish`` is the same search in Sudoku Explainer's scan order (the ``se``
orders): X-wing 3.2, swordfish 3.8, jellyfish 5.2, one size at a time. SE looks
at column-based fish first (base columns, cover rows), then row-based ones;
it enumerates the base lines in its ``Permutations`` order (outer loop) and the
values 1..9 (inner loop), and considers a value only while its placed count +
2·size is at most 9. Each base line needs two places or more.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, partial
from typing import Any

from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits, geometry
from explainer.model.i18n import Arg, Cells, House, Value, say
from explainer.model.roles import on_cands, on_houses
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Finder, Lead, lead

from .seorder import check_size, colex, rated
from .wording import Lines

NAMES = {2: "x wing", 3: "swordfish", 4: "jellyfish"}
FINNED_NAMES = {p: f"finned {name}" for p, name in NAMES.items()}
SHOWN = {
    "en": {2: "X wing", 3: "Swordfish", 4: "Jellyfish"},
    "fr": {2: "Aile X", 3: "Espadon", 4: "Méduse"},
}
FINNED_SHOWN = {
    "en": {2: "Finned x wing", 3: "Finned swordfish", 4: "Finned jellyfish"},
    "fr": {2: "Aile X à aileron", 3: "Espadon à aileron", 4: "Méduse à aileron"},
}

SASHIMI_NAMES = {p: f"sashimi {name}" for p, name in NAMES.items()}
SASHIMI_SHOWN = {
    "en": {2: "Sashimi x wing", 3: "Sashimi swordfish", 4: "Sashimi jellyfish"},
    "fr": {2: "Aile X sashimi", 3: "Espadon sashimi", 4: "Méduse sashimi"},
}

FISH = {
    "en": "{name} on {v}: in {base}, {v} can only go in {cover}, so {v} is removed from {cells}.",
    "fr": "{name} sur le {v} : dans {base}, le {v} ne peut aller que dans {cover}, donc le {v} "
          "est retiré de {cells}.",
}
FINNED_1 = {
    "en": "{name} on {v}: in {base}, {v} can only go in {cover} or in {box} at {fins} (the fin); "
          "either way {v} is removed from {cells}.",
    "fr": "{name} sur le {v} : dans {base}, le {v} ne peut aller que dans {cover} ou dans "
          "{box} en {fins} (l'aileron) ; dans les deux cas le {v} est retiré de {cells}.",
}
FINNED_2 = {
    "en": "{name} on {v}: outside {box}, the {v}s of {base} fit only in {cover}, one line too few, "
          "so one of them has its {v} in {box} and {v} is removed from {cells}.",
    "fr": "{name} sur le {v} : {box} mis à part, les {v} de {base} ne tiennent que dans {cover}, "
          "soit une de moins qu'il n'en faut, donc l'une d'elles a son {v} dans {box} et le {v} est retiré "
          "de {cells}.",
}

SASHIMI_1 = {
    "en": "{name} on {v}: in {base}, {v} can only go in {cover} or in {box} at {fins} (the fin); one base "
          "line keeps no {v} on a cover line inside {box}, so without the fin it would not be a fish at "
          "all. Either the fish holds or the fin is true: either way {v} is removed from {cells}.",
    "fr": "{name} sur le {v} : dans {base}, le {v} ne peut aller que dans {cover} ou dans {box} en {fins} "
          "(l'aileron) ; une ligne de base n'a plus de {v} sur une ligne de couverture dans {box}, donc "
          "sans l'aileron ce ne serait pas un poisson. Le poisson tient ou l'aileron est vrai : dans les "
          "deux cas le {v} est retiré de {cells}.",
}
SASHIMI_2 = {
    "en": FINNED_2["en"].replace("one line too few, so", "one line too few (a sashimi fish: its fin line "
                                 "has no {v} on a cover line in {box}), so"),
    "fr": FINNED_2["fr"].replace("donc l'une d'elles", "(poisson sashimi : sa ligne à aileron n'a aucun {v} "
                                 "sur une ligne de couverture dans {box}), donc l'une d'elles"),
}


class _Name(Arg):
    """A pattern name per language."""

    def __init__(self, table: dict[str, dict[int, str]], p: int) -> None:
        self.table, self.p = table, p

    def fmt(self, lang: str) -> str:
        return self.table.get(lang, self.table["en"])[self.p]


def max_size(n: int) -> int:
    """Largest fish searched: jellyfish (4), or n // 2 on 4×4 grids."""
    return max(2, min(4, n // 2))


def _value_masks(geo: Geometry, pv: int) -> tuple[list[int], list[int]]:
    """One value's per-line masks from its places ``pv``: for each row, the columns where it
    can go, and for each column, the rows."""
    n, full = geo.n, geo.full
    rows = [(pv >> (r * n)) & full for r in range(n)]
    cols = [0] * n
    for c in bits(pv):
        cols[c % n] |= 1 << (c // n)
    return rows, cols


def _lines_cells(geo: Geometry, kind: int, lines: Iterable[int]) -> int:
    mask = 0
    for i in lines:
        mask |= geo.house_mask[kind * geo.n + i]
    return mask


def _base_sets(pool: list[int], masks: list[int], max_p: int,
               leaders: int | None = None) -> list[tuple[tuple[int, ...], int]]:
    """Every set of 2..max_p lines of ``pool`` whose cover union has no more bits than lines.

    One depth-first search serves every size: a branch stops as soon as its
    union exceeds ``max_p`` (no superset can be a fish then). With
    ``leaders``, only sets holding one of the first ``leaders`` lines of the
    pool are produced (a set's first line is its lowest in pool order).
    """
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(start: int, chosen: tuple[int, ...], union: int) -> None:
        stop = len(pool) if chosen or leaders is None else leaders
        for k in range(start, stop):
            line = pool[k]
            u = union | masks[line]
            count = u.bit_count()
            if count > max_p:
                continue
            now = chosen + (line,)
            if len(now) >= 2 and count <= len(now):
                out.append((now, u))
            if len(now) < max_p:
                walk(k + 1, now, u)

    walk(0, (), 0)
    return out


# a fish found: (size, base orientation, its order of discovery in the value, the step's arguments)
_Found = tuple[int, int, int, tuple[Any, ...]]


def _by_value(state: State, ctx: Context, owner: str,
              search: Callable[[Geometry, int, int], list[_Found]]) -> list[tuple[int, int, int, int, tuple[Any, ...]]]:
    """Every value's finds (``search(geo, v, places)``, kept per value in the session while its
    places stay), in the order of the plain search: size, base rows before columns, value,
    discovery."""
    geo = state.geo
    session = session_of(state, ctx)
    out = []
    for v in range(1, geo.n + 1):
        pv = state.pos[v - 1]
        for p, o, k, args in session.part(owner, v, pv, lambda: search(geo, v, pv)):  # noqa: B023 - called at once
            out.append((p, o, v, k, args))
    out.sort(key=lambda f: f[:4])
    return out


def _fish_of(geo: Geometry, v: int, pv: int) -> list[_Found]:
    """x wings, swordfish and jellyfish on value v (places ``pv``), rows then columns as base."""
    n = geo.n
    max_p = max_size(n)
    found: list[_Found] = []
    for o, masks in enumerate(_value_masks(geo, pv)):
        open_lines = [i for i in range(n) if masks[i]]
        pool = [i for i in open_lines if masks[i].bit_count() <= max_p]
        if len(pool) < 2:
            continue
        for base, cover in _base_sets(pool, masks, max_p):
            p = len(base)
            # p lines need p cover lines; with only p open lines the cover holds no other v
            if cover.bit_count() != p or len(open_lines) <= p:
                continue
            base_cells = _lines_cells(geo, o, base)
            removed = pv & _lines_cells(geo, 1 - o, bits(cover)) & ~base_cells
            if removed:
                found.append((p, o, len(found), (v, o, list(base), cover, pv & base_cells, removed, p)))
    return found


def find_fish(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """x wing, swordfish, jellyfish: rows then columns as base, every value, smallest first."""
    geo = state.geo
    for p, _, _, _, args in _by_value(state, ctx, "fish", _fish_of):
        yield lead(ctx, NAMES[p], fish_step, geo, *args, eliminate=args[5].bit_count())


SE_RATING = {2: 3.2, 3: 3.8, 4: 5.2}


def se_fish(p: int) -> Finder:
    """The fish of one size (X-wing 2, swordfish 3, jellyfish 4) in Sudoku Explainer's scan order."""

    def find_se(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        geo = check_size(state)
        n, hm = geo.n, geo.house_mask
        placed = [0] * (n + 1)
        for x in state.values:
            placed[x] += 1
        found = []
        for size, o, v, _, args in _by_value(state, ctx, "fish", _fish_of):
            pv, base = state.pos[v - 1], args[2]
            if size == p and placed[v] + 2 * p <= n and all((pv & hm[o * n + i]).bit_count() > 1 for i in base):
                found.append((-o, colex(base), v, args))
        found.sort(key=lambda f: f[:3])
        for *_, args in found:
            yield rated(ctx, NAMES[p], SE_RATING[p], partial(fish_step, geo, *args),
                        eliminate=[(c, args[0]) for c in bits(args[5])])

    return find_se


def fish_step(geo: Geometry, v: int, o: int, base: list[int], cover: int, pattern: int,
              removed: int, p: int) -> Explanation:
    """The fish step on value v: base lines ``base`` (rows when o is 0, else columns), cover lines
    ``cover`` (a bit per line), the pattern's and the removed cells (SE's fish too)."""
    n = geo.n
    base_houses = [o * n + i for i in base]
    cover_houses = [(1 - o) * n + j for j in bits(cover)]
    return Explanation(
        technique=NAMES[p],
        eliminate=cands(geo, ((c, v) for c in bits(removed))),
        cells=cell_coords(geo, bits(pattern)),
        houses=house_keys(geo, base_houses + cover_houses),
        marked=cands(geo, ((c, v) for c in bits(pattern))),
        **say(FISH, name=_Name(SHOWN, p), v=Value(v), base=Lines(geo, base_houses),
              cover=Lines(geo, cover_houses), cells=Cells(geo, bits(removed))),
        detail=(("size", p), ("value", v), ("base", "row" if o == 0 else "col"),
                ("base_lines", house_keys(geo, base_houses)), ("cover_lines", house_keys(geo, cover_houses))),
        roles=(on_houses("base", geo, base_houses), on_houses("cover", geo, cover_houses),
               on_cands("value", geo, ((c, v) for c in bits(pattern)))),
    )


@cache
def _finned_tables(n: int) -> tuple[tuple[tuple[int, int, int, int, int], ...], ...]:
    """Per orientation o, per box k: (box house, box cells, first band line, band bits, cover bits).

    o = 0: base rows, the box's rows form its band, its columns are the cover bits.
    """
    geo = geometry(n)
    m = geo.m
    tables = []
    for o in (0, 1):
        rows = []
        for k in range(n):
            first_line = m * (k // m) if o == 0 else m * (k % m)
            first_cover = m * (k % m) if o == 0 else m * (k // m)
            box = 2 * n + k
            rows.append((box, geo.house_mask[box], first_line, ((1 << m) - 1) << first_line,
                         ((1 << m) - 1) << first_cover))
        tables.append(tuple(rows))
    return tuple(tables)


def find_finned_fish(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Finned x wing, swordfish, jellyfish (both cases of TECHNIQUES.md), smallest first.

    For a box R, a base line of R's band counts only its v candidates outside
    R towards the cover; the ones inside R are the fins.

    The base sets are grown depth first (a set's first line has a fin; a
    branch stops once its cover exceeds the largest size), in the order of
    ``_base_sets``. Only v in R outside the base lines can be removed, and a
    base holds a line with a fin, so a box whose v candidates lie in a single
    line of the band is skipped at once.
    """
    geo = state.geo
    for p, _, _, _, args in _by_value(state, ctx, "finned fish", _finned_of):
        name = (SASHIMI_NAMES if args[-1] else FINNED_NAMES)[p]
        yield lead(ctx, name, _finned_step, geo, *args, eliminate=args[7].bit_count())


def _finned_of(geo: Geometry, v: int, pv: int) -> list[_Found]:
    """The finned fish on value v (places ``pv``), rows then columns as base: per box of a
    band, the pool of base lines (``_finned_pool``), their base sets (``_finned_bases``) and the
    fish each set makes (``_finned_fish``)."""
    n = geo.n
    max_p = max_size(n)
    tables = _finned_tables(n)
    house_mask = geo.house_mask
    found: list[_Found] = []
    if not pv:
        return found
    for o, masks in enumerate(_value_masks(geo, pv)):
        line_cells = house_mask[o * n:o * n + n]
        cover_cells = house_mask[(1 - o) * n:(1 - o) * n + n]
        open_lines = [i for i in range(n) if masks[i]]
        if len(open_lines) < 2:
            continue
        # open lines that can join a base whole (their places all count)
        small = [i for i in open_lines if masks[i].bit_count() <= max_p]
        for box, box_cells, first_line, band_bits, box_cover in tables[o]:
            if not pv & box_cells:
                continue
            made = _finned_pool(geo.m, max_p, masks, small, first_line, band_bits, box_cover)
            if made is None:
                continue
            pool, hits = made
            _finned_fish(found, v, pv, o, pool, hits, box, box_cells, box_cover, line_cells, cover_cells)
    return found


def _finned_pool(m: int, max_p: int, masks: list[int], small: list[int], first_line: int, band_bits: int,
                 box_cover: int) -> tuple[list[int], list[tuple[tuple[int, ...], int]]] | None:
    """(the pool of base lines, its base sets as (pool indexes, cover bits)) for one box, or
    None when no finned fish can have its fins there."""
    in_box = [i for i in range(first_line, first_line + m) if masks[i] & box_cover]
    if len(in_box) < 2:
        return None
    not_cover = ~box_cover
    # lines with a fin lead the pool: every finned set holds one of them
    finned = [i for i in in_box if (masks[i] & not_cover).bit_count() <= max_p]
    if not finned:
        return None
    # then the other open lines in order: a line without v in the box
    # counts all its places; one with v in the box but not finned cannot join
    rest = [i for i in small if i not in in_box]
    pool = finned + rest
    if len(pool) < 2:
        return None
    outs = [masks[i] & not_cover for i in finned] + [masks[i] for i in rest]
    inband = [1] * len(finned) + [band_bits >> i & 1 for i in rest]
    inbox = [1] * len(finned) + [0] * len(rest)
    # a base keeps at least one band line with v in the box out (the removals
    # are there) and at most m - 1 band lines: a branch breaking either stops
    return pool, _finned_bases(len(finned), outs, inband, inbox, m - 1, len(in_box) - 1, max_p)


def _finned_bases(leads: int, outs: list[int], inband: list[int], inbox: list[int], top: int, last: int,
                  max_p: int) -> list[tuple[tuple[int, ...], int]]:
    """The depth-first search of ``_base_sets``, unrolled (pre-order, sizes 2..max_p): the base
    sets (pool indexes, the first among the ``leads`` finned lines) whose cover ``outs`` fit."""
    size = len(outs)
    hits: list[tuple[tuple[int, ...], int]] = []
    for a in range(leads):
        ua = outs[a]
        for b in range(a + 1, size):
            nb = 1 + inband[b]
            ni = 1 + inbox[b]
            if nb > top or ni > last:
                continue
            ub = ua | outs[b]
            cb = ub.bit_count()
            if cb > max_p:
                continue
            if cb <= 2:
                hits.append(((a, b), ub))
            if max_p < 3:
                continue
            for c in range(b + 1, size):
                nc = nb + inband[c]
                nic = ni + inbox[c]
                if nc > top or nic > last:
                    continue
                uc = ub | outs[c]
                cc3 = uc.bit_count()
                if cc3 > max_p:
                    continue
                if cc3 <= 3:
                    hits.append(((a, b, c), uc))
                if max_p < 4:
                    continue
                for d in range(c + 1, size):
                    if nc + inband[d] > top or nic + inbox[d] > last:
                        continue
                    ud = uc | outs[d]
                    if ud.bit_count() <= 4:
                        hits.append(((a, b, c, d), ud))
    return hits


def _finned_fish(found: list[_Found], v: int, pv: int, o: int, pool: list[int],
                 hits: list[tuple[tuple[int, ...], int]], box: int, box_cells: int, box_cover: int,
                 line_cells: Sequence[int], cover_cells: Sequence[int]) -> None:
    """Add to ``found`` the finned fish of one box's base sets (``hits``: pool indexes, cover
    bits) that remove something: ``_finned_step``'s arguments."""
    for idx, cover in hits:
        base_cells = 0
        for j in idx:
            base_cells |= line_cells[pool[j]]
        p = len(idx)
        q = cover.bit_count()
        if q == p and cover & box_cover:
            case = 1
            cc = 0
            for j in bits(cover & box_cover):
                cc |= cover_cells[j]
            removed = pv & box_cells & ~base_cells & cc
        elif q == p - 1 and not cover & box_cover:
            case = 2
            removed = pv & box_cells & ~base_cells
        else:
            continue
        if not removed:
            continue
        # the fin: base candidates outside every cover line (a candidate on a
        # base line and a cover line is body, even inside the box)
        on_cover = 0
        for j in bits(cover):
            on_cover |= cover_cells[j]
        fins = pv & base_cells & ~on_cover
        if not fins:
            continue  # a plain fish (found before)
        # sashimi: a fin-carrying base line has no body candidate in the box
        sashimi = any(pv & line_cells[pool[j]] & fins and not pv & line_cells[pool[j]] & box_cells & on_cover
                      for j in idx)
        base = sorted(pool[j] for j in idx)
        found.append((p, o, len(found), (v, o, base, cover, box, pv & base_cells & ~fins, fins, removed, p, case,
                                         sashimi)))


def _finned_step(geo: Geometry, v: int, o: int, base: list[int], cover: int, box: int, body: int,
                 fins: int, removed: int, p: int, case: int, sashimi: bool = False) -> Explanation:
    n = geo.n
    base_houses = [o * n + i for i in base]
    cover_houses = [(1 - o) * n + j for j in bits(cover)]
    if sashimi:
        template = SASHIMI_1 if case == 1 else SASHIMI_2
        technique, shown = SASHIMI_NAMES[p], SASHIMI_SHOWN
    else:
        template = FINNED_1 if case == 1 else FINNED_2
        technique, shown = FINNED_NAMES[p], FINNED_SHOWN
    return Explanation(
        technique=technique,
        eliminate=cands(geo, ((c, v) for c in bits(removed))),
        cells=cell_coords(geo, bits(body | fins)),
        houses=house_keys(geo, [box] + base_houses + cover_houses),
        marked=cands(geo, ((c, v) for c in bits(body))),
        marked_alt=cands(geo, ((c, v) for c in bits(fins))),
        **say(template, name=_Name(shown, p), v=Value(v), base=Lines(geo, base_houses),
              cover=Lines(geo, cover_houses), box=House(geo, box), fins=Cells(geo, bits(fins)),
              cells=Cells(geo, bits(removed))),
        detail=(("size", p), ("value", v), ("base", "row" if o == 0 else "col"), ("case", case),
                ("base_lines", house_keys(geo, base_houses)), ("cover_lines", house_keys(geo, cover_houses)),
                ("fin", cands(geo, ((c, v) for c in bits(fins)))), ("sashimi", sashimi)),
        roles=(on_houses("base", geo, base_houses), on_houses("cover", geo, cover_houses),
               on_houses("fin", geo, [box]), on_cands("value", geo, ((c, v) for c in bits(body))),
               on_cands("fin", geo, ((c, v) for c in bits(fins)))),
    )
