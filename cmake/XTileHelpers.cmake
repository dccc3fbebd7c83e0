# Helpers for xtile's own CMake files.
#
# xtile_add_library(<name> <sources>... [DEPENDS <targets>...]
#                   [LINK_LIBS <xtile libs>...] [MLIR_LIBS <MLIR libs>...])
#
# A static library that links MLIR through mlir_target_link_libraries (so
# libMLIR.so when MLIR_LINK_MLIR_DYLIB is on), is installed, and is exported
# in XTileTargets for find_package(XTile).
function(xtile_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS})
  mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  # Our code calls LLVM Support (APFloat, raw_ostream, ...) directly.
  if(LLVM_LINK_LLVM_DYLIB)
    target_link_libraries(${name} PUBLIC LLVM)
  else()
    target_link_libraries(${name} PUBLIC LLVMSupport)
  endif()
  install(TARGETS ${name} EXPORT XTileTargets
          ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
endfunction()

# xtile_add_dialect_tablegen(<Prefix> <dialect>): the ODS outputs of
# <Prefix>Ops.td (ops, dialect, enums) in target XTile<Prefix>OpsIncGen, and
# the generated reference docs/Dialects/X<Prefix>Dialect.md.
function(xtile_add_dialect_tablegen prefix dialect)
  set(LLVM_TARGET_DEFINITIONS ${prefix}Ops.td)
  mlir_tablegen(${prefix}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${prefix}Ops.cpp.inc -gen-op-defs)
  mlir_tablegen(${prefix}Dialect.h.inc -gen-dialect-decls -dialect=${dialect})
  mlir_tablegen(${prefix}Dialect.cpp.inc -gen-dialect-defs -dialect=${dialect})
  mlir_tablegen(${prefix}Enums.h.inc -gen-enum-decls)
  mlir_tablegen(${prefix}Enums.cpp.inc -gen-enum-defs)
  add_public_tablegen_target(XTile${prefix}OpsIncGen)
  add_mlir_doc(${prefix}Ops X${prefix}Dialect Dialects/ -gen-dialect-doc
               -dialect=${dialect})
endfunction()

# xtile_install_tool(<target>)
#
# Installs a tool in bin/. Installed, it finds libMLIR.so and libLLVM.so
# where the MLIR package has them, which is not under the install prefix
# (LLVM's own rule gives installed tools $ORIGIN/../lib only).
function(xtile_install_tool name)
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH
               "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
