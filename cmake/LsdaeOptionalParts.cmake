# The optional parts of the build: tests/ (GoogleTest), bench/ (Google
# Benchmark) and python/ (pybind11 over Python 3's headers). Each cache
# variable is AUTO, ON or OFF (top-level CMakeLists.txt); this file turns it
# into a plain ON or OFF variable of the same name for the rest of the build,
# so `if(LSDAE_PYTHON)` means "built". AUTO without the packages says, once,
# which Debian package brings the part; ON without them stops with that message.
# The library, the CLI and the model FMUs never depend on these.

# lsdae_resolve_part(<variable> <found> <what> <packages>)
function(lsdae_resolve_part variable found what packages)
  set(value "${${variable}}")
  string(TOUPPER "${value}" value)
  if(NOT value MATCHES "^(AUTO|ON|OFF|TRUE|FALSE|YES|NO|1|0)$")
    message(FATAL_ERROR "${variable}=${${variable}} → give AUTO, ON or OFF")
  endif()
  if(value STREQUAL "AUTO")
    if(found)
      set(value ON)
    else()
      set(value OFF)
      message(STATUS "lsdae: ${what} not built: ${packages} not found → scripts/setup-deps.sh --full installs them")
    endif()
  elseif(value MATCHES "^(ON|TRUE|YES|1)$")
    if(NOT found)
      message(FATAL_ERROR "${variable}=ON: ${what} need ${packages}, not found → scripts/setup-deps.sh --full "
                          "installs them, or configure with -D${variable}=OFF")
    endif()
    set(value ON)
  else()
    set(value OFF)
  endif()
  set(${variable} ${value} PARENT_SCOPE)
endfunction()

set(lsdae_gtest_found OFF)
if(GTest_FOUND OR GTEST_FOUND)
  set(lsdae_gtest_found ON)
endif()
lsdae_resolve_part(LSDAE_BUILD_TESTS "${lsdae_gtest_found}" "the tests (tests/)" "libgtest-dev")
lsdae_resolve_part(LSDAE_BUILD_BENCH "${benchmark_FOUND}" "the benchmarks (bench/)" "libbenchmark-dev")

# The Python package: the interpreter is Debian's /usr/bin/python3 (where
# python3-numpy and pybind11-dev's headers belong) unless -DPython3_EXECUTABLE
# says otherwise; python/CMakeLists.txt finds the same again, REQUIRED.
if(NOT LSDAE_PYTHON STREQUAL "OFF")
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 3.9 QUIET COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
endif()
set(lsdae_python_found OFF)
if(Python3_FOUND AND pybind11_FOUND)
  set(lsdae_python_found ON)
endif()
if(LSDAE_SANITIZE AND LSDAE_PYTHON STREQUAL "AUTO")
  set(LSDAE_PYTHON OFF)
endif()
lsdae_resolve_part(LSDAE_PYTHON "${lsdae_python_found}" "the Python package (python/)" "python3-dev and pybind11-dev")
