//===- KernelSignature.cpp - kernel ops' shared syntax --------------------===//

#include "xtile/Support/KernelSignature.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

ParseResult xtile::parseKernel(OpAsmParser &parser, OperationState &result,
                               StringAttr numInputsName) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  SmallVector<OpAsmParser::Argument> inputs, outputs;
  if (parser.parseArgumentList(inputs, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseArrow() ||
      parser.parseArgumentList(outputs, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  // The op's own attributes must have their declared kinds (as generated
  // parsers check): a wrongly typed one would otherwise be dropped.
  llvm::SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      failed(result.name.verifyInherentAttrs(
          result.attributes, [&] { return parser.emitError(attrLoc); })))
    return failure();
  result.addAttribute(numInputsName,
                      parser.getBuilder().getI64IntegerAttr(inputs.size()));
  SmallVector<OpAsmParser::Argument> args(inputs);
  llvm::append_range(args, outputs);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void xtile::printKernel(OpAsmPrinter &p, Operation *op, StringRef name,
                        unsigned numInputs, StringAttr numInputsName) {
  p << ' ';
  p.printSymbolName(name);
  Block &body = op->getRegion(0).front();
  auto printArgs = [&](ArrayRef<BlockArgument> args) {
    p << '(';
    llvm::interleaveComma(
        args, p, [&](BlockArgument arg) { p.printRegionArgument(arg); });
    p << ')';
  };
  ArrayRef<BlockArgument> args = body.getArguments();
  printArgs(args.take_front(numInputs));
  p << " -> ";
  printArgs(args.drop_front(numInputs));
  p.printOptionalAttrDictWithKeyword(
      op->getAttrs(), {SymbolTable::getSymbolAttrName(), numInputsName});
  p << ' ';
  p.printRegion(op->getRegion(0), /*printEntryBlockArgs=*/false);
}

LogicalResult xtile::verifyKernelBuffers(Operation *op, Block &body,
                                         int64_t numInputs) {
  int64_t numArgs = body.getNumArguments();
  if (numInputs < 0)
    return op->emitOpError()
           << "num_inputs must be non-negative, got " << numInputs;
  if (numInputs > numArgs)
    return op->emitOpError() << "num_inputs " << numInputs << " exceeds its "
                             << numArgs << " buffers";
  if (numInputs == numArgs)
    return op->emitOpError() << "needs at least one output buffer";
  for (BlockArgument arg : body.getArguments())
    if (!isa<MemRefType>(arg.getType()) ||
        !cast<MemRefType>(arg.getType()).hasStaticShape())
      return op->emitOpError()
             << "buffer #" << arg.getArgNumber()
             << " must be a statically shaped memref, got " << arg.getType();
  return success();
}

std::optional<std::pair<ArrayRef<BlockArgument>, ArrayRef<BlockArgument>>>
xtile::getKernelBuffers(Operation *op) {
  auto numInputs = op->getAttrOfType<IntegerAttr>("num_inputs");
  if (!numInputs || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return std::nullopt;
  ArrayRef<BlockArgument> args = op->getRegion(0).front().getArguments();
  int64_t n = numInputs.getInt();
  if (n < 0 || n > static_cast<int64_t>(args.size()))
    return std::nullopt;
  return std::make_pair(args.take_front(n), args.drop_front(n));
}
