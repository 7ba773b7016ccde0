"""What a frame shows, as plain data: a list of shapes, each with a role.

``scene(state, step)`` reads the candidate state *before* the step and the
step's highlight fields (STEPS_JSON.md) and lays them out in grid units:
x = column, y = row (0 at the top), a cell is 1×1, candidate v of a cell sits
at the same spot of an m×m sub-grid. No matplotlib here, and no reasoning:
the step says what matters, the scene only says where it goes.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from explainer.i18n import text_in
from techniques import title

from .routing import Obstacles, route
from .shapes import Scene, Shape, spot

WORDS = {
    "en": {"step": "Step", "steps": "Steps", "initial": "Initial grid", "solution": "Solution",
           "givens": "{k} givens", "solved": "Solved in {k} steps ({d}).",
           "unsolved": "Stuck after {k} steps: the chosen techniques cannot go further.",
           "singles": "Singles: {cells}.", "and": "and"},
    "fr": {"step": "Étape", "steps": "Étapes", "initial": "Grille initiale", "solution": "Solution",
           "givens": "{k} indices", "solved": "Résolue en {k} étapes ({d}).",
           "unsolved": "Bloquée après {k} étapes : les techniques choisies ne vont pas plus loin.",
           "singles": "Singletons : {cells}.", "and": "et"},
}
DIFFICULTY_FR = {"easy": "facile", "medium": "moyenne", "difficult": "difficile"}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


# a tuple step's title names its size, like its caption ("Hidden pair", not "hidden tuple")
TUPLE_TITLES = {
    "en": {"naked tuple": {2: "naked pair", 3: "naked triple", 4: "naked quad"},
           "hidden tuple": {2: "hidden pair", 3: "hidden triple", 4: "hidden quad"}},
    "fr": {"naked tuple": {2: "paire nue", 3: "triplet nu", 4: "quadruplet nu"},
           "hidden tuple": {2: "paire cachée", 3: "triplet caché", 4: "quadruplet caché"}},
}


def technique_title(technique: str, lang: str = "en", detail: Any = ()) -> str:
    """The registry's title of a step name, or a tuple's by its size (``detail`` ``size``)."""
    size = dict(detail or ()).get("size")
    named = TUPLE_TITLES.get(lang, TUPLE_TITLES["en"]).get(technique, {})
    return (named.get(size) if isinstance(size, int) else None) or title(technique, lang)


def step_title(number: int | str | tuple[int, int], technique: str, lang: str = "en", detail: Any = ()) -> str:
    w = words(lang)
    name = technique_title(technique, lang, detail)
    if isinstance(number, tuple) and number[0] != number[1]:
        return f"{w['steps']} {number[0]}–{number[1]} — {name}"
    k = number[0] if isinstance(number, tuple) else number
    return f"{w['step']} {k} — {name}"


LEGEND = {
    "en": {"onoff": "dark disks “on”, light disks “off”",
           "tuple": "disks: the tuple's values",
           "pivot": "the pivot cell in its own tint, the pincers in the other",
           "als": "first ALS filled, second outlined; disks: restricted common, rings: Z",
           "fish": "solid outlines: base lines, dashed: cover lines",
           "fish_fin": "solid outlines: base lines, dashed: cover lines, ringed: fin",
           "line": "dashed: the rectangle's row and column",
           "wwing": "disks: the linking value in the house and in both cells, rings: the value removed",
           "proof": "thick ring: assumption, filled: true, struck ring: false, arrows: implications"},
    "fr": {"onoff": "disques foncés « vrai », clairs « faux »",
           "tuple": "disques : les valeurs du groupe",
           "pivot": "le pivot dans sa propre teinte, les pinces dans l'autre",
           "als": "premier ENA rempli, second entouré ; disques : commun restreint, anneaux : Z",
           "fish": "contours pleins : lignes de base, pointillés : lignes de couverture",
           "fish_fin": "contours pleins : lignes de base, pointillés : lignes de couverture, anneau : aileron",
           "line": "pointillés : la ligne et la colonne du rectangle",
           "wwing": "disques : la valeur de liaison dans l'unité et les deux cases, anneaux : la valeur retirée",
           "proof": "anneau épais : hypothèse, rempli : vrai, anneau barré : faux, flèches : implications"},
}


def legend_text(keys: dict[str, str], lang: str = "en") -> str:
    """The roles a frame shows, in words (the caption's last line)."""
    w = LEGEND.get(lang, LEGEND["en"])
    out = []
    for key, val in keys.items():
        if key == "fish":
            out.append(w["fish_fin"] if val == "fin" else w["fish"])
        elif key in w:
            out.append(w[key])
    if not out:
        return ""
    text = "; ".join(out)
    return text[0].upper() + text[1:] + "."


def _values_and_candidates(out: Scene, state: Any, place: dict, covered: set | dict, givens: Any,
                           show_candidates: bool, obstacles: Obstacles | None) -> None:
    """Big digits and candidates; each also an obstacle for lines (``obstacles``
    None: the frame has no line to route)."""
    n = out.n
    values = state.values
    for cell, v in enumerate(values):
        if v:
            r, c = divmod(cell, n)
            given = givens is None or givens[cell] == v
            out.append(Shape("given" if given else "placed", "value", r, c, v))
            if obstacles is not None:
                obstacles.add_value(r, c)
    for (r, c), v in place.items():
        out.append(Shape("place", "value", r, c, v))
        if obstacles is not None:
            obstacles.add_value(r, c)
    if not show_candidates:
        return
    for cell, mask in enumerate(state.cand):
        if not mask:
            continue
        r, c = divmod(cell, n)
        if (r, c) in place:
            continue
        v = 1
        while mask:
            if mask & 1:
                if (r, c, v) not in covered:
                    out.append(Shape("candidate", "candidate", r, c, v))
                if obstacles is not None:
                    obstacles.add_candidate(*spot(n, r, c, v), (r, c, v))
            mask >>= 1
            v += 1


def scene(state: Any, step: Any = None, *, number: int | tuple[int, int] | None = None,
          title: str | None = None, caption: str | None = None, givens: Sequence[int] | None = None,
          lang: str = "en", show_candidates: bool | None = None) -> Scene:
    """The shapes of one frame: ``state`` is the grid before ``step`` (None: just the grid).

    ``givens``: the puzzle's givens (values told apart from placed ones);
    ``number``: the step number (1-based, or a first–last range) for the title.
    A forcing step (``step.proof``) shows its whole proof when it fits one
    frame, else its assumptions and conclusion (``proof_scenes`` gives the rest).
    """
    from . import proofdraw
    from .roles import Roles, derive

    geo = state.geo
    n = geo.n
    out = Scene(n)
    values = state.values
    obstacles = Obstacles(n)

    place = {(r, c): v for r, c, v in (step.place if step else ())}
    roles = derive(state, step) if step is not None else Roles()
    special: dict[tuple[int, int, int], str] = {}
    if step is not None:
        for role in ("marked_alt", "marked", "eliminate"):  # later wins
            for cand in getattr(step, role):
                special[tuple(cand)] = role
    # a candidate of a cell solved or placed by this step: the big digit says it all
    special = {k: v for k, v in special.items() if not values[k[0] * n + k[1]] and (k[:2] not in place
                                                                                   or v == "eliminate")}
    derived = {}
    for cand, role, tone in roles.marks:
        r, c, v = cand
        if cand not in special and state.cand[r * n + c] >> (v - 1) & 1 and (r, c) not in place:
            derived[cand] = (role, tone)

    proof = getattr(step, "proof", None) if step is not None else None
    proof_shapes: list[Shape] = []
    covered: set = set(special) | set(derived)

    # cell highlights first (they lie under the digits)
    if step is not None:
        for r, c in step.cells:
            solved = values[r * n + c] or (r, c) in place
            out.append(Shape("cells", "circle" if solved else "square", r, c, values[r * n + c],
                             tone=roles.cell_tone.get((r, c), "")))
        for r, c in step.cells_alt:
            solved = values[r * n + c] or (r, c) in place
            out.append(Shape("cells_alt", "circle" if solved else "outline", r, c, values[r * n + c],
                             tone=roles.cell_tone.get((r, c), "")))
        for i, (kind, k) in enumerate(step.houses):
            out.append(Shape("houses", "house", house=(kind, k), tone=roles.house_tone.get(i, "")))
        for (kind, k), tone in roles.houses:
            out.append(Shape("houses", "house", house=(kind, k), tone=tone))

    if show_candidates is None:
        show_candidates = bool(step is not None and step.show_candidates)
    if proof is not None:
        show_candidates = True
        covered |= proofdraw.fact_cands(proof, None if proofdraw.needs_subframes(proof) else "all")
    lines = step is not None and (step.strong_links or step.weak_links or roles.links or proof is not None)
    _values_and_candidates(out, state, place, covered, givens, show_candidates, obstacles if lines else None)
    if step is not None and step.technique == "singles":  # grouped singles: the order they were placed in
        for k, (r, c, _v) in enumerate(step.place, 1):
            out.append(Shape("order", "label", r, c, text=str(k)))
    if lines and not show_candidates:  # the marked candidates are still in the way
        for (r, c, v) in covered:
            obstacles.add_candidate(*spot(n, r, c, v), (r, c, v))

    # links between candidate spots (under the disks, over plain digits)
    if step is not None:
        links = [(role, tuple(a), tuple(b), "") for role, ls in (("strong_link", step.strong_links),
                                                                 ("weak_link", step.weak_links)) for a, b in ls]
        for role, a, b, tone in links + roles.links:
            if a[:2] == b[:2]:
                continue  # never inside one cell
            pts = route(spot(n, *a), spot(n, *b), obstacles, {a, b})
            out.append(Shape(role, "link", points=pts, tone=tone))

    # marked / eliminated candidates
    for (r, c, v), role in sorted(special.items()):
        tone = roles.cand_tone.get((r, c, v), "")
        if role == "marked":
            out.append(Shape("marked", "disk", r, c, v, tone=tone))
        elif role == "marked_alt":
            out.append(Shape("marked_alt", "ring", r, c, v, tone=tone))
        else:
            out.append(Shape("eliminate", "disk", r, c, v))
            out.append(Shape("eliminate", "strike", r, c, v))
    for (r, c, v), (role, tone) in sorted(derived.items()):
        out.append(Shape(role, "disk" if role == "marked" else "ring", r, c, v, tone=tone))

    legend = dict(roles.legend)
    if proof is not None:
        if proofdraw.needs_subframes(proof):
            proof_shapes = proofdraw.overview_shapes(n, proof, state, obstacles, set(place))
        else:
            proof_shapes = proofdraw.part_shapes(n, proof, (0, 1, len(proof.branches[0].facts), 1, 1),
                                                 state, obstacles, set(place))
        legend["proof"] = "1"
    out.extend(proof_shapes)

    # words
    w = words(lang)
    if title is None:
        if step is None:
            title = w["initial"]
        else:
            title = step_title(number if number is not None else 0, step.technique, lang, getattr(step, "detail", ()))
    if caption is None:
        caption = text_in(step, lang) if step is not None else ""
        if proof is not None and proofdraw.needs_subframes(proof) and number is not None:
            k = number[0] if isinstance(number, tuple) else number
            count = len(proofdraw.parts(proof))
            caption += proofdraw.words(lang)["overview" if len(proof.branches) > 1 else "overview_one"].format(
                k=len(proof.branches), first=f"{k}a", last=f"{k}{proofdraw.SUFFIXES[count - 1]}")
    out.append(Shape("title", "text", text=title))
    if caption:
        out.append(Shape("caption", "text", text=caption))
    lt = legend_text(legend, lang)
    if lt:
        out.append(Shape("legend", "text", text=lt))
    return out


def proof_scenes(state: Any, step: Any, *, number: int | tuple[int, int] | None = None,
                 givens: Sequence[int] | None = None, lang: str = "en", limit: int | None = None) -> list[Scene]:
    """The sub-frames of a forcing step's proof, in order (RENDERING.md wave 2).

    ``[]`` when the step has no ``proof`` or when its own frame (``scene``)
    already shows the whole proof (one branch of at most ``LIMIT`` facts).
    Otherwise one Scene per branch, a long branch cut into parts of at most
    ``limit`` facts. Each Scene has ``suffix`` ``"a"``, ``"b"`` … (file
    names ``017a-TECHNIQUE.png`` after ``017-TECHNIQUE.png``), the title
    ``Step 17a — …`` and a caption saying which branch and part it shows and
    reading that part of the proof for a learner.
    """
    from . import proofdraw

    proof = getattr(step, "proof", None)
    limit = limit or proofdraw.LIMIT
    if proof is None or not proofdraw.needs_subframes(proof, limit):
        return []
    n = state.geo.n
    k = number[0] if isinstance(number, tuple) else number
    out = []
    for idx, part in enumerate(proofdraw.parts(proof, limit)):
        suffix = proofdraw.SUFFIXES[idx % 26] * (1 + idx // 26)
        obstacles = Obstacles(n)
        sc = Scene(n, suffix=suffix)
        covered = proofdraw.fact_cands(proof, part)
        _values_and_candidates(sc, state, {}, covered, givens, True, obstacles)
        sc.extend(proofdraw.part_shapes(n, proof, part, state, obstacles))
        num = f"{k if k is not None else ''}{suffix}"
        sc.append(Shape("title", "text", text=step_title(num, step.technique, lang)))
        sc.append(Shape("caption", "text", text=proofdraw.part_caption(proof, part, n, lang)))
        sc.append(Shape("legend", "text", text=legend_text({"proof": "1"}, lang)))
        out.append(sc)
    return out

def initial_scene(state: Any, *, givens: Sequence[int] | None = None, lang: str = "en",
                  caption: str | None = None) -> Scene:
    w = words(lang)
    k = sum(1 for v in state.values if v)
    if caption is None:
        caption = w["givens"].format(k=k) + "."
    return scene(state, None, title=w["initial"], caption=caption, givens=givens, lang=lang)


def solution_scene(state: Any, *, givens: Sequence[int] | None = None, lang: str = "en",
                   steps: int = 0, difficulty: str = "", complete: bool = True) -> Scene:
    w = words(lang)
    d = DIFFICULTY_FR.get(difficulty, difficulty) if lang == "fr" else difficulty
    caption = (w["solved"] if complete else w["unsolved"]).format(k=steps, d=d)
    return scene(state, None, title=w["solution"], caption=caption, givens=givens, lang=lang,
                 show_candidates=not complete)


def step_scenes(state: Any, step: Any, *, number: int | tuple[int, int] | None = None,
                givens: Sequence[int] | None = None, lang: str = "en") -> list[Scene]:
    """What an exporter writes for one step: its frame (``suffix`` ""), then the
    sub-frames of its proof if it needs them (``suffix`` "a", "b" …): file stems
    ``f"{k:03d}{sc.suffix}-{TECHNIQUE}"``, e.g. 017-…, 017a-…, 017b-…"""
    main = scene(state, step, number=number, givens=givens, lang=lang)
    return [main] + proof_scenes(state, step, number=number, givens=givens, lang=lang)
