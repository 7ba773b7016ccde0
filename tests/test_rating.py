"""Ratings on Sudoku Explainer's scale: single steps, chains, forcing steps, ER/EP/ED, grades."""
from __future__ import annotations

import pytest

import techniques
from explainer import Puzzle
from explainer.engine.orders import SIMPLEST
from explainer.model.explanation import Explanation
from explainer.model.rating import (
    GRADE_NAMES,
    LENGTH,
    Rating,
    difficulty,
    grade,
    length_addition,
    parse_range,
    puzzle_rating,
    rate,
)
from explainer.model.technique import rate_steps

W = techniques.weights()
KINDS = techniques.all_kinds()


def rated(step: Explanation) -> float:
    """A step's rating by its kind's record, on the seed order's weights."""
    return KINDS[step.technique].rate(step, "pattern")


def test_singles_box_row_last_and_naked() -> None:
    box = Explanation("single position", place=((0, 0, 5),), cells=((1, 4),), houses=(("box", 0), ("row", 1)),
                      detail=(("covering_houses", 1),))
    row = Explanation("single position", place=((0, 0, 5),), cells=((1, 4),), houses=(("row", 0), ("col", 4)),
                      detail=(("covering_houses", 1),))
    last = Explanation("single position", place=((0, 0, 5),), cells=((0, 1),), houses=(("col", 0),),
                       detail=(("covering_houses", 0),))
    assert (rated(box), rated(row), rated(last)) == (1.2, 1.5, 1.0)
    assert rated(Explanation("single candidate", place=((0, 0, 5),))) == 2.3
    assert KINDS["single position"].least() == 1.0


def test_intersections_subsets_and_fish() -> None:
    pointing = Explanation("locked candidate", eliminate=((0, 5, 1),), houses=(("box", 0), ("row", 0)))
    claiming = Explanation("locked candidate", eliminate=((1, 1, 1),), houses=(("row", 0), ("box", 0)))
    assert (rated(pointing), rated(claiming)) == (2.6, 2.8)
    naked = [rated(Explanation("naked tuple", eliminate=((0, 0, 1),), detail=(("size", k),))) for k in (2, 3, 4)]
    hidden = [rated(Explanation("hidden tuple", eliminate=((0, 0, 1),), detail=(("size", k),))) for k in (2, 3, 4)]
    assert naked == [3.0, 3.6, 5.0] and hidden == [3.4, 4.0, 5.4]
    assert [rated(Explanation(n, eliminate=((0, 0, 1),))) for n in ("x wing", "swordfish", "jellyfish")] == \
        [3.2, 3.8, 5.2]
    assert rated(Explanation("y wing", eliminate=((0, 0, 1),))) == 4.2


def test_se_length_addition_thresholds() -> None:
    # +0.1 past 4, 6, 8, 12, 16, 24, 32, 48, 64, 96 …
    assert [length_addition(n) for n in (4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 32, 33, 48, 49, 64, 65, 96, 97)] == \
        [0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6, 0.6, 0.7, 0.7, 0.8, 0.8, 0.9, 0.9, 1.0]


def _x_chain(nodes: int, value: int = 7) -> Explanation:
    """A one-digit chain through ``nodes`` candidates (strong and weak links alternating)."""
    cands = [(k, k % 9, value) for k in range(nodes)]
    strong = tuple((cands[i], cands[i + 1]) for i in range(0, nodes - 1, 2))
    weak = tuple((cands[i], cands[i + 1]) for i in range(1, nodes - 1, 2))
    return Explanation("chain", eliminate=((8, 8, value),), marked=tuple(cands), strong_links=strong,
                       weak_links=weak)


def test_chain_rating_is_type_base_plus_se_length_addition() -> None:
    for nodes in (4, 6, 8, 10, 14, 18):
        assert rated(_x_chain(nodes)) == round(6.5 + length_addition(nodes), 1)
    assert rated(_x_chain(4)) == 6.5 and rated(_x_chain(8)) == 6.7
    # a y-chain: strong links inside bivalue cells, weak links between equal values
    y = Explanation("chain", eliminate=((8, 8, 1),),
                    strong_links=(((0, 0, 1), (0, 0, 2)), ((0, 5, 2), (0, 5, 3)), ((4, 5, 3), (4, 5, 1))),
                    weak_links=(((0, 0, 2), (0, 5, 2)), ((0, 5, 3), (4, 5, 3))))
    assert rated(y) == 6.7  # 6.6 + 0.1 for 6 nodes
    # a mixed chain (a conjugate pair of 2 and a bivalue cell): SE's 7.0 base
    mixed = Explanation("chain", eliminate=((8, 8, 1),),
                        strong_links=(((0, 0, 1), (0, 0, 2)), ((0, 5, 2), (3, 5, 2)), ((3, 5, 4), (3, 5, 1))),
                        weak_links=(((0, 0, 2), (0, 5, 2)), ((3, 5, 2), (3, 5, 4))))
    assert rated(mixed) == 7.1
    # a kind added later is rated by the rule its record names: here its weight + the length addition
    assert rate(Explanation("new chain", marked=_x_chain(10).marked), 6.5, LENGTH) == 6.8


def test_forcing_steps_read_their_detail() -> None:
    def forcing(**detail: object) -> Explanation:
        return Explanation("forcing chain", eliminate=((0, 0, 1),), detail=tuple(sorted(detail.items())))

    assert rate(forcing(kind="contradiction", level=0, dynamic=False, size=6), 8.5) == 8.6
    assert rate(forcing(kind="cell", level=0, dynamic=False, size=10), 8.5) == 9.1  # +0.3, length (4, 6, 8) +0.3
    assert rate(forcing(kind="double", level=0, dynamic=True, size=20), 8.5) == 9.6  # +0.6, length +0.5
    assert rate(forcing(kind="contradiction", level=1, dynamic=True, size=40), 8.5) == 10.8  # +0.6 +1.0 +0.7
    # no rule, no forcing detail: the record's weight
    assert rate(Explanation("death blossom", eliminate=((0, 0, 1),)), 8.1) == 8.1


def test_puzzle_rating_er_ep_ed() -> None:
    steps = [Explanation("naked tuple", eliminate=((0, 0, 1),)), Explanation("y wing", eliminate=((0, 1, 1),)),
             Explanation("single position", place=((0, 2, 3),)), Explanation("chain", eliminate=((0, 3, 1),))]
    r = puzzle_rating(steps, [3.0, 4.2, 1.5, 7.0])
    assert (r.er, r.ep, r.ed) == (7.0, 4.2, 3.0) and r.to_dict() == {"er": 7.0, "ep": 4.2, "ed": 3.0, "scale": "se"}
    assert str(r) == "ER 7.0/EP 4.2/ED 3.0" and r.grade == "chains"
    assert puzzle_rating([], []) == Rating(0.0, 0.0, 0.0)


def test_known_puzzle_er_ep_ed_and_json() -> None:
    # SE rates it 3.2 (x wing); its first step is a naked pair (not a single): EP = ED = 3.0
    p = Puzzle(".......7.3..5..9...1..7.4..6..7...1...3.1.2...4...6..3..2.6..9...9..5..8.6.......")
    assert (p.rating.er, p.rating.ep, p.rating.ed) == (3.2, 3.0, 3.0) and p.grade == "subsets"
    assert p.step_ratings == rate_steps(p.steps, KINDS, "se-equivalent")
    doc = p.to_json()
    assert doc["rating"] == {"er": 3.2, "ep": 3.0, "ed": 3.0, "scale": "se"}
    assert [s["rating"] for s in doc["steps"]] == p.step_ratings
    assert "se_rating" not in doc  # only when asked (with_se_rating): SE's rating run costs time
    assert "easy; this path's hardest step ER 3.2 (EP 3.0, ED 3.0); Sudoku Explainer's rating of the puzzle " \
        "ER 3.2 (EP 2.5, ED 2.5):" in p.summary()


def test_the_seed_has_one_difficulty_word_and_two_labelled_numbers() -> None:
    """Issue 40 item 3, issue 41 item 7: the summary said "87 steps, medium, ER 8.2 … (fiendish)" while
    ``rate`` said 7.4. Now one difficulty word, this path's number and SE's number each labelled."""
    from explainer.api import rate as se_rate
    from tests.conftest import SEED

    p = Puzzle(SEED, with_se_rating=True)
    s = p.summary()
    assert s.startswith("87 steps, medium; this path's hardest step ER 8.2 (EP 1.2, ED 1.2); "
                        "Sudoku Explainer's rating of the puzzle ER 7.4 (EP 1.2, ED 1.2): ")
    assert not any(f"({word})" in s for word in GRADE_NAMES) and not any(w in s for w in ("fiendish", "extreme"))
    doc = p.to_json()
    assert doc["rating"]["er"] == 8.2 and doc["se_rating"] == {"er": 7.4, "ep": 1.2, "ed": 1.2, "scale": "se",
                                                              "order": "se"}
    assert list(doc)[list(doc).index("rating") + 1] == "se_rating"
    assert p.se_rating == se_rate(SEED)
    # on SE's own path the two are one: said once
    assert "ER 7.4 (EP 1.2, ED 1.2), Sudoku Explainer's rating of the puzzle:" in Puzzle(SEED, order="se").summary()


def test_difficulty_and_grade_words_never_meet() -> None:
    """One meaning per word: the difficulty (easy / medium / difficult) and the grade (what the
    hardest step asks) are two scales of ER with two sets of words."""
    from explainer.model.technique import DIFFICULTIES

    assert not set(GRADE_NAMES) & set(DIFFICULTIES)


def test_simplest_order_takes_the_lowest_rated_step() -> None:
    line = ".......7.3..5..9...1..7.4..6..7...1...3.1.2...4...6..3..2.6..9...9..5..8.6......."
    first, easiest = Puzzle(line, order="seed"), Puzzle(line)
    with pytest.deprecated_call():
        assert Puzzle(line, easiest=True).order == easiest.order == SIMPLEST  # the older name
    assert easiest.complete and easiest.rating.er <= first.rating.er
    # at every step no technique had a live step rated lower than the one taken
    from explainer.engine.orders import live as _live

    for k, (_step, r) in enumerate(zip(easiest.steps, easiest.step_ratings, strict=True)):
        state = easiest.state_before(k)
        for t in easiest.techniques:
            if t.reads_solution:
                continue
            for other in t.find(state, techniques.Context()):
                if _live(state, other):
                    assert KINDS[other.technique].rate(other) >= r or t.name in ("chain", "medusa", "als", "trial")
                    break


def test_difficulty_classes_are_er_bands() -> None:
    assert [difficulty(x) for x in (1.0, 6.4, 6.5, 8.4, 8.5, 12.0)] == \
        ["easy", "easy", "medium", "medium", "difficult", "difficult"]
    x_wing = ".......7.3..5..9...1..7.4..6..7...1...3.1.2...4...6..3..2.6..9...9..5..8.6......."
    assert Puzzle(x_wing).difficulty == "easy"  # ER 3.2


def test_grades_and_ranges() -> None:
    assert [grade(x) for x in (1.2, 2.3, 2.6, 3.9, 4.0, 6.4, 6.5, 8.4, 8.5, 11.0)] == \
        ["singles", "singles", "subsets", "subsets", "patterns", "patterns", "chains", "chains", "forcing", "forcing"]
    assert GRADE_NAMES == ("singles", "subsets", "patterns", "chains", "forcing")
    assert parse_range("7.0-8.5") == (7.0, 8.5) and parse_range("8") == (8.0, 8.0)
    assert parse_range("7.5-") == (7.5, float("inf"))
    with pytest.raises(ValueError):
        parse_range("9-8")


def test_generator_rating_target(capsys: pytest.CaptureFixture[str]) -> None:
    from explainer.app.cli.generate import main
    from explainer.app.generate import engine_goal, engine_target
    from explainer.model.grid import parse_grid

    grid = parse_grid(".......7.3..5..9...1..7.4..6..7...1...3.1.2...4...6..3..2.6..9...9..5..8.6.......")
    assert engine_target(rating=(3.0, 3.5))(grid) and not engine_target(rating=(4.0, 5.0))(grid)
    ok, score = engine_goal(rating=(4.0, 5.0))(grid)
    assert not ok and score[0] == -0.8  # ER 3.2 is 0.8 below the range
    assert main(["--rating", "2.5-3.5", "--seed", "3", "--max-tries", "400"]) == 0
    line = capsys.readouterr().out.split()[0]
    assert 2.5 <= Puzzle(line).rating.er <= 3.5
    assert main(["--rating", "hard"]) == 2  # checked when the command is read: one line, exit 2
    assert "--rating" in capsys.readouterr().err


# ---- steps rated from their proofs: SE's classes of chains ---------------------------------

def _fact(r: int, c: int, v: int, t: bool, rule: str, *premises: int, step: Explanation | None = None):
    from explainer.model.proof import ProofFact
    return ProofFact((r, c, v, t), rule, premises, step)


def _proof(kind: str, *branches: tuple, level: int = 0):
    from explainer.model.proof import Branch, Proof
    out = []
    for facts, end in branches:
        out.append(Branch(facts[0].fact, tuple(facts), end))
    return Proof(kind, level, tuple(out))


def _contradiction(*premises: int):
    from explainer.model.proof import BranchEnd
    return BranchEnd("cell", premises, cell=(8, 8))


def _step(proof) -> Explanation:
    return Explanation("forcing chain", eliminate=((0, 0, 1),), proof=proof)


def test_static_one_digit_contradiction_is_a_forcing_x_chain() -> None:
    from explainer.model.rating import chain_base
    # r1c1=1 -> r1c5<>1 -> r2c5=1 (last place in its box) -> ... -> r9c9 empty
    facts = [_fact(0, 0, 1, True, "assume"), _fact(0, 4, 1, False, "peer", 0),
             _fact(1, 5, 1, True, "house", 1), _fact(8, 5, 1, False, "peer", 2)]
    proof = _proof("contradiction", (facts, _contradiction(3)))
    assert chain_base(proof) == 6.6
    assert rate(_step(proof), 8.5) == 6.6  # 4 implications: no length addition; the record's base ignored


def test_static_mixed_contradiction_double_cell_and_dynamic() -> None:
    from explainer.model.rating import chain_base
    static = [_fact(0, 0, 1, True, "assume"), _fact(0, 0, 2, False, "peer", 0),
              _fact(0, 4, 2, True, "house", 1), _fact(0, 4, 3, False, "peer", 2)]
    assert chain_base(_proof("contradiction", (static, _contradiction(3)))) == 7.0
    assert chain_base(_proof("double", (static, _contradiction(3)))) == 7.0
    assert chain_base(_proof("cell", (static, _contradiction(3)), (static, _contradiction(3)))) == 8.0
    # a cell left with one candidate by two removals in the branch: dynamic
    dynamic = static + [_fact(0, 8, 3, False, "peer", 2), _fact(0, 8, 5, True, "cell", 3, 4)]
    assert chain_base(_proof("contradiction", (dynamic, _contradiction(5)))) == 8.5
    assert chain_base(_proof("cell", (dynamic, _contradiction(5)), (static, _contradiction(3)))) == 8.5
    # a contradiction met by three removals (a cell that had three candidates) is dynamic too
    assert chain_base(_proof("contradiction", (static, _contradiction(1, 2, 3)))) == 8.5
    # one digit, dynamic: SE's Nishio
    nishio = [_fact(0, 0, 1, True, "assume"), _fact(0, 4, 1, False, "peer", 0), _fact(2, 3, 1, False, "peer", 0),
              _fact(1, 5, 1, True, "house", 1, 2)]
    assert chain_base(_proof("contradiction", (nishio, _contradiction(3)))) == 7.5


def test_locked_candidates_in_branches_and_nesting() -> None:
    from explainer.model.rating import chain_base
    inner_static = _proof("contradiction", ([_fact(0, 0, 1, True, "assume"), _fact(0, 4, 1, False, "peer", 0)],
                                            _contradiction(1)))
    inner_dynamic = _proof("contradiction", ([_fact(0, 0, 2, True, "assume"), _fact(0, 4, 2, False, "peer", 0),
                                              _fact(0, 4, 3, False, "peer", 0), _fact(0, 4, 5, True, "cell", 1, 2)],
                                             _contradiction(3)))
    locked = Explanation("locked candidate", eliminate=((3, 3, 4),))
    plus = [_fact(0, 0, 1, True, "assume"), _fact(3, 3, 4, False, "step", 0, step=locked)]
    assert chain_base(_proof("contradiction", (plus, _contradiction(1)))) == 9.0
    for inner, base in ((inner_static, 9.5), (inner_dynamic, 10.5)):
        nested = [_fact(0, 0, 1, True, "assume"), _fact(3, 3, 4, False, "step", 0, step=_step(inner))]
        assert chain_base(_proof("contradiction", (nested, _contradiction(1)), level=1)) == base
    # the length counts the nested implications too
    from explainer.model.rating import chain_nodes
    nested = [_fact(0, 0, 1, True, "assume"), _fact(3, 3, 4, False, "step", 0, step=_step(inner_dynamic))]
    assert chain_nodes(_proof("contradiction", (nested, _contradiction(1)), level=1)) == 2 + 4


def test_proof_rated_steps_floor_is_the_least_chain_base() -> None:
    assert KINDS["forcing chain"].least() == 7.0
    assert KINDS["trial"].least() == 7.5  # dynamic at least: a static one is the forcing chain's
    assert KINDS["x wing"].least() == 3.2


def test_techniques_se_lacks_weigh_se_chains_on_se_path_only() -> None:
    """A W-wing is a pattern (4.4) on the seed order and SE's mixed chain of six candidates
    (7.1) on the simplest order (SE's path); a technique SE has weighs the same on both."""
    from techniques import all_kinds

    kinds = all_kinds()
    assert kinds["w wing"].weight_in("pattern") == 4.4 and kinds["w wing"].weight_in("se-equivalent") == 7.1
    assert kinds["x wing"].weight_in("pattern") == kinds["x wing"].weight_in("se-equivalent") == 3.2
    grid = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."
    assert Puzzle(grid, order="seed").weights["finned x wing"] == 3.4
    assert Puzzle(grid).weights["finned x wing"] == 6.6
    w_wing = Explanation("w wing", eliminate=((0, 0, 1),))
    assert rate(w_wing, Puzzle(grid, order="simplest").weights["w wing"]) == 7.1


def _one_digit(houses: str, value: int = 4) -> Explanation:
    """A one-digit chain whose strong links lie in the given houses, in order ('r' a row, 'c' a
    column, 'b' a box), each strong link joined to the next by a weak one."""
    cells = {"r": ((0, 0), (0, 5)), "c": ((1, 1), (6, 1)), "b": ((3, 3), (4, 4))}
    strong = []
    for k, h in enumerate(houses):
        (r1, c1), (r2, c2) = cells[h]
        strong.append(((r1 + 9 * k, c1, value), (r2 + 9 * k, c2, value)))  # distinct nodes per link
    weak = tuple((strong[k][1], strong[k + 1][0]) for k in range(len(strong) - 1))
    marked = tuple(c for link in strong for c in link)
    return Explanation("x chain", eliminate=((8, 8, value),), marked=marked, strong_links=tuple(strong),
                       weak_links=weak)


def test_one_digit_chains_are_rated_by_their_strong_links() -> None:
    """Sukaku Explainer's strong-link chains: 2 links 4.0 … 5 links 6.2; a second kind of line
    +0.1, lines of both kinds and a box +0.2; SE's x-chain (6.5 + length) when cheaper."""
    assert rated(_one_digit("rr")) == 4.0
    assert [rated(_one_digit(h)) for h in ("rrr", "rcr", "rbr", "rcb")] == [5.4, 5.5, 5.5, 5.6]
    assert [rated(_one_digit("r" * k)) for k in (4, 5, 6)] == [5.8, 6.2, 6.6]
    # eight strong links: 7.4 as a strong-link chain, 6.9 as SE's x-chain of 16 candidates
    assert rated(_one_digit("r" * 8)) == round(6.5 + length_addition(16), 1) == 6.9
    # a loop on one digit likewise; on several digits it keeps SE's cycle rule
    loop = _one_digit("rcr")
    assert rate(Explanation("loop", eliminate=loop.eliminate, marked=loop.marked, strong_links=loop.strong_links,
                            weak_links=loop.weak_links), W["loop"], KINDS["loop"].rule) == 5.5
    # a longer empty rectangle: its box is one more (grouped) strong link, +0.3
    er = _one_digit("rc")
    long_er = Explanation("empty rectangle", eliminate=er.eliminate, marked=er.marked, strong_links=er.strong_links,
                          weak_links=er.weak_links, detail=(("length", 4),))
    assert rated(long_er) == 5.7
    assert KINDS["x chain"].least("pattern") == 5.4


def test_wings_of_a_bivalue_cell_and_a_set_rate_as_sukaku_wings() -> None:
    """An ALS-XZ with a bivalue cell is Sukaku Explainer's WXYZ-wing (4 cells, 5.5, 5.6 when the
    set's largest cell has 3 candidates), VWXYZ-wing (5 cells, 6.2 - 6.4) or UVWXYZ-wing (6 cells,
    6.6), whatever finds it."""
    def step(name: str, **detail: object) -> Explanation:
        return Explanation(name, eliminate=((0, 0, 1),), detail=tuple(sorted(detail.items())))

    assert rated(step("wxyz wing", sizes=(1, 3), biggest=3)) == 5.6
    assert rated(step("wxyz wing", sizes=(1, 3), biggest=2)) == 5.5
    assert rated(step("ny wing", size=3, sizes=(1, 3), biggest=4)) == 5.5
    assert rated(step("als", sizes=(1, 4), biggest=3)) == 6.4
    assert rated(step("als", sizes=(4, 1), biggest=5)) == 6.2
    assert rated(step("als", sizes=(1, 5))) == 6.6
    # two sets of two cells or more: SE has no such wing; a chain through two ALS nodes (6.6,
    # +0.1 a cell past four), whatever finds it
    assert rated(step("wxyz wing", sizes=(2, 2))) == rated(step("als", sizes=(2, 2))) == 6.6
    assert rated(step("ny wing", size=4, sizes=(2, 3))) == rated(step("als", sizes=(2, 3))) == 6.7
    assert KINDS["als"].least() == 5.5
    # no sizes recorded (a document written before): the record's weight
    assert rated(step("wxyz wing")) == W["wxyz wing"]


def test_unique_loops_and_bugs_rate_as_sudoku_explainer() -> None:
    # unique loops: 4.5 + 0.1 (6 cells) / 0.2 (8) / 0.5 (10 or more); type 3 + 0.1 a value of its set
    def loop(kind: int, length: int, size: int = 0) -> float:
        detail = (("type", kind), ("length", length)) + ((("size", size),) if size else ())
        return rated(Explanation("unique loop", eliminate=((0, 0, 1),), detail=detail))

    assert [loop(1, n) for n in (6, 8, 10, 12)] == [4.6, 4.7, 5.0, 5.0]
    assert (loop(2, 6), loop(4, 8), loop(3, 6, 2), loop(3, 8, 3)) == (4.6, 4.7, 4.7, 4.9)

    # BUG types 2 and 4 5.7, type 3 5.8 / 5.9 / 6.0 by its naked pair / triple / quad
    def bug(kind: int, size: int = 0) -> float:
        detail = (("type", kind),) + ((("size", size),) if size else ())
        return rated(Explanation("bug", eliminate=((0, 0, 1),), detail=detail))

    assert (bug(2), bug(4), bug(3, 2), bug(3, 3), bug(3, 4)) == (5.7, 5.7, 5.8, 5.9, 6.0)
    assert rated(Explanation("bug+1", place=((0, 0, 1),))) == 5.6


def test_techniques_se_lacks_rate_as_the_chains_se_needs_on_the_simplest_order() -> None:
    """On SE's path an almost locked set of two cells or more is SE's multiple forcing chain
    through its cells (8.0 + length on the cells), a coloring SE's chain through its strong links
    (one digit 6.5, several 7.0, + length); on the seed order they keep their pattern rules."""
    def als(name: str, cells: int, alt: int, **detail: object) -> Explanation:
        return Explanation(name, eliminate=((8, 8, 1),), cells=tuple((0, c) for c in range(cells)),
                           cells_alt=tuple((1, c) for c in range(alt)), detail=tuple(sorted(detail.items())))

    xz = als("als", 3, 3, sizes=(3, 3))
    assert KINDS["als"].rate(xz) == 8.1 and KINDS["als"].rate(xz, "pattern") == 6.8
    wing = als("als", 1, 3, sizes=(1, 3), biggest=2)
    assert KINDS["als"].rate(wing) == KINDS["als"].rate(wing, "pattern") == 5.5  # Sukaku's WXYZ-wing
    for name, cells, alt, seed in (("als xy wing", 4, 5, 7.2), ("als chain", 5, 10, 7.5), ("death blossom", 1, 8, 7.4)):
        step = als(name, cells, alt)
        assert KINDS[name].rate(step) == round(8.0 + length_addition(cells + alt), 1)
        assert KINDS[name].rate(step, "pattern") >= seed and KINDS[name].least() == 8.0
    one = Explanation("medusa", eliminate=((8, 8, 4),), strong_links=(((0, 0, 4), (0, 5, 4)), ((4, 5, 4), (4, 8, 4))))
    mixed = Explanation("medusa", eliminate=((8, 8, 4),), strong_links=(((0, 0, 4), (0, 0, 5)), ((0, 0, 5), (0, 6, 5))))
    assert KINDS["medusa"].rate(one) == 6.5 and KINDS["medusa"].rate(mixed) == 7.0
    assert KINDS["medusa"].rate(one, "pattern") == 6.0


def test_frames_say_the_summary_s_difficulty_word() -> None:
    """Issue 41 item 7: the solution frame (and so the sheet and the GIF that show it) says the
    one difficulty word the summary says, no grade beside it."""
    from render.plan import plan_frames
    from tests.conftest import SEED

    p = Puzzle(SEED)
    last = plan_frames(p)[-1]
    assert last.kind == "solution" and f"({p.difficulty})" in last.caption
    assert p.summary().startswith(f"{len(p.steps)} steps, {p.difficulty};")
    assert not any(word in last.caption for word in (*GRADE_NAMES, "fiendish", "moderate", "extreme"))
    fr = plan_frames(p, lang="fr")[-1].caption
    assert "(moyenne)" in fr
