"""Drawing explanations: scene (pure data) -> frame (matplotlib Agg) -> export (files).

Imports point one way: ``render`` imports ``explainer``, never the reverse.
"""
