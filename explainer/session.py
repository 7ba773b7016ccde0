"""The solving session: one puzzle's candidate state and what the finders derive from it.

The engine makes one ``Session`` per puzzle explained and hands it to every
finder in ``Context.session``. Tables that live as long as the puzzle (link
graphs, groups, almost locked sets, a forcing search's last batch) belong
here, not in module-level caches: what a finder returns then never depends
on what the process explained before. The engine calls ``applied`` after
each step, so a table can update from the step's placements and
eliminations instead of being rebuilt.

A finder called without a session (a test, ``hint`` on one position) gets a
fresh one from ``session_of``: the same results, without reuse.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import State

if TYPE_CHECKING:
    from .explanation import Explanation
    from .technique import Context


class Session:
    """The state being solved and the per-puzzle tables of its finders."""

    __slots__ = ("state", "_slots")

    def __init__(self, state: State) -> None:
        self.state = state
        self._slots: dict[str, dict[str, Any]] = {}

    def slot(self, owner: str) -> dict[str, Any]:
        """A finder's own per-puzzle storage (``owner``: its module's name)."""
        return self._slots.setdefault(owner, {})

    def applied(self, step: Explanation) -> None:
        """The engine applied ``step`` to ``state``: tables may update from its changes."""

    def __repr__(self) -> str:
        return f"<Session {self.state!r}>"


def session_of(state: State, ctx: Context) -> Session:
    """The run's session when it is solving this very state, else a fresh one for it."""
    session = ctx.session
    if session is not None and session.state is state:
        return session
    return Session(state)
