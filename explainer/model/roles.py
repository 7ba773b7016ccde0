"""What a frame must show, as the finder states it (STEPS_JSON.md ``roles``).

A finder knows why each cell, candidate, house and link of its step matters;
it says so with ``Role`` values on ``Explanation.roles``, and the renderer
draws each role in its own style without ever reasoning about technique
names. ``VOCABULARY`` is the one list of role names; ``group`` numbers the
sets, petals, colours and branches that need distinct tints.

>>> from explainer.model.grid import geometry
>>> geo = geometry(9)
>>> on_cells("pivot", geo, [40])
Role('pivot', cells=(Cell(4, 4),))
>>> str(on_cands("set", geo, [(1, 3), (2, 3)], group=2))
'set#2 3r1c2 3r1c3'
>>> str(link("strong", (4, 4, 3), (4, 7, 3), directed=True))
'link 3r5c5=>3r5c8'

The helpers take what finders hold (cell indexes, (cell, value) pairs,
house indexes); ``chain`` turns a chain's nodes into its on/off candidates
and its directed links, in-cell links included.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import values
from .grid import Geometry, bits
from .values import Candidate, Cell, House

Cand = tuple[int, int, int]

# name -> what it names (the steps JSON documents the same list)
VOCABULARY: dict[str, str] = {
    "placed": "a value the step places",
    "removed": "a candidate the step removes",
    "house": "a house the step reasons in",
    "reason": "a solved cell whose value rules candidates out",
    "cells": "the cells of the pattern",
    "value": "a candidate that makes the pattern (a tuple's values, a fish's body, locked candidates)",
    "pivot": "a wing's pivot (the cell that sees the others)",
    "pincer": "a wing's pincer",
    "base": "a fish's base line, or the house a value is locked in",
    "cover": "a fish's cover line, or a house that covers others",
    "fin": "a fish's fin (candidates) and its box",
    "line": "the row and column an empty rectangle's box is confined to",
    "floor": "a deadly pattern's corners holding only its two values",
    "roof": "a deadly pattern's corners holding more",
    "extra": "a candidate beyond a deadly pattern (a BUG's or a unique rectangle's extra value)",
    "cycle": "a deadly pattern's cells in loop order (a unique loop): drawn as a closed band through them",
    "z": "the value removed, where it lies in the pattern",
    "set": "an almost locked set (group k: its own tint)",
    "restricted-common": "a value linking two sets that can be in only one of them",
    "petal": "a death blossom's petal (group k: the stem value it answers)",
    "stem": "a death blossom's stem cell, and each stem value (group k: its petal)",
    "colour": "a colouring's candidates (group 0: colour A, group 1: colour B)",
    "on": "a chain candidate that is true when the chain's start is",
    "off": "a chain candidate that is false when the chain's start is",
    "link": "a strong or weak link between two candidates (directed when read one way)",
    "grouped": "the cells of a chain's group node (its candidates in one box and line, read as one)",
    "assumption": "a forcing step's assumption (group k: its branch)",
    "implied-true": "a fact a branch makes true",
    "implied-false": "a fact a branch makes false",
    "contradiction": "where a branch breaks (an emptied cell or house, a value twice)",
    "conclusion": "what a branch concludes, as every other branch does",
}
LINK_KINDS = ("strong", "weak")


@dataclass(frozen=True)
class Role:
    """One role and what it applies to: cells, candidates, houses, or a link
    (``kind`` strong / weak from ``source`` to ``target``)."""

    role: str
    cells: tuple[Cell, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    houses: tuple[House, ...] = ()
    group: int | None = None
    kind: str = ""
    source: Candidate | None = None
    target: Candidate | None = None
    directed: bool = False

    def __post_init__(self) -> None:
        if self.role not in VOCABULARY:
            raise ValueError(f"unknown role {self.role!r} (known: {', '.join(VOCABULARY)})")
        if self.role == "link" and (self.kind not in LINK_KINDS or self.source is None or self.target is None):
            raise ValueError("a link role needs kind strong or weak, a source and a target")
        # the value types (a role is made for every step built: empty fields left as they are),
        # written to the instance's dict as ``object.__setattr__`` would, without its protocol
        d = self.__dict__
        cells = d["cells"]
        if cells or type(cells) is not tuple:
            d["cells"] = values.cells(cells)
        cands = d["candidates"]
        if cands or type(cands) is not tuple:
            d["candidates"] = values.candidates(cands)
        houses = d["houses"]
        if houses or type(houses) is not tuple:
            d["houses"] = values.houses(houses)
        source = d["source"]
        if source is not None and type(source) is not Candidate:
            d["source"] = Candidate(*source)
        target = d["target"]
        if target is not None and type(target) is not Candidate:
            d["target"] = Candidate(*target)

    @property
    def name(self) -> str:
        """The role with its group: 'set#2', 'pivot'."""
        return self.role if self.group is None else f"{self.role}#{self.group}"

    def __repr__(self) -> str:
        args = [repr(self.role)]
        for f in ("cells", "candidates", "houses"):
            if getattr(self, f):
                args.append(f"{f}={getattr(self, f)!r}")
        if self.group is not None:
            args.append(f"group={self.group}")
        if self.role == "link":
            args += [f"kind={self.kind!r}", f"source={self.source!r}", f"target={self.target!r}"]
            if self.directed:
                args.append("directed=True")
        return f"Role({', '.join(args)})"

    def __str__(self) -> str:
        if self.role == "link":
            sign = "=" if self.kind == "strong" else "-"
            arrow = ">" if self.directed else ""
            return f"{self.name} {self.source}{sign}{arrow}{self.target}"
        parts = [str(x) for x in (*self.cells, *self.candidates, *self.houses)]
        return " ".join([self.name] + parts)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role}
        if self.group is not None:
            d["group"] = self.group
        if self.cells:
            d["cells"] = [list(x) for x in self.cells]
        if self.candidates:
            d["candidates"] = [list(x) for x in self.candidates]
        if self.houses:
            d["houses"] = [list(x) for x in self.houses]
        if self.role == "link":
            assert self.source is not None and self.target is not None
            d.update(kind=self.kind, **{"from": list(self.source), "to": list(self.target)})
            if self.directed:
                d["directed"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Role:
        return cls(d["role"], cells=tuple(Cell(*x) for x in d.get("cells", ())),
                   candidates=tuple(Candidate(*x) for x in d.get("candidates", ())),
                   houses=tuple(House(*x) for x in d.get("houses", ())), group=d.get("group"),
                   kind=d.get("kind", ""), source=Candidate(*d["from"]) if "from" in d else None,
                   target=Candidate(*d["to"]) if "to" in d else None, directed=bool(d.get("directed", False)))


# ---- helpers the finders use -------------------------------------------------------------

def _made(role: str, cells: tuple[Cell, ...] = (), candidates: tuple[Candidate, ...] = (),
          houses: tuple[House, ...] = (), group: int | None = None) -> Role:
    """``Role(role, cells=..., candidates=..., houses=..., group=...)`` for fields that are tuples
    of the value types already (the helpers below make them so): the role's name checked as
    ``Role`` checks it, the fields set without converting them again (a role is made for every
    step built, several a step). Equal to the role ``Role`` makes of the same fields."""
    if role not in VOCABULARY:
        raise ValueError(f"unknown role {role!r} (known: {', '.join(VOCABULARY)})")
    out = object.__new__(Role)
    out.__dict__.update(role=role, cells=cells, candidates=candidates, houses=houses, group=group, kind="",
                        source=None, target=None, directed=False)
    return out


def on_cells(role: str, geo: Geometry, cells: Iterable[int], group: int | None = None) -> Role:
    """A role on cells given by index (sorted, each once)."""
    n = geo.n
    return _made(role, cells=tuple([Cell(c // n, c % n) for c in sorted(set(cells))]), group=group)


def on_cands(role: str, geo: Geometry, pairs: Iterable[tuple[int, int]], group: int | None = None) -> Role:
    """A role on (cell index, value) pairs (sorted, each once)."""
    n = geo.n
    return _made(role, candidates=tuple(sorted({Candidate(c // n, c % n, v) for c, v in pairs})), group=group)


def on_houses(role: str, geo: Geometry, houses: Iterable[int], group: int | None = None) -> Role:
    """A role on houses given by index (in the order given, each once)."""
    keys: list[House] = []
    for h in houses:
        key = House(*geo.house_key(h))
        if key not in keys:
            keys.append(key)
    return _made(role, houses=tuple(keys), group=group)


def on(role: str, *, cells: Iterable[tuple[int, int]] = (), candidates: Iterable[Cand] = (),
       houses: Iterable[tuple[str, int]] = (), group: int | None = None) -> Role:
    """A role on coordinates (JSON's: (row, col), (row, col, value), (kind, k))."""
    return _made(role, cells=tuple(sorted({Cell(*x) for x in cells})),
                 candidates=tuple(sorted({Candidate(*x) for x in candidates})),
                 houses=tuple(dict.fromkeys(House(*h) for h in houses)), group=group)


def mask_cells(mask: int) -> list[int]:
    """Cell indexes of a bit mask."""
    return list(bits(mask))


def set_roles(geo: Geometry, group: int, cells: int, role: str = "set") -> Role:
    """An almost locked set (cells as a bit mask) in its own tint."""
    return on_cells(role, geo, mask_cells(cells), group)


def set_link(geo: Geometry, value: int, a: int, b: int, kind: str = "weak", group: int | None = None,
             directed: bool = False) -> Role:
    """The link between two sets on a value (``a``, ``b``: the cells holding it in each, as
    bit masks): between their two nearest candidates of that value."""
    n = geo.n
    best = min((abs(x // n - y // n) + abs(x % n - y % n), x, y) for x in mask_cells(a) for y in mask_cells(b))
    _, x, y = best
    return link(kind, (x // n, x % n, value), (y // n, y % n, value), directed=directed, group=group)


def link(kind: str, a: Cand, b: Cand, directed: bool = False, group: int | None = None) -> Role:
    return Role("link", kind=kind, source=Candidate(*a), target=Candidate(*b), directed=directed, group=group)


def links(kind: str, pairs: Iterable[tuple[Cand, Cand]], directed: bool = False,
          group: int | None = None) -> tuple[Role, ...]:
    return tuple(link(kind, a, b, directed, group) for a, b in pairs)


def wing_links(geo: Geometry, cand: Sequence[int], cells: Sequence[int], z: int) -> tuple[Role, ...]:
    """A wing's weak links: between every two of its cells (pivot first) sharing a value other
    than ``z``, on each such value. Those two cells see each other, so that value fills at most
    one of them: the links show why the cells, without z, would need more values than they hold."""
    n = geo.n
    out = []
    for i, p in enumerate(cells):
        for q in cells[i + 1:]:
            if not geo.peer_mask[p] >> q & 1:
                continue
            shared = cand[p] & cand[q] & ~(1 << (z - 1))
            for w in range(1, n + 1):
                if shared >> (w - 1) & 1:
                    out.append(link("weak", (p // n, p % n, w), (q // n, q % n, w)))
    return tuple(out)


def chain(nodes: Sequence[Any], kinds: str, first_on: bool, closed: bool = False) -> tuple[Role, ...]:
    """A chain read from its first node: ``kinds[i]`` ('=' strong, '-' weak) links node i to
    node i + 1 (to node 0 for the last one of a ``closed`` loop). A node is a candidate, or a
    group of candidates (a grouped chain: the link joins their nearest members). Along the
    chain the truth alternates: a strong link from an off node leads to an on node, a weak
    link from an on node to an off one; the links are directed the way the chain reads,
    in-cell links included."""
    groups = [[tuple(x) for x in node] if node and not isinstance(node[0], int) else [tuple(node)]
              for node in nodes]
    on_: list[Cand] = []
    off: list[Cand] = []
    truth = first_on
    for group in groups:
        (on_ if truth else off).extend(group)
        truth = not truth
    out: list[Role] = []
    if on_:
        out.append(on("on", candidates=on_))
    if off:
        out.append(on("off", candidates=off))
    for k, kind in enumerate(kinds):
        if k + 1 >= len(groups) and not closed:
            break
        a, b = _nearest(groups[k], groups[(k + 1) % len(groups)])
        out.append(link("strong" if kind == "=" else "weak", a, b, directed=True))
    return tuple(out)


def _nearest(a: list[Any], b: list[Any]) -> tuple[Cand, Cand]:
    _, x, y = min((abs(x[0] - y[0]) + abs(x[1] - y[1]), x, y) for x in a for y in b)
    return x, y


def proof_roles(proof: Any) -> tuple[Role, ...]:
    """A forcing or trial step's roles: each branch's assumption and where it breaks (group:
    the branch, when there are several). The facts in between are drawn from the proof."""
    out: list[Role] = []
    several = len(proof.branches) > 1
    for k, b in enumerate(proof.branches):
        g = k if several else None
        out.append(on("assumption", candidates=[tuple(b.assume[:3])], group=g))
        e = b.end
        if e.kind == "cell" and e.cell is not None:
            out.append(on("contradiction", cells=[tuple(e.cell)], group=g))
        elif e.kind == "house" and e.house is not None:
            out.append(on("contradiction", houses=[tuple(e.house)], group=g))
        elif e.kind == "twice":
            out.append(on("contradiction", candidates=[(r, c, e.value) for r, c in e.cells], group=g))
    return tuple(out)


def completed(roles: Sequence[Role], place: Sequence[Cand], eliminate: Sequence[Cand]) -> tuple[Role, ...]:
    """The roles with ``placed`` and ``removed`` added from the step's changes when missing."""
    out = [r for r in roles if r.cells or r.candidates or r.houses or r.role == "link"]
    names = {r.role for r in out}
    if place and "placed" not in names:
        out.append(_made("placed", candidates=values.candidates(place)))
    if eliminate and "removed" not in names:
        out.append(_made("removed", candidates=values.candidates(eliminate)))
    return tuple(out)


def legacy(step: Any) -> tuple[Role, ...]:
    """Roles read from the older highlight fields, for steps that state none (a steps JSON
    written before roles existed, a step built by hand): each field in one generic role."""
    out: list[Role] = []
    if step.houses:
        out.append(on("house", houses=step.houses))
    if step.cells:
        out.append(on("cells", cells=step.cells))
    if step.cells_alt:
        out.append(on("pincer", cells=step.cells_alt))
    marked = set(step.marked) - set(step.eliminate)
    if marked:
        out.append(on("value", candidates=marked))
    alt = set(step.marked_alt) - set(step.eliminate) - marked
    if alt:
        out.append(on("z", candidates=alt))
    out += links("strong", step.strong_links)
    out += links("weak", step.weak_links)
    if getattr(step, "proof", None) is not None:
        out += proof_roles(step.proof)
    return completed(out, step.place, step.eliminate)


def roles_of(step: Any) -> tuple[Role, ...]:
    """What a frame of ``step`` shows: its stated roles, else those of its older fields."""
    return step.roles if getattr(step, "roles", ()) else legacy(step)
