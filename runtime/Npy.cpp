//===- Npy.cpp - .npy files for xtile-run ---------------------------------===//

#include "runtime/Npy.h"

#include "xtile/Support/Storage.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace xtile;

static LogicalResult fail(StringRef path, const Twine &why) {
  llvm::errs() << "xtile-run: " << path << ": " << why << "\n";
  return failure();
}

FailureOr<RefTensor> npy::read(StringRef path, RankedTensorType type) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(path, buffer.getError().message());
  StringRef data = (*buffer)->getBuffer();
  if (!data.starts_with("\x93NUMPY") || data.size() < 10)
    return fail(path, "not a .npy file");
  unsigned major = uint8_t(data[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = uint8_t(data[8]) | (size_t(uint8_t(data[9])) << 8);
    offset = 10;
  } else {
    if (data.size() < 12)
      return fail(path, "truncated header");
    headerLen = uint8_t(data[8]) | (size_t(uint8_t(data[9])) << 8) |
                (size_t(uint8_t(data[10])) << 16) |
                (size_t(uint8_t(data[11])) << 24);
    offset = 12;
  }
  StringRef header = data.substr(offset, headerLen);
  StringRef payload = data.substr(offset + headerLen);
  auto field = [&](StringRef key) -> StringRef {
    size_t at = header.find(key);
    if (at == StringRef::npos)
      return {};
    StringRef rest = header.substr(at + key.size());
    rest = rest.drop_until([](char c) { return c == ':'; }).drop_front();
    return rest.ltrim();
  };
  StringRef descr = field("'descr'");
  if (!descr.consume_front("'"))
    return fail(path, "no dtype in the header");
  descr = descr.take_until([](char c) { return c == '\''; });
  if (field("'fortran_order'").starts_with("True"))
    return fail(path, "Fortran order is not supported; save C-order arrays");
  StringRef shapeText = field("'shape'");
  shapeText = shapeText.drop_front().take_until([](char c) { return c == ')'; });
  SmallVector<int64_t> shape;
  SmallVector<StringRef> dims;
  shapeText.split(dims, ',', -1, false);
  for (StringRef d : dims) {
    d = d.trim();
    if (d.empty())
      continue;
    int64_t v;
    if (d.getAsInteger(10, v))
      return fail(path, "bad shape");
    shape.push_back(v);
  }
  if (ArrayRef<int64_t>(shape) != type.getShape()) {
    std::string want;
    llvm::raw_string_ostream os(want);
    os << type;
    return fail(path, "shape does not match the argument " + want);
  }
  char kind = descr.size() >= 2 ? descr[1] : '?';
  int width = 0;
  if (descr.size() < 3 || descr.drop_front(2).getAsInteger(10, width) ||
      (descr[0] != '<' && descr[0] != '|'))
    return fail(path, "unsupported dtype '" + descr + "' (little-endian only)");
  int64_t n = type.getNumElements();
  if (payload.size() < size_t(n * width))
    return fail(path, "truncated data");
  RefTensor t;
  t.type = type;
  Type e = type.getElementType();
  for (int64_t i = 0; i < n; ++i) {
    const char *p = payload.data() + i * width;
    double real = 0;
    int64_t integer = 0;
    if (kind == 'f') {
      if (width == 8)
        std::memcpy(&real, p, 8);
      else if (width == 4) {
        float f;
        std::memcpy(&f, p, 4);
        real = f;
      } else if (width == 2) {
        uint16_t bits;
        std::memcpy(&bits, p, 2);
        APFloat h(APFloat::IEEEhalf(), APInt(16, bits));
        bool lost;
        h.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
        real = h.convertToDouble();
      } else {
        return fail(path, "unsupported float width");
      }
      integer = int64_t(real);
    } else if (kind == 'i' || kind == 'u' || kind == 'b') {
      uint64_t raw = 0;
      std::memcpy(&raw, p, width);
      integer = kind == 'i' && width < 8
                    ? int64_t(raw << (64 - 8 * width)) >> (64 - 8 * width)
                    : int64_t(raw);
      real = double(integer);
    } else {
      return fail(path, "unsupported dtype '" + descr + "'");
    }
    if (isa<FloatType>(e))
      t.real.push_back(roundToType(e, real));
    else
      t.integer.push_back(wrapToType(e, integer));
  }
  return t;
}

LogicalResult npy::write(StringRef path, const RefTensor &t) {
  Type e = t.type.getElementType();
  std::string descr;
  int width;
  if (e.isF64()) {
    descr = "<f8";
    width = 8;
  } else if (e.isF16()) {
    descr = "<f2";
    width = 2;
  } else if (isa<FloatType>(e)) {
    descr = "<f4";
    width = 4;
  } else if (e.isInteger(1)) {
    descr = "|b1";
    width = 1;
  } else {
    width = int(getElementBytes(e));
    descr = (width == 1 ? "|i" : "<i") + std::to_string(width);
  }
  std::string shape = "(";
  for (int64_t d : t.type.getShape())
    shape += std::to_string(d) + ",";
  if (t.type.getRank() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return fail(path, ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  for (int64_t i = 0; i < t.size(); ++i) {
    char bytes[8] = {0};
    if (isa<FloatType>(e)) {
      double v = t.real[i];
      if (width == 8) {
        std::memcpy(bytes, &v, 8);
      } else if (width == 4) {
        float f = float(v);
        std::memcpy(bytes, &f, 4);
      } else {
        APFloat h(v);
        bool lost;
        h.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
        uint16_t bits = uint16_t(h.bitcastToAPInt().getZExtValue());
        std::memcpy(bytes, &bits, 2);
      }
    } else {
      int64_t v = t.integer[i];
      std::memcpy(bytes, &v, width);
    }
    os.write(bytes, width);
  }
  return success();
}
