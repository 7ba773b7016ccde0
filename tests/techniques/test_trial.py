"""Trial and trial lucky, checked against an independent singles propagation
written here (sets, not masks), on states taken from top1465."""
import pytest

from explainer.api import Puzzle
from explainer.app.hints.pencilmarks import format_pencilmarks
from explainer.engine.orders import next_step
from explainer.model.state import State
from techniques import REGISTRY, trial
from tests.techniques.chain_fixtures import top1465

# top1465 lines (1-based) whose first trial step is of each kind
FIRST_TRIAL = {"contradiction": 36, "lucky": 23, "common": 62}


def state_before_first_trial(k: int):
    p = top1465(k)
    i = next(i for i, s in enumerate(p.steps) if s.technique in ("trial", "trial lucky"))
    return p.state_before(i), p.steps[i]


def naive(state: State, cell: int, value: int):
    """Assume cell=value and apply singles: (values, candidates) or None on a contradiction."""
    n = 9
    vals = list(state.values)
    cands = [set(state.candidates(c)) for c in range(81)]
    houses = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
    houses += [[(3 * (b // 3) + i) * 9 + 3 * (b % 3) + j for i in range(3) for j in range(3)] for b in range(9)]
    peers = [set().union(*(h for h in houses if c in h)) - {c} for c in range(81)]

    def put(c, v):
        if vals[c] or v not in cands[c]:
            return vals[c] == v
        vals[c], cands[c] = v, set()
        for p in peers[c]:
            cands[p].discard(v)
        return True

    if not put(cell, value):
        return None
    changed = True
    while changed:
        changed = False
        for c in range(81):
            if not vals[c]:
                if not cands[c]:
                    return None
                if len(cands[c]) == 1:
                    put(c, next(iter(cands[c])))
                    changed = True
        for h in houses:
            for v in range(1, n + 1):
                if any(vals[c] == v for c in h):
                    if sum(vals[c] == v for c in h) > 1:
                        return None
                    continue
                where = [c for c in h if v in cands[c]]
                if not where:
                    return None
                if len(where) == 1:
                    put(where[0], v)
                    changed = True
    return vals, cands


def test_contradiction_places_the_other_end():
    state, step = state_before_first_trial(FIRST_TRIAL["contradiction"])
    assert step.technique == "trial" and step.get("contradiction")
    assert len(step.place) == 1 and not step.eliminate
    (r, c, v), = step.place
    (other,) = [m for m in step.marked if m != (r, c, v)]
    assert naive(state, other[0] * 9 + other[1], other[2]) is None  # the other end contradicts
    assert "leads to a contradiction" in step.text


def test_lucky_solves_the_grid():
    state, step = state_before_first_trial(FIRST_TRIAL["lucky"])
    assert step.technique == "trial lucky"
    (r, c, v), = step.place
    result = naive(state, r * 9 + c, v)
    assert result is not None and all(result[0])


def test_common_conclusions_hold_in_both_cases():
    state, step = state_before_first_trial(FIRST_TRIAL["common"])
    assert step.technique == "trial" and not step.get("contradiction")
    a, b = step.marked
    ra, rb = naive(state, a[0] * 9 + a[1], a[2]), naive(state, b[0] * 9 + b[1], b[2])
    assert ra is not None and rb is not None
    for r, c, v in step.place:
        assert ra[0][r * 9 + c] == v == rb[0][r * 9 + c]
    for r, c, v in step.eliminate:
        for vals, cands in (ra, rb):
            assert vals[r * 9 + c] != v and v not in cands[r * 9 + c]
    assert step.place or step.eliminate


def test_a_placement_is_not_repeated_as_eliminations():
    _, step = state_before_first_trial(FIRST_TRIAL["common"])
    placed = {(r, c) for r, c, _ in step.place}
    assert not any((r, c) in placed for r, c, _ in step.eliminate)


def test_pure_and_repeatable():
    state, _ = state_before_first_trial(FIRST_TRIAL["contradiction"])
    before = format_pencilmarks(state)
    assert list(trial.find(state))[:5] == list(trial.find(state))[:5]
    assert format_pencilmarks(state) == before


@pytest.mark.parametrize("poison", [False, True])
def test_never_reads_the_solution(poison):
    """Without the solution (or with a wrong one, which only brutal may see), the steps are
    the same up to the first brutal."""
    # without the forcing chains (which finish this puzzle), the run ends with brutal
    registry = [t for t in REGISTRY if t.name != "forcing chain"]
    p = top1465(130)  # its first brutal cell keeps the poisoned value as a candidate
    p = Puzzle(p.grid, [t.name for t in registry])
    names = [s.technique for s in p.steps]
    assert "brutal" in names
    upto = names.index("brutal")
    wrong = [(v % 9) + 1 for v in p.solution.values] if poison else None
    state = p.initial_state()
    got = []
    while len(got) < upto:
        step = next_step(state, registry, wrong)
        assert step is not None
        got.append(step)
        state.apply(step)
    assert got == p.steps[:upto]
    if poison:
        assert next_step(state, registry, wrong).technique == "brutal"
    else:
        assert next_step(state, registry, None) is None


@pytest.mark.parametrize("kind", sorted(FIRST_TRIAL))
def test_the_proof_replays(kind):
    from tests.techniques.forcing_helpers import check_step

    state, step = state_before_first_trial(FIRST_TRIAL[kind])
    assert step.proof is not None and step.get("size") == step.proof.size
    assert check_step(state, step) == []
    if kind == "lucky":
        assert step.proof.branches[0].end.kind == "solved"
    elif kind == "contradiction":
        (r, c, v), = step.place
        assert step.proof.branches[0].assume == (r, c, v, False)
    else:
        assert step.proof.kind == "double" and [b.assume[3] for b in step.proof.branches] == [True, False]


def _agree_cell_by_cell(state: State, ra, rb) -> bool:
    """Two runs may agree: a cell both changed where they place the same value, or where a
    candidate of the state is gone in both (each run's cell: its placed value or what is left)."""
    for c in range(state.geo.ncells):
        if not (ra.changed >> c & 1 and rb.changed >> c & 1):
            continue
        x, y = ra.value(c), rb.value(c)
        if x and x == y:
            return True
        ka = (1 << (x - 1)) if x else ra.left(c)
        kb = (1 << (y - 1)) if y else rb.left(c)
        if state.cand[c] & ~ka & ~kb:
            return True
    return False


@pytest.mark.parametrize("n", [9, 16])
def test_may_agree_is_the_cell_by_cell_test(n):
    """``_may_agree`` reads two bit rows per run (removed candidates, placed values); over
    every strong link of real states it answers as a look at each cell both runs changed,
    and says yes and no both."""
    from pathlib import Path

    from techniques.links import links

    if n == 9:
        states = [state_before_first_trial(k)[0] for k in FIRST_TRIAL.values()]
    else:
        text = (Path(__file__).resolve().parents[2] / "examples" / "16x16-hard.txt").read_text()
        p = Puzzle([x for x in text.splitlines() if x and not x.startswith("#")][0])
        states = [p.state_before(i) for i in (len(p.steps) // 3, len(p.steps) // 2)]
    seen = set()
    for state in states:
        lk = links(state)
        pairs = trial._strong_links_in_order(state)
        ends = list(dict.fromkeys((lk.cell(x), lk.value(x)) for pair in pairs for x in pair))
        runs = trial._Runs(state, ends)
        for a, b in pairs:
            ra, rb = runs(lk.cell(a), lk.value(a)), runs(lk.cell(b), lk.value(b))
            if ra.contradiction or rb.contradiction:
                continue
            want = _agree_cell_by_cell(state, ra, rb)
            assert trial._may_agree(ra, rb) == want
            seen.add(want)
    assert seen == {False, True}
