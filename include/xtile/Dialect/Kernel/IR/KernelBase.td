//===- KernelBase.td - xkernel dialect definition ---------*- tablegen -*-===//
//
// Kernel IR: abstract CUDA. What each thread of a block does, and the
// host-side sequence of launches.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_KERNEL_IR_KERNELBASE_TD
#define XTILE_DIALECT_KERNEL_IR_KERNELBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def XKernel_Dialect : Dialect {
  let name = "xkernel";
  let cppNamespace = "::xtile::kernel";
  let summary = "Kernel IR: abstract CUDA, thread by thread";
  let description = [{
    `xkernel` is the fourth and last level of the stack. A kernel
    (`xkernel.func`) is the code one thread runs: thread and block ids,
    typed pointers into global and shared memory, scalar and 16-byte vector
    loads and stores, barriers, warp shuffles, atomics and asynchronous
    copies into shared memory (cp.async). Scalars and control flow are
    upstream `arith`, `math`, `scf` and `vector` (for the lanes of a vector
    access). A program (`xkernel.program`) is the host side: the buffers of
    a graph and the kernels it launches in order, each with its grid, block
    and dynamic shared memory.

    `xtile-translate --mlir-to-cuda` prints Kernel IR as CUDA C;
    `--mlir-to-ptx` lowers it to upstream `gpu` and `nvvm` and lets LLVM's
    NVPTX backend write PTX.

    ```mlir
    xkernel.func @scale(%x: !xkernel.ptr<f32, global>, %y: !xkernel.ptr<f32, global>)
        attributes {max_threads = 128 : i64} {
      %t = xkernel.thread_id x
      %b = xkernel.block_id x
      %n = xkernel.block_dim x
      %i0 = arith.muli %b, %n : index
      %i = arith.addi %i0, %t : index
      %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      xkernel.store %w, %y[%i] : f32, !xkernel.ptr<f32, global>
      xkernel.return
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  // On an `scf.for` of a kernel: `xkernel.unroll` (unit) asks for a full
  // unroll (CUDA's `#pragma unroll`); `xkernel.num_stages` (a positive
  // integer) records how many iterations ahead its loads are issued. On an
  // argument of an `xkernel.func`, `xkernel.readonly` (unit) marks a
  // pointer the kernel never writes.
  let discardableAttrs = (ins "::mlir::UnitAttr":$unroll,
                              "::mlir::IntegerAttr":$num_stages);
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

class XKernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<XKernel_Dialect, mnemonic, traits>;

def XKernel_MemorySpace : I32EnumAttr<"MemorySpace", "memory a pointer points into", [
    I32EnumAttrCase<"global", 0>, I32EnumAttrCase<"shared", 1>]> {
  let cppNamespace = "::xtile::kernel";
}

def XKernel_Dim : I32EnumAttr<"Dim", "a dimension of the grid or the block", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>]> {
  let cppNamespace = "::xtile::kernel";
}

def XKernel_ShuffleKind : I32EnumAttr<"ShuffleKind", "warp shuffle", [
    I32EnumAttrCase<"Xor", 0, "xor">, I32EnumAttrCase<"down", 1>,
    I32EnumAttrCase<"idx", 2>]> {
  let cppNamespace = "::xtile::kernel";
}

def XKernel_AtomicKind : I32EnumAttr<"AtomicKind", "atomic read-modify-write", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::xtile::kernel";
}

def XKernel_ApproxKind : I32EnumAttr<"ApproxKind",
    "an approximate function of the special-function units", [
    I32EnumAttrCase<"ex2", 0>, I32EnumAttrCase<"lg2", 1>,
    I32EnumAttrCase<"rcp", 2>, I32EnumAttrCase<"rsqrt", 3>,
    I32EnumAttrCase<"sqrt", 4>]> {
  let cppNamespace = "::xtile::kernel";
}

def XKernel_PtrType : TypeDef<XKernel_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "a typed pointer into global or shared memory";
  let description = [{
    Element offsets from a pointer are `index` values (64-bit on the
    device), so buffers of more than 2^31 elements are addressed correctly.

    ```mlir
    !xkernel.ptr<f32, global>
    !xkernel.ptr<bf16, shared>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType,
                        EnumParameter<XKernel_MemorySpace>:$memorySpace);
  let assemblyFormat = "`<` $elementType `,` $memorySpace `>`";
  let genVerifyDecl = 1;
}

#endif // XTILE_DIALECT_KERNEL_IR_KERNELBASE_TD
