//===- TestPasses.h - xtile's test-only passes ------------------*- C++ -*-===//
//
// Passes that only tests use, linked into xtile-opt and xtile-run (not into
// the libraries): the mutation tests' broken lowerings and the printers of
// analyses.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_TEST_LIB_TESTPASSES_H
#define XTILE_TEST_LIB_TESTPASSES_H

namespace xtile::test {
void registerTestPasses();
void registerTestMutatedLowering();
void registerTestTileLayouts();
} // namespace xtile::test

#endif // XTILE_TEST_LIB_TESTPASSES_H
