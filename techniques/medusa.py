"""3D Medusa: colour candidates along strong links only.

From a root candidate, follow strong links (bivalue cells, values with two
places in a house) breadth first and give each candidate the parity of its
distance: two candidates of different colours are the ends of an all-strong
chain of odd length (their path in the colouring tree), so one of them is
true. A candidate weakly linked to a candidate of each colour is therefore
false.

The step shows only the part of the colouring that proves its eliminations
(the tree paths from the root to the witnesses), the two colours as
``marked`` / ``marked_alt`` and the tree's strong links.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from explainer.explanation import Explanation
from explainer.grid import bits
from explainer.i18n import Agree, Words, say
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

from .links import links

MAX_LENGTH = 15

TEXT = {
    "en": "Medusa: following only strong links from {root}, the candidates alternate between two "
          "colours, filled and ringed; one colour is entirely true. {example} sees {x} (filled) "
          "and {y} (ringed), so it is false{more}.",
    "fr": "Medusa : en ne suivant que des liens forts depuis {root}, les candidats alternent entre "
          "deux couleurs, pleine et cerclée ; l'une des deux est entièrement vraie. {example} voit "
          "{x} (plein) et {y} (cerclé), donc il est faux{more}.",
}
MORE = {"en": "; so {are} {rest}, which also {see} both colours",
        "fr": " ; de même {rest}, qui {see} aussi les deux couleurs"}


def find(state: State, ctx: Context = NO_CONTEXT, /, max_length: int = MAX_LENGTH) -> Iterator[Explanation]:
    lk = links(state, ctx.session)
    strong, weak = lk.strong, lk.weak
    done = 0
    for root in sorted(strong):
        if done >> root & 1:
            continue
        parent = {root: -1}
        depth = {root: 0}
        colour = [1 << root, 0]
        front = [root]
        d = 0
        while front and d < max_length:
            d += 1
            new = []
            for i in front:
                for j in strong[i]:
                    if j not in parent:
                        parent[j] = i
                        depth[j] = d
                        colour[d & 1] |= 1 << j
                        new.append(j)
            front = new
        done |= colour[0] | colour[1]
        seen = [0, 0]
        for k in (0, 1):
            for i in bits(colour[k]):
                seen[k] |= weak[i]
        elim = seen[0] & seen[1]
        if not elim:
            continue
        # witnesses and the tree paths that prove each elimination
        keep = 0
        witness = {}
        for z in bits(elim):
            wa, wb = weak[z] & colour[0], weak[z] & colour[1]
            x = min(bits(wa), key=lambda i: depth[i])
            y = min(bits(wb), key=lambda i: depth[i])
            witness[z] = (x, y)
            for i in (x, y):
                while i >= 0 and not keep >> i & 1:
                    keep |= 1 << i
                    i = parent[i]
        marked = [lk.cand(i) for i in bits(keep & colour[0])]
        marked_alt = [lk.cand(i) for i in bits(keep & colour[1])]
        sl = tuple((lk.cand(parent[i]), lk.cand(i)) for i in sorted(bits(keep), key=lambda i: (depth[i], i))
                   if parent[i] >= 0)
        order = sorted(bits(elim), key=lk.cell_order)
        z = order[0]
        x, y = witness[z]
        rest = ", ".join(lk.name(i) for i in order[1:])
        more: dict[str, Any] = {"text": "", "translations": (("fr", ""),)}
        if rest:
            k = len(order) - 1
            more = say(MORE, rest=rest, are=Agree(k, en=("is", "are")),
                       see=Agree(k, en=("sees", "see"), fr=("voit", "voient")))
        yield Explanation(
            technique="medusa", eliminate=tuple(lk.mask_cands(elim)),
            marked=tuple(sorted(marked)), marked_alt=tuple(sorted(marked_alt)), strong_links=sl,
            **say(TEXT, root=lk.name(root), example=lk.name(z), x=lk.name(x), y=lk.name(y),
                  more=Words(en=more["text"], **dict(more["translations"]))),
            detail=(("length", max(depth[i] for i in bits(keep))),),
        )

