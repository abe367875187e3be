// gpuplan/views.h — one table of result views. Each row is a view of a Session: its id (the CLI
// subcommand, the page's tab and embed= name, a preset's panel), its title and help, whether a
// blog may embed it, the view options it reads, and what it prints (a Report for table, md and
// csv; its JSON report). The CLI's subcommands, the page's tabs, the embed list, the export
// buttons and `--format` all come from here, so adding a view is one row.
//
// Index:
//   [SECTION] Reports: what a view prints, in sections of records
//   [SECTION] The table of views
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/records.h"
#include "gpuplan/session.h"

namespace gpuplan {

// [SECTION] Reports -----------------------------------------------------------------------
// What `--explain` and the train view's `--target-days` add.
struct ReportOptions {
  bool explain = false;
  double target_days = 0;
  bool curve_tables = true;  // speed --explain: the curves as sections (the page draws them as charts)
};

// The formats every view prints: table (for people), json (the view's schema), csv and md.
inline constexpr const char* kFormats[] = {"table", "json", "csv", "md"};

// [SECTION] The table of views ------------------------------------------------------------
struct View {
  const char* id;          // fit, speed, ...: CLI subcommand, tab= and embed= value
  const char* title;       // the page's tab
  const char* help;        // the CLI subcommand's help line and the tab's tooltip
  bool embeddable;         // embed=<id> shows it alone (a blog's iframe)
  bool scenario;           // a view of the scenario: takes its flags, --state and --preset
  std::vector<std::string> options;  // view option keys it reads (ViewFields): its extra flags
  // The report (table, md, csv) and the JSON. Both compute through the session's caches.
  Report (*report)(Session& session, const ReportOptions& options);
  std::string (*json)(Session& session, const ReportOptions& options);
  // Why the view has no result for this scenario (an unknown id, a limit), or empty.
  std::string (*failure)(Session& session);
};

const std::vector<View>& Views();
const View* FindView(std::string_view id);
std::vector<std::string> ViewIds();

// The view's JSON with the program's and the catalog's versions (version.h: StampJson): what
// the CLI's --format json prints and the page copies.
std::string ViewJson(const View& view, Session& session, const ReportOptions& options = {});

// What `gpuplan <view> --format <format>` prints (json, or the report in table, md or csv);
// Markdown ends with the versions (MadeWithLine).
std::string PrintView(const View& view, Session& session, std::string_view format, const ReportOptions& options = {});

// The scenario in a few words, as the page's title, its live region, an embed's caption and a
// narrow layout's header say it: "Llama 3.1 8B on 1 × NVIDIA GeForce RTX 4090" (the GPUs of
// a training run for Train).
std::string ScenarioLine(const View& view, const Session& session);

// The CLI command that prints the same as the page's view: the scenario and the view's options.
std::string ViewCliCommand(const View& view, const Session& session);

}  // namespace gpuplan
