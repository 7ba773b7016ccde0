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
Sizes are tried smallest first across every value. The searches are in
``explainer.core.fish`` (compiled, with a pure twin); a step is built here
only for the fish the engine takes.

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

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from explainer.core.fish import Found, finned_of, fish_of
from explainer.model.explanation import Explanation, cands, cell_coords, house_keys
from explainer.model.grid import Geometry, bits
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


def _by_value(state: State, ctx: Context, owner: str,
              search: Callable[[Geometry, int, int], list[Found]]) -> list[tuple[int, int, int, int, tuple[Any, ...]]]:
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


def find_fish(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """x wing, swordfish, jellyfish: rows then columns as base, every value, smallest first."""
    geo = state.geo
    for p, _, _, _, args in _by_value(state, ctx, "fish", fish_of):
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
        for size, o, v, _, args in _by_value(state, ctx, "fish", fish_of):
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


def find_finned_fish(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Finned x wing, swordfish, jellyfish (both cases of TECHNIQUES.md), smallest first.

    For a box R, a base line of R's band counts only its v candidates outside
    R towards the cover; the ones inside R are the fins.

    The search (``explainer.core.fish.finned_of``) grows the base sets depth
    first; only v in R outside the base lines can be removed.
    """
    geo = state.geo
    for p, _, _, _, args in _by_value(state, ctx, "finned fish", finned_of):
        name = (SASHIMI_NAMES if args[-1] else FINNED_NAMES)[p]
        yield lead(ctx, name, _finned_step, geo, *args, eliminate=args[7].bit_count())


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
