"""What the engine knows about a technique: one record per registry entry.

A ``Technique`` bundles its finder with the step kinds it can record; a
``StepKind`` carries everything about one step name (rating weight, title in
every language, HoDoKu's library code, the flags the difficulty rule reads).
The registry itself lives in ``techniques``; this module is core and never
imports it, so the engine can be handed its techniques.

Every finder has one signature, ``find(state, ctx) -> Iterator[Explanation]``:
it never changes the state and never draws. ``ctx.solution`` is given only
to a technique one of whose kinds ``reads_solution`` (brutal).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .explanation import Explanation
from .state import State

if TYPE_CHECKING:
    from .session import Session

DIFFICULTIES = ("easy", "medium", "difficult")


@dataclass(frozen=True)
class StepKind:
    """One step name a technique can record (the ``technique`` field of a JSON step)."""

    name: str  # as in the steps JSON, e.g. "finned x wing"
    weight: float  # on the rating scale; the puzzle rating is the hardest step's weight
    titles: Mapping[str, str] = field(hash=False)  # a frame title per language of i18n.LANGS
    code: str = ""  # HoDoKu's library code ("0300" for an x-wing); "" where it has none
    codes: tuple[str, ...] = ()  # further HoDoKu codes this kind covers (pointing/claiming …)
    trial_like: bool = False  # a guess that is checked by propagation (medium difficulty)
    reads_solution: bool = False  # reads the solution instead of reasoning (difficult)
    single: bool = False  # a single placement (folded into "singles" frames)
    # relies on the puzzle having one solution (unique rectangle and loop, bug+1, BUG): a user may
    # switch these off (``--no-uniqueness``, ``Puzzle(..., uniqueness=False)``)
    uniqueness: bool = False
    # A puzzle whose explanation (default registry) records this kind: the engine's
    # test checks it with the independent checker when its fixed sample lacks the kind.
    example: str = ""
    # The weight on SE's own view, where SE lacks the technique: what SE's cheapest chain for
    # the same elimination weighs (a W-wing a mixed chain of six candidates, 7.1). The engine
    # rates with it when it takes the easiest step at each step (``easiest``, SE's path); the
    # registry path rates by the pattern (``weight``). None: the same as ``weight``.
    se_weight: float | None = None

    def title(self, lang: str = "en") -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def weight_for(self, easiest: bool) -> float:
        """The base rating on the registry path (``weight``) or on SE's path (``se_weight``)."""
        return self.se_weight if easiest and self.se_weight is not None else self.weight

    @property
    def guessing(self) -> bool:
        """A step that guesses (trial-like) or reads the solution."""
        return self.trial_like or self.reads_solution


@dataclass(frozen=True)
class Context:
    """What a finder may know besides the state.

    ``solution`` is given only to a technique whose kinds read the solution;
    ``earlier`` are the techniques before this one in the run's chosen order;
    ``ceiling`` is the rating of the easiest step found so far when the engine
    looks for the easiest one (a finder may skip searches that cannot rate below
    it: the forcing chains' dynamic and nested passes), infinite otherwise;
    ``easiest`` tells a finder the engine takes the easiest rated step, not the
    first one (a finder may then yield its cheaper-rated steps first);
    ``session`` is the run's solving session (``explainer.session``: per-puzzle
    tables; None outside a run, ``session_of`` then gives a fresh one);
    ``every`` asks for every step the finder can find, variants included
    (``explainer.allsteps``, HoDoKu's "find all steps"): searches the engine, which
    stops at its first steps, never pays for.
    """

    solution: tuple[int, ...] | None = None
    earlier: tuple[Technique, ...] = ()
    ceiling: float = float("inf")
    easiest: bool = False
    session: Session | None = field(default=None, compare=False, repr=False)
    every: bool = False


NO_CONTEXT = Context()


class Finder(Protocol):
    def __call__(self, state: State, ctx: Context, /) -> Iterator[Explanation]: ...


@dataclass(frozen=True)
class Technique:
    """A registry entry: the name a user types, its finder, its step kinds, its aliases."""

    name: str
    find: Finder
    kinds: tuple[StepKind, ...]
    aliases: tuple[str, ...] = ()
    _by_name: Mapping[str, StepKind] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {k.name: k for k in self.kinds})

    @property
    def produces(self) -> tuple[str, ...]:
        """Step names this finder can record."""
        return tuple(k.name for k in self.kinds)

    @property
    def all_names(self) -> tuple[str, ...]:
        return (self.name,) + self.produces + self.aliases

    @property
    def reads_solution(self) -> bool:
        return any(k.reads_solution for k in self.kinds)

    @property
    def uniqueness(self) -> bool:
        """Its steps assume the puzzle has a single solution."""
        return any(k.uniqueness for k in self.kinds)

    def kind(self, step_name: str) -> StepKind | None:
        return self._by_name.get(step_name)


def kinds_of(techniques: Iterable[Technique]) -> dict[str, StepKind]:
    """Step name -> kind, first technique wins, in the given order."""
    out: dict[str, StepKind] = {}
    for t in techniques:
        for k in t.kinds:
            out.setdefault(k.name, k)
    return out


def difficulty_of(statistics: Mapping[str, int], kinds: Mapping[str, StepKind]) -> str:
    """'difficult' if a used kind reads the solution, 'medium' if one is trial-like, else 'easy'."""
    used = [kinds[name] for name, count in statistics.items() if count and name in kinds]
    if any(k.reads_solution for k in used):
        return "difficult"
    if any(k.trial_like for k in used):
        return "medium"
    return "easy"
