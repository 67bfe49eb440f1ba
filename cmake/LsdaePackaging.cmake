# The Debian package: `cpack -G DEB` in a build tree writes
# lsdae_<version>_amd64.deb (docs/install.md) with what `cmake --install`
# installs under /usr: the program, liblsdae.so, the headers, the CMake
# package, lsdae.pc, and man pages made from the program's --help (help2man,
# when installed). Not the Python package: `pip install .` is its way in
# (its install rules are the component "python", left out here).
# Depends: from the ELF files' shared-library needs (dpkg-shlibdeps), so it
# names the Debian 12 runtime packages (libsundials-ida6, libklu1, ...) this
# build linked, MPI's included when the build found it.
include(GNUInstallDirs)

# Man pages: one for the program, one per command, from their --help.
find_program(LSDAE_HELP2MAN help2man)
find_program(LSDAE_GZIP gzip)
if(LSDAE_HELP2MAN AND LSDAE_GZIP)
  set(man_dir ${CMAKE_BINARY_DIR}/man)
  set(man_pages)
  # One page per command: help2man runs one program, so a wrapper per command. The page's
  # NAME line is the first line of the command's --help, said once: without the program's own
  # name in front ("lsdae -- simulate ..." names the page "lsdae"), and cut from the help the
  # wrapper shows help2man, which would repeat it as the DESCRIPTION.
  file(WRITE ${man_dir}/make_page.sh.in [=[#!/bin/sh
# make_page.sh <help2man> <gzip> <lsdae> <command or ""> <page> <version> <out dir>
set -e
help2man=$1 gzip=$2 lsdae=$3 command=$4 page=$5 version=$6 out=$7
wrapper=$out/wrappers/$page
mkdir -p "$out/wrappers"
printf '#!/bin/sh\nif [ "$1" = --help ]; then "%s" %s --help | tail -n +2; else exec "%s" %s "$@"; fi\n' \
  "$lsdae" "$command" "$lsdae" "$command" >"$wrapper"
chmod +x "$wrapper"
name=$("$lsdae" $command --help | head -n 1 | sed 's/^lsdae -- //')
"$help2man" --no-info --no-discard-stderr --version-string="$version" --name="$name" --output="$out/$page.1" "$wrapper"
"$gzip" -9nf "$out/$page.1"
]=])
  # Copied only when it changed, so that the pages are made again when the script changes (a
  # DEPENDS below), not at every configure.
  configure_file(${man_dir}/make_page.sh.in ${man_dir}/make_page.sh COPYONLY)
  foreach(command "" info validate simulate sweep plot report)
    if(command STREQUAL "")
      set(page lsdae)
    else()
      set(page lsdae-${command})
    endif()
    add_custom_command(OUTPUT ${man_dir}/${page}.1.gz
      COMMAND sh ${man_dir}/make_page.sh ${LSDAE_HELP2MAN} ${LSDAE_GZIP} $<TARGET_FILE:lsdae> "${command}" ${page}
              ${PROJECT_VERSION} ${man_dir}
      DEPENDS lsdae ${man_dir}/make_page.sh
      COMMENT "Man page ${page}(1) from --help"
      VERBATIM)
    list(APPEND man_pages ${man_dir}/${page}.1.gz)
  endforeach()
  add_custom_target(lsdae_man ALL DEPENDS ${man_pages})
  # OPTIONAL: a tree that built only some targets (scripts/run.sh, setup.py) still installs.
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 OPTIONAL)
else()
  message(STATUS "lsdae: man pages not built: help2man not found → scripts/setup-deps.sh --full installs it")
endif()

# cpack (and `make install`) install what is built, without building all first: the .deb needs
# only `lsdae` and `lsdae_man` (`cmake --build build --target lsdae lsdae_man`), not the tests.
# (`cmake --install` never builds.)
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(CPACK_PACKAGE_NAME lsdae)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "simulate large sparse DAE models delivered as FMI 3.0 (FMI-LS-DAE) and FMI 2.0 Model Exchange FMUs")
set(CPACK_PACKAGE_DESCRIPTION "lsdae reads FMI 3.0 Model Exchange FMUs that follow the FMI Layered Standard for DAE,
and plain FMI 2.0 and 3.0 Model Exchange FMUs, analyses their sparsity structure,
reduces the index and integrates them with SUNDIALS IDA and KLU. This package has
the lsdae program, the library liblsdae.so, its C and C++ headers, its CMake
package and its pkg-config file.")
set(CPACK_PACKAGE_CONTACT "lsdae developers")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "lsdae developers")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # the build's debug sections stay in the build tree
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # lsdae_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Everything but the Python package (component "python"): CPack installs the build tree's
# component Unspecified (every install rule without a COMPONENT) into the package.
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};lsdae;Unspecified;/")
set(CPACK_SOURCE_IGNORE_FILES "/build.*/" "/\\\\.git/" "__pycache__")
include(CPack)
