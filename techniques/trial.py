"""Trial (and trial lucky): assume each end of a strong link, follow singles.

Not a purist's technique; used only after everything else fails. For a
strong link C1 _ C2 (at least one is true), assume C1 on a copy of the
candidates and apply only single position and single candidate as long as
possible; do the same for C2.

- an assumption that ends in a contradiction (a cell without candidate, a
  house without a place for a value) is false, so the other end is true;
- an assumption that solves the whole grid is placed (trial lucky): true only
  because the puzzle has one solution, so it is a uniqueness step, and a
  guess the simplest order never takes (``Context.allows``: without it the
  other end is still tried for a contradiction);
- whatever both assumptions conclude (placements, eliminations) holds.

The propagation never reads the solution: it only sees the candidates.
Each candidate is propagated at most once per call (memo), so a call costs
about one propagation per candidate at the end of some strong link.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from explainer.model import proofwords, rating
from explainer.model.explanation import Cand, Explanation, cands
from explainer.model.grid import Geometry, bits, value_char
from explainer.model.i18n import LANGS, Agree, Cells, Value, Words, say
from explainer.model.proof import Branch, Proof
from explainer.model.roles import Role, link, proof_roles
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead, lead
from explainer.model.values import Candidate

from .implication import extract
from .links import links
from .uniqueness import ONE

CONTRADICTION = {
    "en": "Trial: {a} is {va} or {b} is {vb} (strong link). If {b} is not {vb}, {a} is {va}, and applying "
          "only singles from there leads to a contradiction: {why}. So {b} is {vb}.",
    "fr": "Essai : {a} vaut {va} ou {b} vaut {vb} (lien fort). Si {b} ne vaut pas {vb}, {a} vaut {va}, et "
          "n'appliquer que des singletons à partir de là mène à une contradiction : {why}. Donc {b} vaut {vb}.",
}
LUCKY = {
    "en": "Trial lucky: {a} is {va} or {b} is {vb} (strong link). Assuming {a} is {va} and applying "
          "only singles solves the whole grid without contradiction, so {a} is {va}. " + ONE["en"],
    "fr": "Essai chanceux : {a} vaut {va} ou {b} vaut {vb} (lien fort). Supposer {a} = {va} et "
          "n'appliquer que des singletons résout toute la grille sans contradiction, donc {a} vaut {va}. "
          + ONE["fr"],
}
COMMON = {
    "en": "Trial: {a} is {va} or {b} is {vb} (strong link). Assuming either one and applying only "
          "singles, both cases agree: {what}, so this holds whichever is true.",
    "fr": "Essai : {a} vaut {va} ou {b} vaut {vb} (lien fort). En supposant l'un puis l'autre et en "
          "n'appliquant que des singletons, les deux cas concordent : {what}, donc c'est vrai dans "
          "tous les cas.",
}
# a case of a common conclusion that even contradicts (it then gives everything)
COMMON_BROKEN = {
    "en": "Trial: {a} is {va} or {b} is {vb} (strong link). Applying only singles, assuming {x} leads to a "
          "contradiction ({why}) and assuming {y} gives {what}, so this holds whichever is true.",
    "fr": "Essai : {a} vaut {va} ou {b} vaut {vb} (lien fort). En n'appliquant que des singletons, supposer "
          "{x} mène à une contradiction ({why}) et supposer {y} donne {what}, donc c'est vrai dans tous les cas.",
}
WHAT_PLACE = {"en": "{cells} get {values}", "fr": "{cells} reçoivent {values}"}
WHAT_ELIM = {"en": "{k} {removed} ({first})", "fr": "{k} {removed} ({first})"}


# a run's cells read one by one before its whole row is converted (a row of a 25×25 grid is 625 items)
READS_BEFORE_ROW = 32


class _Result:
    """One assumption propagated: whether it contradicts or solves the grid, the cells it changed
    (placed or cut down, ``changed``), and in each of those its placed value (``value``, 0: none)
    and the candidates left (``left``, 0 when placed). A cell it did not change is as in the
    state; a cell is read from the run's row only when asked for (most pairs of runs share no
    changed cell, and a 25×25 run changes few of its 625 cells).

    ``gone``, the state's candidates the run removed as one bit row (a 32-bit word per cell,
    cell 0 lowest), says in one operation whether two runs may agree (``_may_agree``)."""

    __slots__ = ("row", "masks", "reads", "contradiction", "solved", "changed", "gone")

    def __init__(self, row: Any, contradiction: bool, solved: bool, changed: int, gone: int) -> None:
        self.row, self.contradiction, self.solved, self.changed = row, contradiction, solved, changed
        self.gone = gone
        self.masks: list[int] | None = None
        self.reads = 0

    def _mask(self, c: int) -> int:
        masks = self.masks
        if masks is None:
            # a few cells are read from most runs: one item each; a whole row only when
            # many of its cells are
            self.reads += 1
            if self.reads < READS_BEFORE_ROW:
                return int(self.row[c])
            masks = self.masks = self.row.tolist()
        m: int = masks[c]
        return m

    def value(self, c: int) -> int:
        """The value the run placed in changed cell ``c`` (0: none)."""
        m = self._mask(c)
        return m.bit_length() if m and not m & (m - 1) else 0

    def left(self, c: int) -> int:
        """The candidates changed cell ``c`` keeps in the run (0 when it placed a value there)."""
        m = self._mask(c)
        return 0 if m and not m & (m - 1) else m


# strong-link ends propagated per call of the propagator: the search usually stops at an early link
CHUNK = 64


class _Runs:
    """The singles fixpoint of each strong-link end assumed true (``explainer.core.propagate``,
    the engine's one propagator: every end of a chunk at once), computed as the search asks,
    each end's result read out of its chunk only when asked for."""

    def __init__(self, state: State, ends: list[tuple[int, int]]) -> None:
        self.state, self.ends = state, ends
        self.at = {e: i for i, e in enumerate(ends)}
        self.done: dict[int, _Result] = {}
        self.chunks: dict[int, tuple[Any, ...]] = {}
        self.base: Any = None
        self.open: Any = None  # the cells the state has not decided
        self.cand: Any = None  # the state's candidates (none in a decided cell)

    def __call__(self, cell: int, value: int) -> _Result:
        i = self.at[(cell, value)]
        r = self.done.get(i)
        if r is None:
            first = i - i % CHUNK
            chunk = self.chunks.get(first)
            if chunk is None:
                chunk = self.chunks[first] = self._chunk(first)
            out, contra, changed, solved, gone = chunk
            k = i - first
            r = self.done[i] = _Result(out[k], bool(contra[k]), bool(solved[k]),
                                       int.from_bytes(changed[k].tobytes(), "little"),
                                       int.from_bytes(gone[k].tobytes(), "little"))
        return r

    def _chunk(self, first: int) -> tuple[Any, ...]:
        """A chunk's runs: (rows, contradiction flags, changed cells as little-endian bit rows, solved
        flags, removed candidates). A run changes the cells of its row that
        differ from the state's, the state's decided cells left aside; it solves the grid when
        it does not contradict and every undecided cell is one it changed to a single value."""
        import numpy as np

        from explainer.core import propagate

        state = self.state
        t = propagate.tables(state.geo.n)
        if self.base is None:
            self.base = propagate.base_row(state)
            self.open = np.array([not v for v in state.values], dtype=bool)
            self.cand = np.array(state.cand, dtype=self.base.dtype)
        rows = propagate.assumed(self.base, t, self.ends[first:first + CHUNK])
        out, contra = propagate.propagate(rows, t, base=self.base)
        diff = (out != self.base) & self.open
        single = (out != 0) & ((out & (out - 1)) == 0)
        solved = ~contra & ((diff & single) | ~self.open).all(axis=1)
        # little-endian words: a row's bytes read as one integer keep cell 0 lowest
        gone = (self.cand & ~out).astype("<u4")
        return out, contra, np.packbits(diff, axis=1, bitorder="little"), solved, gone


def _strong_links_in_order(state: State) -> list[tuple[int, int]]:
    """Bivalue cells first (easiest to read), then values with two places in a house."""
    lk = links(state)
    pairs = lk.strong_pairs
    return sorted(pairs, key=lambda p: (lk.cell(p[0]) != lk.cell(p[1]), p))


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Trial steps, each with its proof (STEPS_JSON.md ``proof``, singles only): the
    recording tracer replays the branches a step rests on, and a contradiction is named
    from the end of its recorded branch (what the frame draws). A step is rated from its
    proof as soon as the proof is known; its caption and roles are made only when the
    engine builds it (``Context.leads``: a trial step rarely beats the forcing chains)."""
    from .forcing import prover

    geo = state.geo
    n = geo.n
    allow_lucky = ctx.allows("trial lucky")  # a uniqueness step: off on the simplest order
    lk = links(state)
    pairs = _strong_links_in_order(state)
    ends = list(dict.fromkeys((lk.cell(x), lk.value(x)) for pair in pairs for x in pair))
    result = _Runs(state, ends)
    tracer = prover(state)

    def contradiction(names: dict[str, Any], marked: tuple[Cand, ...], c: int, v: int) -> Explanation | None:
        # one branch assuming the placed end false: the other end is then true, and so on
        tr = tracer.run(c, v, False)
        if tr.end is None:  # pragma: no cover - pending singles in the state (the tracer leaves them)
            return None
        br = extract(tr)
        proof = Proof("contradiction", 0, (br,))
        return Explanation(technique="trial", place=cands(geo, [(c, v)]), marked=marked,
                           detail=(("contradiction", True), ("size", proof.size)), proof=proof)

    def lucky(names: dict[str, Any], marked: tuple[Cand, ...], c: int, v: int, x: int) -> Explanation | None:
        tr = tracer.run(c, v, True)
        if not tr.solved:  # pragma: no cover - pending singles in the state
            return None
        proof = Proof("contradiction", 0, (extract(tr, solved=True),))
        return Explanation(technique="trial lucky", place=cands(geo, [(c, v)]), marked=marked,
                           **say(LUCKY, **names), detail=(("assumed", lk.cand(x)), ("size", proof.size)),
                           proof=proof)

    for a, b in pairs:
        ca, va, cb, vb = lk.cell(a), lk.value(a), lk.cell(b), lk.value(b)
        ra = result(ca, va)
        rb = None if ra.contradiction or (ra.solved and allow_lucky) else result(cb, vb)
        if rb is not None and not (rb.contradiction or (rb.solved and allow_lucky)) and not _may_agree(ra, rb):
            continue  # no step from this link (most links): nothing named
        names = dict(a=geo.cell_name(ca), va=Value(va), b=geo.cell_name(cb), vb=Value(vb))
        swapped = dict(a=names["b"], va=names["vb"], b=names["a"], vb=names["va"])
        marked = cands(geo, [(ca, va), (cb, vb)])
        if rb is None:
            step = contradiction(names, marked, cb, vb) if ra.contradiction else lucky(names, marked, ca, va, a)
        elif rb.contradiction or (rb.solved and allow_lucky):
            step = contradiction(swapped, marked, ca, va) if rb.contradiction else lucky(swapped, marked, cb, vb, b)
        else:
            step = _common(state, marked, names, ra, rb)
            if step is not None:
                step = _common_proof(state, tracer, step, ca, va, n)
        if step is not None:
            yield lead(ctx, step.technique, _told, geo, step, least=round(rating.proof_rating(step) or 0.0, 1),
                       place=len(step.place), eliminate=len(step.eliminate))


def _common_proof(state: State, tracer: Any, step: Explanation, ca: int, va: int, n: int) -> Explanation | None:
    """Common conclusions with their proof: two branches, one end true and false, each
    keeping what the conclusions rest on (or a contradiction, if the branch ends in one)."""
    branches = []
    for truth in (True, False):
        tr = tracer.run(ca, va, truth)
        if tr.end is not None:
            branches.append(extract(tr))
            continue
        idx = [tr.find(r * n + c, v, True) for r, c, v in step.place]
        idx += [tr.find(r * n + c, v, False) for r, c, v in step.eliminate]
        if None in idx:  # pragma: no cover - pending singles in the state (the tracer leaves them)
            return None
        branches.append(extract(tr, [i for i in idx if i is not None]))
    proof = Proof("double", 0, tuple(branches))
    return replace(step, proof=proof, detail=tuple(step.detail) + (("size", proof.size),))


def _told(geo: Geometry, step: Explanation) -> Explanation:
    """A step with its proof, given the roles and the caption its proof tells."""
    assert step.proof is not None
    return replace(step, roles=_roles(step, step.proof), **_proof_text(geo, step, step.proof))


def _stated(step: Explanation, proof: Proof, branch: Branch) -> tuple[int, int, int, bool]:
    """The assumption a branch stands for, as the caption says it: a common conclusion's
    second case is recorded as "the first end false", which the strong link makes "the
    other end true", and the caption names that other end (issue 41: the frame showed the
    first end twice, once struck). A single branch (a contradiction) is said as recorded."""
    r, c, v, t = branch.assume
    if t or len(proof.branches) < 2:
        return r, c, v, bool(t)
    a, b = (tuple(x) for x in step.marked)
    other = b if a == (r, c, v) else a
    return other[0], other[1], other[2], True


def _roles(step: Explanation, proof: Proof) -> tuple[Role, ...]:
    """The strong link tried, then the proof's assumptions (each case as the caption names it:
    ``_stated``) and ends."""
    a, b = step.marked
    out: list[Role] = [link("strong", a, b)]
    for role in proof_roles(proof):
        if role.role == "assumption" and role.group is not None:
            role = replace(role, candidates=(Candidate(*_stated(step, proof, proof.branches[role.group])[:3]),))
        out.append(role)
    return tuple(out)


def _proof_text(geo: Geometry, step: Explanation, proof: Proof) -> dict[str, Any]:
    """The caption from the proof (explainer.model.proofwords): its assumption and its end are the
    proof's, whatever the search saw first."""
    a, b = step.marked
    if step.technique == "trial lucky":
        first, other = (a, b) if (a[0], a[1], a[2]) == tuple(step.place[0]) else (b, a)
        return say(LUCKY, **_names(first, other))
    if proof.kind == "contradiction":
        placed = step.place[0]
        other = a if (b[0], b[1], b[2]) == placed else b
        why = Words(**{lang: proofwords.end_phrase(proof.branches[0], geo.n, lang) for lang in LANGS})
        return say(CONTRADICTION, why=why, **_names(other, placed))
    what = _what(geo, step.place, step.eliminate)
    broken = [br for br in proof.branches if br.end.is_contradiction]
    if not broken:
        return say(COMMON, what=what, **_names(a, b))
    bad = broken[0]
    good = [br for br in proof.branches if br is not bad][0]
    return say(COMMON_BROKEN, what=what, **_names(a, b),
               x=Words(**{lang: proofwords.fact_words(_stated(step, proof, bad), lang) for lang in LANGS}),
               y=Words(**{lang: proofwords.fact_words(_stated(step, proof, good), lang) for lang in LANGS}),
               why=Words(**{lang: proofwords.end_phrase(bad, geo.n, lang) for lang in LANGS}))


def _names(a: tuple[int, int, int], b: tuple[int, int, int]) -> dict[str, Any]:
    return dict(a=f"r{a[0] + 1}c{a[1] + 1}", va=Value(a[2]), b=f"r{b[0] + 1}c{b[1] + 1}", vb=Value(b[2]))


def _may_agree(ra: _Result, rb: _Result) -> bool:
    """False when the two cases share no conclusion: no candidate of the state both runs
    removed (most pairs share none). A value both place in a cell is such a case too: the
    cell changed, so it had another candidate, gone in both; and a cell only one run changed
    has none: the other run leaves the state's candidates there."""
    return bool(ra.gone & rb.gone)


def _common(state: State, marked: tuple[Cand, ...], names: dict[str, Any], ra: _Result,
            rb: _Result) -> Explanation | None:
    """What two runs that may agree (``_may_agree``) both conclude, as a step (None if nothing)."""
    geo = state.geo
    # only a cell both runs changed can hold a common conclusion (elsewhere a run leaves the
    # state's cell: no value placed, no candidate gone), in cell order
    both = list(bits(ra.changed & rb.changed))
    place: list[tuple[int, int]] = []
    placed_peers = [0] * geo.n  # cells that lose v because of a common placement
    placed_cells = 0
    for c in both:
        v = ra.value(c)
        if not state.values[c] and v and v == rb.value(c):
            place.append((c, v))
            placed_peers[v - 1] |= geo.peer_mask[c]
            placed_cells |= 1 << c
    elim: list[tuple[int, int]] = []
    for c in both:
        m = state.cand[c]
        if not m or placed_cells >> c & 1:
            continue
        # a candidate is ruled out in a case when it is neither placed nor still possible there
        x, y = ra.value(c), rb.value(c)
        gone_a = m & ~ra.left(c) & ~(1 << (x - 1) if x else 0)
        gone_b = m & ~rb.left(c) & ~(1 << (y - 1) if y else 0)
        for b in bits(gone_a & gone_b):
            if not placed_peers[b] >> c & 1:
                elim.append((c, b + 1))
    if not place and not elim:
        return None
    return Explanation(technique="trial", place=cands(geo, place), eliminate=cands(geo, elim),
                       marked=marked)


def _what(geo: Geometry, place: tuple[Cand, ...], elim: tuple[Cand, ...]) -> Words:
    """What both cases agree on: 'r1c2 and r3c4 get 5, 7; 2 candidates are removed (…)'."""
    parts = []
    n = geo.n
    if place:
        d = say(WHAT_PLACE, cells=Cells(geo, [r * n + c for r, c, _ in place]),
                values=", ".join(value_char(v) for *_, v in sorted(place)))
        parts.append(d)
    if elim:
        first = ", ".join(f"r{r + 1}c{c + 1}<>{value_char(v)}" for r, c, v in sorted(elim)[:4])
        if len(elim) > 4:
            first += ", …"
        removed = Agree(len(elim), en=("candidate is removed", "candidates are removed"),
                        fr=("candidat est retiré", "candidats sont retirés"))
        parts.append(say(WHAT_ELIM, k=len(elim), removed=removed, first=first))
    return Words(en="; ".join(p["text"] for p in parts),
                 fr="; ".join(dict(p["translations"])["fr"] for p in parts))
