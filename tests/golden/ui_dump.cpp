// golden-ui-dump STATE: what the page's export buttons copy (link, embed code, Markdown, JSON,
// CLI command) and its result JSON, for every panel of one scenario, through the UI library the
// page and the native window run (no window: the exports do not draw). The golden test keeps it.
#include <cstdio>
#include <string>

#include "app.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: golden-ui-dump STATE\n");
    return 2;
  }
  gpuplan::ui::App app;
  app.LoadState(argv[1]);
  for (const std::string& n : app.Notices()) std::printf("notice: %s\n", n.c_str());
  for (const char* panel : {"fit", "speed", "cost", "compare", "train", "roofline"}) {
    for (const char* kind : {"link", "embed", "markdown", "json", "cli"})
      std::printf("=== %s %s\n%s\n", panel, kind, app.ExportText(kind, panel).c_str());
    // The result JSON (what the page's tests read) is the JSON export but for Compare's filters.
    const std::string result = app.ResultJson(panel);
    std::printf("=== %s result\n%s\n", panel, result == app.ExportText("json", panel) ? "(the json export)" : result.c_str());
  }
  return 0;
}
