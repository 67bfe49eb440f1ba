# Every dependency comes from a Debian 12 package (scripts/setup-deps.sh
# installs them) and is found here; nothing is downloaded at build time.
# The library, the CLI and the model FMUs need only the REQUIRED ones
# (`scripts/setup-deps.sh` installs those; `--full` adds the rest): the tests
# (GoogleTest), the benchmarks (Google Benchmark) and the Python package
# (pybind11) are built when their packages are found and left out, with a
# message saying which package brings them, when not.
#   libsundials-dev    SUNDIALS IDA, sparse matrix, KLU linear solver
#   libsuitesparse-dev KLU, BTF, AMD, COLAMD
#   libeigen3-dev      dense LU/QR for dummy-derivative selection
#   libmetis-dev       fill-reducing ordering
#   libgtest-dev       unit tests;  libbenchmark-dev  benchmarks (both optional)
#   libopenmpi-dev     MPI for the sweep scheduler (optional: without it no MPI scheduler)
#   libpugixml-dev     XML;  libzip-dev  FMU archives;  libcli11-dev  command line
find_package(Threads REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
# Optional: what only tests/ and bench/ need (LSDAE_BUILD_TESTS and
# LSDAE_BUILD_BENCH in the top-level CMakeLists.txt say what happens without).
find_package(GTest QUIET)
find_package(benchmark QUIET)
find_package(pugixml REQUIRED)
# Debian's libzip CMake package insists on the zipcmp tools; pkg-config is enough.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
find_package(CLI11 REQUIRED)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(SUNDIALS 6 REQUIRED)

# SuiteSparse 5.x and METIS ship no CMake package on Debian 12: find the
# headers and libraries and wrap them in imported targets.
find_path(SUITESPARSE_INCLUDE_DIR klu.h PATH_SUFFIXES suitesparse REQUIRED)
foreach(lib klu btf amd colamd suitesparseconfig)
  find_library(SUITESPARSE_${lib}_LIBRARY ${lib} REQUIRED)
  add_library(SuiteSparse::${lib} UNKNOWN IMPORTED)
  set_target_properties(SuiteSparse::${lib} PROPERTIES
    IMPORTED_LOCATION ${SUITESPARSE_${lib}_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${SUITESPARSE_INCLUDE_DIR})
endforeach()
find_path(METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)
add_library(METIS::metis UNKNOWN IMPORTED)
set_target_properties(METIS::metis PROPERTIES
  IMPORTED_LOCATION ${METIS_LIBRARY} INTERFACE_INCLUDE_DIRECTORIES ${METIS_INCLUDE_DIR})

# Optional: MPI (Open MPI from Debian, libopenmpi-dev and openmpi-bin) for
# the sweep's MPI scheduler (runtime/sweep/mpi_scheduler.h). Without it
# lsdae builds and runs as before; only the MPI parts are left out.
find_package(MPI COMPONENTS C)
