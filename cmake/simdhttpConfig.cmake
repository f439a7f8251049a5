# SPDX-License-Identifier: MIT
# CMake package of simdhttp, installed by `make install` and by the CMake build alike:
#   find_package(simdhttp 0.1 REQUIRED)                       -> simdhttp::simdhttp
#   find_package(simdhttp 0.1 REQUIRED COMPONENTS llhttp)     -> also simdhttp::llhttp
# Each installed library brings its own simdhttp-<name>-targets.cmake next to this file (a
# distribution may package them separately); a component is found when its file is present.
# With the Makefile install, set simdhttp_USE_STATIC_LIBS to ON before find_package to get the
# static libraries (the CMake build installs what BUILD_SHARED_LIBS chose).
set(simdhttp_LICENSE "MIT") # SPDX identifier of every simdhttp library (LICENSE)
include("${CMAKE_CURRENT_LIST_DIR}/simdhttp-simdhttp-targets.cmake")
file(GLOB _simdhttp_parts "${CMAKE_CURRENT_LIST_DIR}/simdhttp-*-targets.cmake")
foreach(_simdhttp_f IN LISTS _simdhttp_parts)
  string(REGEX REPLACE ".*/simdhttp-(.*)-targets\\.cmake$" "\\1" _simdhttp_c "${_simdhttp_f}")
  if(NOT _simdhttp_c STREQUAL "simdhttp")
    include("${_simdhttp_f}")
  endif()
  set(simdhttp_${_simdhttp_c}_FOUND TRUE)
endforeach()
foreach(_simdhttp_c IN LISTS simdhttp_FIND_COMPONENTS)
  if(NOT simdhttp_${_simdhttp_c}_FOUND AND simdhttp_FIND_REQUIRED_${_simdhttp_c})
    set(simdhttp_FOUND FALSE)
    set(simdhttp_NOT_FOUND_MESSAGE "simdhttp component ${_simdhttp_c} is not installed")
  endif()
endforeach()
unset(_simdhttp_parts)
unset(_simdhttp_f)
unset(_simdhttp_c)
