"""The recording implication engine behind ``trial`` and ``forcing chain``.

From one assumption on a copy of the candidates, apply implications while
recording, for each new fact, the rule and the earlier facts it rests on
(STEPS_JSON.md, ``proof``):

- ``peer``: a true fact (x, v) makes v false in every peer of x and every
  other candidate of x false;
- ``cell``: a cell whose every other step-start candidate is false holds the
  last one (naked single);
- ``house``: a value whose every other step-start place in a house is false
  goes in the last one (hidden single);
- ``step`` (nested branches, ``level`` > 0): when singles stall, every
  candidate whose own assumption contradicts at level-1 in the branch's
  state is false. Those candidates are found by the numpy batch
  (``batch.closure``); the nested proof of each is traced only if the final
  proof keeps it (``extract``).

The run stops at a contradiction (a cell with no candidate, a value with no
place in a house, a value twice in a house), a full grid, or a fixpoint.
``extract`` keeps the facts the end (or the chosen conclusions) rests on,
renumbered, as ``explainer.model.proof`` records. The tracer reads only the
candidates, never the solution.
"""
from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

from explainer.core import load
from explainer.model.grid import Geometry
from explainer.model.proof import Branch, BranchEnd, ProofFact
from explainer.model.state import State
from explainer.model.technique import built

# fact record: (cell, value, truth, rule, premises, extra)
#   extra: house index for "house" facts, a _Lazy for "step" facts, else None
Rec = tuple[Any, ...]

# The compiled recording propagator (explainer.core._propagate.Recorder): level-0 branches
# (dynamic ones too), fact for fact the same as ``Tracer.run`` below (its pure twin).
_C = load("_propagate")


class _End(Exception):
    def __init__(self, kind: str, premises: list[int], **kw: Any) -> None:
        super().__init__(kind)
        self.kind, self.premises, self.kw = kind, premises, kw


class _Lazy:
    """A nested contradiction found by the batch; traced when a proof keeps it."""

    __slots__ = ("cell", "value", "level", "upto", "result")

    def __init__(self, cell: int, value: int, level: int, upto: int) -> None:
        self.cell, self.value, self.level, self.upto = cell, value, level, upto
        # (the nested step, its premises here, the candidates it needs absent)
        self.result: tuple[Any, tuple[int, ...], set[tuple[int, int]]] | None = None


class Trace:
    """One branch run: ``facts`` (records), ``end`` (an _End or None), lookups.

    A compiled run (``record``) keeps its facts in C and builds a fact's tuple when it is read."""

    def __init__(self, tracer: Tracer, record: Any = None) -> None:
        self.tracer = tracer
        self.end: _End | None = None
        self.index: dict[tuple[int, int, bool], int] = {}
        # the implications the run allowed (``extract`` keeps to them when it shortens a proof)
        self.static = False
        self.one_digit = False
        self.record = record
        if record is None:
            self.facts: Sequence[Rec] = []
            self.solved = False
            return
        self.facts = record
        self.solved = record.solved
        end = record.end
        if end is not None:
            self.end = _End(end[0], end[1], **end[2])

    def find(self, cell: int, value: int, truth: bool) -> int | None:
        if self.record is not None:
            found: int | None = self.record.find(cell, value, truth)
            return found
        return self.index.get((cell, value, truth))


class Tracer:
    """Runs branches from a fixed step-start state (``state``: values, candidates)."""

    def __init__(self, state: State, root: State | None = None,
                 nested: Callable[[State, State, int, int, int], Any] | None = None) -> None:
        self.state = state
        self.root = root if root is not None else state  # the forcing step's start state
        self.geo: Geometry = state.geo
        # (root, branch state, cell, value, level) -> (Explanation, candidates it needs absent)
        self.nested = nested
        self._recorder: Any = None  # the compiled recorder of this state, made on first use

    # ---- one branch ----------------------------------------------------------------
    def run(self, cell: int, value: int, truth: bool = True, level: int = 0, dynamic: bool = False,
            static: bool = False, one_digit: bool = False) -> Trace:
        """One branch. ``static``: single-premise implications only (``batch.propagate``'s
        ``start``): a cell turns true, or empties into a contradiction, only if it had two
        candidates at the start; a house likewise for a value with two places there.
        ``one_digit``: only the assumed value's own implications (peers and houses, no
        cell rule): SE's Nishio chains. Level 0 runs compiled when the extension is built
        (``_C.Recorder``); otherwise, and for nested levels, the pure ``_Branch``."""
        if _C is not None and level <= 0:
            return self._compiled_run(cell, value, truth, dynamic, static, one_digit)
        return _Branch(self, static, one_digit).run(cell, value, truth, level, dynamic)

    def _compiled_run(self, cell: int, value: int, truth: bool, dynamic: bool, static: bool,
                      one_digit: bool) -> Trace:
        """A level-0 branch by the compiled recorder of this state (made on first use)."""
        assert _C is not None
        if self._recorder is None:
            self._recorder = _C.Recorder(self.geo.n, array("I", self.state.cand), bytes(self.state.values),
                                         partial(_locked_step, self.state))
        compiled = Trace(self, self._recorder.run(cell, value, truth, static, one_digit, dynamic))
        compiled.static, compiled.one_digit = static, one_digit
        return compiled

    # ---- nested facts ----------------------------------------------------------------
    def branch_state(self, tr: Trace, upto: int, falses: list[int] | None = None) -> State:
        """The step-start state minus the false facts (of ``falses``, or all before ``upto``)."""
        st = self.state.copy()
        idx = falses if falses is not None else range(upto)
        for i in idx:
            c, v, t = tr.facts[i][:3]
            if not t:
                st.eliminate(c, v)
        return st

    def resolve(self, tr: Trace, i: int) -> tuple[int, ...]:
        """Trace a lazy nested fact: its premises (the false facts its proof needs absent)."""
        lazy: _Lazy = tr.facts[i][5]
        if lazy.result is None:
            assert self.nested is not None, "nested facts need a nested prover"
            sub_state = self.branch_state(tr, lazy.upto)
            step, needed = self.nested(self.root, sub_state, lazy.cell, lazy.value, lazy.level)
            found = (tr.find(c, v, False) for c, v in needed)
            prem = sorted({i for i in found if i is not None}) or [0]
            lazy.result = (step, tuple(prem), needed)
        return lazy.result[1]

    @staticmethod
    def inner_needs(tr: Trace) -> dict[int, set[tuple[int, int]]]:
        """The needs (relative to the root) of the nested steps traced so far, by step id."""
        return {id(r[5].result[0]): r[5].result[2] for r in tr.facts
                if r[3] == "step" and isinstance(r[5], _Lazy) and r[5].result is not None}


class _Branch:
    """One branch propagated in pure Python (``Tracer.run`` below level 0, or without the compiled
    recorder): the facts it records (``Trace``), the candidates they leave, and the rules that add
    them: a false fact may leave a cell one value or a house one place (a true fact, rule "cell" or
    "house"); a true fact makes its peers and its cell's other values false ("peer"); a dynamic run
    adds locked candidates of the branch's state ("step"); a nested one, the candidates that
    contradict one level down. The first contradiction ends the branch (``_End``)."""

    def __init__(self, tracer: Tracer, static: bool, one_digit: bool) -> None:
        geo = tracer.geo
        st = tracer.state
        self.tracer = tracer
        self.geo = geo
        self.st = st
        self.start, self.vals = st.cand, st.values
        self.static, self.one_digit = static, one_digit
        self.tr = Trace(tracer)
        self.tr.static, self.tr.one_digit = static, one_digit
        self.facts: list[Rec] = []
        self.tr.facts = self.facts
        self.index = self.tr.index
        self.cur = list(self.start)
        self.pos = list(st.pos)
        self.true_of = [-1] * geo.ncells
        self.htrue: dict[tuple[int, int], int] = {}
        self.given = _given_masks(geo, self.vals)
        self.queue: deque[int] = deque()

    def run(self, cell: int, value: int, truth: bool, level: int, dynamic: bool) -> Trace:
        """Assume (cell, value) true or false and propagate until a contradiction, or nothing follows."""
        tr, geo, vals, true_of = self.tr, self.geo, self.vals, self.true_of
        try:
            if truth:
                self.add_true(cell, value, "assume", ())
            else:
                self.add_false(cell, value, "assume", ())
            seeded = False
            while True:
                while self.queue:
                    self.expand(self.queue.popleft())
                if dynamic and self.locked_facts():
                    continue
                if level > 0 and not seeded:
                    seeded = True
                    if self.start_singles():
                        continue
                if level <= 0 or all(true_of[c] >= 0 or vals[c] for c in range(geo.ncells)):
                    break
                if not self.nested_facts(level):
                    break
        except _End as e:
            tr.end = e
        if tr.end is None:
            tr.solved = all(true_of[c] >= 0 or vals[c] for c in range(geo.ncells))
        return tr

    def false_idx(self, c: int, v: int) -> int:
        return self.index[(c, v, False)]

    def record(self, c: int, v: int, t: bool, rule: str, prem: tuple[int, ...], extra: Any = None
               ) -> tuple[int, bool]:
        """The fact's index, and whether it is new (a fact already known keeps its first reason)."""
        key = (c, v, t)
        known = self.index.get(key)
        if known is not None:
            return known, False
        facts = self.facts
        i = len(facts)
        facts.append((c, v, t, rule, prem, extra))
        self.index[key] = i
        return i, True

    def conflict(self, ti: int, fi: int) -> None:
        facts = self.facts
        c, v, _, rule, prem, extra = facts[ti]
        if rule == "cell":
            raise _End("cell", list(prem) + [fi], cell=c)
        if rule == "house":
            raise _End("house", list(prem) + [fi], house=extra, value=v)
        # the true fact is an assumption: the false one is a peer of a true premise
        p = facts[fi][4][0] if facts[fi][3] == "peer" else None
        if p is None:
            raise AssertionError("unexpected conflict")  # pragma: no cover
        pc, pv = facts[p][0], facts[p][1]
        if pc != c:
            raise _End("twice", [ti, p], cells=(c, pc), value=v)
        # two true values in one cell: the other one is a cell/house fact
        gi = self.add_false(pc, pv, "peer", (ti,), check=False)
        self.conflict(p, gi)

    def add_false(self, c: int, v: int, rule: str, prem: tuple[int, ...], extra: Any = None,
                  check: bool = True) -> int:
        i, new = self.record(c, v, False, rule, prem, extra)
        if not new:
            return i
        index = self.index
        bit = 1 << (v - 1)
        cur, pos, start, st = self.cur, self.pos, self.start, self.st
        cur[c] &= ~bit
        pos[v - 1] &= ~(1 << c)
        ti = index.get((c, v, True))
        if ti is not None:
            if check:
                self.conflict(ti, i)
            return i
        m = cur[c]
        static = self.static
        two = (not static or start[c].bit_count() <= 2) and not self.one_digit
        false_idx = self.false_idx
        if not m and two:
            raise _End("cell", [false_idx(c, u + 1) for u in _bits(start[c])], cell=c)
        if m and two and self.true_of[c] < 0 and not m & (m - 1):
            u = m.bit_length()
            self.add_true(c, u, "cell", tuple(false_idx(c, w + 1) for w in _bits(start[c]) if w + 1 != u))
        pv = pos[v - 1]
        geo, given, htrue = self.geo, self.given, self.htrue
        hmask = geo.house_mask
        for h in geo.cell_houses[c]:
            if given[h] & bit:
                continue
            w = pv & hmask[h]
            if static and (st.pos[v - 1] & hmask[h]).bit_count() > 2:
                continue
            if not w:
                raise _End("house", [false_idx(y, v) for y in _bits(st.pos[v - 1] & hmask[h])],
                           house=h, value=v)
            if not w & (w - 1) and (h, v) not in htrue:
                y = w.bit_length() - 1
                self.add_true(y, v, "house", tuple(false_idx(z, v) for z in _bits(st.pos[v - 1] & hmask[h])
                                                   if z != y), h)
        return i

    def add_true(self, c: int, v: int, rule: str, prem: tuple[int, ...], extra: Any = None) -> int:
        i, new = self.record(c, v, True, rule, prem, extra)
        if not new:
            return i
        fi = self.index.get((c, v, False))
        if fi is not None:
            self.conflict(i, fi)
        true_of, facts = self.true_of, self.facts
        if true_of[c] >= 0:
            # another value is already true here: it loses this one (peer), a conflict
            gi = self.add_false(c, facts[true_of[c]][1], "peer", (i,), check=False)
            self.conflict(true_of[c], gi)
        true_of[c] = i
        htrue = self.htrue
        for h in self.geo.cell_houses[c]:
            j = htrue.get((h, v))
            if j is not None:
                raise _End("twice", [j, i], cells=(facts[j][0], c), value=v)
            htrue[(h, v)] = i
        self.queue.append(i)
        return i

    def expand(self, i: int) -> None:
        """A true fact's consequences: its cell's other values and its value's peers are false."""
        c, v = self.facts[i][0], self.facts[i][1]
        add_false = self.add_false
        for u in _bits(self.start[c]):
            if u + 1 != v and not self.one_digit:
                add_false(c, u + 1, "peer", (i,))
        for y in _bits(self.geo.peer_mask[c] & self.st.pos[v - 1]):
            add_false(y, v, "peer", (i,))

    def start_singles(self) -> bool:
        """Nested: the singles the step-start state already has (a cell with one candidate, a
        value with one place in a house) as premise-free ``cell``/``house`` facts. The batch
        that finds the nested facts decides them from the branch's row, so the branch must
        hold them too, or a nested proof would rest on a single its tracer never makes (a
        learner's position is not closed under singles; the engine's states are, and
        there this adds nothing)."""
        geo, st, start, vals, true_of, htrue = self.geo, self.st, self.start, self.vals, self.true_of, self.htrue
        n, hmask = geo.n, geo.house_mask
        added = False
        for c in range(geo.ncells):
            m = start[c]
            if not vals[c] and true_of[c] < 0 and m and not m & (m - 1):
                self.add_true(c, m.bit_length(), "cell", ())
                added = True
        for h in range(len(geo.houses)):
            for u in _bits(((1 << n) - 1) & ~self.given[h]):
                w = st.pos[u] & hmask[h]
                if w and not w & (w - 1) and (h, u + 1) not in htrue:
                    self.add_true(w.bit_length() - 1, u + 1, "house", (), h)
                    added = True
        return added

    def locked_facts(self) -> bool:
        """Dynamic: locked candidates of the branch's state, as ``step`` facts resting on
        the false facts that confine the value to the intersection."""
        from .intersections import find as find_locked

        n, hmask, st, index = self.geo.n, self.geo.house_mask, self.st, self.index
        branch = self.tracer.branch_state(self.tr, len(self.facts))
        done = False
        for step in built(find_locked(branch)):
            (k1, i1), (k2, i2) = step.houses
            r1 = _HOUSE_BASE[k1] * n + i1
            inter = hmask[r1] & hmask[_HOUSE_BASE[k2] * n + i2]
            v = step.eliminate[0][2]
            prem = tuple(index[(z, v, False)] for z in _bits(st.pos[v - 1] & hmask[r1] & ~inter)) or (0,)
            for r, c, _ in step.eliminate:
                self.add_false(r * n + c, v, "step", prem, step)
            done = True
        return done

    def nested_facts(self, level: int) -> bool:
        """Nested: the candidates that contradict at level-1 in this branch's state, as false
        ``step`` facts (their proofs made when read, ``_Lazy``); False when there are none."""
        import numpy as np

        from explainer.core import propagate as batch

        geo, vals, true_of, cur, facts = self.geo, self.vals, self.true_of, self.cur, self.facts
        t = batch.tables(geo.n)
        row = np.array([(1 << (vals[c] - 1)) if vals[c] else
                        ((1 << (facts[true_of[c]][1] - 1)) if true_of[c] >= 0 else cur[c])
                        for c in range(geo.ncells)], dtype=t.dtype)
        tests = [(c, u + 1) for c in range(geo.ncells) if not vals[c] and true_of[c] < 0
                 for u in _bits(cur[c])]
        bad = batch.contradicting(row, t, tests, level - 1, chunk=batch.CHUNK // 2)
        if not bad.any():
            return False
        upto = len(facts)
        for (c, v), b in zip(tests, bad, strict=False):
            if b:
                self.add_false(c, v, "step", (), _Lazy(c, v, level - 1, upto))
        return True


def _given_masks(geo: Geometry, vals: Sequence[int]) -> list[int]:
    """Per house, the values already placed in it (a house rule never fires for them)."""
    given = [0] * (3 * geo.n)
    for h, cells in enumerate(geo.houses):
        m = 0
        for c in cells:
            if vals[c]:
                m |= 1 << (vals[c] - 1)
        given[h] = m
    return given


_HOUSE_BASE = {"row": 0, "col": 1, "box": 2}


def _locked_step(state: State, record: Any, k: int) -> Any:
    """The k-th locked-candidates step of a compiled dynamic branch (``record``) as the
    Explanation ``intersections.find`` gives for it in the branch's state (the step-start
    state without the branch's false facts found before it): read only when a kept fact
    needs it."""
    from .intersections import locked_step

    v, r1, r2, upto = record.step_info(k)
    branch = state.copy()
    for c, w in record.falses(upto):
        branch.eliminate(c, w)
    step = locked_step(branch, v, r1, r2)
    if step is None:  # pragma: no cover
        raise AssertionError(f"no locked candidate for {v} in houses {r1}, {r2}")
    return step


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ---- minimal proofs -------------------------------------------------------------------

def needed_closure(tr: Trace, roots: list[int], resolve: bool = True) -> list[int]:
    """Indices of the facts the roots rest on (roots included), in order; without
    ``resolve``, nested facts count as resting on nothing (a cheap size estimate)."""
    if tr.record is not None:  # a compiled run: no nested facts
        needed: list[int] = tr.record.needed(roots)
        return needed
    keep: set[int] = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i in keep:
            continue
        keep.add(i)
        rec = tr.facts[i]
        if rec[3] == "step" and isinstance(rec[5], _Lazy):
            prem = tr.tracer.resolve(tr, i) if resolve else ()
        else:
            prem = rec[4]
        stack.extend(prem)
    keep.add(0)
    return sorted(keep)


def _alternatives(tr: Trace, i: int) -> list[tuple[str, tuple[int, ...]]]:
    """Every way fact ``i`` follows from earlier facts of the run, under the run's rules:
    (rule, premises). A false fact: a true fact that sees it (or another value of its cell);
    a true fact: its cell's other candidates all false, or its value's other places in one
    of its houses all false. Assumptions and technique facts keep their own."""
    c, v, t, rule, prem, _ = tr.facts[i]
    if rule in ("assume", "step"):
        return [(rule, prem)]
    st = tr.tracer.state
    geo = st.geo

    def earlier(cell: int, value: int, truth: bool) -> int | None:
        j = tr.find(cell, value, truth)
        return j if j is not None and j < i else None

    out: list[tuple[str, tuple[int, ...]]] = []
    if not t:
        for y in _bits(geo.peer_mask[c] & st.pos[v - 1]):
            j = earlier(y, v, True)
            if j is not None:
                out.append(("peer", (j,)))
        if not tr.one_digit:
            for u in _bits(st.cand[c]):
                j = earlier(c, u + 1, True) if u + 1 != v else None
                if j is not None:
                    out.append(("peer", (j,)))
        return out or [(rule, prem)]
    others = [u + 1 for u in _bits(st.cand[c]) if u + 1 != v]
    if not tr.one_digit and (not tr.static or len(others) <= 1):
        prem_c = [earlier(c, u, False) for u in others]
        if None not in prem_c:
            out.append(("cell", tuple(j for j in prem_c if j is not None)))
    for h in geo.cell_houses[c]:
        places = [y for y in _bits(st.pos[v - 1] & geo.house_mask[h]) if y != c]
        if tr.static and len(places) > 1:
            continue
        prem_h = [earlier(y, v, False) for y in places]
        if places and None not in prem_h:
            out.append(("house", tuple(j for j in prem_h if j is not None)))
    return out or [(rule, prem)]


def _closure(tr: Trace, roots: list[int], choice: dict[int, tuple[str, tuple[int, ...]]],
             resolve: bool = True) -> set[int]:
    """The facts the roots rest on under ``choice``; without ``resolve`` a nested fact not
    traced yet counts as resting on nothing (its tracing is left for the proof kept)."""
    keep: set[int] = {0}
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i in keep and i != 0:
            continue
        keep.add(i)
        rec = tr.facts[i]
        if rec[3] == "step" and isinstance(rec[5], _Lazy):
            if resolve or rec[5].result is not None:
                stack.extend(p for p in tr.tracer.resolve(tr, i) if p not in keep)
        else:
            stack.extend(p for p in choice.get(i, (rec[3], rec[4]))[1] if p not in keep)
    return keep


def shortest(tr: Trace, roots: list[int], rounds: int = 4) -> dict[int, tuple[str, tuple[int, ...]]]:
    """A way to justify each fact that keeps the proof of ``roots`` short: the cheapest
    derivation of each fact counted as a tree (one pass in run order), then single
    changes that shrink the kept set, while some does (at most ``rounds`` passes).
    Only the run's own rules are used (a static run's facts stay single-premise)."""
    n = len(tr.facts)
    alts = [_alternatives(tr, i) for i in range(n)]
    cost = [1] * n
    choice: dict[int, tuple[str, tuple[int, ...]]] = {}
    for i in range(n):
        best = min(alts[i], key=lambda a: sum(cost[p] for p in a[1]))
        choice[i] = best
        cost[i] = 1 + sum(cost[p] for p in best[1])
    keep = _closure(tr, roots, choice, resolve=False)
    for _ in range(rounds):
        better = False
        for i in sorted(keep):
            if len(alts[i]) < 2 or i not in keep:
                continue
            for alt in alts[i]:
                if alt == choice[i]:
                    continue
                old = choice[i]
                choice[i] = alt
                trial = _closure(tr, roots, choice, resolve=False)
                if len(trial) < len(keep):
                    keep, better = trial, True
                else:
                    choice[i] = old
        if not better:
            break
    return choice


def extract(tr: Trace, conclusion: list[int] | None = None, solved: bool = False) -> Branch:
    """The smallest recorded branch: only the facts the end (or the conclusions) needs,
    each justified the way that keeps them fewest (``shortest``; a compiled run's own
    minimisation, its twin, when the run is compiled)."""
    geo = tr.tracer.geo
    n = geo.n
    if conclusion is not None:
        roots = list(conclusion)
    elif solved:
        roots = [i for i, r in enumerate(tr.facts) if r[2]]
    else:
        assert tr.end is not None
        roots = list(tr.end.premises)
    kept = kept_facts(tr, roots)
    new = {old: k for k, (old, _, _) in enumerate(kept)}
    out = []
    for old, rule, prem in kept:
        c, v, t, _, _, extra = tr.facts[old]
        step = None
        if rule == "step":
            if isinstance(extra, _Lazy):
                assert extra.result is not None, "a kept nested fact is resolved"
                step, prem = extra.result[0], extra.result[1]
            else:
                step = extra
        out.append(ProofFact((c // n, c % n, v, t), rule, tuple(new[p] for p in prem), step))
    if conclusion is not None:
        end = BranchEnd("conclusion", conclusion=tuple(new[i] for i in conclusion))
    elif solved:
        end = BranchEnd("solved")
    else:
        e = tr.end
        assert e is not None
        prem = tuple(sorted(new[p] for p in set(e.premises)))
        if e.kind == "cell":
            c = e.kw["cell"]
            end = BranchEnd("cell", prem, cell=(c // n, c % n))
        elif e.kind == "house":
            end = BranchEnd("house", prem, house=geo.house_key(e.kw["house"]), value=e.kw["value"])
        else:
            a, b = e.kw["cells"]
            end = BranchEnd("twice", prem, cells=((a // n, a % n), (b // n, b % n)), value=e.kw["value"])
    return Branch(out[0].fact, tuple(out), end)


def kept_facts(tr: Trace, roots: list[int]) -> list[tuple[int, str, tuple[int, ...]]]:
    """The facts the smallest proof of ``roots`` keeps, in run order, each with the rule and
    premises that justify it there: (fact, rule, premises). A compiled run minimises in C
    (``Record.shortest``, the twin of ``shortest`` and ``_closure``)."""
    if tr.record is not None:
        kept: list[tuple[int, str, tuple[int, ...]]] | None = tr.record.shortest(roots)
        if kept is not None:
            return kept
    choice = shortest(tr, roots)
    out = []
    for old in sorted(_closure(tr, roots, choice)):
        rule, prem = choice.get(old, (tr.facts[old][3], tr.facts[old][4]))
        out.append((old, rule, prem))
    return out


def needed_absent(state: State, branch: Branch, sub: State | None = None,
                  inner: dict[int, set[tuple[int, int]]] | None = None) -> set[tuple[int, int]]:
    """Candidates (cell, value) of ``state`` that a branch's cell/house facts and its
    contradiction end rely on being gone without a fact of the branch saying so:
    a nested proof holds in a state exactly when these are absent there. ``sub``: the
    state the branch was traced in (picks the house a house fact used); ``inner``: the
    needs of the branch's own nested steps, by ``id`` of the step."""
    geo = state.geo
    n = geo.n
    cand = state.cand
    facts = [f.fact for f in branch.facts]
    need: set[tuple[int, int]] = set()
    trues = {(r * n + c, v) for r, c, v, t in facts if t}

    def off_cell(prem: Iterable[int], x: int) -> set[int]:
        return {facts[j][2] for j in prem if not facts[j][3] and facts[j][0] * n + facts[j][1] == x}

    def off_house(prem: Iterable[int], v: int) -> set[int]:
        return {facts[j][0] * n + facts[j][1] for j in prem if not facts[j][3] and facts[j][2] == v}

    def house_places(h: int, v: int) -> list[int]:
        return [y for y in geo.houses[h] if cand[y] >> (v - 1) & 1]

    for f in branch.facts:
        r, c, v, _ = f.fact
        x = r * n + c
        if f.rule == "cell":
            off = off_cell(f.premises, x)
            need |= {(x, u + 1) for u in _bits(cand[x]) if u + 1 != v and u + 1 not in off}
        elif f.rule == "house":
            off = off_house(f.premises, v)
            best = None
            for h in geo.cell_houses[x]:
                miss = {(y, v) for y in house_places(h, v) if y != x and y not in off}
                if miss & trues or (sub is not None and any(sub.cand[y] >> (w - 1) & 1 for y, w in miss)):
                    continue  # this house is not the one the branch used
                if best is None or len(miss) < len(best):
                    best = miss
            assert best is not None, "no house justifies a house fact"
            need |= best
        elif f.rule == "step" and f.step is not None and inner is not None:
            # a nested step's own needs that no false fact of this branch covers
            mine = {(g.fact[0] * n + g.fact[1], g.fact[2]) for g in branch.facts if not g.fact[3]}
            need |= inner.get(id(f.step), set()) - mine
    e = branch.end
    if e.kind == "cell":
        assert e.cell is not None
        x = e.cell[0] * n + e.cell[1]
        off = off_cell(e.premises, x)
        need |= {(x, u + 1) for u in _bits(cand[x]) if u + 1 not in off}
    elif e.kind == "house":
        assert e.house is not None
        kind, k = e.house
        h = {"row": 0, "col": 1, "box": 2}[kind] * n + k
        off = off_house(e.premises, e.value)
        need |= {(y, e.value) for y in house_places(h, e.value) if y not in off}
    return need
