//===- Interpreter.cpp - reference execution of Loop IR -------------------===//

#include "xtile/Dialect/Loop/Utils/Interpreter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/SymbolTable.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Support/SymbolicDims.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <vector>

using namespace mlir;
using xtile::SizeExpr;
using namespace xtile::loop;

namespace {

class KernelRunner {
public:
  KernelRunner(DenseMap<Value, HostTensor *> buffers,
               ArrayRef<std::pair<Value, int64_t>> sizes)
      : buffers(std::move(buffers)) {
    for (auto [size, value] : sizes)
      env[size] = static_cast<double>(value);
  }

  LogicalResult run(Block &block) {
    for (Operation &op : block)
      if (failed(exec(&op)))
        return failure();
    return success();
  }

private:
  double get(Value v) { return env.lookup(v); }

  /// A loop's upper bound: its constant, or its size's value.
  template <typename Loop>
  int64_t upperOf(Loop loop) {
    if (Value size = loop.getDynamicUpper())
      return static_cast<int64_t>(get(size));
    return loop.getStaticUpper();
  }

  int64_t offset(HostTensor &t, OperandRange indices) {
    int64_t linear = 0;
    for (auto [i, index] : llvm::enumerate(indices)) {
      int64_t at = static_cast<int64_t>(get(index));
      if (at < 0 || at >= t.shape[i])
        return -1;
      linear = linear * t.shape[i] + at;
    }
    return linear;
  }

  double evalAffine(AffineExpr e, ValueRange operands) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return get(operands[d.getPosition()]);
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return static_cast<double>(c.getValue());
    auto bin = cast<AffineBinaryOpExpr>(e);
    auto l = static_cast<int64_t>(evalAffine(bin.getLHS(), operands));
    auto r = static_cast<int64_t>(evalAffine(bin.getRHS(), operands));
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return l + r;
    case AffineExprKind::Mul:
      return l * r;
    case AffineExprKind::FloorDiv:
      return static_cast<double>(llvm::divideFloorSigned(l, r));
    case AffineExprKind::CeilDiv:
      return static_cast<double>(llvm::divideCeilSigned(l, r));
    case AffineExprKind::Mod:
      return static_cast<double>(l - llvm::divideFloorSigned(l, r) * r);
    default:
      return 0;
    }
  }

  static double combine(CombineKind kind, double a, double b) {
    switch (kind) {
    case CombineKind::add:
      return a + b;
    case CombineKind::mul:
      return a * b;
    case CombineKind::max:
      return (std::isnan(a) || std::isnan(b)) ? NAN : std::max(a, b);
    case CombineKind::min:
      return (std::isnan(a) || std::isnan(b)) ? NAN : std::min(a, b);
    case CombineKind::And:
      return (a != 0 && b != 0) ? 1 : 0;
    case CombineKind::Or:
      return (a != 0 || b != 0) ? 1 : 0;
    }
    return 0;
  }

  LogicalResult exec(Operation *op) {
    auto arg = [&](unsigned i) { return get(op->getOperand(i)); };
    auto set = [&](double v) {
      env[op->getResult(0)] = v;
      return success();
    };
    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](ParallelOp loop) {
          for (int64_t i = loop.getLower(), n = upperOf(loop); i < n; ++i) {
            env[loop.getInductionVar()] = static_cast<double>(i);
            if (failed(run(loop.getBodyBlock())))
              return failure();
          }
          return success();
        })
        .Case([&](FoldOp fold) {
          double acc = get(fold.getInit());
          for (int64_t i = fold.getLower(), n = upperOf(fold); i < n; ++i) {
            env[fold.getInductionVar()] = static_cast<double>(i);
            if (failed(run(fold.getBodyBlock())))
              return failure();
            acc = combine(fold.getCombine(), acc, get(fold.getYieldedValue()));
          }
          env[fold.getResult()] = acc;
          return success();
        })
        .Case([&](OnlineFoldOp fold) {
          // By the definition: the maximum first, then the sums.
          std::vector<double> scores;
          std::vector<std::vector<double>> weights;
          double max = -INFINITY;
          for (int64_t i = fold.getLower(), n = upperOf(fold); i < n; ++i) {
            env[fold.getInductionVar()] = static_cast<double>(i);
            if (failed(run(fold.getBodyBlock())))
              return failure();
            scores.push_back(get(fold.getYieldedScore()));
            max = combine(CombineKind::max, max, scores.back());
            weights.emplace_back();
            for (Value w : fold.getYieldedWeights())
              weights.back().push_back(get(w));
          }
          double sum = 0;
          std::vector<double> acc(fold.getAccumulators().size(), 0.0);
          if (max != -INFINITY)
            for (size_t j = 0; j < scores.size(); ++j) {
              double e = std::exp(scores[j] - max);
              sum += e;
              for (size_t k = 0; k < acc.size(); ++k)
                acc[k] += e * weights[j][k];
            }
          env[fold.getMax()] = max;
          env[fold.getSum()] = sum;
          for (auto [r, v] : llvm::zip(fold.getAccumulators(), acc))
            env[r] = v;
          return success();
        })
        .Case([&](YieldOp) { return success(); })
        .Case([&](LoadOp load) -> LogicalResult {
          HostTensor *t = buffers.lookup(load.getBuffer());
          int64_t at = t ? offset(*t, load.getIndices()) : -1;
          if (at < 0)
            return load.emitOpError("reads out of bounds");
          return set(t->data[at]);
        })
        .Case([&](StoreOp store) -> LogicalResult {
          HostTensor *t = buffers.lookup(store.getBuffer());
          int64_t at = t ? offset(*t, store.getIndices()) : -1;
          if (at < 0)
            return store.emitOpError("writes out of bounds");
          if (Value c = store.getCondition(); c && get(c) == 0)
            return success();
          if (store.getAccumulate())
            t->data[at] += get(store.getValue());
          else
            t->data[at] = get(store.getValue());
          return success();
        })
        .Case([&](arith::ConstantOp c) -> LogicalResult {
          if (auto f = dyn_cast<FloatAttr>(c.getValue()))
            return set(f.getValueAsDouble());
          if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
            return set(c.getType().isInteger(1)
                           ? static_cast<double>(i.getValue().getBoolValue())
                           : static_cast<double>(i.getValue().getSExtValue()));
          return c.emitOpError("is not a scalar constant");
        })
        .Case([&](affine::AffineApplyOp a) {
          return set(
              evalAffine(a.getAffineMap().getResult(0), a.getOperands()));
        })
        .Case<arith::AddFOp, arith::AddIOp>(
            [&](auto) { return set(arg(0) + arg(1)); })
        .Case<arith::SubFOp, arith::SubIOp>(
            [&](auto) { return set(arg(0) - arg(1)); })
        .Case<arith::MulFOp, arith::MulIOp>(
            [&](auto) { return set(arg(0) * arg(1)); })
        .Case([&](arith::DivFOp) { return set(arg(0) / arg(1)); })
        .Case([&](arith::DivSIOp) { return set(std::trunc(arg(0) / arg(1))); })
        .Case([&](arith::RemFOp) { return set(std::fmod(arg(0), arg(1))); })
        .Case([&](arith::RemSIOp) { return set(std::fmod(arg(0), arg(1))); })
        .Case([&](arith::NegFOp) { return set(-arg(0)); })
        .Case<arith::MaximumFOp, arith::MaxSIOp>([&](auto) {
          return set(combine(CombineKind::max, arg(0), arg(1)));
        })
        .Case<arith::MinimumFOp, arith::MinSIOp>([&](auto) {
          return set(combine(CombineKind::min, arg(0), arg(1)));
        })
        .Case([&](arith::AndIOp) {
          return set(static_cast<double>(static_cast<int64_t>(arg(0)) &
                                         static_cast<int64_t>(arg(1))));
        })
        .Case([&](arith::OrIOp) {
          return set(static_cast<double>(static_cast<int64_t>(arg(0)) |
                                         static_cast<int64_t>(arg(1))));
        })
        .Case([&](arith::XOrIOp x) {
          auto r = static_cast<int64_t>(arg(0)) ^ static_cast<int64_t>(arg(1));
          // i1 stays 0 or 1 (xor with all ones is logical not).
          return set(x.getType().isInteger(1) ? double(r & 1) : double(r));
        })
        .Case(
            [&](arith::SelectOp) { return set(arg(0) != 0 ? arg(1) : arg(2)); })
        .Case([&](arith::CmpFOp c) -> LogicalResult {
          double a = arg(0), b = arg(1);
          bool unordered = std::isnan(a) || std::isnan(b);
          switch (c.getPredicate()) {
          case arith::CmpFPredicate::OEQ:
            return set(!unordered && a == b);
          case arith::CmpFPredicate::UNE:
            return set(unordered || a != b);
          case arith::CmpFPredicate::OLT:
            return set(!unordered && a < b);
          case arith::CmpFPredicate::OLE:
            return set(!unordered && a <= b);
          case arith::CmpFPredicate::OGT:
            return set(!unordered && a > b);
          case arith::CmpFPredicate::OGE:
            return set(!unordered && a >= b);
          default:
            return c.emitOpError("predicate not interpreted");
          }
        })
        .Case([&](arith::CmpIOp c) -> LogicalResult {
          double a = arg(0), b = arg(1);
          switch (c.getPredicate()) {
          case arith::CmpIPredicate::eq:
            return set(a == b);
          case arith::CmpIPredicate::ne:
            return set(a != b);
          case arith::CmpIPredicate::slt:
            return set(a < b);
          case arith::CmpIPredicate::sle:
            return set(a <= b);
          case arith::CmpIPredicate::sgt:
            return set(a > b);
          case arith::CmpIPredicate::sge:
            return set(a >= b);
          default:
            return c.emitOpError("predicate not interpreted");
          }
        })
        // Conversions keep the value; precision is double throughout.
        .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
              arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp,
              arith::TruncIOp>([&](auto) { return set(arg(0)); })
        .Case([&](arith::FPToSIOp) { return set(std::trunc(arg(0))); })
        .Case([&](math::ExpOp) { return set(std::exp(arg(0))); })
        .Case([&](math::Exp2Op) { return set(std::exp2(arg(0))); })
        .Case([&](math::LogOp) { return set(std::log(arg(0))); })
        .Case([&](math::Log2Op) { return set(std::log2(arg(0))); })
        .Case([&](math::SqrtOp) { return set(std::sqrt(arg(0))); })
        .Case([&](math::RsqrtOp) { return set(1 / std::sqrt(arg(0))); })
        .Case([&](math::SinOp) { return set(std::sin(arg(0))); })
        .Case([&](math::CosOp) { return set(std::cos(arg(0))); })
        .Case([&](math::TanhOp) { return set(std::tanh(arg(0))); })
        .Case([&](math::ErfOp) { return set(std::erf(arg(0))); })
        .Case([&](math::ErfcOp) { return set(std::erfc(arg(0))); })
        .Case([&](math::FloorOp) { return set(std::floor(arg(0))); })
        .Case([&](math::CeilOp) { return set(std::ceil(arg(0))); })
        .Case<math::AbsFOp, math::AbsIOp>(
            [&](auto) { return set(std::fabs(arg(0))); })
        .Case([&](math::PowFOp) { return set(std::pow(arg(0), arg(1))); })
        .Default([&](Operation *other) -> LogicalResult {
          return other->emitOpError(
              "is not supported by the Loop IR interpreter");
        });
  }

  DenseMap<Value, HostTensor *> buffers;
  DenseMap<Value, double> env;
};

HostTensor fromAttr(DenseElementsAttr attr) {
  HostTensor t;
  auto type = cast<ShapedType>(attr.getType());
  t.shape.assign(type.getShape().begin(), type.getShape().end());
  if (isa<FloatType>(type.getElementType()))
    for (const APFloat &v : attr.getValues<APFloat>())
      t.data.push_back(v.convertToDouble());
  else
    for (const APInt &v : attr.getValues<APInt>())
      t.data.push_back(type.getElementType().isInteger(1)
                           ? double(v.getBoolValue())
                           : double(v.getSExtValue()));
  return t;
}

} // namespace

FailureOr<std::vector<HostTensor>>
xtile::loop::interpret(ModuleOp module, func::FuncOp func,
                       const std::vector<HostTensor> &inputs) {
  SymbolTable symbols(module);
  DenseMap<Value, HostTensor> values;
  // The dynamic sizes, from the arguments' shapes.
  llvm::StringMap<int64_t> bound;
  for (auto [arg, input] : llvm::zip(func.getArguments(), inputs)) {
    values[arg] = input;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    if (static_cast<int64_t>(input.shape.size()) != type.getRank())
      return func.emitOpError() << "argument #" << arg.getArgNumber()
                                << " has rank " << input.shape.size()
                                << ", expected " << type;
    for (auto [d, dim] : llvm::enumerate(xtile::getDims(type))) {
      int64_t size = input.shape[d];
      if (!dim.isDynamic()) {
        if (size != dim.size)
          return func.emitOpError()
                 << "argument #" << arg.getArgNumber() << " has size " << size
                 << " in dimension " << d << ", expected " << type;
        continue;
      }
      if (std::optional<SizeExpr> e = SizeExpr::of(dim); e && !e->isSymbol())
        continue; // an expression of the symbols: checked once they are bound
      auto [it, inserted] = bound.try_emplace(dim.symbol.getValue(), size);
      if (!inserted && it->second != size)
        return func.emitOpError()
               << "dynamic size '" << dim.symbol.getValue() << "' is "
               << it->second << " and " << size << " in the arguments";
    }
  }
  for (auto [arg, input] : llvm::zip(func.getArguments(), inputs))
    if (auto type = dyn_cast<RankedTensorType>(arg.getType()))
      for (auto [d, dim] : llvm::enumerate(xtile::getDims(type)))
        if (dim.isDynamic() &&
            xtile::evaluateSize(dim.symbol.getValue(), bound) != input.shape[d])
          return func.emitOpError()
                 << "argument #" << arg.getArgNumber() << " has size "
                 << input.shape[d] << " in dimension " << d
                 << ", which is not its size '" << dim.symbol.getValue()
                 << "' at the sizes the arguments bind";
  for (Operation &op : func.getBody().front()) {
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense)
        return c.emitOpError("is not a tensor constant");
      values[c.getResult()] = fromAttr(dense);
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::vector<HostTensor> out;
      for (Value v : ret.getOperands())
        out.push_back(values[v]);
      return out;
    }
    auto launch = dyn_cast<LaunchOp>(op);
    if (!launch)
      return op.emitOpError("is not supported by the Loop IR interpreter");
    auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
    if (!kernel)
      return launch.emitOpError("launches an unknown kernel");
    std::vector<HostTensor> outputs;
    std::optional<ArrayRef<int64_t>> updates = launch.getUpdates();
    for (auto [i, t] : llvm::enumerate(launch.getResultTypes())) {
      // An output updated in place starts as the operand it updates.
      if (updates && (*updates)[i] >= 0) {
        outputs.push_back(values[launch.getInputs()[(*updates)[i]]]);
        continue;
      }
      HostTensor h;
      int64_t elements = 1;
      for (const xtile::Dim &dim : xtile::getDims(cast<RankedTensorType>(t))) {
        int64_t size =
            dim.isDynamic()
                ? xtile::evaluateSize(dim.symbol.getValue(), bound).value_or(0)
                : dim.size;
        h.shape.push_back(size);
        elements *= size;
      }
      h.data.assign(elements, std::nan(""));
      outputs.push_back(std::move(h));
    }
    SmallVector<std::pair<Value, int64_t>> sizes;
    for (auto [size, name] : llvm::zip(
             kernel.getSizes(), launch.getSizes().getAsValueRange<StringAttr>())) {
      std::optional<int64_t> value = xtile::evaluateSize(name, bound);
      if (!value)
        return launch.emitOpError() << "passes the size '" << name
                                    << "', which no argument binds";
      sizes.push_back({size, *value});
    }
    std::vector<HostTensor> ins;
    for (Value v : launch.getInputs())
      ins.push_back(values[v]);
    DenseMap<Value, HostTensor *> buffers;
    for (auto [arg, t] : llvm::zip(kernel.getInputs(), ins))
      buffers[arg] = &t;
    for (auto [arg, t] : llvm::zip(kernel.getOutputs(), outputs))
      buffers[arg] = &t;
    KernelRunner runner(std::move(buffers), sizes);
    if (failed(runner.run(kernel.getBodyBlock())))
      return failure();
    for (auto [result, t] : llvm::zip(launch.getResults(), outputs))
      values[result] = std::move(t);
  }
  return func.emitOpError("has no return");
}
