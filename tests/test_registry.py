"""The technique registry: every record complete, the rating table (docs/rating.md) generated
from it, and a technique added through the public API works end to end."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import techniques
from explainer import Explanation, Puzzle, State, parse_grid
from explainer.model.i18n import LANGS
from explainer.model.roles import VOCABULARY
from explainer.model.technique import Context, Finder, StepKind, Technique
from techniques import REGISTRY, table

ROOT = Path(__file__).resolve().parent.parent
SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


@pytest.mark.parametrize("record", REGISTRY, ids=lambda t: t.name)
def test_every_record_is_complete(record: Technique) -> None:
    assert record.name and callable(record.find) and record.kinds
    for k in record.kinds:
        assert isinstance(k, StepKind)
        assert k.name == k.name.strip().lower() and k.name
        assert k.weight > 0, f"{k.name}: no weight"
        for lang in LANGS:
            assert k.titles.get(lang), f"{k.name}: no {lang} title"
        assert isinstance(k.code, str) and all(isinstance(c, str) for c in k.codes)
        assert all(len(c) == 4 and c.isdigit() for c in (k.code, *k.codes) if c), f"{k.name}: HoDoKu codes"
        assert isinstance(k.trial_like, bool) and isinstance(k.reads_solution, bool)
        if k.example:
            parse_grid(k.example)  # a puzzle the engine test explains when its sample lacks the kind
        # the roles its frame shows (tests/render/test_roles.py draws it on its position and checks them)
        assert k.roles and k.roles <= set(VOCABULARY), f"{k.name}: roles {sorted(k.roles - set(VOCABULARY))}"
    for alias in record.aliases:
        assert techniques.lookup(alias) is record


def test_names_are_unique_and_resolve() -> None:
    names = [n for t in REGISTRY for n in {t.name, *t.produces, *t.aliases}]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for t in REGISTRY:
        for n in t.all_names:
            assert techniques.lookup(n.upper().replace(" ", "-")) is t


def test_derived_views() -> None:
    assert techniques.single_names() == ("single position", "single candidate")
    assert techniques.guessing_names() == ("trial", "trial lucky", "forcing chain", "brutal")
    assert techniques.weights()["x wing"] == 3.2
    assert techniques.title("finned x wing", "fr") == "aile X à aileron"
    assert techniques.title("singles", "fr") == "singletons"  # a frame word, not a step
    kinds = techniques.all_kinds()
    assert kinds["trial lucky"].uniqueness and kinds["trial lucky"].lucky and not kinds["trial"].uniqueness
    # trial stays with uniqueness=False (only its lucky kind rests on the single solution)
    assert [t.name for t in techniques.select(["trial", "ur"], uniqueness=False)] == ["trial"]


def test_the_rating_table_is_generated_from_the_registry() -> None:
    page = (ROOT / "docs" / "rating.md").read_text(encoding="utf-8")
    assert table.page_block(page) == table.markdown(), "run: python -m techniques.table --write"


# ---- a technique added by a user, through the public API only ------------------------------

def find_peek(state: State, ctx: Context, /) -> Iterator[Explanation]:
    """A toy technique: place the solution's value in the first empty cell (reads the solution)."""
    assert ctx.solution is not None
    assert [t.name for t in ctx.earlier][:2] == ["single position", "single candidate"]
    n = state.geo.n
    for c in range(state.geo.ncells):
        if not state.values[c]:
            yield Explanation(technique="peek", place=((c // n, c % n, ctx.solution[c]),), text="A peek.")
            return


PEEK = Technique("peek", find_peek,
                 (StepKind("peek", 9.5, {"en": "Peek", "fr": "Coup d'œil"}, trial_like=True,
                           reads_solution=True),),
                 aliases=("glance",))


@pytest.fixture
def peek_registered() -> Iterator[Technique]:
    techniques.register(PEEK, before="brutal")
    try:
        yield PEEK
    finally:
        techniques.unregister("peek")


def test_a_finder_matches_the_protocol() -> None:
    finder: Finder = find_peek
    assert finder is PEEK.find


def test_a_registered_technique_works_end_to_end(peek_registered: Technique) -> None:
    assert techniques.lookup("glance") is peek_registered
    assert techniques.step_names()[-2:] == ["peek", "brutal"]
    p = Puzzle(SEED, ["single position", "single candidate", "glance"])
    assert [t.name for t in p.techniques] == ["single position", "single candidate", "peek"]
    assert p.complete and "peek" in p.statistics
    assert p.difficulty == "difficult"  # ER 9.5, its record's weight: the difficult band
    assert techniques.weights()["peek"] == 9.5 and techniques.title("peek", "fr") == "Coup d'œil"
    assert "| peek (glance) | 9.5 | – |" in table.markdown()
    from explainer.app.bank.db import weight_of

    assert weight_of("peek") == 9.5


def test_a_record_can_be_given_without_registering() -> None:
    p = Puzzle(SEED, ["single position", "single candidate", PEEK])
    assert p.complete and "peek" in p.statistics
    with pytest.raises(KeyError):
        techniques.lookup("peek")


def test_a_technique_is_rated_by_the_rule_on_its_record() -> None:
    """A new technique brings its rating rule on its record: no table elsewhere names it."""
    from explainer.model.rating import Rule

    rule = Rule(lambda step: 0.1 * len(step.eliminate), least=4.0, note="+0.1 a removed candidate")
    kind = StepKind("toy chain", 5.0, {"en": "toy", "fr": "jouet"}, rule=rule)
    step = Explanation("toy chain", eliminate=((0, 0, 1), (0, 1, 1)))
    assert kind.rate(step) == 5.2 and kind.least() == 4.0
    toy = Technique("toy chain", find_peek, (kind,))
    techniques.register(toy, before="brutal")
    try:
        assert "| toy chain | 5.0 | – | +0.1 a removed candidate |" in table.markdown()
    finally:
        techniques.unregister("toy chain")


def test_register_refuses_a_name_clash() -> None:
    clash = Technique("x wing again", find_peek,
                      (StepKind("x wing", 1.0, {"en": "x", "fr": "x"}),))
    with pytest.raises(ValueError, match="x wing"):
        techniques.register(clash)
