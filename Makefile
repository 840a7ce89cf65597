# Thin wrapper over CMake.  The two commands a new machine needs:
#   make run    build (release) and simulate the default workload set
#   make test   build with ASan/UBSan and run every test
BUILD      ?= build
TEST_BUILD ?= build-test
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build run test fuzz fuzz-config fuzz-fatbin fuzz-ci bench clean ptx

all: build

deps:
	@bash tools/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/locsim run-all

test: deps
	cmake -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCSIM_SANITIZE=ON >/dev/null
	cmake --build $(TEST_BUILD) -j $(JOBS)
	cd $(TEST_BUILD) && ctest --output-on-failure -j $(JOBS)

# Fuzz the PTX parser with libFuzzer for FUZZ_SECONDS (default 60).
FUZZ_SECONDS ?= 60
fuzz:
	@bash tools/install-deps.sh --fuzz
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCSIM_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_ptx
	mkdir -p $(FUZZ_BUILD)/corpus
	./$(FUZZ_BUILD)/fuzz/fuzz_ptx -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/corpus fuzz/corpus

# Fuzz the configuration parser (config files, cache and DRAM timing strings).
fuzz-config:
	@bash tools/install-deps.sh --fuzz
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCSIM_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_config
	mkdir -p $(FUZZ_BUILD)/corpus-config
	./$(FUZZ_BUILD)/fuzz/fuzz_config -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/corpus-config configs

# Fuzz cudart's fatbinary / ELF reader, seeded with real nvcc 13 .nv_fatbin sections.
fuzz-fatbin:
	@bash tools/install-deps.sh --fuzz
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCSIM_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_fatbin
	mkdir -p $(FUZZ_BUILD)/corpus-fatbin
	./$(FUZZ_BUILD)/fuzz/fuzz_fatbin -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/corpus-fatbin fuzz/corpus-fatbin

# CI (.ci/run): build the three fuzz targets and run each FUZZ_CI_SECONDS on its
# corpus (new inputs go to $(FUZZ_BUILD)/ci-*, never into the source tree), so a
# change that breaks a target's build, or an input it already knows, is caught.
FUZZ_CI_SECONDS ?= 10
fuzz-ci:
	@bash tools/install-deps.sh --fuzz
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCSIM_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_ptx fuzz_config fuzz_fatbin
	mkdir -p $(FUZZ_BUILD)/ci-ptx $(FUZZ_BUILD)/ci-config $(FUZZ_BUILD)/ci-fatbin
	./$(FUZZ_BUILD)/fuzz/fuzz_ptx -max_total_time=$(FUZZ_CI_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/ci-ptx fuzz/corpus
	./$(FUZZ_BUILD)/fuzz/fuzz_config -max_total_time=$(FUZZ_CI_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/ci-config configs
	./$(FUZZ_BUILD)/fuzz/fuzz_fatbin -max_total_time=$(FUZZ_CI_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    $(FUZZ_BUILD)/ci-fatbin fuzz/corpus-fatbin

bench: build
	./$(BUILD)/bench/bench_functional

# Regenerate every workloads/*/kernel.ptx from its kernel.cu (needs nvcc).
ptx:
	bash tools/gen-ptx.sh

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(FUZZ_BUILD)
