"""The ordered registry of techniques.

The engine tries these in order at every step and keeps the first step that
makes progress (TECHNIQUES.md, "The steps, in order"). Adding a technique
touches its own module and the ``REGISTRY`` list below, nothing else.

A finder is a pure generator ``find(state) -> Iterator[Explanation]``: it
never changes the state and never draws. Only ``brutal`` receives the
solution (``needs_solution``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from explainer.explanation import Explanation

from . import (als, alschains, brutal, chains, fish, grouped, intersections, medusa, singles, subsets, suedecoq,
               trial, uniqueness, wings, xywings)


@dataclass(frozen=True)
class Technique:
    name: str  # the registry entry's name, as a user types it
    find: Callable[..., Iterator[Explanation]]
    produces: tuple[str, ...]  # step names this finder can record
    needs_solution: bool = False
    aliases: tuple[str, ...] = ()

    @property
    def all_names(self) -> tuple[str, ...]:
        return (self.name,) + self.produces + self.aliases


REGISTRY: list[Technique] = [
    Technique("single position", singles.find_single_position, ("single position",),
              aliases=("hidden single",)),
    Technique("single candidate", singles.find_single_candidate, ("single candidate",),
              aliases=("naked single",)),
    Technique("locked candidate", intersections.find, ("locked candidate",),
              aliases=("pointing", "claiming")),
    Technique("naked tuple", subsets.find_naked, ("naked tuple",), aliases=("naked pair", "naked triple")),
    Technique("hidden tuple", subsets.find_hidden, ("hidden tuple",), aliases=("hidden pair", "hidden triple")),
    Technique("y wing", wings.find_y_wing, ("y wing", "ny wing")),
    Technique("w wing", wings.find_w_wing, ("w wing",)),
    Technique("xy wing", xywings.find_xy_wing, ("xy wing",), aliases=("xy-wing",)),
    Technique("xyz wing", xywings.find_xyz_wing, ("xyz wing",), aliases=("xyz-wing",)),
    Technique("wxyz wing", xywings.find_wxyz_wing, ("wxyz wing",), aliases=("wxyz-wing",)),
    Technique("fish", fish.find_fish, ("x wing", "swordfish", "jellyfish")),
    Technique("finned fish", fish.find_finned_fish,
              ("finned x wing", "finned swordfish", "finned jellyfish",
               "sashimi x wing", "sashimi swordfish", "sashimi jellyfish")),
    Technique("unique rectangle", uniqueness.find_unique_rectangle, ("unique rectangle",),
              aliases=("ur", "hidden unique rectangle", "hidden rectangle")),
    Technique("bug+1", uniqueness.find_bug_plus_one, ("bug+1",), aliases=("bug", "bug + 1")),
    Technique("suedecoq", suedecoq.find_suedecoq, ("suedecoq",), aliases=("sue de coq",)),
    Technique("suedecoq bis", suedecoq.find_suedecoq_bis, ("suedecoq bis",), aliases=("sue de coq bis",)),
    Technique("medusa", medusa.find, ("medusa",), aliases=("3d medusa", "coloring", "colouring")),
    Technique("chain", chains.find, ("skyscraper", "2-string kite", "turbot fish", "x chain", "xy chain",
                                     "remote pair", "chain", "loop", "empty rectangle"),
              aliases=("aic", "nice loop")),
    Technique("grouped chain", grouped.find_grouped_chain, ("grouped chain",), aliases=("grouped aic",)),
    Technique("als", als.find, ("als",), aliases=("als xz", "als-xz")),
    Technique("als xy wing", alschains.find_als_xy_wing, ("als xy wing",), aliases=("als-xy-wing",)),
    Technique("death blossom", alschains.find_death_blossom, ("death blossom",)),
    Technique("trial", trial.find, ("trial", "trial lucky")),
    Technique("brutal", brutal.find, ("brutal",), needs_solution=True),
]

# Rating weights per step name, in the spirit of the Sudoku Explainer scale
# (data, not code: the puzzle rating is the hardest step's weight).
WEIGHTS: dict[str, float] = {
    "single position": 1.5,
    "single candidate": 2.3,
    "locked candidate": 2.6,
    "naked tuple": 3.0,
    "hidden tuple": 3.4,
    "y wing": 4.2,
    "ny wing": 4.6,
    "w wing": 4.4,
    "xy wing": 4.2,
    "xyz wing": 4.4,
    "wxyz wing": 4.6,
    "x wing": 3.2,
    "swordfish": 3.8,
    "jellyfish": 5.2,
    "finned x wing": 3.4,
    "finned swordfish": 4.0,
    "finned jellyfish": 5.4,
    "sashimi x wing": 3.5,
    "sashimi swordfish": 4.1,
    "sashimi jellyfish": 5.5,
    "unique rectangle": 4.6,
    "bug+1": 5.6,
    "suedecoq": 5.0,
    "suedecoq bis": 5.5,
    "medusa": 6.0,
    "empty rectangle": 4.5,
    "chain": 6.5,
    "skyscraper": 6.6,
    "2-string kite": 6.6,
    "turbot fish": 6.6,
    "remote pair": 6.6,
    "x chain": 6.7,
    "xy chain": 6.8,
    "loop": 6.6,
    "grouped chain": 6.9,
    "als": 7.0,
    "als xy wing": 7.2,
    "death blossom": 7.4,
    "trial": 8.0,
    "trial lucky": 8.5,
    "brutal": 10.0,
}


# Entries that assume the puzzle has a single solution (TECHNIQUES.md, "Wave 2
# additions"); ``select(..., uniqueness=False)`` and ``--no-uniqueness`` leave them out.
UNIQUENESS = frozenset({"unique rectangle", "bug+1"})


def step_names() -> list[str]:
    """Every step name the registry can record, in registry order."""
    out: list[str] = []
    for t in REGISTRY:
        out += [p for p in t.produces if p not in out]
    return out


def lookup(name: str) -> Technique:
    """The registry entry for a name, step name or alias (case and '-'/'_' insensitive)."""
    key = name.strip().lower().replace("-", " ").replace("_", " ")
    for t in REGISTRY:
        if key in t.all_names:
            return t
    known = ", ".join(t.name for t in REGISTRY)
    raise KeyError(f"unknown technique {name!r} (known: {known})")


def select(names: Iterable[str] | None, uniqueness: bool = True) -> list[Technique]:
    """Registry entries for the given names, kept in registry order (without the
    uniqueness techniques when ``uniqueness`` is False)."""
    chosen = None if names is None else {lookup(n).name for n in names}
    return [t for t in REGISTRY if (chosen is None or t.name in chosen)
            and (uniqueness or t.name not in UNIQUENESS)]
