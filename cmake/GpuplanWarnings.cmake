# Warnings on for our own targets (never for third-party sources): g++ and em++ stay clean.
function(gpuplan_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                               -Wnon-virtual-dtor -Wold-style-cast -Wnull-dereference>)
  if(GPUPLAN_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
