"""Sudoku Explainer's chaining producers as finders (``techniques.sechains``).

Each case is a state SE reached on its own rating path (se_rated, top1465, hardest300) and
the hint SE's producer gives there, as SE prints it (rating, chain length, what it removes
or places): the finder must yield exactly that step, with a proof the independent checker
replays (nested steps on their branch states included), texts in both languages, and the
state it read unchanged. Near misses: states where the producer has nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from explainer.core import sechain
from explainer.model import rating
from explainer.model.grid import geometry
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context
from techniques import sechains
from tests.techniques.forcing_helpers import check_step

COMPILED = sechain._C is not None


def state_of(code: str) -> State:
    """A state from a values-and-masks line (tests/data/se_chains.txt's format)."""
    vals, masks = code.split()
    st = State(geometry(9))
    for c, ch in enumerate(vals):
        if ch != ".":
            st.place(c, int(ch))
    for c in range(81):
        m = int(masks[3 * c:3 * c + 3], 16)
        for v in st.candidates(c):
            if not m >> (v - 1) & 1:
                st.eliminate(c, v)
    return st


S1 = (".3.9...1...2.53.....48....3..52...3442..3....37...81..2...856......197...9..2438. "
      "0f00000e000006806209a0000f01e10a10000090000001881601e01710310000000600631121700000a10a100000016006118000000"
      "00000001a10110000211901701f00000001200181280000000320320000090440440000000001081010b00b80a40240000000000"
      "1a012071000061060000000000000011")
S2 = ("72...9453..4.7..8658....71..672...3...5.3.86..4...6.7.4.8....2167..1.348...4...97 "
      "0000000210a10a000000000000010510500001500001210200000000000012402400a00c00000010218000000000011808910100"
      "011810210100014000004900000010a1870000051801100001030001120001140000641200440300000000000001021100000120"
      "000000000050150070000a2084030000000")
S3 = (".4....3..65.8....49...14..84...61....674..8..5.9728..6...23...539.587.12..514..83 "
      "0c200008112015001200016214100000000700014000614314200000004200602400000007207200000008408210400000005205"
      "614000300000000011001400010610100000500000000000000900c000081081028000000120140168000000000028000000000"
      "028000000042042000000000120120000000")
S4 = (".4....3..65.8....49...14...4...61....674..8..5.9728..6...23...539.587.12..514..83 "
      "0c20000811201500120001621c10000000070001400061431420000000c20860240000000720720c000008608210400000005205"
      "614000300000000011001400010610100000500000000000000900c000081081028000000120140168000000000028000000000"
      "028000000042042000000000120120000000")
S5 = ("..236..877698.24..83147.26..76.98.4.1.3...7.8..873...6..4..7..2..7523..4325....7. "
      "018018000000000101101000000000000000000011000000015015000000000000000110000000110012000000003000000014000"
      "01500011800002201802800011200001a1180000000000191011130001200810001200810000140140001200810000000000000a"
      "01010000000000001210890290a0000101")
S6 = ("4..61..23.39..5.8.2..37...4..3.54..8..8.9.3.....8632.93..5..8.185.93.472....87.35 "
      "0000c005000000018015000000006100000000a00a0000610000600000a103100000018011112100012012200004200000006102"
      "100003002a00004300000300001806005104904900000000000001800000016806a00000a022000120000000000021000000021"
      "00000000012110900b00b000000120000000")
S7 = ("71.6..5.8..3..5..45......6..7..9...2...8.1...9...6..5..3......14..1..9..1.8..7.25 "
      "00000010a00000e10e0001040000a21a20001420c300004314100000018a00a04e0cf18e0470001440a400003901c00000c0ad08"
      "d00000601a03a00005e00006c14816000008a00b04e00000e0cd00004402200017201a09a1a80e80c80000000120520000960a6"
      "0000c406400012000010c00c00002c000000")
S8 = ("71.6..5.8..3..5..45......6..76594..2...871...9.1.6..57.3......14..1..9..1.8.37.25 "
      "00000010a00000a0060001040000a012000014208300004304100000008a00a04600b18004300010408400000000000000008508"
      "100000601a01a00000000002c10812000008800000600000608800000002200015000a0901200c00c80000000120520000920a0"
      "0000c4024000120000108000000028000000")
S9 = ("71.6..5.8..3..5..45......6..7..9...2...8.1...9.1.6..5..3......14..1..9..1.8..7.25 "
      "00000010a00000e10e0001040000a01a00001420c300004314100000018a00a04e08f18e0470001440a400003801c00000c0ad08"
      "d00000601a03a00005a00006c14816000008a00004e00000e08c00004402200017201a09a1a00e80c80000000120520000960a6"
      "0000c402400012000010c00c00002c000000")
S10 = ("71.6..5.8..3..5..45......6..7..9...2...8.1...9.1.6..5..3......14..1..9..1.8..7.25 "
       "00000010a00000a10e0001040000a01a00001420c300004314100000018a00a04e00f1800470001440a400003801c00000c0ad0"
       "8900000601a03a00005200006c14812000008a00004600000e08c00004402200017201a09a1200c80c80000000120520000960"
       "a20000c402400012000010c00c00002c000000")
S11 = ("9653.4...12..5....4.......5.947...8.7..4.8..2.3...674.3.......6....1..3....8.3.17 "
       "0000000000000c000008304208100000008412000014008c06008c0000c00c40030a00031a41200000320000000000060110350"
       "000050000110210001040001341300000920000820111020000000001010000991c311204815219a1120000a20d81e213200015"
       "219a00018803201812200002800011a000000")
S12 = ("71.6..5.8..3..5..45......6..7..9...2...8.1...9...6..5..3......14..1..9..1.8..7.25 "
       "00000010a00000e10e0001040000a21a20001420c300004314100000018a00a04e0cf18e0470001440a400003901c00000c0ad0"
       "8d00000601a03a00005e00006c14816000008a00b04e00000e0cd00004402200017201a09a1aa0e80c80000000320720000960"
       "a60000c406400012000010c00c00002c000000")
S13 = (".3.9...1...2.53.....48....3..52...3442..3....37...81..2...856......197...9..2438. "
       "0f00000e000006806209a0000e01e10a10000090000001081601e01710310000000600631121700000a10a10000001600611800"
       "000000000001a10110000211901701e00000001200181280000000320320000090440440000000001081010b00b80a40240000"
       "0000001a012071000061060000000000000011")
S14 = ("98.7.....6.....5....5....7..4..3...2..84..6.......1.4...96..8......4..1......2..3 "
       "00000000f00003303c00f02602900004704f18718318c00018618900f0070001871a31ac10f0001a90510000611900001f0141"
       "1900000571570000001521500001141510561760661921f20001440001d005f0570000000510540000120580d60760661940001"
       "d41420001700d90710691911d1000148130000")
S15 = (".3.9...1...2.53.....48....3..52...3442..3....37...81..2...856......197...9..2438. "
       "0f00000e000006806209a0000f01e10a10000090000001081601e01710310000000600631121700000a10a1000000160061180000"
       "0000000001a10110000211901701e00000001200181280000000320320000090440440000000001081010b00b80a4024000000000"
       "01a012071000061060000000000000011")
S16 = ("71.6..5.8..3..5..45......6..7..9...2...8.1...9.1.6..5..3......14..1..9..1.8..7.25 "
       "00000010a00000e10e0001040000a21a00001420c300004314100000018a00a04e08f18e0470001440a400003801c00000c0ad08d"
       "00000601a03a00005a00006c14816000008a00004e00000e08c00004402200017201a09a1a00e80c80000000120520000960a6000"
       "0c402400012000010c00c00002c000000")


@dataclass(frozen=True)
class Case:
    label: str
    find: object
    state: str
    technique: str
    place: tuple[tuple[int, int, int], ...]
    eliminate: tuple[tuple[int, int, int], ...]
    se_rating: float
    complexity: int


# SE's own first hints (SukakuExplainer 1.15.10, as tests/data/se_chains.txt records them)
CASES = [
    Case("forcing chain", sechains.find_forcing_chains, S1, sechains.FORCING_CHAIN, (), ((4, 8, 5),), 7.1, 8),
    Case("forcing chain placing", sechains.find_forcing_chains, S2, sechains.FORCING_CHAIN, ((3, 0, 8),), (), 7.1, 8),
    Case("y-cycle", sechains.find_forcing_chains, S3, sechains.CYCLE, (), ((1, 2, 2), (3, 7, 3)), 6.8, 12),
    Case("xy-cycle", sechains.find_forcing_chains, S4, sechains.CYCLE, (), ((2, 2, 8), (3, 1, 2)), 7.1, 8),
    Case("forcing x-chain", sechains.find_forcing_chains, S5, sechains.FORCING_CHAIN, (), ((5, 7, 1),), 6.8, 10),
    Case("nishio", sechains.find_nishio, S6, sechains.NISHIO, (), ((3, 0, 6),), 7.8, 11),
    Case("cell forcing", sechains.find_multiple, S7, sechains.CELL_FORCING, (), ((1, 1, 2),), 8.3, 12),
    Case("region forcing", sechains.find_multiple, S1, sechains.REGION_FORCING, (), ((4, 8, 5),), 8.1, 8),
    Case("region forcing placing", sechains.find_multiple, S8, sechains.REGION_FORCING, ((2, 5, 9),), (), 8.1, 8),
    Case("dynamic contradiction", sechains.find_dynamic, S9, sechains.DYNAMIC, (), ((5, 3, 4),), 8.9, 16),
    Case("dynamic double", sechains.find_dynamic, S10, sechains.DYNAMIC, (), ((4, 4, 5),), 8.9, 18),
    Case("dynamic cell placing", sechains.find_dynamic, S11, sechains.DYNAMIC, ((3, 4, 2),), (), 8.7, 10),
    Case("dynamic plus double", sechains.find_dynamic_plus, S12, sechains.DYNAMIC_PLUS, (), ((7, 1, 6),), 9.1, 8),
    Case("dynamic plus region", sechains.find_dynamic_plus, S13, sechains.DYNAMIC_PLUS, (), ((4, 2, 1),), 9.2, 9),
]
NESTED = Case("nested (+ forcing chains)", sechains.find_nested, S14, sechains.NESTED, (), ((6, 0, 5),), 10.2, 39)


BARE = Context(rating_only=True)  # a run that wants ratings only (the SE order's ``rate``)


def check_case(case: Case) -> None:
    st = state_of(case.state)
    before = st.snapshot()
    steps = list(case.find(st, NO_CONTEXT))  # type: ignore[operator]
    assert st.snapshot() == before, "a finder never changes the state it reads"
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == case.technique
    assert step.place == case.place and step.eliminate == case.eliminate
    assert step.get(rating.SE_RATING) == case.se_rating and step.get("complexity") == case.complexity
    assert check_step(st, step) == []
    assert step.text and dict(step.translations)["fr"]
    assumed = step.proof.branches[0].assume if step.proof else None
    assert assumed is not None and f"r{assumed[0] + 1}c{assumed[1] + 1}" in step.text
    assert {r.role for r in step.roles} >= {"assumption"}
    # the rating-only step: the same change and rating, nothing else
    bare = list(case.find(st, BARE))[0]  # type: ignore[operator]
    assert (bare.technique, bare.place, bare.eliminate, bare.detail) == \
        (step.technique, step.place, step.eliminate, step.detail)
    assert bare.proof is None and not bare.text and not bare.roles
    kind = {k.name: k for t in sechains.techniques() for k in t.kinds}[bare.technique]
    assert kind.rate(bare) == case.se_rating


@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_finder_gives_ses_hint(case: Case) -> None:
    check_case(case)


@pytest.mark.skipif(not COMPILED, reason="the pure engine takes minutes on nested chains (slow test below)")
def test_nested_forcing_chain() -> None:
    check_case(NESTED)


@pytest.mark.slow
def test_nested_forcing_chain_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sechain, "_C", None)
    check_case(NESTED)


@pytest.mark.parametrize("find, state", [
    (sechains.find_forcing_chains, S15),
    (sechains.find_nishio, S1),
    (sechains.find_multiple, S16),
], ids=["forcing chains", "nishio", "multiple"])
def test_near_misses(find: object, state: str) -> None:
    assert list(find(state_of(state), NO_CONTEXT)) == []  # type: ignore[operator]


def test_a_bound_below_the_producer_skips_it() -> None:
    from explainer.model.technique import Bound

    ctx = Context(bound=Bound(rating=7.0))
    assert list(sechains.find_nishio(state_of(S6), ctx)) == []  # Nishio's least is 7.5


def test_records_name_every_kind_with_titles() -> None:
    for classic in (False, True):
        records = sechains.techniques(classic)
        assert [t.name for t in records][0] == "se forcing chains"
        names = {k.name for t in records for k in t.kinds}
        assert names == set(sechains.KINDS)
        for t in records:
            for k in t.kinds:
                assert k.titles["en"] and k.titles["fr"] and k.rule is rating.RECORDED


def test_classic_flavour_finds_its_dynamic_plus() -> None:
    st = state_of(S12)
    step = next(sechains.find_dynamic_plus_classic(st, NO_CONTEXT))
    assert step.technique == sechains.DYNAMIC_PLUS and step.get(rating.SE_RATING) >= 9.0
    assert check_step(st, step) == []


def test_rating_rule_reads_ses_number() -> None:
    st = state_of(S1)
    bare = next(sechains.find_forcing_chains(st, BARE))
    assert rating.rate(bare, 6.6, rating.RECORDED) == 7.1
