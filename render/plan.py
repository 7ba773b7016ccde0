"""Which frames a puzzle's files show, in order, with their file stems and scenes.

``plan_frames`` lists them: the initial grid, each step (a run of singles
folded into one with ``group_singles``, only some techniques with ``only``;
a forcing step's proof sub-frames after its own frame, up to a level of
detail: ``depth``), the solution. It draws nothing: the names, titles and
captions are known before any pixel (the exporters declare the names, the
command line checks them first), and a frame's shapes are laid out only when
its ``scene`` is asked for, one frame at a time (a worker process asks; a
plan of thousands of frames holds no shapes).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from explainer.model.explained import Explained
from explainer.model.explanation import Explanation
from explainer.model.grid import value_char
from explainer.model.i18n import notation
from explainer.model.technique import StepKind, Technique, find_technique, kinds_of, name_key

from . import proofdraw
from .scene import (
    initial_caption,
    initial_scene,
    part_scene,
    part_title,
    scene,
    solution_caption,
    solution_scene,
    step_caption,
    step_title,
    technique_title,
)
from .scene import words as scene_words
from .shapes import Scene

# grouped singles (--group-singles): the frame numbers the placed values in order (scene.py)
# and the caption lists them in that order
SINGLES_TEXT = {"en": "Singles, in order (the small numbers): {cells}; each the only place left for its value "
                      "in a house, or the only candidate left in its cell.",
                "fr": "Singletons, dans l'ordre (les petits numéros) : {cells} ; chacun la seule place restante "
                      "de sa valeur dans une unité, ou le seul candidat restant de sa case."}


def singles_list(place: Sequence[tuple[int, int, int]]) -> str:
    """'(1) r1c2=3, (2) r4c5=7, …' in the order the values were placed."""
    return ", ".join(f"({k}) r{r + 1}c{c + 1}={value_char(v)}" for k, (r, c, v) in enumerate(place, 1))


@dataclass
class Frame:
    """One picture to write: its file stem, what it shows, its title and caption, and how to
    lay out its shapes (``scene``, built anew at each call: nothing is kept). ``level``: its
    level of detail (0 a step's own frame, the initial grid or the solution; 1 the first
    sub-frames of a proof; deeper levels on demand)."""

    stem: str
    build: Callable[[], Scene] = field(repr=False)
    kind: str  # initial | step | solution
    steps: tuple[int, ...] = ()  # 0-based indexes of the steps it shows
    technique: str = ""
    title: str = ""
    caption: str = ""
    level: int = 0
    suffix: str = ""  # a proof sub-frame's letters and digits (017a: "a")
    _legend: str | None = field(default=None, repr=False)
    words_only: Callable[[], Scene] | None = field(default=None, repr=False)  # the scene, nothing routed

    @property
    def scene(self) -> Scene:
        return self.build()

    @property
    def legend(self) -> str:
        """The frame's legend (what its marks mean), for the printed outputs that write it
        beside the picture and lay out their pages before any frame is drawn: its scene is
        laid out once for it (a few milliseconds), the words kept, the shapes not."""
        if self._legend is None:
            self._legend = (self.words_only or self.build)().text("legend")
        return self._legend


def technique_stem(name: str) -> str:
    """The file-name part for a technique: letters, digits and '-' only (never a path); accents
    dropped ("élimination" → "ELIMINATION")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    stem = re.sub(r"[^A-Z0-9]+", "-", plain.upper()).strip("-")
    return stem or "STEP"


def frame_stem(title: str, lang: str, english: str) -> str:
    """A frame's file-name part in ``lang`` (issue 41, item 6): French frames are named by their
    French titles ("001-POSITION-UNIQUE.png"), English ones by ``english`` as before."""
    return technique_stem(english if lang == "en" else title)


def single_names(kinds: Mapping[str, StepKind]) -> set[str]:
    """The step names of the singles among ``kinds`` (``StepKind.single``)."""
    return {name for name, k in kinds.items() if k.single}


def normalise_only(only: Iterable[str] | str | None, techniques: Sequence[Technique]) -> set[str] | None:
    """Step names for --only (names and aliases of ``techniques``, the run's records, or step
    names; "singles": every single); None keeps every step. The command line checks the names
    (``explainer.app.cli``); a name no record answers to keeps the steps of that name only."""
    if only is None:
        return None
    if isinstance(only, str):
        only = [x for x in only.split(",")]
    names: set[str] = set()
    for name in only:
        key = name_key(name)
        if not key:
            continue
        if key == "singles":
            names.update(single_names(kinds_of(techniques)))
            continue
        t = find_technique(techniques, key)
        if t is None:
            names.add(key)  # a step name no record of the run lists (e.g. a later technique)
            continue
        names.update(t.produces if key == t.name or key in t.aliases else (key,))
        names.add(t.name)
    return names


def fold_singles(steps: Sequence[Explanation],
                 kinds: Mapping[str, StepKind]) -> list[tuple[tuple[int, ...], Explanation]]:
    """Runs of two or more consecutive singles (``StepKind.single`` in ``kinds``, the run's step
    kinds) become one step placing all their values."""
    out: list[tuple[tuple[int, ...], Explanation]] = []
    singles = single_names(kinds)
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and steps[j].technique in singles:
            j += 1
        if j - i >= 2:
            run = steps[i:j]
            place = tuple(p for s in run for p in s.place)
            texts = {lang: tmpl.format(cells=singles_list(place)) for lang, tmpl in SINGLES_TEXT.items()}
            folded = Explanation(technique="singles", place=place, show_candidates=False,
                                 text=texts["en"], translations=(("fr", notation(texts["fr"], "fr")),),
                                 before=run[0].before)
            out.append((tuple(range(i, j)), folded))
            i = j
        else:
            out.append(((i,), steps[i]))
            i += 1
    return out


def plan_frames(puzzle: Explained, *, group_singles: bool = False, only: Iterable[str] | str | None = None,
                lang: str = "en", depth: int = 1, theme: Mapping[str, Any] | None = None) -> list[Frame]:
    """The frames of a puzzle, in order, with their file stems: a forcing step's proof
    sub-frames up to level ``depth`` (0: none; ``proofdraw.ALL``: every one)."""
    steps = puzzle.steps
    givens = puzzle.grid.values
    kinds = puzzle.kinds
    width = max(3, len(str(len(steps) + 1)))
    w = scene_words(lang)
    initial_state = puzzle.initial_state()
    first = frame_stem(w["initial"], lang, "INITIAL-GRID")
    frames = [Frame(f"{0:0{width}d}-{first}",
                    partial(initial_scene, initial_state, givens=givens, lang=lang, theme=theme),
                    "initial", title=w["initial"], caption=initial_caption(initial_state, lang))]
    items = fold_singles(steps, kinds) if group_singles else [((i,), s) for i, s in enumerate(steps)]
    keep = normalise_only(only, puzzle.techniques)
    grid: dict[str, Any] = {}  # the last grid a proof part's picture was laid out on (``part_scene``)
    for idx, step in items:
        if keep is not None and not (step.technique in keep or
                                     (step.technique == "singles" and keep & single_names(kinds))):
            continue
        number = (idx[0] + 1, idx[-1] + 1)
        state = step.before
        assert state is not None  # the engine records the state each step was found in
        stem = frame_stem(technique_title(step.technique, lang, getattr(step, "detail", ()), kinds), lang,
                          step.technique)
        build = partial(scene, state, step, number=number, givens=givens, lang=lang, kinds=kinds, depth=depth,
                        theme=theme)
        frames.append(Frame(f"{idx[0] + 1:0{width}d}-{stem}", build, "step", idx, step.technique,
                            title=step_title(number, step.technique, lang, getattr(step, "detail", ()), kinds),
                            caption=step_caption(step, number, lang, depth), words_only=partial(build, routed=False)))
        # a forcing step's proof too large for its frame: sub-frames 017a-…, 017b-… after 017-…
        for part in proofdraw.plan(step.proof, depth=depth) if step.proof is not None else ():
            caption = proofdraw.part_caption(part, puzzle.grid.n, lang, number, depth)
            # the memo: what the frame's layouts share, its caption from the start (``part_scene``)
            sub = partial(part_scene, state, step, part, number=number, givens=givens, lang=lang, kinds=kinds,
                          depth=depth, theme=theme, memo={"caption": caption}, grid=grid)
            frames.append(Frame(f"{idx[0] + 1:0{width}d}{part.suffix}-{stem}", sub,
                                "step", idx, step.technique, title=part_title(step, part, number, lang, kinds),
                                caption=caption,
                                level=part.level, suffix=part.suffix, words_only=partial(sub, routed=False)))
    final = puzzle.state_before(len(steps))
    frames.append(Frame(f"{len(steps) + 1:0{width}d}-{frame_stem(w['solution'], lang, 'SOLUTION')}",
                        partial(solution_scene, final, givens=givens, lang=lang, steps=len(steps),
                                difficulty=puzzle.difficulty, complete=puzzle.complete, theme=theme),
                        "solution", title=w["solution"],
                        caption=solution_caption(lang, len(steps), puzzle.difficulty, puzzle.complete)))
    return frames
