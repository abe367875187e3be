// gpuplan/describe.h — a catalog entry as labelled rows (field, label, value with its unit,
// which sources back it). The CLI's `catalog show` and the page's catalog detail both print
// these rows, so the two never disagree on wording or units.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"

namespace gpuplan {

struct DetailRow {
  std::string field;         // catalog field name ("bandwidth", "dense_tflops")
  std::string label;         // "Memory bandwidth"
  std::string value;         // "3.35 TB/s (3,350 GB/s)"
  std::vector<int> sources;  // indices into the entry's sources
};

std::vector<DetailRow> DescribeGpu(const Gpu& g);

// Which catalog figure a quoted throughput is: the dense rate, the 2:4-sparse headline
// (dense × sparsity factor), the GeForce FP16-accumulate rate, or its sparse form. Guides
// and vendors mix these freely ("RTX 4090: 330 TFLOPS FP16" is either FP16-accumulate dense
// or FP32-accumulate sparse). Returns every match within `tolerance` (relative), as text
// like "sparse: 2 × dense fp16 (2 × 165.2)"; empty when none matches.
std::vector<std::string> ExplainQuotedTflops(const Gpu& g, const std::string& precision, double quoted_tflops,
                                             double tolerance = 0.02);

}  // namespace gpuplan
