# What `cmake --install` puts besides the programs (native/CMakeLists.txt: the CLI, its man page
# and completions, the window with its desktop entry and icon; native/cuda: the probe), and the
# Debian package CPack makes of it: `cpack -G DEB` in the build folder.
include(GNUInstallDirs)

install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)
install(FILES "${PROJECT_SOURCE_DIR}/assets/catalog/CHANGELOG.md" RENAME CHANGELOG.catalog.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)
# The licence where Debian keeps a package's (/usr/share/doc/gpuplan/copyright).
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" RENAME copyright DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT cli)

set(GPUPLAN_PACKAGE_MAINTAINER "gpuplan maintainers <gpuplan@localhost>" CACHE STRING
    "The Debian package's Maintainer field")
set(CPACK_PACKAGE_NAME gpuplan)
set(CPACK_PACKAGE_VENDOR gpuplan)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION "Which GPU, how many, how fast, at what cost: memory, speed, serving, \
training and cost of LLM workloads on the accelerators of a sourced catalog, with every term of the \
estimate shown. The command-line tool gpuplan (man gpuplan, shell completions) and the native \
window gpuplan-gui.")
set(CPACK_PACKAGE_CONTACT "${GPUPLAN_PACKAGE_MAINTAINER}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
# The programs and their files; the CUDA probe (component probe) stays out: it needs NVIDIA's
# CUDA runtime, which no Debian package provides (install it with cmake --install from a cuda
# build).
set(CPACK_COMPONENTS_ALL cli gui)
set(CPACK_DEB_COMPONENT_INSTALL OFF)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gpuplan_0.1.0-1_amd64.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# Installing a newer package over an older one is an upgrade by this version field (dpkg -i
# replaces the files; an older one over a newer is a downgrade dpkg warns about).
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GPUPLAN_PACKAGE_MAINTAINER}")
# The Japanese interface of the window uses this font (native/gui/main_native.cpp).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-ipaexfont-gothic")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")
# Depends: the Debian packages of the shared libraries the programs link (libc6, libstdc++6,
# libfmt9, libsdl2-2.0-0, libgl1, ...), as dpkg-shlibdeps finds them; a list where it is missing.
find_program(GPUPLAN_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GPUPLAN_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, libfmt9, libsdl2-2.0-0, libgl1")
endif()
message(STATUS "gpuplan: package = gpuplan ${PROJECT_VERSION}-1 (cpack -G DEB), Depends from "
               "${GPUPLAN_DPKG_SHLIBDEPS}")
include(CPack)
