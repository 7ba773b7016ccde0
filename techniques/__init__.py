"""The ordered registry of techniques: one record per technique.

The order is the seed's (TECHNIQUES.md, "The steps, in order"): on the seed
order the engine tries these in turn at every step and keeps the first step
that makes progress; on the simplest order (the default) it takes the
lowest-rated step, and the registry order breaks ties. Each ``Technique``
record carries its finder, aliases and step kinds; each ``StepKind`` its
rating weight and rule (``explainer.model.rating.Rule``: how a step of the kind is
rated), its title in every language, HoDoKu's code and its flags (guessing,
reading the solution, resting on the single solution). Everything else
(weights, titles, the generator's guessing set, the singles, the
rating table of docs/rating.md) is derived from ``REGISTRY``. Adding a technique = its module,
its record with its rating rule (here or through ``register``), its test.

A finder is ``find(state, ctx) -> Iterator[Explanation]`` (``explainer.model.technique.Finder``):
it never changes the state and never draws. Only a technique whose kinds
read the solution (brutal) gets ``ctx.solution``.
"""
from __future__ import annotations

from collections.abc import Iterable

from explainer.model import rating
from explainer.model.technique import (
    Context,
    Finder,
    StepKind,
    Technique,
    find_technique,
    kinds_of,
    name_key,
    title_of,
)

from . import (
    als,
    alschains,
    alsvariants,
    brutal,
    bugs,
    chains,
    fish,
    forcing,
    forcingall,
    grouped,
    groupedloops,
    intersections,
    medusa,
    niceloops,
    singles,
    subsets,
    suedecoq,
    templates,
    trial,
    uniqueloops,
    uniqueness,
    wings,
    xywings,
)
from .kinds import K

__all__ = ["REGISTRY", "Context", "Finder", "StepKind", "Technique", "all_kinds",
           "guessing_names", "kind", "known_kinds", "lookup", "producer_list", "register", "select", "single_names",
           "step_names", "title", "unregister", "weights"]


# Weights on Sudoku Explainer's scale (explainer.model.rating adds SE's length and type additions).
# A technique SE lacks that the registry tries among the chains weighs what SE's cheapest chain
# for the same elimination weighs (a grouped chain a Nishio or dynamic chain, a long empty
# rectangle a grouped chain, a unique rectangle of type 5, 6 or hidden a chain). One the
# registry tries early has two weights: a pattern weight beside SE's patterns of its size on
# the seed order (W-wing 4.4, finned fish 0.2 above their fish, Sue de Coq 5.0 / 5.5), where
# SE's chain weight would rate a puzzle by a pattern found before the cheaper one SE takes;
# and that chain weight (``se=``) on the simplest order, SE's path (W-wing 7.1, a mixed chain
# of six candidates; finned fish 6.6 - 6.8, an x-chain through the fin; Sue de Coq 8.2, a house
# forcing chain). Each kind's ``rule`` (explainer.model.rating) adds SE's additions to its weight.
# The short fish chains and the WXYZ-wing weigh what Sukaku Explainer (SE's maintained fork)
# gives them. Codes are HoDoKu's library codes (SolutionType).
REGISTRY: list[Technique] = [
    Technique("single position", singles.find_single_position,
              (K("single position", 1.5, "position unique", "0002", "0000", single=True,
                 rule=rating.SINGLE_POSITION, roles="house placed"),),
              aliases=("hidden single",)),
    Technique("single candidate", singles.find_single_candidate,
              (K("single candidate", 2.3, "candidat unique", "0003", single=True, roles="placed"),),
              aliases=("naked single",)),
    Technique("locked candidate", intersections.find,
              (K("locked candidate", 2.6, "candidat verrouillé", "0100", "0101", rule=rating.LOCKED_CANDIDATE,
                 roles="base cover value removed"),),
              aliases=("pointing", "claiming")),
    Technique("naked tuple", subsets.find_naked,
              (K("naked tuple", 3.0, "tuple nu", "0200", "0201", "0202", rule=rating.NAKED_TUPLE,
                 sized=subsets.SIZED_TITLES["naked tuple"], roles="cells house value removed"),),
              aliases=("naked pair", "naked triple")),
    Technique("hidden tuple", subsets.find_hidden,
              (K("hidden tuple", 3.4, "tuple caché", "0210", "0211", "0212", rule=rating.HIDDEN_TUPLE,
                 sized=subsets.SIZED_TITLES["hidden tuple"], roles="cells house value removed"),),
              aliases=("hidden pair", "hidden triple")),
    Technique("y wing", wings.find_y_wing,
              (K("y wing", 4.2, "aile Y", roles="house link pincer pivot z removed"),
               K("ny wing", 5.5, "aile NY", rule=rating.NY_WING, roles="house pincer pivot z removed"))),
    Technique("w wing", wings.find_w_wing,
              (K("w wing", 4.4, "aile W", "0803", se=7.1, roles="house link pincer value z removed"),)),
    Technique("xy wing", xywings.find_xy_wing,
              (K("xy wing", 4.2, "aile XY", "0800", roles="link pincer pivot z removed"),), aliases=("xy-wing",)),
    Technique("xyz wing", xywings.find_xyz_wing,
              (K("xyz wing", 4.4, "aile XYZ", "0801", roles="link pincer pivot z removed"),), aliases=("xyz-wing",)),
    Technique("wxyz wing", xywings.find_wxyz_wing,
              (K("wxyz wing", 5.5, "aile WXYZ", rule=rating.SUKAKU_WING, roles="pincer pivot z removed"),),
              aliases=("wxyz-wing",)),
    Technique("fish", fish.find_fish, (K("x wing", 3.2, "aile X", "0300", roles="base cover value removed"),
                                        K("swordfish", 3.8, "espadon", "0301", roles="base cover value removed"),
                                        K("jellyfish", 5.2, "méduse", "0302", roles="base cover value removed"))),
    Technique("finned fish", fish.find_finned_fish,
              (K("finned x wing", 3.4, "aile X à aileron", "0310", se=6.6, rule=rating.FINNED_FISH,
                 roles="base cover fin value removed"),
               K("finned swordfish", 4.0, "espadon à aileron", "0311", se=6.7, rule=rating.FINNED_FISH,
                 roles="base cover fin value removed"),
               K("finned jellyfish", 5.4, "méduse à aileron", "0312", se=6.8, rule=rating.FINNED_FISH,
                 roles="base cover fin value removed"),
               K("sashimi x wing", 3.5, "aile X sashimi", "0320", se=6.6, roles="base cover fin value removed"),
               K("sashimi swordfish", 4.1, "espadon sashimi", "0321", se=6.7, roles="base cover fin value removed"),
               K("sashimi jellyfish", 5.5, "méduse sashimi", "0322", se=6.8, roles="base cover fin value removed"))),
    Technique("unique rectangle", uniqueness.find_unique_rectangle,
              (K("unique rectangle", 4.6, "rectangle unique", "0600", "0601", "0602", "0603", "0604", "0605", "0606",
                 uniqueness=True, rule=rating.UNIQUE_RECTANGLE, roles="floor value removed"),),
              aliases=("ur", "hidden unique rectangle", "hidden rectangle")),
    # SE's unique loops (6, 8, … cells; 4.5 + 0.1 / 0.2 / 0.5 by length) and BUG types 2-4 (5.7);
    # examples from se_rated (SE 4.6 and 5.8), the engine test's fixed sample having none
    Technique("unique loop", uniqueloops.find_unique_loop,
              (K("unique loop", 4.5, "boucle unique", uniqueness=True, rule=rating.UNIQUE_LOOP,
                 example=".2.1.9.5.1.......6.6..5..9...5...1..9..786..3....4....49.....6583..9..14...4.8...",
                 roles="floor cycle value removed"),),
              aliases=("ul",)),
    # example: se_rated line 80 (top1465's bug+1 positions now meet a rectangle with a missing candidate first)
    Technique("bug+1", uniqueness.find_bug_plus_one,
              (K("bug+1", 5.6, "BUG+1", "0610", uniqueness=True,
                 example="2..3.....98...1....3...9.174....3.58..3.6.9..81.2....634.9...8....8...92.....2..3",
                 roles="cells house value placed"),),
              aliases=("bug + 1",)),
    Technique("bug", bugs.find_bug,
              (K("bug", 5.7, "BUG", en="BUG", uniqueness=True, rule=rating.BUG,
                 example="16...52...8...3.....9........2..167..7..6..8..934..1........8.....1...2...57...69",
                 roles="cells extra removed"),),
              aliases=("bug type 2", "bug type 3", "bug type 4")),
    Technique("suedecoq", suedecoq.find_suedecoq, (K("suedecoq", 5.0, "Sue de Coq", "1101", en="Sue de Coq", se=8.2,
                                                     roles="cells house set removed"),),
              aliases=("sue de coq",)),
    # example: se_rated line 879 (Sue de Coq, with HoDoKu's values outside the intersection, takes most of its steps)
    Technique("suedecoq bis", suedecoq.find_suedecoq_bis,
              (K("suedecoq bis", 5.5, "Sue de Coq bis", en="Sue de Coq bis", se=8.2,
                 example=".7.951.6.....6....1..7.4..3.........8...4...14.65.83.77.......458.....36..2.1.9..",
                 roles="cells house set removed"),),
              aliases=("sue de coq bis",)),
    Technique("medusa", medusa.find,
              (K("medusa", 6.0, "coloriage 3D", rule=rating.LENGTH, se=6.5, se_rule=rating.MEDUSA_AS_CHAIN,
                 roles="colour link removed"),),
              aliases=("3d medusa", "coloring", "colouring")),
    # the chain search names the shapes players know; x chain and xy chain get the length addition
    # of Sudoku Explainer's x-chains (6.5) and y-chains (6.6), the short named shapes a fixed weight
    Technique("chain", chains.find, (K("skyscraper", 4.0, "gratte-ciel", "0400", "0701", roles="link off on removed"),
                                     K("2-string kite", 4.1, "cerf-volant à deux ficelles", "0401", "0701",
                                       roles="link off on removed"),
                                     K("turbot fish", 4.2, "turbot", "0403", "0701", roles="link off on removed"),
                                     K("x chain", 6.5, "chaîne X", "0701", "0708", "0707", rule=rating.X_CHAIN,
                                       roles="link off on removed"),
                                     K("xy chain", 6.6, "chaîne XY", "0702", "0708", "0707", rule=rating.LENGTH,
                                       roles="link off on removed"),
                                     K("remote pair", 6.6, "paire distante", "0703", rule=rating.LENGTH,
                                       roles="link off on removed"),
                                     K("chain", 6.5, "chaîne", "0708", "0707", rule=rating.CHAIN,
                                       roles="link off on removed"),
                                     K("loop", 6.5, "boucle", "0706", "0707", rule=rating.LOOP,
                                       example="....5...11......7..6.....8......4.....9.1.3.....596.2..8..62..7..7......3.5.7.2..",
                                       roles="link off on removed"),
                                     K("empty rectangle", 4.3, "rectangle vide", "0402", rule=rating.EMPTY_RECTANGLE,
                                       roles="house line link on off removed"),
                                     # listed by ``steps`` only (niceloops): X false would make X
                                     # true; SE's forcing x-chain (6.6) or forcing chain (7.0)
                                     K("discontinuous loop", 6.6, "boucle discontinue", "0707",
                                       en="discontinuous nice loop", rule=rating.FORCING_LOOP,
                                       roles="link off on placed removed")),
              aliases=("aic", "nice loop"), every=niceloops.find),
    Technique("grouped chain", grouped.find_grouped_chain,
              (K("grouped chain", 7.5, "chaîne groupée", "0711", "0709", "0710", rule=rating.GROUPED_CHAIN,
                 roles="link off on removed"),),
              aliases=("grouped aic",), every=groupedloops.find),
    Technique("als", als.find,
              (K("als", 7.0, "EPV-XZ", "0901", en="ALS-XZ", rule=rating.ALS_XZ, se_rule=rating.ALS_XZ_AS_CHAIN,
                 roles="link restricted-common set z removed"),),
              aliases=("als xz", "als-xz"), every=alsvariants.every_xz),
    Technique("als xy wing", alschains.find_als_xy_wing,
              (K("als xy wing", 7.2, "aile XY d'EPV", "0902", en="ALS XY wing", se=8.0, se_rule=rating.ALS_AS_CHAIN,
                 roles="link restricted-common set z removed"),),
              aliases=("als-xy-wing",), every=alsvariants.every_xy_wing),
    # example: top1465 line 96 (three ALS chains; the engine test's fixed sample has none)
    Technique("als chain", alschains.find_als_chain,
              (K("als chain", 7.5, "chaîne d'EPV", "0903", en="ALS chain", rule=rating.LENGTH, se=8.0,
                 se_rule=rating.ALS_AS_CHAIN,
                 example="4.21......5.....78...3......7..5...6......1.....4.........67.5.2.....4..3........",
                 roles="link restricted-common set z removed"),),
              aliases=("als-chain", "als xy chain", "als-xy-chain"), every=alsvariants.every_chain),
    Technique("death blossom", alschains.find_death_blossom,
              (K("death blossom", 7.4, "fleur mortelle", "0904", se=8.0, se_rule=rating.ALS_AS_CHAIN,
                 roles="link petal restricted-common stem z removed"),),
              every=alsvariants.every_death_blossom),
    # trial lucky places a value because assuming it solved the grid: that holds only if the
    # solution is unique, so it is a uniqueness step (left out with uniqueness=False) and a guess
    # (never on the simplest order), and trial is not a purist's technique: it gives way to a
    # forcing chain of the same rating there
    Technique("trial", trial.find, (K("trial", 8.5, "essai", trial_like=True, gives_way=True, rule=rating.TRIAL,
                                      roles="assumption link placed"),
                                    K("trial lucky", 9.0, "essai chanceux", trial_like=True, uniqueness=True,
                                      lucky=True, rule=rating.TRIAL, roles="assumption link placed"))),
    # a forcing step is rated from its proof (explainer.model.rating.proof_rating: 6.6 to 11+); 8.5, SE's
    # dynamic forcing chain, is its database weight (trial-like: the difficulty class counts it as
    # medium, TECHNIQUES.md)
    Technique("forcing chain", forcing.find,
              (K("forcing chain", 8.5, "chaîne de forçage", "1301", "1302", "1303", "1304", trial_like=True,
                 rule=rating.FORCING, roles="assumption"),),
              aliases=("forcing chains", "nested forcing chain", "dynamic forcing chain", "forcing net"),
              every=forcingall.every),
    # HoDoKu's templates (every placement of all of one value, reduced against the other values'):
    # SE lacks them. On the registry path they come after the forcing chains at SE's dynamic forcing
    # chain's weight (8.5); on SE's path, where SE would prove the same conclusion with a dynamic or
    # nested forcing chain (the reduction reasons on other values), at SE's nested class (9.5), so
    # they never undercut SE's own chains (measured: at 8.5 they changed ER on 2 of 40 se_rated
    # puzzles of SE 8.3 and up, moving it away from SE's)
    Technique("template", templates.find,
              (K("template set", 8.5, "gabarit (placement)", "1201", se=9.5, roles="value placed"),
               K("template delete", 8.5, "gabarit (élimination)", "1202", se=9.5, roles="value removed")),
              aliases=("templates", "pattern overlay")),
    Technique("brutal", brutal.find,
              (K("brutal", 9.5, "d'après la solution", en="from the solution", reads_solution=True,
                 roles="cells placed"),)),
]


def register(record: Technique, *, before: str | None = None, after: str | None = None) -> Technique:
    """Add a technique to the registry (at the end, or before/after a named entry).

    Its names must not clash with a registered one; returns the record.
    """
    taken = {name_key(n) for t in REGISTRY for n in t.all_names}
    clash = [n for n in record.all_names if name_key(n) in taken]
    if clash:
        raise ValueError(f"technique names already registered: {', '.join(sorted(set(clash)))}")
    if before is not None and after is not None:
        raise ValueError("give before or after, not both")
    if before is not None:
        REGISTRY.insert(REGISTRY.index(lookup(before)), record)
    elif after is not None:
        REGISTRY.insert(REGISTRY.index(lookup(after)) + 1, record)
    else:
        REGISTRY.append(record)
    return record


def unregister(name: str) -> Technique:
    """Remove a registry entry (by any of its names); returns it."""
    t = lookup(name)
    REGISTRY.remove(t)
    return t


def step_names() -> list[str]:
    """Every step name the registry can record, in registry order."""
    return list(kinds_of(REGISTRY))


def all_kinds() -> dict[str, StepKind]:
    """Step name -> its kind, in registry order."""
    return kinds_of(REGISTRY)


def known_kinds() -> dict[str, StepKind]:
    """Every step name a technique list records -> its kind: the registry's, then those only Sudoku
    Explainer's producers record (``techniques.se``: direct pointing, aligned pair exclusion …);
    what a frame of any step needs (its title)."""
    from .se import CLASSIC, SUKAKU

    return kinds_of(list(REGISTRY) + SUKAKU + CLASSIC)


def producer_list(name: str, uniqueness: bool = True) -> list[Technique]:
    """The fixed technique list an order brings (``Order.producers``): 'se' Sukaku Explainer
    1.15.10's producers, 'se-classic' classic Sudoku Explainer's (``techniques.se``), in SE's order
    of search; with ``uniqueness=False`` the ones resting on the single solution (unique loops,
    BUG) are left out."""
    from .se import FLAVOURS

    found = FLAVOURS.get(name)
    if found is None:
        raise KeyError(f"unknown technique list {name!r} (known: {', '.join(FLAVOURS)})")
    return [t for t in found if uniqueness or not t.uniqueness]


def kind(step_name: str) -> StepKind | None:
    return all_kinds().get(step_name)


def weights() -> dict[str, float]:
    """Rating weight per step name (the Sudoku Explainer-like scale)."""
    return {name: k.weight for name, k in all_kinds().items()}


def guessing_names() -> tuple[str, ...]:
    """Step names that guess or read the solution (trial, trial lucky, brutal)."""
    return tuple(name for name, k in all_kinds().items() if k.guessing)


def single_names() -> tuple[str, ...]:
    """Step names of the singles (single position, single candidate)."""
    return tuple(name for name, k in all_kinds().items() if k.single)


def title(name: str, lang: str = "en", detail: Iterable[tuple[str, object]] = ()) -> str:
    """A step name (or frame word: 'initial grid', 'singles' …) as a frame title shows it; a
    tuple's title names its size, like its caption ('hidden pair'), from its ``detail``."""
    return title_of(name, known_kinds(), lang, detail)


def lookup(name: str) -> Technique:
    """The registry entry for a name, step name or alias (case and '-'/'_' insensitive)."""
    found = find_technique(REGISTRY, name)
    if found is None:
        known = ", ".join(t.name for t in REGISTRY)
        raise KeyError(f"unknown technique {name!r} (known: {known})")
    return found


def select(names: Iterable[str | Technique] | None, uniqueness: bool = True) -> list[Technique]:
    """Registry entries for the given names, kept in registry order.

    A ``Technique`` record given directly is kept as is (after the registry's
    entries, in the given order, when it is not registered). With
    ``uniqueness=False`` the techniques that assume a single solution are
    left out (TECHNIQUES.md, "Wave 2 additions").
    """
    if names is None:
        out = list(REGISTRY)
    else:
        names = list(names)
        chosen = {lookup(n).name for n in names if isinstance(n, str)}
        records = [n for n in names if isinstance(n, Technique)]
        out = [t for t in REGISTRY if t.name in chosen or t in records]
        out += [r for r in records if r not in out]
    return [t for t in out if uniqueness or not t.uniqueness]

