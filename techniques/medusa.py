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
from explainer.roles import links as link_roles
from explainer.roles import on
from explainer.state import State
from explainer.technique import NO_CONTEXT, Context

from .links import links

MAX_LENGTH = 15

TEXT = {
    "en": "Medusa: following only strong links from {root}, the candidates alternate between two "
          "colours, A and B; one colour is entirely true. {reason}{more}.",
    "fr": "Coloriage 3D : en ne suivant que des liens forts depuis {root}, les candidats alternent entre "
          "deux couleurs, A et B ; l'une des deux est entièrement vraie. {reason}{more}.",
}
# the removed candidate sees both colours (one is true), or is coloured itself and sees its own
# colour (that colour would hold a value twice: it is false, the candidate with it)
SEES_BOTH = {"en": "{example} sees {x} (colour A) and {y} (colour B), so it is false",
             "fr": "{example} voit {x} (couleur A) et {y} (couleur B), donc il est faux"}
SEES_OWN = {"en": "{example} is itself colour {k} and sees {y}, also colour {k}: colour {k} cannot be "
                  "entirely true, so colour {o} is, and {example} is false",
            "fr": "{example} est lui-même de couleur {k} et voit {y}, aussi de couleur {k} : la couleur {k} "
                  "ne peut pas être entièrement vraie, donc la couleur {o} l'est, et {example} est faux"}
MORE = {"en": "; so {are} {rest}", "fr": " ; de même pour {rest}"}


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
            more = say(MORE, rest=rest, are=Agree(k, en=("is", "are")))
        own = [k for k in (0, 1) if colour[k] >> z & 1]
        if own:
            k = own[0]
            same = x if k == 0 else y
            reason = say(SEES_OWN, example=lk.name(z), y=lk.name(same), k="AB"[k], o="AB"[1 - k])
        else:
            reason = say(SEES_BOTH, example=lk.name(z), x=lk.name(x), y=lk.name(y))
        yield Explanation(
            technique="medusa", eliminate=tuple(lk.mask_cands(elim)),
            marked=tuple(sorted(marked)), marked_alt=tuple(sorted(marked_alt)), strong_links=sl,
            **say(TEXT, root=lk.name(root), reason=Words(en=reason["text"], **dict(reason["translations"])),
                  more=Words(en=more["text"], **dict(more["translations"]))),
            detail=(("length", max(depth[i] for i in bits(keep))),),
            roles=(on("colour", candidates=marked, group=0), on("colour", candidates=marked_alt, group=1),
                   *link_roles("strong", sl)),
        )

