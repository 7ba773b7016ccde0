"""Sudoku Explainer's chaining producers, one record per producer, in each flavour's order.

SE rates every step from 6.5 up with one chaining engine run in several modes
(``explainer.core.sechain``; the finders and their steps, proofs and texts are
``techniques.sechains``): forcing chains and cycles, Nishio, multiple, dynamic,
dynamic (+) and the nested levels. SukakuExplainer 1.15.10 runs its level 4 with
four nesting limits where classic SE 1.2.1.3 has levels 4 and 5; each producer
here is one of SE's, named as SE names it (the level-4 variants by their nesting
limit, since SE gives them one name), so the SE order tries them one at a time,
as SE does, and ``--only`` or a step's record can name any of them.

Kept apart from the registry's chains: SE's engine is its own search (its
implication order, its Dynamic Plus rules, its nesting, the chain it keeps
among equals), which SE's ratings rest on; the registry's forcing chains
(``techniques.forcing``) search and rate otherwise. Only these records live here.
"""
from __future__ import annotations

from explainer.core import sechain
from explainer.model.technique import StepKind, Technique

from .. import sechains

# SE's chaining step kinds, one record each (shared by the producers that take them)
KINDS = {name: sechains.kind(name) for name in sechains.KINDS}

# SE's producer (``sechain.PRODUCERS``'s index) -> its name
NAMES = {
    sechain.FORCING: "forcing chains and cycles",
    sechain.NISHIO: "nishio forcing chains",
    sechain.MULTIPLE: "multiple forcing chains",
    sechain.DYNAMIC: "dynamic forcing chains",
    sechain.DYNAMIC_PLUS: "dynamic forcing chains (+)",
    sechain.NESTED_FC: "nested forcing chains (+ forcing chains)",
    sechain.NESTED_MFC: "nested forcing chains (+ multiple forcing chains)",
    sechain.NESTED_DFC: "nested forcing chains (+ dynamic forcing chains)",
    sechain.NESTED_DFC + 1: "nested forcing chains (+ dynamic forcing chains, nesting 1)",
    sechain.NESTED_DFC + 2: "nested forcing chains (+ dynamic forcing chains, nesting 2)",
    sechain.NESTED_DFC + 3: "nested forcing chains (+ dynamic forcing chains, nesting 3)",
    sechain.CLASSIC_PLUS: "dynamic forcing chains (+)",
    sechain.CLASSIC_PLUS + 1: "nested forcing chains (+ forcing chains)",
    sechain.CLASSIC_PLUS + 2: "nested forcing chains (+ multiple forcing chains)",
    sechain.CLASSIC_PLUS + 3: "nested forcing chains (+ dynamic forcing chains)",
    sechain.CLASSIC_PLUS + 4: "nested forcing chains (+ dynamic forcing chains (+ forcing chains))",
}


def _kinds(producer: int) -> tuple[StepKind, ...]:
    """The step kinds a producer's hints take (``sechains.step_name``'s choice by mode)."""
    mode = sechain.PRODUCERS[producer]
    if mode.level >= 2:
        names: tuple[str, ...] = (sechains.NESTED,)
    elif mode.level == 1:
        names = (sechains.DYNAMIC_PLUS,)
    elif mode.nishio:
        names = (sechains.NISHIO,)
    elif mode.dynamic:
        names = (sechains.DYNAMIC,)
    elif mode.multiple:
        names = (sechains.CELL_FORCING, sechains.REGION_FORCING)
    else:
        names = (sechains.CYCLE, sechains.FORCING_CHAIN)
    return tuple(KINDS[n] for n in names)


def records(classic: bool) -> list[Technique]:
    """The flavour's chaining producers in SE's order (Aligned Triplet Exclusion goes after
    the first: the SE producer list puts it there), one technique record each."""
    return [Technique(NAMES[p], sechains.finder((p,)), _kinds(p))
            for p in (sechain.CLASSIC if classic else sechain.SUKAKU)]

# the names of SE's chaining producers (the SE lists' other producers are its patterns)
CHAINING = frozenset(NAMES.values())
