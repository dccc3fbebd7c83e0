//===- TranslateToLaunchPlan.cpp - Kernel IR programs as JSON -------------===//

#include "xtile/Target/LaunchPlan/LaunchPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "xtile/Dialect/Kernel/IR/KernelDialect.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/SymbolicDims.h"
#include "xtile/Support/Storage.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
namespace xk = xtile::kernel;

namespace {

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The bytes of a buffer of `program`: for a dynamic one, the bytes of its
/// static dimensions, to be multiplied by its sizes (`sizes`, indices of
/// the program's sizes).
std::pair<int64_t, llvm::json::Array> bytesOf(xk::ProgramOp program,
                                              Value buffer) {
  int64_t bytes = xtile::getStaticNumBytes(buffer.getType());
  llvm::json::Array sizes;
  ArrayRef<BlockArgument> programSizes = program.getSizes();
  for (Value size : program.getBufferSizes(buffer))
    sizes.push_back(llvm::find(programSizes, size) - programSizes.begin());
  return {bytes, std::move(sizes)};
}

llvm::json::Object buffer(xk::ProgramOp program, StringRef role,
                          Value value) {
  auto type = cast<MemRefType>(value.getType());
  llvm::json::Array shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  auto [bytes, sizes] = bytesOf(program, value);
  return llvm::json::Object{{"role", role},
                            {"shape", std::move(shape)},
                            {"element", typeString(type.getElementType())},
                            {"bytes", bytes},
                            {"sizes", std::move(sizes)}};
}

/// An affine expression of a launch's sizes as JSON: an integer, {"size":
/// i} (the program's size i), or [kind, lhs, rhs] with kind add, mul,
/// floordiv, ceildiv or mod.
llvm::json::Value expressionOf(AffineExpr e, ArrayRef<int64_t> sizes) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto sym = dyn_cast<AffineSymbolExpr>(e))
    return llvm::json::Object{{"size", sizes[sym.getPosition()]}};
  auto bin = cast<AffineBinaryOpExpr>(e);
  StringRef kind;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    kind = "add";
    break;
  case AffineExprKind::Mul:
    kind = "mul";
    break;
  case AffineExprKind::FloorDiv:
    kind = "floordiv";
    break;
  case AffineExprKind::CeilDiv:
    kind = "ceildiv";
    break;
  default:
    kind = "mod";
    break;
  }
  return llvm::json::Array{kind, expressionOf(bin.getLHS(), sizes),
                           expressionOf(bin.getRHS(), sizes)};
}

/// For a size that is an expression of the program's other sizes (`T +
/// 1`), that expression as JSON: the value a caller must pass.
std::optional<llvm::json::Value> expressionOfSize(StringRef name,
                                                  ArrayAttr names,
                                                  MLIRContext *context) {
  std::optional<xtile::SizeExpr> e = xtile::SizeExpr::parse(name);
  if (!e || e->isSymbol() || e->getConstant())
    return std::nullopt;
  std::optional<AffineExpr> expr = e->toAffine(
      [&](StringRef symbol) -> std::optional<AffineExpr> {
        for (auto [i, n] : llvm::enumerate(names))
          if (cast<StringAttr>(n).getValue() == symbol)
            return getAffineSymbolExpr(i, context);
        return std::nullopt;
      },
      context);
  if (!expr)
    return std::nullopt;
  SmallVector<int64_t> positions =
      llvm::to_vector(llvm::seq<int64_t>(0, names.size()));
  return expressionOf(*expr, positions);
}

FailureOr<llvm::json::Object> planOf(xk::ProgramOp program) {
  Block &body = program.getBodyBlock();
  DenseMap<Value, int64_t> index;
  llvm::json::Array buffers, steps, sizes;
  ArrayRef<BlockArgument> programSizes = program.getSizes();
  if (std::optional<ArrayAttr> names = program.getSizeNames())
    for (auto [size, range] :
         llvm::zip(*names, xtile::getKernelSizeRanges(program))) {
      llvm::json::Object entry{{"name", cast<StringAttr>(size).getValue()},
                               {"min", range.first},
                               {"max", range.second}};
      if (std::optional<llvm::json::Value> of = expressionOfSize(
              cast<StringAttr>(size).getValue(), *names, program.getContext()))
        entry["of"] = std::move(*of);
      sizes.push_back(std::move(entry));
    }
  for (BlockArgument arg : program.getBuffers()) {
    index[arg] = buffers.size();
    bool input = arg.getArgNumber() < program.getNumInputs();
    llvm::json::Object b = buffer(program, input ? "input" : "output", arg);
    if (std::optional<ArrayRef<int64_t>> inPlace = program.getInPlace();
        inPlace && !input &&
        (*inPlace)[arg.getArgNumber() - program.getNumInputs()] >= 0)
      b["in_place_of"] = (*inPlace)[arg.getArgNumber() - program.getNumInputs()];
    buffers.push_back(std::move(b));
  }
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<xk::AllocOp>(op)) {
      index[alloc.getResult()] = buffers.size();
      buffers.push_back(buffer(program, "temporary", alloc.getResult()));
    } else if (auto map = dyn_cast<xk::TensorMapOp>(op)) {
      // 128 bytes of device memory that the host fills with the tensor map
      // of `of` (cuTensorMapEncodeTiled), before the launches after it.
      index[map.getResult()] = buffers.size();
      buffers.push_back(buffer(program, "tensor_map", map.getResult()));
      Type element =
          cast<MemRefType>(map.getSource().getType()).getElementType();
      steps.push_back(llvm::json::Object{
          {"tensor_map",
           llvm::json::Object{
               {"of", index.lookup(map.getSource())},
               {"to", index.lookup(map.getResult())},
               {"data_type", map.getDataType()},
               {"element_bytes", xtile::getElementBytes(element)},
               {"box", llvm::json::Array(map.getBox())},
               {"swizzle", static_cast<int64_t>(map.getSwizzle())}}}});
    } else if (auto copy = dyn_cast<xk::CopyOp>(op)) {
      auto [bytes, copySizes] = bytesOf(program, copy.getSource());
      steps.push_back(llvm::json::Object{
          {"copy", llvm::json::Object{{"from", index.lookup(copy.getSource())},
                                      {"to", index.lookup(copy.getTarget())}}},
          {"bytes", bytes},
          {"sizes", std::move(copySizes)}});
    } else if (auto launch = dyn_cast<xk::LaunchOp>(op)) {
      llvm::json::Array args, launchSizes;
      for (Value b : launch.getBuffers())
        args.push_back(index.lookup(b));
      SmallVector<int64_t> positions;
      for (Value size : launch.getSizes()) {
        positions.push_back(llvm::find(programSizes, size) -
                            programSizes.begin());
        launchSizes.push_back(positions.back());
      }
      llvm::json::Object step{
          {"launch", launch.getKernel()},
          {"grid", llvm::json::Array(launch.getGrid())},
          {"block", llvm::json::Array(launch.getBlock())},
          {"shared", static_cast<int64_t>(launch.getShared())},
          {"args", std::move(args)},
          {"sizes", std::move(launchSizes)}};
      if (std::optional<AffineMap> map = launch.getGridMap()) {
        llvm::json::Array gridMap;
        for (AffineExpr e : map->getResults())
          gridMap.push_back(expressionOf(e, positions));
        step["grid_map"] = std::move(gridMap);
      }
      // A bucket's launch: [min, max] of each of its sizes, in order.
      if (std::optional<ArrayRef<int64_t>> ranges = launch.getWhen()) {
        llvm::json::Array when;
        for (unsigned i = 0; i + 1 < ranges->size(); i += 2)
          when.push_back(llvm::json::Array{(*ranges)[i], (*ranges)[i + 1]});
        step["when"] = std::move(when);
      }
      steps.push_back(std::move(step));
    } else {
      return op.emitError("cannot write '")
             << op.getName() << "' into a launch plan";
    }
  }
  return llvm::json::Object{{"name", program.getSymName()},
                            {"inputs", static_cast<int64_t>(
                                           program.getNumInputs())},
                            {"sizes", std::move(sizes)},
                            {"buffers", std::move(buffers)},
                            {"steps", std::move(steps)}};
}

} // namespace

LogicalResult xtile::translateToLaunchPlan(Operation *module,
                                           raw_ostream &os) {
  llvm::json::Array programs;
  for (Region &region : module->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        if (auto program = dyn_cast<xk::ProgramOp>(op)) {
          FailureOr<llvm::json::Object> plan = planOf(program);
          if (failed(plan))
            return failure();
          programs.push_back(std::move(*plan));
        } else if (!isa<xk::FuncOp>(op)) {
          return op.emitError("cannot write '")
                 << op.getName()
                 << "' into a launch plan: expected Kernel IR (xkernel.func, "
                    "xkernel.program); run --lower-to-kernel first";
        }
      }
  os << llvm::formatv(
      "{0:2}\n", llvm::json::Value(llvm::json::Object{
                     {"programs", std::move(programs)}}));
  return success();
}

void xtile::registerToLaunchPlanTranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-launch-plan",
      "Write each Kernel IR program's buffers and launches as JSON, for a "
      "host that runs the PTX through the CUDA driver API",
      [](Operation *op, raw_ostream &os) {
        return translateToLaunchPlan(op, os);
      },
      [](DialectRegistry &registry) {
        registry.insert<xk::XKernelDialect, func::FuncDialect, arith::ArithDialect,
                        math::MathDialect, scf::SCFDialect,
                        vector::VectorDialect>();
      });
}
