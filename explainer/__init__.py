"""sudoku-explainer: explain a Sudoku one human step at a time.

>>> from explainer import explain
>>> steps = explain("9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....")
>>> steps[0].technique
'single position'
"""
from .engine import Puzzle, UnsoundStep, explain
from .explanation import Explanation
from .grid import Grid, PuzzleError, geometry, parse_grid, read_sources
from .solvers import solve
from .state import State

__all__ = ["Explanation", "Grid", "Puzzle", "PuzzleError", "State", "UnsoundStep", "explain",
           "geometry", "parse_grid", "read_sources", "solve"]
