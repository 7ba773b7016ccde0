"""Forcing chains (TECHNIQUES.md, "forcing chain"): contradiction, double,
cell and house forcing; static and nested levels; every step with its proof.

Search, simplest first (fewest levels, then fewest facts):

1. level 0, static first: single-premise implications only (a value turns true
   in a cell that had two candidates, or at a house's last of two places: Sudoku
   Explainer's static forcing chains), then singles in full; one numpy batch (``batch.propagate``)
   runs every candidate assumed true and assumed false. From the fixpoints:
   an assumption that contradicts (``contradiction``: C true fails, so C is
   false; C false fails, so C is true), a fact both C true and C false
   imply (``double``), a fact every candidate of a cell implies (``cell``),
   a fact every place of a value in a house implies (``house``). The
   recording tracer (``implication``) replays only the branches of the
   cheapest options and the smallest proof is kept.
   Then the same, dynamic: branches also apply locked candidates to their own
   state (``step`` facts resting on the false facts that make the pattern),
   when the run has locked candidates before this technique.
2. level k ≥ 1 (nested): a branch that stalls also removes the candidates
   whose own assumption contradicts at level k-1 in the branch's state
   (``step`` facts with their own proof). Assumptions are tried in chunks,
   ends of strong links first (removing one places the other), then the most
   constrained; the first chunk that has a contradiction gives
   the step. Level ``MAX_LEVEL`` is a bound, so the search terminates;
   ``brutal`` stays the last resort.

The search never reads the solution.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

from explainer.model import proofwords, rating
from explainer.model.explanation import Cand, Explanation, cands
from explainer.model.grid import Geometry, value_char
from explainer.model.i18n import house_words, notation
from explainer.model.proof import Proof
from explainer.model.roles import proof_roles
from explainer.model.session import session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead

from .implication import Trace, Tracer, _bits, extract, needed_absent, needed_closure

MAX_LEVEL = 3
NAME = "forcing chain"
# options whose branches are traced to compare proof sizes
TRACE_OPTIONS = 5
UNTRACEABLE = 10 ** 6  # estimate of an option the tracer does not reproduce
# nested search: assumptions per numpy batch
NESTED_CHUNK = {1: 12, 2: 2}  # by level; deeper levels one at a time


# ---- texts ----------------------------------------------------------------------------
# The proof's sentences come from explainer.model.proofwords, the writer the frames use too: the
# caption's ends are the proof's ends.
STEP = {
    "contradiction": {
        "en": "Forcing chain (contradiction{lvl}): {body} So {concl}.",
        "fr": "Chaîne de forçage (contradiction{lvl}) : {body} Donc {concl}.",
    },
    "double": {
        "en": "Forcing chain (double{lvl}): {a} is {va} or not. {body} Either way, {concl}.",
        "fr": "Chaîne de forçage (double{lvl}) : {a} vaut {va} ou non. {body} Dans les deux cas, {concl}.",
    },
    "cell": {
        "en": "Forcing chain (cell{lvl}): {a} holds one of {vs}. {body} In every case, {concl}.",
        "fr": "Chaîne de forçage (cellule{lvl}) : {a} vaut l'un de {vs}. {body} Dans tous les cas, {concl}.",
    },
    "house": {
        "en": "Forcing chain (house{lvl}): {v} goes in {house}: {cells}. {body} In every case, {concl}.",
        "fr": "Chaîne de forçage (unité{lvl}) : {v} va dans {house} : {cells}. {body} Dans tous les cas, {concl}.",
    },
}
LEVEL = {"en": ", nested level {k}", "fr": ", imbrication {k}"}
DYNAMIC = {"en": ", dynamic", "fr": ", dynamique"}
# facts told in the caption per branch (first, last): the frames draw every fact
TOLD = {1: (4, 4), 2: (2, 2)}
TOLD_MANY = (1, 1)


def _lang(d: dict[str, str], lang: str, **kw: Any) -> str:
    return d.get(lang, d["en"]).format(**kw)


def _hname(geo: Geometry, h: int, lang: str) -> str:
    kind, k = geo.house_key(h)
    return house_words(kind, k, lang)


def _concl_words(place: Iterable[Cand], elim: Iterable[Cand], lang: str) -> str:
    out = [proofwords.fact_words((r, c, v, True), lang) for r, c, v in place]
    out += [proofwords.fact_words((r, c, v, False), lang) for r, c, v in elim]
    return ", ".join(out)


def make_step(geo: Geometry, proof: Proof, place: list[tuple[int, int]], elim: list[tuple[int, int]],
              technique: str = NAME) -> Explanation:
    """The Explanation of a forcing proof: texts, roles, highlights, detail (what the rating reads).
    The nested steps its proof holds untold (``_untold``) are told first."""
    proof = _told(geo, proof, {})
    pl, el = cands(geo, place), cands(geo, elim)
    head, tail = TOLD.get(len(proof.branches), TOLD_MANY)
    texts = {}
    for lang in ("en", "fr"):
        body = " ".join(proofwords.branch_sentence(b, geo.n, lang, head, tail) for b in proof.branches)
        lvl = ((_lang(DYNAMIC, lang) if proof.dynamic else "")
               + (_lang(LEVEL, lang, k=proof.level) if proof.level else ""))
        a = proof.branches[0].assume
        kw = dict(body=body, concl=_concl_words(pl, el, lang), lvl=lvl,
                  a=f"r{a[0] + 1}c{a[1] + 1}", va=value_char(a[2]))
        if proof.kind == "cell":
            kw["vs"] = ", ".join(value_char(b.assume[2]) for b in proof.branches)
        if proof.kind == "house":
            cells = [(b.assume[0], b.assume[1]) for b in proof.branches]
            h = _common_house(geo, cells)
            kw.update(v=value_char(a[2]), house=_hname(geo, h, lang),
                      cells=", ".join(f"r{r + 1}c{c + 1}" for r, c in cells))
        texts[lang] = _lang(STEP[proof.kind], lang, **kw)
    marked = tuple(sorted({(b.assume[0], b.assume[1], b.assume[2]) for b in proof.branches}))
    size = proof.size
    # what the rating reads (explainer.model.rating: kind, level, dynamic, proof size)
    detail = (("dynamic", proof.dynamic), ("kind", proof.kind), ("level", proof.level), ("size", size))
    return Explanation(technique=technique, place=pl, eliminate=el, marked=marked,
                       marked_alt=pl + el, text=texts["en"], translations=(("fr", notation(texts["fr"], "fr")),),
                       detail=detail, proof=proof, roles=proof_roles(proof))


def _untold(geo: Geometry, proof: Proof, place: list[tuple[int, int]], elim: list[tuple[int, int]]) -> Explanation:
    """A nested step as the search holds it (``_nested``): what the rating and the search read
    (its proof, what it places and removes), without the words, roles and highlights
    ``make_step`` gives it. Most nested proofs the search makes are never told: only those of
    the step the engine takes are (``_told``, when its own step is made)."""
    return Explanation(technique=NAME, place=cands(geo, place), eliminate=cands(geo, elim), proof=proof)


def _told(geo: Geometry, proof: Proof, done: dict[int, Explanation]) -> Proof:
    """``proof`` with each nested step it holds untold (``_untold``: a forcing step without
    text) made as ``make_step`` makes it, the innermost first; ``proof`` itself when none is."""
    n = geo.n
    branches, changed = [], False
    for b in proof.branches:
        facts, here = list(b.facts), False
        for k, f in enumerate(facts):
            s = f.step
            if not isinstance(s, Explanation) or s.proof is None or s.text or s.technique != NAME:
                continue
            made = done.get(id(s))
            if made is None:
                made = done[id(s)] = make_step(geo, s.proof, [(r * n + c, v) for r, c, v in s.place],
                                               [(r * n + c, v) for r, c, v in s.eliminate])
            facts[k], here = replace(f, step=made), True
        branches.append(replace(b, facts=tuple(facts)) if here else b)
        changed |= here
    return replace(proof, branches=tuple(branches)) if changed else proof


def _common_house(geo: Geometry, cells: list[tuple[int, int]]) -> int:
    xs = [r * geo.n + c for r, c in cells]
    for h in geo.cell_houses[xs[0]]:
        if all(x in geo.houses[h] for x in xs):
            return h
    return geo.cell_houses[xs[0]][0]


# ---- nested proofs --------------------------------------------------------------------

def _nested(root: State, sub: State, cell: int, value: int, level: int) -> tuple[Explanation, set[tuple[int, int]]]:
    """The proof that (cell, value) is false in the branch state ``sub`` (level ``level``),
    as a step, and the candidates it needs absent (relative to ``root``)."""
    tracer = Tracer(sub, root=root, nested=_nested)
    tr = tracer.run(cell, value, True, level)
    if tr.end is None:  # pragma: no cover - the batch said it contradicts
        raise AssertionError("nested branch does not contradict")
    br = extract(tr)
    proof = Proof("contradiction", level, (br,))
    step = _untold(sub.geo, proof, [], [(cell, value)])
    return step, needed_absent(root, br, sub, Tracer.inner_needs(tr))


def prover(state: State) -> Tracer:
    return Tracer(state, nested=_nested)


# ---- search ---------------------------------------------------------------------------

def _flat(state: State) -> Any:
    """Every candidate of the state as one number, cell·n + value − 1, ascending (by cell then
    value; one numpy pass: a 25×25 state has thousands)."""
    import numpy as np

    from explainer.core import propagate as batch

    n = state.geo.n
    masks = np.array(state.cand, dtype=batch.tables(n).dtype)
    cell, bit = np.nonzero((masks[:, None] >> np.arange(n, dtype=masks.dtype)) & 1)
    return cell * n + bit


def _pairs(flat: Any, n: int) -> list[tuple[int, int]]:
    """The (cell, value) of each candidate number of ``_flat``."""
    return list(zip((flat // n).tolist(), (flat % n + 1).tolist(), strict=True))


class _Memo:
    """The last full batch of one kind (static or dynamic) on one grid size.

    Singles (and locked candidates) only remove candidates, so a branch run
    from a row with fewer candidates ends inside the old branch's fixpoint:
    a later state whose row is inside this one's (the engine's next states)
    keeps every contradiction found here, and its branches can start from
    these fixpoints instead of from scratch (``_Static``, big grids).
    """

    __slots__ = ("base", "flat", "k", "out", "contra", "rounds", "slot")

    def __init__(self, base: Any, flat: Any, n: int, out: Any, contra: Any, rounds: Any) -> None:
        import numpy as np

        self.base, self.flat, self.k = base, flat, len(flat)
        self.out, self.contra, self.rounds = out, contra, rounds
        # each candidate number's row (assumed true) in the batch, -1 for one not among its candidates
        self.slot = np.full(base.shape[0] * n, -1, dtype=np.intp)
        self.slot[flat] = np.arange(self.k)

    def covers(self, base: Any) -> bool:
        """True if every candidate of ``base`` (a state row) is one of this batch's."""
        return base.shape == self.base.shape and not (base & ~self.base).any()

    def rows_of(self, flat: Any) -> Any:
        """This batch's row of each candidate (``_flat``'s numbers) assumed true then false
        (None if one is missing)."""
        import numpy as np

        true = self.slot[flat]
        if (true < 0).any():
            return None
        return np.concatenate([true, true + self.k])


# The last full batch per (dynamic, static) is kept in the run's session (``Session.slot("forcing")``)
# and reused on grids of at least BIG_GRID (16×16, 25×25), where one batch is thousands of rows of
# hundreds of cells; 9×9 searches start afresh at every step.
BIG_GRID = 16
Memos = dict[tuple[bool, bool], _Memo]


class _Static:
    """Level-0 options from one batch of every candidate assumed true and false.

    On big grids (``reuse``: the session's memos) the last batch of the same kind (``_Memo``) helps
    when the state lies inside its state: its contradictions still holding
    are the options at once (no batch: ``inherited``); otherwise each branch
    starts from its old fixpoint, and only the branches that lost a candidate
    run again. The options are then contradictions only when there are any
    (a bound: the group conclusions cost a second pass over every branch).
    """

    def __init__(self, state: State, dynamic: bool = False, reuse: Memos | None = None, inherit: bool = True,
                 static: bool = False) -> None:
        import numpy as np  # lazy: numpy loads only when a forcing search runs

        from explainer.core import propagate as batch

        self.state = state
        self.dynamic = dynamic
        self.static = static
        self.reuse = reuse is not None
        self.geo = state.geo
        self.t = batch.tables(self.geo.n)
        self.base = batch.base_row(state)
        self.flat = _flat(state)
        self.cands = _pairs(self.flat, self.geo.n)
        k = self.k = len(self.cands)
        self.tracer = prover(state)
        self.traces: dict[tuple[int, int, bool], Trace] = {}
        self.inherited: list[tuple[int, int, bool]] | None = None
        key = (dynamic, static)
        memo = reuse.get(key) if reuse is not None else None
        if memo is not None and not memo.covers(self.base):
            memo = None
        old = memo.rows_of(self.flat) if memo is not None else None
        if memo is not None and old is not None and inherit:
            bad = np.nonzero(memo.contra[old])[0]
            if bad.size:
                bad = bad[np.argsort(memo.rounds[old[bad]], kind="stable")]
                self.inherited = [(*self.cands[i % k], bool(i < k)) for i in bad]
                return
        if memo is not None and old is not None and not static:
            self.out, self.contra, self.rounds = batch.resumed(memo.out, memo.contra, memo.rounds, old, self.base,
                                                               self.t, self.cands, dynamic)
        else:
            # a static batch starts afresh: its "true" cells are not read from the rows
            rows = np.concatenate([batch.assumed(self.base, self.t, self.cands),
                                   batch.assumed(self.base, self.t, self.cands, truth=False)])
            self.rounds = np.zeros(2 * k, dtype=np.int32)
            self.out, self.contra = batch.propagate_chunked(rows, self.t, dynamic, self.rounds,
                                                            self.base if static else None, self.base)
        if reuse is not None:
            reuse[key] = _Memo(self.base, self.flat, self.geo.n, self.out, self.contra, self.rounds)

    def trace(self, c: int, v: int, truth: bool, level: int = 0) -> Trace:
        key = (c, v, truth)
        tr = self.traces.get(key)
        if tr is None:
            tr = self.traces[key] = self.tracer.run(c, v, truth, level, self.dynamic, self.static)
        return tr

    def _assumptions(self, kind: str, key: int) -> list[tuple[int, int, bool]]:
        geo, state = self.geo, self.state
        if kind == "cell":
            return [(key, u + 1, True) for u in _bits(state.cand[key])]
        if kind == "house":
            h, v = divmod(key, geo.n)
            return [(y, v + 1, True) for y in _bits(state.pos[v] & geo.house_mask[h])]
        c, v = self.cands[key]
        return [(c, v, True), (c, v, False)]

    def options(self, limit: int | None = None) -> list[tuple[str, list[tuple[int, int, bool]],
                                                             tuple[int, int, bool] | None]]:
        """(kind, assumptions, conclusion fact or None for a contradiction): every
        contradiction, then the conclusions of the groups, fewest branches first
        (``batch.group_options``; the first ``limit`` of them if given)."""
        import numpy as np

        from explainer.core import propagate as batch

        if self.inherited is not None:
            return [("contradiction", [a], None) for a in self.inherited]
        opts: list[tuple[str, list[Any], Any]] = []
        rows = np.nonzero(self.contra)[0]
        for i in rows[np.argsort(self.rounds[rows], kind="stable")]:  # quickest contradictions first
            c, v = self.cands[i % self.k]
            opts.append(("contradiction", [(c, v, i < self.k)], None))
        if opts and self.reuse:
            return opts
        for kind, key, fact in batch.group_options(self.out, self.contra, self.cands, self.base, self.t,
                                                   self.static, 2 ** 30 if limit is None else limit):
            opts.append((kind, self._assumptions(kind, key), fact))
        return opts

    def proof_of(self, kind: str, ass: list[tuple[int, int, bool]], concl: Any) -> tuple[Proof, int]:
        branches = []
        size = 0
        for c, v, t in ass:
            tr = self.trace(c, v, t)
            if tr.end is not None:
                br = extract(tr)
            elif concl is None:
                raise AssertionError("contradiction expected")  # pragma: no cover
            else:
                i = tr.find(*concl)
                if i is None:  # pragma: no cover - the batch said every branch reaches it
                    raise AssertionError(f"conclusion {concl} missing in branch {(c, v, t)}")
                br = extract(tr, [i])
            branches.append(br)
            size += len(br.facts)
        return Proof(kind, 0, tuple(branches), self.dynamic), size

    def estimate(self, kind: str, ass: list[tuple[int, int, bool]], concl: Any) -> int:
        total = 0
        for c, v, t in ass:
            tr = self.trace(c, v, t)
            if tr.end is not None:
                total += len(needed_closure(tr, list(tr.end.premises)))
            else:
                i = tr.find(*concl) if concl is not None else None
                total += len(needed_closure(tr, [i])) if i is not None else UNTRACEABLE
        return total


def _scored(s: _Static, ceiling: float = float("inf")) -> list[tuple[int, int, Any]]:
    """The first contradictions and the first group conclusions (fewest branches first),
    traced, by estimated proof size (the smallest first). Options whose kind alone rates
    them at the ceiling or above (``_least``) are not traced."""
    opts = s.options(TRACE_OPTIONS)
    contra = [o for o in opts if o[0] == "contradiction"][:TRACE_OPTIONS]
    groups = [o for o in opts if o[0] != "contradiction"][:TRACE_OPTIONS]
    return sorted((s.estimate(*o), k, o) for k, o in enumerate(contra + groups) if _least(o[0]) < ceiling)


# a forcing step found: its proof, the (cell, value) it places and those it removes
Found = tuple[Proof, list[tuple[int, int]], list[tuple[int, int]]]


def built(state: State, found: Found | None) -> Explanation | None:
    """The step of a proof found (None for none)."""
    return None if found is None else make_step(state.geo, *found)


def static_step(state: State, dynamic: bool = False, static: bool = False,
                lowest_first: bool = False, ceiling: float = float("inf"),
                memos: Memos | None = None) -> Explanation | None:
    """``static_found``'s step, built."""
    return built(state, static_found(state, dynamic, static, lowest_first, ceiling, memos))


def static_found(state: State, dynamic: bool = False, static: bool = False,
                 lowest_first: bool = False, ceiling: float = float("inf"),
                 memos: Memos | None = None) -> Found | None:
    """The level-0 step with the smallest proof (dynamic: branches also apply locked
    candidates to their own state; static: single-premise implications only, SE's
    static forcing chains). ``lowest_first``: the step with the least estimated rating
    instead (a static contradiction or double, SE's forcing chain 7.0, before a cell
    or house forcing chain, 8.0, with a smaller proof). ``ceiling``: None rather than
    a step whose proof cannot rate below it (its kind's least base + its length).
    ``memos``: the session's last batches, reused on big grids (a fresh search without)."""
    reuse = (memos if memos is not None else {}) if state.geo.n >= BIG_GRID else None
    s = _Static(state, dynamic, reuse, static=static)
    scored = _scored(s, ceiling)
    if s.inherited is not None and (not scored or scored[0][0] >= UNTRACEABLE):
        s = _Static(state, dynamic, reuse, inherit=False, static=static)  # the old leads fail here: a full batch
        scored = _scored(s, ceiling)
    if not scored or scored[0][0] >= UNTRACEABLE:
        # only when the state has pending singles (the batch decides them, the tracer
        # does not): the engine's singles come first, so this does not happen in a run
        return None
    pick = scored[0]
    if lowest_first and static:
        pick = min(scored, key=lambda x: (_static_base(x[2][0]) + rating.length_addition(x[0]), x[0], x[1]))
    kind, ass, concl = pick[2]
    if _least(kind) + rating.length_addition(pick[0]) >= ceiling:
        return None  # its proof would rate at the ceiling or above: not built
    proof, _ = s.proof_of(kind, ass, concl)
    if concl is None:
        c, v, t = ass[0]
        place, elim = ([(c, v)], []) if not t else ([], [(c, v)])
    else:
        c, v, t = concl
        place, elim = ([(c, v)], []) if t else ([], [(c, v)])
    return proof, place, elim


def _least(kind: str) -> float:
    """The least base a level-0 proof of this kind can get (``rating.chain_base``): a one-digit
    static contradiction or double is SE's forcing x-chain, a cell or house forcing chain at
    least SE's multiple chain."""
    return rating.SE_MULTIPLE if kind in ("cell", "house") else rating.SE_X_FORCING


def _static_base(kind: str) -> float:
    """SE's base for a static proof of this kind (explainer.model.rating.chain_base)."""
    return rating.SE_MULTIPLE if kind in ("cell", "house") else rating.SE_FORCING


def _strong(state: State, c: int, v: int) -> bool:
    """True if (c, v) is an end of a strong link (bivalue cell or bilocal value)."""
    if state.cand[c].bit_count() == 2:
        return True
    pv = state.pos[v - 1]
    return any((pv & state.geo.house_mask[h]).bit_count() == 2 for h in state.geo.cell_houses[c])


def nishio_step(state: State, ceiling: float = float("inf")) -> Explanation | None:
    """``nishio_found``'s step, built."""
    return built(state, nishio_found(state, ceiling))


def _one_digit_fails(state: State, kept: dict[int, tuple[int, list[int]]] | None) -> list[tuple[int, int]]:
    """``batch.one_digit_fails``, by value then cell. ``kept``: the session's answer per value
    (value -> (its places then, its failing cells)): a value's places decide its answer, so
    only the values whose places changed since are looked at again."""
    from explainer.core import propagate as batch

    if kept is None:
        return batch.one_digit_fails(state)
    pos = state.pos
    todo = 0
    for v in range(1, state.geo.n + 1):
        hit = kept.get(v)
        if hit is None or hit[0] != pos[v - 1]:
            todo |= 1 << (v - 1)
            kept[v] = (pos[v - 1], [])
    for c, v in batch.one_digit_fails(state, todo) if todo else ():
        kept[v][1].append(c)
    return [(c, v) for v in range(1, state.geo.n + 1) for c in kept[v][1]]


def nishio_found(state: State, ceiling: float = float("inf"),
                 kept: dict[int, tuple[int, list[int]]] | None = None) -> Found | None:
    """A one-digit contradiction (SE's Nishio chain): assuming v in a cell, v's own
    implications (peers, then houses left with one place) leave some house without v or
    put v twice in one. The smallest such proof; None if no assumption has one (or if
    it cannot rate below ``ceiling``).

    A bitmask pass over each value's places (``batch.one_digit_fails``; ``kept``: the
    session's answers per value, see ``_one_digit_fails``) finds the contradicting
    assumptions; only those are traced."""
    tracer = prover(state)
    best: tuple[int, Any, int, int] | None = None
    for c, v in _one_digit_fails(state, kept):
        tr = tracer.run(c, v, True, 0, one_digit=True)
        if tr.end is None:  # pragma: no cover - the bitmask pass and the tracer agree
            continue
        size = len(needed_closure(tr, list(tr.end.premises), resolve=False))
        if best is None or size < best[0]:
            best = (size, tr, c, v)
    if best is None or rating.SE_X_FORCING + rating.length_addition(best[0]) >= ceiling:
        return None
    _, tr, c, v = best
    return Proof("contradiction", 0, (extract(tr),)), [], [(c, v)]


def nested_least(level: int) -> float:
    """The least base of a nested proof (``rating.chain_base``): SE's nested forcing chains
    (9.5), and each level 2.0 over the level inside it."""
    return rating.SE_NESTED + 2.0 * (level - 1)


def _true_fixpoints(base: Any, t: Any, flat: Any, cands: list[tuple[int, int]], memos: Memos | None) -> Any:
    """Each candidate of a state (``_flat``'s numbers ``flat``, as pairs ``cands``; its row
    ``base``) assumed true, to its singles fixpoint. The session's last singles batch
    (``memos``: ``static_found``'s) holds them when it was made on this very state and none of
    its true rows stopped at a contradiction (such a row stops anywhere; the others are the one
    fixpoint a run finds, resumed or not): the nested search runs after that batch found no
    step, on big grids."""
    import numpy as np

    from explainer.core import propagate as batch

    memo = memos.get((False, False)) if memos else None
    if (memo is not None and np.array_equal(memo.base, base) and np.array_equal(memo.flat, flat)
            and not memo.contra[:memo.k].any()):
        return memo.out[:memo.k]
    out, _ = batch.propagate_chunked(batch.assumed(base, t, cands), t, base=base)
    return out


def nested_step(state: State, level: int, ceiling: float = float("inf")) -> Explanation | None:
    """``nested_found``'s step, built."""
    return built(state, nested_found(state, level, ceiling))


def nested_found(state: State, level: int, ceiling: float = float("inf"),
                 memos: Memos | None = None) -> Found | None:
    """A contradiction at nesting ``level``: the first chunk of assumptions (most
    constrained first) that has one; the smallest proof in that chunk (None if it cannot
    rate below ``ceiling``: the level's least base + the length of its outer branch).
    ``memos``: the session's last batches (``static_found``'s, see ``_true_fixpoints``)."""
    import numpy as np

    from explainer.core import propagate as batch

    t = batch.tables(state.geo.n)
    base = batch.base_row(state)
    flat = _flat(state)
    cand_list = _pairs(flat, state.geo.n)
    if not cand_list:
        return None
    # order: assumptions whose singles branch removes the most candidates first
    left = batch.popcount(_true_fixpoints(base, t, flat, cand_list, memos)).sum(axis=1)
    # ends of strong links first: removing one places the other at once
    strong = np.array([_strong(state, c, v) for c, v in cand_list], dtype=bool)
    order = [cand_list[i] for i in np.lexsort((left, ~strong))]
    tracer = prover(state)
    chunk = NESTED_CHUNK.get(level, 1)
    for s in range(0, len(order), chunk):
        part = order[s:s + chunk]
        bad = batch.contradicting(base, t, part, level)
        hits = [part[i] for i in np.nonzero(bad)[0]]
        if not hits:
            continue
        best = None
        for c, v in hits[:3]:
            tr = tracer.run(c, v, True, level)
            if tr.end is None:  # pragma: no cover - pending singles in the state (see static_step)
                continue
            size = len(needed_closure(tr, list(tr.end.premises), resolve=False))
            if best is None or size < best[0]:
                best = (size, tr, c, v)
        if best is None:  # pragma: no cover
            continue
        size, tr, c, v = best
        if nested_least(level) + rating.length_addition(size) >= ceiling:
            return None  # the inner proofs only add to its length
        br = extract(tr)
        return Proof("contradiction", level, (br,)), [], [(c, v)]
    return None


def _lead(ctx: Context, geo: Geometry, found: tuple[Proof, list[tuple[int, int]], list[tuple[int, int]]],
          rated: float) -> Explanation | Lead:
    """A forcing step found, as the engine takes it: on a ranked order a ``Lead`` with its whole
    choice key (its exact rating and ``make_step``'s pattern size: the cells it marks, the
    assumptions' and the conclusions', no links, the proof's facts), built only if taken: a
    later pass often finds a lower-rated step, and the caption of a step not taken costs as
    much as the search; else the step built now."""
    proof, place, elim = found
    if not ctx.leads:
        return make_step(geo, proof, place, elim)
    n = geo.n
    cells = {(b.assume[0], b.assume[1]) for b in proof.branches}
    cells.update(divmod(c, n) for c, _ in place)
    cells.update(divmod(c, n) for c, _ in elim)
    return Lead(NAME, partial(make_step, geo, proof, place, elim), round(rated, 1), len(place), len(elim),
                (len(cells), 0, proof.size))


def dynamic_allowed(ctx: Context) -> bool:
    """Dynamic branches apply locked candidates: only when the run uses that technique
    before this one (``ctx.earlier``); with no earlier techniques given, always."""
    if not ctx.earlier:
        return True
    return any(t.name == "locked candidate" for t in ctx.earlier)


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
    """Forcing steps, simplest level first (the engine keeps the first live one):
    static (single-premise implications: SE's forcing chains), singles (SE's dynamic
    forcing chains), with locked candidates (when the run has them before), then
    nested levels."""
    # Each pass with its least rating on SE's scale (explainer.model.rating.chain_base): a pass that
    # cannot beat the best step the engine already has (ctx.ceiling) is skipped. SE's scale
    # is a 9×9 scale: on big grids a static batch each step would double the search's cost (it
    # cannot resume from the last batch), so singles come first there.
    passes: list[tuple[bool, bool | None, float]] = [(False, True, rating.SE_FORCING)] if state.geo.n < BIG_GRID else []
    if ctx.lowest_first:
        passes.append((False, None, rating.SE_NISHIO))  # one-digit contradictions (SE's Nishio)
    passes.append((False, False, rating.SE_NISHIO))
    if dynamic_allowed(ctx):
        passes.append((True, False, rating.SE_DYNAMIC_PLUS))
    ceiling = ctx.ceiling
    slot = session_of(state, ctx).slot("forcing")
    memos, one_digit = slot.setdefault("batches", {}), slot.setdefault("one digit", {})
    geo = state.geo
    for dynamic, static, least in passes:
        if least >= ceiling:
            return
        if static is None:
            found = nishio_found(state, ceiling, one_digit)
        else:
            found = static_found(state, dynamic, static, ctx.lowest_first, ceiling, memos)
        if found is not None:
            rated = rating.proof_value(found[0])
            yield _lead(ctx, geo, found, rated)
            if not ctx.lowest_first:
                return  # the engine takes the first step
            # a later pass may still rate lower (a Nishio chain, 7.5 + length,
            # below a static cell forcing chain, 8.0 + length)
            ceiling = min(ceiling, rated or ceiling)
    for level in range(1, MAX_LEVEL + 1):
        if nested_least(level) >= ceiling:
            return
        found = nested_found(state, level, ceiling, memos)
        if found is not None:
            yield _lead(ctx, geo, found, rating.proof_value(found[0]))
            return
