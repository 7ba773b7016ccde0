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

One finder per family (issue 40): where SE's technique is the registry's, the
producer is a mode of the registry's finder, SE's scan order on the registry's
search (``techniques.seorder`` says how): singles, intersections (direct and
not), naked / hidden sets (and SE's direct hidden pair and triplet), fish, XY-
and XYZ-wings, unique rectangles and loops, BUG. This package keeps only what the registry has no twin for, each
module saying why: aligned exclusion; SE's chaining producers (the engine is
``explainer.core.sechain``); Sukaku Explainer's TurbotFish and 3 strong links
(its grouped strong links, which no registry search splits as SE does); its
WXYZ- and VWXYZ-wings (an ALS of mutually seeing cells and a bivalue wing, not
the registry's WXYZ-wing).
"""
from __future__ import annotations

from explainer.model import rating
from explainer.model.technique import Finder, StepKind, Technique

from .. import bugs, fish, intersections, singles, subsets, uniqueloops, xywings
from ..kinds import K
from . import aligned, chains, stronglinks, turbot, wxyz

__all__ = ["CLASSIC", "FLAVOURS", "SUKAKU", "producers"]

# SE's step kinds: rated as SE rates them (``RECORDED``: the number a producer records), ``weight``
# their least rating
R = rating.RECORDED


HIDDEN_SINGLE = K("single position", 1.0, "position unique", single=True, rule=R, roles="house placed")
NAKED_SINGLE = K("single candidate", 2.3, "candidat unique", single=True, rule=R, roles="placed")
DIRECT_POINTING = K("direct pointing", 1.7, "pointage direct", rule=R, roles="base cover value implied-false placed")
DIRECT_CLAIMING = K("direct claiming", 1.9, "réclamation directe", rule=R,
                    roles="base cover value implied-false placed")
DIRECT_PAIR = K("direct hidden pair", 2.0, "paire cachée directe", rule=R,
                roles="house cells value implied-false placed")
DIRECT_TRIPLET = K("direct hidden triplet", 2.5, "triplet caché direct",
                   rule=R, roles="house cells value implied-false placed")
LOCKED = K("locked candidate", 2.6, "candidat verrouillé", rule=R, roles="base cover value removed")
NAKED = K("naked tuple", 3.0, "tuple nu", sized=subsets.SIZED_TITLES["naked tuple"],
           rule=R, roles="house cells value removed")
HIDDEN = K("hidden tuple", 3.4, "tuple caché", sized=subsets.SIZED_TITLES["hidden tuple"],
            rule=R, roles="house cells value removed")
X_WING = K("x wing", 3.2, "aile X", rule=R, roles="base cover value removed")
SWORDFISH = K("swordfish", 3.8, "espadon", rule=R, roles="base cover value removed")
JELLYFISH = K("jellyfish", 5.2, "méduse", rule=R, roles="base cover value removed")
XY_WING = K("xy wing", 4.2, "aile XY", rule=R, roles="link pincer pivot z removed")
XYZ_WING = K("xyz wing", 4.4, "aile XYZ", rule=R, roles="link pincer pivot z removed")
UNIQUE_RECTANGLE = K("unique rectangle", 4.5, "rectangle unique", uniqueness=True, rule=R,
                     roles="floor value removed")
UNIQUE_LOOP = K("unique loop", 4.6, "boucle unique", uniqueness=True, rule=R, roles="floor value removed")
BUG_1 = K("bug+1", 5.6, "BUG+1", en="BUG type 1", uniqueness=True, rule=R, roles="cells extra removed")
BUG = K("bug", 5.7, "BUG", en="BUG", uniqueness=True, rule=R, roles="cells extra removed")
APE = K("aligned pair exclusion", 6.2, "exclusion de paire alignée", rule=R, roles="cells pincer value removed")
ATE = K("aligned triplet exclusion", 7.5, "exclusion de triplet aligné", rule=R, roles="cells pincer value removed")
SKYSCRAPER = K("skyscraper", 4.0, "gratte-ciel", rule=R, roles="link off on removed")
KITE = K("2-string kite", 4.1, "cerf-volant à deux ficelles", rule=R, roles="link off on removed")
TURBOT = K("turbot fish", 4.2, "turbot", rule=R, roles="link off on removed")
GROUPED_TURBOT = K("grouped turbot fish", 4.3, "turbot groupé", rule=R, roles="link off on removed")
STRONG_LINKS = K("3 strong links", 5.4, "trois liens forts", rule=R, roles="link off on removed")
WXYZ_WING = K("wxyz wing", 5.5, "aile WXYZ", rule=R, roles="pincer pivot z removed")
VWXYZ_WING = K("vwxyz wing", 6.2, "aile VWXYZ", rule=R, roles="pincer pivot z removed")


def T(name: str, find: Finder, *kinds: StepKind) -> Technique:
    """A producer's record: its name, finder and step kinds."""
    return Technique(name, find, kinds)


def producers(classic: bool) -> list[Technique]:
    """SE's producers of one flavour, in SE's order of search (a new list each call)."""
    head = [
        T("hidden singles", singles.se_single_position, HIDDEN_SINGLE),
        T("direct intersections", intersections.se_finder(direct=True, classic=classic),
          DIRECT_POINTING, DIRECT_CLAIMING),
        T("direct hidden pairs", subsets.se_hidden(2, direct=True), DIRECT_PAIR),
        T("naked singles", singles.se_single_candidate, NAKED_SINGLE),
        T("direct hidden triplets", subsets.se_hidden(3, direct=True), DIRECT_TRIPLET),
        T("intersections", intersections.se_finder(direct=False, classic=classic), LOCKED),
        T("naked pairs", subsets.se_naked(2), NAKED),
        T("x-wings", fish.se_fish(2), X_WING),
        T("hidden pairs", subsets.se_hidden(2, direct=False), HIDDEN),
        T("naked triplets", subsets.se_naked(3), NAKED),
        T("swordfishes", fish.se_fish(3), SWORDFISH),
        T("hidden triplets", subsets.se_hidden(3, direct=False), HIDDEN),
    ]
    if not classic:
        head.append(T("turbot fishes", turbot.find, SKYSCRAPER, KITE, TURBOT, GROUPED_TURBOT))
    head += [
        T("xy-wings", xywings.se_wing(xyz=False, classic=classic), XY_WING),
        T("xyz-wings", xywings.se_wing(xyz=True, classic=classic), XYZ_WING),
        T("unique loops", uniqueloops.se_finder(lk=not classic), UNIQUE_RECTANGLE, UNIQUE_LOOP),
        T("naked quads", subsets.se_naked(4), NAKED),
        T("jellyfishes", fish.se_fish(4), JELLYFISH),
        T("hidden quads", subsets.se_hidden(4, direct=False), HIDDEN),
    ]
    if not classic:
        head += [T("3 strong links", stronglinks.find, STRONG_LINKS), T("wxyz-wings", wxyz.find_wxyz, WXYZ_WING)]
    head.append(T("bug", bugs.se_finder(lk=not classic), BUG_1, BUG))
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
