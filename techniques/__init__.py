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

from . import als, brutal, chains, fish, forcing, intersections, medusa, singles, subsets, suedecoq, trial, wings


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
    Technique("fish", fish.find_fish, ("x wing", "swordfish", "jellyfish")),
    Technique("finned fish", fish.find_finned_fish,
              ("finned x wing", "finned swordfish", "finned jellyfish")),
    Technique("suedecoq", suedecoq.find_suedecoq, ("suedecoq",), aliases=("sue de coq",)),
    Technique("suedecoq bis", suedecoq.find_suedecoq_bis, ("suedecoq bis",), aliases=("sue de coq bis",)),
    Technique("medusa", medusa.find, ("medusa",), aliases=("3d medusa", "coloring", "colouring")),
    Technique("chain", chains.find, ("chain", "loop", "empty rectangle"), aliases=("aic", "nice loop")),
    Technique("als", als.find, ("als",), aliases=("als xz", "als-xz")),
    Technique("trial", trial.find, ("trial", "trial lucky")),
    Technique("forcing chain", forcing.find, ("forcing chain",),
              aliases=("forcing chains", "nested forcing chain", "dynamic forcing chain")),
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
    "x wing": 3.2,
    "swordfish": 3.8,
    "jellyfish": 5.2,
    "finned x wing": 3.4,
    "finned swordfish": 4.0,
    "finned jellyfish": 5.4,
    "suedecoq": 5.0,
    "suedecoq bis": 5.5,
    "medusa": 6.0,
    "empty rectangle": 4.5,
    "chain": 6.5,
    "loop": 6.6,
    "als": 7.0,
    "trial": 8.0,
    "trial lucky": 8.5,
    # a forcing step's own weight is detail["rating"] (forcing.rating: kind, level, size)
    "forcing chain": 8.5,
    "brutal": 10.0,
}


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


def select(names: Iterable[str] | None) -> list[Technique]:
    """Registry entries for the given names, kept in registry order."""
    if names is None:
        return list(REGISTRY)
    chosen = {lookup(n).name for n in names}
    return [t for t in REGISTRY if t.name in chosen]
