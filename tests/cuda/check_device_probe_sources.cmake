# scripts/device_probe.sh builds the CUDA probe with one nvcc line on a GPU machine that has no
# CMake or project dependencies. Its source list must be the CMake target's: when the core's
# text sources grew (d3bcd18), the script kept the old list and its build failed to link on the
# lent GPU (found 2026-12-04). SCRIPT: the script; SOURCES: the target's sources, relative to the
# repository root, separated by '|'.
file(READ "${SCRIPT}" text)
string(REPLACE "|" ";" sources "${SOURCES}")
set(missing "")
foreach(src IN LISTS sources)
  string(FIND "${text}" "${src}" at)
  if(at EQUAL -1)
    list(APPEND missing "${src}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "${SCRIPT} does not compile: ${missing} (the target gpuplan-probe-gpu does)")
endif()
list(LENGTH sources n)
message(STATUS "${SCRIPT} names all ${n} sources of gpuplan-probe-gpu")
