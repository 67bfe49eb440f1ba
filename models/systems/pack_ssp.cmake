# pack_ssp.cmake -- run with cmake -P: pack one system of FMUs as an SSP 1.0
# archive: SystemStructure.ssd at the root, the component FMUs in resources/
# (the SSD names them "resources/<Name>.fmu"), entries sorted, fixed times,
# as models/kit/pack_fmu.cmake packs an FMU.
# Inputs: SSD (the SystemStructure.ssd), FMUS (;-list of .fmu files), STAGE
# (a scratch folder, emptied), SSP (the archive to write).
file(REMOVE_RECURSE ${STAGE})
file(MAKE_DIRECTORY ${STAGE}/resources)
file(COPY_FILE ${SSD} ${STAGE}/SystemStructure.ssd)
foreach(fmu IN LISTS FMUS)
  get_filename_component(fmu_name ${fmu} NAME)
  file(COPY_FILE ${fmu} ${STAGE}/resources/${fmu_name})
endforeach()
file(GLOB_RECURSE entries RELATIVE ${STAGE} ${STAGE}/*)
list(SORT entries)
file(REMOVE ${SSP})
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${SSP} --format=zip --mtime=1980-01-01 -- ${entries}
                WORKING_DIRECTORY ${STAGE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "zipping ${SSP} failed (${rc})")
endif()
