"""The page's deeper requests (docs/serve.md): why a mistake is wrong, a learner's claim,
the whole explanation from a position and one of its scenes, a generated or a banked puzzle.

As in ``api``: a request body in, a JSON-ready dict out, the work done by the library
(the forcing chains' tracer for ``why``, ``every_step`` for ``claim``, the engine's step
choice for ``explain``, the generator, the bank read-only).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from explainer.api import Puzzle
from explainer.engine.everystep import every_step
from explainer.engine.orders import Rater
from explainer.model.explanation import Explanation
from explainer.model.grid import Grid, PuzzleError, value_char
from explainer.model.i18n import house_words, text_in
from explainer.model.proof import Proof
from explainer.model.rating import difficulty as difficulty_of
from explainer.model.rating import puzzle_rating
from explainer.model.state import State
from explainer.model.technique import kinds_of, rate_steps
from techniques import REGISTRY, known_kinds, title
from techniques.forcing import MAX_LEVEL, make_step, prover
from techniques.implication import extract

from .api import MAX_STEPS, depth_of, grid_line, mistakes_of, next_step, scenes_of, step_dict, step_rating
from .position import BadRequest, Position, cell_ref, field, read_position, value_ref

HANDLERS = ("why", "claim", "explain", "scene", "generate")
CLAIM_SECONDS = 0.5  # per technique, for a claim (``every_step``)

WORDS = {
    "en": {"why_value": "Assume {cell} is {v}: ", "why_removed": "Assume {v} is not a candidate of {cell}: ",
           "seen": "{cell} cannot be {v}: {other} already holds {v} in {house}.",
           "no_proof": "No forcing chain up to nesting level {k} reaches a contradiction from this assumption.",
           "justified": "Justified by {t}.", "already": "Your grid already shows it.",
           "not_yet": "True, but no single step of the registry gives it from your position yet.",
           "false": "False: that contradicts the solution.", "solved": "The grid is already solved."},
    "fr": {"why_value": "Supposons {cell} = {v} : ",
           "why_removed": "Supposons que {v} ne soit pas candidat en {cell} : ",
           "seen": "{cell} ne peut pas valoir {v} : {other} vaut déjà {v} ({house}).",
           "no_proof": "Aucune chaîne de forçage jusqu'à l'imbrication {k} n'aboutit à une contradiction "
                       "à partir de cette hypothèse.",
           "justified": "Justifiée par {t}.", "already": "Votre grille le montre déjà.",
           "not_yet": "Vrai, mais aucune étape seule du registre ne le donne encore depuis votre position.",
           "false": "Faux : cela contredit la solution.", "solved": "La grille est déjà résolue."},
}


def _w(pos: Position) -> dict[str, str]:
    return WORDS.get(pos.lang, WORDS["en"])


# ---- why -----------------------------------------------------------------------------------

def sound_state(pos: Position) -> State:
    """The learner's position with every mistake taken back: wrong values emptied, removed true
    candidates restored; the rest of their marks kept. The place to reason from about one mistake."""
    n = pos.n
    geo = pos.state.geo
    values = [v if v == pos.solution[c] else 0 for c, v in enumerate(pos.state.values)]
    state = State(geo)
    for c, v in enumerate(values):
        if v:
            state.place(c, v)
    learner = pos.state
    for c in range(geo.ncells):
        if values[c] or learner.values[c]:
            continue
        for v in range(1, n + 1):
            if not learner.has(c, v) and v != pos.solution[c] and not any(
                    learner.values[p] == v and values[p] != v for p in geo.peers[c]):
                state.eliminate(c, v)  # the learner removed it (not a wrong value's peer)
    return state


def contradiction_step(state: State, cell: int, value: int, truth: bool) -> Explanation | None:
    """A forcing chain (contradiction) from assuming ``cell`` is ``value`` (``truth``) or is not:
    the lowest nesting level whose branch ends in a contradiction, as a step (its proof replays)."""
    tracer = prover(state)
    geo = state.geo
    for level in range(0, MAX_LEVEL + 1):
        tr = tracer.run(cell, value, truth, level)
        if tr.end is None:
            continue
        proof = Proof("contradiction", level, (extract(tr),))
        if truth:
            return make_step(geo, proof, [], [(cell, value)])
        return make_step(geo, proof, [(cell, value)], [])
    return None


def why(body: Mapping[str, Any]) -> dict[str, Any]:
    """Why a mistake is wrong: assume the learner's value (or the removed candidate absent) and
    follow the forcing chain to its contradiction, drawn as frames draw proofs."""
    pos = read_position(body)
    m = field(body, "mistake", dict, required=True)
    n = pos.n
    cell = cell_ref(m.get("cell"), n, "mistake.cell")
    value = value_ref(m.get("value"), n, "mistake.value")
    kind = m.get("kind")
    if kind not in ("value", "removed"):
        raise BadRequest("mistake.kind: expected \"value\" or \"removed\"")
    geo = pos.state.geo
    name = geo.cell_name(cell)
    w = _w(pos)
    truth = kind == "value"
    if truth == (pos.solution[cell] == value):
        raise BadRequest(f"mistake: {name} {'is' if truth else 'is not'} {value_char(value)} is no mistake")
    state = sound_state(pos)
    if truth and not state.has(cell, value):  # a value seen in a house: no chain needed
        other = next(p for p in geo.peers[cell] if state.values[p] == value)
        house = next(h for h in geo.cell_houses[cell] if other in geo.houses[h])
        text = w["seen"].format(cell=name, v=value_char(value), other=geo.cell_name(other),
                                house=_house_words(geo.house_key(house), pos.lang))
        return {"text": text, "step": None, "scenes": []}
    step = contradiction_step(state, cell, value, truth)
    head = w["why_value" if truth else "why_removed"].format(cell=name, v=value_char(value))
    if step is None:
        return {"text": head + w["no_proof"].format(k=MAX_LEVEL), "step": None, "scenes": []}
    return {"text": head + text_in(step, pos.lang),
            "step": step_dict(step), "scenes": scenes_of(state, step, pos, depth=depth_of(body)),
            "rating": step_rating(step, pos)}


def _house_words(key: tuple[str, int], lang: str) -> str:
    return house_words(key[0], key[1], lang)


# ---- claim ---------------------------------------------------------------------------------

def parse_claim(text: Any, n: int) -> tuple[int, int, bool]:
    """"r4c4=2" (a placement) or "r1c7<>9" (an elimination; also "!=" and "≠")."""
    if not isinstance(text, str):
        raise BadRequest("claim: expected \"r4c4=2\" or \"r1c7<>9\"")
    t = text.replace(" ", "").replace("≠", "<>").replace("!=", "<>")
    placed = "<>" not in t
    parts = t.split("<>" if not placed else "=")
    if len(parts) != 2:
        raise BadRequest(f"claim: {text!r} is not \"r4c4=2\" or \"r1c7<>9\"")
    cell = cell_ref(parts[0], n, "claim")
    value = value_ref(parts[1] if not parts[1].isdigit() else int(parts[1]), n, "claim")
    return cell, value, placed


def _gives(step: Explanation, n: int, geo: Any, cell: int, value: int, placed: bool) -> bool:
    r, c = divmod(cell, n)
    if placed:
        return (r, c, value) in {tuple(x) for x in step.place}
    if (r, c, value) in {tuple(x) for x in step.eliminate}:
        return True
    for pr, pc, pv in step.place:  # a placement that rules it out at once
        p = pr * n + pc
        if (p == cell and pv != value) or (pv == value and p in geo.peers[cell]):
            return True
    return False


def simplest_giving(pos: Position, cell: int, value: int, placed: bool) -> Explanation | None:
    """The simplest step (the order's key: rating first) of the chosen techniques that gives the
    claim from the position. Techniques are run from the least rating they can reach up, each to
    its end (``every_step``, bounded), and the search stops once no technique left can beat the
    best step found."""
    chosen = pos.techniques if pos.techniques is not None else list(REGISTRY)
    rater = Rater(chosen, pos.order.view)
    state, n, geo = pos.state, pos.n, pos.state.geo
    best: tuple[tuple[Any, ...], Explanation] | None = None
    for low, t in sorted(zip(rater.lows, chosen, strict=True), key=lambda x: x[0]):
        if best is not None and low > best[0][0]:
            break
        for step in every_step(state, [(t, None)], REGISTRY, cap=200, seconds=CLAIM_SECONDS, order=pos.order):
            if _gives(step, n, geo, cell, value, placed):
                key = rater.key(step)
                if best is None or key < best[0]:
                    best = (key, step)
                break  # every_step sorts its steps: the first that gives it is its simplest
    return best[1] if best is not None else None


def claim(body: Mapping[str, Any]) -> dict[str, Any]:
    """A learner's claim checked: justified by the simplest registry step giving it from the
    position, "not yet" (true, but no single step gives it), or "false"."""
    pos = read_position(body)
    n = pos.n
    cell, value, placed = parse_claim(body.get("claim"), n)
    w = _w(pos)
    none: dict[str, Any] = {"step": None, "scenes": None, "rating": None}
    if (pos.solution[cell] == value) != placed:
        return {"verdict": "false", "text": w["false"], **none}
    found = mistakes_of(pos)
    if found:
        return {"mistakes": found}
    state = pos.state
    if (state.values[cell] == value) if placed else not state.has(cell, value):
        return {"verdict": "justified", "text": w["already"], **none}
    step = simplest_giving(pos, cell, value, placed)
    if step is not None:
        name = title(step.technique, pos.lang, getattr(step, "detail", ()))
        return {"verdict": "justified", "text": w["justified"].format(t=name), "step": step_dict(step),
                "scenes": scenes_of(state, step, pos, depth=depth_of(body)), "rating": step_rating(step, pos)}
    return {"verdict": "not yet", "text": w["not_yet"], **none}


# ---- explain and its scenes ------------------------------------------------------------------

def _path(pos: Position, stop: int | None = None) -> tuple[list[Explanation], list[State], State]:
    """The steps the order takes from the position to the end (or to step ``stop``), the state
    before each, and the state after the last.

    A position whose candidates are those of its values (no mark removed) is explained by the
    engine's own ``Puzzle`` (its session makes it 1.3-1.8× faster on hardest300, same steps);
    one with the learner's removals, step by step from their marks."""
    state = pos.state
    plain = State.from_grid(Grid(pos.n, tuple(state.values)))
    if plain.cand == state.cand:
        p = Puzzle(plain.grid(), pos.techniques, order=pos.order,
                   max_steps=stop if stop is not None else MAX_STEPS)
        steps = list(p.steps)
        return steps, [p.state_before(k) for k in range(len(steps))] if stop is not None else [], \
            p.state_before(len(steps))
    state = state.copy()
    steps = []
    befores: list[State] = []
    while not state.is_solved() and len(steps) < MAX_STEPS and (stop is None or len(steps) < stop):
        step = next_step(pos, state)
        if step is None:
            break
        befores.append(state.copy())
        steps.append(step)
        state.apply(step)
    return steps, befores, state


def explain(body: Mapping[str, Any]) -> dict[str, Any]:
    """The steps JSON document from the position (STEPS_JSON.md), with the position's rating on
    Sudoku Explainer's scale and the techniques still needed."""
    pos = read_position(body)
    found = mistakes_of(pos)
    if found:
        return {"mistakes": found}
    steps, _, final = _path(pos)
    chosen = pos.techniques if pos.techniques is not None else list(REGISTRY)
    kinds = dict(known_kinds())
    kinds.update(kinds_of(chosen))
    ratings = rate_steps(steps, kinds, pos.order.view)
    complete = final.is_solved()
    rating = puzzle_rating(steps, ratings, None if complete else pos.order.unfinished)
    needed: list[str] = []
    for s in steps:
        if s.technique not in needed:
            needed.append(s.technique)
    stats = {name: sum(1 for s in steps if s.technique == name) for name in needed}
    geo = pos.state.geo
    return {
        "format": 1, "puzzle": pos.puzzle.to_line(), "grid": grid_line(pos.state), "size": pos.n, "box": geo.m,
        "solution": "".join(value_char(v) for v in pos.solution), "difficulty": difficulty_of(rating.er),
        "complete": complete, "statistics": stats, "rating": rating.to_dict(), "order": pos.order.name,
        "steps": [dict(s.to_dict(), rating=r) for s, r in zip(steps, ratings, strict=True)],
        "techniques_needed": [{"name": t, "title": title(t, pos.lang)} for t in needed],
    }


def scene(body: Mapping[str, Any]) -> dict[str, Any]:
    """The frames of step ``index`` (1-based) of ``explain``'s list from the same position."""
    pos = read_position(body)
    index = body.get("index")
    if isinstance(index, bool) or not isinstance(index, int) or index < 1:
        raise BadRequest("index: expected a step number, 1 or more")
    if mistakes_of(pos):
        raise BadRequest("the grid has mistakes: check it first")
    steps, befores, _ = _path(pos, index)
    if index > len(steps):
        raise BadRequest(f"index: {index} is past the last step ({len(steps)})")
    return {"scenes": scenes_of(befores[-1], steps[-1], pos, number=index, depth=depth_of(body))}


# ---- new puzzles: generated or from the bank ------------------------------------------------

def generate(body: Mapping[str, Any]) -> dict[str, Any]:
    """A new puzzle of a size, with a difficulty or an ER range when asked (bounded tries)."""
    from explainer.app.generate import DIFFICULTIES, GenerationFailed, engine_target
    from explainer.app.generate import generate as make
    from explainer.model.rating import parse_range

    if not isinstance(body, Mapping):
        raise BadRequest("the request body is a JSON object")
    size = field(body, "size", int, 9)
    if size not in (4, 9, 16, 25):
        raise BadRequest("size: expected 4, 9, 16 or 25")
    difficulty = field(body, "difficulty", str)
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise BadRequest(f"difficulty: {difficulty!r} is not one of {', '.join(DIFFICULTIES)}")
    wanted = field(body, "rating", str)
    rating = None
    if wanted is not None:
        try:
            rating = parse_range(wanted)
        except (PuzzleError, ValueError) as e:
            raise BadRequest(f"rating: {e}") from None
    if (difficulty or rating) and size != 9:
        raise BadRequest("difficulty and rating are for 9×9 puzzles")
    seed = field(body, "seed", int, random.randrange(1 << 30))
    try:
        grid = make(size, seed, accept=engine_target(difficulty, None, rating), max_tries=40 if size == 9 else 5)
    except GenerationFailed:
        raise BadRequest("no puzzle met the target in time; try again or widen it", 422) from None
    out: dict[str, Any] = {"puzzle": grid.to_line(), "rating": None}
    if size == 9 and (difficulty or rating):
        p = Puzzle(grid)
        out["rating"] = dict(p.rating.to_dict(), difficulty=p.difficulty)
    return out


def bank_info(path: str | None) -> dict[str, Any]:
    """Whether the server has a bank, how many puzzles it holds and their difficulties."""
    if path is None:
        return {"available": False, "count": 0, "bands": []}
    from explainer.app.bank.db import PuzzleDB

    with PuzzleDB(path, read_only=True) as db:
        rows = db.conn.execute("SELECT difficulty, count(*) FROM puzzles WHERE error IS NULL "
                               "GROUP BY difficulty").fetchall()
    return {"available": True, "count": sum(k for _, k in rows), "bands": sorted(d for d, _ in rows if d)}


def bank(body: Mapping[str, Any], path: str | None) -> dict[str, Any]:
    """A puzzle of the server's bank (opened read-only): of a band when asked, the ``index``-th
    (0-based) or a random one."""
    if path is None:
        raise BadRequest("this server has no puzzle bank (start it with --bank FILE)", 404)
    if not isinstance(body, Mapping):
        raise BadRequest("the request body is a JSON object")
    from explainer.app.bank.db import PuzzleDB

    band = field(body, "band", str)
    index = field(body, "index", int)
    cond, args = "error IS NULL", []
    if band is not None:
        cond += " AND difficulty = ?"
        args.append(band)
    with PuzzleDB(path, read_only=True) as db:
        count = db.conn.execute(f"SELECT count(*) FROM puzzles WHERE {cond}", args).fetchone()[0]
        if not count:
            raise BadRequest(f"band: no puzzle of band {band!r} in the bank", 404)
        k = random.randrange(count) if index is None else index
        if not 0 <= k < count:
            raise BadRequest(f"index: {k} is outside 0..{count - 1}")
        pid, text, er, ep, ed, diff = db.conn.execute(
            f"SELECT id, text, er, ep, ed, difficulty FROM puzzles WHERE {cond} ORDER BY id LIMIT 1 OFFSET ?",
            [*args, k]).fetchone()
    rating = {"er": er, "ep": ep, "ed": ed, "difficulty": diff} if er is not None else None
    return {"puzzle": text, "id": pid, "rating": rating}
