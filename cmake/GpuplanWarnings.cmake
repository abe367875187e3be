# Warnings on for our own targets (never for third-party sources): g++ and em++ stay clean.
function(gpuplan_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                               -Wnon-virtual-dtor -Wold-style-cast -Wnull-dereference>)
  # g++ 12 reports false -Wrestrict errors inside std::string's operator+ at -O2/-O3
  # (GCC bug 105329, fixed in 13); the warning stays on for every other compiler.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
  if(GPUPLAN_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
