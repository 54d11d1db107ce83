//===- Registration.cpp - tile pass registration --------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
