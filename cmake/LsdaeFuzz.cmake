# cmake/LsdaeFuzz.cmake -- what the libFuzzer targets share (runtime/fuzz/, models/fuzz/;
# -DLSDAE_FUZZ=ON, docs/fuzzing.md): the compiler check and the instrumentation.
#   LSDAE_FUZZ_SANITIZERS  the sanitizers beside libFuzzer (-fsanitize=fuzzer,<these>)
#   LSDAE_FUZZ_FLAGS       the compile flags of every instrumented source
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "LSDAE_FUZZ=ON needs clang (libFuzzer); configure a separate build directory with "
                      "CC=clang CXX=clang++ (the compiler seen is ${CMAKE_CXX_COMPILER_ID})")
endif()
set(LSDAE_FUZZ_SANITIZERS address,undefined)
set(LSDAE_FUZZ_FLAGS -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
