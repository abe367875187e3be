# The device query either lists devices (exit 0, "device 0: ...") or, without a GPU or
# driver, prints exactly one "no CUDA device: ..." line and exits 3. Anything else fails.
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(STRIP "${out}" out)
if(rc EQUAL 0 AND out MATCHES "device 0: ")
  message(STATUS "GPU present:\n${out}")
elseif(rc EQUAL 3 AND out MATCHES "^no CUDA device: [^\n]+$" AND err STREQUAL "")
  message(STATUS "no GPU here, clean message: ${out}")
else()
  message(FATAL_ERROR "unexpected result: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
