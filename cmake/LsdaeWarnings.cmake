# lsdae_set_warnings(<target>): the project's warning set, applied per target.
function(lsdae_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
      -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion
      -Wformat=2 -Wimplicit-fallthrough
      # GCC 12 reports false -Wrestrict positives inside libstdc++'s
      # std::string operator+ at -O2 (GCC bug 105329); keep it a warning.
      $<$<CXX_COMPILER_ID:GNU>:-Wno-error=restrict>>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion>)
  if(LSDAE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
