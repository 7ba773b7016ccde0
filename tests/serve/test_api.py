"""The page's requests as plain functions (explainer.app.serve.api and .more), no HTTP:
check's kinds, hint levels, a forcing-chain hint with its proof's scenes, claims, why,
explain with its rating, apply, and the position's bad input."""
from __future__ import annotations

import json

import pytest

from explainer.app.serve import api, more
from explainer.app.serve.position import BadRequest, read_position
from explainer.core.solver import unique_solution
from explainer.model.grid import parse_grid
from explainer.model.state import State
from tests.conftest import SHARED

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOL = "".join(str(v) for v in unique_solution(parse_grid(EASY)).values)
HARD2 = (SHARED / "data" / "hardest300.txt").read_text().split()[1]


def marks_of(state: State) -> str:
    return state.to_candidates_line()


def wrong_at(c: int) -> int:
    return int(SOL[c]) % 9 + 1


def test_check_on_track_and_each_kind() -> None:
    assert api.check({"puzzle": EASY}) == {"mistakes": []}
    grid = str(wrong_at(0)) + EASY[1:]
    (m,) = api.check({"puzzle": EASY, "grid": grid})["mistakes"]
    assert m == {"cell": "r1c1", "value": wrong_at(0), "kind": "value", "text": f"r1c1 is not {wrong_at(0)}"}
    st = State.from_grid(parse_grid(EASY))
    st.eliminate(5, 1)  # the last place of 1 in row 1
    (m,) = api.check({"puzzle": EASY, "marks": marks_of(st), "lang": "fr"})["mistakes"]
    assert (m["cell"], m["value"], m["kind"]) == ("r1c6", 1, "removed") and m["text"].startswith("vous avez retiré")


def test_marks_left_empty_mean_no_marks_yet() -> None:
    n = 9
    marks = "." * (n ** 3)
    assert api.check({"puzzle": EASY, "marks": marks}) == {"mistakes": []}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_hint_levels(level: int) -> None:
    h = api.hint({"puzzle": EASY, "level": level})
    assert h["level"] == level and h["technique"] == "single position"
    if level == 1:
        assert h["text"] == "Look for: single position." and h["step"] is None
    elif level == 2:
        assert h["text"].startswith("Look for: single position, in ") and h["step"] is None
    else:
        assert h["step"]["place"] and h["scenes"][0]["title"] == "single position"
        assert h["scenes"][0]["caption"] == h["text"] and isinstance(h["rating"], float)
        assert h["texts"]["1"] == "Look for: single position." and h["texts"]["3"] == h["text"]
        json.dumps(h)


def test_a_hint_after_mistakes_names_them_and_a_solved_grid_says_so() -> None:
    h = api.hint({"puzzle": EASY, "grid": str(wrong_at(0)) + EASY[1:], "level": 3})
    assert list(h) == ["mistakes"] and h["mistakes"][0]["cell"] == "r1c1"
    h = api.hint({"puzzle": EASY, "grid": SOL, "level": 2, "lang": "fr"})
    assert h["technique"] is None and h["text"] == "La grille est déjà résolue."


def test_ticked_techniques_limit_the_hint() -> None:
    h = api.hint({"puzzle": HARD2, "level": 1, "techniques": ["single position", "single candidate"]})
    assert h["technique"] is None and h.get("stuck") is True
    with pytest.raises(BadRequest, match="techniques"):
        api.hint({"puzzle": EASY, "techniques": ["bogus"]})


@pytest.mark.slow
def test_a_forcing_chain_hint_with_its_proof_scenes() -> None:
    h = api.hint({"puzzle": HARD2, "level": 3})
    assert h["technique"] == "forcing chain" and h["step"]["proof"]
    scenes = h["scenes"]
    # level 1 is what the end rests on (issue 41 item 1): for H2's first step one sub-frame
    assert [s["suffix"] for s in scenes] == ["", "a"]
    assert scenes[0]["level"] == 0 and all(s["level"] == 1 for s in scenes[1:])
    assert h["depth"] == 1 and h["deeper"] is True
    # the frame whose nested frames were left out says so, and only it
    assert [s["suffix"] for s in scenes if s["opens"]] == ["a"]
    assert any(sh["role"] == "assumption" for sh in scenes[1]["shapes"])
    assert scenes[1]["title"] == "forcing chain (a)"
    two = api.hint({"puzzle": HARD2, "level": 3, "depth": 2})
    assert len(two["scenes"]) > len(scenes) and {s["level"] for s in two["scenes"]} == {0, 1, 2}
    assert two["deeper"] is True and [s["suffix"] for s in two["scenes"]][:len(scenes)] != []


def test_apply_plays_the_step_on_the_learners_marks() -> None:
    h = api.hint({"puzzle": EASY, "level": 3})
    out = api.apply({"puzzle": EASY, "step": h["step"]})
    (r, c, v), = h["step"]["place"]
    assert out["grid"][r * 9 + c] == str(v)
    assert out["marks"][(r * 9 + c) * 9:(r * 9 + c + 1) * 9] == "." * (v - 1) + str(v) + "." * (9 - v)
    bad = dict(h["step"], place=[[r, c, v % 9 + 1]])
    with pytest.raises(BadRequest, match="not a step of this position"):
        api.apply({"puzzle": EASY, "step": bad})


def test_claims() -> None:
    h = api.hint({"puzzle": EASY, "level": 3})
    (r, c, v), = h["step"]["place"]
    ok = more.claim({"puzzle": EASY, "claim": f"r{r + 1}c{c + 1}={v}"})
    assert ok["verdict"] == "justified" and ok["step"]["technique"] == "single position" and ok["scenes"]
    assert more.claim({"puzzle": EASY, "claim": f"r{r + 1}c{c + 1}={v % 9 + 1}"})["verdict"] == "false"
    assert more.claim({"puzzle": EASY, "claim": f"r{r + 1}c{c + 1}<>{v}"})["verdict"] == "false"
    # an elimination the placement gives: the same single justifies it
    other = next(k for k in range(9) if EASY[r * 9 + k] == "." and k != c)
    assert more.claim({"puzzle": EASY, "claim": f"r{r + 1}c{other + 1}<>{v}"})["verdict"] == "justified"
    # true, but only singles ticked and none gives it
    st = read_position({"puzzle": HARD2}).state
    cell = next(k for k in range(81) if not st.values[k])
    verdict = more.claim({"puzzle": HARD2, "claim": f"r{cell // 9 + 1}c{cell % 9 + 1}={SOL_HARD[cell]}",
                          "techniques": ["single position", "single candidate"]})
    assert verdict["verdict"] == "not yet" and verdict["step"] is None
    with pytest.raises(BadRequest, match="claim"):
        more.claim({"puzzle": EASY, "claim": "r1c1 is 5"})


SOL_HARD = unique_solution(parse_grid(HARD2)).values


def test_why_a_wrong_value_and_a_removed_candidate_are_wrong() -> None:
    # a value the house already holds: no chain needed
    seen = more.why({"puzzle": EASY, "grid": "3" + EASY[1:], "mistake": {"cell": "r1c1", "value": 3, "kind": "value"}})
    assert seen["step"] is None and "r1c3 already holds 3" in seen["text"]
    # a wrong value that is still a candidate: a forcing chain to a contradiction, drawn
    st = read_position({"puzzle": EASY}).state
    c = next(k for k in range(81) if not st.values[k] and len(st.candidates(k)) > 1)
    wrong = next(v for v in st.candidates(c) if v != int(SOL[c]))
    grid = EASY[:c] + str(wrong) + EASY[c + 1:]
    name = f"r{c // 9 + 1}c{c % 9 + 1}"
    w = more.why({"puzzle": EASY, "grid": grid, "mistake": {"cell": name, "value": wrong, "kind": "value"}})
    assert w["step"]["technique"] == "forcing chain" and w["step"]["eliminate"] == [[c // 9, c % 9, wrong]]
    assert w["text"].startswith(f"Assume {name} is {wrong}: ") and w["scenes"]
    assert w["step"]["proof"]["branches"][0]["assume"][:3] == [c // 9, c % 9, wrong]
    # a removed true candidate: assume it absent, reach a contradiction
    st.eliminate(c, int(SOL[c]))
    r = more.why({"puzzle": EASY, "marks": st.to_candidates_line(),
                  "mistake": {"cell": name, "value": int(SOL[c]), "kind": "removed"}})
    assert r["step"]["place"] == [[c // 9, c % 9, int(SOL[c])]]
    with pytest.raises(BadRequest, match="no mistake"):
        more.why({"puzzle": EASY, "mistake": {"cell": name, "value": int(SOL[c]), "kind": "value"}})


def test_explain_from_a_position_with_its_rating() -> None:
    doc = more.explain({"puzzle": EASY})
    assert doc["complete"] and doc["rating"]["er"] == 1.2 and doc["difficulty"] == "easy"
    assert doc["steps"] and all("rating" in s for s in doc["steps"])
    assert doc["techniques_needed"][0]["name"] == "single position"
    half = EASY[:]
    grid = "".join(SOL[k] if k < 40 else half[k] for k in range(81))
    later = more.explain({"puzzle": EASY, "grid": grid})
    assert len(later["steps"]) < len(doc["steps"]) and later["grid"] == grid
    sc = more.scene({"puzzle": EASY, "index": 2})["scenes"]
    assert sc[0]["title"] == "Step 2 — " + doc["steps"][1]["technique"]
    # from the learner's own marks (a false candidate removed): step by step, to the end
    st = read_position({"puzzle": EASY}).state
    c = next(k for k in range(81) if not st.values[k] and len(st.candidates(k)) > 2)
    st.eliminate(c, next(v for v in st.candidates(c) if v != int(SOL[c])))
    mine = more.explain({"puzzle": EASY, "marks": st.to_candidates_line()})
    assert mine["complete"] and mine["steps"] and mine["rating"]["er"] <= doc["rating"]["er"]
    sc = more.scene({"puzzle": EASY, "marks": st.to_candidates_line(), "index": 1})["scenes"]
    assert sc[0]["title"] == "Step 1 — " + mine["steps"][0]["technique"]


def test_start_reads_any_form_and_refuses_bad_puzzles() -> None:
    rows = "\n".join(EASY[k:k + 9] for k in range(0, 81, 9))
    assert api.start({"text": "# a comment\n" + rows}) == {"puzzle": EASY, "n": 9, "givens": 32}
    with pytest.raises(BadRequest, match="more than one solution"):
        api.start({"text": "." * 81})
    with pytest.raises(BadRequest, match="no solution"):
        api.start({"text": "12345678." + "........9" + "." * 63})
    with pytest.raises(BadRequest, match="unknown character"):
        api.start({"text": "x" * 81})
    with pytest.raises(BadRequest, match="2 puzzles in the text; give one of them"):
        api.start({"text": EASY + "\n" + EASY})


@pytest.mark.parametrize("body, words", [
    ({}, "puzzle: missing"),
    ({"puzzle": 5}, "puzzle: expected a string"),
    ({"puzzle": EASY[:80]}, "not a sudoku size"),
    ({"puzzle": EASY, "grid": EASY[:80]}, "grid: 80 characters"),
    ({"puzzle": EASY, "grid": "9" + EASY[1:9] + "." + EASY[10:]}, None),
    ({"puzzle": EASY, "marks": "1" * 100}, "marks: 100 characters"),
    ({"puzzle": EASY, "marks": "x" * 729}, "marks: slot 1 of r1c1"),
    ({"puzzle": EASY, "grid": "." * 2 + "4" + EASY[3:]}, "differs from the puzzle's given"),
    ({"puzzle": EASY, "lang": "de"}, "lang"),
    ({"puzzle": EASY, "order": "fastest"}, "order"),
])
def test_bad_positions_are_one_line(body: dict, words: str | None) -> None:
    if words is None:  # a learner's clash is a mistake to name, not bad input
        assert api.check(body)["mistakes"]
        return
    with pytest.raises(BadRequest) as e:
        api.check(body)
    assert words in e.value.message and "\n" not in e.value.message and e.value.status == 400


def test_the_bank_is_read_only_and_gives_its_puzzles(tmp_path: object) -> None:
    from pathlib import Path

    from explainer.app.cli import main
    from tests.conftest import ROOT

    db = Path(str(tmp_path)) / "bank.sqlite"
    assert main(["db", "build", str(ROOT / "examples" / "easy.txt"), str(ROOT / "examples" / "4x4.txt"),
                 "--db", str(db), "--jobs", "1"]) == 0
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    info = more.bank_info(str(db))
    assert info["available"] and info["count"] >= 2 and "easy" in info["bands"]
    got = more.bank({"band": "easy", "index": 0}, str(db))
    assert api.start({"text": got["puzzle"]})["puzzle"] == got["puzzle"] and got["rating"]["difficulty"] == "easy"
    assert more.bank({}, str(db))["puzzle"]
    with pytest.raises(BadRequest, match="no puzzle of band"):
        more.bank({"band": "nothing"}, str(db))
    with pytest.raises(BadRequest) as e:
        more.bank({}, None)
    assert e.value.status == 404
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["bank.sqlite"]


def test_generate_a_puzzle() -> None:
    four = more.generate({"size": 4, "seed": 3})
    assert len(four["puzzle"]) == 16 and api.start({"text": four["puzzle"]})["n"] == 4
    easy = more.generate({"size": 9, "difficulty": "easy", "seed": 1})
    assert easy["rating"]["difficulty"] == "easy"
    with pytest.raises(BadRequest, match="size"):
        more.generate({"size": 10})
    with pytest.raises(BadRequest, match="difficulty"):
        more.generate({"difficulty": "brutal"})


@pytest.mark.slow
def test_why_proofs_replay_in_the_independent_checker(tmp_path: object) -> None:
    """A why's step is a forcing chain from the learner's position with the mistakes taken back:
    the independent checker replays its proof (from that position's values as givens)."""
    from pathlib import Path

    from tests.conftest import verify_documents

    st = read_position({"puzzle": HARD2}).state
    sol = SOL_HARD
    cells = [k for k in range(81) if not st.values[k] and len(st.candidates(k)) > 2][:3]
    docs = []
    for c in cells:
        name = f"r{c // 9 + 1}c{c % 9 + 1}"
        wrong = next(v for v in st.candidates(c) if v != sol[c])
        grid = HARD2[:c] + str(wrong) + HARD2[c + 1:]
        for body in ({"puzzle": HARD2, "grid": grid, "mistake": {"cell": name, "value": wrong, "kind": "value"}},
                     {"puzzle": HARD2, "marks": _without(st, c, sol[c]),
                      "mistake": {"cell": name, "value": sol[c], "kind": "removed"}}):
            w = more.why(body)
            assert w["step"] is not None and w["step"]["proof"], w["text"]
            docs.append({"size": 9, "puzzle": HARD2, "solution": "".join(map(str, sol)), "complete": False,
                         "steps": [w["step"]]})
    verify_documents(docs, Path(str(tmp_path)))


def _without(state: State, c: int, v: int) -> str:
    s = state.copy()
    s.eliminate(c, v)
    return s.to_candidates_line()


def mistakes_bodies(puzzle: str, cells: int) -> list[dict[str, object]]:
    """Every wrong value of a few empty cells (spread over the grid), and the true candidate of
    each removed from the learner's marks."""
    st = read_position({"puzzle": puzzle}).state
    sol = unique_solution(parse_grid(puzzle)).values
    empty = [k for k in range(81) if not st.values[k]]
    bodies: list[dict[str, object]] = []
    for c in empty[::max(1, len(empty) // cells)][:cells]:
        name = f"r{c // 9 + 1}c{c % 9 + 1}"
        bodies += [{"puzzle": puzzle, "grid": puzzle[:c] + str(v) + puzzle[c + 1:],
                    "mistake": {"cell": name, "value": v, "kind": "value"}} for v in range(1, 10) if v != sol[c]]
        bodies.append({"puzzle": puzzle, "marks": _without(st, c, sol[c]),
                       "mistake": {"cell": name, "value": sol[c], "kind": "removed"}})
    return bodies


def why_replays(puzzles: list[str], cells: int, tmp_path: object) -> None:
    """Each mistake gets an answer (the server's 200: no exception), a proof or the house that
    already shows it, and every proof replays in the independent checker."""
    from pathlib import Path

    from tests.conftest import verify_documents

    docs = []
    for puzzle in puzzles:
        sol = "".join(map(str, unique_solution(parse_grid(puzzle)).values))
        for body in mistakes_bodies(puzzle, cells):
            w = more.why(body)
            if w["step"] is None:
                assert body["mistake"]["kind"] == "value" and "already holds" in w["text"], (body, w["text"])  # type: ignore[index]
                continue
            assert w["step"]["proof"] and w["scenes"], w["text"]
            docs.append({"size": 9, "puzzle": puzzle, "solution": sol, "complete": False, "steps": [w["step"]]})
    verify_documents(docs, Path(str(tmp_path)))


def test_why_answers_every_mistake_of_a_few_cells(tmp_path: object) -> None:
    """The seed's mistakes (r1c2=5 and the removed 2 of r1c8 were 500s: a nested proof through a
    single the position had not placed yet) and top1465's first puzzle."""
    from tests.conftest import ROOT

    seed = (ROOT / "examples" / "seed.txt").read_text().split()[0]
    top = (SHARED / "data" / "top1465.txt").read_text().split()[:1]
    why_replays([seed, *top], 3, tmp_path)


@pytest.mark.slow
def test_why_answers_every_mistake_over_puzzles(tmp_path: object) -> None:
    from tests.conftest import ROOT

    examples = [line.split()[0] for name in ("seed.txt", "top1465-sample.txt")
                for line in (ROOT / "examples" / name).read_text().splitlines() if line and not line.startswith("#")]
    top = (SHARED / "data" / "top1465.txt").read_text().split()[:40:8]
    why_replays([*examples, *top, HARD2], 6, tmp_path)


def test_a_position_s_step_is_found_once_for_its_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Levels 1, 2, 3 of one position search the step once (the worker's bounded ``STEPS``); another
    position, order or techniques searches again, and the oldest positions leave the cache."""
    calls: list[int] = []
    real = api.next_step_from

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "next_step_from", counted)
    monkeypatch.setattr(api, "STEPS", api.StepCache(size=2))
    answers = [api.hint({"puzzle": HARD2, "level": k}) for k in (1, 2, 3)]
    assert len(calls) == 1 and len({a["technique"] for a in answers}) == 1
    assert answers[2]["texts"]["1"] == answers[0]["text"]
    api.hint({"puzzle": HARD2, "level": 1, "order": "se"})
    api.hint({"puzzle": EASY, "level": 1})
    assert len(calls) == 3
    api.hint({"puzzle": HARD2, "level": 3})  # the oldest, gone from a cache of 2
    assert len(calls) == 4


@pytest.mark.parametrize(("char", "message"), [
    ("x", "grid: unknown character 'x' at cell r1c2"),
    ("A", "grid: value 'A' (10) is too large for a 9×9 grid at r1c2"),
])
def test_a_learners_grid_reads_its_characters_as_a_puzzle_does(char: str, message: str) -> None:
    """Issue 40 item 6: the grid of a position is read by the model's text_values, the
    parser's own reading (one rule for '.', '0', '_', digits and letters; one message)."""
    grid = EASY[0] + char + EASY[2:]
    with pytest.raises(BadRequest) as e:
        read_position({"puzzle": EASY, "grid": grid})
    assert str(e.value) == message
