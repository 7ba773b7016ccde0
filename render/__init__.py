"""Drawing explanations: scene (pure data) -> frame (matplotlib Agg) -> files.

``render`` reads the model only (``explainer.model``: states, steps, their
roles, the step kinds whose titles a frame shows, an explained puzzle through
the ``Explained`` protocol); only ``explainer.api`` (notebook pictures) and
the application (command line, puzzle bank) use it (docs/architecture.md).
Three stages, each importing only the ones before it:

- scene, pure Python (no drawing library): ``shapes`` (the frame
  vocabulary), ``styles`` (one style per role), ``sizes``, ``routing``
  (lines routed around every digit they must not cross), ``proofdraw``
  (facts, arrows and ends of a proof, its captions and sub-frames),
  ``view`` (the rows and columns a big grid's frame widens), ``scene`` (what
  a frame shows: ``scene(state, step, number=…)``, ``proof_scenes``,
  ``step_scenes``), ``theme`` (palettes, the ``Theme``), ``options``
  (``RenderOptions``), ``plan`` (the frames of a puzzle and their names);
- raster: ``frame`` (pixels: PNG, SVG; ``FrameRenderer``, ``step_png``);
- files: ``export`` (``write_puzzle``: the exporters), ``job`` (what they
  share), ``workers`` (the forked render pass and parallel exporters),
  ``sheet`` (the paged contact sheet), ``gif`` (the animated GIF),
  ``viewer`` (index.html), ``workbook`` (workbook.pdf), ``charts`` (the
  bank's stats chart, the query GIF).
"""
