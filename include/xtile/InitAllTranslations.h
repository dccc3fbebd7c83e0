//===- InitAllTranslations.h - register xtile's translations ----*- C++ -*-===//

#ifndef XTILE_INITALLTRANSLATIONS_H
#define XTILE_INITALLTRANSLATIONS_H

namespace xtile {

/// Registers xtile's translations (Kernel IR to CUDA C and to PTX) with the
/// global translation registry. The Kernel IR level and its emitters are not
/// built yet, so there is nothing to register at this stage; tools call this
/// now so that adding an emitter needs no change to them.
inline void registerAllTranslations() {}

} // namespace xtile

#endif // XTILE_INITALLTRANSLATIONS_H
