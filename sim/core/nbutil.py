"""Small numba helpers shared by the fast engines."""
from numba import carray, njit, types
from numba.extending import intrinsic


@intrinsic
def _data_ptr(typingctx, arr):
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data
    return sig, codegen


@njit(cache=True, inline="always")
def borrowed(a):
    """A view of C-contiguous `a` that numba does not reference-count.

    Every pass of an owned array to a compiled function costs atomic increments and
    decrements; in a loop called a hundred million times a second they dominate. Engines work
    on borrowed views of arrays whose owner (the caller) outlives the loop."""
    return carray(_data_ptr(a), a.shape)
