"""``K``: the step kind of a technique record, as the registry and Sudoku Explainer's producers
write it (one helper for both: ``techniques`` and ``techniques.se``)."""
from __future__ import annotations

from collections.abc import Mapping

from explainer.model import rating
from explainer.model.rating import Rule
from explainer.model.technique import StepKind


def K(name: str, weight: float, fr: str, code: str = "", *codes: str, en: str | None = None,
      trial_like: bool = False, reads_solution: bool = False, single: bool = False,
      uniqueness: bool = False, lucky: bool = False, gives_way: bool = False, example: str = "",
      se: float | None = None, rule: Rule = rating.PLAIN, se_rule: Rule | None = None,
      sized: Mapping[str, Mapping[int, str]] | None = None, roles: str = "") -> StepKind:
    """A step kind, titles in English (default: the step name) and French; ``se`` / ``se_rule``:
    its weight and rule on SE's path (the simplest order) where SE lacks it
    (``StepKind.se_weight``, ``se_rule``); ``rule``: how its steps are rated
    (``explainer.model.rating.Rule``; the plain rule: at its weight); ``sized``: titles by the step's
    size, per language (``StepKind.sized_titles``); ``roles``: the roles its frame shows, space-separated
    (``StepKind.roles``)."""
    return StepKind(name, weight, {"en": en or name, "fr": fr}, code, codes, trial_like=trial_like,
                    reads_solution=reads_solution, single=single, uniqueness=uniqueness, lucky=lucky,
                    gives_way=gives_way, example=example, se_weight=se, rule=rule, se_rule=se_rule,
                    sized_titles=sized or {}, roles=frozenset(roles.split()))
