// libXTileMLIRCAPI.so holds MLIR's C API archives only (see
// CMakeLists.txt); a library needs one source of its own.
namespace {
[[maybe_unused]] int emptyTranslationUnit;
} // namespace
