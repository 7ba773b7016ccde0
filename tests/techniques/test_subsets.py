from explainer.app.hints.pencilmarks import parse_pencilmarks
from techniques.subsets import find_hidden, find_naked


def test_naked_pair_in_a_row():
    state = parse_pencilmarks("""
        12   12   1234 1234
        1234 1234 1234 1234
        1234 1234 1234 1234
        1234 1234 1234 1234""")
    step = next(find_naked(state))
    assert step.technique == "naked tuple"
    assert step.cells == ((0, 0), (0, 1))
    assert step.houses == (("row", 0),)
    assert step.eliminate == ((0, 2, 1), (0, 2, 2), (0, 3, 1), (0, 3, 2))
    assert step.text == ("Naked pair: in row 1, the cells r1c1 and r1c2 hold only 1 and 2, so these "
                         "values are removed from r1c3 and r1c4.")


def test_naked_triple_9x9():
    rows = ["123456789"] * 81
    rows[0], rows[1], rows[2] = "12", "23", "13"  # r1c1..r1c3: a triple of 1, 2, 3
    state = parse_pencilmarks(" ".join(rows))
    steps = [s for s in find_naked(state) if s.houses == (("row", 0),)]
    assert steps[0].cells == ((0, 0), (0, 1), (0, 2))
    assert steps[0].eliminate == tuple((0, c, v) for c in range(3, 9) for v in (1, 2, 3))
    assert "Naked triple" in steps[0].text


def test_naked_must_not_fire_when_union_is_larger():
    state = parse_pencilmarks("""
        12   13   1234 1234
        1234 1234 1234 1234
        1234 1234 1234 1234
        1234 1234 1234 1234""")
    assert list(find_naked(state)) == []


def test_hidden_pair():
    state = parse_pencilmarks("""
        1234 1234 34   34
        1234 1234 1234 1234
        1234 1234 1234 1234
        1234 1234 1234 1234""")
    step = next(find_hidden(state))
    assert step.technique == "hidden tuple"
    assert step.cells == ((0, 0), (0, 1))
    assert step.houses == (("row", 0),)
    assert step.eliminate == ((0, 0, 3), (0, 0, 4), (0, 1, 3), (0, 1, 4))


def test_hidden_must_not_fire_without_eliminations():
    state = parse_pencilmarks("""
        12   12   34   34
        1234 1234 1234 1234
        1234 1234 1234 1234
        1234 1234 1234 1234""")
    assert [s for s in find_hidden(state) if s.houses == (("row", 0),)] == []
