"""``explain-sudoku serve``: the learner's page (docs/serve.md).

``position`` reads a request's position, ``api`` and ``more`` answer the requests as plain
functions, ``pool`` runs them in worker processes with a time limit, ``app`` carries them over
HTTP (Starlette; the optional ``[serve]`` extra), ``static/`` is the page itself.
"""
