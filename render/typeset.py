"""Where a line of words may break, shared by every writer of wrapped text (the frames'
captions, the contact sheet's, the workbook's), so a French line never starts with ":"."""
from __future__ import annotations

import re

# French puts a space before ; : ! ? » and after «; a line must not break there (a line
# starting with ";" reads as a typo): the space becomes a no-break space
_GLUED = re.compile(r" (?=[;:!?»])|(?<=«) ")
NO_BREAK = "\u00a0"


def glued(text: str) -> str:
    """``text`` with the spaces a line must not break at made no-break spaces."""
    return _GLUED.sub(NO_BREAK, text)


def breakable_words(text: str) -> list[str]:
    """The words of one paragraph a wrap may put on separate lines: split at plain spaces
    only (``str.split()`` would also cut at the no-break spaces ``glued`` puts in)."""
    return [w for w in glued(text).split(" ") if w.strip()]
