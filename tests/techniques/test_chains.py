from explainer.app.hints.pencilmarks import format_pencilmarks
from techniques import chains
from techniques.links import links
from tests.techniques.chain_fixtures import cell_index, open_grid


def first(state, **kw):
    return next(chains.find(state, **kw), None)


SKYSCRAPER = {"1 col1": ["r1c1", "r5c1"], "1 col4": ["r2c4", "r5c4"]}


def test_chain_exact_step():
    step = first(open_grid(keep=SKYSCRAPER))
    assert step.technique == "skyscraper"
    assert step.houses == (("col", 0), ("col", 3))
    assert step.eliminate == ((0, 4, 1), (0, 5, 1), (1, 1, 1), (1, 2, 1))
    assert step.marked == ((0, 0, 1), (1, 3, 1), (4, 0, 1), (4, 3, 1))
    assert step.strong_links == (((0, 0, 1), (4, 0, 1)), ((4, 3, 1), (1, 3, 1)))
    assert step.weak_links == (((4, 0, 1), (4, 3, 1)),)
    assert step.get("length") == 3
    assert step.text.startswith("Skyscraper on 1: in columns 1 and 4, 1 can only go in two places each, and "
                                "r5c1 and r5c4 share row 5: (1)r1c1=r5c1-r5c4=r2c4 => r1c5<>1, r1c6<>1, "
                                "r2c2<>1, r2c3<>1. If r1c1 is not 1, then r5c1 is 1, so r5c4 is not 1, so r2c4 is 1.")
    assert dict(step.translations)["fr"].startswith("Gratte-ciel sur le 1 : dans les colonnes 1 et 4")


def test_chain_one_link_short_does_not_fire():
    # column 4 has a third 1, so r5c4 = r2c4 is no longer strong: nothing closes the chain
    state = open_grid(keep={"1 col1": ["r1c1", "r5c1"], "1 col4": ["r2c4", "r5c4", "r8c4"]})
    assert list(chains.find(state)) == []


def test_max_length_is_respected():
    assert first(open_grid(keep=SKYSCRAPER), max_length=2) is None


def test_continuous_loop_eliminates_along_each_weak_link():
    state = open_grid(keep={"1 col1": ["r1c1", "r5c1"], "1 col4": ["r1c4", "r5c4"]})
    step = first(state)
    assert step.technique == "loop"
    row1 = {(0, c, 1) for c in (1, 2, 4, 5, 6, 7, 8)}
    row5 = {(4, c, 1) for c in (1, 2, 4, 5, 6, 7, 8)}
    assert set(step.eliminate) == row1 | row5
    assert step.strong_links == (((0, 0, 1), (4, 0, 1)), ((4, 3, 1), (0, 3, 1)))
    assert step.weak_links == (((4, 0, 1), (4, 3, 1)), ((0, 3, 1), (0, 0, 1)))
    assert step.text.startswith("Loop: (1)r1c1=r5c1-r5c4=r1c4-r1c1 => ")


def test_cycle_with_two_consecutive_weak_links_is_not_a_loop():
    # r1c1=r5c1-r5c4-r1c4-r1c1: column 4 holds a third 1, so two weak links follow each other
    state = open_grid(keep={"1 col1": ["r1c1", "r5c1"], "1 col4": ["r1c4", "r5c4", "r8c4"]})
    assert list(chains.find(state)) == []


def test_empty_rectangle_exact_step():
    state = open_grid(keep={"1 row2": ["r2c5", "r2c8"], "1 box5": ["r4c5", "r5c4", "r5c5"]})
    step = first(state)
    assert step.technique == "empty rectangle"
    assert step.eliminate == ((4, 7, 1),)
    assert step.houses == (("box", 4),)
    assert step.strong_links == (((1, 7, 1), (1, 4, 1)),)
    assert step.weak_links == (((4, 7, 1), (1, 7, 1)),)
    assert step.marked == ((1, 4, 1), (1, 7, 1), (3, 4, 1), (4, 3, 1), (4, 4, 1), (4, 7, 1))
    assert step.text.startswith("Empty rectangle: (1)r5c8-r2c8=r2c5 => r5c8<>1.")
    # issue 34 (se_rated line 620, step 46): the box's 1s were "the pattern's values", disks
    # like the chain's "on" ones and told apart by no word; they are false when the chain's
    # start is true, and drawn as its "off" candidates
    assert [str(r) for r in step.roles] == [
        "house box 5", "line row 5 column 5", "off 1r4c5 1r5c4 1r5c5", "on 1r2c5 1r5c8", "off 1r2c8",
        "link 1r5c8->1r2c8", "link 1r2c8=>1r2c5", "removed 1r5c8"]


def test_empty_rectangle_needs_the_box_confined_to_a_row_and_a_column():
    # r6c6 keeps a 1 outside row 5 and column 5: the box can take 1 there
    state = open_grid(keep={"1 row2": ["r2c5", "r2c8"], "1 box5": ["r4c5", "r5c4", "r5c5", "r6c6"]})
    assert [s for s in chains.find(state) if s.technique == "empty rectangle"] == []


def test_eureka_groups_candidates_of_one_cell():
    state = open_grid({"r2c8": "35"}, keep={"5 row1": ["r1c2", "r1c7"]})
    lk = links(state)
    nodes = [lk.index(cell_index(n), v) for n, v in (("r1c2", 5), ("r1c7", 5), ("r2c8", 5), ("r2c8", 3))]
    assert chains.eureka(lk, nodes, "=-=") == "(5)r1c2=r1c7-(5=3)r2c8"


def test_pure_and_repeatable():
    state = open_grid(keep=SKYSCRAPER)
    before = format_pencilmarks(state)
    one, two = list(chains.find(state)), list(chains.find(state))
    assert one == two and one
    assert format_pencilmarks(state) == before


def test_sixteen_by_sixteen():
    from explainer.model.grid import geometry
    from explainer.model.state import State

    state = State(geometry(16))
    for r in range(16):  # 1 in column 1 only at r1c1, r9c1; in column 6 only at r2c6, r9c6
        if r not in (0, 8):
            state.eliminate(r * 16, 1)
        if r not in (1, 8):
            state.eliminate(r * 16 + 5, 1)
    step = first(state)
    assert step.technique == "skyscraper"
    assert step.text.startswith("Skyscraper on 1: in columns 1 and 6, 1 can only go in two places each, and r9c1 "
                                "and r9c6 share row 9: (1)r1c1=r9c1-r9c6=r2c6 => r1c5<>1, r1c7<>1, r1c8<>1, "
                                "r2c2<>1, r2c3<>1, r2c4<>1.")


def test_two_string_kite():
    step = first(open_grid(keep={"1 row1": ["r1c2", "r1c7"], "1 col1": ["r3c1", "r8c1"]}))
    assert step.technique == "2-string kite"
    assert step.eliminate == ((7, 6, 1),)
    assert step.houses == (("row", 0), ("col", 0), ("box", 0))
    assert step.text.startswith("2-string kite on 1: 1 can only go in two places in row 1 and in column 1, "
                                "and r1c2 and r3c1 meet in box 1: (1)r1c7=r1c2-r3c1=r8c1 => r8c7<>1.")


def test_turbot_fish():
    state = open_grid(keep={"1 row1": ["r1c2", "r1c8"], "1 box9": ["r7c8", "r9c9"]})
    steps = [s for s in chains.find(state) if s.technique != "empty rectangle"]
    assert steps[0].technique == "turbot fish"
    assert steps[0].eliminate == ((8, 1, 1),)
    assert steps[0].houses == (("row", 0), ("box", 8))


def test_xy_chain_and_a_plain_chain():
    step = first(open_grid({"r1c1": "12", "r1c5": "23", "r5c5": "13"}))
    assert step.technique == "xy chain"
    assert step.cells == ((0, 0), (0, 4), (4, 4))
    assert step.eliminate == ((4, 0, 1),)
    assert step.text.startswith("XY chain through the bivalue cells r1c1, r1c5 and r5c5: (1=2)r1c1-(2=3)r1c5-(3=1)r5c5")
    # a bivalue cell joined to a bilocal pair: two values, not all in-cell links: a plain chain
    step = first(open_grid({"r1c1": "12"}, keep={"2 col5": ["r1c5", "r5c5"]}))
    assert step is None or step.technique in ("chain", "empty rectangle")


def test_easiest_context_yields_one_digit_chains_by_rating():
    """On SE's path a skyscraper (three links, 4.0) comes before the empty rectangles the
    breadth-first search meets first (two links, 4.3); with a ceiling below any chain on
    several digits only one digit's links are followed."""
    from explainer.app.hints import read_grid_state
    from explainer.engine.orders import live as _live
    from explainer.model.technique import Bound, Context

    # "5.......91..4.3..53..7.9..4.2..4..6....1.2.............795.823..3.....9....9.1..." before the
    # 6th step SE's path took in wave 2
    state = read_grid_state(
        "....5.......4.6.8..2.4.678..2...6.8.1.............6.....3.......2....78.........91................"
        "9.2...678....4......2...6.8...3...........678..2....78.....5......3...........6.8..2...6.8.......7"
        "......5............91....6.8.12.....8....4...........789.2.........3.5.78...3....8....4.........5."
        "7..1...5.789.....6...1.3...78....4.6789...456.8...345678.1..........3..6789.2..........45.789...45"
        ".78...3...78....4.67891..456.8...345678...3..6.8...3..6789....567..1..45.78912.45.78.123...78....4"
        ".6.........7..........9....5.........6..........8..2.........3......1....6....2.4.6.8...3......1..."
        "......2...6....2...67.....4.67.....45678.........9.....678..2.4.6.8....456.8..2.456.8.........9.23"
        "..67..1...........45678....45.78......678.")
    plain = [s.technique for s in chains.find(state, Context()) if _live(state, s)]
    assert plain[:2] == ["empty rectangle", "empty rectangle"] and "skyscraper" in plain
    easiest = [s for s in chains.find(state, Context(bound=Bound())) if _live(state, s)]
    assert easiest[0].technique == "skyscraper"
    capped = [s for s in chains.find(state, Context(bound=Bound(5.0))) if _live(state, s)]
    assert capped and all(len({c[2] for link in s.strong_links for c in link}) == 1 for s in capped)
    assert all(len(s.strong_links) <= 2 for s in capped)
    from explainer import Puzzle

    line = "5.......91..4.3..53..7.9..4.2..4..6....1.2.............795.823..3.....9....9.1..."
    assert Puzzle(line).rating.er == 4.0  # Sudoku Explainer's rating of this puzzle, on the default order


# top1465 line 1 before step 39 (seed order): the chain's removed 7 lies in an end's cell
END_CELL = """4     569  1268 | 5789  3   1578  | 25  2567  579
1237  359  12   | 6     27  14579 | 8   2357  3459
23678 3569 268  | 45789 278 45789 | 345 23567 1
--------------------------------------------------
136   346  124  | 378   5   3678  | 23  9     78
23    8    59   | 3479  1   3479  | 6   2357  357
36    7    59   | 2     68  3689  | 345 1     3458
--------------------------------------------------
68    46   468  | 1     9   2     | 7   35    35
5     1    3    | 78    678 678   | 9   4     2
9     2    7    | 35    4   35    | 1   8     6"""


def test_removed_candidate_in_an_end_cell_is_told_so():
    from explainer.app.hints.pencilmarks import parse_pencilmarks

    step = next(s for s in chains.find(parse_pencilmarks(END_CELL)) if s.eliminate == ((0, 5, 7),))
    assert step.text.endswith("r1c6 cannot be 7, because the 7 in r1c6 shares a cell with one end and sees "
                              "the other.")
    assert dict(step.translations)["fr"].endswith("car le 7 de L1C6 partage la case d'une extrémité et voit "
                                                  "l'autre.")
    # a chain whose removals all see both ends keeps the general reason
    sky = first(open_grid(keep=SKYSCRAPER))
    assert sky.text.endswith("because each removed candidate sees both ends.")
