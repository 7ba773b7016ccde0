"""The session's house stamps: a house's number changes exactly when its candidates change."""
from __future__ import annotations

from explainer.model.session import Session
from tests.helpers import marks


def test_house_stamps_change_with_their_houses_only():
    state = marks({})
    session = Session(state)
    first = session.house_stamps()
    assert len(set(first)) == 27
    assert session.house_stamps() is first  # once per state version
    state.eliminate(1 * 9 + 2, 5)  # r2c3: row 2, column 3, box 1
    second = session.house_stamps()
    changed = {h for h in range(27) if first[h] != second[h]}
    assert changed == {1, 9 + 2, 18}
    assert not set(second[h] for h in changed) & set(first)  # a new content never takes an old number
    state.eliminate(1 * 9 + 2, 6)
    assert {h for h in range(27) if second[h] != session.house_stamps()[h]} == {1, 11, 18}
