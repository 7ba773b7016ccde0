from explainer.app.hints.pencilmarks import format_pencilmarks
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
    assert step.text == ("Medusa: candidates joined by strong links alternate between two colours, A and B; one "
                         "colour is entirely true. r1c5=1 sees r1c1=1 (colour A) and r2c4=1 (colour B), so it is "
                         "false; so are r1c6=1, r2c2=1, r2c3=1, which also see both colours.")
    assert step.text_in("fr").endswith("de même pour L1C6=1, L2C2=1, L2C3=1, qui voient aussi les deux couleurs.")


# r1c1=1 (A) r5c1=1 (B) r5c4=1 (A) r2c4=1 (B) r2c2=1 (A): colour A holds 1 twice in box 1
WRAP = {**CHAIN, "1 row2": ["r2c4", "r2c2"]}


def test_a_candidate_seeing_its_own_colour_is_false():
    step = next(medusa.find(open_grid(keep=WRAP)))
    assert (0, 0, 1) in step.eliminate and (1, 1, 1) in step.eliminate
    assert "r1c1=1 is itself colour A and sees r2c2=1, also colour A: colour A cannot be entirely true, so " \
           "colour B is, and r1c1=1 is false" in step.text
    assert "r2c2=1, also colour A and seeing colour A" in step.text
    assert "L1C1=1 est lui-même de couleur A" in step.text_in("fr")


def _linked(step) -> set:
    return {c for link in step.strong_links for c in link}


def _sees(a, b) -> bool:
    return a != b and (a[:2] == b[:2] or (a[2] == b[2] and (a[0] == b[0] or a[1] == b[1]
                                                            or (a[0] // 3, a[1] // 3) == (b[0] // 3, b[1] // 3))))


def _component(step, start) -> set:
    """The drawn candidates joined to ``start`` by the step's strong links."""
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for x, y in step.strong_links:
            for p, q in ((x, y), (y, x)):
                if p == a and q not in seen:
                    seen.add(q)
                    todo.append(q)
    return seen


def test_the_picture_proves_every_removal_and_shows_nothing_else():
    """Every removal has its witnesses on the picture, joined by drawn strong links (one of
    each colour it sees, or one of its own colour when it is coloured itself); the links
    form a forest (no link twice, no cycle); each drawn candidate is on a link."""
    for keep in (CHAIN, WRAP):
        for step in medusa.find(open_grid(keep=keep), max_links=3):
            a, b = set(step.marked), set(step.marked_alt)
            drawn = a | b
            assert _linked(step) == drawn
            for z in step.eliminate:
                own = a if z in a else b if z in b else None
                if own is not None:
                    assert any(_sees(z, y) and y in _component(step, z) for y in own - {z}), z
                else:
                    assert any(_sees(z, x) and _sees(z, y) and y in _component(step, x) for x in a for y in b), z
            pieces, left = 0, set(drawn)
            while left:
                left -= _component(step, next(iter(left)))
                pieces += 1
            assert len(step.strong_links) == len(drawn) - pieces


def test_a_colouring_too_wide_for_one_picture_is_several_steps():
    """Past ``max_links`` the removals go to further steps of the same colouring: together
    they remove the same candidates, and each shows at most that many links unless one
    removal alone needs more."""
    state = open_grid(keep=WRAP)
    whole = [s for s in medusa.find(state)]
    assert len(whole) == 1 and len(whole[0].strong_links) > 2
    parts = list(medusa.find(state, max_links=2))
    assert len(parts) > 1
    assert sorted(c for s in parts for c in s.eliminate) == sorted(whole[0].eliminate)
    for s in parts:
        assert len(s.strong_links) <= 2 or len(s.eliminate) == 1


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


def test_a_colouring_that_removed_nothing_is_not_looked_at_again():
    """The session keeps the colourings that removed nothing; in a state inside the last one
    such a colouring is passed over (here one marked by hand, which does remove: the finder
    trusts the session, and check mode catches the lie); a state outside it starts afresh."""
    import pytest

    from explainer.model.session import Session, StaleTable
    from explainer.model.technique import Context

    state = open_grid(keep=CHAIN)
    session = Session(state)
    ctx = Context(session=session)
    step = next(medusa.find(state, ctx))
    colour = [0, 0]
    lk = medusa.links(state, session)
    for k, cands in enumerate((step.marked, step.marked_alt)):
        for r, c, v in cands:
            colour[k] |= 1 << lk.index(r * 9 + c, v)
    memo = session.slot("medusa")
    assert memo["cand"] == tuple(state.cand)
    memo["quiet"].add((min(colour), max(colour)))
    assert list(medusa.find(state, ctx)) == []  # passed over
    memo["quiet"].add((min(colour), max(colour)))
    session.check = True
    with pytest.raises(StaleTable):
        list(medusa.find(state, ctx))
    session.check = False
    memo["quiet"].add((min(colour), max(colour)))
    memo["cand"] = tuple(m & ~1 for m in state.cand)  # an earlier state without the 1s: not inside it
    assert next(medusa.find(state, ctx)).eliminate == step.eliminate


def test_a_session_across_steps_finds_what_a_fresh_search_finds():
    """Along a real explanation (the 16x16 example's first hundred steps) the finder with the
    run's session gives, step after step, what a search without one gives."""
    from pathlib import Path

    from explainer.api import Puzzle
    from explainer.model.session import Session
    from explainer.model.technique import Context

    text = (Path(__file__).resolve().parents[2] / "examples" / "16x16-hard.txt").read_text()
    p = Puzzle([x for x in text.splitlines() if x and not x.startswith("#")][0])
    state = p.state_before(0).copy()
    session = Session(state)
    ctx = Context(session=session)
    found = passed_over = 0
    for step in p.steps[:100]:
        before = set(session.slot("medusa").get("quiet", ()))
        kept = list(medusa.find(state, ctx))
        assert kept == list(medusa.find(state.copy()))
        found += len(kept)
        passed_over += len(before & session.slot("medusa")["quiet"])
        state.apply(step)
        session.applied(step)
    assert found and passed_over
