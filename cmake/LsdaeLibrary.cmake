# The installable library: liblsdae.so, its headers, a CMake package and a
# pkg-config file (docs/api.md, "Install and link").
#
# liblsdae.so is made of the module libraries' objects (lsdae_structure,
# lsdae_kernels and the runtime's layers lsdae_common ... lsdae_capi, runtime/CMakeLists.txt:
# static, position-independent), so the tests keep linking the modules. lsdae.map exports the C interface and
# the namespace lsdae, nothing else. SONAME: liblsdae.so.<major>.<minor>
# while the major version is 0 (every minor release may change the ABI),
# liblsdae.so.<major> from 1.0 on.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(LSDAE_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  set(LSDAE_COMPATIBILITY SameMinorVersion)  # 0.x: the ABI may change with the minor version
else()
  set(LSDAE_SOVERSION ${PROJECT_VERSION_MAJOR})
  set(LSDAE_COMPATIBILITY SameMajorVersion)
endif()

# Every layer but the program's own (cli/): the C interface (capi/) and all below it.
set(lsdae_library_targets lsdae_structure lsdae_kernels)
set(lsdae_library_objects)
foreach(layer common import fmu system results simulation supervise run sweep capi)
  list(APPEND lsdae_library_targets lsdae_${layer})
endforeach()
foreach(target IN LISTS lsdae_library_targets)
  list(APPEND lsdae_library_objects $<TARGET_OBJECTS:${target}>)
endforeach()
# The composition root's objects (compose/: lsdae_sweep, the models' plug-in list) and the
# plug-ins themselves (the PowerGrid and PsseGrid FMUs' scenario sources, public headers
# only, and the PSS/E .raw reader the latter needs).
add_library(lsdae_shared SHARED ${lsdae_library_objects} $<TARGET_OBJECTS:lsdae_compose>
                                $<TARGET_OBJECTS:lsdae_powergrid_scenarios>
                                $<TARGET_OBJECTS:lsdae_psse_scenarios> $<TARGET_OBJECTS:lsdae_psse_raw>)
add_library(lsdae::lsdae ALIAS lsdae_shared)
# For the modules' own dependencies (SUNDIALS, KLU, libzip, pugixml, OpenMP, ...): the
# archives themselves add nothing, every symbol in them is already defined by the objects.
target_link_libraries(lsdae_shared PRIVATE ${lsdae_library_targets})
target_include_directories(lsdae_shared PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/runtime)
# lsdae/version.h is generated (top-level CMakeLists.txt; lsdae_common carries its folder).
# The public headers are each layer's include/lsdae/ (runtime/<layer>/include/), installed as one
# folder, <prefix>/include/lsdae/.
get_target_property(lsdae_public_include_dirs lsdae_public_headers INTERFACE_INCLUDE_DIRECTORIES)
foreach(dir IN LISTS lsdae_public_include_dirs)
  target_include_directories(lsdae_shared INTERFACE $<BUILD_INTERFACE:${dir}>)
endforeach()
target_include_directories(lsdae_shared INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_options(lsdae_shared PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/lsdae.map
  # Calls inside the library bind inside it (no PLT indirection on the hot paths).
  -Wl,-Bsymbolic-functions
  -Wl,--no-undefined)
# The library's exports are a contract (library.exports): GNU ld (bfd) keeps
# them to the version script, while gold also exports the standard library's
# weak instantiations that libstdc++.so defines too (std::string::resize).
# One link, so the faster linker of the rest (LSDAE_GOLD) gives little here.
if(LSDAE_HAVE_GOLD)
  target_link_options(lsdae_shared PRIVATE -fuse-ld=bfd)
endif()
set_target_properties(lsdae_shared PROPERTIES
  OUTPUT_NAME lsdae
  EXPORT_NAME lsdae
  VERSION ${PROJECT_VERSION}
  SOVERSION ${LSDAE_SOVERSION}
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/lsdae.map
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)

install(TARGETS lsdae_shared EXPORT lsdaeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir IN LISTS lsdae_public_include_dirs)
  install(DIRECTORY ${dir}/lsdae DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
endforeach()
# The public ScenarioRunner (one scenario at a time on a reused model): lsdae/sweep/scenario_runner.h
# (it includes only lsdae/*.h).
install(FILES ${PROJECT_SOURCE_DIR}/runtime/sweep/scenario_runner.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lsdae/sweep)
# The program, linked against the same library, finds it relative to itself.
set_target_properties(lsdae PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS lsdae RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(LSDAE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/lsdae)
install(EXPORT lsdaeTargets NAMESPACE lsdae:: DESTINATION ${LSDAE_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/lsdaeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/lsdaeConfig.cmake INSTALL_DESTINATION ${LSDAE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/lsdaeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${LSDAE_COMPATIBILITY})
install(FILES ${CMAKE_BINARY_DIR}/lsdaeConfig.cmake ${CMAKE_BINARY_DIR}/lsdaeConfigVersion.cmake
  DESTINATION ${LSDAE_CMAKE_DIR})

# pkg-config: the library's own flags only (its dependencies are shared
# libraries it records itself: DT_NEEDED).
# Relocatable: the prefix is found from the .pc file's own folder.
file(RELATIVE_PATH LSDAE_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(${CMAKE_CURRENT_LIST_DIR}/lsdae.pc.in ${CMAKE_BINARY_DIR}/lsdae.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/lsdae.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
