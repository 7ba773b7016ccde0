"""One step of an explanation, as immutable data mirroring the steps JSON.

Coordinates follow STEPS_JSON.md: 0-based ``(row, col)``, candidates
``(row, col, value)``, houses ``("row" | "col" | "box", k)``. Techniques fill
the highlight fields so that the renderer can draw the reason without
reasoning itself. The fields hold the value types of ``explainer.model.values``
(``Candidate``, ``Cell``, ``House``, ``StrongLink``, ``WeakLink``): tuples that
print in the community notation and equal the plain tuples they came from.

>>> step = Explanation("x wing", eliminate=((1, 4, 7), (7, 4, 7)))
>>> step
<Explanation x wing: r2c5<>7, r8c5<>7>
>>> step.eliminate[0], step.eliminate[0] == (1, 4, 7)
(Candidate(1, 4, 7), True)
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from .grid import Geometry
from .proof import Proof
from .roles import Role, completed
from .state import Snapshot
from .values import Candidate, Cell, House, candidates, cells, houses, strong_links, weak_links

# What the fields accept: plain tuples (a finder's, or JSON's) or the value types,
# which are such tuples; what they hold once built: the value types.
Cand = tuple[int, int, int]
CellKey = tuple[int, int]
HouseKey = tuple[str, int]
Link = tuple[Cand, Cand]

JSON_FIELDS = (
    "technique", "place", "eliminate", "cells", "cells_alt", "houses", "marked",
    "marked_alt", "strong_links", "weak_links", "show_candidates", "text",
)


@dataclass(frozen=True, repr=False)
class Explanation:
    technique: str
    place: tuple[Cand, ...] = ()  # Candidate
    eliminate: tuple[Cand, ...] = ()  # Candidate
    cells: tuple[CellKey, ...] = ()  # Cell
    cells_alt: tuple[CellKey, ...] = ()  # Cell
    houses: tuple[HouseKey, ...] = ()  # House
    marked: tuple[Cand, ...] = ()  # Candidate
    marked_alt: tuple[Cand, ...] = ()  # Candidate
    strong_links: tuple[Link, ...] = ()  # StrongLink
    weak_links: tuple[Link, ...] = ()  # WeakLink
    show_candidates: bool = True
    text: str = ""
    # The text in other languages: ((lang, text), ...), see explainer.model.i18n.
    translations: tuple[tuple[str, str], ...] = ()
    # Extra facts for statistics and queries (chain length, pattern size …);
    # written to JSON under "detail", never needed to replay the step.
    detail: tuple[tuple[str, Any], ...] = ()
    # The implications behind a forcing (or trial) step: STEPS_JSON.md "proof".
    proof: Proof | None = None
    # What the frame must show, stated by the finder (explainer.model.roles; STEPS_JSON.md "roles"):
    # the renderer draws these and never reasons. ``placed`` / ``removed`` are added from
    # ``place`` / ``eliminate`` when a finder states roles.
    roles: tuple[Role, ...] = ()
    # The state before this step, attached by the engine so the step can be
    # drawn on its own (notebooks, queries); not part of equality or JSON.
    before: Snapshot | None = field(default=None, compare=False, repr=False)
    # How a step draws itself (notebooks): set by the library API (explainer.api)
    # to render's step_png, so that the core never imports the drawing code.
    drawer: ClassVar[Callable[[Snapshot, Explanation], bytes] | None] = None

    def __post_init__(self) -> None:
        # plain tuples (from a finder or from JSON) become value types; same equality, same JSON
        # (written to the instance's dict as ``object.__setattr__`` would: a step is built for
        # every step taken, the attribute protocol at each field costs more than the field)
        fields_ = self.__dict__
        for name, make in _VALUE_FIELDS:
            value = fields_[name]
            if value:
                fields_[name] = make(value)
        roles = fields_["roles"]
        if roles:
            fields_["roles"] = completed(roles, fields_["place"], fields_["eliminate"])

    def summary(self, limit: int = 6) -> str:
        """'x wing: r2c5<>7, r8c5<>7' (what the step places and removes)."""
        changes = ([Candidate(*c).placement() for c in self.place] +
                   [Candidate(*c).elimination() for c in self.eliminate])
        more = f", … ({len(changes)} in all)" if len(changes) > limit else ""
        return f"{self.technique}: {', '.join(changes[:limit])}{more}"

    def __repr__(self) -> str:
        return f"<Explanation {self.summary()}>"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name in JSON_FIELDS:
            value = getattr(self, name)
            d[name] = _listify(value) if isinstance(value, tuple) else value
        if self.detail:
            d["detail"] = {k: _listify(v) for k, v in self.detail}
        if self.translations:
            d["translations"] = dict(self.translations)
        if self.proof is not None:
            d["proof"] = self.proof.to_dict()
        if self.roles:
            d["roles"] = [r.to_dict() for r in self.roles]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Explanation:
        kw: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in ("before",) or f.name not in d:
                continue
            value = d[f.name]
            if f.name == "proof":
                kw[f.name] = Proof.from_dict(value, cls.from_dict) if value else None
            elif f.name == "roles":
                kw[f.name] = tuple(Role.from_dict(r) for r in value)
            elif f.name in ("detail", "translations"):
                kw[f.name] = tuple(sorted(value.items()))
            elif isinstance(value, list):
                kw[f.name] = _tuplify(value)
            else:
                kw[f.name] = value
        return cls(**kw)

    @property
    def progress(self) -> int:
        """Number of placements and eliminations (never 0 for a real step)."""
        return len(self.place) + len(self.eliminate)

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.detail).get(key, default)

    def text_in(self, lang: str = "en") -> str:
        from .i18n import text_in

        return text_in(self, lang)

    def with_before(self, state: Snapshot | None) -> Explanation:
        return replace(self, before=state)

    def _repr_png_(self) -> bytes | None:
        drawer = type(self).drawer
        if self.before is None or drawer is None:
            return None
        return drawer(self.before, self)


_VALUE_FIELDS = (
    ("place", candidates), ("eliminate", candidates), ("cells", cells), ("cells_alt", cells),
    ("houses", houses), ("marked", candidates), ("marked_alt", candidates),
    ("strong_links", strong_links), ("weak_links", weak_links),
)


def _listify(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_listify(x) for x in value]
    return value


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(x) for x in value)
    return value


# ---- helpers techniques use to fill the fields ------------------------------------

def cands(geo: Geometry, pairs: Iterable[tuple[int, int]]) -> tuple[Candidate, ...]:
    """(cell index, value) pairs to sorted candidates."""
    n = geo.n
    return tuple(sorted({Candidate(c // n, c % n, v) for c, v in pairs}))


def cell_coords(geo: Geometry, indexes: Iterable[int]) -> tuple[Cell, ...]:
    n = geo.n
    return tuple(sorted({Cell(c // n, c % n) for c in indexes}))


def house_keys(geo: Geometry, indexes: Iterable[int]) -> tuple[House, ...]:
    seen: list[House] = []
    for h in indexes:
        key = House(*geo.house_key(h))
        if key not in seen:
            seen.append(key)
    return tuple(seen)


def step_length(step: dict[str, Any]) -> int:
    """Chain length or pattern size from the step's detail, else what it highlights."""
    detail = step.get("detail") or {}
    for key in ("length", "size"):
        value = detail.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value)
    marked = len(step.get("marked", ())) + len(step.get("marked_alt", ()))
    if marked:
        return marked
    return len(step.get("cells", ())) + len(step.get("cells_alt", ()))
