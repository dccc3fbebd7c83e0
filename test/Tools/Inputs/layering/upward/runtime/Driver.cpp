#include "runtime/Driver.h"
#include "xtile/Support/Storage.h"
