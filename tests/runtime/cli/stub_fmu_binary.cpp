// tests/runtime/cli/stub_fmu_binary.cpp -- shared libraries that pose as an
// FMU's binary and are wrong in one way each, for the broken-FMU corpus.
// Built three times (tests/runtime/cli/CMakeLists.txt), selected by a macro:
//   LSDAE_STUB_MISSING_SYMBOL  exports fmi3GetVersion ... fmi3Reset (the
//                              first nine required functions, in the order
//                              runtime/fmu/fmi3/library.cpp resolves them) but
//                              not fmi3GetFloat64 and the rest.
//   LSDAE_STUB_FMI2_VERSION    exports every required function, but
//                              fmi3GetVersion returns "2.0".
//   LSDAE_STUB_BLOCKING        exports every required function; its
//                              fmi3InstantiateModelExchange creates the file
//                              named by $LSDAE_STUB_READY_FILE and then waits
//                              forever, so a test can signal an `lsdae`
//                              process that holds an extraction folder.
// Only fmi3GetVersion and fmi3InstantiateModelExchange (and, for safety,
// fmi3FreeInstance) are ever called; the others exist to be found by dlsym.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "fmi3_abi.h"

#define STUB_EXPORT extern "C" __attribute__((visibility("default")))
#define STUB_SYMBOL(NAME) STUB_EXPORT void NAME(void) {}

STUB_EXPORT const char* fmi3GetVersion(void) {
#ifdef LSDAE_STUB_FMI2_VERSION
  return "2.0";
#else
  return fmi3Version;
#endif
}

STUB_EXPORT fmi3Instance fmi3InstantiateModelExchange(fmi3String, fmi3String, fmi3String, fmi3Boolean, fmi3Boolean,
                                                      fmi3InstanceEnvironment, fmi3LogMessageCallback) {
#ifdef LSDAE_STUB_BLOCKING
  if (const char* ready = std::getenv("LSDAE_STUB_READY_FILE")) {
    int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
    for (;;) pause();
  }
#endif
  return nullptr;
}

STUB_EXPORT void fmi3FreeInstance(fmi3Instance) {}

STUB_SYMBOL(fmi3SetDebugLogging)
STUB_SYMBOL(fmi3EnterInitializationMode)
STUB_SYMBOL(fmi3ExitInitializationMode)
STUB_SYMBOL(fmi3EnterEventMode)
STUB_SYMBOL(fmi3Terminate)
STUB_SYMBOL(fmi3Reset)
#ifndef LSDAE_STUB_MISSING_SYMBOL
STUB_SYMBOL(fmi3GetFloat64)
STUB_SYMBOL(fmi3SetFloat64)
STUB_SYMBOL(fmi3UpdateDiscreteStates)
STUB_SYMBOL(fmi3EnterContinuousTimeMode)
STUB_SYMBOL(fmi3CompletedIntegratorStep)
STUB_SYMBOL(fmi3SetTime)
STUB_SYMBOL(fmi3SetContinuousStates)
STUB_SYMBOL(fmi3GetContinuousStates)
STUB_SYMBOL(fmi3GetContinuousStateDerivatives)
STUB_SYMBOL(fmi3GetEventIndicators)
STUB_SYMBOL(fmi3GetNominalsOfContinuousStates)
STUB_SYMBOL(fmi3GetNumberOfEventIndicators)
STUB_SYMBOL(fmi3GetNumberOfContinuousStates)
#endif
