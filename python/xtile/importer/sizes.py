"""Dynamic sizes: how the importer names a torch.export Dim (a Sym), reads
a size of the graph (an int, a Sym, or an Expr it reports where an
operator takes it), and the declared range of each symbol."""
import re

import torch

from .errors import DynamicSizeError, UnsupportedError

# The declared maximum of a dynamic size that torch.export leaves
# unbounded (a Dim without max=): the int32 range.
UNBOUNDED_MAX = 2**31 - 1


class SymbolicExpression(DynamicSizeError):
    """A size that would be an expression of dynamic sizes (T * 2, T - 1):
    Tensor IR names each dynamic size by one symbol. The importer reports
    it with the operator that needs it."""

    def __init__(self, expr):
        super().__init__(expr)
        self.expr = expr


class Sym:
    """A dynamic size, named by its symbol (torch.export's Dim name, T), or
    by the canonical text of a size expression of symbols that PyTorch
    computed (`T + 1`, expression_text). Equal names are equal sizes.
    Arithmetic on it that would need an expression of symbols (T * 2,
    T - 1, T + S, a comparison with a number) raises SymbolicExpression;
    the identities T * 1, T + 0, T - 0 and T // 1 are T, and T - T is 0."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, Sym) and other.name == self.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("Sym", self.name))

    def __repr__(self):
        return self.name

    def __bool__(self):  # a size of at least 1
        return True

    def _expr(self, op, other, reflected=False):
        text = f"{other} {op} {self}" if reflected else f"{self} {op} {other}"
        raise SymbolicExpression(text)

    def __mul__(self, other):
        return self if is_int(other, 1) else self._expr("*", other)

    def __rmul__(self, other):
        return self if is_int(other, 1) else self._expr("*", other, True)

    def __add__(self, other):
        return self if is_int(other, 0) else self._expr("+", other)

    def __radd__(self, other):
        return self if is_int(other, 0) else self._expr("+", other, True)

    def __sub__(self, other):
        if is_int(other, 0):
            return self
        return 0 if other == self else self._expr("-", other)

    def __rsub__(self, other):
        return self._expr("-", other, True)

    def __floordiv__(self, other):
        return self if is_int(other, 1) else self._expr("//", other)

    def __rfloordiv__(self, other):
        return self._expr("//", other, True)

    def __truediv__(self, other):
        return self._expr("/", other)

    def __rtruediv__(self, other):
        return self._expr("/", other, True)

    def __mod__(self, other):
        return self._expr("%", other)

    def __rmod__(self, other):
        return self._expr("%", other, True)

    def __neg__(self):
        raise SymbolicExpression(f"-{self}")

    def __lt__(self, other):
        return self._expr("<", other)

    def __le__(self, other):
        return self._expr("<=", other)

    def __gt__(self, other):
        return self._expr(">", other)

    def __ge__(self, other):
        return self._expr(">=", other)

    def __index__(self):
        raise SymbolicExpression(f"the static value of {self}")

    __int__ = __float__ = __index__


def _term_text(monomial, coefficient, first):
    sign = ("-" if coefficient < 0 else "") if first else (" - " if coefficient < 0 else " + ")
    magnitude = abs(coefficient)
    number = f"{magnitude}{'*' if monomial else ''}" if not monomial or magnitude != 1 else ""
    return sign + number + "*".join(monomial)


def expression_text(terms):
    """The canonical text of a size expression (include/xtile/Support/
    SymbolicDims.h, SizeExpr): `terms` maps each monomial (its symbols
    sorted, with repeats) to its nonzero coefficient; terms in the order of
    their monomials, the number last (`S + 2*T + 3`)."""
    order = sorted(m for m in terms if m) + ([()] if () in terms else [])
    text = "".join(_term_text(m, terms[m], i == 0) for i, m in enumerate(order))
    return text or "0"


def polynomial(expr, names):
    """The terms of a sympy size expression that is a polynomial of the
    named size symbols with integer coefficients ({monomial: coefficient}),
    or None."""
    import sympy
    terms = {}
    for term in sympy.Add.make_args(sympy.expand(expr)):
        coefficient, rest = term.as_coeff_Mul()
        if not coefficient.is_Integer:
            return None
        monomial = []
        for factor in sympy.Mul.make_args(rest):
            if factor == 1:
                continue
            base, exponent = factor.as_base_exp()
            if base not in names or not exponent.is_Integer or exponent < 1:
                return None
            monomial += [names[base]] * int(exponent)
        key = tuple(sorted(monomial))
        terms[key] = terms.get(key, 0) + int(coefficient)
    return {m: c for m, c in terms.items() if c != 0}


def terms_of(name):
    """The terms of a size named `name` ({monomial: coefficient}): a
    symbol's, or a size expression's read from its text."""
    terms, sign, coefficient, monomial = {}, 1, 1, []

    def close():
        key = tuple(sorted(monomial))
        terms[key] = terms.get(key, 0) + sign * coefficient

    for t in re.findall(r"\d+|[A-Za-z_][A-Za-z0-9_]*|[-+*]", name):
        if t in "+-":
            if monomial or coefficient != 1 or terms:
                close()
            sign, coefficient, monomial = (1 if t == "+" else -1), 1, []
        elif t.isdigit():
            coefficient *= int(t)
        elif t != "*":
            monomial.append(t)
    close()
    return {m: c for m, c in terms.items() if c != 0}


def evaluate_size(name, values):
    """The value of the size named `name` ({symbol: value} binds its
    symbols): a symbol's, or a size expression's (`T + 1`)."""
    if name in values:
        return values[name]
    total = 0
    for monomial, coefficient in terms_of(name).items():
        for symbol in monomial:
            coefficient *= values[symbol]
        total += coefficient
    return total


def element_count(shape):
    """The element count of `shape` (ints and Syms) as terms of a
    polynomial of its symbols ({monomial: coefficient})."""
    count = {(): 1}
    for d in shape:
        factor = terms_of(d.name) if isinstance(d, Sym) else ({(): int(d)} if d else {})
        product = {}
        for a, ca in count.items():
            for b, cb in factor.items():
                key = tuple(sorted(a + b))
                product[key] = product.get(key, 0) + ca * cb
        count = {m: c for m, c in product.items() if c}
    return count


def size_product(shape):
    """The element count of `shape` as a size: an int, or a Sym named by
    the canonical text of the product of its sizes (8*T, B*T)."""
    terms = element_count(shape)
    if not any(terms.keys() - {()}):
        return terms.get((), 0)
    return Sym(expression_text(terms))


def add_size(d, k):
    """The size `d + k` (an int, or a Sym named by its canonical text)."""
    if not isinstance(d, Sym) or k == 0:
        return d + k
    terms = terms_of(d.name)
    terms[()] = terms.get((), 0) + k
    terms = {m: c for m, c in terms.items() if c}
    return Sym(expression_text(terms)) if any(terms.keys() - {()}) else terms.get((), 0)


def size_range(name, symbols):
    """[min, max] of the size named `name` over the declared ranges of its
    symbols (`symbols`: {symbol: (min, max)})."""
    lo = hi = 0
    for monomial, coefficient in terms_of(name).items():
        mlo = mhi = 1
        for symbol in monomial:
            mlo, mhi = mlo * symbols[symbol][0], mhi * symbols[symbol][1]
        lo += coefficient * (mlo if coefficient > 0 else mhi)
        hi += coefficient * (mhi if coefficient > 0 else mlo)
    return lo, hi


def offset(size, of):
    """`size - of` where it is a number (two Syms or ints), else None."""
    a = terms_of(size.name) if isinstance(size, Sym) else ({(): size} if size else {})
    b = terms_of(of.name) if isinstance(of, Sym) else ({(): of} if of else {})
    diff = {m: a.get(m, 0) - b.get(m, 0) for m in a.keys() | b.keys()}
    diff = {m: c for m, c in diff.items() if c}
    if any(diff.keys() - {()}):
        return None
    return diff.get((), 0)


def is_int(x, value):
    return isinstance(x, int) and not isinstance(x, bool) and x == value


def dim(d):
    """A size as the importer keeps it: an int, or a Sym."""
    return d if isinstance(d, Sym) else int(d)


def limits(sizes):
    """Slice limits in Tensor IR's form: a dynamic dimension (kept whole)
    is -1."""
    return [-1 if isinstance(n, Sym) else n for n in sizes]


def broadcast_shapes(*shapes):
    """PyTorch's broadcast of shapes whose sizes are ints or Syms: sizes
    aligned from the right, a 1 (or a missing size) taking the other."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(rank):
        sizes = {s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            raise UnsupportedError(f"shapes {[list(s) for s in shapes]} do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


class Expr:
    """A size the graph computes that is not exactly one dynamic size or a
    number: an expression of them (T*2, T - 1) or a condition (T >= 2).
    The importer carries it to the operator that takes it, which reports
    it (Tensor IR names each dynamic size by one symbol)."""

    def __init__(self, text, expr=None):
        self.text, self.expr = text, expr

    def __repr__(self):
        return self.text


def unbacked(expr):
    """Whether `expr` has a data-dependent size symbol (nonzero's u0)."""
    try:
        from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
        return bool(free_unbacked_symbols(expr))
    except ImportError:
        return any(str(s).startswith("u") for s in expr.free_symbols)


class Shape:
    """A stand-in for a node's value where only the shape matters."""

    def __init__(self, shape, dtype=torch.bool):
        self.shape, self.dtype = tuple(shape), dtype


class DynamicSizes:
    """The dynamic sizes of one exported program: each torch size symbol
    met is given a name (its Dim's, where torch keeps it) and its range."""

    def __init__(self, exported):
        self.ep = exported
        self.symbols = {}      # dynamic size name -> (min, max), declared
        self._names = {}       # torch's size symbol (s27) -> its name

    def symbol_name(self, sym, shape_env):
        """The name of torch's size symbol `sym`: the name of the
        torch.export Dim it stands for, where torch keeps it (the shape
        environment names the input size it came from), else the
        symbol's own (s27)."""
        names = getattr(shape_env, "source_name_to_debug_name", None) or {}
        for source in (getattr(shape_env, "var_to_sources", None) or {}).get(sym, []):
            try:
                key = source.name() if callable(source.name) else source.name
            except Exception:  # noqa: BLE001 - torch's internals; fall back
                continue
            name = names.get(key)
            if (isinstance(name, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)
                    and name not in self.symbols):
                return name
        return str(sym)

    def declared_range(self, sym):
        """[min, max] of a size symbol, from the program's range
        constraints: min at least 1, max UNBOUNDED_MAX where unbounded."""
        r = self.ep.range_constraints.get(sym)
        lo = r.lower if r is not None else 1
        hi = r.upper if r is not None else None
        lo = max(1, int(lo)) if getattr(lo, "is_Integer", isinstance(lo, int)) else 1
        hi = (int(hi) if getattr(hi, "is_Integer", isinstance(hi, int)) and hi is not None
              else UNBOUNDED_MAX)
        return lo, max(lo, hi)

    def size(self, d):
        """A size of the graph (an int, or a torch SymInt/SymBool) as the
        importer keeps it: an int, a Sym where it is exactly one dynamic
        size, else an Expr."""
        if isinstance(d, (bool, int)):
            return d
        node = getattr(d, "node", None)
        expr = getattr(node, "expr", None)
        if expr is None:
            return Expr(str(d))
        if isinstance(d, torch.SymInt) and expr.is_Integer:
            return int(expr)
        if isinstance(d, torch.SymInt) and expr.is_Symbol and not unbacked(expr):
            if expr not in self._names:
                name = self.symbol_name(expr, getattr(node, "shape_env", None))
                self._names[expr] = name
                self.symbols[name] = self.declared_range(expr)
            return Sym(self._names[expr])
        if isinstance(d, torch.SymInt) and not unbacked(expr):
            # A polynomial of named sizes with integer coefficients (T + 1,
            # 2*T, B*T): a size expression, named by its canonical text.
            terms = polynomial(expr, self._names)
            if terms and any(terms.keys() - {()}):
                return Sym(expression_text(terms))
        import sympy
        readable = expr.xreplace({s: sympy.Symbol(self._names[s])
                                  for s in expr.free_symbols if s in self._names})
        return Expr(str(readable), expr)

    def shaped(self, what, val):
        """A node's value with dynamic sizes as Sym (a Shape), or as it
        is where its sizes are static. A size that is an expression of
        dynamic sizes cannot be represented: an UnsupportedError."""
        if isinstance(val, (list, tuple)):
            return type(val)(self.shaped(what, v) for v in val)
        if not isinstance(val, torch.Tensor) or all(isinstance(d, int) for d in val.shape):
            return val
        shape = [self.size(d) for d in val.shape]
        bad = [d for d in shape if isinstance(d, Expr)]
        if any(d.expr is None or unbacked(d.expr) for d in bad):
            raise UnsupportedError(
                f"operator {what} gives a tensor whose shape depends on "
                f"the data ({list(val.shape)}), which xtile does not support")
        if bad:
            raise DynamicSizeError(
                f"operator {what} gives a tensor of shape {shape}, whose size "
                f"{bad[0]} is an expression of dynamic sizes: xtile supports a "
                "dynamic size only where it is exactly one symbol (a "
                "torch.export Dim)")
        return Shape(shape, val.dtype)
