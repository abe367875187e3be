// gpuplan/commands.h — what the CLI's commands that are not views of a scenario print:
// `catalog show` (a GPU with its sources), `catalog validate`, `import-hf`, `calibrate`. Each is
// a Report for table/md/csv and a JSON text, like the views (views.h); the CLI only parses flags.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpuplan/calibrate.h"
#include "gpuplan/catalog.h"
#include "gpuplan/records.h"

namespace gpuplan {

// `catalog show ID [--quoted fp16=330]`: every field of a GPU with its source numbers; each
// quoted figure ("fp16=330") with what it is in catalog terms.
using QuotedFigure = std::pair<std::string, std::vector<std::string>>;  // "fp16=330" -> readings
Report GpuShowReport(const Gpu& g, const std::vector<QuotedFigure>& quoted);
std::string GpuShowJson(const Gpu& g, const std::vector<QuotedFigure>& quoted);

// `catalog validate FILE...`: entries per kind after merging the files into `base`.
Records ValidateRecords(const Catalog& base, const Catalog& merged);

// `import-hf config.json`: the architecture as read, the parameter count, the KV cache.
Report ModelReport(const Model& m, const std::string& path);
// `import-hf --format json`: a catalog file holding the model (its config kept whole).
std::string ModelCatalogFileJson(const Model& m, const std::string& config_text, const std::string& absolute_path,
                                 const std::string& date_read);

// `calibrate [--fit]`: the reference cases with estimate and ratio, the error summary, and the
// fitted engine calibrations.
struct Calibration {
  Catalog fitted;
  std::vector<std::string> log;
  std::vector<CaseResult> results;
};
Report CalibrationReport(const Calibration& c);
std::string CalibrationJson(const Calibration& c);
Report LosoReport(const LosoResult& l);
std::string LosoJson(const LosoResult& l);

}  // namespace gpuplan
