"""Roles players know, read from a step's fields (RENDERING.md, wave 2).

A step says what matters (cells, marked candidates, links, houses, detail);
this module only sorts what it says into the finer roles a player expects
to see, as *tones* on the scene's shapes:

- chain nodes ``on`` / ``off``, alternating along the chain's links
  (HoDoKu / SudokuWiki colouring);
- a wing's ``pivot`` apart from its pincers (pivot = ``cells``, pincers =
  ``cells_alt`` when the technique gives them; otherwise the cell of
  ``cells`` that sees all the others), and the wing's links;
- the W-wing's strong link and the linking digit in both end cells;
- fish ``base`` / ``cover`` lines and ``fin`` (detail keys ``base``,
  ``cover``, ``fin`` when recorded, else read from the pattern);
- each ALS with its own tint (``als_b``), its restricted common (``rc``) and
  Z values (``z``) marked;
- the values of a tuple marked (``tuple``);
- the empty rectangle's row and column (``line``).

Pure Python; every derivation falls back to drawing nothing more.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Cand = tuple[int, int, int]
Cell = tuple[int, int]

CHAINS = ("chain", "loop", "empty rectangle", "aic", "nice loop", "x chain", "xy chain", "grouped chain")
WINGS = ("y wing", "ny wing", "xy wing", "xyz wing", "wxyz wing")
FISH = ("x wing", "swordfish", "jellyfish", "finned x wing", "finned swordfish", "finned jellyfish",
        "sashimi x wing", "sashimi swordfish", "sashimi jellyfish")
TUPLES = ("naked tuple", "hidden tuple", "naked pair", "naked triple", "hidden pair", "hidden triple")


@dataclass
class Roles:
    """What the scene adds to a step's own fields."""

    cand_tone: dict[Cand, str] = field(default_factory=dict)        # marked / marked_alt candidates
    cell_tone: dict[Cell, str] = field(default_factory=dict)        # cells / cells_alt
    house_tone: dict[int, str] = field(default_factory=dict)        # index in step.houses
    marks: list[tuple[Cand, str, str]] = field(default_factory=list)  # (cand, role, tone): derived marks
    houses: list[tuple[tuple[str, int], str]] = field(default_factory=list)  # derived houses
    links: list[tuple[str, Cand, Cand, str]] = field(default_factory=list)  # (role, a, b, tone)
    legend: dict[str, str] = field(default_factory=dict)            # word key -> shown


def _sees(n: int, a: Cell, b: Cell) -> bool:
    m = math.isqrt(n)
    return a != b and (a[0] == b[0] or a[1] == b[1] or (a[0] // m == b[0] // m and a[1] // m == b[1] // m))


def _cands(state: Any, r: int, c: int) -> list[int]:
    n = state.geo.n
    mask = state.cand[r * n + c]
    return [v for v in range(1, n + 1) if mask >> (v - 1) & 1]


def chain_tones(step: Any) -> dict[Cand, str]:
    """on/off for each node of the step's links: along a chain, neighbours alternate.

    An end of the chain whose only link is strong is ``off`` (if it is false,
    its partner is true), one whose only link is weak is ``on``; a loop starts
    ``off`` at its first strong link."""
    adj: dict[Cand, list[tuple[Cand, str]]] = {}
    for kind, links in (("s", step.strong_links), ("w", step.weak_links)):
        for a, b in links:
            a, b = tuple(a), tuple(b)
            adj.setdefault(a, []).append((b, kind))
            adj.setdefault(b, []).append((a, kind))
    tone: dict[Cand, str] = {}
    # techniques list links in chain order: the chain starts at the first node of its
    # first strong link (an AIC) or of its first weak link (an empty rectangle)
    first = [tuple(ls[0][0]) for ls in (step.strong_links, step.weak_links) if ls]
    ends = [a for a in first if len(adj[a]) == 1]
    starts = ends + sorted(a for a, nb in adj.items() if len(nb) == 1)
    if not starts and step.strong_links:
        starts = [tuple(step.strong_links[0][0])]
    starts += sorted(adj)
    for s in starts:
        if s in tone:
            continue
        nb = adj[s]
        tone[s] = "off" if len(nb) == 1 and nb[0][1] == "s" or len(nb) != 1 else "on"
        stack = [s]
        while stack:
            x = stack.pop()
            for y, _ in adj[x]:
                if y not in tone:
                    tone[y] = "on" if tone[x] == "off" else "off"
                    stack.append(y)
    return tone


def derive(state: Any, step: Any) -> Roles:
    """The finer roles of one step (never raises: a failed derivation draws nothing more)."""
    out = Roles()
    try:
        _derive(state, step, out)
    except Exception:  # pragma: no cover - a technique's odd fields must never break a frame
        return Roles()
    return out


def _derive(state: Any, step: Any, out: Roles) -> None:
    n = state.geo.n
    tech = step.technique
    detail = dict(step.detail)
    marked = {tuple(x) for x in step.marked}
    elim = {tuple(x) for x in step.eliminate}

    # chains: on / off along the links
    if (step.strong_links or step.weak_links) and tech != "medusa":
        tones = chain_tones(step)
        for cand in marked | {tuple(x) for x in step.marked_alt}:
            if cand in tones:
                out.cand_tone[cand] = tones[cand]
        if any(t == "off" for t in out.cand_tone.values()):
            out.legend["onoff"] = "1"

    if tech in TUPLES and step.cells:
        # the tuple's values: every candidate of its cells that stays
        for r, c in step.cells:
            for v in _cands(state, r, c):
                if (r, c, v) not in elim and (r, c, v) not in marked:
                    out.marks.append(((r, c, v), "marked", "tuple"))
        out.legend["tuple"] = "1"

    if tech in WINGS and step.cells:
        cells = [tuple(x) for x in step.cells]
        if step.cells_alt:
            pivots = cells
        else:
            pivots = [a for a in cells if all(_sees(n, a, b) for b in cells if b != a)]
            if not pivots or len(pivots) == len(cells):
                pivots = []
        for a in pivots:
            out.cell_tone[a] = "pivot"
        pincers = [tuple(x) for x in step.cells_alt] or [a for a in cells if a not in pivots]
        if pivots:
            out.legend["pivot"] = "1"
        if pivots and not (step.strong_links or step.weak_links):
            # the wing's links: each pincer value shared with a pivot it sees
            for p in pincers:
                for q in pivots:
                    if not _sees(n, p, q):
                        continue
                    for v in set(_cands(state, *p)) & set(_cands(state, *q)):
                        if (p[0], p[1], v) in elim or (q[0], q[1], v) in elim:
                            continue
                        if (p[0], p[1], v) in marked:  # the eliminated value: not a link of the wing
                            continue
                        out.links.append(("weak_link", (q[0], q[1], v), (p[0], p[1], v), "wing"))

    if tech == "w wing" and len(step.cells) == 2:
        link_v = detail.get("link")
        removed_v = detail.get("value")
        ws = sorted(marked)
        if link_v:
            a, b = (tuple(x) for x in step.cells)
            if len(ws) == 2:
                out.links.append(("strong_link", ws[0], ws[1], "w"))
            for end in (a, b):
                for x in ws:
                    if _sees(n, end, x[:2]):
                        out.links.append(("weak_link", (end[0], end[1], link_v), x, "w"))
                out.marks.append(((end[0], end[1], link_v), "marked", "w"))
                if removed_v:
                    out.marks.append(((end[0], end[1], removed_v), "marked_alt", "z"))
            out.legend["wwing"] = "1"

    if tech == "als":
        for cell in step.cells_alt:
            out.cell_tone[tuple(cell)] = "als_b"
        for cand in step.marked:
            out.cand_tone[tuple(cand)] = "rc"
        for cand in step.marked_alt:
            out.cand_tone[tuple(cand)] = "rc"
        z = detail.get("value")
        if z:
            for cell in list(step.cells) + list(step.cells_alt):
                r, c = cell
                if z in _cands(state, r, c) and (r, c, z) not in elim:
                    out.marks.append(((r, c, z), "marked_alt", "z"))
        out.legend["als"] = "1"

    if tech in FISH:
        _fish(state, step, detail, out)

    if tech == "empty rectangle" and step.houses:
        kind, k = step.houses[0]
        if kind == "box":
            m = math.isqrt(n)
            r0, c0 = m * (k // m), m * (k % m)
            inside = [x for x in marked if r0 <= x[0] < r0 + m and c0 <= x[1] < c0 + m]
            outside = [x for x in marked if x not in inside]
            best = None
            for row in range(r0, r0 + m):
                for col in range(c0, c0 + m):
                    if all(x[0] == row or x[1] == col for x in inside):
                        score = sum(1 for x in outside if x[0] == row or x[1] == col)
                        if best is None or score > best[0]:
                            best = (score, row, col)
            if best is not None:
                out.houses.append((("row", best[1]), "line"))
                out.houses.append((("col", best[2]), "line"))
                out.legend["line"] = "1"


def _house_list(value: Any) -> list[tuple[str, int]] | None:
    if isinstance(value, (list, tuple)) and value and all(isinstance(h, (list, tuple)) and len(h) == 2
                                                          for h in value):
        return [(str(h[0]), int(h[1])) for h in value]
    return None


def _fish(state: Any, step: Any, detail: dict, out: Roles) -> None:
    """Base lines, cover lines and fin: from ``detail`` (``base_lines`` /
    ``cover_lines`` / ``fin``, or ``base`` / ``cover`` as house lists) when the
    technique records them, else read from the pattern (base lines = the step's
    row or column houses, cover lines = the other lines through its body)."""
    houses = [tuple(h) for h in step.houses]
    base = _house_list(detail.get("base_lines")) or _house_list(detail.get("base"))
    cover = _house_list(detail.get("cover_lines")) or _house_list(detail.get("cover"))
    fin = detail.get("fin")
    orient = detail.get("base") if isinstance(detail.get("base"), str) else None
    if base is None:
        lines = [h for h in houses if h[0] in ("row", "col")]
        base = [h for h in lines if orient is None or h[0] == orient]
    if cover is None and base:
        kind = "col" if base[0][0] == "row" else "row"
        body = [tuple(x) for x in step.marked]
        ks = sorted({x[1] if kind == "col" else x[0] for x in body})
        cover = [(kind, k) for k in ks]
    cover = cover or []
    for i, h in enumerate(houses):
        if h in base:
            out.house_tone[i] = "base"
        elif h in cover:
            out.house_tone[i] = "cover"
        elif h[0] == "box":
            out.house_tone[i] = "fin"
    for h in cover:
        if h not in houses:
            out.houses.append((h, "cover"))
    fins = [tuple(x) for x in step.marked_alt]
    if isinstance(fin, (list, tuple)) and fin and all(isinstance(x, (list, tuple)) and len(x) == 3 for x in fin):
        fins = [tuple(x) for x in fin]
    for x in fins:
        out.cand_tone[x] = "fin"
    out.legend["fish"] = "fin" if fins else "1"
