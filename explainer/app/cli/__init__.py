"""``explain-sudoku``: the command line, one module per command (argparse subparsers).

    explain-sudoku [explain] PUZZLE [options]   explain puzzles (the default command)
    explain-sudoku solve FILE                   one solution line per puzzle
    explain-sudoku generate [options]           new puzzles
    explain-sudoku hint GRID                    a progressive hint
    explain-sudoku db {build,stats,query,export}
    explain-sudoku steps POSITION               every step from a position
    explain-sudoku rate FILE                    Sudoku Explainer's ER/EP/ED of each puzzle
    explain-sudoku serve                        the learner's page (a local web application)

The command word comes first and always wins: a file or folder named ``db``,
``solve``, ``hint``, ``generate`` or ``rate`` in the current folder does not hide the
command (explain such a file with ``explain-sudoku explain db`` or ``./db``).
``main(argv)`` returns the exit status and never raises for bad input: every
error is one line on stderr.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from . import db, explain, generate, hint, rate, serve, solve, steps
from .common import Parser, invoke

COMMANDS: dict[str, ModuleType] = {"explain": explain, "solve": solve, "generate": generate, "hint": hint,
                                   "db": db, "steps": steps, "rate": rate, "serve": serve}
DEFAULT = "explain"


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="explain-sudoku", description="Explain Sudoku solving one human step at a time.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, module in COMMANDS.items():
        if hasattr(module, "add_parser"):  # a command that builds its own parser (description, epilog)
            module.add_parser(sub)
            continue
        sp = sub.add_parser(name, help=module.HELP, prog="explain-sudoku" if name == DEFAULT else None)
        module.configure(sp)
        sp.set_defaults(run=module.run)
    return p


def with_command(argv: list[str]) -> list[str]:
    """``explain-sudoku PUZZLE ...`` means ``explain-sudoku explain PUZZLE ...``."""
    if argv and argv[0] in ("-h", "--help"):
        return [DEFAULT, "--help"]
    if argv and argv[0] in COMMANDS:
        prepare = getattr(COMMANDS[argv[0]], "prepare_argv", None)
        return prepare(argv) if prepare else argv
    return [DEFAULT, *argv]


def main(argv: Sequence[str] | None = None, *, program: bool = False) -> int:
    """Run one command line (default: the program's arguments) and return its exit status.

    ``program``: this is the ``explain-sudoku`` process itself (explain_sudoku.py): once the
    command is done, a late signal ends the process at once instead of raising into the
    caller (in-process callers, the tests, get Python's handlers back)."""
    return invoke(build_parser(), with_command(list(sys.argv[1:] if argv is None else argv)), program=program)


__all__ = ["COMMANDS", "build_parser", "main"]
