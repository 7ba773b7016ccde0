"""The page's deeper requests: why a mistake is wrong, a learner's claim, the whole
explanation from a position, one of its scenes, a generated or banked puzzle."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .position import BadRequest

HANDLERS: tuple[str, ...] = ()


def bank(body: Mapping[str, Any], path: str | None) -> dict[str, Any]:
    if path is None:
        raise BadRequest("this server has no puzzle bank (start it with --bank FILE)", 404)
    raise BadRequest("not yet", 501)


def bank_info(path: str | None) -> dict[str, Any]:
    """Whether the server has a bank, how many puzzles it holds and its bands (for ``/api/meta``)."""
    if path is None:
        return {"available": False, "count": 0, "bands": []}
    return {"available": True, "count": 0, "bands": []}
