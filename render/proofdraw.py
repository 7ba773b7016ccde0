"""Drawing a forcing step's proof (STEPS_JSON.md ``proof``; RENDERING.md wave 2).

A proof is drawn on the grid before the step, in the roles of
``explainer.model.roles``: the branch's assumption (a thick ring, in the branch's
tint when there are several), each fact ``implied-true`` (filled disk) or
``implied-false`` (struck ring), each implication an arrow (frame role
``implies``) from the true fact that rules a candidate out, the end
(``contradiction``: the emptied cell, the house left without a place, the
value twice; or the shared ``conclusion``). A fact needing no arrow says its
reason another way: a cell's last candidate stands beside the struck rings of
its cell, a house's last place gets the house dotted, a fact of a technique
applied inside the branch (dynamic) gets that technique's houses dotted (the
locking house), a nested fact gets frames of its own.

The step's own frame shows the whole proof when it is one short branch;
otherwise it shows the roles (assumptions, ends, what is removed) and the facts
the end rests on nearest to it (``needed``, read back from the end) as far as
``LIMIT`` facts and ``ARROWS`` arrows allow, so every mark leads to the end its
caption names; ``plan`` gives the sub-frames: each branch cut into parts of at
most ``LIMIT`` facts and ``ARROWS`` new arrows, the facts of earlier parts kept
faint (the legend: "faint: stated in an earlier frame"); after a part, the
frames of the nested proofs it asserts.

No gap (issue 41): every fact a sub-frame states comes with its reasons drawn
on that frame or stated in an earlier frame of the same proof, at every level:
parts follow proof order, a fact after its premises. A nested proof's
conclusion is said with its reason ('supposing r1c7=2 leads to a
contradiction'), its proof in frames one level down (``grounded``).

Levels of detail (``Part.level``; the exporters write the frames up to a
depth): level 1 is what the end rests on (``needed``: the end's facts, their
premises and theirs down to the assumption or a nested proof's conclusion)
when that is fewer frames than every fact, else every fact (then level 2 adds
nothing); level 2 every fact; the frames of a nested proof are one level below
the part asserting it. Names do not depend on the depth drawn: the first
level's frames come first (``a``, ``b`` …), every fact's after them.
Suffixes keep file order equal to proof order for any number of frames:
letters at the top level (``a`` … ``z``, or ``aa`` … when there are more
than 26), digits one level down (``c1``, ``c2`` … or ``c01`` …), letters
again below (``c1a``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from explainer.model import proofwords
from explainer.model.i18n import notation, sentence
from explainer.model.proof import Branch, Proof, ProofFact
from explainer.model.state import AnyState

from . import shapes
from .routing import Obstacles, Point
from .shapes import Shape

Cand = tuple[int, int, int]  # (row, col, value)
Number = int | tuple[int, int] | None  # a step's number (a first–last range for several), None: unknown

LIMIT = 8   # facts per sub-frame: its caption stays within the caption lines at a legible size
ARROWS = 5  # new arrows per sub-frame: no fan of arrows hiding each other
ALL = 1_000_000  # a depth that draws every level

WORDS = {
    "en": {"branch": "Branch {i} of {k}", "part": "part {j} of {p}", "continued": "(continued)",
           "why": "Why {f}", "within": "inside {at}",
           "overview": " Proof: {k} branches, drawn in frames {first}–{last}.",
           "overview_one": " Proof drawn in frames {first}–{last}.",
           "overview_single": " Proof drawn in frame {first}.",
           "chain_overview": " What the end rests on: frames {first}–{last}.",
           "chain_overview_single": " What the end rests on: frame {first}.",
           "every": " Every fact: frames {first}–{last}.",
           "main_chain": "what the end rests on",
           "where": ": frames {first}–{last}", "where_one": ": frame {first}"},
    "fr": {"branch": "Branche {i} sur {k}", "part": "partie {j} sur {p}", "continued": "(suite)",
           "why": "Pourquoi {f}", "within": "dans {at}",
           "overview": " Preuve : {k} branches, détaillées dans les images {first} à {last}.",
           "overview_one": " Preuve détaillée dans les images {first} à {last}.",
           "overview_single": " Preuve détaillée dans l'image {first}.",
           "chain_overview": " Ce sur quoi repose la fin : images {first} à {last}.",
           "chain_overview_single": " Ce sur quoi repose la fin : image {first}.",
           "every": " Tous les faits : images {first} à {last}.",
           "main_chain": "ce sur quoi repose la fin",
           "where": " : images {first} à {last}", "where_one": " : image {first}"},
}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


# ---- the frames of a proof ----------------------------------------------------------

@dataclass
class Part:
    """One sub-frame: facts ``lo`` … ``hi - 1`` of branch ``branch`` of ``proof`` (part
    ``j`` of ``p`` of that branch). A nested proof's parts have ``outer``: the part and
    the fact of the outer branch they prove. A part of what the end rests on has
    ``chain``, those facts (``needed``): ``lo`` … ``hi - 1`` are then positions in it.
    ``level``: its level of detail (1: the first sub-frames of a step)."""

    proof: Proof
    branch: int
    lo: int
    hi: int
    j: int
    p: int
    outer: tuple[Part, int] | None = None
    children: list[Part] = field(default_factory=list)
    suffix: str = ""
    level: int = 1
    chain: tuple[int, ...] = ()
    proved_in: dict[int, Part] = field(default_factory=dict)  # a nested fact -> the part whose children prove it

    @property
    def facts(self) -> tuple[ProofFact, ...]:
        return self.proof.branches[self.branch].facts

    @property
    def new_facts(self) -> list[int]:
        """The facts this part adds, in proof order (indices into the branch's facts)."""
        return list(self.chain[self.lo:self.hi]) if self.chain else list(range(self.lo, self.hi))

    @property
    def at_end(self) -> bool:
        """Whether the part reaches its branch's end (draws it, says it)."""
        return self.hi >= (len(self.chain) if self.chain else len(self.facts))


def needs_subframes(proof: Proof | None, limit: int = LIMIT) -> bool:
    """More than one branch, a branch too long for one frame, or a nested proof to draw."""
    if proof is None:
        return False
    if len(proof.branches) > 1:
        return True
    b = proof.branches[0]
    return len(_cuts(b, limit)) > 1 or any(f.rule == "step" and f.step is not None and f.step.proof is not None
                                            for f in b.facts)


def _arrows(branch: Branch, i: int) -> int:
    """How many arrows fact ``i`` draws (a peer from another cell: one)."""
    f = branch.facts[i]
    if f.rule != "peer":
        return 0
    return sum(1 for j in f.premises if 0 <= j < len(branch.facts) and
               tuple(branch.facts[j].fact[:2]) != tuple(f.fact[:2]))


def _cuts(branch: Branch, limit: int = LIMIT, arrows_of: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """[lo, hi) of each part of a branch: at most ``limit`` facts and ``ARROWS`` arrows each
    (fact 0, the assumption, is on every part). ``arrows_of``: the arrows of each position
    when the positions are not the branch's facts (a main chain's)."""
    arrows_at = arrows_of if arrows_of is not None else [_arrows(branch, i) for i in range(len(branch.facts))]
    k = len(arrows_at)
    out = []
    lo, facts, arrows = 1, 0, 0
    for i in range(1, k):
        a = arrows_at[i]
        if facts and (facts + 1 > limit or arrows + a > ARROWS):
            out.append((lo, i))
            lo, facts, arrows = i, 0, 0
        facts += 1
        arrows += a
    out.append((lo, k))
    return out


def main_chain(branch: Branch) -> list[int]:
    """The facts from the assumption (0) to the branch's end, one premise after the other:
    from the end, each step back goes to the premise derived last (the longest way from the
    assumption), so the chain is the branch's longest line of reasoning."""
    facts = branch.facts
    depth = [0] * len(facts)
    for i in range(1, len(facts)):
        depth[i] = 1 + max((depth[j] for j in facts[i].premises if 0 <= j < i), default=-1)
    ends = [j for j in (*branch.end.premises, *branch.end.conclusion) if 0 < j < len(facts)]
    if not ends:
        return [0]
    chain = [max(ends, key=lambda j: (depth[j], j))]
    while chain[-1] != 0:
        premises = [j for j in facts[chain[-1]].premises if 0 <= j < chain[-1]]
        if not premises:
            chain.append(0)  # a fact resting on the assumption alone
            break
        chain.append(max(premises, key=lambda j: (depth[j], j)))
    return chain[::-1]


def grounded(fact: ProofFact) -> bool:
    """Whether a fact's reason is said whole by its own words: a nested proof's conclusion
    ('supposing r1c7=2 leads to a contradiction'), whose proof has frames of its own one
    level down; any other fact rests on its premises, which a reader must have been told."""
    return fact.rule == "step" and fact.step is not None and fact.step.proof is not None


def needed(branch: Branch) -> list[int]:
    """The facts the branch's end rests on, in proof order, the assumption (0) first: the
    end's facts, then each one's premises, and theirs, down to the assumption or to a nested
    proof's conclusion (``grounded``). Drawn in this order, every fact comes after its
    reasons: no frame states a fact whose reason the reader has not been shown."""
    facts = branch.facts
    out: set[int] = set()
    stack = [j for j in (*branch.end.premises, *branch.end.conclusion) if 0 < j < len(facts)]
    while stack:
        k = stack.pop()
        if k in out:
            continue
        out.add(k)
        if not grounded(facts[k]):
            stack += [j for j in facts[k].premises if 0 < j < k]
    return [0, *sorted(out)]


def _needed_parts(proof: Proof, limit: int) -> list[Part]:
    """Each branch's ``needed`` facts cut into parts (``_cuts``): the first level of a proof
    whose every fact would take more frames."""
    out: list[Part] = []
    for i, b in enumerate(proof.branches):
        chain = tuple(needed(b))
        cuts = _cuts(b, limit, [_arrows(b, k) for k in chain])
        out += [Part(proof, i, lo, hi, j + 1, len(cuts), chain=chain) for j, (lo, hi) in enumerate(cuts)]
    return out


def _parts(proof: Proof, limit: int, outer: tuple[Part, int] | None = None, level: int = 1) -> list[Part]:
    out = []
    for i, b in enumerate(proof.branches):
        cuts = _cuts(b, limit)
        for j, (lo, hi) in enumerate(cuts):
            part = Part(proof, i, lo, hi, j + 1, len(cuts), outer, level=level)
            for k in range(lo, hi):
                f = b.facts[k]
                if f.rule == "step" and f.step is not None and f.step.proof is not None:
                    part.children += _parts(f.step.proof, limit, (part, k), level + 1)
            out.append(part)
    return out


def _token(i: int, count: int, depth: int) -> str:
    """The i-th (0-based) of ``count`` suffix tokens at nesting ``depth``: letters at even
    depths, digits at odd ones, all of one width so that names sort in order."""
    if depth % 2:
        return str(i + 1).zfill(len(str(count)))
    width = 1
    while 26 ** width < count:
        width += 1
    out = ""
    for _ in range(width):
        i, d = divmod(i, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[d] + out
    return out


def plan(proof: Proof | None, limit: int = LIMIT, depth: int = ALL) -> list[Part]:
    """The sub-frames of a proof up to level ``depth`` in file order, each with its
    ``suffix`` (the same whatever the depth) and ``level``."""
    if proof is None or not needs_subframes(proof, limit) or depth < 1:
        return []
    full = _parts(proof, limit)
    top: list[Part] = []
    first = _needed_parts(proof, limit)
    if len(first) < len(full):  # the end rests on fewer facts: those first, every fact one level down
        top = first
        holder = {(part.branch, k): part for part in full for k in part.new_facts}
        for part in top:  # a nested fact's frames are the every-fact part's children
            part.proved_in = {k: holder[(part.branch, k)] for k in part.new_facts if (part.branch, k) in holder}

        def deeper(parts: list[Part]) -> None:
            for part in parts:
                part.level += 1
                deeper(part.children)
        deeper(full)
    out: list[Part] = []

    def name(parts: list[Part], prefix: str, nesting: int) -> None:
        for i, part in enumerate(parts):
            part.suffix = prefix + _token(i, len(parts), nesting)
            if part.level <= depth:
                out.append(part)
            name(part.children, part.suffix, nesting + 1)

    name(top + full, "", 0)
    return out


def span(parts: list[Part], number: Number) -> tuple[str, str]:
    """('17a', '17f'): the first and last frame names of some parts."""
    k = number[0] if isinstance(number, tuple) else number
    at = "" if k is None else k
    return f"{at}{parts[0].suffix}", f"{at}{parts[-1].suffix}"


def descendants(part: Part) -> list[Part]:
    out = []
    for c in part.children:
        out += [c] + descendants(c)
    return out


def nested_frames(part: Part, k: int, depth: int = ALL) -> list[Part]:
    """The frames proving nested fact ``k`` of a part (its children, with theirs) drawn up to
    level ``depth``."""
    out = []
    for c in part.proved_in.get(k, part).children:
        if c.outer is not None and c.outer[1] == k:
            out += [x for x in [c] + descendants(c) if x.level <= depth]
    return out


# ---- captions -------------------------------------------------------------------------

def part_caption(part: Part, n: int, lang: str, number: Number = None, depth: int = ALL) -> str:
    """What a sub-frame shows, for a learner: where it is in the proof, the assumption, the
    facts it adds with their reasons, and the end when it is there (frames of nested proofs
    are named when they are drawn, up to level ``depth``)."""
    w = words(lang)
    proof, b = part.proof, part.proof.branches[part.branch]
    head = w["branch"].format(i=part.branch + 1, k=len(proof.branches)) if len(proof.branches) > 1 else ""
    if part.chain:
        main = w["main_chain"]
        head = f"{head}, {main}" if head else main[0].upper() + main[1:]
    if part.p > 1:
        pt = w["part"].format(j=part.j, p=part.p)
        head = f"{head}, {pt}" if head else sentence(pt)
    if part.outer is not None:
        outer_part, k = part.outer
        f = outer_part.facts[k].fact
        why = w["why"].format(f=proofwords.fact_text(f))
        k0 = number[0] if isinstance(number, tuple) else number
        at = w["within"].format(at=f"{'' if k0 is None else k0}{outer_part.suffix}")
        head = f"{why} ({at})" + (f", {head[0].lower()}{head[1:]}" if head else "")
    def where(i: int) -> str:
        kids = nested_frames(part, i, depth)
        if not kids:
            return ""
        first, last = span(kids, number)
        return w["where"].format(first=first, last=last) if first != last else w["where_one"].format(first=first)

    told = shown(b)
    lines = [text for _, text in proofwords.fact_lines(b, [i for i in part.new_facts if i in told], n, lang, where)]
    text = (head + " — " if head else "") + proofwords.suppose_line(b, lang)
    if part.j > 1:
        text = text[:-1] + " " + w["continued"] + "."
    if lines:
        text += f" {proofwords.words(lang)['then']} " + ", ".join(lines) + "."
    if part.at_end:
        text += " " + proofwords.end_line(b, n, lang)
        so = proofwords.so_line(proof, lang)
        if so:
            text += " " + so
    return notation(text, lang)


def shown(branch: Branch) -> set[int]:
    return set(proofwords.shown_facts(branch))


def overview_words(proof: Proof, parts: list[Part], number: Number, lang: str) -> str:
    """' Proof drawn in frames 17a–17f.' (added to the step's own caption): the top-level
    frames of ``parts`` (a plan up to some depth); the main chain's, then every fact's."""
    w = words(lang)
    top = [p for p in parts if p.outer is None]
    chain = [p for p in top if p.chain]
    every = [p for p in top if not p.chain]
    out = ""
    if chain:
        first, last = span(chain, number)
        out = w["chain_overview" if first != last else "chain_overview_single"].format(first=first, last=last)
        if every:
            first, last = span(every, number)
            out += w["every"].format(first=first, last=last)
    elif every:
        first, last = span(every, number)
        key = "overview" if len(proof.branches) > 1 else "overview_one" if first != last else "overview_single"
        out = w[key].format(k=len(proof.branches), first=first, last=last)
    return out


# ---- shapes ---------------------------------------------------------------------------

def _tint(proof: Proof, i: int) -> tuple[int | None, str]:
    """(group, palette key) of branch ``i``'s assumption."""
    if len(proof.branches) > 1:
        return i, f"tint{i % 6}"
    return None, "assume"


def fact_shapes(Shape: type[shapes.Shape], fact: Sequence[int], assume: bool, group: int | None = None,
                colour: str = "", faint: bool = False) -> list[shapes.Shape]:
    """A fact's marks: an assumption (thick ring and its truth), a true fact (disk), a false
    one (struck ring)."""
    r, c, v, t = fact
    if assume:
        key = colour or "assume"
        return [Shape("assumption", "disk" if t else "struck-ring", r, c, v, colour=key, group=group, faint=faint,
                      truth=bool(t)),
                Shape("assumption", "thick", r, c, v, colour=key, group=group, faint=faint, truth=bool(t))]
    if t:
        return [Shape("implied-true", "disk", r, c, v, colour="proof_true", faint=faint)]
    return [Shape("implied-false", "struck-ring", r, c, v, colour="proof_false", faint=faint)]


def end_shapes(Shape: type[shapes.Shape], branch: Branch) -> list[shapes.Shape]:
    e = branch.end
    if e.kind == "cell" and e.cell is not None:
        return [Shape("contradiction", "square", e.cell[0], e.cell[1], colour="contradiction")]
    if e.kind == "house" and e.house is not None:
        return [Shape("contradiction", "thick", house=(e.house[0], e.house[1]), value=e.value, colour="contradiction")]
    if e.kind == "twice":
        return [Shape("contradiction", "halo", r, c, e.value, colour="contradiction") for r, c in e.cells]
    if e.kind == "conclusion":
        return [Shape("conclusion", "halo", *branch.facts[j].fact[:3], colour="conclusion")
                for j in e.conclusion if 0 <= j < len(branch.facts)]
    return []


def _keep_clear(obstacles: Obstacles, pts: Sequence[Point], k: int) -> None:
    """Later arrows keep off this one (away from its ends, where arrows meet)."""
    from .routing import LIGHT, sample

    a, b = pts[0], pts[-1]
    for i, (x, y) in enumerate(sample(pts, 1)):
        if i % 2 == 0 and min((x - a[0]) ** 2 + (y - a[1]) ** 2, (x - b[0]) ** 2 + (y - b[1]) ** 2) > 0.35 ** 2:
            obstacles.add(x, y, 0.035, 0.035, LIGHT, ("arrow", k, i))


def _house_of_fact(n: int, branch: Branch, i: int) -> tuple[str, int] | None:
    f = branch.facts[i]
    prem = [branch.facts[j].fact for j in f.premises if 0 <= j < len(branch.facts)]
    return proofwords.common_house(n, [(f.fact[0], f.fact[1])] + [(p[0], p[1]) for p in prem])


def _sweeps(facts: Sequence[ProofFact], pairs: list[tuple[int, int]]) -> list[tuple[int, int, tuple[Cand, ...]]]:
    """The arrows of ``pairs`` (premise, fact), a true value's removals of its own digit
    along its row or column merged into one arrow per side: it runs from the value to the
    farthest of them over the others (the same digit sits at the same spot of every cell,
    so they lie on its line), instead of parallel arrows stacked in one line. Each arrow
    comes with the candidates it passes over."""
    far: dict[tuple[int, int, bool], tuple[int, int, int]] = {}  # (premise, axis, side) -> distance, fact, order
    passed: dict[tuple[int, int, bool], list[Cand]] = {}
    out: dict[int, tuple[int, int, tuple[Cand, ...]]] = {}
    for order, (j, k) in enumerate(pairs):
        p, f = facts[j].fact, facts[k].fact
        axis = 0 if p[0] == f[0] else 1 if p[1] == f[1] else None
        if not p[3] or f[3] or p[2] != f[2] or axis is None:
            out[order] = (j, k, ())
            continue
        d = f[1 - axis] - p[1 - axis]
        key = (j, axis, d > 0)
        passed.setdefault(key, []).append((f[0], f[1], f[2]))
        if key not in far or abs(d) > far[key][0]:
            far[key] = (abs(d), k, far[key][2] if key in far else order)
    for key, (_, k, order) in far.items():
        out[order] = (key[0], k, tuple(passed[key]))
    return [out[o] for o in sorted(out)]


def branch_shapes(n: int, proof: Proof, i: int, lo: int, hi: int, state: AnyState, obstacles: Obstacles | None,
                  skip: AbstractSet[tuple[int, int]] = frozenset(), faint_before: bool = True,
                  extra_faint: tuple[Sequence[int], ...] = ()) -> list[shapes.Shape]:
    """Facts ``lo`` … ``hi - 1`` of branch ``i`` with their arrows and reasons, the facts
    before ``lo`` faint (``faint_before``), the premises the new arrows start from, the
    end when ``hi`` reaches it; none drawn in ``skip`` cells (the step places there).
    ``extra_faint``: facts of an outer branch kept faint (a nested proof's context)."""
    facts = proof.branches[i].facts
    return _facts_shapes(n, proof, i, range(lo, hi), lambda k: facts[k].premises,
                         range(1, lo) if faint_before else (), hi >= len(facts), state, obstacles, skip, extra_faint)


def needed_shapes(n: int, proof: Proof, i: int, chain: Sequence[int], lo: int, hi: int, state: AnyState,
                  obstacles: Obstacles | None, skip: AbstractSet[tuple[int, int]] = frozenset(),
                  faint_before: bool = True) -> list[shapes.Shape]:
    """Positions ``lo`` … ``hi - 1`` of ``chain``, the facts of branch ``i`` its end rests on
    (``needed``), each with its reasons (the arrows from its premises), the facts of the
    chain before ``lo`` faint (stated in the frames before), the end when ``hi`` reaches it."""
    facts = proof.branches[i].facts
    return _facts_shapes(n, proof, i, chain[lo:hi], lambda k: facts[k].premises,
                         chain[1:lo] if faint_before else (), hi >= len(chain), state, obstacles, skip)


def _facts_shapes(n: int, proof: Proof, i: int, new: Sequence[int], premises: Callable[[int], Sequence[int]],
                  faint: Sequence[int], end: bool, state: AnyState, obstacles: Obstacles | None,
                  skip: AbstractSet[tuple[int, int]] = frozenset(),
                  extra_faint: tuple[Sequence[int], ...] = ()) -> list[shapes.Shape]:
    """Facts ``new`` of branch ``i`` with their reasons and the arrows from their
    ``premises`` (a peer's removal seen from another cell), the ``faint`` facts, the end
    when ``end``; none drawn in ``skip`` cells."""
    from .routing import route
    from .shapes import Shape, spot

    b = proof.branches[i]
    facts = b.facts
    group, colour = _tint(proof, i)
    out: list[shapes.Shape] = []
    arrows: list[shapes.Shape] = []
    drawn: dict[int, bool] = {0: False}  # fact -> faint
    pairs: list[tuple[int, int]] = []  # premise, fact: an arrow
    for k in new:
        drawn[k] = False
        f = facts[k]
        a_key = tuple(f.fact[:3])
        if f.rule == "house":
            h = _house_of_fact(n, b, k)
            if h is not None:
                out.append(Shape("implied-true", "dotted", house=h, colour="proof_true"))
        elif f.rule == "step" and f.step is not None and f.step.proof is None:
            for h in f.step.houses:  # the locking houses of a technique applied in the branch
                out.append(Shape("implied-false", "dotted", house=(h[0], h[1]), colour="proof_false"))
        if f.rule != "peer":
            continue
        for j in premises(k):
            if not 0 <= j < len(facts) or j == k:
                continue
            if tuple(facts[j].fact[:2]) == a_key[:2]:
                continue  # inside one cell: the disk beside the struck ring says it
            drawn[j] = False
            pairs.append((j, k))
    for j, k, passed in _sweeps(facts, pairs):
        p_key, a_key = tuple(facts[j].fact[:3]), tuple(facts[k].fact[:3])
        pts: tuple[tuple[float, float], ...]
        if obstacles is None:  # the words alone are wanted (the legend names the arrows): not routed
            pts = (spot(n, *p_key), spot(n, *a_key))
        else:
            pts = route(spot(n, *p_key), spot(n, *a_key), obstacles, {p_key, a_key, *passed})
        arrows.append(Shape("implies", "arrow", points=pts,
                            colour="proof_true" if facts[k].fact[3] else "proof_false", directed=True))
        if obstacles is not None:
            _keep_clear(obstacles, pts, len(arrows))
    if end:
        for j in list(b.end.premises) + list(b.end.conclusion):
            if 0 <= j < len(facts):
                drawn[j] = False
    for k in faint:
        drawn.setdefault(k, True)
    for k, is_faint in sorted(drawn.items()):
        if k >= len(facts):
            continue
        fact = tuple(facts[k].fact)
        r, c = fact[:2]
        if state.values[r * n + c] or (r, c) in skip:
            continue
        out += fact_shapes(Shape, fact, k == 0 or facts[k].rule == "assume", group, colour, is_faint)
    for outer_fact in extra_faint:
        r, c = outer_fact[:2]
        if not state.values[r * n + c]:
            out += fact_shapes(Shape, outer_fact, False, faint=True)
    if end:
        out += end_shapes(Shape, b)
    return arrows + out


def fact_cands(shapes: Sequence[Shape]) -> set[tuple[int, int, int]]:
    """The candidates some proof shapes draw on (plain digits are not drawn under them)."""
    return {(s.row, s.col, s.value) for s in shapes if s.value and s.kind not in ("thick", "halo", "dotted")}


def part_shapes(n: int, part: Part, state: AnyState, obstacles: Obstacles | None) -> list[Shape]:
    """A sub-frame's proof shapes: its facts, arrows and end; a nested proof's frame also
    keeps faint the outer facts its proof rests on."""
    if part.chain:
        return needed_shapes(n, part.proof, part.branch, part.chain, part.lo, part.hi, state, obstacles)
    context: tuple[Sequence[int], ...] = ()
    if part.outer is not None:
        outer, k = part.outer
        ob = outer.facts
        f = ob[k]
        context = tuple(tuple(ob[j].fact) for j in (0, *f.premises) if 0 <= j < len(ob))
    return branch_shapes(n, part.proof, part.branch, part.lo, part.hi, state, obstacles, extra_faint=context)


def whole_shapes(n: int, proof: Proof, state: AnyState, obstacles: Obstacles | None,
                 skip: AbstractSet[tuple[int, int]] = frozenset()) -> list[Shape]:
    """A one-branch proof drawn whole on the step's own frame."""
    b = proof.branches[0]
    return branch_shapes(n, proof, 0, 1, len(b.facts), state, obstacles, skip)


def summary_shapes(n: int, proof: Proof, state: AnyState, obstacles: Obstacles | None,
                   skip: AbstractSet[tuple[int, int]] = frozenset()) -> list[Shape]:
    """A one-branch proof too large for one frame, summarised on the step's own frame: the
    facts its end rests on nearest the end (``needed``, read back from the end: the end's
    facts, their reasons, theirs …) as many as ``LIMIT`` facts and ``ARROWS`` arrows allow,
    so that every mark drawn leads to the end the caption names. The assumption and the end
    are the step's own roles. A proof of several branches shows their assumptions and ends
    only (a branch's facts in the proof's colours would read as another branch's
    assumption): its first sub-frames show each branch."""
    if len(proof.branches) != 1:
        return []
    b = proof.branches[0]
    facts = b.facts
    keep: list[int] = []
    used = 0
    queue = [j for j in (*b.end.premises, *b.end.conclusion) if 0 < j < len(facts)]
    while queue and len(keep) < LIMIT:
        k = queue.pop(0)
        if k in keep:
            continue
        a = _arrows(b, k)
        if used + a > ARROWS:
            continue
        keep.append(k)
        used += a
        if not grounded(facts[k]):
            queue += [j for j in facts[k].premises if 0 < j < k]
    if not keep:
        return []
    chosen = set(keep) | {0}
    out = _facts_shapes(n, proof, 0, sorted(keep), lambda k: [j for j in facts[k].premises if j in chosen], (),
                        True, state, obstacles, skip)
    # the assumption and the end are drawn by the step's roles, in the same styles
    return [s for s in out if s.role not in ("assumption", "contradiction", "conclusion")]
