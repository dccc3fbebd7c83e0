#pragma once
#include "xtile/Support/Storage.h"
