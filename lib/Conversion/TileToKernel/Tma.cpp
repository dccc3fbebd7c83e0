//===- Tma.cpp - Dot operand tiles brought in by bulk tensor copies -------===//
//
// On wgmma kernels (sm_90a), a pipelined operand tile that is a box of its
// buffer comes into shared memory by TMA (`cp.async.bulk.tensor`) instead
// of every thread's cp.async: each buffer dimension is indexed by a start
// plus a range along one axis of the tile, or by a start alone, and the
// load is masked by nothing but the buffer's bounds, which the copy's zero
// fill reproduces. One thread issues, per stage, the copies of every such
// operand on the stage's mbarrier; every thread waits for the barrier's
// phase. The tensor maps are kernel arguments that the host program makes
// (`xkernel.tensor_map`), described by the argument's
// `xkernel.tensor_map` attribute.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/IR/Matchers.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

Value KernelLowering::tensorMapArgument(BlockArgument buffer,
                                        ArrayRef<int64_t> box,
                                        int64_t swizzle) {
  MLIRContext *ctx = b.getContext();
  auto map = DictionaryAttr::get(
      ctx, {b.getNamedAttr("of", b.getI64IntegerAttr(buffer.getArgNumber())),
            b.getNamedAttr("box", b.getDenseI64ArrayAttr(box)),
            b.getNamedAttr("swizzle", b.getI64IntegerAttr(swizzle))});
  auto it = tensorMaps.find(map);
  if (it != tensorMaps.end())
    return it->second;
  // After the buffers and the maps so far, before the sizes.
  unsigned index = src.getBodyBlock().getNumArguments() - src.getNumSizes() +
                   tensorMaps.size();
  NamedAttrList attrs;
  attrs.append(xk::FuncOp::getReadonlyAttrName(), UnitAttr::get(ctx));
  attrs.append(xk::FuncOp::getTensorMapAttrName(), map);
  (void)func.insertArgument(
      index, xk::PtrType::get(ctx, b.getI8Type(), xk::MemorySpace::global),
      attrs.getDictionary(ctx), loc);
  return tensorMaps[map] = func.getArgument(index);
}

Value KernelLowering::firstThread() {
  if (!isFirstThread) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ix.prelude);
    isFirstThread =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cst(0));
  }
  return isFirstThread;
}

void KernelLowering::initTmaBarriers(int64_t stages, int64_t emptyArrivals) {
  tmaBarriers = dynamicShared(b.getI64Type(), stages, 8);
  emptyBarriers =
      emptyArrivals ? dynamicShared(b.getI64Type(), stages, 8) : Value();
  predicated(
      b, loc, firstThread(), {},
      [&] {
        for (int64_t s = 0; s < stages; ++s)
          xk::MbarrierInitOp::create(b, loc, tmaBarriers, cst(s), 1);
        if (emptyArrivals)
          for (int64_t s = 0; s < stages; ++s)
            xk::MbarrierInitOp::create(b, loc, emptyBarriers, cst(s),
                                       emptyArrivals);
        return SmallVector<Value>{};
      },
      [&] { return SmallVector<Value>{}; });
  barrier();
}

LogicalResult KernelLowering::issueTmaCopies(ArrayRef<Pipelined> operands,
                                             Value stage, bool elected) {
  int64_t bytes = 0;
  for (const Pipelined &p : operands)
    if (p.map)
      bytes += p.elements *
               getElementBytes(cast<RankedTensorType>(p.operand.getType())
                                   .getElementType());
  if (!bytes)
    return success();
  // The starts of this iteration's boxes (the caller recomputes the loop
  // body's scalars for it).
  SmallVector<SmallVector<Value>> coords;
  for (const Pipelined &p : operands) {
    if (!p.map)
      continue;
    SmallVector<Value> c;
    for (auto [start, offset] : p.runs) {
      Value v = cst(offset);
      if (start) {
        FailureOr<Value> s = scalar(start, p.load);
        if (failed(s))
          return failure();
        v = add(*s, v);
      }
      c.push_back(v);
    }
    coords.push_back(std::move(c));
  }
  predicated(
      b, loc, elected ? Value() : firstThread(), {},
      [&] {
        xk::MbarrierExpectTxOp::create(b, loc, tmaBarriers, stage, bytes);
        auto c = coords.begin();
        for (const Pipelined &p : operands) {
          if (!p.map)
            continue;
          Value base = mul(stage, cst(p.elements));
          for (int64_t q = 0; q < p.panels; ++q) {
            SmallVector<Value> at;
            for (auto [d, v] : llvm::enumerate(*c)) {
              Value x = v;
              // Panels follow each other along the innermost dimension.
              if (d + 1 == c->size())
                x = add(x, cst(q * p.panelWidth));
              at.push_back(arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                                      x));
            }
            xk::TmaLoadOp::create(b, loc, p.map, at, p.buffer,
                                  add(base, cst(q * p.panelElements)),
                                  tmaBarriers, stage);
          }
          ++c;
        }
        return SmallVector<Value>{};
      },
      [&] { return SmallVector<Value>{}; });
  return success();
}
