"""What the engine knows about a technique: one record per registry entry.

A ``Technique`` bundles its finder with the step kinds it can record; a
``StepKind`` carries everything about one step name (its rating weight and
rule, title in every language, HoDoKu's library code, its flags: guessing,
reading the solution, resting on the single-solution assumption).
The registry itself lives in ``techniques``; this module is core and never
imports it, so the engine can be handed its techniques.

Every finder has one signature, ``find(state, ctx) -> Iterator[Explanation]``:
it never changes the state and never draws. ``ctx.solution`` is given only
to a technique one of whose kinds ``reads_solution`` (brutal).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from . import rating
from .explanation import Explanation
from .i18n import frame_title
from .order import Order, View
from .session import Session
from .state import State

DIFFICULTIES = tuple(name for _, name in rating.DIFFICULTY_BANDS)  # easy, medium, difficult


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
    # relies on the puzzle having one solution (unique rectangle and loop, bug+1, BUG, trial
    # lucky): a user may switch these off (``--no-uniqueness``, ``Puzzle(..., uniqueness=False)``)
    uniqueness: bool = False
    # a guess kept because it solved the grid (trial lucky: true only if the solution is unique):
    # never taken on the simplest order, which explains without guessing
    lucky: bool = False
    # not a purist's technique, used only when the others fail (trial, TECHNIQUES.md): on the
    # simplest order it gives way to any other step of the same rating (a forcing chain)
    gives_way: bool = False
    # A puzzle whose explanation (default registry) records this kind: the engine's
    # test checks it with the independent checker when its fixed sample lacks the kind.
    example: str = ""
    # The weight on SE's own view (``order.View`` "se-equivalent"), where SE lacks the technique: what SE's
    # cheapest chain for the same elimination weighs (a W-wing a mixed chain of six candidates,
    # 7.1). An order rating on that view (the simplest, SE's path) rates with it; the "pattern"
    # view (the seed order) by the pattern (``weight``). None: the same as ``weight``.
    se_weight: float | None = None
    # how a step of this kind is rated from what it records (explainer.model.rating: SE's rules)
    rule: rating.Rule = rating.PLAIN
    # the rule on SE's view, where SE lacks the technique and rates what its own chains need for
    # the same elimination (None: the same as ``rule``)
    se_rule: rating.Rule | None = None
    # titles naming a step's size (a tuple's "hidden pair"), per language: size -> title, read
    # from the step's ``detail`` (``title``)
    sized_titles: Mapping[str, Mapping[int, str]] = field(default_factory=dict, hash=False, compare=False)
    # the roles a frame of this kind shows (``roles.Role``: its finder states them; "placed" and
    # "removed" come from what the step changes): the frame tests draw each kind on its position
    # (tests/render/data/role_positions.txt) and check them
    roles: frozenset[str] = field(default=frozenset(), compare=False)

    def title(self, lang: str = "en", detail: Iterable[tuple[str, object]] = ()) -> str:
        """The frame title in a language; a step's own title when its ``detail`` names a size
        this kind has a title for (``sized_titles``)."""
        size = dict(detail).get("size") if self.sized_titles else None
        if isinstance(size, int):
            sized = self.sized_titles.get(lang, self.sized_titles.get("en", {}))
            if sized.get(size):
                return sized[size]
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def weight_in(self, view: View) -> float:
        """The base rating on a view (``order.View``): the pattern's (``weight``) or SE's
        (``se_weight``, where SE lacks the technique)."""
        return self.se_weight if view == "se-equivalent" and self.se_weight is not None else self.weight

    def rule_in(self, view: View) -> rating.Rule:
        """The rating rule on a view: the pattern's (``rule``) or SE's (``se_rule``)."""
        return self.se_rule if view == "se-equivalent" and self.se_rule is not None else self.rule

    def rate(self, step: Explanation, view: View = "se-equivalent") -> float:
        """A step's rating on SE's scale, on a view (default SE's, the simplest order's)."""
        return rating.rate(step, self.weight_in(view), self.rule_in(view))

    def least(self, view: View = "se-equivalent") -> float:
        """The least rating a step of this kind can get on a view."""
        return rating.floor(self.rule_in(view), self.weight_in(view))

    @property
    def guessing(self) -> bool:
        """A step that guesses (trial-like) or reads the solution."""
        return self.trial_like or self.reads_solution


@dataclass(frozen=True)
class Bound:
    """The best step the engine has so far, as a finder needs it: on an order that takes the
    lowest-rated step, a step must rate below ``rating`` (on ``view``), or exactly ``rating``
    when ``tie`` (the best step so far places nothing, so one that does more would be taken,
    or it gives way, ``StepKind.gives_way``), to be taken."""

    rating: float = float("inf")
    tie: bool = False
    view: View = "se-equivalent"

    def admits(self, least: float) -> bool:
        """True if a step rated ``least`` (or more) may still be taken."""
        return least < self.rating or (self.tie and least == self.rating)


UNBOUNDED = Bound()


@dataclass(frozen=True)
class Context:
    """What a finder may know besides the state.

    ``solution`` is given only to a technique whose kinds read the solution;
    ``earlier`` are the techniques before this one in the run's chosen order;
    ``bound`` is what the engine can still take when it keeps the lowest-rated step
    (``Bound``: the best rating so far, infinite until a step is found): a finder may
    skip searches that cannot beat or tie it (``can_win``: the forcing chains' dynamic
    and nested passes) and should yield its lower-rated steps first (``lowest_first``);
    None when the engine takes the first live step, whatever its rating;
    ``session`` is the run's solving session (``explainer.model.session``: per-puzzle
    tables; None outside a run, ``session_of`` then gives a fresh one);
    ``off`` are step names the run leaves out although their technique is in it
    (trial lucky on the simplest order, or with ``uniqueness=False``): a finder
    that can record one asks ``allows`` and looks for another step instead;
    ``leads``: the caller takes ``Lead``s (a step found but not built yet, ``lead``),
    and builds those that can still win; without it a finder yields only ``Explanation``s.
    ``rating_only``: the run wants ratings, not explanations (``explainer.rate``): a finder
    that honours it yields bare steps (what they place and remove, and what their rating
    rule reads), without texts, roles or proofs; the steps and their ratings are the same.
    """

    solution: tuple[int, ...] | None = None
    earlier: tuple[Technique, ...] = ()
    bound: Bound | None = None
    session: Session | None = field(default=None, compare=False, repr=False)
    off: frozenset[str] = frozenset()
    leads: bool = False
    rating_only: bool = False

    @property
    def lowest_first(self) -> bool:
        """The engine keeps the lowest-rated step (a ``bound`` is given): a finder yields its
        lower-rated steps first, and a later step may still rate lower than one yielded."""
        return self.bound is not None

    @property
    def ceiling(self) -> float:
        """The rating of the best step so far (infinite: none yet, or no bound)."""
        return (self.bound or UNBOUNDED).rating

    def can_win(self, least: float) -> bool:
        """True if a step rated ``least`` (or more) may still be taken."""
        return (self.bound or UNBOUNDED).admits(least)

    def allows(self, step_name: str) -> bool:
        """True unless the run leaves this step name out."""
        return step_name not in self.off


NO_CONTEXT = Context()


@dataclass(frozen=True, slots=True)
class Lead:
    """A step a finder found but has not built: what the engine needs to choose among steps
    (its name, the least rating it can have on the run's view, how many values it places and
    candidates it removes), and ``build()``, which makes its ``Explanation`` (proof, caption,
    roles) when it can still win. ``least``: 0 when the finder has no estimate (the engine
    then takes its technique's least rating). Every candidate a lead places or removes is live.
    ``size``: the pattern size of its step (``explainer.engine.orders.pattern_size``) when the
    finder knows it, and then ``least`` is the step's rating on the run's view, exactly: the
    engine ranks the lead by its whole choice key and builds it only if it takes it.
    ``bare``: the step without its words and roles (its text empty, no translations, no roles;
    every other field as the built step has it): the engine rates and ranks the lead by it,
    exactly as it would the built step, and builds only the step it takes. For a finder whose
    rating rules are the kind's own (chains), where working the key out apart would copy them.
    """

    technique: str
    build: Callable[[], Explanation] = field(repr=False)
    least: float = 0.0
    place: int = 0
    eliminate: int = 0
    size: tuple[int, int, int] | None = None
    bare: Explanation | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"<Lead {self.technique} >= {self.least}: {self.place} placed, {self.eliminate} removed>"


def lead(ctx: Context, technique: str, build: Callable[..., Explanation], *args: Any, least: float = 0.0,
         place: int = 0, eliminate: int = 0) -> Explanation | Lead:
    """What a finder yields for a step it found: a ``Lead`` when the caller takes them
    (``Context.leads``), else the step built now (``build(*args)``)."""
    if ctx.leads:
        return Lead(technique, partial(build, *args) if args else build, least, place, eliminate)
    return build(*args)


def built(found: Iterable[Explanation | Lead]) -> Iterator[Explanation]:
    """A finder's steps, any lead built (for a caller that takes every step as it comes)."""
    for step in found:
        yield step.build() if isinstance(step, Lead) else step


class Finder(Protocol):
    def __call__(self, state: State, ctx: Context, /) -> Iterator[Explanation | Lead]: ...


@dataclass(frozen=True)
class Technique:
    """A registry entry: the name a user types, its finder, its step kinds, its aliases.

    ``every`` lists every step of the family in a position, variants included (``steps``,
    HoDoKu's "find all steps": sets of any size, every route, every start), where ``find``
    stops at what the engine needs; None when ``find`` already lists them all. A module of
    its own holds it, so the engine never pays for it."""

    name: str
    find: Finder
    kinds: tuple[StepKind, ...]
    aliases: tuple[str, ...] = ()
    every: Finder | None = field(default=None, compare=False)
    _by_name: Mapping[str, StepKind] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {k.name: k for k in self.kinds})

    def finder(self, every: bool = False) -> Finder:
        """``find``, or with ``every`` the finder listing every variant."""
        return self.every if every and self.every is not None else self.find

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
        """Every step it records assumes the puzzle has a single solution (``select(...,
        uniqueness=False)`` leaves it out; a kind of a mixed technique is left out through
        ``Context.off``)."""
        return bool(self.kinds) and all(k.uniqueness for k in self.kinds)

    def kind(self, step_name: str) -> StepKind | None:
        return self._by_name.get(step_name)


def name_key(name: str) -> str:
    """A technique name as names are compared: case, '-' and '_' do not matter."""
    return name.strip().lower().replace("-", " ").replace("_", " ")


def find_technique(techniques: Iterable[Technique], name: str) -> Technique | None:
    """The first record answering to a name, step name or alias (``name_key``), or None."""
    key = name_key(name)
    for t in techniques:
        if key in {name_key(n) for n in t.all_names}:  # '2-string kite' answers to '2 string kite' too
            return t
    return None


def title_of(name: str, kinds: Mapping[str, StepKind], lang: str = "en",
             detail: Iterable[tuple[str, object]] = ()) -> str:
    """A step name (or frame word: 'initial grid', 'singles' …) as a frame title shows it, by
    its kind in ``kinds`` (``StepKind.title``); a name none of them has keeps its frame word
    (``i18n.frame_title``)."""
    k = kinds.get(name)
    return k.title(lang, detail) if k is not None else frame_title(name, lang)


def kinds_of(techniques: Iterable[Technique]) -> dict[str, StepKind]:
    """Step name -> kind, first technique wins, in the given order."""
    out: dict[str, StepKind] = {}
    for t in techniques:
        for k in t.kinds:
            out.setdefault(k.name, k)
    return out


def left_out(techniques: Iterable[Technique], order: Order, uniqueness: bool = True) -> frozenset[str]:
    """Step names a run leaves out although their technique is in it: the lucky guesses on an
    order that takes none (``Order.lucky``: the simplest), and with ``uniqueness=False`` every
    kind resting on the single solution."""
    return frozenset(k.name for t in techniques for k in t.kinds
                     if (not order.lucky and k.lucky) or (not uniqueness and k.uniqueness))


def rate_steps(steps: Iterable[Explanation], kinds: Mapping[str, StepKind],
               view: View = "se-equivalent") -> list[float]:
    """Each step's rating by its kind's record, on a view (``order.View``); a step name missing
    from ``kinds`` gets the hardest base of them (an unrated step never makes a puzzle look easier)."""
    fallback = max((k.weight_in(view) for k in kinds.values()), default=10.0)
    out = []
    for s in steps:
        k = kinds.get(s.technique)
        out.append(k.rate(s, view) if k is not None else rating.rate(s, fallback))
    return out
