// gpuplan/records.h — results as records: one schema of columns and cells per result, and
// four printers (table, csv, md, json). The CLI's --format csv|md and the page's "Copy as
// Markdown table" both print these, so the two give the same text (llama-bench habit: adding
// a column is one edit).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/inference.h"
#include "gpuplan/roofline.h"
#include "gpuplan/scenario.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"

namespace gpuplan {

struct Cell {
  enum class Kind { kText, kNumber, kUnknown };
  std::string text;  // what table/csv/md print
  double number = 0; // what json and csv print for a number
  Kind kind = Kind::kText;
};
inline Cell Text(std::string s) { return {std::move(s), 0, Cell::Kind::kText}; }
inline Cell Number(double v, std::string text) { return {std::move(text), v, Cell::Kind::kNumber}; }
inline Cell Unknown() { return {"", 0, Cell::Kind::kUnknown}; }

struct Column {
  std::string key;    // json and csv key
  std::string title;  // table and md header
  bool right = false;
};

struct Records {
  std::vector<Column> cols;
  std::vector<std::vector<Cell>> rows;
};

// format: "table" (aligned columns), "csv" (numbers plain, in the JSON's units), "md"
// (a GitHub table) or "json" (an array of objects). Ends with a newline.
std::string FormatRecords(const Records& r, std::string_view format);
// The same, where "json" is an object {"schema": "<schema>", "rows": [...]} that StampJson
// (version.h) can stamp with the program's and the catalog's versions: what the CLI's lists print.
std::string FormatRecords(const Records& r, std::string_view format, std::string_view schema);

// A whole result as a view prints it: a title, summary lines, sections of records, verdict
// lines, warnings, notes, assumptions and the page state. One printer per format, llama-bench
// style: `table` is for people (every part, aligned), `md` is the same parts as Markdown (what
// the page's "Copy Markdown" copies), `csv` is the main section's records alone.
struct Section {
  std::string heading;  // empty: no heading line
  Records records;
  bool shown = true;    // false: csv's alone (the machine-readable whole of what the tables split)
};
struct Report {
  std::string title;
  std::vector<std::string> lines;      // under the title
  std::vector<Section> sections;
  size_t main = 0;                      // the section csv prints
  std::vector<std::string> after;      // verdict and figures under the tables
  int verdict = 0;                     // after[0] is a verdict: 1 it fits, -1 it does not (0: none)
  std::vector<std::string> warnings, notes, assumptions;
  std::string state;  // the page state (hash), when the view has a scenario
};
// format: table, md or csv. Ends with a newline.
std::string FormatReport(const Report& r, std::string_view format);

// The report as a still image (SVG, monospaced text): the title, the summary lines, the first
// table without its "how" column (at most `max_rows` rows) and the verdict lines; the page's
// click-to-load preview of an embed (web/tools/previews.cpp) is this, made at build time.
std::string ReportSvg(const Report& r, bool dark, int width = 720, size_t max_rows = 8);

// The records of each scenario result, as `gpuplan <command> --format csv|md` prints them.
Records FitRecords(const MemoryEstimate& e);
Records SpeedRecords(const SpeedEstimate& e);
Records CostRecords(const Scenario& s, const CostEstimate& c);
Records CompareRecords(const std::vector<CompareRow>& rows);

// The Compare table, one entry per column: the key (JSON and CSV key, --sort value, the page's
// sort), the header, the help (the page's tooltip, the CLI's --sort help), how it sorts, and the
// cell it prints for a row. CompareRecords, SortCompareRows, the sort field's choices, the
// JSON rows and the page's table all read this list, so adding a column is one entry in it.
struct CompareColumn {
  enum class Order { kNone, kText, kAscending, kDescending };
  const char* key;
  const char* title;
  const char* help;
  Order order;
  Cell (*cell)(const CompareRow&);  // Unknown() when the figure is unknown (the page shows "-")
  bool hidden = false;              // the page hides it until asked (a header's context menu)
};
const std::vector<CompareColumn>& CompareColumns();
const CompareColumn* FindCompareColumn(std::string_view key);
// A column's title in the scenario's currency ("$/1M rented" -> "¥/1M rented").
std::string CompareColumnTitle(const CompareColumn& c, const Money& m);

// Sorts by a column key: speeds and context descending, costs, watts, TTFT and counts
// ascending (each column's order); rows that do not fit, or lack the figure, go last. Stable.
void SortCompareRows(std::vector<CompareRow>& rows, std::string_view key);
Records TrainRecords(const Catalog& catalog, const Scenario& s, const TrainEstimate& e);
// How a training estimate's total is made: the peak moment, not the sum of the terms.
std::string TrainPeakHow(const TrainEstimate& e);
// phase: "all", "prefill", "decode" or "train".
Records RooflineRecords(const Roofline& r, std::string_view phase = "all");

// The catalog as records: kind = gpus, models, formats, interconnects, cloud, engines, presets.
Records CatalogRecords(const Catalog& catalog, std::string_view kind);
// The table of contradictions (contradictions.h), one row per check: `gpuplan catalog checks`.
Records ContradictionRecords();
Records GpuListRecords(const Catalog& catalog);  // kind "gpus" alone (the page's catalog view)

}  // namespace gpuplan
