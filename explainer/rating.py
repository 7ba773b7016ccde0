"""Step and puzzle ratings on Sudoku Explainer's (SE's) scale: ER / EP / ED.

A step's rating is its kind's **base** (the ``StepKind.weight`` of its
registry record, the one place a kind's base lives) plus an **addition**
read from what the step records, following SE's published rules
(SukakuExplainer wiki, "Difficulty ratings in Sudoku Explainer v1.2.1"):

- singles: a hidden single in a box is 1.2, in a row or column 1.5, the
  last empty cell of a house 1.0; a naked single 2.3;
- locked candidates: pointing (the box confines) 2.6, claiming 2.8;
- subsets: naked pair / triple / quad 3.0 / 3.6 / 5.0, hidden 3.4 / 4.0 / 5.4;
- chains and cycles: an x-chain (one digit) 6.5, a y-chain (only bivalue
  cells) 6.6, a chain mixing both 7.0, plus SE's length addition;
- forcing chains: a branch following singles from an assumption is SE's
  dynamic forcing chain (base 8.5, the record's weight, like ``trial``); cell
  or house forcing +0.3, branches that also apply locked candidates (SE's
  "dynamic (+)") +0.6, each nesting level +1.0 (SE's nested forcing chains,
  9.9 and up), plus the length addition on the proof's size.

SE's length addition (``length_addition``): +0.1 each time the chain's
length passes the next threshold of 4, 6, 8, 12, 16, 24, 32, 48, 64, 96 …
(each threshold is the one before times 3/2, then 4/3, alternately).
A chain's length here is the number of candidates it links (its nodes).

A step name without a rule gets its record's weight: a kind added later is
rated from its record alone, and gets the chain or forcing addition as soon
as its name is listed in ``CHAINS`` or it records forcing detail
(``kind`` / ``level`` / ``dynamic`` / ``size``).

The puzzle's ratings (``Rating``): ER the hardest step, EP the hardest step
up to and including the first placement, ED the first step's rating
(SE's serate: the first step taken is the easiest one available, so ED
tells how hard it is to start). ``grade`` turns ER into a word a teacher
can use. This module is core: it never imports the registry.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .explanation import Explanation

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


# ---- the rules, by step name ---------------------------------------------------------------

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


def _finned(step: Explanation) -> float:
    return 0.1 if step.get("case") == 2 or step.get("sashimi") else 0.0  # sashimi


def _wing(step: Explanation) -> float:
    # an n-cell wing (base 4.6 for four cells, 0.2 above the three-cell XYZ-wing): +0.2 a cell more
    size = int(step.get("size", 3) or 3)
    return 0.2 * max(0, size - 3)


def _chain(step: Explanation) -> float:
    return chain_type_addition(step) + length_addition(nodes(step))


def _length_only(step: Explanation) -> float:
    return length_addition(nodes(step))


def forcing_addition(step: Explanation) -> float | None:
    """SE's forcing-chain addition from a step's proof facts, None if it records none.

    Relative to the record's base (8.5: singles followed from an assumption, SE's
    dynamic forcing chain): a cell or house forcing chain +0.3, branches that also
    apply locked candidates +0.6 (SE's "dynamic (+)"), each nesting level +1.0 (SE's
    nested forcing chains start near 10), plus the length addition on the proof size.
    """
    d = dict(step.detail)
    if not ({"kind", "level", "dynamic"} & d.keys()) and step.proof is None:
        return None
    kind = d.get("kind") or (step.proof.kind if step.proof is not None else "contradiction")
    level = int(d.get("level") or (step.proof.level if step.proof is not None else 0) or 0)
    dynamic = bool(d.get("dynamic", step.proof.dynamic if step.proof is not None else level > 0))
    add = (0.6 if dynamic else 0.0) + (0.3 if kind in ("cell", "house") else 0.0)
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


def _grouped_x_chain(step: Explanation) -> float:
    # an empty rectangle is a one-digit chain through a box group (our chain search finds it
    # so): SE makes this elimination only as an x-chain, 6.5 + length, the group one node
    length = step.get("length")
    return length_addition(int(length) + 1 if length is not None else nodes(step))


# Chain-like steps: base + SE's length addition on the candidates they link.
CHAINS = frozenset({
    "x chain", "xy chain", "remote pair", "grouped chain", "als chain", "medusa", "continuous loop",
})

RULES: dict[str, Callable[[Explanation], float]] = {
    "single position": _single_position,
    "hidden single": _single_position,
    "locked candidate": _locked,
    "naked tuple": _tuple(_NAKED),
    "hidden tuple": _tuple(_HIDDEN),
    "finned x wing": _finned,
    "finned swordfish": _finned,
    "finned jellyfish": _finned,
    "ny wing": _wing,
    "chain": _chain,
    "loop": _chain,
    "empty rectangle": _grouped_x_chain,
    "trial": _trial,
    "trial lucky": _trial,
    **{name: _length_only for name in CHAINS},
}

# The least addition a rule can give (the engine's easiest-step search reads it).
FLOOR: dict[str, float] = {"single position": -0.5, "hidden single": -0.5}


# What the rules add, in words (the README's rating table shows it).
_CHAIN_NOTE = "x-chain 6.5, y-chain 6.6, mixed 7.0; + length"
NOTES: dict[str, str] = {
    "single position": "box 1.2, row / column 1.5, last cell of a house 1.0",
    "hidden single": "box 1.2, row / column 1.5, last cell of a house 1.0",
    "locked candidate": "pointing 2.6, claiming 2.8",
    "naked tuple": "pair 3.0, triple 3.6, quad 5.0",
    "hidden tuple": "pair 3.4, triple 4.0, quad 5.4",
    "finned x wing": "sashimi +0.1",
    "finned swordfish": "sashimi +0.1",
    "finned jellyfish": "sashimi +0.1",
    "ny wing": "+0.2 a cell past four",
    "chain": _CHAIN_NOTE,
    "loop": "x-cycle 6.5, y-cycle 6.6, mixed 7.0; + length",
    "empty rectangle": "a grouped x-chain: + length",
    "trial": "+ length of its propagation (when recorded)",
    "trial lucky": "+ length of its propagation (when recorded)",
    **{name: "+ length" for name in CHAINS},
}
FORCING_NOTE = "cell / house +0.3, dynamic +0.6, nesting +1.0 a level; + length of the proof"


def note(name: str) -> str:
    """The rule of a step name in words ('' when its record's weight is its rating)."""
    if name in NOTES:
        return NOTES[name]
    return FORCING_NOTE if "forcing" in name else ""


def addition(step: Explanation) -> float:
    """What the step's own facts add to its kind's base."""
    rule = RULES.get(step.technique)
    if rule is not None:
        return rule(step)
    forcing = forcing_addition(step)
    if forcing is not None:
        return forcing
    return 0.0


def rate(step: Explanation, base: float) -> float:
    """The step's rating on SE's scale, its kind's base weight given (rounded to 0.1)."""
    return round(base + addition(step), 1)


def floor(name: str, base: float) -> float:
    """The least rating a step of this name can get (the base, or less for the singles)."""
    return round(base + FLOOR.get(name, 0.0), 1)


def rate_steps(steps: Iterable[Explanation], weights: Mapping[str, float],
               default: float | None = None) -> list[float]:
    """Each step's rating; a name missing from ``weights`` gets ``default`` (else the hardest weight)."""
    fallback = default if default is not None else max(weights.values(), default=10.0)
    return [rate(s, weights.get(s.technique, fallback)) for s in steps]


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


def puzzle_rating(steps: Sequence[Explanation], ratings: Sequence[float]) -> Rating:
    """ER / EP / ED of an explanation from its steps and their ratings (0 for no step)."""
    if not ratings:
        return Rating(0.0, 0.0, 0.0)
    first_place = next((i for i, s in enumerate(steps) if s.place), len(steps) - 1)
    return Rating(max(ratings), max(ratings[: first_place + 1]), ratings[0])


# ---- a grade a teacher understands -----------------------------------------------------------

# (upper ER bound, grade): what the hardest step asks of a solver.
GRADES: tuple[tuple[float, str], ...] = (
    (2.5, "easy"),       # singles only (hidden 1.0–1.5, naked 2.3)
    (4.0, "moderate"),   # locked candidates, pairs, triples, x-wing, swordfish (2.6–3.9)
    (6.5, "hard"),       # wings, quads, jellyfish, uniqueness, BUG, colouring (4.0–6.4)
    (8.5, "fiendish"),   # chains, cycles, static and cell / house forcing chains (6.5–8.4)
    (float("inf"), "extreme"),  # dynamic and nested forcing chains, trial, brutal (8.5 and up)
)
GRADE_NAMES = tuple(name for _, name in GRADES)


def grade(er: float) -> str:
    """easy / moderate / hard / fiendish / extreme from ER (bands in ``GRADES``)."""
    for bound, name in GRADES:
        if er < bound:
            return name
    return GRADES[-1][1]


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
