//===- SymbolicDims.cpp - named dynamic sizes -----------------------------===//

#include "xtile/Support/SymbolicDims.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace mlir;
using namespace xtile;

#include "xtile/Support/SymbolicDims.cpp.inc"

Dim Dim::named(StringAttr symbol) { return {ShapedType::kDynamic, symbol}; }

std::string Dim::str() const {
  return symbol ? symbol.getValue().str() : std::to_string(size);
}

//===----------------------------------------------------------------------===//
// Size expressions
//===----------------------------------------------------------------------===//

SizeExpr SizeExpr::constant(int64_t value) {
  SizeExpr e;
  if (value != 0)
    e.terms[{}] = value;
  return e;
}

SizeExpr SizeExpr::symbol(StringRef name) {
  SizeExpr e;
  e.terms[{name.str()}] = 1;
  return e;
}

static bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

std::optional<SizeExpr> SizeExpr::parse(StringRef text) {
  SizeExpr sum;
  size_t i = 0, n = text.size();
  auto skipSpaces = [&] {
    while (i < n && text[i] == ' ')
      ++i;
  };
  int64_t sign = 1;
  skipSpaces();
  if (i < n && text[i] == '-') {
    sign = -1;
    ++i;
  }
  while (true) {
    // One term: factors joined by '*'.
    int64_t coefficient = sign;
    std::vector<std::string> monomial;
    while (true) {
      skipSpaces();
      if (i < n && llvm::isDigit(text[i])) {
        size_t start = i;
        while (i < n && llvm::isDigit(text[i]))
          ++i;
        int64_t value;
        if (text.slice(start, i).getAsInteger(10, value) ||
            llvm::MulOverflow(coefficient, value, coefficient))
          return std::nullopt;
      } else if (i < n && isIdentifierStart(text[i])) {
        size_t start = i;
        while (i < n && isIdentifierChar(text[i]))
          ++i;
        monomial.push_back(text.slice(start, i).str());
      } else {
        return std::nullopt;
      }
      skipSpaces();
      if (i < n && text[i] == '*') {
        ++i;
        continue;
      }
      break;
    }
    if (!sum.addTerm(monomial, coefficient))
      return std::nullopt;
    if (i == n)
      return sum;
    if (text[i] != '+' && text[i] != '-')
      return std::nullopt;
    sign = text[i] == '+' ? 1 : -1;
    ++i;
  }
}

std::optional<SizeExpr> SizeExpr::of(const Dim &dim) {
  if (!dim.isDynamic())
    return constant(dim.size);
  std::optional<SizeExpr> e = parse(dim.symbol.getValue());
  if (!e || e->getConstant() || e->str() != dim.symbol.getValue())
    return std::nullopt;
  return e;
}

bool SizeExpr::addTerm(std::vector<std::string> monomial,
                       int64_t coefficient) {
  if (coefficient == 0)
    return true;
  std::sort(monomial.begin(), monomial.end());
  int64_t &c = terms[monomial];
  if (llvm::AddOverflow(c, coefficient, c))
    return false;
  if (c == 0)
    terms.erase(monomial);
  return true;
}

std::optional<SizeExpr> SizeExpr::plus(const SizeExpr &other) const {
  SizeExpr sum = *this;
  for (const auto &[monomial, coefficient] : other.terms)
    if (!sum.addTerm(monomial, coefficient))
      return std::nullopt;
  return sum;
}

std::optional<SizeExpr> SizeExpr::minus(const SizeExpr &other) const {
  SizeExpr negated;
  for (const auto &[monomial, coefficient] : other.terms) {
    if (coefficient == std::numeric_limits<int64_t>::min())
      return std::nullopt;
    negated.terms[monomial] = -coefficient;
  }
  return plus(negated);
}

std::optional<SizeExpr> SizeExpr::times(const SizeExpr &other) const {
  SizeExpr product;
  for (const auto &[a, ca] : terms)
    for (const auto &[b, cb] : other.terms) {
      std::vector<std::string> monomial(a);
      monomial.insert(monomial.end(), b.begin(), b.end());
      int64_t c;
      if (llvm::MulOverflow(ca, cb, c) || !product.addTerm(monomial, c))
        return std::nullopt;
    }
  return product;
}

std::optional<int64_t> SizeExpr::getConstant() const {
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

bool SizeExpr::isSymbol() const {
  return terms.size() == 1 && terms.begin()->first.size() == 1 &&
         terms.begin()->second == 1;
}

std::vector<std::string> SizeExpr::getSymbols() const {
  std::vector<std::string> symbols;
  for (const auto &term : terms)
    symbols.insert(symbols.end(), term.first.begin(), term.first.end());
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  return symbols;
}

std::string SizeExpr::str() const {
  return str([](StringRef name) { return name.str(); });
}

std::string
SizeExpr::str(function_ref<std::string(StringRef)> nameOf) const {
  std::string text;
  auto append = [&](const std::vector<std::string> &monomial,
                    int64_t coefficient) {
    uint64_t magnitude = coefficient < 0 ? 0 - uint64_t(coefficient)
                                         : uint64_t(coefficient);
    if (text.empty())
      text += coefficient < 0 ? "-" : "";
    else
      text += coefficient < 0 ? " - " : " + ";
    if (monomial.empty() || magnitude != 1)
      text += std::to_string(magnitude) + (monomial.empty() ? "" : "*");
    text += llvm::join(llvm::map_range(monomial,
                                       [&](const std::string &symbol) {
                                         return nameOf(symbol);
                                       }),
                       "*");
  };
  for (const auto &[monomial, coefficient] : terms)
    if (!monomial.empty())
      append(monomial, coefficient);
  if (auto it = terms.find({}); it != terms.end())
    append({}, it->second);
  return text.empty() ? "0" : text;
}

std::optional<AffineExpr> SizeExpr::toAffine(
    function_ref<std::optional<AffineExpr>(StringRef)> symbolOf,
    MLIRContext *context) const {
  AffineExpr sum = getAffineConstantExpr(0, context);
  for (const auto &[monomial, coefficient] : terms) {
    AffineExpr term = getAffineConstantExpr(coefficient, context);
    for (const std::string &symbol : monomial) {
      std::optional<AffineExpr> s = symbolOf(symbol);
      if (!s)
        return std::nullopt;
      term = term * *s;
    }
    sum = sum + term;
  }
  return sum;
}

Dim SizeExpr::toDim(MLIRContext *context) const {
  if (std::optional<int64_t> value = getConstant())
    return Dim::fixed(*value);
  return Dim::named(StringAttr::get(context, str()));
}

std::optional<int64_t> SizeExpr::evaluate(
    function_ref<std::optional<int64_t>(StringRef)> valueOf) const {
  int64_t sum = 0;
  for (const auto &[monomial, coefficient] : terms) {
    int64_t product = coefficient;
    for (const std::string &symbol : monomial) {
      std::optional<int64_t> value = valueOf(symbol);
      if (!value || llvm::MulOverflow(product, *value, product))
        return std::nullopt;
    }
    if (llvm::AddOverflow(sum, product, sum))
      return std::nullopt;
  }
  return sum;
}

std::optional<SizeExpr>
SizeExpr::substitute(const llvm::StringMap<int64_t> &values) const {
  SizeExpr result;
  for (const auto &[monomial, coefficient] : terms) {
    int64_t c = coefficient;
    std::vector<std::string> kept;
    for (const std::string &symbol : monomial) {
      auto it = values.find(symbol);
      if (it == values.end())
        kept.push_back(symbol);
      else if (llvm::MulOverflow(c, it->second, c))
        return std::nullopt;
    }
    if (!result.addTerm(kept, c))
      return std::nullopt;
  }
  return result;
}

std::optional<std::pair<int64_t, int64_t>> SizeExpr::range(
    function_ref<std::optional<std::pair<int64_t, int64_t>>(StringRef)>
        rangeOf) const {
  int64_t lo = 0, hi = 0;
  for (const auto &[monomial, coefficient] : terms) {
    // Each symbol is at least 0, so a monomial grows with each of them.
    int64_t mlo = 1, mhi = 1;
    for (const std::string &symbol : monomial) {
      std::optional<std::pair<int64_t, int64_t>> r = rangeOf(symbol);
      if (!r || r->first < 0 || llvm::MulOverflow(mlo, r->first, mlo) ||
          llvm::MulOverflow(mhi, r->second, mhi))
        return std::nullopt;
    }
    int64_t tlo, thi;
    if (llvm::MulOverflow(coefficient, coefficient > 0 ? mlo : mhi, tlo) ||
        llvm::MulOverflow(coefficient, coefficient > 0 ? mhi : mlo, thi) ||
        llvm::AddOverflow(lo, tlo, lo) || llvm::AddOverflow(hi, thi, hi))
      return std::nullopt;
  }
  return std::make_pair(lo, hi);
}

std::optional<int64_t>
xtile::evaluateSize(StringRef name, const llvm::StringMap<int64_t> &values) {
  if (auto it = values.find(name); it != values.end())
    return it->second;
  std::optional<SizeExpr> e = SizeExpr::parse(name);
  if (!e)
    return std::nullopt;
  return e->evaluate([&](StringRef symbol) -> std::optional<int64_t> {
    if (auto it = values.find(symbol); it != values.end())
      return it->second;
    return std::nullopt;
  });
}

SmallVector<Dim> xtile::getDims(RankedTensorType type) {
  auto names = dyn_cast_or_null<SymbolicDimsAttrInterface>(type.getEncoding());
  SmallVector<Dim> dims;
  unsigned next = 0;
  for (int64_t size : type.getShape()) {
    if (!ShapedType::isDynamic(size)) {
      dims.push_back(Dim::fixed(size));
      continue;
    }
    // Types reaching here passed isXTensorType; an unnamed size (from a
    // caller that did not check) gets the symbol "?" rather than a crash.
    StringAttr symbol = names && next < names.getSymbols().size()
                            ? names.getSymbols()[next++]
                            : StringAttr::get(type.getContext(), "?");
    dims.push_back(Dim::named(symbol));
  }
  return dims;
}

bool xtile::isXTensorType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return false;
  int64_t dynamic = ranked.getNumDynamicDims();
  if (!ranked.getEncoding())
    return dynamic == 0;
  auto names = dyn_cast<SymbolicDimsAttrInterface>(ranked.getEncoding());
  return names && dynamic > 0 &&
         static_cast<int64_t>(names.getSymbols().size()) == dynamic;
}

SmallVector<StringAttr> xtile::getSymbols(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return {};
  if (auto names =
          dyn_cast_or_null<SymbolicDimsAttrInterface>(ranked.getEncoding()))
    return llvm::to_vector(names.getSymbols());
  return {};
}

SmallVector<DeclaredSymbol> xtile::getDeclaredSymbols(Operation *func) {
  SmallVector<DeclaredSymbol> symbols;
  auto declared =
      func ? func->getAttrOfType<DictionaryAttr>(kSymbolsAttrName) : nullptr;
  if (!declared)
    return symbols;
  for (NamedAttribute entry : declared)
    if (auto range = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
        range && range.size() == 2)
      symbols.push_back({entry.getName(), range[0], range[1]});
  return symbols;
}

SmallVector<int64_t> xtile::getInPlaceArguments(Operation *func) {
  auto fn = dyn_cast_or_null<FunctionOpInterface>(func);
  if (!fn)
    return {};
  SmallVector<int64_t> argOf(fn.getNumResults(), -1);
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    if (auto r = fn.getArgAttrOfType<IntegerAttr>(i, kInPlaceAttrName);
        r && r.getInt() >= 0 && r.getInt() < int64_t(argOf.size()))
      argOf[r.getInt()] = i;
  return argOf;
}

std::optional<DeclaredSymbol> xtile::getDeclaredSymbol(Operation *func,
                                                       StringRef symbol) {
  SmallVector<DeclaredSymbol> declared = getDeclaredSymbols(func);
  for (const DeclaredSymbol &d : declared)
    if (d.name.getValue() == symbol)
      return d;
  // A size expression of declared symbols, at least 1 over their ranges.
  std::optional<SizeExpr> e =
      SizeExpr::of(Dim::named(StringAttr::get(func->getContext(), symbol)));
  if (!e || e->isSymbol())
    return std::nullopt;
  auto range = e->range(
      [&](StringRef name) -> std::optional<std::pair<int64_t, int64_t>> {
        for (const DeclaredSymbol &d : declared)
          if (d.name.getValue() == name)
            return std::make_pair(d.min, d.max);
        return std::nullopt;
      });
  if (!range || range->first < 1)
    return std::nullopt;
  return DeclaredSymbol{StringAttr::get(func->getContext(), symbol),
                        range->first, range->second};
}

mlir::InFlightDiagnostic &
xtile::markDynamicSizeLimit(mlir::InFlightDiagnostic &diag) {
  diag.attachNote() << kDynamicSizeLimitNote;
  return diag;
}
