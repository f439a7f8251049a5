#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes simdhttp-<target>-targets.cmake for the Makefile install (the CMake build exports its
# own): one imported target simdhttp::<target>, the shared library unless the consumer sets
# simdhttp_USE_STATIC_LIBS. Paths are the final absolute ones, as in the pkg-config file.
# Usage: cmake-targets.sh TARGET LIBNAME VERSION SOMAJOR LIBDIR INCLUDEDIR "DEP_TARGETS..."
set -eu
t=$1 name=$2 ver=$3 major=$4 libdir=$5 incdir=$6 deps=${7:-}
cat <<EOT
# SPDX-License-Identifier: MIT
# simdhttp::$t, written by simdhttp's make install (scripts/cmake-targets.sh); read by simdhttpConfig.cmake.
if(NOT TARGET simdhttp::$t)
  if(simdhttp_USE_STATIC_LIBS)
    add_library(simdhttp::$t STATIC IMPORTED)
    set_target_properties(simdhttp::$t PROPERTIES IMPORTED_LOCATION "$libdir/lib$name.a")
  else()
    add_library(simdhttp::$t SHARED IMPORTED)
    set_target_properties(simdhttp::$t PROPERTIES IMPORTED_LOCATION "$libdir/lib$name.so.$ver"
      IMPORTED_SONAME "lib$name.so.$major")
  endif()
  set_target_properties(simdhttp::$t PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "$incdir"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"${deps:+
    INTERFACE_LINK_LIBRARIES "$deps"})
endif()
EOT
