import pytest

from explainer import Puzzle

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


@pytest.fixture(scope="session")
def seed_puzzle():
    p = Puzzle(SEED)
    p.steps
    return p


@pytest.fixture(scope="session")
def seed_out(seed_puzzle, tmp_path_factory):
    """The seed puzzle written once with the viewer (shared by export and viewer tests)."""
    from render.export import write_puzzle

    out = tmp_path_factory.mktemp("seed")
    rec = write_puzzle(seed_puzzle, out, html=True)
    return out, rec


BASIC = ["single position", "single candidate", "locked candidate", "naked tuple", "hidden tuple", "brutal"]


@pytest.fixture(scope="session")
def brutal_puzzle():
    """The seed explained with the basic techniques only, so it needs a brutal step."""
    p = Puzzle(SEED, BASIC)
    assert p.steps_using("brutal")
    return p
