//===- TensorDims.cpp - dynamic sizes of xtensor types --------------------===//
//
// `#xtensor.dims`, the encoding that names the dynamic sizes of a tensor
// type (the Support library's SymbolicDimsAttrInterface reads it), and the
// verifier of the functions' `xtensor.symbols` declarations.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/IR/TensorOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xtile::tensor;

#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tensor/IR/TensorAttributes.cpp.inc"

void XTensorDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "xtile/Dialect/Tensor/IR/TensorAttributes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #xtensor.dims<T, B>
//===----------------------------------------------------------------------===//

Attribute DimsAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> symbols;
  auto parseSymbol = [&]() -> ParseResult {
    std::string name;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&name))
      return failure();
    if (name.empty())
      return parser.emitError(loc, "a dimension symbol must not be empty");
    symbols.push_back(parser.getBuilder().getStringAttr(name));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseSymbol))
    return {};
  if (symbols.empty()) {
    parser.emitError(parser.getCurrentLocation(),
                     "#xtensor.dims needs at least one symbol");
    return {};
  }
  return DimsAttr::get(parser.getContext(), symbols);
}

void DimsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(getSymbols(), printer, [&](StringAttr symbol) {
    printer.printKeywordOrString(symbol.getValue());
  });
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Building types with named sizes
//===----------------------------------------------------------------------===//

RankedTensorType xtile::tensor::getTensorType(ArrayRef<Dim> dims,
                                              Type elementType) {
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> symbols;
  for (const Dim &dim : dims) {
    shape.push_back(dim.size);
    if (dim.isDynamic())
      symbols.push_back(dim.symbol);
  }
  Attribute encoding;
  if (!symbols.empty())
    encoding = DimsAttr::get(elementType.getContext(), symbols);
  return RankedTensorType::get(shape, elementType, encoding);
}

//===----------------------------------------------------------------------===//
// xtensor.symbols = {T = array<i64: min, max>, ...} on functions
//===----------------------------------------------------------------------===//

LogicalResult
XTensorDialect::verifyOperationAttribute(Operation *op,
                                         NamedAttribute attribute) {
  if (attribute.getName() != kSymbolsAttrName)
    return op->emitError() << "unknown xtensor attribute '"
                           << attribute.getName().getValue() << "'";
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    return op->emitError() << "'" << kSymbolsAttrName
                           << "' belongs on a func.func";
  auto declared = dyn_cast<DictionaryAttr>(attribute.getValue());
  if (!declared)
    return op->emitError() << "'" << kSymbolsAttrName
                           << "' must be a dictionary {SYMBOL = array<i64: "
                              "min, max>}";
  for (NamedAttribute entry : declared) {
    auto range = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
    if (!range || range.size() != 2 || range[0] < 1 || range[0] > range[1])
      return op->emitError()
             << "symbol '" << entry.getName().getValue()
             << "' needs a range array<i64: min, max> with 1 <= min <= max";
  }
  // Every symbol is bound by an argument's size and declared.
  llvm::StringSet<> bound;
  for (Type type : func.getArgumentTypes())
    for (StringAttr symbol : getSymbols(type))
      bound.insert(symbol.getValue());
  for (NamedAttribute entry : declared)
    if (!bound.contains(entry.getName().getValue()))
      return op->emitError()
             << "symbol '" << entry.getName().getValue()
             << "' is declared but no argument has a size named by it";
  return success();
}

//===----------------------------------------------------------------------===//
// xtensor.in_place = RESULT on function arguments
//===----------------------------------------------------------------------===//

LogicalResult XTensorDialect::verifyRegionArgAttribute(
    Operation *op, unsigned regionIndex, unsigned argIndex,
    NamedAttribute attribute) {
  if (attribute.getName() != kInPlaceAttrName)
    return op->emitError() << "unknown xtensor argument attribute '"
                           << attribute.getName().getValue() << "'";
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func || regionIndex != 0)
    return op->emitError() << "'" << kInPlaceAttrName
                           << "' belongs on an argument of a func.func";
  auto result = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!result || result.getInt() < 0 ||
      result.getInt() >= int64_t(func.getNumResults()))
    return op->emitError() << "'" << kInPlaceAttrName << "' of argument #"
                           << argIndex << " must be the index of a result (0 to "
                           << int64_t(func.getNumResults()) - 1 << ")";
  int64_t r = result.getInt();
  if (func.getArgumentTypes()[argIndex] != func.getResultTypes()[r])
    return op->emitError() << "argument #" << argIndex << " ("
                           << func.getArgumentTypes()[argIndex]
                           << ") cannot hold result #" << r << " ("
                           << func.getResultTypes()[r]
                           << ") in place: the types differ";
  for (unsigned i = 0; i < argIndex; ++i)
    if (auto other = func.getArgAttrOfType<IntegerAttr>(i, kInPlaceAttrName);
        other && other.getInt() == r)
      return op->emitError() << "result #" << r << " is returned in place of "
                             << "both argument #" << i << " and argument #"
                             << argIndex;
  return success();
}

LogicalResult xtile::tensor::verifyDeclaredSymbols(Operation *op) {
  DictionaryAttr declared;
  bool looked = false;
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    for (StringAttr symbol : getSymbols(type)) {
      if (!looked) {
        looked = true;
        if (auto func = op->getParentOfType<func::FuncOp>())
          declared = func->getAttrOfType<DictionaryAttr>(kSymbolsAttrName);
      }
      if (declared && declared.contains(symbol.getValue()))
        continue;
      std::optional<SizeExpr> e = SizeExpr::parse(symbol.getValue());
      if (!declared || !e || e->isSymbol() || e->getConstant())
        return op->emitOpError()
               << "dynamic size '" << symbol.getValue() << "' of " << type
               << " is not declared in the enclosing function's '"
               << kSymbolsAttrName << "' (with its range)";
      if (e->str() != symbol.getValue())
        return op->emitOpError()
               << "dynamic size '" << symbol.getValue() << "' of " << type
               << " is an expression not in canonical form: write it '"
               << e->str() << "'";
      for (const std::string &name : e->getSymbols())
        if (!declared.contains(name))
          return op->emitOpError()
                 << "dynamic size '" << symbol.getValue() << "' of " << type
                 << " names '" << name
                 << "', which the enclosing function's '" << kSymbolsAttrName
                 << "' does not declare";
      auto range = e->range(
          [&](StringRef name) -> std::optional<std::pair<int64_t, int64_t>> {
            auto r = declared.getAs<DenseI64ArrayAttr>(name);
            if (!r || r.size() != 2)
              return std::nullopt;
            return std::make_pair(r[0], r[1]);
          });
      if (!range)
        return op->emitOpError()
               << "dynamic size '" << symbol.getValue() << "' of " << type
               << " does not fit in 64 bits over its symbols' declared ranges";
      if (range->first < 1)
        return op->emitOpError()
               << "dynamic size '" << symbol.getValue() << "' of " << type
               << " is " << range->first
               << " at the least of its symbols' declared ranges; a size "
                  "must be at least 1 (narrow the ranges)";
    }
  }
  return success();
}
