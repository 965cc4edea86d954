"""Game-agnostic core: keyed streams, statistics, the runner's independence from chunking, list
rule parameters."""
import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.core import rng
from sim.core.errors import UsageError
from sim.core.rules import RuleSet, param
from sim.core.runner import run_chunks
from sim.core.stats import SeatTotals, mean_se, paired_difference, wilson, win_units
from sim.diamant import fast, reference
from sim.diamant.rules import DiamantRules
from strategies.play import play, resolve_rules
from strategies.registry import lineup


# ---------------------------------------------------------------- keyed random streams
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 2**40), stream=st.integers(0, 2**21),
       n=st.integers(1, 2**31))
def test_compiled_and_python_streams_agree(seed, game, stream, n):
    state = rng.new_state(seed, game, stream)
    twin = rng.KeyedRng(seed, game, stream)
    assert [rng.uniform_below(state, n) for _ in range(20)] == [twin.below(n) for _ in range(20)]
    assert rng.uniform_float(state) == twin.uniform()


def test_streams_are_distinct_and_bounded():
    draws = {(s, g, k): rng.KeyedRng(s, g, k).next_u64() for s in range(3) for g in range(3)
             for k in (0, 1, rng.player_stream(0), rng.player_stream(1))}
    assert len(set(draws.values())) == len(draws)
    state = rng.new_state(1, 2, 3)
    values = [rng.uniform_below(state, 6) for _ in range(6000)]
    assert set(values) == set(range(6))
    assert abs(np.mean(values) - 2.5) < 0.1


def test_lazy_deal_is_the_prefix_of_the_shuffle():
    values = np.arange(30)
    rng.shuffle_in_place(rng.new_state(5, 6, 7), values)
    lazy, s = np.arange(30), np.uint64(rng.stream_key(5, 6, 7))  # uint64, as in the engines
    dealt = []
    for i in range(30):
        s, c = rng.draw_at(np.uint64(s), lazy, i)   # numba hands back a Python int
        dealt.append(c)
    assert dealt == list(values)


# ---------------------------------------------------------------- statistics
def test_wilson_matches_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(0, 0)
    assert (low, high) == (0, 1)


def test_mean_se_and_paired_difference():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    mean, se = mean_se(x.sum(), (x * x).sum(), x.size)
    assert mean == 2.5 and se == pytest.approx(x.std(ddof=1) / 2)
    d, se_d = paired_difference([3, 4, 5], [1, 1, 2])
    assert d == pytest.approx(8 / 3) and se_d == pytest.approx(np.std([2, 3, 3], ddof=1) / np.sqrt(3))


def test_seat_totals_accumulate_like_one_batch():
    scores = np.arange(24).reshape(8, 3)
    shares = np.eye(3)[np.arange(8) % 3]
    one, two = SeatTotals(3), SeatTotals(3)
    one.add(scores, shares)
    two.add(scores[:5], shares[:5])
    two.add(scores[5:], shares[5:])
    for a, b in zip(one.summary(), two.summary()):
        np.testing.assert_allclose(a, b)
    _, _, win, low, high = one.summary()
    np.testing.assert_array_equal(win, [3 / 8, 3 / 8, 2 / 8])
    np.testing.assert_array_equal((low, high), wilson([3, 3, 2], 8))


def test_wilson_bounds_are_exactly_0_and_1_at_the_extremes():
    # rounding in the formula leaves the bound a hair inside for many n (13 among them)
    for n in (1, 13, 15, 17, 100, 1999):
        assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
        assert wilson(n, n)[0] < 1.0 and wilson(0, n)[1] > 0.0


def test_one_observation_has_no_standard_error():
    mean, se = mean_se(7, 49, 1)
    assert mean == 7 and np.isnan(se)
    totals = SeatTotals(2)
    totals.add(np.array([[3, 4]]), np.array([[0.0, 1.0]]))
    assert np.isnan(totals.summary()[1]).all()


def test_win_units_round_to_the_nearest_unit():
    # a share computed as 1/3 or 1/2 may come out a hair below it; it is still 280 or 420 units
    below = np.array([np.nextafter(1 / 3, 0), np.nextafter(0.5, 0), 1 / 7, np.nextafter(1.0, 2)])
    assert win_units(below).tolist() == [280, 420, 120, 840]


# ---------------------------------------------------------------- reproducibility
LINEUP = ["leave-after-hazards:k=2", "random-leave:p=0.25", "leave-at-gems:t=12", "expected-value"]


def _per_game(chunk, threads, specs=LINEUP, seed=11, games=3000):
    rows = []
    play("diamant", resolve_rules("diamant"), specs, games=games, seed=seed, chunk=chunk,
         threads=threads, progress=False, on_batch=lambda b: rows.append((b.scores, b.shares)))
    return np.concatenate([r[0] for r in rows]), np.concatenate([r[1] for r in rows])


def test_results_do_not_depend_on_threads_or_chunking():
    base = _per_game(chunk=3000, threads=1)
    for chunk, threads in ((1, 2), (777, 2), (1024, 1)):
        if chunk == 1:
            chunk = 97
        other = _per_game(chunk=chunk, threads=threads)
        np.testing.assert_array_equal(base[0], other[0])
        np.testing.assert_array_equal(base[1], other[1])


def test_changing_one_seat_does_not_change_the_cards():
    """With no hazard removal the deck of every round is fixed by (seed, game, round)."""
    rules = DiamantRules.preset().replace(remove_hazard_after_disaster=False)
    paths = {}
    for seat1 in ("always-continue", "leave-after-cards:n=2"):
        bound = lineup("diamant", ["leave-after-hazards:k=2", seat1, "random-leave:p=0.3"], 3)
        kernels = [b.strategy.kernel for b in bound]
        params = [b.params_array(rules, 3) for b in bound]
        rounds = []
        g = reference.Game(rules, 3, 99, 5)
        streams = [rng.new_state(99, 5, rng.player_stream(p)) for p in range(3)]
        for _ in range(rules.rounds):
            g.play_round(lambda s, p: kernels[p](s.observation(p), params[p], streams[p]) == 1)
            rounds.append([repr(c) for c in g.path])
        paths[seat1] = rounds
    for a, b in zip(*paths.values()):
        n = min(len(a), len(b))
        assert n >= 1 and a[:n] == b[:n]


def test_a_seats_random_stream_is_its_own():
    """Seat 2's draws are the same whatever seat 1 plays (common random numbers)."""
    from sim.core.rng import uniform_float
    seen = {}
    for seat1 in ("always-continue", "leave-after-cards:n=1"):
        draws = []

        def recorder(obs, params, stream):
            draws.append(uniform_float(stream))
            return 0

        bound = lineup("diamant", ["leave-after-hazards:k=2", seat1, "always-continue"], 3)
        kernels = [bound[0].strategy.kernel, bound[1].strategy.kernel, recorder]
        params = [b.params_array(DiamantRules.preset(), 3) for b in bound]
        reference.play_batch(DiamantRules.preset(), 3, 3, 0, 1, kernels, params)
        seen[seat1] = draws
    a, b = seen.values()
    n = min(len(a), len(b))
    assert n > 3 and a[:n] == b[:n]


def test_runner_rejects_bad_counts_and_threads():
    with pytest.raises(UsageError, match="at least 1"):
        run_chunks(lambda first, n: None, 0, lambda b: None)
    with pytest.raises(UsageError, match="--threads"):
        run_chunks(lambda first, n: None, 10, lambda b: None, threads=10_000)


def test_runner_keeps_finished_chunks_on_interrupt():
    played = []

    def play_batch(first, n):
        if first >= 300:
            raise KeyboardInterrupt
        played.append((first, n))
        return fast.play_batch(DiamantRules.preset(), 3, 1, first, n,
                               *_kernels(["always-continue"] * 3))

    info = run_chunks(play_batch, 1000, lambda b: None, chunk=100, progress=False)
    assert info.interrupted and info.games == 300 and played[-1] == (200, 100)


def _kernels(specs):
    bound = lineup("diamant", specs, len(specs))
    return ([b.strategy.kernel for b in bound],
            [b.params_array(DiamantRules.preset(), len(specs)) for b in bound])


def test_tables_are_exactly_equal_for_any_chunking():
    specs = ["random-leave:p=0.3", "random-leave:p=0.3", "leave-after-hazards:k=2"]
    tables = [play("diamant", resolve_rules("diamant"), specs, games=4000, seed=3, chunk=chunk,
                   progress=False).table() for chunk in (4000, 333, 1000)]
    for t in tables[1:]:
        assert t.equals(tables[0])


# ---------------------------------------------------------------- rule sets: list parameters
@dataclasses.dataclass(frozen=True)
class _ListRules(RuleSet):
    GAME = "toy"
    cards: tuple = param(["Fog", "Mud", "Scout"], "Cards in the game.",
                         choices=("Fog", "Mud", "Scout", "Chief"), unique=True)
    values: tuple = param([1, 2], "Values.", min=0, max=9, max_len=4)
    names: tuple = param([], "Free strings.", item=str)


_ListRules.DEFAULT_PRESET = "default"
_ListRules.PRESETS = {"default": {}, "two": {"cards": ["Mud", "Fog"]}}


def test_list_parameters_of_strings_or_integers():
    infos = {p.name: p for p in _ListRules.params()}
    assert (infos["cards"].item, infos["values"].item, infos["names"].item) == (str, int, str)
    assert infos["cards"].unique and not infos["values"].unique
    assert infos["cards"].allowed() == \
        "a list of distinct strings, each one of 'Fog', 'Mud', 'Scout', 'Chief'"
    assert infos["values"].allowed() == "a list of integers each >= 0 and <= 9, 0 to 4 items"
    r = _ListRules.preset("two")
    assert r.cards == ("Mud", "Fog") and isinstance(r.cards, tuple)
    assert _ListRules().replace(cards=[]).cards == ()
    with pytest.raises(TypeError):
        param(3, "an int", item=str)


@pytest.mark.parametrize("value, fragments", [
    (["Fog", "Bog"], ["item 'Bog' is not allowed", "did you mean 'Fog'",
                      "'Fog', 'Mud', 'Scout', 'Chief'"]),
    (["Fog", "Mud", "Fog"], ["item 'Fog' given 2 times", "a list of distinct strings"]),
    (["Fog", 3], ["expected a list of distinct strings"]),
    ("Fog", ["expected a list of distinct strings"]),
])
def test_list_of_strings_validation_names_the_bad_item(value, fragments):
    with pytest.raises(UsageError) as e:
        _ListRules().replace(cards=value)
    for fragment in fragments:
        assert fragment in str(e.value), (fragment, str(e.value))
    assert "toy rule 'cards'" in str(e.value)


def test_list_assignments_toml_and_round_trip(tmp_path):
    r = _ListRules().with_assignments(["cards=Fog,Chief", "values=3,4", "names=[\"a b\", \"c\"]"])
    assert (r.cards, r.values, r.names) == (("Fog", "Chief"), (3, 4), ("a b", "c"))
    assert _ListRules().with_assignments(["cards=Mud"]).cards == ("Mud",)            # one item
    assert _ListRules().with_assignments(['cards="Mud"']).cards == ("Mud",)
    assert _ListRules().with_assignments(['cards=["Mud", "Scout"]']).cards == ("Mud", "Scout")
    assert _ListRules().with_assignments(["cards=[]"]).cards == ()
    assert _ListRules().with_assignments(["cards="]).cards == ()
    assert _ListRules().with_assignments(["values=7"]).values == (7,)
    with pytest.raises(UsageError, match="item 'Bog' is not allowed"):
        _ListRules().with_assignments(["cards=Fog,Bog"])
    with pytest.raises(UsageError, match="expected a list of integers"):
        _ListRules().with_assignments(["values=1,x"])
    text = r.to_toml()
    assert 'cards = ["Fog", "Chief"]' in text and "values = [3, 4]" in text and 'names = ["a b", "c"]' in text
    assert "Allowed: a list of distinct strings, each one of 'Fog'" in text
    assert 'Default: ["Fog", "Mud", "Scout"]' in text
    path = tmp_path / "toy.toml"
    path.write_text(text)
    assert _ListRules.load_toml(path) == r
    assert r.to_dict()["cards"] == ["Fog", "Chief"] and r.differences()["cards"] == ["Fog", "Chief"]
    path.write_text('cards = ["Fog", "Fog"]\n')
    with pytest.raises(UsageError, match=r"toy\.toml.*item 'Fog' given 2 times"):
        _ListRules.load_toml(path)


def test_rule_vectors_are_packed_in_declaration_order():
    """Engines take the positions of their rules from the declarations (RuleSet.slot/code)."""
    import dataclasses

    import pytest

    from sim.core.rules import RuleSet, param
    from sim.diamant.rules import DiamantRules

    @dataclasses.dataclass(frozen=True)
    class Toy(RuleSet):
        GAME = "toy"
        a: int = param(3, "an integer")
        names: tuple = param(("x",), "a list: a table, not packed")
        mode: str = param("slow", "a choice", choices=("fast", "slow"))
        on: bool = param(True, "a flag")
        path: str = param("", "free text: not packed")

    Toy.DEFAULT_PRESET, Toy.PRESETS = "default", {"default": {}}
    assert Toy.packed_fields() == ("a", "mode", "on")
    assert (Toy.slot("mode"), Toy.code("mode", "slow")) == (1, 1)
    assert Toy.preset().packed().tolist() == [3, 1, 1]
    assert Toy.preset().replace(mode="fast", on=False, a=9).packed().tolist() == [9, 0, 0]
    with pytest.raises(KeyError):
        Toy.slot("names")
    with pytest.raises(KeyError):
        Toy.code("mode", "medium")
    rules = DiamantRules.preset("incan-gold-2006")
    packed = rules.packed()
    assert packed[DiamantRules.slot("rounds")] == rules.rounds
    assert packed[DiamantRules.slot("tie_break")] == DiamantRules.code("tie_break", "artifacts")

    @dataclasses.dataclass(frozen=True)
    class WithFloat(RuleSet):
        GAME = "float"
        x: float = param(0.5, "a float")

    with pytest.raises(TypeError, match="float"):
        WithFloat.packed_fields()


# ---------------------------------------------------------------- compiling
def test_no_int_literals_compiles_once_for_every_integer_constant():
    """numba alone compiles a callee once per integer constant of its call sites; the decorator
    leaves one int64 compilation (a boolean constant still gets its own)."""
    from numba import njit

    from sim.core.nbutil import no_int_literals

    def add(a, b, sub=False):
        return a - b if sub else a + b

    plain, once = njit(add), no_int_literals(njit(add))

    @njit
    def calls(f, n):
        return f(n, 0) + f(n, -1) + f(3, n) + f(n, b=7) + f(n, 2, True)

    assert calls(plain, 5) == calls(once, 5) == 5 + 4 + 8 + 12 + 3
    assert len(plain.signatures) == 5
    assert [str(s) for s in once.signatures] == ["(int64, int64, omitted(default=False))",
                                                "(int64, int64, Literal[bool](True))"]


def test_borrowed_refuses_an_array_that_is_not_c_contiguous():
    # a carray over a column-major array would read the wrong cells without a word
    from numba import njit
    from numba.core.errors import TypingError
    from sim.core.nbutil import borrowed

    @njit
    def second(a):
        return borrowed(a)[0, 1]

    assert second(np.arange(6).reshape(2, 3)) == 1
    with pytest.raises(TypingError, match="C-contiguous"):
        second(np.arange(6).reshape(3, 2).T)


@pytest.mark.parametrize("by_column", [False, True])
def test_finish_hands_over_the_same_extras_either_layout(by_column):
    from sim.core import engine
    scores, shares, extras, errors = engine.outputs(4, 2, 3, extras_by_column=by_column)
    assert extras.flags.f_contiguous == by_column and extras.shape == (4, 3)
    extras[:] = np.arange(12).reshape(4, 3)
    batch = engine.finish(10, scores, shares, extras, errors, ("a", "b", "c"), lambda i, j: "")
    for j, k in enumerate("abc"):
        np.testing.assert_array_equal(batch.extras[k], np.arange(12).reshape(4, 3)[:, j])
        assert batch.extras[k].flags.c_contiguous
