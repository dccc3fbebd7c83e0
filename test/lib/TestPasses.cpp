//===- TestPasses.cpp - Register xtile's test-only passes -----------------===//

#include "TestPasses.h"

void xtile::test::registerTestPasses() {
  registerTestMutatedLowering();
  registerTestTileLayouts();
}
