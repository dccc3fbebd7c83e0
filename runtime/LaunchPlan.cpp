//===- LaunchPlan.cpp - a program's launch plan, read from JSON -----------===//

#include "runtime/LaunchPlan.h"

using namespace xtile::plan;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// Reads JSON into plan structs, recording the first malformed field.
struct Reader {
  std::string error;

  bool fail(const llvm::Twine &what) {
    if (error.empty())
      error = what.str();
    return false;
  }
  bool integer(const Object &o, llvm::StringRef key, int64_t &out,
               bool optional = false) {
    const Value *v = o.get(key);
    if (!v)
      return optional || fail("missing '" + key + "'");
    std::optional<int64_t> i = v->getAsInteger();
    if (!i)
      return fail("'" + key + "' is not an integer");
    out = *i;
    return true;
  }
  bool integers(const Object &o, llvm::StringRef key, std::vector<int64_t> &out,
                bool optional = false) {
    const Array *a = o.getArray(key);
    if (!a)
      return optional || fail("missing the array '" + key + "'");
    for (const Value &v : *a) {
      std::optional<int64_t> i = v.getAsInteger();
      if (!i)
        return fail("'" + key + "' holds a non-integer");
      out.push_back(*i);
    }
    return true;
  }
  bool triple(const Object &o, llvm::StringRef key,
              std::array<int64_t, 3> &out) {
    std::vector<int64_t> v;
    if (!integers(o, key, v))
      return false;
    if (v.empty() || v.size() > 3)
      return fail("'" + key + "' needs one to three values");
    for (size_t i = 0; i < 3; ++i)
      out[i] = i < v.size() ? v[i] : 1;
    return true;
  }
  bool string(const Object &o, llvm::StringRef key, std::string &out) {
    std::optional<llvm::StringRef> s = o.getString(key);
    if (!s)
      return fail("missing the string '" + key + "'");
    out = s->str();
    return true;
  }

  bool buffer(const Object &o, Buffer &b) {
    return string(o, "role", b.role) && integers(o, "shape", b.shape) &&
           string(o, "element", b.element) && integer(o, "bytes", b.bytes) &&
           integers(o, "sizes", b.sizes, /*optional=*/true) &&
           integer(o, "in_place_of", b.inPlaceOf, /*optional=*/true);
  }

  bool step(const Object &o, Step &s) {
    if (const Object *copy = o.getObject("copy")) {
      s.kind = Step::Kind::Copy;
      return integer(*copy, "from", s.from) && integer(*copy, "to", s.to) &&
             integer(o, "bytes", s.bytes) &&
             integers(o, "sizes", s.sizes, /*optional=*/true);
    }
    if (const Object *map = o.getObject("tensor_map")) {
      s.kind = Step::Kind::TensorMap;
      return integer(*map, "of", s.from) && integer(*map, "to", s.to) &&
             integer(*map, "data_type", s.dataType) &&
             integer(*map, "element_bytes", s.elementBytes) &&
             integers(*map, "box", s.box) &&
             integer(*map, "swizzle", s.swizzle);
    }
    s.kind = Step::Kind::Launch;
    if (!string(o, "launch", s.kernel) || !triple(o, "grid", s.grid) ||
        !triple(o, "block", s.block) || !integer(o, "shared", s.shared) ||
        !integers(o, "args", s.args) ||
        !integers(o, "sizes", s.sizes, /*optional=*/true))
      return false;
    if (const Array *map = o.getArray("grid_map"))
      s.gridMap.assign(map->begin(), map->end());
    if (const Array *when = o.getArray("when")) {
      for (const Value &v : *when) {
        const Array *range = v.getAsArray();
        std::optional<int64_t> min, max;
        if (range && range->size() == 2) {
          min = (*range)[0].getAsInteger();
          max = (*range)[1].getAsInteger();
        }
        if (!min || !max)
          return fail("a launch's 'when' entry is not [min, max]");
        s.when.push_back({*min, *max});
      }
      if (s.when.size() != s.sizes.size())
        return fail("a launch's 'when' has " + std::to_string(s.when.size()) +
                    " range(s) for " + std::to_string(s.sizes.size()) +
                    " size(s)");
    }
    return true;
  }

  bool program(const Object &o, Program &p) {
    if (!string(o, "name", p.name) || !integer(o, "inputs", p.numInputs))
      return false;
    if (const Array *sizes = o.getArray("sizes"))
      for (const Value &v : *sizes) {
        const Object *s = v.getAsObject();
        Size size;
        if (!s)
          return fail("a size is not an object");
        if (!string(*s, "name", size.name) || !integer(*s, "min", size.min) ||
            !integer(*s, "max", size.max))
          return false;
        p.sizes.push_back(size);
      }
    const Array *buffers = o.getArray("buffers");
    const Array *steps = o.getArray("steps");
    if (!buffers || !steps)
      return fail("a program needs 'buffers' and 'steps'");
    for (const Value &v : *buffers) {
      const Object *b = v.getAsObject();
      p.buffers.emplace_back();
      if (!b)
        return fail("a buffer is not an object");
      if (!buffer(*b, p.buffers.back()))
        return false;
    }
    for (const Value &v : *steps) {
      const Object *s = v.getAsObject();
      p.steps.emplace_back();
      if (!s)
        return fail("a step is not an object");
      if (!step(*s, p.steps.back()))
        return false;
    }
    // Every index a step or buffer holds is in range.
    auto inBuffers = [&](int64_t i) {
      return i >= 0 && i < static_cast<int64_t>(p.buffers.size());
    };
    auto inSizes = [&](int64_t i) {
      return i >= 0 && i < static_cast<int64_t>(p.sizes.size());
    };
    for (const Buffer &b : p.buffers)
      if (!llvm::all_of(b.sizes, inSizes))
        return fail("a buffer names a size the program does not have");
    for (const Step &s : p.steps) {
      bool ok = llvm::all_of(s.sizes, inSizes);
      if (s.kind == Step::Kind::Launch)
        ok &= llvm::all_of(s.args, inBuffers);
      else
        ok &= inBuffers(s.from) && inBuffers(s.to);
      if (!ok)
        return fail("a step of " + p.name +
                    " names a buffer or size the program does not have");
    }
    return true;
  }
};

/// A grid expression: an integer, {"size": i}, or [kind, lhs, rhs].
int64_t evaluate(const Value &e, llvm::ArrayRef<int64_t> values) {
  if (std::optional<int64_t> c = e.getAsInteger())
    return *c;
  if (const Object *o = e.getAsObject()) {
    std::optional<int64_t> i = o->getInteger("size");
    return i && *i >= 0 && *i < static_cast<int64_t>(values.size()) ? values[*i]
                                                                    : 0;
  }
  const Array *a = e.getAsArray();
  if (!a || a->size() != 3)
    return 0;
  std::optional<llvm::StringRef> kind = (*a)[0].getAsString();
  int64_t l = evaluate((*a)[1], values), r = evaluate((*a)[2], values);
  if (!kind)
    return 0;
  if (*kind == "add")
    return l + r;
  if (*kind == "mul")
    return l * r;
  if (r == 0)
    return 0;
  if (*kind == "floordiv")
    return l >= 0 ? l / r : -((-l + r - 1) / r);
  if (*kind == "ceildiv")
    return (l + r - 1) / r;
  return ((l % r) + r) % r;
}

} // namespace

/// `bytes` times the sizes `at` names among `values`.
static int64_t scaled(int64_t bytes, llvm::ArrayRef<int64_t> at,
                      llvm::ArrayRef<int64_t> values) {
  for (int64_t i : at)
    bytes *= values[i];
  return bytes;
}

int64_t Step::bytesAt(llvm::ArrayRef<int64_t> values) const {
  return scaled(bytes, sizes, values);
}

int64_t Buffer::bytesAt(llvm::ArrayRef<int64_t> values) const {
  return scaled(bytes, sizes, values);
}

std::vector<int64_t> Buffer::shapeAt(llvm::ArrayRef<int64_t> values) const {
  std::vector<int64_t> out;
  auto next = sizes.begin();
  for (int64_t d : shape)
    out.push_back(d < 0 && next != sizes.end() ? values[*next++] : d);
  return out;
}

std::array<int64_t, 3> Step::gridAt(llvm::ArrayRef<int64_t> values) const {
  if (gridMap.empty())
    return grid;
  std::array<int64_t, 3> out{1, 1, 1};
  for (size_t i = 0; i < gridMap.size() && i < 3; ++i)
    out[i] = evaluate(gridMap[i], values);
  return out;
}

bool Step::runsAt(llvm::ArrayRef<int64_t> values) const {
  for (auto [s, range] : llvm::zip(sizes, when))
    if (values[s] < range.first || values[s] > range.second)
      return false;
  return true;
}

llvm::Expected<std::vector<Program>> xtile::plan::parse(llvm::StringRef json) {
  llvm::Expected<Value> root = llvm::json::parse(json);
  if (!root)
    return root.takeError();
  Reader reader;
  std::vector<Program> programs;
  const Object *top = root->getAsObject();
  const Array *list = top ? top->getArray("programs") : nullptr;
  if (!list)
    reader.fail("expected {\"programs\": [...]}");
  else
    for (const Value &v : *list) {
      const Object *o = v.getAsObject();
      if (!o) {
        reader.fail("a program is not an object");
        break;
      }
      programs.emplace_back();
      if (!reader.program(*o, programs.back()))
        break;
    }
  if (!reader.error.empty())
    return llvm::createStringError("malformed launch plan: " + reader.error);
  return programs;
}
