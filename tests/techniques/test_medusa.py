from explainer.hints.pencilmarks import format_pencilmarks
from techniques import medusa
from tests.techniques.chain_fixtures import open_grid

CHAIN = {"1 col1": ["r1c1", "r5c1"], "1 row5": ["r5c1", "r5c4"], "1 col4": ["r5c4", "r2c4"]}


def test_medusa_exact_step():
    step = next(medusa.find(open_grid(keep=CHAIN)))
    assert step.technique == "medusa"
    assert step.eliminate == ((0, 4, 1), (0, 5, 1), (1, 1, 1), (1, 2, 1))
    assert step.marked == ((0, 0, 1), (4, 3, 1))
    assert step.marked_alt == ((1, 3, 1), (4, 0, 1))
    assert step.strong_links == (((0, 0, 1), (4, 0, 1)), ((4, 0, 1), (4, 3, 1)), ((4, 3, 1), (1, 3, 1)))
    assert step.text.startswith("Medusa: following only strong links from r1c1=1")
    assert "r1c5=1 sees r1c1=1 (colour A) and r2c4=1 (colour B), so it is false" in step.text


def test_colours_mix_cells_and_values():
    # r1c1 {1,2} links its 1 to its 2; column 1 holds 1 and 2 only in r1c1 and r5c1
    state = open_grid({"r1c1": "12"}, keep={"1 col1": ["r1c1", "r5c1"], "2 col1": ["r1c1", "r5c1"]})
    step = next(medusa.find(state))
    # r1c1=1 and r5c1=2 take one colour, r1c1=2 and r5c1=1 the other: r5c1's other values see both
    assert step.eliminate == tuple((4, 0, v) for v in range(3, 10))
    assert step.marked == ((0, 0, 1), (4, 0, 2))
    assert step.marked_alt == ((0, 0, 2), (4, 0, 1))


def test_one_strong_link_short_does_not_fire():
    keep = dict(CHAIN)
    keep["1 col4"] = ["r5c4", "r2c4", "r8c4"]
    assert list(medusa.find(open_grid(keep=keep))) == []


def test_pure_and_repeatable():
    state = open_grid(keep=CHAIN)
    before = format_pencilmarks(state)
    assert list(medusa.find(state)) == list(medusa.find(state))
    assert format_pencilmarks(state) == before
