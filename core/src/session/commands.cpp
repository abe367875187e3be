#include "gpuplan/commands.h"

#include <cctype>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "gpuplan/describe.h"
#include "gpuplan/model.h"
#include "gpuplan/units.h"

namespace gpuplan {

using ordered_json = nlohmann::ordered_json;

// [SECTION] catalog show ------------------------------------------------------------------
Report GpuShowReport(const Gpu& g, const std::vector<QuotedFigure>& quoted) {
  Report r;
  r.title = g.name + " (" + g.id + ")";
  Records rows{{{"label", "field"}, {"value", "value [sources]"}}, {}};
  for (const DetailRow& d : DescribeGpu(g)) {
    std::string refs;
    for (int i : d.sources) refs += (refs.empty() ? " [" : ",") + std::to_string(i + 1);
    rows.rows.push_back({Text(d.label), Text(d.value + (refs.empty() ? refs : refs + "]"))});
  }
  r.sections.push_back({"", std::move(rows)});
  for (const auto& [q, why] : quoted) {
    std::string text;
    for (const std::string& w : why) text += (text.empty() ? "" : "; or ") + w;
    r.after.push_back("Quoted " + q + " TFLOP/s = " + (text.empty() ? "no catalog figure within 2%" : text));
  }
  r.after.push_back("Sources:");
  for (size_t i = 0; i < g.sources.size(); ++i) {
    const Source& s = g.sources[i];
    r.after.push_back("  [" + std::to_string(i + 1) + "] " + s.title + " — " + s.url + " (read " + s.read + ")");
    if (!s.note.empty()) r.after.push_back("      note: " + s.note);
  }
  return r;
}

std::string GpuShowJson(const Gpu& g, const std::vector<QuotedFigure>& quoted) {
  ordered_json j;
  j["id"] = g.id;
  j["name"] = g.name;
  ordered_json rows = ordered_json::array();
  for (const DetailRow& d : DescribeGpu(g))
    rows.push_back({{"field", d.field}, {"label", d.label}, {"value", d.value}, {"sources", d.sources}});
  j["rows"] = rows;
  ordered_json sources = ordered_json::array();
  for (const Source& s : g.sources)
    sources.push_back({{"fields", s.fields}, {"title", s.title}, {"url", s.url}, {"read", s.read}, {"note", s.note}});
  j["sources"] = sources;
  if (!quoted.empty()) {
    ordered_json q = ordered_json::object();
    for (const auto& [figure, why] : quoted) q[figure] = why;
    j["quoted"] = q;
  }
  return j.dump(2);
}

// [SECTION] catalog validate --------------------------------------------------------------
Records ValidateRecords(const Catalog& base, const Catalog& c) {
  Records r{{{"kind", "kind"}, {"entries", "entries after merge", true}, {"added", "added", true}}, {}};
  auto row = [&](const char* kind, size_t now, size_t before) {
    r.rows.push_back({Text(kind), Number(static_cast<double>(now), std::to_string(now)),
                      Number(static_cast<double>(now - before), std::to_string(now - before))});
  };
  row("gpus", c.gpus.size(), base.gpus.size());
  row("models", c.models.size(), base.models.size());
  row("weight_formats", c.weight_formats.size(), base.weight_formats.size());
  row("kv_formats", c.kv_formats.size(), base.kv_formats.size());
  row("interconnects", c.interconnects.size(), base.interconnects.size());
  row("cloud_offers", c.cloud_offers.size(), base.cloud_offers.size());
  row("engines", c.engines.size(), base.engines.size());
  row("ceilings", c.ceilings.size(), base.ceilings.size());
  row("fx_rates", c.fx_rates.size(), base.fx_rates.size());
  return r;
}

// [SECTION] import-hf ---------------------------------------------------------------------
Report ModelReport(const Model& m, const std::string& path) {
  const ParamCount c = CountParams(m);
  Report r;
  r.title = m.name + " (" + m.id + "), model_type " + m.model_type;
  Records rows{{{"field", "field"}, {"value", "value"}}, {}};
  auto add = [&](const std::string& field, const std::string& value) { rows.rows.push_back({Text(field), Text(value)}); };
  add("layers", std::to_string(m.layers));
  add("hidden", std::to_string(m.hidden));
  add("heads", std::to_string(m.heads) + " query, " + std::to_string(m.kv_heads) + " KV, head dim " + std::to_string(m.head_dim));
  add("attention", DescribeAttention(m));
  if (m.moe)
    add("mixture of experts", std::to_string(m.moe->experts) + " experts, top-" + std::to_string(m.moe->experts_per_token) +
                                  ", " + std::to_string(m.moe->shared_experts) + " shared, expert width " +
                                  std::to_string(m.moe->expert_intermediate));
  add("vocab", FormatCount(m.vocab));
  add("max context", m.max_context > 0 ? FormatCount(m.max_context) : "not stated");
  add("parameters", FormatParams(c.total) + " (" + FormatParams(c.embedding) + " embedding)");
  if (c.vision > 0) add("of which vision", FormatParams(c.vision) + ": " + m.vision_what);
  if (m.head_params > 0) add("of which head", FormatParams(m.head_params) + " (" + m.head_what + ")");
  if (m.moe || c.vision > 0) add("active per token", FormatParams(c.active));
  if (m.encoder_only) add("encoder-only", "an embedding or reranker model: no KV cache, no decode");
  add("KV cache", FormatBytes(KvBytesPerToken(m, 2), ByteUnit::MiB, 3) + " per token at 16 bits");
  r.sections.push_back({"", std::move(rows)});
  r.after.push_back("Save it as a catalog entry: gpuplan import-hf " + path + " --format json > my-models.json");
  r.after.push_back("then: gpuplan --catalog my-models.json fit --model " + m.id + " ...");
  return r;
}

std::string ModelCatalogFileJson(const Model& m, const std::string& config_text, const std::string& absolute_path,
                                 const std::string& date_read) {
  ordered_json entry;
  entry["id"] = m.id;
  entry["name"] = m.name;
  entry["config"] = ordered_json::parse(config_text, nullptr, false);
  entry["sources"] = {{{"fields", {"config"}},
                       {"title", "config.json imported by gpuplan import-hf"},
                       {"url", "file://" + absolute_path},
                       {"read", date_read}}};
  ordered_json doc;
  doc["schema"] = 1;
  doc["models"] = ordered_json::array({entry});  // not {entry}: clang reads a one-element brace list as a copy
  return doc.dump(2);
}

// [SECTION] calibrate ---------------------------------------------------------------------
Report CalibrationReport(const Calibration& c) {
  Report r;
  r.title = "gpuplan calibrate: " + std::to_string(c.results.size()) + " reference cases";
  for (const std::string& l : c.log) r.lines.push_back("fit: " + l);
  Records rows{{{"case", "case"}, {"kind", "kind"}, {"measured", "measured", true}, {"estimated", "estimate", true},
                {"ratio", "ratio", true}, {"skipped", "skipped"}},
               {}};
  for (const CaseResult& x : c.results) {
    if (!x.ran) {
      rows.rows.push_back({Text(x.c->id.substr(0, 58)), Text(x.c->kind), Number(x.c->measured, FormatShort(x.c->measured, 4)),
                           Unknown(), Unknown(), Text(x.skipped)});
      continue;
    }
    rows.rows.push_back({Text(x.c->id.substr(0, 58)), Text(x.c->kind), Number(x.c->measured, FormatShort(x.c->measured, 4)),
                         Number(x.estimated, FormatShort(x.estimated, 4)), Number(x.ratio, FormatFixed(x.ratio, 2)), Text("")});
  }
  r.sections.push_back({"", std::move(rows)});
  for (const char* group : {"memory", "speed"}) {
    const ErrorStats st = Summarise(c.results, group);
    r.after.push_back(std::string(group) + ": " + std::to_string(st.n) + " cases, median error " +
                      FormatFixed(st.median_abs_error * 100, 1) + "%, worst " + FormatFixed(st.worst_abs_error * 100, 1) +
                      "% (" + st.worst_case + "), measured/estimated p10 " + FormatFixed(st.p10_ratio, 2) + " p90 " +
                      FormatFixed(st.p90_ratio, 2));
  }
  return r;
}

std::string CalibrationJson(const Calibration& c) {
  ordered_json j;
  j["schema"] = "gpuplan.calibration/1";
  ordered_json engines = ordered_json::array();
  auto band = [](const Band& b) { return ordered_json{{"lo", b.lo}, {"hi", b.hi}, {"cases", b.cases}}; };
  auto vendors = [](const std::vector<VendorCalibration>& list) {
    ordered_json a = ordered_json::array();
    for (const VendorCalibration& v : list)
      a.push_back({{"vendor", v.vendor}, {"decode_bw_efficiency", std::round(v.decode_bw_efficiency * 100) / 100},
                   {"kernel_us", std::round(v.kernel_s * 1e8) / 100}, {"cases", v.cases}});
    return a;
  };
  auto class_bands = [](const std::vector<ClassBand>& list) {
    ordered_json a = ordered_json::array();
    for (const ClassBand& cb : list)
      a.push_back({{"phase", cb.phase}, {"moe", cb.moe}, {"multi_gpu", cb.multi_gpu}, {"vendor", cb.vendor},
                   {"lo", cb.band.lo}, {"hi", cb.band.hi}, {"cases", cb.band.cases}});
    return a;
  };
  for (const EngineProfile& e : c.fitted.engines) {
    if (!e.base.empty()) continue;  // its base's fit (engines.json "base")
    const EngineCalibration& k = e.calibration;
    engines.push_back({{"id", e.id},
                       {"calibration",
                        {{"decode_bw_efficiency", std::round(k.decode_bw_efficiency * 100) / 100},
                         {"prefill_compute_efficiency", std::round(k.prefill_compute_efficiency * 100) / 100},
                         {"kernel_us", std::round(k.kernel_s * 1e8) / 100},
                         {"prefill_token_layer_us", std::round(k.prefill_token_layer_s * 1e8) / 100},
                         {"decode_band", band(k.decode)},
                         {"prefill_band", band(k.prefill)},
                         {"memory_band", band(k.memory)},
                         {"decode_wide_band", band(k.decode_wide)},
                         {"prefill_wide_band", band(k.prefill_wide)},
                         {"vendor_calibration", vendors(k.by_vendor)},
                         {"class_bands", class_bands(k.classes)}}}});
  }
  j["engines"] = engines;
  j["log"] = c.log;
  ordered_json rows = ordered_json::array();
  for (const CaseResult& r : c.results)
    rows.push_back({{"id", r.c->id}, {"kind", r.c->kind}, {"engine", r.c->engine}, {"ran", r.ran},
                    {"skipped", r.skipped}, {"measured", r.c->measured},
                    {"estimated", r.ran ? ordered_json(r.estimated) : ordered_json(nullptr)},
                    {"ratio", r.ran ? ordered_json(r.ratio) : ordered_json(nullptr)}});
  j["cases"] = rows;
  return j.dump(2);
}

// `calibrate --loso`: errors per kind, stored / refit in-sample / leave-one-source-out.
Report LosoReport(const LosoResult& l) {
  Report r;
  r.title = "gpuplan calibrate --loso: " + std::to_string(l.held_out.size()) + " reference cases from " +
            std::to_string(l.sources.size()) + " sources";
  r.lines.push_back("error = max(r, 1/r) - 1 with r = measured / estimated; 'held out' estimates each source's cases with "
                    "efficiencies fitted without that source");
  auto pct = [](const ErrorStats& st, double v) { return st.n > 0 ? Number(v * 100, FormatFixed(v * 100, 1) + "%") : Unknown(); };
  Records rows{{{"kind", "kind"}, {"n", "cases", true},
                {"stored_median", "stored median", true}, {"stored_p90", "p90", true},
                {"refit_median", "refit median", true}, {"refit_p90", "p90", true},
                {"held_out_n", "held out", true},
                {"held_out_median", "held-out median", true}, {"held_out_p90", "p90", true}},
               {}};
  for (const KindErrors& k : l.kinds)
    rows.rows.push_back({Text(k.kind), Number(k.stored.n, std::to_string(k.stored.n)),
                         pct(k.stored, k.stored.median_abs_error), pct(k.stored, k.stored.p90_abs_error),
                         pct(k.in_sample, k.in_sample.median_abs_error), pct(k.in_sample, k.in_sample.p90_abs_error),
                         Number(k.held_out.n, std::to_string(k.held_out.n)),
                         pct(k.held_out, k.held_out.median_abs_error), pct(k.held_out, k.held_out.p90_abs_error)});
  r.sections.push_back({"Errors per kind", std::move(rows)});
  Records src{{{"source", "source"}, {"cases", "cases", true}, {"ran", "ran", true}, {"median", "held-out median", true}}, {}};
  for (const LosoSource& s : l.sources) {
    std::vector<CaseResult> mine;
    for (const CaseResult& x : l.held_out)
      if (x.c && x.c->source == s.source) mine.push_back(x);
    const ErrorStats st = Summarise(mine, "speed");
    src.rows.push_back({Text(s.source), Number(s.cases, std::to_string(s.cases)), Number(s.ran, std::to_string(s.ran)),
                        pct(st, st.median_abs_error)});
  }
  r.sections.push_back({"Sources (speed cases, held out)", std::move(src)});
  r.after.push_back("memory kinds have no fitted constant: the three columns agree for them");
  r.after.push_back("gemm_ceiling, memory_ceiling: each published GEMM and copy figure (assets/catalog/ceilings.json) as a "
                    "fraction of its datasheet, against the attainable fraction the speed model takes for that GPU; held "
                    "out: that figure's source removed, so the GPU falls back to its other sources or its kind's median");
  return r;
}

std::string LosoJson(const LosoResult& l) {
  ordered_json j;
  j["schema"] = "gpuplan.calibration.loso/1";
  auto stats = [](const ErrorStats& st) {
    return ordered_json{{"n", st.n},
                        {"median_error", st.n ? ordered_json(st.median_abs_error) : ordered_json(nullptr)},
                        {"p90_error", st.n ? ordered_json(st.p90_abs_error) : ordered_json(nullptr)}};
  };
  ordered_json kinds = ordered_json::array();
  for (const KindErrors& k : l.kinds)
    kinds.push_back({{"kind", k.kind}, {"fitted", k.fitted}, {"stored", stats(k.stored)}, {"in_sample", stats(k.in_sample)},
                     {"held_out", stats(k.held_out)}});
  j["kinds"] = kinds;
  ordered_json cases = ordered_json::array();
  for (size_t i = 0; i < l.held_out.size(); ++i) {
    const CaseResult& h = l.held_out[i];
    if (!h.c) continue;
    auto ratio = [](const CaseResult& x) { return x.ran ? ordered_json(x.ratio) : ordered_json(nullptr); };
    cases.push_back({{"id", h.c->id}, {"kind", h.c->kind}, {"source", h.c->source}, {"stored_ratio", ratio(l.stored[i])},
                     {"refit_ratio", ratio(l.refit[i])}, {"held_out_ratio", ratio(h)}});
  }
  j["cases"] = cases;
  return j.dump(2);
}

}  // namespace gpuplan
