"""Step and puzzle ratings on Sudoku Explainer's (SE's) scale: ER / EP / ED.

A step's rating is its kind's **base** (the ``StepKind.weight`` of its
registry record) plus an **addition** read from what the step records,
following SE's published rules (SukakuExplainer wiki, "Difficulty ratings in
Sudoku Explainer v1.2.1"). The rule of a kind is a ``Rule`` held by its
record (``StepKind.rule``): this module defines SE's rules, the registry
attaches them, and a technique added later brings its own, so it is rated
where it is defined. The rules:

- singles: a hidden single in a box is 1.2, in a row or column 1.5, the
  last empty cell of a house 1.0; a naked single 2.3;
- locked candidates: pointing (the box confines) 2.6, claiming 2.8;
- subsets: naked pair / triple / quad 3.0 / 3.6 / 5.0, hidden 3.4 / 4.0 / 5.4;
- chains and cycles: an x-chain (one digit) 6.5, a y-chain (only bivalue
  cells) 6.6, a chain mixing both 7.0, plus SE's length addition; a chain,
  loop or empty rectangle on one digit may rate less as Sukaku Explainer's
  strong-link chain (``strong_link_rating``: 4.0 for two strong links, 5.4
  for three, 5.8, 6.2 … with small additions for its houses);
- wings and ALS-XZ steps whose cells split into a bivalue cell and a set of
  m cells are Sukaku Explainer's WXYZ- (m = 3, 5.5), VWXYZ- (6.2) and
  UVWXYZ-wings (6.6), whatever finder found them; two sets of two cells or
  more a chain through two ALS nodes (6.6 +);
- steps that record a proof (forcing chains, trial) are rated from it alone
  (``proof_rating``): SE's class of the chains it holds (``chain_base``:
  static forcing x-chain 6.6, forcing chain 7.0, Nishio 7.5, cell / house
  forcing 8.0, dynamic 8.5, dynamic (+) 9.0, nested 9.5 and up) plus the
  length addition on its implications;
- techniques SE lacks that the registry tries among the chains weigh what
  SE's cheapest chain for the same elimination weighs (their records'
  weights, with the rules below for grouped chains, long empty rectangles,
  unique rectangles SE lacks); on the seed order those tried early keep
  pattern weights (``StepKind.weight_in``).

SE's length addition (``length_addition``): +0.1 each time the chain's
length passes the next threshold of 4, 6, 8, 12, 16, 24, 32, 48, 64, 96 …
(each threshold is the one before times 3/2, then 4/3, alternately).
A chain's length here is the number of candidates it links (its nodes).

A kind with the plain rule (``PLAIN``) is rated at its record's weight, or
with the forcing addition when its steps record forcing detail (``kind`` /
``level`` / ``dynamic`` / ``size``) without a proof.

The puzzle's ratings (``Rating``): ER the hardest step, EP the hardest step
up to and including the first placement, ED the first step's rating
(SE's serate: the first step taken is the easiest one available, so ED
tells how hard it is to start). ``grade`` turns ER into a word a teacher
can use. This module is core: it never imports the registry.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .explanation import Explanation
from .proof import Proof

SCALE = "se"

# ---- SE's length addition ------------------------------------------------------------


def length_addition(length: int) -> float:
    """SE's addition for a chain of ``length`` nodes: +0.1 past 4, 6, 8, 12, 16, 24, 32 …"""
    added, ceil, odd = 0, 4, False
    while length > ceil:
        added += 1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added / 10


def nodes(step: Explanation) -> int:
    """The candidates a chain-like step links: its marked candidates and link ends."""
    seen: set[tuple[int, ...]] = {tuple(c) for c in step.marked} | {tuple(c) for c in step.marked_alt}
    for a, b in step.strong_links + step.weak_links:
        seen.add(tuple(a))
        seen.add(tuple(b))
    return len(seen)


def chain_type_addition(step: Explanation) -> float:
    """SE's bases relative to an x-chain (6.5): one digit +0, only bivalue cells +0.1 (6.6),
    mixed +0.5 (7.0)."""
    links = step.strong_links + step.weak_links
    if not links:
        return 0.0
    values = {tuple(a)[2] for a, _ in links} | {tuple(b)[2] for _, b in links}
    if len(values) == 1:
        return 0.0
    # a y-chain: every strong link is inside a (bivalue) cell, every weak link joins one value
    if all(tuple(a)[:2] == tuple(b)[:2] for a, b in step.strong_links) and \
            all(tuple(a)[2] == tuple(b)[2] for a, b in step.weak_links):
        return 0.1
    return 0.5


# ---- SE's rules, piece by piece (a ``Rule`` below puts them together for a kind) ----------

def _single_position(step: Explanation) -> float:
    # base 1.5 (row / column); a box 1.2; the last empty cell of its house 1.0
    if step.get("covering_houses") == 0 and step.cells and len(step.houses) == 1:
        return -0.5
    if step.houses and step.houses[0][0] == "box":
        return -0.3
    return 0.0


def _locked(step: Explanation) -> float:
    # base 2.6 (pointing: the box confines the value); claiming 2.8
    return 0.0 if step.houses and step.houses[0][0] == "box" else 0.2


_NAKED = {2: 0.0, 3: 0.6, 4: 2.0}  # 3.0, 3.6, 5.0
_HIDDEN = {2: 0.0, 3: 0.6, 4: 2.0}  # 3.4, 4.0, 5.4


def _tuple(table: Mapping[int, float]) -> Callable[[Explanation], float]:
    def add(step: Explanation) -> float:
        size = int(step.get("size", 2) or 2)
        if size in table:
            return table[size]
        return table[4] + 0.2 * (size - 4) if size > 4 else 0.0  # bigger grids: past a quad
    return add


def _big_wing(step: Explanation) -> float:
    # a wing recorded without its sets (``sizes``): of four cells as Sukaku Explainer's
    # WXYZ-wing (5.5), of five or more as its VWXYZ-wing (6.2), +0.1 a cell past five
    size = int(step.get("size", 3) or 3)
    return 0.0 if size <= 3 else 0.7 + 0.1 * (size - 4)


def _finned(step: Explanation) -> float:
    return 0.1 if step.get("case") == 2 or step.get("sashimi") else 0.0  # sashimi


def _grouped(step: Explanation) -> float:
    # SE has no group nodes: on one digit it needs a Nishio chain (7.5), else a dynamic one (8.5)
    return chain_digits_addition(step) + length_addition(nodes(step))


def chain_digits_addition(step: Explanation) -> float:
    """+1.0 when a chain links several digits (SE's dynamic 8.5 over its Nishio 7.5)."""
    links = step.strong_links + step.weak_links
    values = {tuple(a)[2] for a, _ in links} | {tuple(b)[2] for _, b in links} | {m[2] for m in step.marked}
    return 1.0 if len(values) > 1 else 0.0


_UR = {"1": -0.1, "2": 0.0, "3": 0.0, "4": 0.0}  # SE: type 1 4.5, types 2 to 4 4.6
UR_CHAIN = 7.0  # SE has no other uniqueness pattern: it needs a (mixed) chain for the elimination


def _unique_rectangle(step: Explanation) -> float:
    # SE rates types 1 to 4 (4.5, 4.6, type 3 + 0.1 a cell of its naked set past a pair)
    kind = str(step.get("type", "1"))
    if kind == "3":
        return 0.1 * max(0, int(step.get("size", 2) or 2) - 2)
    return _UR.get(kind, 0.0)


def _set_addition(step: Explanation) -> float:
    # SE's type 3 of a unique loop or a BUG: +0.1 a value of its naked set past one (pair +0.1)
    return 0.1 * (int(step.get("size", 2) or 2) - 1) if str(step.get("type")) == "3" else 0.0


def _unique_loop(step: Explanation) -> float:
    # SE's unique loops: base 4.5, +0.1 for 6 cells, +0.2 for 8, +0.5 for 10 or more; type 3 its set
    length = int(step.get("length", 6) or 6)
    return (0.5 if length >= 10 else 0.2 if length >= 8 else 0.1) + _set_addition(step)


def _unique_rectangle_as_chain(step: Explanation) -> float | None:
    # types 5, 6 and the hidden rectangle are HoDoKu's: SE proves them with a chain (7.0)
    return None if str(step.get("type", "1")) in _UR else UR_CHAIN


def _long_empty_rectangle(step: Explanation) -> float | None:
    # the classic empty rectangle (box, one strong link) is Sukaku Explainer's (its record's
    # weight); a longer one is its grouped strong-link chain (the box is the grouped link),
    # or SE's Nishio chain when that is cheaper
    if int(step.get("length", 2) or 2) <= 2:
        return None
    fish = strong_link_rating(step, grouped=1)
    chain = SE_NISHIO + _grouped(step)
    return chain if fish is None else min(fish, chain)


# Sukaku Explainer's chains of strong links on one digit ("3 Strong-linked Fishes" and on):
# the base by the number of strong links (2: the skyscraper 4.0 … 8: 7.4); all links in
# parallel lines +0, one other kind of house +0.1, rows, columns and boxes together +0.2;
# a grouped link (an empty rectangle's box) +0.3.
STRONG_LINK_BASES = {2: 4.0, 3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6, 7: 7.0, 8: 7.4}
SE_X_CHAIN = 6.5  # SE's x-chain or x-cycle (one digit), + length


def _house_kind(a: tuple[int, ...], b: tuple[int, ...]) -> str:
    return "row" if a[0] == b[0] else "column" if a[1] == b[1] else "box"


def strong_link_rating(step: Explanation, grouped: int = 0) -> float | None:
    """Sukaku Explainer's rating of a one-digit chain from its strong links (None: not one
    digit, or more strong links than it rates). ``grouped`` counts strong links the step
    does not list (an empty rectangle's box)."""
    links = [(tuple(a), tuple(b)) for a, b in step.strong_links]
    count = len(links) + grouped
    if count not in STRONG_LINK_BASES or len({a[2] for a, _ in links} | {b[2] for _, b in links}) > 1:
        return None
    if grouped:
        return STRONG_LINK_BASES[count] + 0.3
    kinds = [_house_kind(a, b) for a, b in links]
    lines = {k for k in kinds if k != "box"}
    mixed = ("box" in kinds) + (len(lines) > 1)
    return STRONG_LINK_BASES[count] + 0.1 * mixed


def _one_digit_chain(step: Explanation) -> float | None:
    # an x-chain or x-cycle to SE (6.5 + length), a strong-link chain or loop to Sukaku
    # Explainer: the cheaper; None for a chain on several digits (the ``_chain`` rule)
    fish = strong_link_rating(step)
    if fish is None:
        return None
    return min(fish, SE_X_CHAIN + length_addition(nodes(step)))


# Sukaku Explainer's wings of a bivalue cell and an almost locked set of m more cells (an
# ALS-XZ with a bivalue cell), by m: WXYZ (5.5), VWXYZ (6.2), UVWXYZ (6.6); the WXYZ- and
# VWXYZ-wings +0.1 for each candidate the largest of the m cells is nearer the middle size.
SUKAKU_WINGS = {3: 5.5, 4: 6.2, 5: 6.6}
SE_ALS_XZ = 6.6  # two sets of two cells or more: a chain through two ALS nodes (SE's y-chain base)


def _sukaku_wing(step: Explanation) -> float | None:
    """A wing or ALS-XZ (detail ``sizes``) rated as Sukaku Explainer's wing of its size; two
    sets of two cells or more as a chain through two ALS nodes (SE's y-chain base 6.6, +0.1 a
    cell past four)."""
    sizes = step.get("sizes")
    if not sizes or len(sizes) != 2:
        return None
    m = max(sizes)
    if min(sizes) > 1:
        return float(SE_ALS_XZ + 0.1 * (sum(sizes) - 4))
    if m not in SUKAKU_WINGS:
        return None
    base = SUKAKU_WINGS[m]
    biggest = step.get("biggest")
    if biggest is None or m > 4:
        return base
    middle = (m + 3) // 2
    return float(base + 0.1 * max(0, (m + 1 - middle) - abs(middle - int(biggest))))


def _chain(step: Explanation) -> float:
    return chain_type_addition(step) + length_addition(nodes(step))


def _forcing_loop(step: Explanation) -> float:
    # a discontinuous loop placing its candidate is SE's forcing x-chain (6.6, one digit) or
    # forcing chain (7.0, several digits)
    return (0.4 if chain_digits_addition(step) else 0.0) + length_addition(nodes(step))


# SE's bases for the chains behind a recorded proof (Sudoku Explainer's "Forcing Chains &
# Cycles", "Nishio", "Multiple" and "Dynamic" forcing chains, "Dynamic (+)").
SE_X_FORCING = 6.6     # static, one digit: a forcing x-chain
SE_FORCING = 7.0       # static (every implication from one premise), contradiction or double
SE_NISHIO = 7.5        # one digit, dynamic (implications resting on several premises)
SE_MULTIPLE = 8.0      # static cell or house (region) forcing chains
SE_DYNAMIC = 8.5       # dynamic: a cell or house left with one candidate by several removals
SE_DYNAMIC_PLUS = 9.0  # dynamic (+): branches also apply locked candidates
SE_NESTED = 9.5        # nested: the least base when branches use forcing chains themselves


def chain_base(proof: Proof) -> float:
    """SE's base for the chains a proof records, classified as SE classifies its chains.

    Static: every implication rests on one premise (a peer, or the other candidate of a
    cell or house that had two when the step began) and a contradiction meets two chains;
    static chains on one digit are x-chains (6.6), others forcing chains (7.0), cell and
    house forcing chains multiple ones (8.0). Dynamic: some implication needs several
    premises (8.5; on one digit, SE's Nishio, 7.5). Branches applying locked candidates are
    SE's dynamic (+) (9.0). Nested branches (a fact proved by its own forcing step) take
    the inner step's base + 2.0, at least 9.5: SE's +forcing (9.5), +multiple (10.0),
    +dynamic (10.5) forcing chains.
    """
    inner = [f.step.proof for b in proof.branches for f in b.facts
             if f.rule == "step" and f.step is not None and f.step.proof is not None]
    if inner:
        return max(SE_NESTED, max(chain_base(q) for q in inner) + 2.0)
    if any(f.rule == "step" for b in proof.branches for f in b.facts):
        return SE_DYNAMIC_PLUS
    dynamic = any(len(f.premises) > 1 for b in proof.branches for f in b.facts if f.rule in ("cell", "house")) \
        or any(b.end.is_contradiction and len(b.end.premises) > 2 for b in proof.branches)
    digits = {f.fact[2] for b in proof.branches for f in b.facts} | {b.assume[2] for b in proof.branches}
    if dynamic:
        return SE_NISHIO if len(digits) == 1 else SE_DYNAMIC
    if proof.kind in ("cell", "house"):
        return SE_MULTIPLE
    return SE_X_FORCING if len(digits) == 1 else SE_FORCING


def chain_nodes(proof: Proof) -> int:
    """The implications of a proof, those of the nested steps it uses included (SE counts them)."""
    total = 0
    for b in proof.branches:
        for f in b.facts:
            total += 1
            if f.step is not None and f.step.proof is not None:
                total += chain_nodes(f.step.proof)
    return total


def proof_rating(step: Explanation) -> float | None:
    """The rating of a step from the proof it records (None without one): SE's base for
    its chains (``chain_base``) + the length addition on its implications."""
    if step.proof is None:
        return None
    return proof_value(step.proof)


def proof_value(proof: Proof) -> float:
    """A proof's rating before rounding (``proof_rating``: its step's), known before the step
    is built (a finder's estimate)."""
    return chain_base(proof) + length_addition(chain_nodes(proof))


def forcing_addition(step: Explanation) -> float | None:
    """The forcing addition, relative to the dynamic base 8.5, for a forcing step that records
    its detail (``kind`` / ``level`` / ``dynamic`` / ``size``) but not its proof (a document
    written without proofs); None if it records neither. Without the implications, static
    and dynamic chains cannot be told apart: a cell or house forcing chain +0.3, dynamic
    (+) +0.6, each nesting level +1.0, plus the length addition. A step with its proof is
    rated by ``proof_rating``.
    """
    d = dict(step.detail)
    if not ({"kind", "level", "dynamic"} & d.keys()):
        return None
    level = int(d.get("level") or 0)
    add = (0.6 if d.get("dynamic", level > 0) else 0.0) + (0.3 if d.get("kind") in ("cell", "house") else 0.0)
    return add + 1.0 * level + length_addition(proof_size(step))


def proof_size(step: Explanation) -> int:
    """The number of implications behind a forcing or trial step (detail ``size``, else its proof's facts)."""
    size = step.get("size")
    if size is None and step.proof is not None:
        size = sum(len(b.facts) for b in step.proof.branches)
    return int(size or 0)


def _trial(step: Explanation) -> float:
    # trial is SE's dynamic forcing chain already (its base): only the length addition
    return length_addition(proof_size(step))


# ---- rules: how a step kind is rated (held by its registry record) ---------------------------

@dataclass(frozen=True)
class Rule:
    """How a step kind is rated on SE's scale; its record holds it (``StepKind.rule``), so a
    technique is rated where it is defined, from the rules below or its own.

    ``add``: what a step's own facts add to its kind's base (None: the forcing addition
    when the step records forcing detail, else nothing); ``whole``: a rating from the
    step's facts alone, whatever the base (a pattern SE lacks rated as the chain SE would
    use; None from it: base + ``add``); ``least``: the least rating a step of the kind can
    get, when below its base (the simplest-first search tries techniques by it); ``note``:
    the rule in words (the rating table of docs/rating.md). A step that records its proof is rated
    from the proof first, whatever its kind (``proof_rating``), unless the rule is ``exact``:
    its ``whole`` then comes first (Sudoku Explainer's own producers, whose finders record
    the number SE gives each step, ``RECORDED``).
    """

    add: Callable[[Explanation], float] | None = field(default=None, compare=False)
    whole: Callable[[Explanation], float | None] | None = field(default=None, compare=False)
    least: float | None = None
    note: str = ""
    exact: bool = False


PLAIN = Rule()  # the record's weight is the rating

# The detail key under which Sudoku Explainer's producers (``techniques.se``) record the rating
# SE gives their step (computed as SE computes it, rounded to 0.1).
SE_RATING = "se_rating"


def _recorded(step: Explanation) -> float | None:
    value = step.get(SE_RATING)
    return None if value is None else float(value)


# SE's own producers: the step's rating is the one its finder recorded (SE's number, whatever
# proof the step also records); a step without one (written by hand) gets its kind's weight.
RECORDED = Rule(None, _recorded, exact=True, note="as Sudoku Explainer rates it (its finder records the number)")


def _length_only(step: Explanation) -> float:
    return length_addition(nodes(step))


# What the rules add, in words (the rating table of docs/rating.md shows them).
_CHAIN_NOTE = "x-chain 6.5, y-chain 6.6, mixed 7.0; + length"
_WING_NOTE = ("a bivalue cell and a set of 3 / 4 / 5 cells: 5.5–5.6 / 6.2–6.4 / 6.6 (Sukaku Explainer's "
              "WXYZ / VWXYZ / UVWXYZ wings); two sets of 2+ cells 6.6, +0.1 a cell past four")
_ONE_DIGIT_NOTE = ("strong links 2 / 3 / 4 / 5 / 6: 4.0 / 5.4 / 5.8 / 6.2 / 6.6 (+0.1 a second kind of "
                   "house, +0.2 rows, columns and boxes), or 6.5 + length if less")
FORCING_NOTE = ("from its proof: static x 6.6, static 7.0, Nishio 7.5, static cell / house 8.0, dynamic 8.5, "
                "dynamic (+) 9.0, nested 9.5 and up; + length")

SINGLE_POSITION = Rule(_single_position, least=1.0, note="box 1.2, row / column 1.5, last cell of a house 1.0")
LOCKED_CANDIDATE = Rule(_locked, note="pointing 2.6, claiming 2.8")
NAKED_TUPLE = Rule(_tuple(_NAKED), note="pair 3.0, triple 3.6, quad 5.0")
HIDDEN_TUPLE = Rule(_tuple(_HIDDEN), note="pair 3.4, triple 4.0, quad 5.4")
FINNED_FISH = Rule(_finned, note="sashimi +0.1")
NY_WING = Rule(_big_wing, _sukaku_wing, note=_WING_NOTE)
SUKAKU_WING = Rule(None, _sukaku_wing, note=_WING_NOTE)  # wxyz wing
ALS_XZ = Rule(None, _sukaku_wing, least=5.5, note=_WING_NOTE)
UNIQUE_RECTANGLE = Rule(_unique_rectangle, _unique_rectangle_as_chain, least=4.5,
                        note="type 1 4.5, types 2–4 4.6 (type 3 +0.1 a cell past a pair), others 7.0 (a chain)")
UNIQUE_LOOP = Rule(_unique_loop, note="6 cells 4.6, 8 cells 4.7, 10 or more 5.0; type 3 +0.1 a value of its "
                                      "naked set past one")
BUG = Rule(_set_addition, note="types 2 and 4 5.7, type 3 5.8 / 5.9 / 6.0 (naked pair / triple / quad)")
LENGTH = Rule(_length_only, note="+ length")  # x / xy chains' kin: remote pair, Medusa, ALS chain
X_CHAIN = Rule(_length_only, _one_digit_chain, least=5.4, note=_ONE_DIGIT_NOTE)
CHAIN = Rule(_chain, note=_CHAIN_NOTE)
LOOP = Rule(_chain, _one_digit_chain, least=4.0,
            note="one digit: as an x chain; x-cycle 6.5, y-cycle 6.6, mixed 7.0; + length")
EMPTY_RECTANGLE = Rule(None, _long_empty_rectangle,
                       note="one strong link 4.3; longer: the box a grouped strong link (+0.3) of a one-digit "
                            "chain (see x chain), or as a grouped chain (7.5 + length) if less")
GROUPED_CHAIN = Rule(_grouped, note="one digit 7.5 (SE's Nishio), several 8.5 (dynamic); + length")
FORCING_LOOP = Rule(_forcing_loop, note="one digit 6.6 (SE's forcing x-chain), several 7.0 (forcing chain); + length")
# Trial follows singles, so its proofs are dynamic (Nishio 7.5 at least) but for a static one,
# which the forcing search finds first. The forcing search's static pass starts at SE's forcing
# chains (7.0): a static one-digit chain (6.6) is an x-chain or x-cycle, which the chain search
# finds first.
# Techniques SE lacks, on the simplest order (SE's path: ``StepKind.se_rule``), rated as the
# chains SE needs for the same elimination. A coloring (Medusa) is a network of strong links:
# SE's forcing chain through it, an x-chain on one digit (6.5), else mixed (7.0), + length. An
# almost locked set of two cells or more yields its values only together (an implication with
# several premises), which SE's static chains cannot follow: the ALS family (ALS-XZ of two such
# sets, ALS XY wing, ALS chain, death blossom) is SE's multiple forcing chain through its cells
# (8.0, + length on the cells), whose branches are the sets' cells.
def _multiple_forcing(step: Explanation) -> float:
    return SE_MULTIPLE + length_addition(len(step.cells) + len(step.cells_alt))


def _als_xz(step: Explanation) -> float | None:
    sizes = step.get("sizes")
    if sizes and len(sizes) == 2 and min(sizes) == 1 and max(sizes) in SUKAKU_WINGS:
        return _sukaku_wing(step)  # a bivalue cell and a set: Sukaku Explainer's wings
    return _multiple_forcing(step)


_ALS_NOTE = "as SE's multiple forcing chain through its cells: 8.0 + length on the cells"
MEDUSA_AS_CHAIN = Rule(_chain, note="one digit 6.5 (SE's x-chain), several 7.0 (SE's forcing chain); + length")
ALS_XZ_AS_CHAIN = Rule(None, _als_xz, least=5.5, note="two sets of 2+ cells " + _ALS_NOTE + "; a bivalue "
                       "cell and a set: Sukaku Explainer's wings")
ALS_AS_CHAIN = Rule(None, _multiple_forcing, least=SE_MULTIPLE, note=_ALS_NOTE)
TRIAL = Rule(_trial, least=SE_NISHIO, note="from its proof, as a forcing chain")
FORCING = Rule(least=SE_FORCING, note=FORCING_NOTE)


def rate(step: Explanation, base: float, rule: Rule = PLAIN) -> float:
    """The step's rating on SE's scale, its kind's base weight and rule given (rounded to 0.1).

    A step that records its proof (forcing chains, trial) is rated from the proof alone
    (SE rates the chains, whatever technique found them); a pattern SE lacks by the chain
    SE would use (``Rule.whole``); any other by its base plus what its facts add."""
    own = rule.whole(step) if rule.exact and rule.whole is not None else None
    if own is None:
        own = proof_rating(step)
    if own is None and rule.whole is not None and not rule.exact:
        own = rule.whole(step)
    if own is not None:
        return round(own, 1)
    if rule.add is not None:
        return round(base + rule.add(step), 1)
    return round(base + (forcing_addition(step) or 0.0), 1)


def floor(rule: Rule, base: float) -> float:
    """The least rating a step of a kind can get: its base, or its rule's ``least`` if lower."""
    return base if rule.least is None else min(base, rule.least)


# ---- the puzzle's ratings ------------------------------------------------------------------

@dataclass(frozen=True)
class Rating:
    """ER (hardest step), EP (hardest up to the first placement), ED (first step)."""

    er: float
    ep: float
    ed: float

    def to_dict(self) -> dict[str, Any]:
        return {"er": self.er, "ep": self.ep, "ed": self.ed, "scale": SCALE}

    def __str__(self) -> str:
        return f"ER {self.er:.1f}/EP {self.ep:.1f}/ED {self.ed:.1f}"

    @property
    def grade(self) -> str:
        return grade(self.er)


def puzzle_rating(steps: Sequence[Explanation], ratings: Sequence[float], unfinished: float | None = None) -> Rating:
    """ER / EP / ED of an explanation from its steps and their ratings (0 for no step).

    ``unfinished``: the explanation stopped short and this is its ER, as Sudoku Explainer rates a
    puzzle its techniques cannot finish (20.0); EP is then 0 when no step placed a value."""
    if unfinished is not None:
        first = next((i for i, s in enumerate(steps) if s.place), None)
        ep = 0.0 if first is None else max(ratings[: first + 1])
        return Rating(unfinished, ep, ratings[0] if ratings else 0.0)
    if not ratings:
        return Rating(0.0, 0.0, 0.0)
    first_place = next((i for i, s in enumerate(steps) if s.place), len(steps) - 1)
    return Rating(max(ratings), max(ratings[: first_place + 1]), ratings[0])


# Sudoku Explainer's ER for a puzzle its techniques cannot finish ("beyond solver")
SE_BEYOND = 20.0


# ---- the words for how hard a puzzle is: one meaning per word ------------------------------------
#
# Two scales of one number, ER (the hardest step's rating), each with its own words:
#
# | scale      | words                                          | where                              |
# | ---------- | ---------------------------------------------- | ---------------------------------- |
# | difficulty | easy < 6.5, medium < 8.5, difficult            | steps JSON ``difficulty``, the     |
# |            |                                                | summary, frames, sheets, the bank  |
# | grade      | singles < 2.5, subsets < 4.0, patterns < 6.5,  | ``db stats`` (finer counts), the   |
# |            | chains < 8.5, forcing                          | stats chart's bands                |
#
# A grade names what the hardest step asks (the family of its technique), never a difficulty
# word, so "easy" means ER below 6.5 wherever it is read. (Up to issue 40 the grades were easy,
# moderate, hard, fiendish and extreme: "easy" meant ER below 2.5 there.)

# (upper ER bound, grade): what the hardest step asks of a solver.
GRADES: tuple[tuple[float, str], ...] = (
    (2.5, "singles"),    # singles only (hidden 1.0–1.5, naked 2.3)
    (4.0, "subsets"),    # locked candidates, pairs, triples, x-wing, swordfish (2.6–3.9)
    (6.5, "patterns"),   # wings, quads, jellyfish, uniqueness, BUG, colouring (4.0–6.4)
    (8.5, "chains"),     # chains, cycles, static and cell / house forcing chains (6.5–8.4)
    (float("inf"), "forcing"),  # dynamic and nested forcing chains, trial, brutal (8.5 and up)
)
GRADE_NAMES = tuple(name for _, name in GRADES)


def grade(er: float) -> str:
    """singles / subsets / patterns / chains / forcing from ER (bands in ``GRADES``)."""
    for bound, name in GRADES:
        if er < bound:
            return name
    return GRADES[-1][1]


# (upper ER bound, difficulty): the steps JSON's three coarse difficulty classes (TECHNIQUES.md,
# "Wave 3"), each a run of grades: easy the patterns a player spots in the grid (singles to
# wings, uniqueness and colouring), medium chains and static forcing chains, difficult the
# dynamic and nested forcing chains (where the seed's engine guessed or read the solution).
DIFFICULTY_BANDS: tuple[tuple[float, str], ...] = (
    (6.5, "easy"),
    (8.5, "medium"),
    (float("inf"), "difficult"),
)


def difficulty(er: float) -> str:
    """easy / medium / difficult from ER (bands in ``DIFFICULTY_BANDS``)."""
    for bound, name in DIFFICULTY_BANDS:
        if er < bound:
            return name
    return DIFFICULTY_BANDS[-1][1]


def difficulty_bands() -> str:
    """The bands in words: 'easy below 6.5, medium 6.5 to 8.4, difficult 8.5 and up'."""
    parts, low = [], None
    for bound, name in DIFFICULTY_BANDS:
        if low is None:
            parts.append(f"{name} below {bound:.1f}")
        elif bound == float("inf"):
            parts.append(f"{name} {low:.1f} and up")
        else:
            parts.append(f"{name} {low:.1f} to {bound - 0.1:.1f}")
        low = bound
    return ", ".join(parts)


def parse_range(text: str) -> tuple[float, float]:
    """'7.0-8.5' -> (7.0, 8.5); '8' -> (8.0, 8.0); '7.5-' or '-3' open ends."""
    lo, sep, hi = text.partition("-")
    try:
        low = float(lo) if lo.strip() else 0.0
        high = (float(hi) if hi.strip() else float("inf")) if sep else low
    except ValueError:
        raise ValueError(f"a rating range is LOW-HIGH, e.g. 7.0-8.5, not {text!r}") from None
    if high < low:
        raise ValueError(f"empty rating range {text!r}")
    return low, high
