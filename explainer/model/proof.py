"""The proof a forcing step records: assumptions, implications, ends.

Mirrors ``proof`` in STEPS_JSON.md so that a checker can replay it and a
frame can draw it in order. A fact is ``(row, col, value, true)``: in this
branch the candidate is (``True``) or is not (``False``) the cell's value.
Each fact names the rule that yields it and the earlier facts of the same
branch it rests on (``premises``, written ``from`` in JSON).

Rules: ``assume`` (fact 0 of a branch), ``peer`` (false: a premise puts the
same value in a cell that sees it, or another value in the same cell),
``cell`` (true: every other candidate the cell had when the step began is
false), ``house`` (true: every other place of the value in a house is
false), ``step`` (a technique applied to the branch's state; ``step`` holds
that step, with its own proof when it is itself a forcing step).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .grid import value_char

Fact = tuple[int, int, int, bool]
RULES = ("assume", "peer", "cell", "house", "step")
KINDS = ("contradiction", "double", "cell", "house")


def fact_str(fact: Fact) -> str:
    """Community notation: ``r5c3=7`` (true) or ``r5c3<>7`` (false)."""
    r, c, v, t = fact
    return f"r{r + 1}c{c + 1}{'=' if t else '<>'}{value_char(v)}"


class Step(Protocol):
    """A technique applied in a branch (``ProofFact.step``): an ``Explanation``, which builds on
    this module; what a proof's readers (its words, its rating, its frames) read of it."""

    @property
    def technique(self) -> str: ...

    @property
    def houses(self) -> Sequence[tuple[str, int]]: ...

    @property
    def proof(self) -> Proof | None: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ProofFact:
    fact: Fact
    rule: str
    premises: tuple[int, ...] = ()
    step: Step | None = None

    def __str__(self) -> str:
        premises = f" from {','.join(map(str, self.premises))}" if self.premises else ""
        return f"{fact_str(self.fact)} ({self.rule}{premises})"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"fact": list(self.fact), "rule": self.rule}
        if self.premises:
            d["from"] = list(self.premises)
        if self.step is not None:
            d["step"] = self.step.to_dict()
        return d


@dataclass(frozen=True)
class BranchEnd:
    """How a branch ends: a contradiction (``cell``, ``house`` or ``twice``),
    a ``conclusion`` (indices of the shared facts) or ``solved``."""

    kind: str  # "cell" | "house" | "twice" | "conclusion" | "solved"
    premises: tuple[int, ...] = ()
    cell: tuple[int, int] | None = None
    house: tuple[str, int] | None = None
    value: int = 0
    cells: tuple[tuple[int, int], ...] = ()  # the two cells of "twice"
    conclusion: tuple[int, ...] = ()

    @property
    def is_contradiction(self) -> bool:
        return self.kind in ("cell", "house", "twice")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any]
        if self.kind == "cell":
            assert self.cell is not None
            d = {"contradiction": {"cell": list(self.cell)}}
        elif self.kind == "house":
            assert self.house is not None
            d = {"contradiction": {"house": list(self.house), "value": self.value}}
        elif self.kind == "twice":
            d = {"contradiction": {"twice": [list(c) for c in self.cells], "value": self.value}}
        elif self.kind == "conclusion":
            d = {"conclusion": list(self.conclusion)}
        elif self.kind == "solved":
            d = {"solved": True}
        else:
            raise ValueError(f"unknown branch end {self.kind!r}")
        if self.premises:
            d["from"] = list(self.premises)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BranchEnd:
        premises = tuple(d.get("from", ()))
        if "conclusion" in d:
            idx = d["conclusion"]
            return cls("conclusion", premises, conclusion=tuple(idx if isinstance(idx, list) else [idx]))
        if "solved" in d:
            return cls("solved", premises)
        con = d.get("contradiction") or {}
        if "cell" in con:
            r, c = con["cell"]
            return cls("cell", premises, cell=(r, c))
        if "house" in con:
            kind, k = con["house"]
            return cls("house", premises, house=(kind, k), value=con["value"])
        if "twice" in con:
            (r1, c1), (r2, c2) = con["twice"]
            return cls("twice", premises, cells=((r1, c1), (r2, c2)), value=con["value"])
        raise ValueError(f"unknown branch end {d!r}")


@dataclass(frozen=True)
class Branch:
    assume: Fact
    facts: tuple[ProofFact, ...]
    end: BranchEnd

    def to_dict(self) -> dict[str, Any]:
        return {"assume": list(self.assume), "facts": [f.to_dict() for f in self.facts], "end": self.end.to_dict()}


@dataclass(frozen=True)
class Proof:
    kind: str  # one of KINDS
    level: int
    branches: tuple[Branch, ...]
    dynamic: bool = False

    @property
    def size(self) -> int:
        """Number of facts over all branches (the proof's length)."""
        return sum(len(b.facts) for b in self.branches)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "level": self.level,
                             "branches": [b.to_dict() for b in self.branches]}
        if self.dynamic:
            d["dynamic"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], step_from_dict: Callable[[dict[str, Any]], Step]) -> Proof:
        branches = []
        for b in d["branches"]:
            facts = tuple(
                ProofFact(tuple(f["fact"]), f["rule"], tuple(f.get("from", ())),
                          step_from_dict(f["step"]) if "step" in f else None)
                for f in b["facts"])
            branches.append(Branch(tuple(b["assume"]), facts, BranchEnd.from_dict(b["end"])))
        return cls(d["kind"], d.get("level", 0), tuple(branches), bool(d.get("dynamic", False)))
