"""Sudoku Explainer's producers: SE's technique set in SE's order of search, one list per flavour.

Two flavours, one engine: ``SUKAKU`` is SukakuExplainer 1.15.10 with its
default settings (the rater of the Sudoku Exchange bank; it adds TurbotFish,
3-strong-link fish, WXYZ- and VWXYZ-wings and lkSudoku's fixes of unique
loops and BUG), ``CLASSIC`` is Sudoku Explainer 1.2.1.3 (gsf's ``serate``,
the forum's classic ratings). The ``se`` and ``se-classic`` orders explain
with them (``explainer.engine.orders``): at each step the first producer, in
list order, that has a hint, and its first hint (a producer that sorts its
hints gives its lowest-rated first), exactly one hint per step, as SE's
``getDifficulty`` does.

Each record holds its finder, its step kinds (titles per language, the roles
of its frame) and SE's rating rule: a producer records the number SE gives
each step (``explainer.model.rating.RECORDED``). The steps reuse the
registry's step names where the technique is the same (single position, x
wing, hidden tuple …), so statistics, queries and frames treat them alike.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from explainer.model import rating as se
from explainer.model.explanation import Explanation
from explainer.model.state import State
from explainer.model.technique import Context, StepKind, Technique

from ..subsets import SIZED_TITLES
from . import aligned, chains, fish, locking, sets, singles, stronglinks, turbot, unique, wings, wxyz

__all__ = ["CLASSIC", "FLAVOURS", "SUKAKU", "producers"]

Finder = Callable[[State, Context], Iterator[Explanation]]


def K(name: str, weight: float, fr: str, *, en: str | None = None, single: bool = False, uniqueness: bool = False,
      sized: dict[str, dict[int, str]] | None = None, roles: str = "") -> StepKind:
    """A step kind of SE's producers: rated as SE rates it (``RECORDED``), ``weight`` its least
    rating (a database's base weight)."""
    return StepKind(name, weight, {"en": en or name, "fr": fr}, single=single, uniqueness=uniqueness,
                    rule=se.RECORDED, sized_titles=sized or {}, roles=frozenset(roles.split()))


HIDDEN_SINGLE = K("single position", 1.0, "position unique", single=True, roles="house placed")
NAKED_SINGLE = K("single candidate", 2.3, "candidat unique", single=True, roles="placed")
DIRECT_POINTING = K("direct pointing", 1.7, "pointage direct", roles="base cover value implied-false placed")
DIRECT_CLAIMING = K("direct claiming", 1.9, "réclamation directe", roles="base cover value implied-false placed")
DIRECT_PAIR = K("direct hidden pair", 2.0, "paire cachée directe", roles="house cells value implied-false placed")
DIRECT_TRIPLET = K("direct hidden triplet", 2.5, "triplet caché direct",
                   roles="house cells value implied-false placed")
LOCKED = K("locked candidate", 2.6, "candidat verrouillé", roles="base cover value removed")
NAKED = K("naked tuple", 3.0, "tuple nu", sized=SIZED_TITLES["naked tuple"], roles="house cells value removed")
HIDDEN = K("hidden tuple", 3.4, "tuple caché", sized=SIZED_TITLES["hidden tuple"], roles="house cells value removed")
X_WING = K("x wing", 3.2, "aile X", roles="base cover value removed")
SWORDFISH = K("swordfish", 3.8, "espadon", roles="base cover value removed")
JELLYFISH = K("jellyfish", 5.2, "méduse", roles="base cover value removed")
XY_WING = K("xy wing", 4.2, "aile XY", roles="link pincer pivot z removed")
XYZ_WING = K("xyz wing", 4.4, "aile XYZ", roles="link pincer pivot z removed")
UNIQUE_RECTANGLE = K("unique rectangle", 4.5, "rectangle unique", uniqueness=True, roles="floor value removed")
UNIQUE_LOOP = K("unique loop", 4.6, "boucle unique", uniqueness=True, roles="floor value removed")
BUG_1 = K("bug+1", 5.6, "BUG+1", en="BUG type 1", uniqueness=True, roles="cells extra removed")
BUG = K("bug", 5.7, "BUG", en="BUG", uniqueness=True, roles="cells extra removed")
APE = K("aligned pair exclusion", 6.2, "exclusion de paire alignée", roles="cells pincer value removed")
ATE = K("aligned triplet exclusion", 7.5, "exclusion de triplet aligné", roles="cells pincer value removed")
SKYSCRAPER = K("skyscraper", 4.0, "gratte-ciel", roles="link off on removed")
KITE = K("2-string kite", 4.1, "cerf-volant à deux ficelles", roles="link off on removed")
TURBOT = K("turbot fish", 4.2, "turbot", roles="link off on removed")
GROUPED_TURBOT = K("grouped turbot fish", 4.3, "turbot groupé", roles="link off on removed")
STRONG_LINKS = K("3 strong links", 5.4, "trois liens forts", roles="link off on removed")
WXYZ_WING = K("wxyz wing", 5.5, "aile WXYZ", roles="pincer pivot z removed")
VWXYZ_WING = K("vwxyz wing", 6.2, "aile VWXYZ", roles="pincer pivot z removed")


def T(name: str, find: Finder, *kinds: StepKind) -> Technique:
    return Technique(name, find, kinds)


def producers(classic: bool) -> list[Technique]:
    """SE's producers of one flavour, in SE's order of search (a new list each call)."""
    head = [
        T("hidden singles", singles.find_hidden_single, HIDDEN_SINGLE),
        T("direct intersections", locking.finder(direct=True, classic=classic), DIRECT_POINTING, DIRECT_CLAIMING),
        T("direct hidden pairs", sets.hidden_finder(2, direct=True), DIRECT_PAIR),
        T("naked singles", singles.find_naked_single, NAKED_SINGLE),
        T("direct hidden triplets", sets.hidden_finder(3, direct=True), DIRECT_TRIPLET),
        T("intersections", locking.finder(direct=False, classic=classic), LOCKED),
        T("naked pairs", sets.naked_finder(2), NAKED),
        T("x-wings", fish.finder(2), X_WING),
        T("hidden pairs", sets.hidden_finder(2, direct=False), HIDDEN),
        T("naked triplets", sets.naked_finder(3), NAKED),
        T("swordfishes", fish.finder(3), SWORDFISH),
        T("hidden triplets", sets.hidden_finder(3, direct=False), HIDDEN),
    ]
    if not classic:
        head.append(T("turbot fishes", turbot.find, SKYSCRAPER, KITE, TURBOT, GROUPED_TURBOT))
    head += [
        T("xy-wings", wings.finder(xyz=False, classic=classic), XY_WING),
        T("xyz-wings", wings.finder(xyz=True, classic=classic), XYZ_WING),
        T("unique loops", unique.loops_finder(lk=not classic), UNIQUE_RECTANGLE, UNIQUE_LOOP),
        T("naked quads", sets.naked_finder(4), NAKED),
        T("jellyfishes", fish.finder(4), JELLYFISH),
        T("hidden quads", sets.hidden_finder(4, direct=False), HIDDEN),
    ]
    if not classic:
        head += [T("3 strong links", stronglinks.find, STRONG_LINKS), T("wxyz-wings", wxyz.find_wxyz, WXYZ_WING)]
    head.append(T("bug", unique.bug_finder(lk=not classic), BUG_1, BUG))
    if not classic:
        head.append(T("vwxyz-wings", wxyz.find_vwxyz, VWXYZ_WING))
    head.append(T("aligned pair exclusion", aligned.finder(2, classic), APE))
    # chaining: forcing chains and cycles, then aligned triplet exclusion, then the others; Sukaku
    # Explainer's nested level 4 has four nesting limits where classic SE has levels 4 and 5
    chaining = chains.records(classic)
    return head + chaining[:1] + [T("aligned triplet exclusion", aligned.finder(3, classic), ATE)] + chaining[1:]


SUKAKU = producers(classic=False)
CLASSIC = producers(classic=True)
# a flavour's name -> its producers (the orders name them: ``Order.producers``)
FLAVOURS: dict[str, list[Technique]] = {"se": SUKAKU, "se-classic": CLASSIC}
