"""Drawing forcing proofs (issue 11): hand-made proofs of every kind, and one
found by singles propagation on a real state."""
import pytest

from explainer.model.explanation import Explanation
from explainer.model.grid import parse_grid
from explainer.model.proof import Branch, BranchEnd, Proof, ProofFact
from explainer.model.state import State
from render.frame import FrameRenderer
from render.proofdraw import ARROWS, LIMIT
from render.scene import proof_scenes, scene
from render.theme import theme

# top1465 line 1: hard enough that singles from one assumption run a while
TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _state():
    return State.from_grid(parse_grid(TOP1))


def _real_contradiction():
    """A short real contradiction: singles propagation from each candidate of TOP1."""
    st = _state()
    n = 9
    for cell in range(81):
        for v in st.candidates(cell):
            b = singles_branch(st, (cell // n, cell % n, v, True))
            if b is not None:
                b = minimal_any(b)
                if 5 <= len(b.facts) <= LIMIT:
                    return st, b
    pytest.skip("no short contradiction found")


def _cand(st, k=0):
    cells = [c for c in range(81) if len(st.candidates(c)) >= 2]
    c = cells[k]
    return c // 9, c % 9, st.candidates(c)


def _step(proof, **kw):
    return Explanation(technique="forcing chain", proof=proof, text="Forcing chain: hand-made.", **kw)


def test_contradiction_proof_drawn_whole():
    st, b = _real_contradiction()
    proof = Proof("contradiction", 0, (b,))
    r, c, v, _ = b.assume
    step = _step(proof, eliminate=((r, c, v),))
    sc = scene(st, step, number=17)
    assert sc.of("assumption", "thick") and sc.of("implies")
    assert sc.of("contradiction")  # the emptied cell, or the house left without a place
    # every peer fact has an arrow from its premise in another cell (a cell's last candidate
    # stands beside the struck rings of its cell; a house's last place gets its house dotted);
    # a value's removals of its digit along its row or column share one arrow per side
    arrows: set = set()
    for i, f in enumerate(b.facts[1:], 1):
        for j in f.premises if f.rule == "peer" else ():
            p = b.facts[j].fact
            if p[:2] == f.fact[:2]:
                continue
            line = p[3] and not f.fact[3] and p[2] == f.fact[2] and (p[0] == f.fact[0] or p[1] == f.fact[1])
            if line:
                axis = 0 if p[0] == f.fact[0] else 1
                arrows.add((j, axis, f.fact[1 - axis] > p[1 - axis]))
            else:
                arrows.add((j, i))
    assert len(sc.of("implies")) == len(arrows)
    ends = {pt for a in sc.of("implies") for pt in (a.points[0], a.points[-1])}
    assert len(ends) >= 2
    trues = {f.fact[:3] for f in b.facts[1:] if f.fact[3]}
    assert sc.cands("implied-true") == trues
    houses = sum(1 for f in b.facts[1:] if f.rule == "house")
    assert len(sc.of("implied-true", "dotted")) == houses
    # the summary strikes what the step removes, the assumption ringed around it
    assert sc.cands("removed", "struck") == {(r, c, v)} and (r, c, v) in sc.cands("assumption", "thick")
    assert proof_scenes(st, step, number=17) == []  # one short branch: the step's frame shows it all


def test_long_branch_is_cut_into_parts(tmp_path):
    st, b = _real_contradiction()
    proof = Proof("contradiction", 0, (b,))
    step = _step(proof)
    subs = proof_scenes(st, step, number=17, limit=3)
    assert len(subs) >= 2
    assert [s.suffix for s in subs][:2] == ["a", "b"]
    assert subs[0].text("title").startswith("Step 17a")
    assert "Part 1 of" in subs[0].text("caption") and subs[0].text("caption").startswith("Part 1")
    # each part shows the assumption, at most 3 new facts (the earlier ones faint), and only
    # the last the end
    assert all(s.of("assumption", "thick") for s in subs)
    assert subs[-1].of("contradiction") and not subs[0].of("contradiction")
    assert not [s for s in subs[0] if s.faint] and [s for s in subs[-1] if s.faint]
    assert all(len(s.of("implies")) <= ARROWS for s in subs)
    r = FrameRenderer(9)
    for s in subs:
        (tmp_path / f"017{s.suffix}.png").write_bytes(r.png(s))


def _two_branch(st, kind):
    r, c, vs = _cand(st, 3)
    v = vs[0]
    # two branches sharing a conclusion (hand-made, not checked for soundness)
    cells = [x for x in range(81) if x // 9 == r and x != r * 9 + c and v in st.candidates(x)]
    shared = (r, cells[0] % 9, v, False)
    b1 = Branch((r, c, v, True), (ProofFact((r, c, v, True), "assume"),
                                  ProofFact(shared, "peer", (0,))),
                BranchEnd("conclusion", conclusion=(1,)))
    a2 = (r, c, v, False) if kind == "double" else (r, c, vs[1], True)
    b2 = Branch(a2, (ProofFact(a2, "assume"), ProofFact(shared, "peer", (0,))),
                BranchEnd("conclusion", conclusion=(1,)))
    return Proof(kind, 0, (b1, b2))


@pytest.mark.parametrize("kind", ["double", "cell", "house"])
def test_multi_branch_proofs_get_one_subframe_per_branch(kind):
    st = _state()
    proof = _two_branch(st, kind)
    step = _step(proof)
    main = scene(st, step, number=5)
    # the step's frame: both assumptions, each in its branch's tint, and where the proof is
    assert sorted(s.group for s in main.of("assumption", "thick")) == [0, 1]
    assert len({s.colour for s in main.of("assumption", "thick")}) == 2
    assert "5a" in main.text("caption") and "5b" in main.text("caption")
    subs = proof_scenes(st, step, number=5)
    assert [s.suffix for s in subs] == ["a", "b"]
    assert subs[0].text("caption").startswith("Branch 1 of 2")
    assert subs[1].text("caption").startswith("Branch 2 of 2")
    assert all(s.of("conclusion") for s in subs)
    fr = proof_scenes(st, step, number=5, lang="fr")
    assert fr[0].text("caption").startswith("Branche 1 sur 2")


def test_house_and_twice_ends_and_nested_step():
    st = _state()
    r, c, vs = _cand(st, 0)
    v = vs[0]
    inner = Explanation(technique="locked candidate", eliminate=((r, (c + 3) % 9, v),), text="inner",
                        houses=(("box", (r // 3) * 3 + (c + 3) % 9 // 3), ("row", r)))
    facts = (ProofFact((r, c, v, True), "assume"),
             ProofFact((r, (c + 3) % 9, v, False), "step", (0,), inner),
             ProofFact((r, (c + 5) % 9, v, True), "house", (1,)))
    b = Branch((r, c, v, True), facts, BranchEnd("twice", (0, 2), cells=((r, c), (r, (c + 5) % 9)), value=v))
    step = _step(Proof("contradiction", 1, (b,), dynamic=True))
    sc = scene(st, step, number=3)
    # a fact of a technique applied in the branch: its locking houses dotted, no arrow
    assert not sc.of("implies") and sc.of("implied-false", "dotted")
    assert len(sc.of("contradiction", "halo")) == 2
    b2 = Branch((r, c, v, True), facts[:2], BranchEnd("house", (1,), house=("row", r), value=v))
    sc2 = scene(st, _step(Proof("contradiction", 0, (b2,))), number=3)
    assert [s for s in sc2.of("contradiction", "thick") if s.house == ("row", r)]
    subs = proof_scenes(st, step, number=3, limit=1)
    assert "in this branch" in subs[0].text("caption") and subs[0].of("implied-false", "dotted")


@pytest.mark.parametrize("palette", ["default", "colorblind", "high-contrast"])
def test_proof_frames_render(palette, tmp_path):
    st, b = _real_contradiction()
    step = _step(Proof("contradiction", 0, (b,)))
    r = FrameRenderer(9, theme(palette))
    data = r.png(scene(st, step, number=17))
    assert data[:4] == b"\x89PNG"
    (tmp_path / "proof.png").write_bytes(data)
    for s in proof_scenes(st, _step(_two_branch(st, "cell")), number=5):
        assert r.png(s)[:4] == b"\x89PNG"


def test_no_proof_disk_on_the_digit_the_step_places():
    st, b = _real_contradiction()
    r, c, v, _ = b.assume
    # a contradiction on r,c=v true places another candidate there (hand-made claim)
    other = [w for w in st.candidates(r * 9 + c) if w != v][0]
    sc = scene(st, _step(Proof("contradiction", 0, (b,)), place=((r, c, other),)), number=4)
    # either the big digit alone, or (the step marks the cell: its assumption) the cell's
    # candidates with the placed one on its disk: never a disk on a big digit
    big = [s for s in sc if s.kind == "value" and (s.row, s.col) == (r, c)]
    marks = [s for s in sc if s.kind in ("disk", "ring", "struck-ring") and (s.row, s.col) == (r, c)]
    assert not (big and marks)


def singles_branch(state, assume):
    """Naked and hidden singles from one assumption, every fact with its premises
    (rules peer, cell, house), until a cell or a house runs out: the Branch, or None."""
    geo = state.geo
    n = geo.n
    orig = {c: set(state.candidates(c)) for c in range(n * n) if not state.values[c]}
    cand = {c: set(s) for c, s in orig.items()}
    facts, index, true_at = [], {}, {}

    def add(fact, rule, prem):
        if fact in index:
            return False
        index[fact] = len(facts)
        facts.append(ProofFact(fact, rule, tuple(prem)))
        queue.append(fact)
        return True

    def false_of(c, v):
        return index.get((c // n, c % n, v, False))

    queue = []
    add(assume, "assume", ())
    while queue:
        r, c, v, t = queue.pop(0)
        cell = r * n + c
        me = index[(r, c, v, t)]
        if t:
            true_at[cell] = v
            for w in sorted(cand[cell] - {v}):
                add((r, c, w, False), "peer", [me])
            for p in geo.peers[cell]:
                if p in cand and v in cand[p] and p not in true_at:
                    add((p // n, p % n, v, False), "peer", [me])
            continue
        cand[cell].discard(v)
        if not cand[cell]:
            return Branch(assume, tuple(facts), BranchEnd("cell", tuple(false_of(cell, w) for w in sorted(orig[cell])),
                                                          cell=(r, c)))
        if len(cand[cell]) == 1 and cell not in true_at:
            (w,) = cand[cell]
            add((r, c, w, True), "cell", [false_of(cell, x) for x in sorted(orig[cell]) if x != w])
        for h in geo.cell_houses[cell]:
            if any(true_at.get(x) == v or state.values[x] == v for x in geo.houses[h]):
                continue
            places = [x for x in geo.houses[h] if x in cand and v in cand[x]]
            was = [x for x in geo.houses[h] if x in orig and v in orig[x]]
            if not places:
                return Branch(assume, tuple(facts), BranchEnd("house", tuple(false_of(x, v) for x in was),
                                                              house=geo.house_key(h), value=v))
            if len(places) == 1:
                p = places[0]
                add((p // n, p % n, v, True), "house", [false_of(x, v) for x in was if x != p])
    return None


def minimal_any(b):
    """``minimal`` for every end kind (house ends keep their value)."""
    need, todo = {0}, list(b.end.premises)
    while todo:
        k = todo.pop()
        if k not in need:
            need.add(k)
            todo += list(b.facts[k].premises)
    keep = sorted(need)
    new = {old: i for i, old in enumerate(keep)}
    facts = tuple(ProofFact(b.facts[k].fact, b.facts[k].rule, tuple(new[j] for j in b.facts[k].premises))
                  for k in keep)
    e = b.end
    end = BranchEnd(e.kind, tuple(new[j] for j in e.premises), cell=e.cell, house=e.house, value=e.value)
    return Branch(b.assume, facts, end)


def test_real_trial_step_with_its_proof(tmp_path):
    """The first trial step of f36 (issue 13) drawn with the proof the engine recorded:
    the assumption, the implications and the contradiction (or the shared conclusion)."""
    from explainer.api import Puzzle
    from tests.conftest import top1465

    p = Puzzle(top1465(36)[0], order="seed")  # f36 of issue 13: its steps in the seed order
    k = next(i for i, s in enumerate(p.steps) if s.technique.startswith("trial"))
    step = p.steps[k]
    assert step.proof is not None and step.proof.branches
    main = scene(step.before, step, number=k + 1, givens=p.grid.values)
    subs = proof_scenes(step.before, step, number=k + 1, givens=p.grid.values)
    ends = [b.end for b in step.proof.branches]
    assert (subs[0] if subs else main).of("assumption")
    if subs:
        assert [sc.suffix for sc in subs][:2] == ["a", "b"][:len(subs)]
        drawn_end = any(sc.of("contradiction") or sc.of("conclusion") for sc in subs)
    else:
        drawn_end = bool(main.of("contradiction") or main.of("conclusion"))
    assert drawn_end, ends
    r = FrameRenderer(9)
    for sc in [main] + subs:
        (tmp_path / f"{k + 1:03d}{sc.suffix}.png").write_bytes(r.png(sc))


def test_step_scenes_for_the_exporter():
    from render.scene import step_scenes

    st = _state()
    step = _step(_two_branch(st, "cell"))
    frames = step_scenes(st, step, number=17)
    assert [f.suffix for f in frames] == ["", "a", "b"]
    assert [f.text("title").split(" — ")[0] for f in frames] == ["Step 17", "Step 17a", "Step 17b"]
    plain = Explanation(technique="locked candidate", eliminate=((0, 1, 2),), text="x")
    assert [f.suffix for f in step_scenes(st, plain, number=3)] == [""]


def _nested_proof(st):
    """A proof whose branch asserts two facts each proved by a nested contradiction (hand-made)."""
    r, c, vs = _cand(st, 0)
    v = vs[0]
    inner_facts = []
    for k, (rr, cc) in enumerate(((r, (c + 3) % 9), (r, (c + 6) % 9))):
        ib = Branch((rr, cc, v, True), (ProofFact((rr, cc, v, True), "assume"),
                                        ProofFact((r, c, v, False), "peer", (0,))),
                    BranchEnd("cell", (1,), cell=(r, c)))
        inner = Explanation(technique="forcing chain", eliminate=((rr, cc, v),), text=f"inner {k}",
                            proof=Proof("contradiction", 0, (ib,)))
        inner_facts.append(ProofFact((rr, cc, v, False), "step", (0,), inner))
    facts = (ProofFact((r, c, v, True), "assume"), *inner_facts)
    b = Branch((r, c, v, True), facts, BranchEnd("house", (1, 2), house=("row", r), value=v))
    return Proof("contradiction", 1, (b,))


def test_nested_proofs_get_their_own_frames_in_proof_order():
    """Issue 23: an inner contradiction is drawn too, in frames named so that file order is
    proof order (17a, then 17a1, 17a2 for the facts it proves, then 17b …)."""
    st = _state()
    proof = _nested_proof(st)
    step = _step(proof)
    subs = proof_scenes(st, step, number=17)
    assert [s.suffix for s in subs] == ["a", "a1", "a2"]
    assert sorted(s.suffix for s in subs) == [s.suffix for s in subs]
    assert "frame 17a1" in subs[0].text("caption") and "frame 17a2" in subs[0].text("caption")
    assert subs[1].text("caption").startswith("Why r")
    assert subs[1].of("contradiction") and subs[1].of("assumption", "thick")
    assert [s for s in subs[1] if s.faint]  # the outer facts it rests on, faint


def test_suffixes_keep_file_order_for_any_count():
    from render.proofdraw import _token

    for depth in (0, 1):
        for count in (1, 9, 10, 26, 27, 120, 700):
            names = [_token(i, count, depth) for i in range(count)]
            assert sorted(names) == names and len(set(names)) == count and len({len(x) for x in names}) == 1
            assert all(f"017{x}-T.png" > "017-T.png" for x in names)
    assert [_token(i, 27, 0) for i in (0, 25, 26)] == ["aa", "az", "ba"]
    assert [_token(i, 12, 1) for i in (0, 11)] == ["01", "12"]


def test_more_parts_than_letters_no_crash():
    """Issue 23: ``SUFFIXES[count - 1]`` raised IndexError past 26 sub-frames (the README's
    16×16 example): a long branch gets two-letter suffixes, in order."""
    st = _state()
    cands = [(c // 9, c % 9, v) for c in range(81) for v in st.candidates(c)]
    r, c, v = cands[0]
    facts = [ProofFact((r, c, v, True), "assume")]
    # cells' last candidates (no arrows: the check is on the frames' names, not on routing)
    facts += [ProofFact((rr, cc, vv, False), "cell", ()) for rr, cc, vv in cands[1:] if (rr, cc) != (r, c)]
    assert len(facts) > 26 * LIMIT
    b = Branch((r, c, v, True), tuple(facts), BranchEnd("cell", (1,), cell=facts[1].fact[:2]))
    step = _step(Proof("contradiction", 0, (b,)), eliminate=((r, c, v),))
    subs = proof_scenes(st, step, number=5)
    assert len(subs) > 26 and all(len(s.suffix) == 2 for s in subs)
    assert [s.suffix for s in subs] == sorted(s.suffix for s in subs)
    main = scene(st, step, number=5)
    # more parts than a handful: the main chain first (level 1), then every fact (level 2)
    chain = [s for s in subs if s.level == 1]
    assert 1 <= len(chain) <= 3 and [s.level for s in subs] == [1] * len(chain) + [2] * (len(subs) - len(chain))
    assert f"frames 5{subs[len(chain)].suffix}–5{subs[-1].suffix}" in main.text("caption")
    assert [s.suffix for s in proof_scenes(st, step, number=5, depth=1)] == [s.suffix for s in chain]


def test_a_real_nested_proof_is_drawn_to_its_last_fact():
    """Issue 23, on hardest300 line 2's first step (a forcing chain whose branch rests on
    nested contradictions): every fact of the proof and of every nested proof, at any
    depth, is in some sub-frame, each nested proof follows the part asserting it, and no
    sub-frame draws more than ``ARROWS`` new arrows (earlier facts are faint)."""
    from explainer import Puzzle
    from render import proofdraw
    from tests.conftest import SHARED

    line = (SHARED / "data" / "hardest300.txt").read_text().split("\n")[1].split()[0]
    step = Puzzle(line).steps[0]
    assert step.proof is not None and step.proof.level >= 1
    parts = proofdraw.plan(step.proof)
    covered: dict[tuple[int, int], set[int]] = {}
    for part in parts:
        covered.setdefault((id(part.proof), part.branch), set()).update(range(part.lo, part.hi))
        if part.outer is not None:  # after the outer part that asserts it, in file order
            assert part.outer[0].suffix < part.suffix and part.suffix.startswith(part.outer[0].suffix)

    def check(proof) -> int:
        count = 0
        for i, b in enumerate(proof.branches):
            assert covered[(id(proof), i)] == set(range(1, len(b.facts))), (proof, i)
            count += len(b.facts)
            for f in b.facts:
                if f.rule == "step" and f.step is not None and f.step.proof is not None:
                    count += check(f.step.proof)
        return count

    assert check(step.proof) > 2 * LIMIT  # nested facts included: many frames' worth
    assert any(p.outer is not None for p in parts)
    for sc in proof_scenes(step.before, step, number=1):
        new = [s for s in sc if s.role == "implies" and not s.faint]
        assert len(new) <= ARROWS, (sc.suffix, len(new))
