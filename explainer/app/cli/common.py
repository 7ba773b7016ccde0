"""What every command shares: a parser whose errors are one line, option types that
validate at parse time (so a bad value never reaches the work, nor a traceback), the exit
statuses, and ``invoke``, which runs a command line so that nothing ends in a traceback.

Exit statuses (the README's table): one per kind of failure, the same in every command.
"""
from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NoReturn

PROG = "explain-sudoku"

EXIT_OK = 0         # done
EXIT_NO = 1         # the command ran and the answer is no: a grid with a mistake (hint), a line not
#                     reproduced (steps --check), no puzzle met the target (generate), a search gave up
EXIT_BAD_INPUT = 2  # bad input: a puzzle, position, file, option or database that cannot be used
EXIT_OUTPUT = 3     # output refused or not written: a folder or file that is not ours, no permission,
#                     a full disk, a database another build is writing
EXIT_INTERNAL = 70  # a bug (or no memory left): one line, please report it
# interrupted: 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP); a closed standard output
# (`| head`) ends the run quietly with 0


def error(message: object) -> None:
    """Print ``explain-sudoku: error: WHERE: WHAT`` (one line, whatever the message holds)."""
    from explainer.model.grid import one_line

    print(one_line(f"{PROG}: error: {message}"), file=sys.stderr)


class UsageError(Exception):
    """A command-line mistake; the message is one line, already prefixed with the program name."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) raised as UsageError, never SystemExit(2)."""

    def error(self, message: str) -> NoReturn:
        # "argument --jobs/-j: --jobs must be ..." -> "--jobs must be ..." (our types name the option),
        # "argument --rating: no puzzle ..." -> "--rating: no puzzle ..."
        m = re.match(r"argument (\S+?)(?:/\S+)?: (.*)", message, re.S)
        if m:
            message = m.group(2) if m.group(2).startswith(m.group(1) + " ") else f"{m.group(1)}: {m.group(2)}"
        from explainer.model.grid import one_line

        message = one_line(" ".join(message.split()))  # one line, whatever the value held
        prog = self.prog.split(" [")[0]
        where = prog[len(PROG):].strip()
        raise UsageError(f"{PROG}: error: {where + ': ' if where else ''}{message} (see '{prog} --help')")


def path_exists(arg: str) -> bool:
    """Path(arg).exists() without raising (a name too long, a NUL byte: no such file)."""
    from pathlib import Path

    try:
        return Path(arg).exists()
    except (OSError, ValueError):
        return False


def is_puzzle_argument(arg: str) -> bool:
    """True when a PUZZLE argument is a puzzle string rather than a file name: 16 or more
    puzzle characters and no such file."""
    return arg != "-" and re.fullmatch(r"[0-9A-Za-z._]{16,}", arg) is not None and not path_exists(arg)


def integer(low: int | None = None, high: int | None = None, what: str = "",
            name: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high] (``name``: the option, for the message)."""

    def convert(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if (low is not None and value < low) or (high is not None and value > high):
            if name:
                rng = _range(low, None) + (f" and at most {high}" if high is not None and low is not None else "")
                raise argparse.ArgumentTypeError(f"{name} must be {rng}{what}, got {value}")
            raise argparse.ArgumentTypeError(f"{value} is out of range {_range(low, high)}{what}")
        return value

    return convert


def real(low: float | None = None, high: float | None = None, *, open_low: bool = False,
         what: str = "") -> Callable[[str], float]:
    """An argparse type: a finite number in [low, high] (``open_low``: strictly above low)."""

    def convert(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        bad_low = low is not None and (value <= low if open_low else value < low)
        if not math.isfinite(value) or bad_low or (high is not None and value > high):
            if open_low and low is not None:
                rng = f"above {low:g}" + (f" and at most {high:g}" if high is not None else "")
            else:
                rng = _range(low, high)
            raise argparse.ArgumentTypeError(f"{value:g} is out of range {rng}{what}")
        return value

    return convert


def _range(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"{low}..{high}"
    if low is None and high is None:
        return "a whole number"
    return f"at least {low}" if low is not None else f"at most {high}"


def rating_range(text: str) -> tuple[float, float]:
    """An ER range on Sudoku Explainer's scale: ``7.0-8.5``, ``8`` or an open end (``9-``)."""
    from explainer.model.rating import parse_range

    try:
        low, high = parse_range(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if math.isnan(low) or math.isnan(high):
        raise argparse.ArgumentTypeError(f"a rating range is LOW-HIGH, e.g. 7.0-8.5, not {text!r}")
    return low, high


def order_help() -> str:
    """The orders in words, from the engine's registry (the default first)."""
    from explainer.engine.orders import DEFAULT_ORDER, ORDERS

    return "the engine's order: " + "; ".join(
        f"'{o.name}'{' (the default)' if o == DEFAULT_ORDER else ''} {o.help}" for o in ORDERS.values())


def order_value(text: str) -> Any:
    """An argparse type: a registered order's name, as its ``Order`` (the registry of
    ``explainer.engine.orders``; argparse's words for a name it does not hold)."""
    from explainer.engine.orders import ORDERS

    if text not in ORDERS:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(map(repr, ORDERS))})")
    return ORDERS[text]


def add_order_option(p: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--order {simplest,seed}`` (the engine's registered orders; ``args.order`` is an ``Order``)
    and its older alias ``--easiest`` (= ``--order simplest``)."""
    from explainer.engine.orders import DEFAULT_ORDER, ORDERS, SIMPLEST

    p.add_argument("--order", type=order_value, default=DEFAULT_ORDER, metavar="{" + ",".join(ORDERS) + "}",
                   help=help or order_help())
    p.add_argument("--easiest", dest="order", action="store_const", const=SIMPLEST,
                   help="the same as --order simplest (the default; the option's older name)")


def technique_list(text: str) -> list[str]:
    """An argparse type: comma-separated technique names, each known, at least one."""
    from techniques import lookup

    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r} names no technique (give one or more, comma-separated)")
    for name in names:
        try:
            lookup(name)
        except KeyError as e:
            raise argparse.ArgumentTypeError(str(e.args[0])) from None
    return names


def technique_name(text: str) -> str:
    """An argparse type: one known technique name (returned as given)."""
    names = technique_list(text)
    if len(names) != 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give one technique")
    return names[0]


def palette_name(text: str) -> str:
    from render.theme import palette

    try:
        palette(text)  # names and their aliases (colourblind, okabe-ito, ...)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def add_render_options(p: argparse.ArgumentParser) -> None:
    """The picture options (render.options.RenderOptions), each checked at parse time."""
    from render.options import DPI_RANGE, DURATION_RANGE, LOOP_RANGE, PER_CHAR_RANGE, SIZE_RANGE

    g = p.add_argument_group("pictures")
    g.add_argument("--palette", default="default", type=palette_name,
                   help="colour palette: default, colorblind (Okabe-Ito), high-contrast")
    g.add_argument("--lang", default="en", choices=["en", "fr"], help="language of texts and titles")
    g.add_argument("--format", dest="fmt", default="png", choices=["png", "svg"],
                   help="frame format: png, or svg (vector frames for print); the contact sheet and GIF stay raster")
    g.add_argument("--dpi", type=real(*DPI_RANGE), help="frame resolution in dots per inch (default 100)")
    g.add_argument("--size", type=integer(*SIZE_RANGE, what=" pixels"), metavar="PIXELS",
                   help="frame width in pixels (overrides --dpi)")
    g.add_argument("--group-singles", action="store_true",
                   help="fold each run of consecutive singles into one frame showing all their values")
    g.add_argument("--only", metavar="TECHNIQUE[,...]", type=only_list,
                   help="draw only the steps of these techniques (plus the initial grid and the solution)")
    g.add_argument("--html", action="store_true",
                   help="also write index.html, a step viewer (previous/next/play, speed, step list) that "
                        "shows the frame files of its folder: copy the folder, not the page alone")
    g.add_argument("--html-standalone", action="store_true",
                   help="write index.html with the frames inside it (data URIs): it works copied alone")
    g.add_argument("--pdf", action="store_true",
                   help="also write workbook.pdf: the puzzle with empty candidate grids, the steps two per "
                        "page with their captions, the solution (vector, printable)")
    g.add_argument("--paper", default="a4", choices=["a4", "letter"], help="workbook paper size (default a4)")
    g.add_argument("--gif-duration", type=integer(*DURATION_RANGE, what=" ms"), default=700, metavar="MS",
                   help="GIF base time per step (ms, default 700); a step shows for this plus "
                        "--gif-per-char per character of its caption (at most 20 s)")
    g.add_argument("--gif-per-char", type=integer(*PER_CHAR_RANGE, what=" ms"), default=40, metavar="MS",
                   help="GIF reading time per caption character (ms, default 40; 0: every step "
                        "--gif-duration)")
    g.add_argument("--gif-hold", type=integer(*DURATION_RANGE, what=" ms"), default=2000, metavar="MS",
                   help="GIF time on the initial grid and the solution (ms, default 2000)")
    g.add_argument("--gif-loop", type=integer(-1, LOOP_RANGE[1]), default=0, metavar="N",
                   help=f"GIF loop count: 0 loops forever (default), -1 plays once, up to {LOOP_RANGE[1]}")


def only_list(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r} names no technique")
    from techniques import lookup

    for name in names:
        if name.lower() == "singles":
            continue
        try:
            lookup(name)
        except KeyError as e:
            raise argparse.ArgumentTypeError(str(e.args[0])) from None
    return names


def render_options(args: argparse.Namespace, *, frames: bool = True, gif: bool = True) -> Any:
    """The RenderOptions of parsed arguments (validated again, once, by the dataclass)."""
    from render.options import RenderOptions

    return RenderOptions(frames=frames, contact=frames, gif=gif, html=args.html or args.html_standalone,
                         html_standalone=args.html_standalone, pdf=args.pdf, paper=args.paper, fmt=args.fmt,
                         palette=args.palette, lang=args.lang, dpi=args.dpi, size=args.size,
                         group_singles=args.group_singles, only=tuple(args.only) if args.only else None,
                         gif_duration=args.gif_duration, gif_per_char=args.gif_per_char, gif_hold=args.gif_hold,
                         gif_loop=None if args.gif_loop < 0 else args.gif_loop)


def invoke(parser: argparse.ArgumentParser, argv: list[str], program: bool = False) -> int:
    """Parse and run one command line: every error one line on stderr, an exit status back.

    Signals end the run through the commands' clean-up (``signals``); a closed standard
    output ends it quietly; an unexpected exception is one line (``EXPLAIN_SUDOKU_DEBUG=1``
    shows its traceback instead)."""
    from . import signals

    with signals.handled(program):
        try:
            args = parser.parse_args(argv)
            return int(args.run(args))
        except UsageError as e:
            print(str(e), file=sys.stderr)
            return EXIT_BAD_INPUT
        except SystemExit as e:  # --help / --version
            return e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_BAD_INPUT)
        except KeyboardInterrupt as e:
            return interrupted(e)
        except BrokenPipeError as e:
            if stdout_closed():
                return EXIT_OK
            return internal_error(e)
        except MemoryError:
            error("out of memory")
            return EXIT_INTERNAL
        except Exception as e:
            return internal_error(e)


def interrupted(e: KeyboardInterrupt) -> int:
    """One line for an interrupted run (and what it left, when the command said so); its status."""
    from . import signals

    name = e.name if isinstance(e, signals.Interrupted) else "SIGINT"
    note = getattr(e, "note", "")
    try:
        print(f"{PROG}: interrupted by {name}" + (f"; {note}" if note else ""), file=sys.stderr)
    except OSError:
        pass
    return signals.status_of(e)


def stdout_closed() -> bool:
    """True when standard output is a pipe whose reader has gone (``| head``); then it is
    pointed at /dev/null, so that nothing complains when the interpreter flushes it."""
    import os
    import select

    try:
        fd = sys.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        gone = any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))
    except (AttributeError, ValueError, OSError):  # not a file (a test's StringIO), no poll
        return False
    if gone:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    return gone


def internal_error(e: BaseException) -> int:
    """A bug: one line naming it (or the traceback with EXPLAIN_SUDOKU_DEBUG=1)."""
    import os

    if os.environ.get("EXPLAIN_SUDOKU_DEBUG"):
        raise e
    error(f"internal error: {type(e).__name__}: {e} (a bug: please report it with the command line; "
          f"EXPLAIN_SUDOKU_DEBUG=1 shows where)")
    return EXIT_INTERNAL


def run_alone(name: str, module: ModuleType, argv: Sequence[str] | None) -> int:
    """One command module run on its own (``explain-sudoku NAME ...`` without the dispatcher,
    which imports every command: a module calling it back would make an import cycle)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if hasattr(module, "add_parser"):
        holder = Parser(prog="explain-sudoku")
        module.add_parser(holder.add_subparsers(dest="command", parser_class=Parser))
        args = [name, *args]
        parser: argparse.ArgumentParser = holder
    else:
        parser = Parser(prog=f"explain-sudoku {name}")
        module.configure(parser)
        parser.set_defaults(run=module.run)
    prepare = getattr(module, "prepare_argv", None)
    return invoke(parser, prepare(args) if prepare else args)
