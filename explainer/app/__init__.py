"""The application: what a user runs, built on the library.

``cli`` (the ``explain-sudoku`` command), ``bank`` (the puzzle database),
``generate`` (new puzzles), ``hints`` (progressive hints, pencil-mark grids),
``allsteps`` (every step of a position, HoDoKu's library lines), ``hodoku``
(HoDoKu's library format), ``solvers`` and ``backends`` (``solve`` and its
optional back-ends: OR-tools, Z3).
"""
