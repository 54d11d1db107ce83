//===- PipelineOptions.cpp - the one options struct and pipeline text ----===//
//
// What every tool and registered pipeline shares: checking PipelineOptions
// against the pipeline that reads them, taking them from a tool's command
// line, and parsing textual pipelines with implicit nesting.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

/// The pipelines that read an option, for messages.
static std::string describeReaders(unsigned readers) {
  SmallVector<StringRef> names;
  if (readers & ReadByTileLevel)
    names.push_back("tile-O0..tile-O3");
  if (readers & ReadBySource)
    names.push_back("tile-source-to-ptx");
  if (readers & ReadByLowering)
    names.push_back("tile-to-ptx");
  if (readers & ReadByExecutor)
    names.push_back("the CPU executor");
  return llvm::join(names, ", ");
}

LogicalResult PipelineOptions::verify(
    StringRef pipeline, unsigned reader,
    function_ref<LogicalResult(const Twine &)> emitError) const {
  for (const Entry &entry : entries)
    if (!(entry.readers & reader) && entry.given())
      return emitError(pipeline + " does not take the option '" + entry.arg +
                       "' (read by " + describeReaders(entry.readers) + ")");
  if (!parseStage(stopAfter))
    return emitError("stop-after must be tile, tilegpu, nvvm or ptx, got '" +
                     stopAfter + "'");
  if (optLevel < 0 || optLevel > 3)
    return emitError("opt-level must be 0, 1, 2 or 3, got " +
                     Twine(optLevel.getValue()));
  // Issue 11: a negative occupancy was taken as "use the kernel's hint".
  if (occupancy < 0 || occupancy > 32)
    return emitError("occupancy must be in [0, 32] (0: the kernel's hint), "
                     "got " +
                     Twine(occupancy.getValue()));
  // The manifest's bound; a larger count was accepted and printed (fuzzer,
  // 2026-12-01).
  if (stages < 0 || stages > 64)
    return emitError("stages must be in [0, 64] (0: from the loads' latency "
                     "hints), got " +
                     Twine(stages.getValue()));
  // tile-remap-blocks checks these too, but a level that does not run it
  // (tile-O0, tile-O1) took any value (tile-O1{group-size=0} exited 0).
  if (groupSize < 1)
    return emitError("group-size must be at least 1 (1: no grouping), got " +
                     Twine(groupSize.getValue()));
  if (persistent < 0)
    return emitError("persistent must be at least 0 (0: off), got " +
                     Twine(persistent.getValue()));
  if (maxRegisters < 1)
    return emitError("max-registers must be positive, got " +
                     Twine(maxRegisters.getValue()));
  // The passes check these too, but a pipeline that stops before them
  // (--emit=tile, --print-pipeline) took any spelling (fuzzer, seed
  // 20261207: --shared-layout=PADDED_).
  auto oneOf = [&](StringRef name, StringRef value,
                   ArrayRef<StringRef> allowed) -> LogicalResult {
    if (llvm::is_contained(allowed, value))
      return success();
    return emitError(name + " must be one of " + llvm::join(allowed, ", ") +
                     ", got '" + value + "'");
  };
  if (failed(oneOf("sync", sync, {"auto", "barrier", "mbarrier"})) ||
      failed(oneOf("warp-specialize", warpSpecialize, {"auto", "on", "off"})) ||
      failed(oneOf("ping-pong", pingPong, {"auto", "on", "off"})) ||
      failed(oneOf("tma", tma, {"auto", "on", "off"})) ||
      failed(oneOf("coalesce-stores", coalesceStores, {"auto", "on", "off"})) ||
      failed(oneOf("shared-layout", sharedLayout, {"padded", "swizzled"})) ||
      failed(oneOf("persistent-order", persistentOrder, {"grid", "paired"})) ||
      failed(oneOf("remap-mode", remapMode, {"auto", "reverse", "none"})))
    return failure();
  return success();
}

llvm::cl::Option *PipelineOptions::lookup(StringRef arg,
                                          unsigned reader) const {
  for (const Entry &entry : entries)
    if (entry.arg == arg && (entry.readers & reader))
      return entry.option;
  return nullptr;
}

void PipelineOptions::printHelp(raw_ostream &os, unsigned reader) const {
  for (const Entry &entry : entries) {
    if (!(entry.readers & reader))
      continue;
    os << llvm::formatv("  --{0,-16} {1}\n", entry.arg, entry.option->HelpStr);
  }
}

LogicalResult mlir::tile::parsePipeline(StringRef pipeline, OpPassManager &pm,
                                        raw_ostream &errorStream) {
  // MLIR's textual parser turns implicit nesting off on purpose (the result
  // must match the text), so "canonicalize,tile-split-loop" fails on a
  // builtin.module pass manager. Tools want what tile-opt's pass flags do:
  // each registered pass or pipeline of the top-level list is added through
  // its registry entry, which nests a func.func pass into func.func. The text
  // is only cut at its top-level commas; everything else (options, anchored
  // groups such as "func.func(cse)", error messages) is MLIR's.
  pm.setNesting(OpPassManager::Nesting::Implicit);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= pipeline.size(); ++i) {
    char c = i < pipeline.size() ? pipeline[i] : ',';
    if (c == '(' || c == '{')
      ++depth;
    else if (c == ')' || c == '}')
      --depth;
    if (c != ',' || depth != 0)
      continue;
    StringRef element = pipeline.slice(start, i).trim();
    start = i + 1;
    if (element.empty())
      continue;
    auto [name, options] = element.split('{');
    const PassRegistryEntry *entry = nullptr;
    if (!name.contains('(') && (options.empty() || options.consume_back("}"))) {
      name = name.trim();
      entry = PassPipelineInfo::lookup(name);
      if (!entry)
        entry = PassInfo::lookup(name);
    }
    if (!entry) {
      // An anchored group, or not a registered name: MLIR parses it and
      // reports what is wrong in its own words.
      if (failed(parsePassPipeline(element, pm, errorStream)))
        return failure();
      continue;
    }
    auto errorHandler = [&](const Twine &message) {
      errorStream << message << "\n";
      return failure();
    };
    if (failed(entry->addToPipeline(pm, options, errorHandler)))
      return errorHandler("failed to add `" + name + "` with options `" +
                          options + "`");
  }
  if (depth != 0) {
    // Unbalanced: MLIR's parser says where.
    return parsePassPipeline(pipeline, pm, errorStream);
  }
  return success();
}

LogicalResult mlir::tile::takePipelineFlags(
    int argc, char **argv, PipelineOptions &options, unsigned reader,
    ArrayRef<std::pair<StringRef, StringRef>> aliases,
    SmallVectorImpl<char *> &rest, std::string &error) {
  rest.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (!arg.starts_with("-") || arg == "-" || arg == "--") {
      rest.push_back(argv[i]);
      continue;
    }
    StringRef flag = arg.ltrim('-');
    auto [name, value] = flag.split('=');
    bool hasValue = flag.contains('=');
    for (auto [alias, target] : aliases)
      if (name == alias)
        name = target;
    // A flag that this tool's pipeline does not read is not one of its
    // flags: llvm::cl reports it as unknown.
    llvm::cl::Option *option = options.lookup(name, reader);
    if (!option) {
      rest.push_back(argv[i]);
      continue;
    }
    if (!hasValue &&
        option->getValueExpectedFlag() == llvm::cl::ValueRequired) {
      if (i + 1 >= argc) {
        error = "--" + name.str() + " needs a value";
        return failure();
      }
      value = argv[++i];
    }
    if (option->addOccurrence(i, name, value)) {
      error = "bad value '" + value.str() + "' for --" + name.str();
      return failure();
    }
  }
  return options.verify("this tool", reader, [&](const Twine &message) {
    error = message.str();
    return failure();
  });
}
