# tsr -- build, test and run.  `make` builds build/libtsr.a, build/libtsr.so and build/tsr.
# The Lemon parser is generated from grammar/tsr.y into the build folder, never into git.

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2
override CFLAGS += -std=c11 -Wall -Wextra -fPIC -fvisibility=hidden -D_DEFAULT_SOURCE -pthread -g
override CPPFLAGS += -Isrc -I$(BUILD)/gen
# OpenBLAS is linked --as-needed: the CBLAS routines of src/runtime/blas.c load it on first use.
LIBS    = -Wl,--as-needed -lopenblas -lz -lm -lpthread -ldl
LEMON   ?= lemon
LEMPAR  ?= /usr/share/lemon/lempar.c

LIB_SRC := $(wildcard src/runtime/*.c src/lang/*.c src/api/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/grammar.o $(BUILD)/obj/gen/stdlib_src.o
CLI_SRC := $(wildcard src/cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
HDRS    := $(wildcard src/*.h src/*/*.h) $(BUILD)/gen/grammar.h

UNIT_SRC  := $(wildcard tests/unit/*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit_%)
EMBED_SRC := $(wildcard tests/embed/*.c)
EMBED_BIN := $(EMBED_SRC:tests/embed/%.c=$(BUILD)/tests/embed_%)

.PHONY: all test test-asan run bench clean
all: $(BUILD)/libtsr.a $(BUILD)/libtsr.so $(BUILD)/tsr

$(BUILD)/gen/grammar.c $(BUILD)/gen/grammar.h: grammar/tsr.y
	@mkdir -p $(BUILD)/gen
	cp grammar/tsr.y $(BUILD)/gen/grammar.y
	$(LEMON) -q -T$(LEMPAR) -d$(BUILD)/gen $(BUILD)/gen/grammar.y

$(BUILD)/gen/stdlib_src.c: $(wildcard stdlib/*.tsr) scripts/embed-stdlib
	@mkdir -p $(BUILD)/gen
	sh scripts/embed-stdlib $(wildcard stdlib/*.tsr) > $@

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
	$(CC) $(CFLAGS) -shared -o $@ $^ $(LIBS) $(LDFLAGS)

$(BUILD)/tsr: $(CLI_OBJ) $(BUILD)/libtsr.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libtsr.a $(LIBS) -ledit $(LDFLAGS)

$(BUILD)/tests/unit_%: tests/unit/%.c $(BUILD)/libtsr.a $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libtsr.a $(LIBS) $(LDFLAGS)

$(BUILD)/tests/embed_%: tests/embed/%.c $(BUILD)/libtsr.a src/tsr.h
	@mkdir -p $(dir $@)
	$(CC) -Isrc $(CFLAGS) -o $@ $< $(BUILD)/libtsr.a $(LIBS) $(LDFLAGS)

# The whole suite: C unit tests, host-embedding tests, golden .tsr programs (and, where
# /usr/bin/python3 has NumPy, the differential pass against the oracle).  Ends with
# "N passed, N failed".
test: all $(UNIT_BIN) $(EMBED_BIN)
	sh tests/run $(BUILD)

# The same suite built with AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan:
	$(MAKE) BUILD=build-asan CC=gcc \
	  CFLAGS="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

run: all
	$(BUILD)/tsr scripts/examples/fashion_mnist.tsr

bench: all
	scripts/bench

clean:
	rm -rf build build-asan
