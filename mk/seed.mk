# SPDX-License-Identifier: MIT
# The seed workload against other languages' parsers, and two scaling tables (issue 35).
# Both are outside `make test`; see docs/benchmarks.md.
#
#   make bench-seed      method + User-Agent + first cookie name per request on every request
#                        file of corpus/: simdhttp and the C peers of make bench beside Go's
#                        net/http (http.ReadRequest) and Netty's HttpRequestDecoder, in one set
#                        of interleaved rounds (build/bench/seed); into bench/results/seed.txt.
#                        Needs golang-go, a JDK and libnetty-java (sh scripts/deps.sh seed):
#                        without them it says so and fails. Go and Java are built into
#                        build/bench/ at bench time; a bare make never needs them.
#   make bench-scaling   ns per message against pipelined copies of get-4h, ns per chunk
#                        against chunk size (build/bench/scaling); into bench/results/scaling.txt.
# SEED_ARGS and SCALING_ARGS pass options (--time S, --runs N) to the two programs.
# Uses mk/bench.mk's peer detection (COMPARE_DEFS, COMPARE_OBJS): included after it.

SEED_ARGS ?=
SEED_GO ?= go
SEED_JAVA ?= java
SEED_JAVAC ?= javac
SCALING_ARGS ?=
SEED_FILES ?= $(sort $(wildcard corpus/*.http))
SEED_JAVA_DIR ?= /usr/share/java
SEED_NETTY_JARS = $(foreach j,netty-codec-http netty-codec netty-transport netty-buffer netty-common netty-resolver,$(SEED_JAVA_DIR)/$j.jar)
SEED_NETTY_CP = $(subst $(eval) ,:,$(strip $(SEED_NETTY_JARS)))
SEED_GO_ENV = GOCACHE=$(abspath $(BUILD))/bench/gocache GOPATH=$(abspath $(BUILD))/bench/gopath GO111MODULE=off GOFLAGS=

SEED_C_SRCS = tools/bench_rounds.c bench/peer_list.c tools/bench_parsers.c tools/bench_stats.c
SEED_C_DEPS = $(SEED_C_SRCS) tools/bench_rounds.h tools/bench.h $(COMPARE_OBJS) $(BUILD)/libsimdhttp.a $(BUILD)/bench/peers.stamp

$(BUILD)/bench/seed: bench/seed.c $(SEED_C_DEPS) | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools $(COMPARE_DEFS) $< $(SEED_C_SRCS) $(COMPARE_OBJS) $(BUILD)/libsimdhttp.a \
		$(LDFLAGS_ALL) $(COMPARE_LIBS) -o $@
$(BUILD)/bench/scaling: bench/scaling.c $(SEED_C_DEPS) | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools $(COMPARE_DEFS) $< $(SEED_C_SRCS) $(COMPARE_OBJS) $(BUILD)/libsimdhttp.a \
		$(LDFLAGS_ALL) $(COMPARE_LIBS) -o $@
# Built (not run) by a bare make, so the compiler's warnings reach them; C only.
tests: $(BUILD)/bench/seed $(BUILD)/bench/scaling

$(BUILD)/bench/seed-go: bench/seed_go.go | $(BUILD)/bench
	$(SEED_GO_ENV) $(SEED_GO) build -o $@ $<
$(BUILD)/bench/seed-java/SeedNetty.class: bench/SeedNetty.java | $(BUILD)/bench
	mkdir -p $(@D)
	$(SEED_JAVAC) -Xlint:all -Werror -d $(@D) -cp $(SEED_NETTY_CP) $<

.PHONY: bench-seed bench-seed-check bench-seed-run bench-scaling bench-scaling-run
bench-seed-check:
	@missing=""; \
	command -v $(SEED_GO) >/dev/null 2>&1 || missing="$$missing golang-go($(SEED_GO))"; \
	{ command -v $(SEED_JAVAC) >/dev/null 2>&1 && command -v $(SEED_JAVA) >/dev/null 2>&1; } || missing="$$missing default-jdk-headless($(SEED_JAVAC),$(SEED_JAVA))"; \
	for j in $(SEED_NETTY_JARS); do [ -f $$j ] || { missing="$$missing libnetty-java($$j)"; break; }; done; \
	if [ -n "$$missing" ]; then \
		echo "bench-seed: missing:$$missing"; \
		echo "bench-seed: install them with 'sh scripts/deps.sh seed' as root (apt-get install golang-go default-jdk-headless libnetty-java)"; \
		exit 1; \
	fi

# As make bench: the C peers first (scripts/deps.sh bench, which also fetches picohttpparser's
# source), then a new make run, which finds them and builds them in. The table goes to a
# temporary file first: a failed run leaves the last good one in place.
bench-seed: bench-seed-check
	@sh scripts/deps.sh bench
	@$(MAKE) --no-print-directory bench-seed-run
bench-seed-run: $(BUILD)/bench/seed $(BUILD)/bench/seed-go $(BUILD)/bench/seed-java/SeedNetty.class
	mkdir -p $(BENCH_RESULTS)
	{ echo "$$ make bench-seed   # $$($(SEED_GO) version); $$($(SEED_JAVA) -version 2>&1 | head -n 1); netty $$(dpkg-query -W -f='$${Version}' libnetty-java 2>/dev/null || echo "(version unknown)")"; \
	  $(BUILD)/bench/seed $(SEED_ARGS) --peer go-net/http=$(BUILD)/bench/seed-go \
		--peer "netty=$(SEED_JAVA) -cp $(BUILD)/bench/seed-java:$(SEED_NETTY_CP) SeedNetty" $(SEED_FILES); } \
		> $(BENCH_RESULTS)/seed.txt.new
	mv $(BENCH_RESULTS)/seed.txt.new $(BENCH_RESULTS)/seed.txt
	cat $(BENCH_RESULTS)/seed.txt

bench-scaling:
	@sh scripts/deps.sh bench
	@$(MAKE) --no-print-directory bench-scaling-run
bench-scaling-run: $(BUILD)/bench/scaling
	mkdir -p $(BENCH_RESULTS)
	{ echo "$$ make bench-scaling"; $(BUILD)/bench/scaling $(SCALING_ARGS); } > $(BENCH_RESULTS)/scaling.txt.new
	mv $(BENCH_RESULTS)/scaling.txt.new $(BENCH_RESULTS)/scaling.txt
	cat $(BENCH_RESULTS)/scaling.txt
