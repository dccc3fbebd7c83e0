//===- Reference.cpp - the float64 reference of Tensor IR -----------------===//

#include "xtile/Dialect/Tensor/Utils/Reference.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "xtile/Dialect/Tensor/Transforms/Passes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace xtile;
using namespace xtile::tensor;

namespace {

std::vector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// Calls `f(linear, coords)` for every element of `shape` in row-major order.
template <typename F> void forEach(ArrayRef<int64_t> shape, F f) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<int64_t> c(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    f(i, c);
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++c[d] < shape[d])
        break;
      c[d] = 0;
    }
  }
}

RefTensor make(RankedTensorType type) {
  RefTensor t;
  t.type = type;
  if (t.isInteger())
    t.integer.assign(type.getNumElements(), 0);
  else
    t.real.assign(type.getNumElements(), 0.0);
  return t;
}

void set(RefTensor &t, int64_t i, double real, int64_t integer) {
  if (t.isInteger())
    t.integer[i] = wrapToType(t.type.getElementType(), integer);
  else
    t.real[i] = real;
}

/// Copies element `from` of `src` to element `to` of `dst` (same kinds).
void copyElement(RefTensor &dst, int64_t to, const RefTensor &src,
                 int64_t from) {
  if (dst.isInteger())
    dst.integer[to] = src.integer[from];
  else
    dst.real[to] = src.real[from];
}

/// Where the element at coordinates `c` of a gather's result (a
/// scatter-add's source) is in its table (the gather's input, the
/// scatter-add's result) of `shape`: the index at `c[axis .. axis+k)` in
/// `idx` (k its rank) selects the slice; none out of range.
struct SliceElement {
  SliceElement(const RefTensor &idx, int64_t axis, ArrayRef<int64_t> shape)
      : idx(idx), axis(axis), k(idx.type.getRank()), shape(shape),
        idxStrides(stridesOf(idx.type.getShape())), strides(stridesOf(shape)) {}

  std::optional<int64_t> operator()(const std::vector<int64_t> &c) const {
    int64_t at = 0;
    for (int64_t d = 0; d < k; ++d)
      at += c[axis + d] * idxStrides[d];
    int64_t sel = idx.integer[at];
    if (sel < 0 || sel >= shape[axis])
      return std::nullopt;
    int64_t offset = sel * strides[axis];
    for (int64_t d = 0; d < axis; ++d)
      offset += c[d] * strides[d];
    for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
      offset += c[d + k - 1] * strides[d];
    return offset;
  }

  const RefTensor &idx;
  int64_t axis, k;
  ArrayRef<int64_t> shape;
  std::vector<int64_t> idxStrides, strides;
};

double nanOr(double x, double y, double r) {
  return std::isnan(x) || std::isnan(y) ? std::nan("") : r;
}

class Interpreter {
public:
  explicit Interpreter(bool roundOps) : roundOps(roundOps) {}
  LogicalResult run(func::FuncOp func, const std::vector<RefTensor> &inputs,
                    std::vector<RefTensor> &outputs);

private:
  FailureOr<RefTensor> eval(Operation *op);
  const RefTensor &get(Value v) { return values.find(v)->second; }
  DenseMap<Value, RefTensor> values;
  bool roundOps;
};

LogicalResult Interpreter::run(func::FuncOp func,
                               const std::vector<RefTensor> &inputs,
                               std::vector<RefTensor> &outputs) {
  for (auto [arg, in] : llvm::zip(func.getArguments(), inputs))
    values[arg] = in;
  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        outputs.push_back(get(v));
      return success();
    }
    FailureOr<RefTensor> result = eval(&op);
    if (failed(result))
      return failure();
    if (roundOps && !result->isInteger())
      for (double &v : result->real)
        v = roundToType(result->type.getElementType(), v);
    values[op.getResult(0)] = std::move(*result);
  }
  return func.emitError("has no return");
}

FailureOr<RefTensor> Interpreter::eval(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return op->emitOpError("is not executed by the reference interpreter");
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Type element = type.getElementType();
  RefTensor out = make(type);
  int64_t n = type.getNumElements();

  auto unary = [&](std::function<double(double)> f) -> LogicalResult {
    const RefTensor &x = get(op->getOperand(0));
    for (int64_t i = 0; i < n; ++i) {
      if (out.isInteger())
        out.integer[i] = wrapToType(element, int64_t(f(double(x.integer[i]))));
      else
        out.real[i] = f(x.real[i]);
    }
    return success();
  };
  auto binary = [&](std::function<double(double, double)> ff,
                    std::function<int64_t(int64_t, int64_t)> fi)
      -> LogicalResult {
    const RefTensor &x = get(op->getOperand(0));
    const RefTensor &y = get(op->getOperand(1));
    for (int64_t i = 0; i < n; ++i) {
      if (out.isInteger()) {
        if (!fi)
          return op->emitOpError("on integers is not executed by the "
                                 "reference interpreter");
        out.integer[i] = wrapToType(element, fi(x.integer[i], y.integer[i]));
      } else {
        out.real[i] = ff(x.real[i], y.real[i]);
      }
    }
    return success();
  };

  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case<NegOp>([&](auto) {
            return unary([](double x) { return -x; });
          })
          .Case<AbsOp>([&](auto) {
            return unary([](double x) { return std::fabs(x); });
          })
          .Case<ExpOp>([&](auto) { return unary([](double x) { return std::exp(x); }); })
          .Case<Exp2Op>([&](auto) { return unary([](double x) { return std::exp2(x); }); })
          .Case<LogOp>([&](auto) { return unary([](double x) { return std::log(x); }); })
          .Case<Log2Op>([&](auto) { return unary([](double x) { return std::log2(x); }); })
          .Case<SqrtOp>([&](auto) { return unary([](double x) { return std::sqrt(x); }); })
          .Case<RsqrtOp>([&](auto) { return unary([](double x) { return 1 / std::sqrt(x); }); })
          .Case<ReciprocalOp>([&](auto) { return unary([](double x) { return 1 / x; }); })
          .Case<SinOp>([&](auto) { return unary([](double x) { return std::sin(x); }); })
          .Case<CosOp>([&](auto) { return unary([](double x) { return std::cos(x); }); })
          .Case<TanhOp>([&](auto) { return unary([](double x) { return std::tanh(x); }); })
          .Case<ErfOp>([&](auto) { return unary([](double x) { return std::erf(x); }); })
          .Case<ErfcOp>([&](auto) { return unary([](double x) { return std::erfc(x); }); })
          .Case<SigmoidOp>([&](auto) {
            return unary([](double x) { return 1 / (1 + std::exp(-x)); });
          })
          .Case<FloorOp>([&](auto) { return unary([](double x) { return std::floor(x); }); })
          .Case<CeilOp>([&](auto) { return unary([](double x) { return std::ceil(x); }); })
          .Case<NotOp>([&](auto) -> LogicalResult {
            // Logical for i1 (its elements are 0 and 1: the complement of
            // either is nonzero), bitwise for wider integers.
            const RefTensor &x = get(op->getOperand(0));
            bool logical = element.isInteger(1);
            for (int64_t i = 0; i < n; ++i)
              out.integer[i] = logical ? x.integer[i] == 0
                                       : wrapToType(element, ~x.integer[i]);
            return success();
          })
          .Case<CastOp>([&](auto) -> LogicalResult {
            const RefTensor &x = get(op->getOperand(0));
            Type from = x.type.getElementType();
            for (int64_t i = 0; i < n; ++i) {
              if (element.isInteger(1)) {
                out.integer[i] = x.isInteger() ? x.integer[i] != 0 : x.real[i] != 0;
              } else if (out.isInteger()) {
                out.integer[i] = x.isInteger()
                                     ? wrapToType(element, x.integer[i])
                                     : wrapToType(element, int64_t(std::trunc(x.real[i])));
              } else {
                double v = x.isInteger() ? double(x.integer[i]) : x.real[i];
                // A cast to a narrower float is a rounding the program asks for.
                bool narrower = !x.isInteger() && isa<FloatType>(from) &&
                                element.getIntOrFloatBitWidth() <
                                    from.getIntOrFloatBitWidth();
                out.real[i] = narrower || x.isInteger() ? roundToType(element, v) : v;
              }
            }
            return success();
          })
          .Case<AddOp>([&](auto) {
            return binary([](double x, double y) { return x + y; },
                          [](int64_t x, int64_t y) { return int64_t(uint64_t(x) + uint64_t(y)); });
          })
          .Case<SubOp>([&](auto) {
            return binary([](double x, double y) { return x - y; },
                          [](int64_t x, int64_t y) { return int64_t(uint64_t(x) - uint64_t(y)); });
          })
          .Case<MulOp>([&](auto) {
            return binary([](double x, double y) { return x * y; },
                          [](int64_t x, int64_t y) { return int64_t(uint64_t(x) * uint64_t(y)); });
          })
          .Case<DivOp>([&](auto) {
            return binary([](double x, double y) { return x / y; },
                          [](int64_t x, int64_t y) { return y ? x / y : 0; });
          })
          .Case<RemOp>([&](auto) {
            return binary([](double x, double y) { return std::fmod(x, y); },
                          [](int64_t x, int64_t y) { return y ? x % y : 0; });
          })
          .Case<PowOp>([&](auto) {
            return binary([](double x, double y) { return std::pow(x, y); }, {});
          })
          .Case<MaxOp>([&](auto) {
            return binary([](double x, double y) { return nanOr(x, y, std::max(x, y)); },
                          [](int64_t x, int64_t y) { return std::max(x, y); });
          })
          .Case<MinOp>([&](auto) {
            return binary([](double x, double y) { return nanOr(x, y, std::min(x, y)); },
                          [](int64_t x, int64_t y) { return std::min(x, y); });
          })
          .Case<AndOp>([&](auto) {
            return binary({}, [](int64_t x, int64_t y) { return x & y; });
          })
          .Case<OrOp>([&](auto) {
            return binary({}, [](int64_t x, int64_t y) { return x | y; });
          })
          .Case<XorOp>([&](auto) {
            return binary({}, [](int64_t x, int64_t y) { return x ^ y; });
          })
          .Case<CmpOp>([&](CmpOp cmp) -> LogicalResult {
            const RefTensor &x = get(cmp.getLhs()), &y = get(cmp.getRhs());
            for (int64_t i = 0; i < n; ++i) {
              double a = x.at(i), b = y.at(i);
              bool r = false;
              switch (cmp.getPredicate()) {
              case CmpPredicate::eq: r = a == b; break;
              case CmpPredicate::ne: r = a != b; break;
              case CmpPredicate::lt: r = a < b; break;
              case CmpPredicate::le: r = a <= b; break;
              case CmpPredicate::gt: r = a > b; break;
              case CmpPredicate::ge: r = a >= b; break;
              }
              if (x.isInteger()) {
                int64_t p = x.integer[i], q = y.integer[i];
                switch (cmp.getPredicate()) {
                case CmpPredicate::eq: r = p == q; break;
                case CmpPredicate::ne: r = p != q; break;
                case CmpPredicate::lt: r = p < q; break;
                case CmpPredicate::le: r = p <= q; break;
                case CmpPredicate::gt: r = p > q; break;
                case CmpPredicate::ge: r = p >= q; break;
                }
              }
              out.integer[i] = r;
            }
            return success();
          })
          .Case<SelectOp>([&](SelectOp s) -> LogicalResult {
            const RefTensor &c = get(s.getCond());
            const RefTensor &t = get(s.getTrueValue()), &f = get(s.getFalseValue());
            for (int64_t i = 0; i < n; ++i)
              copyElement(out, i, c.integer[i] ? t : f, i);
            return success();
          })
          .Case<ConstantOp>([&](ConstantOp c) -> LogicalResult {
            auto dense = dyn_cast<DenseElementsAttr>(c.getValueAttr());
            if (!dense)
              return op->emitOpError("with a non-dense value is not executed "
                                     "by the reference interpreter");
            int64_t i = 0;
            if (out.isInteger())
              for (APInt v : dense.getValues<APInt>())
                out.integer[i++] = element.isInteger(1) ? v.getZExtValue() : v.getSExtValue();
            else
              for (APFloat v : dense.getValues<APFloat>()) {
                bool lost;
                v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
                out.real[i++] = v.convertToDouble();
              }
            return success();
          })
          .Case<IotaOp>([&](IotaOp iota) -> LogicalResult {
            int64_t dim = iota.getDim();
            forEach(type.getShape(), [&](int64_t i, const std::vector<int64_t> &c) {
              set(out, i, double(c[dim]), c[dim]);
            });
            return success();
          })
          .Case<ReduceOp>([&](ReduceOp r) -> LogicalResult {
            const RefTensor &x = get(r.getInput());
            ArrayRef<int64_t> inShape = x.type.getShape();
            llvm::SmallDenseSet<int64_t> reduced(r.getDims().begin(), r.getDims().end());
            // Output coordinates: the kept dimensions (with 1s when keepdim).
            std::vector<int64_t> outStrides = stridesOf(type.getShape());
            bool first = true;
            std::vector<char> seen(n, 0);
            (void)first;
            forEach(inShape, [&](int64_t i, const std::vector<int64_t> &c) {
              int64_t o = 0, k = 0;
              for (size_t d = 0; d < c.size(); ++d) {
                if (reduced.contains(d)) {
                  if (r.getKeepdim())
                    ++k;
                  continue;
                }
                o += c[d] * outStrides[k++];
              }
              if (!seen[o]) {
                seen[o] = 1;
                copyElement(out, o, x, i);
                return;
              }
              if (out.isInteger()) {
                int64_t a = out.integer[o], b = x.integer[i], v = a;
                switch (r.getKind()) {
                case ReduceKind::sum: v = int64_t(uint64_t(a) + uint64_t(b)); break;
                case ReduceKind::prod: v = int64_t(uint64_t(a) * uint64_t(b)); break;
                case ReduceKind::max: v = std::max(a, b); break;
                case ReduceKind::min: v = std::min(a, b); break;
                case ReduceKind::any: v = a | b; break;
                case ReduceKind::all: v = a & b; break;
                }
                out.integer[o] = wrapToType(element, v);
              } else {
                double a = out.real[o], b = x.real[i], v = a;
                switch (r.getKind()) {
                case ReduceKind::sum: v = a + b; break;
                case ReduceKind::prod: v = a * b; break;
                case ReduceKind::max: v = nanOr(a, b, std::max(a, b)); break;
                case ReduceKind::min: v = nanOr(a, b, std::min(a, b)); break;
                default: break;
                }
                // Sums accumulate in at least f32, as the kernels do.
                out.real[o] = roundOps && !element.isF64() ? double(float(v)) : v;
              }
            });
            for (int64_t o = 0; o < n; ++o)
              if (!seen[o]) // an empty reduction: the identity
                set(out, o, r.getKind() == ReduceKind::prod ? 1.0 : 0.0,
                    r.getKind() == ReduceKind::prod || r.getKind() == ReduceKind::all);
            return success();
          })
          .Case<ReshapeOp>([&](auto) -> LogicalResult {
            out = get(op->getOperand(0));
            out.type = type;
            return success();
          })
          .Case<TransposeOp>([&](TransposeOp t) -> LogicalResult {
            const RefTensor &x = get(t.getInput());
            std::vector<int64_t> inStrides = stridesOf(x.type.getShape());
            ArrayRef<int64_t> perm = t.getPerm();
            forEach(type.getShape(), [&](int64_t i, const std::vector<int64_t> &c) {
              int64_t from = 0;
              for (size_t d = 0; d < c.size(); ++d)
                from += c[d] * inStrides[perm[d]];
              copyElement(out, i, x, from);
            });
            return success();
          })
          .Case<BroadcastOp>([&](BroadcastOp bc) -> LogicalResult {
            const RefTensor &x = get(bc.getInput());
            ArrayRef<int64_t> in = x.type.getShape();
            std::vector<int64_t> inStrides = stridesOf(in);
            size_t lead = type.getRank() - in.size();
            forEach(type.getShape(), [&](int64_t i, const std::vector<int64_t> &c) {
              int64_t from = 0;
              for (size_t d = 0; d < in.size(); ++d)
                from += (in[d] == 1 ? 0 : c[lead + d]) * inStrides[d];
              copyElement(out, i, x, from);
            });
            return success();
          })
          .Case<SliceOp>([&](SliceOp s) -> LogicalResult {
            const RefTensor &x = get(s.getInput());
            std::vector<int64_t> inStrides = stridesOf(x.type.getShape());
            forEach(type.getShape(), [&](int64_t i, const std::vector<int64_t> &c) {
              int64_t from = 0;
              for (size_t d = 0; d < c.size(); ++d)
                from += (s.getStarts()[d] + c[d] * s.getStrides()[d]) * inStrides[d];
              copyElement(out, i, x, from);
            });
            return success();
          })
          .Case<PadOp>([&](PadOp p) -> LogicalResult {
            const RefTensor &x = get(p.getInput());
            ArrayRef<int64_t> in = x.type.getShape();
            std::vector<int64_t> inStrides = stridesOf(in);
            double pad = 0;
            int64_t padInt = 0;
            if (auto f = dyn_cast<FloatAttr>(p.getValue()))
              pad = f.getValueAsDouble();
            else if (auto iv = dyn_cast<IntegerAttr>(p.getValue()))
              padInt = iv.getValue().getSExtValue();
            forEach(type.getShape(), [&](int64_t i, const std::vector<int64_t> &c) {
              int64_t from = 0;
              bool inside = true;
              for (size_t d = 0; d < c.size(); ++d) {
                int64_t k = c[d] - p.getLow()[d];
                inside &= k >= 0 && k < in[d];
                from += k * inStrides[d];
              }
              if (inside)
                copyElement(out, i, x, from);
              else
                set(out, i, pad, padInt);
            });
            return success();
          })
          .Case<ConcatOp>([&](ConcatOp c) -> LogicalResult {
            int64_t dim = c.getDim();
            std::vector<int64_t> outStrides = stridesOf(type.getShape());
            int64_t offset = 0;
            for (Value in : c.getInputs()) {
              const RefTensor &x = get(in);
              forEach(x.type.getShape(), [&](int64_t i, const std::vector<int64_t> &co) {
                int64_t to = 0;
                for (size_t d = 0; d < co.size(); ++d)
                  to += (co[d] + (int64_t(d) == dim ? offset : 0)) * outStrides[d];
                copyElement(out, to, x, i);
              });
              offset += x.type.getDimSize(dim);
            }
            return success();
          })
          .Case<GatherOp>([&](GatherOp g) -> LogicalResult {
            const RefTensor &x = get(g.getInput());
            const RefTensor &idx = get(g.getIndices());
            SliceElement element(idx, g.getAxis(), x.type.getShape());
            bool bad = false;
            forEach(type.getShape(), [&](int64_t i, const std::vector<int64_t> &c) {
              std::optional<int64_t> from = element(c);
              if (!from) {
                bad = true;
                return;
              }
              copyElement(out, i, x, *from);
            });
            if (bad)
              return op->emitOpError("index out of range in the reference "
                                     "interpreter");
            return success();
          })
          .Case<ScatterAddOp>([&](ScatterAddOp sa) -> LogicalResult {
            const RefTensor &dest = get(sa.getDest());
            const RefTensor &src = get(sa.getSource());
            const RefTensor &idx = get(sa.getIndices());
            for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
              copyElement(out, i, dest, i);
            SliceElement element(idx, sa.getAxis(), type.getShape());
            bool bad = false;
            forEach(src.type.getShape(),
                    [&](int64_t i, const std::vector<int64_t> &c) {
              std::optional<int64_t> to = element(c);
              if (!to) {
                bad = true;
                return;
              }
              if (out.isInteger())
                out.integer[*to] = wrapToType(
                    type.getElementType(),
                    int64_t(uint64_t(out.integer[*to]) + uint64_t(src.integer[i])));
              else
                out.real[*to] += src.real[i];
            });
            if (bad)
              return op->emitOpError("index out of range in the reference "
                                     "interpreter");
            return success();
          })
          .Case<MatmulOp>([&](MatmulOp mm) -> LogicalResult {
            const RefTensor &a = get(mm.getLhs()), &b = get(mm.getRhs());
            int64_t rank = type.getRank();
            int64_t m = type.getDimSize(rank - 2), nn = type.getDimSize(rank - 1);
            int64_t k = a.type.getDimSize(rank - 1);
            int64_t batch = n / (m * nn);
            // i-k-j order: rows of B are read contiguously.
            std::vector<double> acc(nn);
            std::vector<int64_t> iacc(nn);
            for (int64_t bi = 0; bi < batch; ++bi)
              for (int64_t i = 0; i < m; ++i) {
                std::fill(acc.begin(), acc.end(), 0.0);
                std::fill(iacc.begin(), iacc.end(), 0);
                for (int64_t p = 0; p < k; ++p) {
                  int64_t ai = (bi * m + i) * k + p, row = (bi * k + p) * nn;
                  if (out.isInteger()) {
                    uint64_t av = uint64_t(a.integer[ai]);
                    for (int64_t j = 0; j < nn; ++j)
                      iacc[j] = int64_t(uint64_t(iacc[j]) +
                                        av * uint64_t(b.integer[row + j]));
                  } else {
                    double av = a.real[ai];
                    const double *brow = b.real.data() + row;
                    if (roundOps) // accumulate as a kernel in f32 does
                      for (int64_t j = 0; j < nn; ++j)
                        acc[j] = std::fma(float(av), float(brow[j]), float(acc[j]));
                    else
                      for (int64_t j = 0; j < nn; ++j)
                        acc[j] += av * brow[j];
                  }
                }
                for (int64_t j = 0; j < nn; ++j)
                  set(out, (bi * m + i) * nn + j, acc[j], iacc[j]);
              }
            return success();
          })
          .Default([&](Operation *) {
            return op->emitOpError("is not executed by the reference "
                                   "interpreter");
          });
  if (failed(result))
    return failure();
  return out;
}

} // namespace

FailureOr<std::vector<RefTensor>>
xtile::tensor::runReference(func::FuncOp func,
                            const std::vector<RefTensor> &inputs,
                            bool roundOps) {
  if (inputs.size() != func.getNumArguments())
    return func.emitError("the reference takes ")
           << func.getNumArguments() << " input(s), got " << inputs.size();
  // Composite ops run through their decomposition, in a copy of the
  // function in a module of its own.
  OpBuilder b(func.getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
  b.setInsertionPointToStart(scratch->getBody());
  auto copy = cast<func::FuncOp>(b.clone(*func));
  PassManager pm(func.getContext());
  pm.addPass(createXTensorDecompose());
  if (failed(pm.run(*scratch)))
    return failure();
  std::vector<RefTensor> outputs;
  Interpreter interpreter(roundOps);
  if (failed(interpreter.run(copy, inputs, outputs)))
    return failure();
  return outputs;
}
