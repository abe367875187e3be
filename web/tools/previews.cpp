// previews OUTDIR: the still images of the page's click-to-load embeds (facade=...), made at
// build time: for every panel a blog can embed, the report of the default scenario as an SVG
// (ReportSvg), light and dark: OUTDIR/preview-<panel>-<light|dark>.svg. The page shows one,
// veiled, under the embed's caption until the reader asks for the calculator
// (assets/shell/index.html), so a post with many embeds loads none of them up front.
#include <cstdio>
#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/records.h"
#include "gpuplan/session.h"
#include "gpuplan/views.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: previews OUTDIR\n");
    return 2;
  }
  const gpuplan::Result<gpuplan::Catalog>& catalog = gpuplan::EmbeddedCatalog();
  if (!catalog.ok()) {
    std::fprintf(stderr, "previews: the built-in catalog: %s\n", catalog.error().c_str());
    return 1;
  }
  gpuplan::Session session(catalog.value());
  int written = 0;
  for (const gpuplan::View& v : gpuplan::Views()) {
    if (!v.embeddable) continue;
    const gpuplan::Report report = v.report(session, {});
    for (const bool dark : {false, true}) {
      const std::string path = std::string(argv[1]) + "/preview-" + v.id + (dark ? "-dark" : "-light") + ".svg";
      std::FILE* f = std::fopen(path.c_str(), "wb");
      const std::string svg = gpuplan::ReportSvg(report, dark);
      if (!f || std::fwrite(svg.data(), 1, svg.size(), f) != svg.size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "previews: cannot write %s\n", path.c_str());
        return 1;
      }
      ++written;
    }
  }
  std::printf("previews: %d images in %s\n", written, argv[1]);
  return written > 0 ? 0 : 1;
}
