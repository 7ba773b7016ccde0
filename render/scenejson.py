"""A frame as plain JSON data, for the learner's page (explain-sudoku serve).

The page draws a step as SVG in the browser from the very ``Scene`` the PNG
renderer draws (``render.frame``): one description, two back-ends, so the page
and the frames cannot disagree. ``scene_dict`` writes a ``Scene`` as the dict
docs/serve.md describes; ``themes_dict`` every theme of ``render.theme`` so
that the page colours the shapes' colour keys as the frames do.
No reasoning and no drawing here: a straight translation.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from .shapes import Scene, Shape
from .theme import THEME_COLOURS

# the text shapes also lifted into the scene's top-level fields
TEXT_ROLES = ("title", "caption", "legend")
SHAPE_FIELDS = tuple(f.name for f in fields(Shape))


def shape_dict(shape: Shape) -> dict[str, Any]:
    """Every field of a ``Shape``: ``house`` as ``[kind, k]`` or None, ``points`` as ``[[x, y], ...]``."""
    out: dict[str, Any] = {name: getattr(shape, name) for name in SHAPE_FIELDS}
    out["house"] = list(shape.house) if shape.house is not None else None
    out["points"] = [[float(x), float(y)] for x, y in shape.points]
    return out


def scene_dict(scene: Scene) -> dict[str, Any]:
    """The scene as JSON-ready data: its size, suffix and level, its words, and every shape in drawing order."""
    out: dict[str, Any] = {"n": scene.n, "m": scene.m, "suffix": scene.suffix, "level": scene.level}
    for role in TEXT_ROLES:
        out[role] = scene.text(role)
    out["shapes"] = [shape_dict(s) for s in scene]
    return out


def scene_of(data: dict[str, Any]) -> Scene:
    """The ``Scene`` a ``scene_dict`` was written from (tests and round trips)."""
    shapes = []
    for d in data["shapes"]:
        kw = {name: d[name] for name in SHAPE_FIELDS}
        kw["house"] = tuple(d["house"]) if d["house"] is not None else None
        kw["points"] = tuple((x, y) for x, y in d["points"])
        shapes.append(Shape(**kw))
    return Scene(data["n"], shapes, suffix=data["suffix"], level=data["level"])


def themes_dict() -> dict[str, dict[str, Any]]:
    """Every theme of ``render.theme``: name -> {colour key: colour "#rrggbb" or a number (alphas)}."""
    return {name: dict(colours) for name, colours in THEME_COLOURS.items()}
