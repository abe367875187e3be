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

}  // namespace gpuplan
