"""Different strategies in the two seats play on both engines (the engine's tuple of strategy
functions is heterogeneous then), with identical games."""
import numpy as np

from sim.schotten_totten import fast, reference
from strategies.play import play, resolve_rules
from strategies.registry import lineup


def test_mixed_lineups_run_and_agree_with_the_reference():
    rules = resolve_rules("schotten-totten", "tactics")   # the reference engine is slow: few games
    bound = lineup("schotten-totten", ["greedy", "random"], 2)
    kernels = [b.strategy.kernel for b in bound]
    params = [b.params_array(rules, 2) for b in bound]
    natives = [b.strategy.native for b in bound]
    ref = reference.play_batch(rules, 2, 5, 0, 8, kernels, params)
    for nat in (natives, None):
        got = fast.play_batch(rules, 2, 5, 0, 8, kernels, params, nat)
        np.testing.assert_array_equal(got.scores, ref.scores)
        np.testing.assert_array_equal(got.shares, ref.shares)
    table = play("schotten-totten", rules, ["greedy", "random"], games=200, seed=1,
                 progress=False).table()
    assert table.win_ci_low[0] > 0.5
