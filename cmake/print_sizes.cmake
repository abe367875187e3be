# Script mode: prints the page's files, raw and gzip -9 sizes, and checks what a visitor
# downloads at start (index.html + index.js + index.wasm, gzip -9 as a web server sends them)
# against the budget: cmake -DDIR=<site> [-DBUDGET_KB=<n>] -P print_sizes.cmake
# KB here are 1000 bytes. The code the first frame does not run (index.deferred.wasm, fetched
# once the first frame is drawn: cmake/split_page.py), the probe modules (probe.js + .wasm + .worker.js threaded, probe-st.js +
# .wasm), the catalog's sources (catalog-sources.json) and Japanese (i18n-ja.json, font-ja.ttf; font-ja-full.ttf
# when a typed character is outside the subset) load only when the visitor needs them,
# so they are listed but not counted.
find_program(GZIP gzip REQUIRED)
if(NOT DEFINED BUDGET_KB)
  set(BUDGET_KB 400)
endif()

# "<n>.<d>" KB of a byte count, rounded up to the tenth.
function(kb bytes out)
  math(EXPR tenths "(${bytes} + 99) / 100")
  math(EXPR whole "${tenths} / 10")
  math(EXPR frac "${tenths} % 10")
  set(${out} "${whole}.${frac}" PARENT_SCOPE)
endfunction()

function(gzip_size path out)
  execute_process(COMMAND ${GZIP} -9 -c "${path}" OUTPUT_FILE "${path}.gz.tmp" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9 ${path} failed")
  endif()
  file(SIZE "${path}.gz.tmp" gz)
  file(REMOVE "${path}.gz.tmp")
  set(${out} ${gz} PARENT_SCOPE)
endfunction()

set(total_raw 0)
set(total_gz 0)
set(missing "")
foreach(name index.html index.js index.wasm index.deferred.wasm probe.js probe.wasm probe.worker.js probe-st.js probe-st.wasm catalog-sources.json
                i18n-ja.json font-ja.ttf font-ja-full.ttf)
  set(path "${DIR}/${name}")
  if(NOT EXISTS "${path}")
    if(name MATCHES "^index\\.(html|js|wasm)$")
      list(APPEND missing ${name})
    endif()
    continue()
  endif()
  file(SIZE "${path}" raw)
  gzip_size("${path}" gz)
  kb(${raw} raw_kb)
  kb(${gz} gz_kb)
  if(name MATCHES "^index\\.(html|js|wasm)$")
    math(EXPR total_raw "${total_raw} + ${raw}")
    math(EXPR total_gz "${total_gz} + ${gz}")
    set(note "")
  else()
    set(note " (on demand, not counted)")
  endif()
  message(STATUS "page: ${name}: ${raw} bytes (${raw_kb} KB), gzip ${gz} bytes (${gz_kb} KB)${note}")
endforeach()
# Rounded up, so that "400.0 KB" never hides a byte over the budget.
kb(${total_raw} raw_kb)
kb(${total_gz} gz_kb)
math(EXPR budget_bytes "${BUDGET_KB} * 1000")
if(missing)
  message(WARNING "page: ${missing} missing in ${DIR}: the start-up total is incomplete")
endif()
if(total_gz GREATER budget_bytes)
  math(EXPR over "${total_gz} - ${budget_bytes}")
  message(WARNING "page: start-up download ${gz_kb} KB gzip (${total_gz} bytes) is OVER the "
                  "${BUDGET_KB} KB budget by ${over} bytes (index.html + index.js + index.wasm; raw ${raw_kb} KB)")
else()
  math(EXPR left "${budget_bytes} - ${total_gz}")
  message(STATUS "page: start-up download ${gz_kb} KB gzip (${total_gz} bytes) of the ${BUDGET_KB} KB "
                 "budget, ${left} bytes to spare (index.html + index.js + index.wasm; raw ${raw_kb} KB)")
endif()
