"""The engine's check mode (explainer.engine.check): every finder call watched in tests.

Issue 36, item 0: the xy wing finder swapped its loop cells in place, so later pincer pairs
were read against the wrong first pincer; the default order (which reads past a finder's
first step) took one such step and removed a true value on three of the 49,158 clue17
puzzles. Check mode would have caught it at the first wrong step yielded, sound or not: a
wing's cells must be unfillable with a removed candidate true. The tests below run the three
puzzles in check mode on the compiled and the pure path, run the old finder (a copy of it,
kept here) to see the check fail, and make finders break each rule once.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace

import pytest

import techniques
from explainer import core
from explainer.api import Puzzle
from explainer.engine import check
from explainer.engine.check import CHECK_ENV, FinderFault, step_problems
from explainer.model.explanation import Explanation
from explainer.model.grid import bits
from explainer.model.i18n import Cells, Value
from explainer.model.roles import on
from explainer.model.session import Session, session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context, Lead, Technique, built
from techniques import xywings

# clue17 lines 35924, 25771 and 43447: the default order removed a true 9 with an xy wing
CLUE17 = {
    35924: "........1.......2...3.45...........3.2.6.....4.7...5.....1........37....8.5....6.",
    25771: "..............1..2.34....5.........6..7.....12..45.......73.....2.......16....8..",
    43447: "........1.......23..4.56........2.7.....4.6...81.........3....8..6.7....2........",
}


def old_find_xy_wing(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """The xy wing finder before the fix: ``a`` and ``b`` swapped inside the loop over ``b``."""
    geo = state.geo
    cand, pos, peer = state.cand, state.pos, geo.peer_mask
    bivalue = 0
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            bivalue |= 1 << c
    for pivot in bits(bivalue):
        pm = cand[pivot]
        near = [c for c in bits(peer[pivot] & bivalue)]
        for i, a in enumerate(near):
            ma = cand[a]
            share_a = ma & pm
            if ma == pm or not share_a:
                continue
            z_bit = ma & ~pm
            for b in near[i + 1:]:
                mb = cand[b]
                if mb != (pm & ~share_a) | z_bit:
                    continue
                z = z_bit.bit_length()
                removed = pos[z - 1] & peer[a] & peer[b] & ~(1 << pivot)
                if removed:
                    x, y = share_a.bit_length(), (pm & ~share_a).bit_length()
                    if x > y:
                        x, y, a, b = y, x, b, a  # noqa: PLW2901 - the bug kept on purpose
                    yield xywings.wing_step(state, "xy wing", xywings.XY_WING, pivot, [a, b], z, removed,
                                                x=Value(x), y=Value(y), p1=Cells(geo, [a]), p2=Cells(geo, [b]))


def with_finder(name: str, finder: object) -> list[Technique]:
    return [replace(t, find=finder) if t.name == name else t for t in techniques.REGISTRY]


def explain(puzzle: str, order: str, chosen: list[Technique] | None = None) -> dict[str, object]:
    """A checked run: its outcome as plain data (for the pure path's subprocess too)."""
    try:
        p = Puzzle(puzzle, chosen, order=order, check=True)
        return {"steps": len(p.steps), "complete": p.complete, "pure": core.compiled_info() is None}
    except AssertionError as e:
        return {"fault": f"{type(e).__name__}: {e}", "pure": core.compiled_info() is None}


@pytest.mark.parametrize("line", sorted(CLUE17))
@pytest.mark.parametrize("order", ["simplest", "seed"])
def test_the_xy_wing_puzzles_pass_the_checks(line: int, order: str) -> None:
    out = explain(CLUE17[line], order)
    assert out.get("complete") is True, out


@pytest.mark.parametrize("line", sorted(CLUE17))
def test_check_mode_catches_the_old_xy_wing(line: int) -> None:
    out = explain(CLUE17[line], "simplest", with_finder("xy wing", old_find_xy_wing))
    assert "fault" in out
    fault = str(out["fault"])
    assert fault.startswith("FinderFault: xy wing yielded a step that does not hold")
    # the pattern check, not only the solution: a wrong wing is caught even where it is sound
    assert "a filling" in fault


def test_the_pattern_check_needs_no_solution() -> None:
    # the first wrong step of the old finder on clue17 line 35924, without the solution:
    # its cells can be filled with its removal true
    p = Puzzle(CLUE17[35924])
    for k in range(len(p.steps)):
        state = p.state_before(k)
        wrong = [s for s in old_find_xy_wing(state) if step_problems(state, s)]
        if wrong:
            assert all("a filling" in " ".join(step_problems(state, s)) for s in wrong)
            return
    pytest.fail("the old finder yields no wrong step on this puzzle")


PURE_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tests.test_check import CLUE17, explain, old_find_xy_wing, with_finder
out = {f"{o} {k}": explain(p, o) for k, p in CLUE17.items() for o in ("simplest", "seed")}
out.update({f"old {k}": explain(p, "simplest", with_finder("xy wing", old_find_xy_wing)) for k, p in CLUE17.items()})
print(json.dumps(out))
"""


def test_the_pure_path_passes_and_catches_alike() -> None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, **{core.PURE_ENV: "1"})
    proc = subprocess.run([sys.executable, "-c", PURE_SCRIPT, root], capture_output=True, text=True, env=env,
                          timeout=600, cwd=root)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    assert all(r["pure"] for r in out.values()), "the subprocess did not run the pure path"
    for key, r in out.items():
        if key.startswith("old"):
            assert "a filling" in r.get("fault", ""), (key, r)
        else:
            assert r.get("complete") is True, (key, r)


# ---- each rule broken once -----------------------------------------------------------------

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


def faulty(name: str, finder: object) -> str:
    with pytest.raises(FinderFault) as info:
        Puzzle(SEED, with_finder(name, finder), order="simplest", check=True).steps
    return str(info.value)


def single_positions(state: State, ctx: Context) -> Iterator[Explanation]:
    return techniques.lookup("single position").find(state, ctx)


def test_a_finder_changing_the_state_is_caught() -> None:
    def changes(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        c = next(i for i, m in enumerate(state.cand) if m.bit_count() > 1)
        state.eliminate(c, state.cand[c].bit_length())
        yield from single_positions(state, ctx)

    assert "single position changed the state" in faulty("single position", changes)


def test_a_change_made_when_closed_early_is_caught() -> None:
    # the engine stops reading a finder after a step that cannot be beaten: what the finder
    # does when it is closed (its cleanup) is checked too
    def cleanup(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        try:
            yield from single_positions(state, ctx)
        finally:
            c = next(i for i, m in enumerate(state.cand) if m.bit_count() > 1)
            state.eliminate(c, state.cand[c].bit_length())

    assert "single position changed the state when it was closed" in faulty("single position", cleanup)


def test_a_replaced_session_table_is_caught() -> None:
    state = Puzzle(SEED).initial_state()
    session = Session(state)
    session.derived("test.table", lambda s: [1])

    def replaces(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        session_of(state, ctx)._derived["test.table"] = [2]  # a table of this state replaced
        yield from single_positions(state, ctx)

    ctx = Context(session=session)
    with pytest.raises(FinderFault, match="changed the session's table 'test.table'"):
        list(check.guarded(replaces(state, ctx), "replaces", state, ctx, None))
    # adding a table is how the session fills: allowed
    ctx = Context(session=Session(state))
    assert list(check.guarded(first_adds(state, ctx), "adds", state, ctx, None))


def first_adds(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    session_of(state, ctx).derived("test.table", lambda s: [1])
    yield from single_positions(state, ctx)


def test_a_step_naming_a_dead_candidate_is_caught() -> None:
    def dead(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
        for step in built(single_positions(state, ctx)):  # a lead built, to be spoiled
            (r, c, v), = step.place
            n = state.geo.n
            other = next(x for x in range(1, n + 1) if not state.cand[r * n + c] >> (x - 1) & 1 and x != v)
            yield replace(step, roles=step.roles + (on("reason", candidates=[(r, c, other)]),))
        return

    assert "not a candidate of the state" in faulty("single position", dead)


def test_a_lead_whose_bare_step_is_not_its_step_is_caught() -> None:
    # a lead ranked by its bare step (``Lead.bare``: chains) must be its step without words and
    # roles; one that says a shorter chain than it builds would be ranked wrongly
    def shorter(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation | Lead]:
        for lead in techniques.lookup("chain").find(state, ctx):
            assert isinstance(lead, Lead) and lead.bare is not None
            yield replace(lead, bare=replace(lead.bare, detail=(("length", 1),)))

    assert "bare step is not the step" in faulty("chain", shorter)


def test_check_mode_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CHECK_ENV, raising=False)
    assert not Puzzle(SEED).check
    assert Puzzle(SEED, check=True).check
    monkeypatch.setenv(CHECK_ENV, "1")
    assert Puzzle(SEED).check and not Puzzle(SEED, check=False).check
    assert check.check_requested()
