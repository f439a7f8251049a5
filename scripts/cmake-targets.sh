#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes simdhttp-<target>-targets.cmake for the Makefile install (the CMake build exports its
# own): one imported target simdhttp::<target>, the shared library unless the consumer sets
# simdhttp_USE_STATIC_LIBS. Paths are the final absolute ones, as in the pkg-config file.
# Usage: cmake-targets.sh TARGET LIBNAME VERSION SOMAJOR LIBDIR "INCLUDEDIRS;..." "DEP_TARGETS..."
#                         "STATIC_DEP_TARGETS..."   (the static library's extra link needs)
set -eu
t=$1 name=$2 ver=$3 major=$4 libdir=$5 incdir=$6
deps=$(echo ${7:-} | tr ' ' ';') sdeps=$(echo ${7:-} ${8:-} | tr ' ' ';')
q='"'
slink=${sdeps:+ INTERFACE_LINK_LIBRARIES $q$sdeps$q}
link=${deps:+ INTERFACE_LINK_LIBRARIES $q$deps$q}
cat <<EOT
# SPDX-License-Identifier: MIT
# simdhttp::$t, written by simdhttp's make install (scripts/cmake-targets.sh); read by simdhttpConfig.cmake.
if(NOT TARGET simdhttp::$t)
  if(simdhttp_USE_STATIC_LIBS)
    add_library(simdhttp::$t STATIC IMPORTED)
    set_target_properties(simdhttp::$t PROPERTIES IMPORTED_LOCATION "$libdir/lib$name.a"$slink)
  else()
    add_library(simdhttp::$t SHARED IMPORTED)
    set_target_properties(simdhttp::$t PROPERTIES IMPORTED_LOCATION "$libdir/lib$name.so.$ver"
      IMPORTED_SONAME "lib$name.so.$major"$link)
  endif()
  set_target_properties(simdhttp::$t PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "$incdir"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C")
endif()
EOT
