"""The model: what a puzzle, a state and a step are, and how a step is rated and worded.

``grid`` (geometry, parsing, the errors), ``values`` (cells, candidates,
houses, links), ``i18n`` (words per language), ``roles`` (what a frame
shows), ``state`` (candidate masks), ``proof`` and ``proofwords`` (a forcing
step's proof and its sentences), ``explanation`` (one step), ``rating``
(SE's scale), ``session`` (per-puzzle tables of the finders), ``technique``
(the records the registry holds and the context a finder gets). The model
imports nothing else of the project; every other layer builds on it.
"""
