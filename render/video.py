"""The video (``--video``): the GIF's frames and timing as an H.264 film, for slides and
screen recordings, encoded as the frames come.

Written through imageio's ffmpeg plugin (``imageio-ffmpeg``, the optional
``[video]`` extra, which brings its own ffmpeg): frames are piped to ffmpeg one
by one, nothing is kept. A film has a fixed frame rate: each frame is repeated
for its time on screen (``VIDEO_FPS`` a second), the rounding carried over to
the next frame so that the film plays as long as the GIF. Frames are reduced by
the smallest whole factor that makes them at most ``VIDEO_HEIGHT`` pixels high
(a full-HD screen), and padded to even sizes (the encoder's colour format
needs them).
"""
from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator
from typing import Any

import numpy as np

VIDEO_FPS = 4  # film frames a second: a frame's time is rounded to a quarter of a second
VIDEO_HEIGHT = 1080
EXTRA = "sudoku-explainer[video]"


def video_support() -> str | None:
    """None when a video can be written here, else why not (one line, for the command line's
    error before any work)."""
    try:
        import imageio_ffmpeg
    except ImportError:
        return f"writing a video needs imageio's ffmpeg plugin: install '{EXTRA}'"
    try:
        imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as e:  # the plugin without its ffmpeg (a build for another platform)
        return f"imageio-ffmpeg finds no ffmpeg ({e}); reinstall '{EXTRA}'"
    return None


def video_factor(height: int) -> int:
    """The reduction of a frame ``height`` pixels high for the video."""
    return max(1, math.ceil(height / VIDEO_HEIGHT))


def partial_name(name: str) -> str:
    """The name a film is written under until it is complete (``film.mp4``: ``.film.partial.mp4``,
    the same extension, which tells ffmpeg the container): a run that stops never leaves a
    truncated film under the final name."""
    stem, dot, ext = name.rpartition(".")
    return f".{stem}.partial.{ext}" if dot else f".{name}.partial"


_ERRNOS = ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EACCES", "EROFS")


def ffmpeg_failure(path: str, report: str) -> OSError:
    """The error of an ffmpeg that stopped writing ``path``: the system's reason read off its
    report (a full disk: ENOSPC, status 3 like any output), else a plain one."""
    import errno
    import os

    for name in _ERRNOS:
        n = getattr(errno, name, None)
        if n is not None and os.strerror(n) in report:
            return OSError(n, os.strerror(n), path)
    return OSError(errno.EIO, "ffmpeg stopped before the end of the video", path)


class VideoStream:
    """An H.264 film written frame by frame: ``write(indices, duration=ms)`` with ``indices``
    an (height, width) array of indices on ``palette`` (RGB bytes); ``close()``.

    ffmpeg runs in the run's own process group (imageio would start it in a group of its own,
    which a ``kill`` of the run's group does not reach: it then wrote to the terminal after the
    run had gone), and writes its messages to a report file, not to the user's terminal: a
    failure is one line of ours (``ffmpeg_failure``)."""

    def __init__(self, path: str, palette: bytes, fps: int = VIDEO_FPS) -> None:
        import tempfile

        import imageio.v2 as iio

        self.path = path
        fd, self.report = tempfile.mkstemp(prefix="explain-sudoku-ffmpeg-", suffix=".log")
        os.close(fd)
        self.fps = fps
        self.frames = 0  # film frames written
        self._debt = 0.0  # ms still to show (rounding carried over)
        colours = np.frombuffer(bytes(palette[:768]).ljust(768, b"\0"), dtype=np.uint8)
        self._rgb = colours.reshape(256, 3)
        self.writer: Any = iio.get_writer(
            path, format="FFMPEG", mode="I", fps=fps, codec="libx264", pixelformat="yuv420p", quality=None,
            macro_block_size=1, ffmpeg_log_level="quiet",
            output_params=["-preset", "veryfast", "-tune", "stillimage", "-crf", "20", "-movflags", "+faststart"])

    def write(self, indices: Any, *, duration: int) -> None:
        frame = self._rgb[np.asarray(indices, dtype=np.uint8)]
        h, w = frame.shape[:2]
        if h % 2 or w % 2:  # yuv420p needs even sizes: one more row or column of the frame's edge
            frame = np.pad(frame, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
        self._debt += duration
        repeat = max(1, round(self._debt * self.fps / 1000))
        self._debt -= repeat * 1000 / self.fps
        with self._ffmpeg():
            for _ in range(repeat):
                self.writer.append_data(frame)
        self.frames += repeat

    @contextlib.contextmanager
    def _ffmpeg(self) -> Iterator[None]:
        """ffmpeg's environment while it may be started (on the first frame): in our process
        group, its errors in ``self.report``; an ffmpeg that stopped is ``ffmpeg_failure``."""
        saved = {k: os.environ.get(k) for k in ("IMAGEIO_FFMPEG_NO_PREVENT_SIGINT", "FFREPORT")}
        os.environ["IMAGEIO_FFMPEG_NO_PREVENT_SIGINT"] = "1"
        os.environ["FFREPORT"] = f"file={self.report.replace(':', chr(92) + ':')}:level=16"
        try:
            yield
        except OSError as e:
            raise self._failure() from e
        except RuntimeError as e:  # imageio: "... ffmpeg returned error code"
            raise self._failure() from e
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def _failure(self) -> OSError:
        try:
            with open(self.report, encoding="utf-8", errors="replace") as f:
                report = f.read()
        except OSError:
            report = ""
        return ffmpeg_failure(self.path, report)

    @property
    def ms(self) -> int:
        return round(self.frames * 1000 / self.fps)

    def close(self) -> None:
        try:
            with self._ffmpeg():
                self.writer.close()
        finally:
            try:
                os.unlink(self.report)
            except OSError:
                pass
