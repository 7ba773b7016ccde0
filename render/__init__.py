"""Drawing explanations: scene (pure data) -> frame (matplotlib Agg) -> export (files).

Imports point one way: ``render`` uses the core of ``explainer`` and the
technique registry; only ``explainer.api`` (notebook pictures) and the app
layer (command line, puzzle bank) use ``render`` (docs/architecture.md).
"""
