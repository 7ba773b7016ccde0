"""The options of the commands: argparse types that check a value at parse time (so a bad
value never reaches the work, nor a traceback), and the options several commands share,
each defined once here (its help may be the command's own).
"""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the types only: the values are built when an option is read
    from explainer.model.order import Order
    from render.options import RenderOptions
    from render.theme import Theme

# what options are added to: a parser or one of its groups
Container = argparse._ActionsContainer
T = TypeVar("T")


def integer(low: int | None = None, high: int | None = None, what: str = "",
            name: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high] (``name``: the option, for the message)."""

    def convert(text: str) -> int:
        value = _read(text, int, "a whole number")
        if (low is not None and value < low) or (high is not None and value > high):
            if name:
                rng = _range(low, None) + (f" and at most {high}" if high is not None and low is not None else "")
                raise argparse.ArgumentTypeError(f"{name} must be {rng}{what}, got {value}")
            raise argparse.ArgumentTypeError(f"{value} is out of range {_range(low, high)}{what}")
        return value

    return convert


def file_name(kind: str = "file", as_type: Callable[[str], Any] = Path) -> Callable[[str], Any]:
    """An argparse type: a file or folder name (``kind``), never empty ('' would silently mean
    the current folder, or the default one), as ``as_type``."""

    def convert(text: str) -> Any:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"an empty name is not a {kind} name")
        if kind != "folder" and text.endswith(("/", "\\")):  # Path() would drop the '/': a file named 'dir'
            raise argparse.ArgumentTypeError(f"{text!r} names a folder, not a {kind}")
        return as_type(text)

    return convert


def real(low: float | None = None, high: float | None = None, *, open_low: bool = False,
         what: str = "") -> Callable[[str], float]:
    """An argparse type: a finite number in [low, high] (``open_low``: strictly above low)."""

    def convert(text: str) -> float:
        value = _read(text, float, "a number")
        bad_low = low is not None and (value <= low if open_low else value < low)
        if not math.isfinite(value) or bad_low or (high is not None and value > high):
            if open_low and low is not None:
                rng = f"above {low:g}" + (f" and at most {high:g}" if high is not None else "")
            else:
                rng = _range(low, high)
            raise argparse.ArgumentTypeError(f"{value:g} is out of range {rng}{what}")
        return value

    return convert


def _read(text: str, kind: Callable[[str], T], name: str) -> T:
    """``text`` read as ``kind`` (int, float), or the option's one-line refusal naming what it is not."""
    try:
        return kind(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {name}") from None


def _range(low: float | None, high: float | None) -> str:
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


def _orders(own_lists: bool) -> dict[str, Order]:
    """The registered orders a command offers: all, or (``own_lists`` False) those explaining with
    the command's technique list (not Sudoku Explainer's, which bring their own)."""
    from explainer.engine.orders import ORDERS

    return {name: o for name, o in ORDERS.items() if own_lists or not o.producers}


def order_help(own_lists: bool = True) -> str:
    """The orders in words, from the engine's registry (the default first)."""
    from explainer.engine.orders import DEFAULT_ORDER

    return "the engine's order: " + "; ".join(
        f"'{o.name}'{' (the default)' if o == DEFAULT_ORDER else ''} {o.help}" for o in _orders(own_lists).values())


def order_value(text: str, own_lists: bool = True) -> Order:
    """An argparse type: a registered order's name, as its ``Order`` (the registry of
    ``explainer.engine.orders``; argparse's words for a name it does not hold)."""
    offered = _orders(own_lists)
    if text not in offered:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(map(repr, offered))})")
    return offered[text]


def add_order_option(p: Container, help: str | None = None, own_lists: bool = True) -> None:
    """``--order {simplest,seed,se,se-classic}`` (the engine's registered orders; ``args.order`` is an
    ``Order``) and its older alias ``--easiest`` (= ``--order simplest``); ``own_lists`` False leaves
    out the orders that bring their own techniques (Sudoku Explainer's), for a command that lists
    the registry's."""
    from explainer.engine.orders import DEFAULT_ORDER, SIMPLEST

    p.add_argument("--order", type=lambda text: order_value(text, own_lists), default=DEFAULT_ORDER,
                   metavar="{" + ",".join(_orders(own_lists)) + "}", help=help or order_help(own_lists))
    p.add_argument("--easiest", dest="order", action=_Easiest, nargs=0, const=SIMPLEST,
                   help="deprecated: the same as --order simplest (the default; the option's older name)")


class _Easiest(argparse.Action):
    """``--easiest``, the order's old name: sets ``--order simplest`` and says it is deprecated
    (one line on stderr; the run goes on)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print("explain-sudoku: warning: --easiest is deprecated, use --order simplest", file=sys.stderr)
        setattr(namespace, self.dest, self.const)


def _known(names: Sequence[str], *, words: tuple[str, ...] = (), step_names: bool = False) -> list[str]:
    """``names``, each a technique the registry knows (or one of ``words``; with ``step_names``
    also a step name any technique list records, Sudoku Explainer's producers included):
    ArgumentTypeError if not."""
    from explainer.model.technique import name_key
    from techniques import known_kinds, lookup

    steps = {name_key(n) for n in known_kinds()} if step_names else set()
    for name in names:
        if name.lower() in words or name_key(name) in steps:
            continue
        try:
            lookup(name)
        except KeyError as e:
            raise argparse.ArgumentTypeError(str(e.args[0])) from None
    return list(names)


def technique_list(text: str) -> list[str]:
    """An argparse type: comma-separated technique names, each known, at least one."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r} names no technique (give one or more, comma-separated)")
    return _known(names)


def technique_name(text: str) -> str:
    """An argparse type: one known technique name (returned as given)."""
    names = technique_list(text)
    if len(names) != 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give one technique")
    return names[0]


def theme_value(text: str) -> Theme:
    """An argparse type: a theme's name (or alias: colourblind, okabe-ito, ...) as its ``Theme``,
    built here once and handed to everything that draws (``render.theme.theme``)."""
    from render.theme import theme

    try:
        return theme(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# ---- the options several commands share: each defined once, its help said by the command ------

def add_theme_option(p: Container, help: str = "colour theme: default, colorblind (Okabe-Ito), "
                                               "high-contrast") -> None:
    """``--theme NAME`` (``--palette``, its other name on the command line): ``args.theme``, the
    named ``Theme``. Inside the code the word is theme; palette means the quantiser's image palette."""
    from render.theme import DEFAULT_THEME

    p.add_argument("--theme", "--palette", dest="theme", default=DEFAULT_THEME, type=theme_value, metavar="THEME",
                   help=help)


def add_lang_option(p: Container, help: str = "language of texts and titles") -> None:
    """``--lang {en,fr}``: the language of texts, titles and frames."""
    from explainer.model.i18n import LANGS

    p.add_argument("--lang", default="en", choices=list(LANGS), help=help)


def add_out_options(p: Container, out_help: str, force_help: str, *, short: bool = True,
                    out_type: Callable[[str], Any] | None = None) -> None:
    """``--out DIR`` (``-o`` too when ``short``) and ``--force``: an output folder, guarded by its
    manifest (``output.OutputFolder``): ``--force`` writes into one holding other files."""
    names = ("--out", "-o") if short else ("--out",)
    p.add_argument(*names, metavar="DIR", type=file_name("folder", out_type or str), default=None, help=out_help)
    p.add_argument("--force", action="store_true", help=force_help)


def add_techniques_option(p: Container, help: str = "comma-separated techniques (default: all)") -> None:
    """``--techniques A,B,C``: registry names, checked at parse time (``technique_list``)."""
    p.add_argument("--techniques", metavar="A,B,C", type=technique_list, default=None, help=help)


def add_progress_options(p: Container, help: str = "show a progress bar even when stderr is not a terminal",
                         *, exclusive: bool = True) -> None:
    """``--progress`` / ``--no-progress``: ``args.progress`` True, False or None (only on a terminal);
    ``exclusive``: giving both is an error (else the last one given wins)."""
    g = p.add_mutually_exclusive_group() if exclusive else p
    g.add_argument("--progress", dest="progress", action="store_true", default=None, help=help)
    g.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")


def depth(text: str) -> int:
    """An argparse type: a level of detail, a whole number from 0 or 'all'."""
    from render.options import OptionError, depth_value

    try:
        return depth_value("depth", text if text.strip().lower() == "all" else integer(0)(text))
    except OptionError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


PROOF_LEVELS = {"summary": 0, "first": 1, "all": "all"}


def proof_level(text: str) -> int:
    """An argparse type for ``--proof``: summary (0), first (1) or all."""
    if text not in PROOF_LEVELS:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(PROOF_LEVELS)})")
    return depth(str(PROOF_LEVELS[text]))


def video_file(text: str) -> str:
    """An argparse type for ``--video``: a film's file name in the output folder, and imageio's
    ffmpeg plugin installed (checked before any work)."""
    from render.options import OptionError, video_name
    from render.video import video_support

    try:
        name = video_name(text)
    except OptionError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    missing = video_support()
    if missing:
        raise argparse.ArgumentTypeError(missing)
    assert name is not None
    return name


def add_render_options(p: argparse.ArgumentParser) -> None:
    """The picture options (render.options.RenderOptions), each checked at parse time."""
    from render.options import DPI_RANGE, DURATION_RANGE, LOOP_RANGE, PER_CHAR_RANGE, PLAY_RANGE, SIZE_RANGE

    g = p.add_argument_group("pictures")
    add_theme_option(g)
    add_lang_option(g)
    g.add_argument("--format", dest="fmt", default="png", choices=["png", "svg"],
                   help="frame format: png, or svg (vector frames for print); the contact sheet and GIF stay raster")
    g.add_argument("--dpi", type=real(*DPI_RANGE),
                   help=f"frame resolution in dots per inch (default 100, at most {DPI_RANGE[1]:g})")
    g.add_argument("--size", type=integer(*SIZE_RANGE, what=" pixels"), metavar="PIXELS",
                   help=f"frame width in pixels, {SIZE_RANGE[0]} to {SIZE_RANGE[1]} (overrides --dpi; a "
                        f"{SIZE_RANGE[1]} px frame takes a few seconds to draw)")
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
    g.add_argument("--pdf-raster", action="store_true",
                   help="the workbook's step frames as images, about 120 dpi on the page (implies --pdf; "
                        "a third less CPU, but the PDF writer holds every image until the end: "
                        "memory grows with the steps)")
    g.add_argument("--paper", default="a4", choices=["a4", "letter"], help="workbook paper size (default a4)")
    g.add_argument("--gif-duration", type=integer(*DURATION_RANGE, what=" ms"), default=2000, metavar="MS",
                   help="GIF least time per step (ms, default 2000); a step shows as long as its caption "
                        "takes to read (--gif-per-char per character), never less")
    g.add_argument("--gif-per-char", type=integer(*PER_CHAR_RANGE, what=" ms"), default=67, metavar="MS",
                   help="GIF reading time per caption character (ms, default 67: about 15 characters a "
                        "second; 0: every step --gif-duration)")
    g.add_argument("--gif-hold", type=integer(*DURATION_RANGE, what=" ms"), default=2000, metavar="MS",
                   help="GIF time on the initial grid and the solution (ms, default 2000)")
    g.add_argument("--gif-loop", type=integer(-1, LOOP_RANGE[1]), default=0, metavar="N",
                   help=f"GIF loop count: 0 loops forever (default), -1 plays once, up to {LOOP_RANGE[1]}")
    g.add_argument("--gif-max-play", type=integer(*PLAY_RANGE, what=" s"), default=300, metavar="SECONDS",
                   help="the longest the GIF (and video) plays (default 300 s): past it, what a class can "
                        "skip is folded (proof sub-frames after each step's first, then runs of singles), "
                        "reading times never shortened; the summary line says what was folded; 0: no limit")
    levels = g.add_mutually_exclusive_group()
    levels.add_argument("--proof-depth", type=depth, default=1, metavar="N",
                        help="levels of detail of a proof too large for its step's frame: 0 the step's frame "
                             "only (its proof summarised), 1 (default) what the end rests on, each fact after its "
                             "reasons, 2 every fact of the proof, 3 and more the nested proofs one "
                             "level deeper each, 'all' every level")
    levels.add_argument("--proof", type=proof_level, dest="proof_depth", metavar="{summary,first,all}",
                        help="the same by name: summary (0), first (1, the default), all (every fact of every "
                             "nested proof)")
    g.add_argument("--gif-proof-depth", type=depth, default=None, metavar="N",
                   help="levels of detail the GIF, the video and the viewer's play show (default: the steps "
                        "and the first sub-frames, or fewer with --proof-depth 0)")
    g.add_argument("--video", type=video_file, default=None, metavar="NAME",
                   help="also write a film of the GIF's frames, with its timing, into the output folder "
                        "(NAME.mp4, .mkv or .mov; H.264, for slides and screen recordings); needs the "
                        "'sudoku-explainer[video]' extra (imageio-ffmpeg)")


def only_list(text: str) -> list[str]:
    """An argparse type for ``--only``: technique names the registry knows, step names of any
    technique list (Sudoku Explainer's: direct pointing …), or "singles" (the command line checks
    them: render keeps the steps they name, whatever they are)."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r} names no technique")
    return _known(names, words=("singles",), step_names=True)


def render_options(args: argparse.Namespace, *, frames: bool = True, gif: bool = True) -> RenderOptions:
    """The RenderOptions of parsed arguments (validated again, once, by the dataclass)."""
    from render.options import RenderOptions

    return RenderOptions(frames=frames, contact=frames, gif=gif, html=args.html or args.html_standalone,
                         html_standalone=args.html_standalone, pdf=args.pdf or args.pdf_raster, paper=args.paper,
                         pdf_raster=args.pdf_raster, fmt=args.fmt,
                         theme=args.theme, lang=args.lang, dpi=args.dpi, size=args.size,
                         group_singles=args.group_singles, only=tuple(args.only) if args.only else None,
                         gif_duration=args.gif_duration, gif_per_char=args.gif_per_char, gif_hold=args.gif_hold,
                         gif_loop=None if args.gif_loop < 0 else args.gif_loop, gif_max_play=args.gif_max_play,
                         proof_depth=args.proof_depth, gif_proof_depth=args.gif_proof_depth, video=args.video)
