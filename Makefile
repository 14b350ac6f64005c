# tsr -- build, test and run.  `make` builds build/libtsr.a, build/libtsr.so and build/tsr.
# The Lemon parser is generated from grammar/tsr.y into the build folder, never into git.

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2
override CFLAGS += -std=c11 -Wall -Wextra -fPIC -fvisibility=hidden -D_DEFAULT_SOURCE -pthread -g
override CPPFLAGS += -Isrc -I$(BUILD)/gen
# OpenBLAS is linked --as-needed: the CBLAS routines of src/runtime/blas.c load it on first use.
LIBS    = -Wl,--as-needed -lopenblas -lzip -lz -lm -lpthread -ldl
LEMON   ?= lemon
LEMPAR  ?= /usr/share/lemon/lempar.c

LIB_SRC := $(wildcard src/runtime/*.c src/lang/*.c src/lib/*.c src/api/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/grammar.o $(BUILD)/obj/gen/stdlib_src.o
CLI_SRC := $(wildcard src/cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
HDRS    := $(wildcard src/*.h src/*/*.h) $(BUILD)/gen/grammar.h

UNIT_SRC  := $(wildcard tests/unit/*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit_%)
EMBED_SRC := $(wildcard tests/embed/*.c)
EMBED_BIN := $(EMBED_SRC:tests/embed/%.c=$(BUILD)/tests/embed_%)

.PHONY: FORCE all test test-asan test-allocfail fuzz fuzz-build fuzz-diff run bench clean
all: $(BUILD)/libtsr.a $(BUILD)/libtsr.so $(BUILD)/tsr
FORCE:

# one lemon run makes both files (a grouped target: make -j2 must not run it twice at once)
$(BUILD)/gen/grammar.c $(BUILD)/gen/grammar.h &: grammar/tsr.y
	@mkdir -p $(BUILD)/gen
	cp grammar/tsr.y $(BUILD)/gen/grammar.y
	$(LEMON) -q -T$(LEMPAR) -d$(BUILD)/gen $(BUILD)/gen/grammar.y

# The list of stdlib files is a prerequisite of its own (rewritten only when it changes), so
# that deleting or adding a stdlib/*.tsr file regenerates stdlib_src.c.
STDLIB_TSR := $(sort $(wildcard stdlib/*.tsr))
$(BUILD)/gen/stdlib.list: FORCE
	@mkdir -p $(BUILD)/gen
	@echo '$(STDLIB_TSR)' > $@.tmp; cmp -s $@.tmp $@ || cp $@.tmp $@; rm -f $@.tmp

$(BUILD)/gen/stdlib_src.c: $(STDLIB_TSR) $(BUILD)/gen/stdlib.list scripts/embed-stdlib
	@mkdir -p $(BUILD)/gen
	sh scripts/embed-stdlib $(STDLIB_TSR) > $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc/lang -Wno-unused-parameter -Wno-unused-variable -c $< -o $@

$(BUILD)/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/libtsr.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/libtsr.so: $(LIB_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libtsr.so.$(SOMAJOR) -o $@ $^ $(LIBS) $(LDFLAGS)
	ln -sf libtsr.so $(BUILD)/libtsr.so.$(SOMAJOR)

$(BUILD)/tsr: $(CLI_OBJ) $(BUILD)/libtsr.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libtsr.a $(LIBS) -ledit $(LDFLAGS)

$(BUILD)/tests/unit_%: tests/unit/%.c $(BUILD)/libtsr.a $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libtsr.a $(LIBS) $(LDFLAGS)

# ---- Packaging and the embedding tests -------------------------------------------------------
# `make install PREFIX=/usr/local` installs include/tsr.h, lib/libtsr.a, lib/libtsr.so.VERSION
# (soname libtsr.so.SOMAJOR, with the two symlinks) and lib/pkgconfig/tsr.pc.  build/tsr.pc
# describes the uninstalled library (PKG_CONFIG_PATH=build pkg-config --cflags --libs tsr).
# The embed tests are hosts built only through pkg-config against a copy installed under
# $(BUILD)/prefix, linked to its libtsr.so; tests/embed/package.sh checks the package itself.
PREFIX  ?= /usr/local
VERSION := 0.1.0
SOMAJOR := 0
CXX     ?= c++
PC_LIBS_PRIVATE := $(LIBS)
EMBED_PREFIX := $(abspath $(BUILD))/prefix
EMBED_PC := PKG_CONFIG_PATH=$(EMBED_PREFIX)/lib/pkgconfig pkg-config
EMBED_CXX_SRC := $(wildcard tests/embed/*.cc)
EMBED_BIN += $(EMBED_CXX_SRC:tests/embed/%.cc=$(BUILD)/tests/embed_%) $(BUILD)/tests/embed_package

.PHONY: install test-valgrind
, := ,
all: $(BUILD)/tsr.pc
define tsr_pc
prefix=$(1)
includedir=$(2)
libdir=$(3)

Name: tsr
Description: embeddable interpreter for NumPy-style tensor programs
Version: $(VERSION)
Cflags: -I$${includedir}
Libs: -L$${libdir} $(4) -ltsr
Libs.private: $(PC_LIBS_PRIVATE)
endef

# $(file) runs when make expands the recipe, before any of its lines: the directory must exist
# beforehand (an order-only prerequisite), or a clean make -j2 can fail to open the file.
$(BUILD)/.dir:
	@mkdir -p $(BUILD) && touch $@
$(BUILD)/tsr.pc: Makefile | $(BUILD)/.dir
	$(file >$@,$(call tsr_pc,$(CURDIR),$(CURDIR)/src,$(abspath $(BUILD)),-Wl$(,)-rpath$(,)$${libdir}))

# The installed static library is one relocatable object whose internal (hidden) symbols are
# made local, so that a host's own buf_init or reduce cannot clash with tsr's; build/libtsr.a
# keeps them global for the unit tests.
$(BUILD)/libtsr-dist.a: $(LIB_OBJ)
	$(LD) -r -o $(BUILD)/libtsr-dist.o $^
	objcopy --localize-hidden $(BUILD)/libtsr-dist.o
	rm -f $@
	ar rcs $@ $(BUILD)/libtsr-dist.o

install: $(BUILD)/libtsr-dist.a $(BUILD)/libtsr.so
	mkdir -p $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	cp src/tsr.h $(DESTDIR)$(PREFIX)/include/tsr.h
	cp $(BUILD)/libtsr-dist.a $(DESTDIR)$(PREFIX)/lib/libtsr.a
	cp $(BUILD)/libtsr.so $(DESTDIR)$(PREFIX)/lib/libtsr.so.$(VERSION)
	ln -sf libtsr.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libtsr.so.$(SOMAJOR)
	ln -sf libtsr.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libtsr.so
	$(file >$(BUILD)/tsr-install.pc,$(call tsr_pc,$(PREFIX),$${prefix}/include,$${prefix}/lib,))
	cp $(BUILD)/tsr-install.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/tsr.pc

$(EMBED_PREFIX)/lib/pkgconfig/tsr.pc: $(BUILD)/libtsr-dist.a $(BUILD)/libtsr.so src/tsr.h $(BUILD)/tsr.pc
	$(MAKE) --no-print-directory install PREFIX=$(EMBED_PREFIX) DESTDIR=

$(BUILD)/tests/embed_%: tests/embed/%.c $(EMBED_PREFIX)/lib/pkgconfig/tsr.pc
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $$($(EMBED_PC) --cflags tsr) -o $@ $< $$($(EMBED_PC) --libs tsr) \
	  -Wl,-rpath,$(EMBED_PREFIX)/lib $(LDFLAGS)

$(BUILD)/tests/embed_%: tests/embed/%.cc $(EMBED_PREFIX)/lib/pkgconfig/tsr.pc
	@mkdir -p $(dir $@)
	$(CXX) $(filter-out -std=c11,$(CFLAGS)) -std=c++11 $$($(EMBED_PC) --cflags tsr) -o $@ $< \
	  $$($(EMBED_PC) --libs tsr) -Wl,-rpath,$(EMBED_PREFIX)/lib $(LDFLAGS)

$(BUILD)/tests/embed_package: tests/embed/package.sh
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh %s/tests/embed/package.sh %s "%s"\n' "$(CURDIR)" "$(abspath $(BUILD))" \
	  "$(CC) $(filter -fsanitize% -fno-sanitize%,$(CFLAGS))" >$@
	chmod +x $@

# Under ASan a huge request (zeros((10**6, 10**6))) must come back NULL, as from libc, so that
# tsr reports MemoryError instead of ASan aborting.
test-asan: export ASAN_OPTIONS := allocator_may_return_null=1$(if $(ASAN_OPTIONS),:$(ASAN_OPTIONS))

# The embedding tests again under valgrind's memcheck (the non-sanitizer build): any error or
# leak fails.  .ci/run calls it.  embed_warnings is left out: valgrind does not emulate the
# FPU's exception flags, which NumPy's warnings (and that test) are made of; it runs under
# ASan instead.
test-valgrind: all $(EMBED_BIN)
	@command -v valgrind >/dev/null || { echo "test-valgrind: valgrind is not installed"; exit 1; }
	@fail=0; for t in $(filter-out %embed_package %embed_warnings,$(EMBED_BIN)); do \
	  if OPENBLAS_NUM_THREADS=1 TSR_TEST_VALGRIND=1 valgrind -q --error-exitcode=99 \
	       --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
	       $$t >$(BUILD)/valgrind.out 2>&1; then echo "valgrind ok: $$t"; \
	  else fail=1; echo "valgrind FAIL: $$t"; tail -n 30 $(BUILD)/valgrind.out; fi; done; \
	  exit $$fail

# The whole suite: C unit tests, host-embedding tests, golden .tsr programs (and, where
# /usr/bin/python3 has NumPy, the differential pass against the oracle).  Ends with
# "N passed, N failed".
test: all $(UNIT_BIN) $(EMBED_BIN)
	sh tests/run $(BUILD)

# Allocation-failure injection over every golden program (make test checks a sample of each
# category; this fails every allocation of every program in turn).
test-allocfail: $(BUILD)/tests/unit_test_allocfail
	TSR_ALLOCFAIL_ALL=1 $(BUILD)/tests/unit_test_allocfail

# libFuzzer targets (tests/fuzz/fuzz_*.c) built with clang, ASan and UBSan into build-fuzz;
# `make fuzz` runs each for FUZZ_TIME seconds on a corpus seeded from the golden programs.
FUZZ_CC   ?= clang-14
FUZZ_TIME ?= 60
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
fuzz-build:
	@# a changed ignore list changes every object's instrumentation
	@if [ tests/fuzz/ignore.txt -nt build-fuzz/libtsr.a ]; then rm -rf build-fuzz/obj build-fuzz/libtsr.a; fi
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) \
	  CFLAGS="-O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	    -fsanitize-coverage-ignorelist=tests/fuzz/ignore.txt" \
	  build-fuzz/libtsr.a
	$(MAKE) BUILD=build-fuzz $(FUZZ_BIN)
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libtsr.a src/tsr.h
	$(FUZZ_CC) -Isrc -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $< build-fuzz/libtsr.a $(LIBS)
fuzz: fuzz-build
	sh tests/fuzz/run $(FUZZ_TIME) $(FUZZ_BIN)

# The differential fuzzer (tests/fuzzdiff): N random programs under tsr and under NumPy, from
# SEED (default: a fresh one, printed); differences are minimised into $(BUILD)/fuzzdiff/.
N ?= 2000
fuzz-diff: all
	/usr/bin/python3 tests/fuzzdiff/fuzzdiff.py --tsr $(BUILD)/tsr --n $(N) $(if $(SEED),--seed $(SEED)) \
	  --out $(BUILD)/fuzzdiff

# The same suite built with AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan:
	TSR_ALLOCFAIL_PER_DIR=1 $(MAKE) BUILD=build-asan CC=gcc \
	  CFLAGS="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

run: all
	$(BUILD)/tsr scripts/examples/fashion_mnist.tsr

bench: all
	scripts/bench

clean:
	rm -rf build build-asan
