# The two commands of the README: `make run` and `make check`. Both install
# what is missing (scripts/install-deps.sh), configure and build.
LLVM_MAJOR := $(shell tr -d '[:space:]' < LLVM_VERSION)
BUILD_DIR ?= build
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run check docs format clean

all: build

deps:
	@scripts/install-deps.sh

# ccache, where installed, makes rebuilds in other checkouts cheap.
CCACHE := $(shell command -v ccache 2>/dev/null)

# TILE_WERROR=ON makes compiler warnings errors (CI sets it: .ci/run); a
# plain build leaves the configured value alone (OFF on a new build).
TILE_WERROR ?=

$(BUILD_DIR)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE)) \
	  $(if $(TILE_WERROR),-DTILE_WERROR=$(TILE_WERROR)) \
	  -DMLIR_DIR=/usr/lib/llvm-$(LLVM_MAJOR)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-$(LLVM_MAJOR)/bin/lit

configure: deps $(BUILD_DIR)/build.ninja
	$(if $(TILE_WERROR),cmake -S . -B $(BUILD_DIR) -DTILE_WERROR=$(TILE_WERROR) >/dev/null)

build: configure
	ninja -C $(BUILD_DIR) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD_DIR)

check: build
	@scripts/check.sh $(BUILD_DIR)

# Regenerates the TableGen reference docs into docs/generated/.
docs: build
	@scripts/update-docs.sh $(BUILD_DIR)

# clang-format of the pinned LLVM (clang-format-22), as scripts/check-format.sh.
format: deps
	@git ls-files '*.cpp' '*.h' '*.cu' | xargs clang-format-$(LLVM_MAJOR) -i

clean:
	rm -rf $(BUILD_DIR)
