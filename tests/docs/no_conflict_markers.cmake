# tests/docs/no_conflict_markers.cmake -- no file of the project keeps the
# markers of an unresolved merge (a docs page once did, through two merges).
#   cmake -DROOT=<source dir> -P no_conflict_markers.cmake
file(GLOB_RECURSE files LIST_DIRECTORIES false
     ${ROOT}/*.md ${ROOT}/*.cpp ${ROOT}/*.h ${ROOT}/*.c ${ROOT}/*.py ${ROOT}/*.cmake ${ROOT}/*.txt ${ROOT}/*.json
     ${ROOT}/*.sh)
set(found "")
foreach(f IN LISTS files)
  if(f MATCHES "/build[^/]*/|/\\.git/")
    continue()
  endif()
  file(STRINGS ${f} lines REGEX "^(<<<<<<< |>>>>>>> )")
  if(lines)
    file(RELATIVE_PATH rel ${ROOT} ${f})
    list(APPEND found "${rel}")
  endif()
endforeach()
if(found)
  string(REPLACE ";" "\n  " list "${found}")
  message(FATAL_ERROR "unresolved merge markers (<<<<<<< / >>>>>>>) in:\n  ${list}\n→ resolve the merge in these files")
endif()
message(STATUS "no merge markers")
