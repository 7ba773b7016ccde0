"""Drawing explanations: scene (pure data) -> frame (matplotlib Agg) -> export (files).

Imports point one way: ``render`` uses the core of ``explainer`` and the
technique registry; only ``explainer.api`` (notebook pictures) and the app
layer (command line, puzzle bank) use ``render`` (docs/architecture.md).

- ``scene``: what a frame shows, as shapes with roles (and finer ``tone``s);
  ``scene(state, step, number=…)`` for a step, ``proof_scenes(state, step,
  number=…)`` for the sub-frames of a forcing step's proof (``[]`` when the
  step's own frame shows it all; else Scenes with ``suffix`` "a", "b", … to be
  written ``017a-…``, ``017b-…`` after ``017-…``); ``step_scenes`` gives both
  at once, in file order;
- ``roles``: the roles players know, read from a step's fields (on/off, pivot,
  base/cover/fin, ALS tints, tuple values, rectangle lines);
- ``proofdraw``: facts, arrows and ends of a proof, and its captions;
- ``routing``: lines routed around every digit they must not cross;
- ``sizes``: the cell-unit sizes scene, router and frame share;
- ``frame``: pixels (PNG, SVG); ``theme``: palettes; ``export`` / ``viewer`` / ``workbook``: files
  (frames, paged contact sheet, GIF, viewer, workbook.pdf).
"""
