# SPDX-License-Identifier: MIT
# Libraries, install and uninstall (owner: the ship part).
#
#   make install [DESTDIR=/tmp/x] [PREFIX=/usr/local] [LIBDIR=$(PREFIX)/lib] [INCLUDEDIR=...]
#                [BINDIR=...] [MANDIR=...]          e.g. Debian: PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu
#   make uninstall (same variables)
# Install builds what it installs, stages the whole tree in $(BUILD)/stage, checks that every
# target path can be written, then copies (scripts/install-tree.sh): a failure leaves the
# prefix as it was, never half installed.
#
# ---------------------------------------------------------------------------------------------
# Adding a library (a compatibility layer) takes a few lines in its own mk/<part>.mk; the rules,
# install, uninstall, pkg-config file, CMake target and symbol test follow from them:
#
#   SHIP_LIBS += llhttp                                 # the key: CMake simdhttp::llhttp
#   SHIP_llhttp_OBJS = $(LL_OBJ)                        # objects of both .a and .so (your rule
#                                                       #   builds them)
#   SHIP_llhttp_SO_OBJS = $(LIB_OBJS)                   # only in the .so (the core inside it)
#   SHIP_llhttp_STATIC_DEPS = simdhttp                  # what the .a needs at link time
#                                                       #   (pkg-config Requires.private, CMake)
#   SHIP_llhttp_HDRS = compat/llhttp/include/llhttp.h   # -> $(INCLUDEDIR)/simdhttp-llhttp/
#   SHIP_llhttp_MAP  = compat/llhttp/llhttp.map         # ld version script: exported API only
#   SHIP_llhttp_DESC = llhttp API on the simdhttp parser  # pkg-config Description
# Optional: SHIP_<key>_DEPS (keys of SHIP_LIBS the .so links with -l), _NAME (file and
# pkg-config name, default simdhttp-<key>), _HDRDIR (include subdirectory, default NAME),
# _CMAKE (target name, default <key>).
# That gives build/libsimdhttp-llhttp.{a,so.$(VERSION)} (soname .so.$(SOMAJOR)) built by
# `make lib`, pkg-config simdhttp-llhttp (Cflags -I$(INCLUDEDIR)/simdhttp-llhttp -I$(INCLUDEDIR),
# as its header may include <simdhttp.h>), CMake find_package(simdhttp 0.1 COMPONENTS llhttp) ->
# simdhttp::llhttp. Then add it to
#   - CMakeLists.txt: one simdhttp_add_library(...) call (see the compat ones there);
#   - debian/control: a lib<name>0 + lib<name>-dev pair (copy an existing pair) and a
#     debian/lib<name>0.symbols; debian/rules writes the .install files from SHIP_LIBS.
# tests/test_install.sh then checks it like the others: installed files, soname, that every
# exported symbol is declared in its headers, pkg-config (shared, static) and CMake consumers.
# ---------------------------------------------------------------------------------------------

VERSION   := $(shell sed -n 's/^\#define SIMDHTTP_VERSION_STRING "\(.*\)"/\1/p' include/simdhttp.h)
SOMAJOR   := $(firstword $(subst ., ,$(VERSION)))
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/simdhttp

# The main library: the key "simdhttp" keeps its plain names (libsimdhttp, <simdhttp.h>).
SHIP_LIBS := simdhttp $(filter-out simdhttp,$(SHIP_LIBS))
SHIP_simdhttp_NAME   = simdhttp
SHIP_simdhttp_HDRDIR =
SHIP_simdhttp_CMAKE  = simdhttp
SHIP_simdhttp_OBJS   = $(LIB_OBJS)
SHIP_simdhttp_HDRS   = include/simdhttp.h
SHIP_simdhttp_MAP    = src/libsimdhttp.map
SHIP_simdhttp_DESC   = Strict streaming HTTP/1.x parser with run-time selected SIMD

ship_name   = $(or $(SHIP_$1_NAME),simdhttp-$1)
ship_hdrdir = $(if $(filter simdhttp,$1),$(SHIP_$1_HDRDIR),$(or $(SHIP_$1_HDRDIR),$(call ship_name,$1)))
ship_cmake  = $(or $(SHIP_$1_CMAKE),$1)
ship_objs   = $(SHIP_$1_OBJS)
ship_so     = $(BUILD)/lib$(call ship_name,$1).so
ship_files  = $(BUILD)/lib$(call ship_name,$1).a $(call ship_so,$1).$(VERSION) $(call ship_so,$1).$(SOMAJOR) $(call ship_so,$1)
# Undefined symbols in a shared library are an error (not under the sanitizers: their runtime
# is linked into the executable).
SHIP_NOUNDEF = $(if $(SAN),,-Wl,--no-undefined)

# The rules of one library (evaluated by the Makefile after every mk/*.mk is read).
define ship_lib_rules
$(BUILD)/lib$(call ship_name,$1).a: $(call ship_objs,$1)
	rm -f $$@ && ar rcs $$@ $$^
$(call ship_so,$1).$(VERSION): $(call ship_objs,$1) $(SHIP_$1_SO_OBJS) $(SHIP_$1_MAP) $(foreach d,$(SHIP_$1_DEPS),$(call ship_so,$d))
	$$(CC) -shared -Wl,-soname,lib$(call ship_name,$1).so.$(SOMAJOR) -Wl,--version-script=$(SHIP_$1_MAP) \
	    $$(SHIP_NOUNDEF) $$(LDFLAGS_ALL) -o $$@ $(call ship_objs,$1) $(SHIP_$1_SO_OBJS) $(if $(SHIP_$1_DEPS),-L$(BUILD)) \
	    $(foreach d,$(SHIP_$1_DEPS),-l$(call ship_name,$d))
$(call ship_so,$1).$(SOMAJOR): $(call ship_so,$1).$(VERSION)
	ln -sf $$(notdir $$<) $$@
$(call ship_so,$1): $(call ship_so,$1).$(SOMAJOR)
	ln -sf $$(notdir $$<) $$@
endef

# --- install -------------------------------------------------------------------------------
SHIP_STAGE = $(BUILD)/stage
SHIP_PTRSIZE := $(shell $(CC) -dM -E - </dev/null 2>/dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
ship_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$1)
MAN_PAGES = $(wildcard man/*.[1-8])

# One library's files into the stage: libraries, headers, .pc, CMake targets.
define ship_stage_lib
	install -d $(S)$(LIBDIR) $(S)$(PKGCONFIGDIR) $(S)$(CMAKEDIR) $(S)$(INCLUDEDIR)$(if $(call ship_hdrdir,$1),/$(call ship_hdrdir,$1))
	install -m 644 $(BUILD)/lib$(call ship_name,$1).a $(S)$(LIBDIR)/
	install -m 755 $(call ship_so,$1).$(VERSION) $(S)$(LIBDIR)/
	ln -s lib$(call ship_name,$1).so.$(VERSION) $(S)$(LIBDIR)/lib$(call ship_name,$1).so.$(SOMAJOR)
	ln -s lib$(call ship_name,$1).so.$(SOMAJOR) $(S)$(LIBDIR)/lib$(call ship_name,$1).so
	install -m 644 $(SHIP_$1_HDRS) $(S)$(INCLUDEDIR)$(if $(call ship_hdrdir,$1),/$(call ship_hdrdir,$1))/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call ship_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call ship_rel,$(INCLUDEDIR))|' -e 's|@NAME@|$(call ship_name,$1)|' \
	    -e 's|@DESC@|$(SHIP_$1_DESC)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@REQUIRES@|$(foreach d,$(SHIP_$1_DEPS) $(SHIP_$1_STATIC_DEPS),$(call ship_name,$d))|' \
	    -e 's|@CFLAGS@|$(if $(call ship_hdrdir,$1),-I$${includedir}/$(call ship_hdrdir,$1) )-I$${includedir}|' \
	    simdhttp.pc.in > $(S)$(PKGCONFIGDIR)/$(call ship_name,$1).pc
	sh scripts/cmake-targets.sh '$(call ship_cmake,$1)' '$(call ship_name,$1)' '$(VERSION)' '$(SOMAJOR)' \
	    '$(LIBDIR)' '$(if $(call ship_hdrdir,$1),$(INCLUDEDIR)/$(call ship_hdrdir,$1);)$(INCLUDEDIR)' \
	    '$(foreach d,$(SHIP_$1_DEPS),simdhttp::$(call ship_cmake,$d))' \
	    '$(foreach d,$(SHIP_$1_STATIC_DEPS),simdhttp::$(call ship_cmake,$d))' \
	    > $(S)$(CMAKEDIR)/simdhttp-$(call ship_cmake,$1)-targets.cmake

endef

.PHONY: install uninstall ship-list
install: S = $(SHIP_STAGE)
install: lib cli
	@[ -n "$(VERSION)" ] || { echo "install: no version in include/simdhttp.h"; exit 1; }
	rm -rf $(SHIP_STAGE)
	$(foreach l,$(SHIP_LIBS),$(call ship_stage_lib,$l))
	install -d $(S)$(BINDIR) $(S)$(CMAKEDIR)
	install -m 755 $(BUILD)/simdhttp $(S)$(BINDIR)/
	install -m 644 cmake/simdhttpConfig.cmake $(S)$(CMAKEDIR)/
	sed -e 's|@SIMDHTTP_VERSION@|$(VERSION)|g' -e 's|@SIMDHTTP_SIZEOF_VOID_P@|$(SHIP_PTRSIZE)|g' \
	    cmake/simdhttpConfigVersion.cmake.in > $(S)$(CMAKEDIR)/simdhttpConfigVersion.cmake
	$(if $(MAN_PAGES),$(foreach s,$(sort $(subst .,,$(suffix $(MAN_PAGES)))),install -d $(S)$(MANDIR)/man$s && \
	    install -m 644 $(filter %.$s,$(MAN_PAGES)) $(S)$(MANDIR)/man$s/ &&) true)
	sh scripts/install-tree.sh $(SHIP_STAGE) '$(DESTDIR)'
	rm -rf $(SHIP_STAGE)

# Removes exactly what install puts there (tests/test_install.sh checks that no file is left),
# and the directories only simdhttp uses; shared directories (lib/pkgconfig, man/man1) stay.
uninstall:
	rm -f $(foreach l,$(SHIP_LIBS),$(foreach f,.a .so .so.$(SOMAJOR) .so.$(VERSION),'$(DESTDIR)$(LIBDIR)/lib$(call ship_name,$l)$f') \
	    '$(DESTDIR)$(PKGCONFIGDIR)/$(call ship_name,$l).pc' '$(DESTDIR)$(CMAKEDIR)/simdhttp-$(call ship_cmake,$l)-targets.cmake' \
	    $(foreach h,$(SHIP_$l_HDRS),'$(DESTDIR)$(INCLUDEDIR)$(if $(call ship_hdrdir,$l),/$(call ship_hdrdir,$l))/$(notdir $h)'))
	rm -f '$(DESTDIR)$(BINDIR)/simdhttp' '$(DESTDIR)$(CMAKEDIR)/simdhttpConfig.cmake' '$(DESTDIR)$(CMAKEDIR)/simdhttpConfigVersion.cmake' \
	    $(foreach m,$(MAN_PAGES),'$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $m))/$(notdir $m)')
	-rmdir '$(DESTDIR)$(CMAKEDIR)' $(foreach l,$(SHIP_LIBS),$(if $(call ship_hdrdir,$l),'$(DESTDIR)$(INCLUDEDIR)/$(call ship_hdrdir,$l)')) 2>/dev/null; true

# For debian/rules and tests: one line per library: key, file name, include subdirectory.
ship-list:
	@$(foreach l,$(SHIP_LIBS),echo '$l $(call ship_name,$l) $(call ship_hdrdir,$l)';)

TEST_SCRIPTS += tests/test_install.sh

# The Debian packages, built in a temporary copy, installed, checked and purged (needs root;
# .ci/run runs it after make test).
.PHONY: deb-test
deb-test:
	@sh tests/deb_test.sh
