"""The one signature every compiled strategy has, in every game.

    decide(obs: int64[::1], params: float64[::1], rng: uint64[::1]) -> int64

`obs` is the observation vector the engine builds for the deciding seat (its layout is the
game's `observation` module), `params` the strategy's parameters (packed by the registry, or a
table the strategy prepared), `rng` the seat's own keyed stream (advance it with
`sim.core.rng.uniform_float` / `uniform_below`). The return value is the chosen action.

Because the signature is fixed, engines take strategies as first-class function values of
one type: compiled once, cached on disk, and never recompiled for a new strategy. (Numba types
a dispatcher as such a value only when it holds that one signature and compiles nothing more;
the registry makes every kernel so, see `strategies.registry._frozen`.)
"""
from numba import types

DECIDE_SIG = types.int64(types.int64[::1], types.float64[::1], types.uint64[::1])
DECIDE_TYPE = types.FunctionType(DECIDE_SIG)

# First-class function types are the documented numba mechanism we rely on; its "experimental"
# notice would otherwise print on every run.
import warnings  # noqa: E402

from numba.core.errors import NumbaExperimentalFeatureWarning  # noqa: E402

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
