"""The engine's two orders (TECHNIQUES.md, "Wave 3"): the simplest step first by default, never a
guess; the seed's fixed order one option away; hints, documents and banks that say which."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import techniques
from explainer import Puzzle, PuzzleError
from explainer.app.hints import check_grid, hint, next_step_from, read_grid_state
from explainer.engine.orders import SEED as SEED_ORDER
from explainer.engine.orders import Rater, contexts, next_step, pattern_size, simplest_step
from explainer.model.explanation import Explanation
from explainer.model.rating import difficulty
from explainer.model.technique import left_out
from tests.conftest import SEED, top1465, verify_documents

ROOT = Path(__file__).resolve().parents[1]
BANKS = ROOT / "tests" / "data" / "banks"
KINDS = techniques.all_kinds()

# top1465 line 250 before the seed order's 54th step (a w wing, r9c7<>1): an x wing on 1 applies too
W_AND_X = (
    "1...5.....2.........3.........4.....1...5.7..1.....7.......6..........8.........9...4.....1...5...."
    ".....6...1.3.5...........8.........9.2.............7..1.3.5..........7.........8.........91.3.5....."
    "2............6...1..45....1...5....1.345.....2...............91...5....1...5.........6..........8.."
    ".3.........4...........7.......6.........7.....4.............91...5......3.............8.1...5.....2"
    "..............8...3......1...5.....2..........4..7.....4..7..........9.....6...1...5......3......1.."
    "4............8.......7..........9....5....1..4......2............6...1...5.........6....2..........."
    "...8...3......1..4...........7..........91..45............91..45..........7.......6...1..4......2..."
    "....1..45......3.............8."
)
LUCKY_LINE = 23  # top1465: the seed order's 25th step is trial lucky (r9c2=8)


def test_the_default_takes_the_lower_rated_of_a_w_wing_and_an_x_wing() -> None:
    state = read_grid_state(W_AND_X)
    solution = check_grid(state)
    default, seed = next_step_from(state, solution), next_step_from(state, solution, "seed")
    assert default is not None and seed is not None
    assert default.technique == "x wing" and seed.technique == "w wing"
    # on the simplest order (SE's scale) the x wing is 3.2, the w wing SE's chain of six candidates, 7.1
    assert KINDS["x wing"].rate(default) == 3.2 < KINDS["w wing"].rate(seed) == 7.1
    # the engine's own calls agree with the hint's
    registry = techniques.select(None)
    assert simplest_step(state, registry) == default and next_step(state, registry) == seed


def test_the_cli_hint_names_the_step_of_the_order(capsys: pytest.CaptureFixture[str]) -> None:
    from explainer.app.cli import main

    assert main(["hint", W_AND_X]) == 0
    assert capsys.readouterr().out.strip() == "Look for: x wing."
    assert main(["hint", W_AND_X, "--order", "seed"]) == 0
    assert capsys.readouterr().out.strip() == "Look for: w wing."
    assert main(["hint", W_AND_X, "--order", "fastest"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_trial_lucky_never_on_the_default_path_and_a_uniqueness_step_on_the_seeds() -> None:
    (line,) = top1465(LUCKY_LINE)
    seed = Puzzle(line, order="seed")
    k = seed.steps_using("trial lucky")[0]
    state, solution = seed.state_before(k), seed.solution.values
    registry = techniques.select(None)
    assert next_step(state, registry, solution).technique == "trial lucky"
    # the default order gives a deduction from the same position
    step = next_step_from(state, solution)
    assert step is not None and step.technique not in ("trial lucky", "brutal")
    assert not KINDS[step.technique].lucky
    # the seed order without uniqueness keeps trial but never takes trial lucky
    unique_free = techniques.select(None, uniqueness=False)
    assert "trial" in [t.name for t in unique_free]
    ctxs = contexts(unique_free, solution, off=left_out(unique_free, SEED_ORDER, uniqueness=False))
    assert next_step(state, unique_free, solution, ctxs=ctxs).technique != "trial lucky"
    # whole explanations: no guess by default; none with --order seed --no-uniqueness either
    assert "trial lucky" not in Puzzle(line).statistics and "brutal" not in Puzzle(line).statistics
    free = Puzzle(line, order="seed", uniqueness=False)
    assert free.complete and "trial lucky" not in free.statistics


def test_the_cli_seed_order_without_uniqueness_has_no_trial_lucky(tmp_path: Path) -> None:
    from explainer.app.cli import main

    (line,) = top1465(LUCKY_LINE)
    for extra, lucky in (([], False), (["--order", "seed"], True), (["--order", "seed", "--no-uniqueness"], False)):
        out = tmp_path / "-".join(extra or ["default"])
        assert main([line, "--json-only", "--out", str(out), "-q", *extra]) == 0
        doc = json.loads((out / "steps.json").read_text())
        assert doc["order"] == ("seed" if extra else "simplest")
        assert ("trial lucky" in doc["statistics"]) == lucky, extra


def test_every_uniqueness_step_says_it_rests_on_the_single_solution() -> None:
    """unique rectangle, unique loop, bug+1, BUG and trial lucky, in English and French."""
    from techniques.uniqueness import ONE

    unique = {name for name, k in KINDS.items() if k.uniqueness}
    assert unique == {"unique rectangle", "unique loop", "bug+1", "bug", "trial lucky"}
    lines = {"unique rectangle": (SEED, "simplest"), "trial lucky": (top1465(LUCKY_LINE)[0], "seed"),
             "unique loop": (KINDS["unique loop"].example, "seed"), "bug": (KINDS["bug"].example, "seed"),
             # se_rated line 80: a bug+1 on the seed order
             "bug+1": ("2..3.....98...1....3...9.174....3.58..3.6.9..81.2....634.9...8....8...92.....2..3", "seed")}
    for name, (line, order) in lines.items():
        steps = [s for s in Puzzle(line, order=order).steps if s.technique == name]
        assert steps, name
        for s in steps:
            assert s.text.endswith(ONE["en"]) and s.text_in("fr").endswith(ONE["fr"]), (name, s.text)


def test_the_hint_of_a_learners_position_is_the_default_paths_next_step() -> None:
    (line,) = top1465(1)
    p = Puzzle(line)
    hard = [k for k, s in enumerate(p.steps) if not KINDS[s.technique].single][:4]
    for k in [0, *hard]:
        marks = p.state_before(k).to_candidates_line()
        h = hint(marks, 3, puzzle=line)
        assert h.step == p.steps[k], k
        assert h.text == p.steps[k].text


def test_ties_prefer_the_step_that_does_more_then_the_registry_then_the_smaller_pattern() -> None:
    rater = Rater(techniques.select(None))
    one = Explanation("locked candidate", eliminate=((0, 5, 1),), houses=(("box", 0), ("row", 0)))
    two = Explanation("locked candidate", eliminate=((0, 5, 1), (0, 6, 1)), houses=(("box", 0), ("row", 0)))
    assert rater.key(two) < rater.key(one)  # same rating (pointing 2.6), more eliminations
    place = Explanation("forcing chain", place=((0, 0, 1),), detail=(("kind", "cell"),))
    elim = Explanation("forcing chain", eliminate=((0, 0, 2), (0, 1, 2)), detail=(("kind", "cell"),))
    assert rater.key(place, 8.5) < rater.key(elim, 8.5)  # a placement first
    # same rating and changes: the earlier technique of the registry, then the smaller pattern
    kite = Explanation("2-string kite", eliminate=((8, 8, 1),), marked=((0, 0, 1), (0, 5, 1), (4, 0, 1), (4, 5, 1)))
    small = Explanation("2-string kite", eliminate=((8, 8, 1),), marked=((0, 0, 1), (0, 5, 1), (4, 5, 1)))
    assert rater.key(kite, 4.1)[:5] == rater.key(small, 4.1)[:5]
    assert pattern_size(small) < pattern_size(kite) and rater.key(small, 4.1) < rater.key(kite, 4.1)
    wing = Explanation("y wing", eliminate=((8, 8, 1),))
    assert rater.key(wing, 4.2) < rater.key(Explanation("xy wing", eliminate=((8, 8, 1),)), 4.2)
    # trial is not a purist's technique: it gives way to any step of the same rating, even one doing less
    trial = Explanation("trial", place=((0, 0, 1),))
    assert rater.key(elim, 9.0) < rater.key(trial, 9.0) < rater.key(elim, 9.1)


def test_a_key_bounded_by_the_best_is_none_only_when_its_first_five_terms_lose(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``Rater.key(step, bound=best)`` gives up on a step whose rating, yielding, changes or rank
    already lose to the best key (its pattern then never measured), and is the whole key otherwise."""
    import explainer.engine.orders as orders

    rater = Rater(techniques.select(None))
    one = Explanation("locked candidate", eliminate=((0, 5, 1),), houses=(("box", 0), ("row", 0)))
    two = Explanation("locked candidate", eliminate=((0, 5, 1), (0, 6, 1)), houses=(("box", 0), ("row", 0)))
    kite = Explanation("2-string kite", eliminate=((8, 8, 1),), marked=((0, 0, 1), (0, 5, 1), (4, 0, 1), (4, 5, 1)))
    small = Explanation("2-string kite", eliminate=((8, 8, 1),), marked=((0, 0, 1), (0, 5, 1), (4, 5, 1)))
    measured: list[Explanation] = []
    size_of = orders.pattern_size
    monkeypatch.setattr(orders, "pattern_size", lambda step: measured.append(step) or size_of(step))
    assert rater.key(one, bound=rater.key(two)) is None and measured == [two]  # fewer eliminations
    assert rater.key(two, bound=rater.key(one)) == rater.key(two)  # beats it: the whole key
    assert rater.key(kite, 4.1, bound=rater.key(small, 4.1)) == rater.key(kite, 4.1)  # a tie up to the pattern
    assert rater.key(kite, 4.2, bound=rater.key(small, 4.1)) is None  # rated higher
    assert rater.key(one, bound=None) == rater.key(one)


def test_the_simplest_search_passes_are_made_once_a_run_solution_readers_last() -> None:
    """``Rater.passes``: the techniques in the order of their least rating, those without a
    context left out, those reading the solution in a second pass; the same object at every step."""
    from explainer.engine.orders import SIMPLEST

    chosen = techniques.select(None)
    rater = Rater(chosen, SIMPLEST.view)
    ctxs = contexts(chosen, None, SIMPLEST)  # no solution: the techniques reading it get no context
    first, last = rater.passes(chosen, ctxs)
    assert not last and [i for _, i, _, _ in first] == [
        i for _, i, reads in rater.tries if not reads and ctxs[i] is not None]
    assert all(t is chosen[i] and ctx is ctxs[i] for _, i, t, ctx in first)
    assert rater.passes(chosen, ctxs) is rater.passes(chosen, ctxs)
    known = contexts(chosen, list(range(81)), SIMPLEST)
    readers = [i for _, i, reads in rater.tries if reads]
    assert readers and [i for _, i, _, _ in rater.passes(chosen, known)[1]] == readers

def test_a_recorded_step_is_a_copy_with_its_state_before() -> None:
    """The engine records each step with the state it was found in, on a copy: the step a finder
    made (which a session may keep) is left as it was, and the copy equals it field for field."""
    from explainer.engine.loop import Puzzle as EnginePuzzle
    from explainer.engine.loop import _recorded
    from explainer.model.state import State

    step = Explanation("x wing", eliminate=((1, 4, 7), (7, 4, 7)), text="t", detail=(("size", 2),))
    before = State.from_grid(EnginePuzzle(SEED, []).grid).snapshot()
    out = _recorded(step, before)
    assert out is not step and out == step and type(out) is Explanation
    assert out.before is before and step.before is None
    assert out.to_dict() == step.to_dict() and repr(out) == repr(step)



def test_orders_are_named_and_the_old_option_is_an_alias() -> None:
    assert Puzzle(SEED).order.name == "simplest" and Puzzle(SEED, order="seed").order.name == "seed"
    with pytest.deprecated_call():  # the old name, read at the library's edge only
        assert Puzzle(SEED, easiest=True).order.name == "simplest" and Puzzle(SEED, easiest=False).order.name == "seed"
    with pytest.raises(ValueError, match="unknown order"):
        Puzzle(SEED, order="quickest")
    with pytest.raises(ValueError, match="contradicts"), pytest.deprecated_call():
        Puzzle(SEED, order="seed", easiest=True)


def test_easiest_is_read_nowhere_inside() -> None:
    """``easiest`` is the order's old name: the engine and the orders take an order only."""
    import inspect

    from explainer import engine
    from explainer.engine.orders import order_named

    assert "easiest" not in inspect.signature(engine.Puzzle).parameters
    assert "easiest" not in inspect.signature(order_named).parameters


def test_documents_record_their_order_and_class_by_er(tmp_path: Path) -> None:
    docs = [Puzzle(SEED).to_json(), Puzzle(SEED, order="seed").to_json()]
    assert [d["order"] for d in docs] == ["simplest", "seed"]
    assert list(docs[0])[-2:] == ["order", "steps"]
    for d in docs:
        assert d["difficulty"] == difficulty(d["rating"]["er"])
    verify_documents(docs, tmp_path)


def test_steps_lists_the_simplest_first(capsys: pytest.CaptureFixture[str]) -> None:
    from explainer.app.allsteps import all_steps

    state = read_grid_state(W_AND_X)
    simplest = all_steps(state, ["fish", "w wing", "chain"])
    seed = all_steps(state, ["fish", "w wing", "chain"], order="seed")
    assert sorted(map(repr, simplest)) == sorted(map(repr, seed))
    ratings = [KINDS[s.technique].rate(s) for s in simplest]
    assert ratings == sorted(ratings) and simplest[0].technique == "x wing"
    assert seed[0].technique == "w wing"
    from explainer.app.cli import main

    assert main(["steps", W_AND_X, "--technique", "fish,w wing", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["order"] == "simplest" and doc["steps"][0]["technique"] == "x wing"


# ---- banks built before wave 3 -------------------------------------------------------------

def _stored_documents(path: Path) -> dict[str, dict]:
    """The documents of a bank as stored, read without the program's bank class (any schema ≥ 3)."""
    from explainer.app.bank.pack import unpack
    from explainer.app.bank.payloads import Payloads

    con = sqlite3.connect(path)
    try:
        payloads = Payloads(con)
        rows = con.execute("SELECT p.text, d.data FROM puzzles p JOIN payloads d ON d.puzzle_id = p.id").fetchall()
        return {text: unpack(payloads.parts(blob)) for text, blob in rows}
    finally:
        con.close()


@pytest.mark.parametrize("name, order", [("bank-v3-seed.sqlite", "seed"), ("bank-v3-easiest.sqlite", "simplest")])
def test_a_bank_built_before_wave_3_is_migrated(name: str, order: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Banks built by the program before this change (schema 3, meta ``path``, difficulty by the
    steps used): refused with the command that converts them; ``db migrate`` keeps the steps and
    ratings, classes by ER, records the order, and the result opens, queries and exports."""
    from explainer.app.bank.db import PuzzleDB
    from explainer.app.cli import main
    from techniques.uniqueness import ONE

    db = tmp_path / name
    db.write_bytes((BANKS / name).read_bytes())
    old = _stored_documents(db)
    assert all("order" not in d for d in old.values())
    assert main(["db", "stats", "--db", str(db)]) == 2
    assert f"explain-sudoku db migrate --db {db}" in capsys.readouterr().err
    assert main(["db", "migrate", "--db", str(db)]) == 0
    assert "schema version 3 -> 4" in capsys.readouterr().out
    backup = tmp_path / f"{name}.v3.bak"  # the original, kept beside
    assert sqlite3.connect(backup).execute("PRAGMA user_version").fetchone()[0] == 3
    assert _stored_documents(backup) == old
    new = _stored_documents(db)
    assert new.keys() == old.keys()
    for text, doc in new.items():
        before = old[text]
        assert doc["order"] == order and list(doc)[-2:] == ["order", "steps"]
        assert doc["difficulty"] == difficulty(doc["rating"]["er"])
        assert {k: v for k, v in doc.items() if k not in ("order", "difficulty", "steps")} == \
            {k: v for k, v in before.items() if k not in ("difficulty", "steps")}
        for s, t in zip(doc["steps"], before["steps"], strict=True):
            if s["technique"] == "trial lucky":  # says now that it rests on the single solution
                assert s["text"] == f"{t['text']} {ONE['en']}"
                assert s["translations"]["fr"] == f"{t['translations']['fr']} {ONE['fr']}"
            else:
                assert s == t
    with PuzzleDB(db, create=False) as store:
        assert store.order() == order
        rows = store.conn.execute("SELECT difficulty, er FROM puzzles WHERE error IS NULL").fetchall()
        assert rows and all(d == difficulty(er) for d, er in rows)
        assert (store.stats()["puzzles"], store.stats()["errors"]) == (6, 1)
        assert store.query(difficulty="difficult")  # top1465 line 23 (ER 9.0 and up on both orders)
    export = tmp_path / "export.jsonl"
    assert main(["db", "export", "--db", str(db), "-o", str(export)]) == 0
    verify_documents([json.loads(x) for x in export.read_text().splitlines()], tmp_path)
    # a resumed build must use the bank's order
    more = tmp_path / "more.txt"
    more.write_text(SEED + "\n")
    other = "seed" if order == "simplest" else "simplest"
    assert main(["db", "build", str(more), "--db", str(db), "--order", other, "--no-progress"]) == 2
    assert f"built in the {order} order" in capsys.readouterr().err
    assert main(["db", "build", str(more), "--db", str(db), "--order", order, "--no-progress", "--jobs", "1"]) == 0


def test_help_describes_the_orders() -> None:
    # steps lists the registry's techniques: Sudoku Explainer's orders (their own lists) are not offered
    every = "{simplest,seed,se,se-classic}"
    for argv, shown in ((["--help"], every), (["hint", "--help"], every), (["steps", "--help"], "{simplest,seed}"),
                        (["db", "build", "--help"], every)):
        out = subprocess.run([sys.executable, "-m", "explainer.app.cli", *argv], capture_output=True, text=True,
                             cwd=ROOT).stdout
        assert f"--order {shown}" in out and "simplest" in out and "seed" in out, argv


def test_one_order_value_from_a_name_to_the_finders() -> None:
    """An order is one value (explainer.Order): looked up by name in one place, carried by the
    puzzle, written by its name; a finder sees a rating bound on a ranked order, none otherwise."""
    from explainer import Order
    from explainer.engine.orders import ORDERS, SIMPLEST, order_named, register

    assert order_named("seed") is SEED_ORDER and order_named(None) is SIMPLEST and order_named(SIMPLEST) is SIMPLEST
    with pytest.raises(PuzzleError, match="unknown order 'quickest' .choose from simplest, seed"):
        order_named("quickest")
    assert isinstance(Puzzle(SEED, order="seed").order, Order)
    ctxs = [c for c in contexts(techniques.select(None), None, SIMPLEST) if c is not None]
    assert all(c.bound is not None and c.lowest_first and c.ceiling == float("inf") for c in ctxs)
    assert all(c.bound is None and not c.lowest_first for c in contexts(techniques.select(None), None, SEED_ORDER)
               if c is not None)
    # a third order is a registry entry away (a ranked one chooses like the simplest)
    extra = Order("test-lowest", ranked=True, view="pattern", lucky=True, help="for this test")
    register(extra)
    try:
        assert order_named("test-lowest") is extra
        assert Puzzle(SEED, order="test-lowest").to_json()["order"] == "test-lowest"
        with pytest.raises(ValueError, match="registered already"):
            register(extra)
    finally:
        del ORDERS["test-lowest"]


def test_the_old_option_warns_and_gives_the_simplest_order(capsys: pytest.CaptureFixture[str]) -> None:
    from explainer.app.cli import build_parser, with_command

    args = build_parser().parse_args(with_command([SEED, "--easiest"]))
    assert args.order.name == "simplest"
    assert capsys.readouterr().err == "explain-sudoku: warning: --easiest is deprecated, use --order simplest\n"


def test_a_lead_that_knows_its_whole_key_is_built_only_when_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Single positions come as leads with their rating and pattern size: the engine ranks them
    by their whole choice key and builds the one it takes, nothing else."""
    import techniques.singles as singles
    from explainer.engine.loop import Puzzle as EnginePuzzle

    built = []
    step_of = singles.single_position_step

    def counted(*args: object) -> Explanation:
        built.append(args[1:])
        return step_of(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(singles, "single_position_step", counted)
    steps = EnginePuzzle(SEED, techniques.select(None), check=False).steps
    taken = [s for s in steps if s.technique == "single position"]
    assert taken and len(built) == len(taken)
    monkeypatch.undo()
    assert steps == EnginePuzzle(SEED, techniques.select(None), check=True).steps


def test_a_bounded_context_is_the_context_replaced_with_its_bound() -> None:
    """``Rater.bounded`` copies a context with the best rating so far as its bound: equal to
    ``dataclasses.replace`` of it, the context it came from left as it was, made once a bound."""
    import dataclasses

    from explainer.engine.orders import SIMPLEST
    from explainer.model.technique import Bound

    chosen = techniques.select(None)
    rater = Rater(chosen, SIMPLEST.view)
    ctxs = contexts(chosen, None, SIMPLEST)
    i = next(k for k, ctx in enumerate(ctxs) if ctx is not None)
    ctx = ctxs[i]
    assert ctx is not None
    made = rater.bounded(i, ctx, 4.2, True)
    assert made == dataclasses.replace(ctx, bound=Bound(4.2, True, SIMPLEST.view)) and made is not ctx
    assert made.session is ctx.session and ctx.bound != made.bound
    assert rater.bounded(i, ctx, 4.2, True) is made
