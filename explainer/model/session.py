"""The solving session: one puzzle's candidate state and what the finders derive from it.

The engine makes one ``Session`` per puzzle explained and hands it to every
finder in ``Context.session``. Tables that live as long as the puzzle (link
graphs, groups, almost locked sets) belong here, not in module-level caches:
what a finder returns then never depends on what the process explained
before. Two kinds of table:

- ``derived(key, build)``: a table of the whole state as it is now (the link
  graph, the ALS list), built once and shared by the finders of one step;
  any change of the state (``State.version``) retires it;
- ``parts(owner)``: a table kept in parts (per house, per value), each part
  stored with the content it was built from (a house's cells and candidates,
  a value's places). A step changes few houses and values, so the next step
  rebuilds only the parts whose content changed, whatever changed it. A part
  read from a few whole houses (a rectangle's rows, columns and boxes; a
  line-box intersection's line and box) takes their ``house_stamps`` as its
  content: a number per house that changes exactly when the house's
  candidates do.

The engine calls ``applied`` after each step; the state's version then moves
on, and the derived tables of the old state are let go at once.

A finder called without a session (a test, ``hint`` on one position) gets a
fresh one from ``session_of``: the same results, without reuse.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

from .explanation import Explanation
from .state import State

T = TypeVar("T")


class Run(Protocol):
    """What ``session_of`` reads of a finder's context (``technique.Context``, which builds on
    this module): the run's session, if any."""

    @property
    def session(self) -> Session | None: ...


class StaleTable(AssertionError):
    """A table part reused for a state it no longer describes (check mode): a bug."""


class Session:
    """The state being solved and the per-puzzle tables of its finders."""

    __slots__ = ("state", "check", "_slots", "_derived", "_version", "_houses", "_stamps", "_stamped")

    def __init__(self, state: State, check: bool = False) -> None:
        self.state = state
        # check mode (the engine's, in tests): every part reused is compared with a fresh build
        self.check = check
        self._slots: dict[str, dict[Any, Any]] = {}
        self._derived: dict[str, Any] = {}
        self._version = state.version
        # per house: the candidates it was last seen with and their stamp (``house_stamps``)
        self._houses: list[tuple[int, ...]] = []
        self._stamps: list[int] = []
        self._stamped = 0  # stamps given so far: a new content gets a number never given before

    def slot(self, owner: str) -> dict[Any, Any]:
        """A finder's own per-puzzle storage (``owner``: its module's name)."""
        return self._slots.setdefault(owner, {})

    def parts(self, owner: str) -> dict[Any, tuple[Any, Any]]:
        """A table kept in parts: part -> (the content it was built from, the part's value); a
        reader rebuilds a part whose content is not the one stored."""
        return self.slot(owner)

    def part(self, owner: str, key: Hashable, content: Hashable, build: Callable[[], T]) -> T:
        """One part of ``owner``'s table kept in parts: the value ``build()`` made from
        ``content`` (everything the part reads of the state), made again only when the content
        changed. In check mode a part reused is compared with a fresh build (``StaleTable``)."""
        table = self._slots.get(owner)
        if table is None:
            table = self._slots[owner] = {}
        hit = table.get(key)
        if hit is not None and hit[0] == content:
            if self.check and build() != hit[1]:
                raise StaleTable(f"the session's table {owner!r}, part {key!r}: reused for content it was not "
                                 "built from")
            value: T = hit[1]
            return value
        made = build()
        table[key] = (content, made)
        return made

    def derived(self, key: str, build: Callable[[State], T]) -> T:
        """A table of the state as it is now, built by ``build(state)`` once per state version."""
        if self._version != self.state.version:
            self._derived.clear()
            self._version = self.state.version
        try:
            hit: T = self._derived[key]
            return hit
        except KeyError:
            value = self._derived[key] = build(self.state)
            return value

    def house_stamps(self) -> tuple[int, ...]:
        """Per house (``Geometry.houses``' order), a number that changes whenever the house's
        candidates change, and only then: a part read from a few houses takes their stamps as
        its content (a few numbers, not every candidate of those houses), so a step that does
        not touch them leaves the part as it is. Computed once per state version."""
        return self.derived("session.house stamps", self._stamp_houses)

    def _stamp_houses(self, state: State) -> tuple[int, ...]:
        cand = state.cand
        houses, stamps = self._houses, self._stamps
        for h, cells in enumerate(state.geo.houses):
            now = tuple([cand[c] for c in cells])
            if h == len(houses):
                houses.append(now)
                stamps.append(self._stamped)
                self._stamped += 1
            elif houses[h] != now:
                houses[h] = now
                stamps[h] = self._stamped
                self._stamped += 1
        return tuple(stamps)

    def applied(self, step: Explanation) -> None:
        """The engine applied ``step`` to ``state``: the tables of the state before it go
        (the parts stay: each is checked against its content when next read)."""
        self._derived.clear()
        self._version = self.state.version

    def check_print(self) -> tuple[int, int, dict[str, int]]:
        """What a finder may not change (the engine's check mode, ``explainer.engine.check``):
        the state solved, the version the tables are for, and the tables of the current state
        (by identity: a finder may add one, never replace or drop one)."""
        current = self._version == self.state.version
        return id(self.state), self._version, ({k: id(v) for k, v in self._derived.items()} if current else {})

    def __repr__(self) -> str:
        return f"<Session {self.state!r}>"


def session_of(state: State, ctx: Run) -> Session:
    """The run's session when it is solving this very state, else a fresh one for it."""
    session = ctx.session
    if session is not None and session.state is state:
        return session
    return Session(state)
