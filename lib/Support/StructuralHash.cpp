//===- StructuralHash.cpp - run-stable structural hashing -----------------===//

#include "xtile/Support/StructuralHash.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace xtile;

static uint64_t hashString(StringRef s) { return llvm::xxh3_64bits(s); }

template <typename T> static uint64_t hashPrinted(T entity) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << entity;
  return hashString(s);
}

uint64_t StructuralHasher::combine(uint64_t a, uint64_t b) {
  uint64_t words[2] = {a, b};
  return llvm::xxh3_64bits(
      ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(words), sizeof(words)));
}

uint64_t StructuralHasher::hash(Value value) {
  auto it = hashes.find(value);
  if (it != hashes.end())
    return it->second;
  // Values are visited in dominance order; one seen before its definition
  // (only possible in graph regions) falls back to its type.
  return combine(hashString("unordered"), hashType(value.getType()));
}

void StructuralHasher::visitBlock(Block &block) {
  for (BlockArgument arg : block.getArguments())
    hashes[arg] = combine(combine(hashString("arg"), arg.getArgNumber()),
                          hashType(arg.getType()));
}

uint64_t StructuralHasher::visitOp(Operation *op) {
  uint64_t h = hashString(op->getName().getStringRef());
  for (NamedAttribute attr : op->getAttrs())
    h = combine(combine(h, hashString(attr.getName().strref())),
                hashAttr(attr.getValue()));
  SmallVector<uint64_t> operands;
  for (Value operand : op->getOperands())
    operands.push_back(hash(operand));
  if (op->hasTrait<OpTrait::IsCommutative>())
    llvm::sort(operands);
  for (uint64_t operand : operands)
    h = combine(h, operand);
  h = combine(h, op->getNumRegions());
  for (OpResult result : op->getResults())
    hashes[result] = combine(combine(h, result.getResultNumber()),
                             hashType(result.getType()));
  return h;
}

uint64_t StructuralHasher::hashRegions(Operation *root) {
  uint64_t h = hashString("regions");
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != root)
      h = combine(h, visitOp(op));
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        visitBlock(block);
        h = combine(h, block.getNumArguments());
      }
  });
  return h;
}

uint64_t StructuralHasher::hashType(Type type) {
  auto [it, inserted] = typeHashes.try_emplace(type, 0);
  if (inserted)
    it->second = hashPrinted(type);
  return it->second;
}

uint64_t StructuralHasher::hashAttr(Attribute attr) {
  auto [it, inserted] = attrHashes.try_emplace(attr, 0);
  if (!inserted)
    return it->second;
  // Large constants are hashed from their raw bytes, not their text.
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    ArrayRef<char> raw = dense.getRawData();
    it->second = combine(
        combine(hashType(dense.getType()), dense.isSplat()),
        llvm::xxh3_64bits(ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(raw.data()), raw.size())));
  } else {
    it->second = hashPrinted(attr);
  }
  return it->second;
}

/// Orders the operands of every commutative op: constants last (as upstream
/// folding does), then the deeper expression first, then by structural
/// hash. Depth (the longest path from a block argument) comes before the
/// hash so that the order survives a change of context: in a stack of
/// layers `x + f(x)` and `h + f(h)` order alike whether the residual is a
/// function argument or computed, so the layers' kernels are identical.
/// Returns true on change.
bool xtile::sortCommutativeOperands(Operation *root) {
  StructuralHasher hasher;
  DenseMap<Value, int64_t> depth;
  auto depthOf = [&](Value v) { return depth.lookup(v); };
  bool changed = false;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        hasher.visitBlock(block);
    if (op->hasTrait<OpTrait::IsCommutative>() && op->getNumOperands() > 1) {
      auto key = [&](Value v) {
        return std::make_tuple(matchPattern(v, m_Constant()), -depthOf(v),
                               hasher.hash(v));
      };
      SmallVector<Value> operands(op->getOperands());
      llvm::stable_sort(operands,
                        [&](Value a, Value b) { return key(a) < key(b); });
      if (!llvm::equal(operands, op->getOperands())) {
        op->setOperands(operands);
        changed = true;
      }
    }
    int64_t d = 0;
    for (Value operand : op->getOperands())
      d = std::max(d, depthOf(operand) + 1);
    for (Value result : op->getResults())
      depth[result] = d;
    hasher.visitOp(op);
  });
  return changed;
}
