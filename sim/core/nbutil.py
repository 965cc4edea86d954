"""Small numba helpers shared by the fast engines."""
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .strategy_api import DECIDE_SIG


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


@intrinsic
def address_of(typingctx, arr):
    """The address of the data of array `arr`, as an integer."""
    sig = types.intp(arr)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.ptrtoint(data, context.get_value_type(types.intp))
    return sig, codegen


@intrinsic
def _pointer_at(typingctx, address, dtype):
    ty = dtype.dtype if isinstance(dtype, types.DType) else dtype.instance_type
    sig = types.CPointer(ty)(address, dtype)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


@njit(cache=True, inline="always")
def view_at(address, n, dtype):
    """A borrowed (not reference-counted) 1-d view of n items of `dtype` at `address`.

    Lets an engine keep per-seat arrays in integer tables indexed by seat instead of in
    separate variables chosen by a switch."""
    return carray(_pointer_at(address, dtype), n)


@intrinsic
def jit_address(typingctx, fn):
    """The address of the compiled body of a first-class function value, or 0 if it has none
    (e.g. a cfunc). `call_decide` calls it."""
    if not isinstance(fn, types.FunctionType):
        return None
    sig = types.intp(fn)

    def codegen(context, builder, signature, args):
        sfunc = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
        return builder.ptrtoint(sfunc.jit_addr, context.get_value_type(types.intp))
    return sig, codegen


@intrinsic
def call_decide(typingctx, address, obs, params, rng):
    """Call the strategy compiled at `address` (from `jit_address`): `decide(obs, params, rng)`.

    The same call numba makes for a first-class function value (its own calling convention,
    exceptions propagated to the caller), but from an address kept in an integer table, so the
    engine needs no switch over seats to pick the function and its arguments."""
    if (obs, params, rng) != DECIDE_SIG.args:
        return None
    sig = DECIDE_SIG.return_type(address, obs, params, rng)

    def codegen(context, builder, signature, args):
        fnty = context.call_conv.get_function_type(DECIDE_SIG.return_type, DECIDE_SIG.args)
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        status, res = context.call_conv.call_function(
            builder, fn, DECIDE_SIG.return_type, DECIDE_SIG.args, args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return res
    return sig, codegen

