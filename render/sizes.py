"""Sizes in cell units shared by the scene (where things go), the router (what a
line must clear) and the frame (what is drawn), so the three always agree."""
from __future__ import annotations

# big given / placed digits: their height. A horizontal line through the top or
# bottom candidate row (spot_gap from the centre) passes just clear of them.
VALUE_H = 0.50
VALUE_W = 0.34   # about: the widest digit


def spot_gap(m: int) -> float:
    """Distance between neighbouring candidate spots of an m×m sub-grid."""
    return (0.81 if m <= 3 else 0.82) / m


def cand_h(m: int) -> float:
    """Height of a candidate digit."""
    return (0.56 if m <= 3 else 0.66) / m


def mark_h(m: int) -> float:
    """Height of a digit on a disk or in a ring (a marked candidate): a little smaller."""
    return cand_h(m) * (0.85 if m <= 3 else 0.92)


def disk_r(m: int) -> float:
    """Radius of the disk under a marked candidate: neighbouring disks never touch."""
    return (0.48 if m <= 3 else 0.49) * spot_gap(m)


LINK_CLEAR = 1.05  # a link ends this many disk radii from its candidate's centre


# printed pages (contact sheet, workbook): portrait width x height in inches
PAPER_IN = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}
