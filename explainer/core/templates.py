"""The templates' reduction (``techniques.templates``), compiled (``_templates.c``) and pure.

A template of a value is one way to place all its copies (a cell mask); the
solution's templates of two values share no cell. ``reduce`` drops, value by
value in order and again until nothing goes, every template of v that shares a
cell with every template of some other value w. The result does not depend on
the order (a template that goes at one pass would go at any later one), but
both paths keep this one, and each value's templates in their given order.

A value may have too many templates to list (``None`` in ``lists``): the
technique then counts them instead, and a template of v fits beside w when
``fits_counted(t, w)`` says so. The compiled path takes listed values only;
with a ``None`` the pure path runs.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from . import load

_C = load("_templates")

Lists = Sequence[list[int] | None]


def reduce(lists: Lists, fits_counted: Callable[[int, int], bool] | None = None) -> list[list[int] | None]:
    """Each value's templates kept by the reduction (the same ints, in order; ``None`` stays)."""
    if _C is not None and all(mine is not None for mine in lists):
        return _C.reduce(list(lists))  # type: ignore[no-any-return]
    return reduce_py(lists, fits_counted)


def reduce_py(lists: Lists, fits_counted: Callable[[int, int], bool] | None = None) -> list[list[int] | None]:
    """``reduce``'s pure-Python twin (also the path for a value whose templates are counted)."""
    out = list(lists)
    n = len(out)

    def fits(t: int, w: int) -> bool:
        theirs = out[w]
        if theirs is None:
            if fits_counted is None:
                raise ValueError("reduce: a value's templates are counted, and no fits_counted was given")
            return fits_counted(t, w)
        return any(not u & t for u in theirs)

    changed = True
    while changed:
        changed = False
        for v in range(n):
            mine = out[v]
            if not mine:
                continue
            keep = [t for t in mine if all(fits(t, w) for w in range(n) if w != v)]
            if len(keep) < len(mine):
                out[v] = keep
                changed = True
    return out
