# Benchmark suite (owner: the bench part): simdhttp bench against picohttpparser and http-parser.
#
#   make bench               the tables on corpus/*.http (a few minutes; BENCH_ARGS to change)
#   make bench-plots         SVG charts and data into bench/results/ (gnuplot)
#   make bench-instructions  callgrind instructions per message, every parser and file (valgrind)
#
# Peers are found at build time and linked into the CLI when present; without them the CLI
# builds and runs the simdhttp rows and prints a one-line note per missing peer.

BENCH_ARGS ?= --scaling
BENCH_RESULTS ?= bench/results
BENCH_FILES ?=

# http-parser: Debian libhttp-parser-dev (header + library).
BENCH_HAVE_HTTP_PARSER := $(shell printf '\043include <http_parser.h>\nint main(void){return (int)http_parser_version() == 0;}\n' | \
	$(CC) -x c - -lhttp_parser -o /dev/null 2>/dev/null && echo 1)
# picohttpparser: Debian libh2o-dev ships libh2o.so (exports phr_*) but no header.
BENCH_HAVE_PICO := $(shell printf 'int phr_parse_request(void);\nint main(void){return phr_parse_request();}\n' | \
	$(CC) -x c - -lh2o -o /dev/null 2>/dev/null && echo 1)

ifeq ($(BENCH_HAVE_HTTP_PARSER),1)
$(BUILD)/simdhttp: private CFLAGS_ALL += -DHAVE_HTTP_PARSER
CLI_LIBS += -lhttp_parser
endif
ifeq ($(BENCH_HAVE_PICO),1)
$(BUILD)/simdhttp: private CFLAGS_ALL += -DHAVE_PICOHTTPPARSER
CLI_LIBS += -lh2o
endif
CLI_LIBS += -pthread

# Every parser does the same work on every corpus file; the statistics match known values;
# --json output parses. No timing is asserted.
TEST_SCRIPTS += bench/check.sh

.PHONY: bench bench-plots bench-instructions
bench: $(BUILD)/simdhttp
	$(BUILD)/simdhttp bench $(BENCH_ARGS)

bench-plots: $(BUILD)/simdhttp
	mkdir -p $(BENCH_RESULTS)
	$(BUILD)/simdhttp bench --scaling --json-out $(BENCH_RESULTS)/bench.json --plot-data $(BENCH_RESULTS) | tee $(BENCH_RESULTS)/bench.txt
	gnuplot -e "dir='$(BENCH_RESULTS)'" bench/plots.gp
	@ls -1 $(BENCH_RESULTS)/*.svg

bench-instructions: $(BUILD)/simdhttp
	sh bench/instructions.sh $(BUILD)/simdhttp $(BENCH_FILES)
