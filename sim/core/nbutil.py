"""Small numba helpers shared by the fast engines."""
from llvmlite import ir
from numba import carray, njit, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic

from .strategy_api import DECIDE_SIG, DECIDE_TYPE


def no_int_literals(dispatcher):
    """`dispatcher`, compiled once for integer arguments however its callers pass them.

    Called from compiled code, numba compiles a function once per distinct integer constant at
    its call sites: `f(x, 0)` and `f(x, -1)` type their constants as Literal[int](0) and
    Literal[int](-1), two compilations of f and of everything f calls. This types integer
    constants as int64 instead (booleans keep their literal types, one compilation per value,
    which are wanted). Apply it above `@njit` to functions called with constants from many
    places (what their variants cost: docs/engine-performance.md, "Compile time")."""
    typed = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed(tuple(_plain(a) for a in args), {k: _plain(v) for k, v in kws.items()})
    dispatcher.get_call_template = get_call_template
    return dispatcher


def _plain(t):
    return types.unliteral(t) if isinstance(t, types.IntegerLiteral) else t


@intrinsic
def _data_ptr(typingctx, arr):
    if arr.layout != "C":   # a carray over any other layout reads the wrong cells, silently
        raise TypingError(f"borrowed needs a C-contiguous array, got layout {arr.layout!r}")
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
def _data_ptr_plus(typingctx, arr, offset, dtype):
    ty = dtype.dtype if isinstance(dtype, types.DType) else dtype.instance_type
    if ty.bitwidth != arr.dtype.bitwidth:
        return None
    sig = types.CPointer(ty)(arr, offset, dtype)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        ptr = builder.gep(data, [args[1]], inbounds=True)
        return builder.bitcast(ptr, context.get_value_type(signature.return_type))
    return sig, codegen


@njit(cache=True, inline="always")
def part(a, start, n):
    """A borrowed view of a[start:start + n] (C-contiguous 1-d `a`, not reference-counted).

    With a constant `start`, views of one block are constant offsets of one pointer: LLVM
    addresses them all from one register, where separate arrays each need their own."""
    return carray(_data_ptr_plus(a, start, a.dtype), n)


@njit(cache=True, inline="always")
def part_as(a, start, n, dtype):
    """`part` reinterpreted as items of `dtype`, of the same size (e.g. float64 in int64)."""
    return carray(_data_ptr_plus(a, start, dtype), n)


@intrinsic
def nonneg(typingctx, x):
    """x, with the promise to LLVM that it is >= 0 (an index or a count read from memory).

    numba wraps negative indices (`a[-1]`), which costs instructions and keeps LLVM from folding
    `a[i]` into one addressing mode; a signed `//` also needs sign fix-ups. Known non-negative
    values need neither."""
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        builder.assume(builder.icmp_signed(">=", args[0], args[0].type(0)))
        return args[0]
    return sig, codegen


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
    (e.g. a cfunc). `call_decide` calls it. A dispatcher (typed as itself, e.g. a tuple of one
    lazily compiled function) is first made a function value of the strategy signature."""
    if isinstance(fn, types.FunctionType):
        fnty = fn
    elif isinstance(fn, types.Dispatcher):
        fnty = DECIDE_TYPE
    else:
        return None
    sig = types.intp(fn)

    def codegen(context, builder, signature, args):
        value = args[0]
        if fnty is not signature.args[0]:
            value = context.cast(builder, value, signature.args[0], fnty)
        sfunc = cgutils.create_struct_proxy(fnty)(context, builder, value=value)
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


# ---------------------------------------------------------------- bit tricks
@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero int64."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return sig, codegen
