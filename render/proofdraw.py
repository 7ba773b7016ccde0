"""Drawing a forcing step's proof (STEPS_JSON.md ``proof``; RENDERING.md wave 2).

A proof is drawn on the grid before the step:

- the assumption of a branch: a candidate on a thick-ringed disk (role
  ``assume``; a disk if it is assumed true, a struck ring if assumed false);
- each fact: a true fact on a filled disk (role ``proof_true``), a false fact
  on a white disk with a ring, struck through (role ``proof_false``);
- each implication: an arrow (role ``implies``) from every premise in
  another cell to the fact, routed around the digits and off the earlier
  arrows; tone ``true`` / ``false`` by the fact, ``step`` (dashed) when a
  technique applied inside the branch gives it (a premise in the fact's own
  cell needs no arrow: the true disk beside the struck ring says it);
- the end: the emptied cell (role ``contradiction``, kind ``square``), the
  house left without a place (kind ``house``), the value twice (kind
  ``ring`` on both), or the shared conclusion (role ``conclusion``, a ring).

Several branches (cell, house, double kinds) each get their tint
(``tone`` ``b0``, ``b1`` …). The step's own frame shows the whole proof when
it has one branch of at most ``LIMIT`` facts; otherwise it shows the
assumptions (tinted by branch) and the conclusion, and ``proof_scenes``
returns the sub-frames: one per branch, a long branch cut into parts of at
most ``LIMIT`` facts (each part repeats the assumption and the premises its
arrows start from, so every arrow of a part is readable on its own).
"""
from __future__ import annotations

from typing import Any

from explainer.grid import value_char

LIMIT = 8  # facts per frame: a part's caption stays within the caption lines at a legible size
SUFFIXES = "abcdefghijklmnopqrstuvwxyz"

WORDS = {
    "en": {
        "branch": "Branch {i} of {k}", "part": "part {j} of {p}",
        "suppose": "Suppose {f}.", "suppose_not": "Suppose {c} is not {v}.",
        "then": "Then", "peer_same": "{f} ({g} sees it)", "peer_cell": "{f} ({g} in that cell)",
        "cell": "{f} (last candidate of the cell)", "house": "{f} (last place for {v} in {h})",
        "step": "{f} (by {t} in this branch)", "assume": "{f}",
        "nested": "{f} (assumed here, it leads to a contradiction)",
        "end_cell": "{c} would have no candidate left: contradiction.",
        "end_house": "{v} would have no place left in {h}: contradiction.",
        "end_twice": "{v} would be twice in one house ({a} and {b}): contradiction.",
        "end_conclusion": "This branch gives {f}, as every other branch does.",
        "end_solved": "The grid fills up without a contradiction.",
        "continued": "(continued)",
        "row": "row {k}", "col": "column {k}", "box": "box {k}",
        "shared": "Every case gives {f}.",
        "overview": " Proof: {k} branches, drawn in frames {first}–{last}.",
        "overview_one": " Proof drawn in frames {first}–{last}.",
        "and": "and",
        "so_not": "So {c} is not {v}.", "so_is": "So {c} is {v}.",
    },
    "fr": {
        "branch": "Branche {i} sur {k}", "part": "partie {j} sur {p}",
        "suppose": "Supposons {f}.", "suppose_not": "Supposons que {c} ne soit pas {v}.",
        "then": "Alors", "peer_same": "{f} ({g} le voit)", "peer_cell": "{f} ({g} dans cette case)",
        "cell": "{f} (dernier candidat de la case)", "house": "{f} (dernière place du {v} dans {h})",
        "step": "{f} (par {t} dans cette branche)", "assume": "{f}",
        "nested": "{f} (supposé ici, il mène à une contradiction)",
        "end_cell": "{c} n'aurait plus aucun candidat : contradiction.",
        "end_house": "le {v} n'aurait plus de place dans {h} : contradiction.",
        "end_twice": "le {v} serait deux fois dans une même unité ({a} et {b}) : contradiction.",
        "end_conclusion": "Cette branche donne {f}, comme toutes les autres.",
        "end_solved": "La grille se remplit sans contradiction.",
        "continued": "(suite)",
        "row": "la ligne {k}", "col": "la colonne {k}", "box": "le bloc {k}",
        "shared": "Tous les cas donnent {f}.",
        "overview": " Preuve : {k} branches, détaillées dans les images {first} à {last}.",
        "overview_one": " Preuve détaillée dans les images {first} à {last}.",
        "and": "et",
        "so_not": "Donc {c} n'est pas {v}.", "so_is": "Donc {c} est {v}.",
    },
}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def fact_text(fact: tuple) -> str:
    r, c, v, t = fact
    return f"r{r + 1}c{c + 1}{'=' if t else '≠'}{value_char(v)}"


def cell_text(cell: tuple) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def house_text(house: tuple, lang: str) -> str:
    kind, k = house
    return words(lang)[kind if kind in ("row", "col", "box") else "row"].format(k=k + 1)


def _house_of(n: int, cells: list[tuple[int, int]]) -> tuple[str, int] | None:
    import math

    m = math.isqrt(n)
    if len({r for r, _ in cells}) == 1:
        return ("row", cells[0][0])
    if len({c for _, c in cells}) == 1:
        return ("col", cells[0][1])
    boxes = {(r // m) * m + c // m for r, c in cells}
    if len(boxes) == 1:
        return ("box", boxes.pop())
    return None


def needs_subframes(proof: Any, limit: int = LIMIT) -> bool:
    """Does the proof need sub-frames (more than one branch, or a branch too long)?"""
    return proof is not None and (len(proof.branches) > 1 or any(len(b.facts) > limit for b in proof.branches))


def parts(proof: Any, limit: int = LIMIT) -> list[tuple[int, int, int, int, int]]:
    """(branch, first fact, end fact, part number, parts in branch) of every sub-frame."""
    out = []
    for i, b in enumerate(proof.branches):
        k = len(b.facts)
        # fact 0 is the assumption, shown on every part
        body = max(1, k - 1)
        p = max(1, -(-body // limit))
        size = -(-body // p)
        for j in range(p):
            lo = 1 + j * size
            hi = min(k, lo + size) if j < p - 1 else k
            out.append((i, lo, hi, j + 1, p))
    return out


def fact_line(branch: Any, i: int, n: int, lang: str) -> str:
    """One fact, with its reason, for a learner."""
    from techniques import title as technique_name

    w = words(lang)
    f = branch.facts[i]
    ft = fact_text(f.fact)
    prem = [branch.facts[j].fact for j in f.premises if 0 <= j < len(branch.facts)]
    if f.rule == "peer":
        trues = [p for p in prem if p[3]]
        g = trues[0] if trues else (prem[0] if prem else None)
        if g is None:
            return ft
        key = "peer_cell" if g[:2] == f.fact[:2] else "peer_same"
        return w[key].format(f=ft, g=fact_text(g))
    if f.rule == "cell":
        return w["cell"].format(f=ft)
    if f.rule == "house":
        h = _house_of(n, [f.fact[:2]] + [p[:2] for p in prem])
        return w["house"].format(f=ft, v=value_char(f.fact[2]), h=house_text(h, lang) if h else "?")
    if f.rule == "step" and f.step is not None:
        if f.step.proof is not None:
            return w["nested"].format(f=ft)
        return w["step"].format(f=ft, t=technique_name(f.step.technique, lang))
    return ft


def end_line(branch: Any, lang: str) -> str:
    w = words(lang)
    e = branch.end
    if e.kind == "cell" and e.cell is not None:
        return w["end_cell"].format(c=cell_text(e.cell))
    if e.kind == "house" and e.house is not None:
        return w["end_house"].format(v=value_char(e.value), h=house_text(e.house, lang))
    if e.kind == "twice" and len(e.cells) == 2:
        return w["end_twice"].format(v=value_char(e.value), a=cell_text(e.cells[0]), b=cell_text(e.cells[1]))
    if e.kind == "conclusion":
        fs = [fact_text(branch.facts[j].fact) for j in e.conclusion if 0 <= j < len(branch.facts)]
        return w["end_conclusion"].format(f=", ".join(fs))
    if e.kind == "solved":
        return w["end_solved"]
    return ""


def suppose_line(branch: Any, lang: str) -> str:
    w = words(lang)
    r, c, v, t = branch.assume
    if t:
        return w["suppose"].format(f=f"r{r + 1}c{c + 1}={value_char(v)}")
    return w["suppose_not"].format(c=f"r{r + 1}c{c + 1}", v=value_char(v))


def part_caption(proof: Any, part: tuple[int, int, int, int, int], n: int, lang: str) -> str:
    w = words(lang)
    i, lo, hi, j, p = part
    b = proof.branches[i]
    head = w["branch"].format(i=i + 1, k=len(proof.branches)) if len(proof.branches) > 1 else ""
    if p > 1:
        head = f"{head}, {w['part'].format(j=j, p=p)}" if head else w["part"].format(j=j, p=p)[0].upper() + \
            w["part"].format(j=j, p=p)[1:]
    lines = [fact_line(b, k, n, lang) for k in range(lo, hi)]
    text = (head + " — " if head else "") + suppose_line(b, lang)
    if j > 1:
        text = text[:-1] + " " + w["continued"] + "."
    if lines:
        text += f" {w['then']} " + ", ".join(lines) + "."
    if hi >= len(b.facts):
        text += " " + end_line(b, lang)
        if proof.kind == "contradiction" and b.end.is_contradiction:
            r, c, v, t = b.assume
            text += " " + w["so_not" if t else "so_is"].format(c=f"r{r + 1}c{c + 1}", v=value_char(v))
    return text


# ---- shapes ---------------------------------------------------------------------------

def _shown(proof: Any, part: tuple | str | None) -> list[tuple[int, set[int], set[int], bool]]:
    """(branch, facts drawn, facts whose arrows are drawn, end drawn) per branch shown."""
    if part is None:  # overview: the assumptions only
        return [(i, {0}, set(), False) for i in range(len(proof.branches))]
    if part == "all":
        return [(i, set(range(len(b.facts))), set(range(1, len(b.facts))), True)
                for i, b in enumerate(proof.branches)]
    assert isinstance(part, tuple)
    i, lo, hi, _, _ = part
    b = proof.branches[i]
    arrows = set(range(lo, hi))
    drawn = {0} | arrows
    for k in arrows:
        drawn |= {j for j in b.facts[k].premises if 0 <= j < len(b.facts)}
    end = hi >= len(b.facts)
    if end:
        drawn |= {j for j in b.end.premises if 0 <= j < len(b.facts)}
        drawn |= {j for j in b.end.conclusion if 0 <= j < len(b.facts)}
    return [(i, drawn, arrows, end)]


def fact_cands(proof: Any, part: tuple | str | None) -> set[tuple[int, int, int]]:
    """The candidates a (part of a) proof draws on: plain candidates are not drawn under them."""
    out = set()
    for i, drawn, _, _ in _shown(proof, part):
        b = proof.branches[i]
        out |= {tuple(b.facts[j].fact[:3]) for j in drawn if j < len(b.facts)}
        out.add(tuple(b.assume[:3]))
    return out


def _fact_shapes(Shape: Any, fact: tuple, role_true: str, tone: str, assume: bool) -> list:
    r, c, v, t = fact
    if assume:
        out = [Shape("assume", "disk" if t else "ring", r, c, v, tone=tone)]
        if not t:
            out.append(Shape("assume", "strike", r, c, v, tone=tone))
        return out
    if t:
        return [Shape(role_true, "disk", r, c, v, tone=tone)]
    return [Shape("proof_false", "ring", r, c, v, tone=tone), Shape("proof_false", "strike", r, c, v, tone=tone)]


def overview_shapes(n: int, proof: Any, state: Any, obstacles: Any, skip: set | frozenset = frozenset()) -> list:
    """The assumptions of every branch, each in its branch's tint (none in ``skip`` cells:
    the cells the step places, where the big digit is)."""
    from .shapes import Shape

    out = []
    for i, b in enumerate(proof.branches):
        r, c = b.assume[:2]
        if state.values[r * n + c] or (r, c) in skip:
            continue
        out += _fact_shapes(Shape, tuple(b.assume), "proof_true", f"b{i}", True)
    return out


def _keep_clear(obstacles: Any, pts: tuple, k: int) -> None:
    """Later arrows keep off this one (away from its ends, where arrows meet)."""
    from .routing import LIGHT, sample

    a, b = pts[0], pts[-1]
    for i, (x, y) in enumerate(sample(pts, 1)):
        if i % 2 == 0 and min((x - a[0]) ** 2 + (y - a[1]) ** 2, (x - b[0]) ** 2 + (y - b[1]) ** 2) > 0.35 ** 2:
            obstacles.add(x, y, 0.035, 0.035, LIGHT, ("arrow", k, i))


def part_shapes(n: int, proof: Any, part: tuple | str, state: Any, obstacles: Any,
                skip: set | frozenset = frozenset()) -> list:
    """Facts, arrows and end of one part of a proof (``part`` from ``parts``, or the
    one-branch proof whole: ``(0, 1, len(facts), 1, 1)``); no fact drawn in ``skip``
    cells (those the step places: the big digit is there)."""
    from .routing import route
    from .shapes import Shape, spot

    tint = len(proof.branches) > 1
    out: list = []
    arrows: list = []
    for i, drawn, arrowed, end in _shown(proof, part):
        b = proof.branches[i]
        tone = f"b{i}" if tint else ""
        facts = b.facts
        for k in sorted(arrowed):
            f = facts[k]
            a_key = tuple(f.fact[:3])
            if f.rule == "step" and (f.step is None or f.step.proof is not None or len(f.premises) > 3):
                # a nested forcing chain (or a step resting on many facts) reads the branch's whole
                # state: arrows from every premise would hide the proof; the caption says why
                continue
            for j in f.premises:
                if not 0 <= j < len(facts) or j == k:
                    continue
                p_key = tuple(facts[j].fact[:3])
                if p_key[:2] == a_key[:2]:
                    continue  # inside one cell: the disk beside the struck ring says it (and the caption)
                pts = route(spot(n, *p_key), spot(n, *a_key), obstacles, {p_key, a_key})
                arrows.append(Shape("implies", "arrow", points=pts,
                                    tone="step" if f.rule == "step" else ("true" if f.fact[3] else "false")))
                _keep_clear(obstacles, pts, len(arrows))
        for k in sorted(drawn):
            if k >= len(facts):
                continue
            fact = tuple(facts[k].fact)
            r, c = fact[:2]
            if state.values[r * n + c] or (r, c) in skip:
                continue
            out += _fact_shapes(Shape, fact, "proof_true", tone, k == 0 or facts[k].rule == "assume")
        if end:
            e = b.end
            if e.kind == "cell" and e.cell is not None:
                out.append(Shape("contradiction", "square", e.cell[0], e.cell[1]))
            elif e.kind == "house" and e.house is not None:
                out.append(Shape("contradiction", "house", house=tuple(e.house), value=e.value))
            elif e.kind == "twice":
                for r, c in e.cells:
                    out.append(Shape("contradiction", "ring", r, c, e.value))
            elif e.kind == "conclusion":
                for j in e.conclusion:
                    if 0 <= j < len(facts):
                        r, c, v, _ = facts[j].fact
                        out.append(Shape("conclusion", "ring", r, c, v))
    return arrows + out
