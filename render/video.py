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

import math
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


class VideoStream:
    """An H.264 film written frame by frame: ``write(indices, duration=ms)`` with ``indices``
    an (height, width) array of indices on ``palette`` (RGB bytes); ``close()``."""

    def __init__(self, path: str, palette: bytes, fps: int = VIDEO_FPS) -> None:
        import imageio.v2 as iio

        self.fps = fps
        self.frames = 0  # film frames written
        self._debt = 0.0  # ms still to show (rounding carried over)
        colours = np.frombuffer(bytes(palette[:768]).ljust(768, b"\0"), dtype=np.uint8)
        self._rgb = colours.reshape(256, 3)
        self.writer: Any = iio.get_writer(
            path, format="FFMPEG", mode="I", fps=fps, codec="libx264", pixelformat="yuv420p", quality=None,
            macro_block_size=1, ffmpeg_log_level="error",
            output_params=["-preset", "veryfast", "-tune", "stillimage", "-crf", "20", "-movflags", "+faststart"])

    def write(self, indices: Any, *, duration: int) -> None:
        frame = self._rgb[np.asarray(indices, dtype=np.uint8)]
        h, w = frame.shape[:2]
        if h % 2 or w % 2:  # yuv420p needs even sizes: one more row or column of the frame's edge
            frame = np.pad(frame, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
        self._debt += duration
        repeat = max(1, round(self._debt * self.fps / 1000))
        self._debt -= repeat * 1000 / self.fps
        for _ in range(repeat):
            self.writer.append_data(frame)
        self.frames += repeat

    @property
    def ms(self) -> int:
        return round(self.frames * 1000 / self.fps)

    def close(self) -> None:
        self.writer.close()
