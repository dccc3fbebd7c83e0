//===- SymbolicDims.td - named dynamic sizes ------------------*- tablegen -*-===//
//
// The vocabulary of named dynamic sizes that every IR level above Support
// reads: a tensor type's encoding names its `?` sizes, and a function
// declares the names with their ranges. The Tensor dialect's
// `#xtensor.dims` implements the interface; Loop IR and the lowerings read
// sizes through it without knowing the Tensor dialect.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_SYMBOLICDIMS_TD
#define XTILE_SUPPORT_SYMBOLICDIMS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"

def XTile_SymbolicDimsAttrInterface
    : AttrInterface<"SymbolicDimsAttrInterface"> {
  let cppNamespace = "::xtile";
  let description = [{
    A tensor type encoding that names the type's dynamic sizes: one symbol
    per `?`, in order. Equal symbols are equal sizes.
  }];
  let methods = [
    InterfaceMethod<"The symbols of the dynamic sizes, in order.",
                    "::llvm::ArrayRef<::mlir::StringAttr>", "getSymbols">,
  ];
}

#endif // XTILE_SUPPORT_SYMBOLICDIMS_TD
