"""An example Diamant strategy plugin: copy this file, rename the strategy, change `decide`.

Run it without installing anything:

    meeplelab run diamant --plugin strategies/examples/diamant_plugin.py \
        -s example-cautious -s expected-value -s leave-after-hazards:k=2 -n 1e5

or ship it in a package that declares the entry point (in its pyproject.toml):

    [project.entry-points."meeplelab.strategies"]
    my-strategies = "my_package.my_module"

A strategy is one function `decide(obs, params, rng) -> action` (see
`sim/core/strategy_api.py`). Keep it numba-compilable (numpy arrays and scalars only) and it
runs inside the compiled engine at full speed; anything numba cannot compile still works, on the
reference engine, with a warning that says why.
"""
from sim.core.rng import uniform_float  # noqa: F401  (for stochastic strategies: uniform_float(rng))
from sim.diamant import observation as O   # the observation layout: named indices
from strategies import Param, strategy


@strategy(
    "diamant", "example-cautious",
    params=[Param("risk", 0.15, "leave when the chance that the next card ends the round "
                  "reaches this, once you carry at least min_gems", 0.0, 1.0),
            Param("min_gems", 4, "never leave with fewer carried gems than this", 0, 1000)],
    stochastic=False,
    observes="hazards that would end the round, cards left in the deck, own carried gems",
    source="meeplelab example plugin",
)
def example_cautious(obs, params, rng):
    """Leave when the next card ends the round with probability >= risk (once carrying min_gems)."""
    # params holds the parameters in the order declared above.
    risk, min_gems = params[0], params[1]
    if obs[O.CARRIED] < min_gems or obs[O.DECK_SIZE] == 0:
        return O.CONTINUE
    # DANGER_HAZARDS: hazard cards left in the deck whose kind has already been seen in this
    # cave, i.e. cards that would end the round if revealed next.
    p_end = obs[O.DANGER_HAZARDS] / obs[O.DECK_SIZE]
    return O.LEAVE if p_end >= risk else O.CONTINUE
