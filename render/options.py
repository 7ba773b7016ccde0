"""Rendering options: one frozen value, validated once, used by the CLI and the library.

``RenderOptions`` replaces the keyword arguments ``write_puzzle`` used to take
and the CLI's option dict. Every field is checked in ``__post_init__``; a bad
value raises ``ValueError`` with a one-line message that names the option
(``OptionError`` is that ``ValueError``), so the CLI can show it as is.
"""
from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from explainer.model.grid import PuzzleError

from .proofdraw import ALL
from .theme import DEFAULT_THEME, Theme, theme

LANGS = ("en", "fr")
FORMATS = ("png", "svg")
PAPERS = ("a4", "letter")
# a frame at most about 4000 px wide: one takes a few seconds to draw (10000 px took 40 s, and
# 1200 dpi made a 25x25 frame 31000 px wide); 400 dpi is a 9x9 frame 3150 px wide
DPI_RANGE = (10.0, 400.0)
SIZE_RANGE = (100, 4000)
# GIF frame delays are stored in hundredths of a second in 16 bits; loop counts in 16 bits
DURATION_RANGE = (10, 655350)
LOOP_RANGE = (0, 65535)
PER_CHAR_RANGE = (0, 1000)
COLUMNS_RANGE = (1, 50)
WIDTH_RANGE = (50, 4000)
WORKERS_RANGE = (1, 64)
PLAY_RANGE = (0, 86400)  # seconds
DEPTH_RANGE = (0, ALL)
VIDEO_SUFFIXES = (".mp4", ".mkv", ".mov")


class OptionError(PuzzleError):
    """A rendering option out of its range or of the wrong type (one-line message): the library's
    ``PuzzleError`` (so one ``except explainer.PuzzleError`` catches every misuse), still the
    ``ValueError`` it always was."""


def _integer(name: str, value: Any, low: int, high: int, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError(f"{name} must be a whole number, not {value!r}")
    if isinstance(value, numbers.Integral):
        v = operator.index(value)
    else:
        f = float(value)
        if not math.isfinite(f) or f != int(f):
            raise OptionError(f"{name} must be a whole number, not {f:g}")
        v = int(f)
    if not low <= v <= high:
        raise OptionError(f"{name} {v} is out of range {low}..{high}")
    return v


def _real(name: str, value: Any, low: float, high: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError(f"{name} must be a number, not {value!r}")
    v = float(value)
    if not math.isfinite(v) or not low <= v <= high:
        raise OptionError(f"{name} {v:g} is out of range {low:g}..{high:g}")
    return v


def _only(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = value.split(",")
    try:
        names = tuple(str(x).strip() for x in value)
    except TypeError:
        raise OptionError(f"only must be technique names, not {value!r}") from None
    names = tuple(x for x in names if x)
    if not names:
        raise OptionError("only needs at least one technique name")
    return names


def depth_value(name: str, value: Any) -> int:
    """A level of detail: a whole number from 0, or "all"."""
    if isinstance(value, str) and value.strip().lower() == "all":
        return ALL
    v = _integer(name, value, *DEPTH_RANGE)
    assert v is not None
    return v


def video_name(value: Any) -> str | None:
    """A video's file name, in the output folder: no folder part, a film's suffix."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or "/" in value or "\\" in value or value in (".", ".."):
        raise OptionError(f"video must be a file name in the output folder (no folder part), not {value!r}")
    if not value.lower().endswith(VIDEO_SUFFIXES):
        raise OptionError(f"video {value!r}: the name ends in {', '.join(VIDEO_SUFFIXES)} (an H.264 film)")
    return value


@dataclass(frozen=True)
class RenderOptions:
    """What to draw and how. Defaults give the files of RENDERING.md.

    ``frames``/``contact``/``gif``/``html`` choose the outputs (``steps.json`` is
    always written; ``html_standalone``: the viewer with its frames inside, implies
    ``html``; ``pdf``: workbook.pdf on ``paper`` a4 or letter, its frames vector, or images at about
    120 dpi on the page with ``pdf_raster``); ``fmt`` is the
    frame format (png or svg; the contact sheet and GIF stay raster); ``theme`` the colours
    (a ``Theme``; a palette name or a mapping of colours is turned into one, once); ``size``
    (frame width in pixels) overrides ``dpi``;
    ``only`` keeps the steps of these techniques (names, aliases or step names of the explained
    puzzle's techniques, or "singles"; the command line checks them against the registry);
    ``proof_depth`` the levels of detail of a proof drawn in sub-frames (0: the step's frame
    only, its proof summarised; 1: what the end rests on, each fact after its reasons; 2, 3 …:
    every fact, nested proofs one level deeper each; ``ALL`` or "all": every level);
    ``gif_proof_depth`` the levels the GIF, the video and the viewer's play show (default:
    ``proof_depth``, at most 1); ``video`` a file name (.mp4, .mkv, .mov) for a film of the
    GIF's frames in the output folder; a step's time in the GIF is the time its caption
    takes to read, ``gif_per_char`` per character (67 ms: about 15 characters a second),
    at least ``gif_duration`` (2 s; ``gif_per_char`` 0: ``gif_duration`` for every step),
    ``gif_hold`` the time on the first and last frame (ms); ``gif_max_play`` the longest the
    GIF plays (seconds; 0: no limit): past it, frames a class can skip are folded (proof
    sub-frames after a step's first, runs of singles), reading times never shortened;
    ``gif_loop`` 0 loops forever,
    None plays once; ``gif_width`` the GIF's least width (default 600 px: the
    frames reduced by the largest whole factor that keeps that width).
    """

    frames: bool = True
    contact: bool = True
    gif: bool = True
    html: bool = False
    html_standalone: bool = False
    pdf: bool = False
    paper: str = "a4"
    pdf_raster: bool = False
    fmt: str = "png"
    theme: Theme = DEFAULT_THEME
    lang: str = "en"
    dpi: float | None = None
    size: int | None = None
    group_singles: bool = False
    only: tuple[str, ...] | None = None
    gif_duration: int = 2000
    gif_per_char: int = 67
    gif_hold: int = 2000
    gif_loop: int | None = 0
    gif_width: int | None = None
    gif_max_play: int = 300
    proof_depth: int = 1
    gif_proof_depth: int | None = None
    video: str | None = None
    columns: int = 3
    workers: int | None = None

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:
            object.__setattr__(self, name, value)

        for name in ("frames", "contact", "gif", "html", "html_standalone", "pdf", "group_singles"):
            value = getattr(self, name)
            if not isinstance(value, (bool, int)) or isinstance(value, int) and value not in (0, 1):
                raise OptionError(f"{name} must be true or false, not {value!r}")
            put(name, bool(value))
        if self.html_standalone:
            put("html", True)
        if self.paper not in PAPERS:
            raise OptionError(f"unknown paper {self.paper!r} (a4 or letter)")
        if self.fmt not in FORMATS:
            raise OptionError(f"unknown frame format {self.fmt!r} (png or svg)")
        if self.lang not in LANGS:
            raise OptionError(f"unknown language {self.lang!r} (en or fr)")
        if not isinstance(self.theme, (str, Mapping)):
            raise OptionError(f"theme must be a Theme, a palette name or a mapping of colours, not {self.theme!r}")
        try:
            put("theme", theme(self.theme))
        except (ValueError, TypeError) as e:
            raise OptionError(str(e)) from None
        put("dpi", _real("dpi", self.dpi, *DPI_RANGE))
        put("size", _integer("size", self.size, *SIZE_RANGE, optional=True))
        put("only", _only(self.only))
        put("gif_duration", _integer("gif duration (ms)", self.gif_duration, *DURATION_RANGE))
        put("gif_per_char", _integer("gif time per caption character (ms)", self.gif_per_char, *PER_CHAR_RANGE))
        put("gif_hold", _integer("gif hold (ms)", self.gif_hold, *DURATION_RANGE))
        put("gif_loop", _integer("gif loop", self.gif_loop, *LOOP_RANGE, optional=True))
        put("gif_width", _integer("gif width", self.gif_width, *WIDTH_RANGE, optional=True))
        put("gif_max_play", _integer("gif longest play (s)", self.gif_max_play, *PLAY_RANGE))
        put("proof_depth", depth_value("proof depth", self.proof_depth))
        if self.gif_proof_depth is not None:
            put("gif_proof_depth", depth_value("gif proof depth", self.gif_proof_depth))
        put("video", video_name(self.video))
        put("columns", _integer("columns", self.columns, *COLUMNS_RANGE))
        put("workers", _integer("workers", self.workers, *WORKERS_RANGE, optional=True))

    @property
    def needs_pixels(self) -> bool:
        return self.frames or self.contact or self.gif or self.html or self.pdf or bool(self.video)

    @property
    def animated_depth(self) -> int:
        """The levels of detail the GIF, the video and the viewer's play show."""
        return min(self.proof_depth, 1) if self.gif_proof_depth is None else self.gif_proof_depth

    def with_(self, **changes: Any) -> RenderOptions:
        """A copy with some fields changed (validated again; an unknown name is an error)."""
        unknown = sorted(set(changes) - set(option_names()))
        if unknown:
            raise OptionError(f"unknown rendering option(s): {', '.join(unknown)}")
        return replace(self, **changes)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RenderOptions:
        """Options from keyword arguments; an unknown name is an error, not ignored."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionError(f"unknown rendering option(s): {', '.join(unknown)}")
        return cls(**dict(values))


def option_names() -> Iterable[str]:
    return (f.name for f in fields(RenderOptions))
