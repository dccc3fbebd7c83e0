"""What the importer reports: the two errors, and why the Core ATen
operators without a lowering have none."""


class UnsupportedError(RuntimeError):
    """An op of the program that xtile cannot import."""


class DynamicSizeError(UnsupportedError):
    """An op that xtile cannot import with the dynamic sizes asked for (a
    size that is not a polynomial of them, T // 2; a strided slice of one;
    a variance over one; a size used as a value), though it could with
    static sizes: callers that can fall back to them catch this."""


_RANDOM = {"rand", "randn", "randint", "randperm", "rand_like", "randn_like",
           "randint_like", "native_dropout", "bernoulli", "normal", "uniform",
           "multinomial", "exponential", "poisson"}


def why_unsupported(name):
    """Why the ATen operator `name` has no lowering, where there is a
    reason to give; else None."""
    if name in _RANDOM:
        return ("it draws random numbers, which xtile's kernels do not (export the "
                "model in eval mode, or pass the random tensor as an input)")
    if name.startswith("_fft"):
        return "FFTs (complex tensors) are not supported"
    if name == "_local_scalar_dense":
        return ("it reads a tensor's value into Python (.item()), which makes the "
                "graph depend on the data")
    if name.endswith("_backward"):
        return ("it is a backward operator without a Core ATen decomposition (the "
                "others reach xtile decomposed)")
    if name.startswith("sym_"):
        return ("it constrains a size that depends on the data, which xtile does "
                "not support")
    return None
