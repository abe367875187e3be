// CPU probe: a quick probe gives positive finite figures, its file round-trips, a wrong file
// is an error naming the field, and the plateau detector finds cache levels on synthetic
// curves (it is a pure function: no timing in those tests).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "gpuplan/cpu_probe.h"
#include "gpuplan/machine.h"
#include "gpuplan/probe_result.h"

using namespace gpuplan;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

namespace {

constexpr double kKiB = 1024.0, kMiB = 1024.0 * 1024.0;

bool PositiveFinite(double v) { return std::isfinite(v) && v > 0; }

// A sweep from 4 KiB with `steps` points per octave: `levels` gives each plateau's rate and
// the working set where it ends; between two plateaus the rate falls over `transition`
// steps (log-linear), as a real cache's does.
std::vector<SweepPoint> Curve(const std::vector<std::pair<double, double>>& levels, double max_bytes, int steps = 4,
                              int transition = 2) {
  std::vector<SweepPoint> out;
  for (int k = 0;; ++k) {
    const double size = 4 * kKiB * std::exp2(static_cast<double>(k) / steps);
    if (size > max_bytes) break;
    size_t i = 0;
    while (i + 1 < levels.size() && size > levels[i].second) ++i;
    double bw = levels[i].first;
    if (i > 0) {
      // Points just past the previous level's end fall from it towards this level.
      const double past = std::log2(size / levels[i - 1].second) * steps;  // steps past the edge
      if (past < transition) {
        const double f = past / transition;
        bw = std::exp((1 - f) * std::log(levels[i - 1].first) + f * std::log(levels[i].first));
      }
    }
    out.push_back({size, bw});
  }
  return out;
}

CpuProbeResult Sample() {
  CpuProbeResult r;
  r.date = "2025-01-31T12:00:00Z";
  r.quick = true;
  r.cpu.model_name = "AMD EPYC";
  r.cpu.logical_cpus = 2;
  r.cpu.physical_cores = 2;
  r.cpu.clock_hz = 2.1e9;
  r.cpu.simd_bits = 512;
  r.cpu.isa = "avx512f";
  r.cpu.fma_units = 2;
  r.cpu.peak_flops_fp32 = 268.8e9;
  r.cpu.peak_flops_fp64 = 134.4e9;
  r.cpu.assumptions = {"FMA units per core: 2 assumed"};
  r.reported_caches = {{1, 48 * kKiB, 0}, {2, 1 * kMiB, 0}, {3, 32 * kMiB, 0}};
  r.stream = {{"copy", 20e9, 19e9, 256 * kMiB, 16, 2, 9}, {"triad", 26e9, 25e9, 256 * kMiB, 24, 2, 9}};
  r.sweep_threads = 1;
  r.sweep = {{4096, 200e9}, {8192, 201e9}, {1 * kMiB, 60e9}};
  r.measured_caches = {{1, 45 * kKiB, 200e9}};
  r.memory_read_bytes_per_s = 14e9;
  r.fma = {{1, 150e9, 75e9}, {2, 300e9, 150e9}};
  r.notes = {"a note"};
  return r;
}

}  // namespace

TEST_CASE("the quick probe gives positive finite figures, quickly", "[cpu-probe]") {
  CpuProbeOptions o;
  o.quick = true;
  std::vector<std::string> stages;
  double last_fraction = -1;
  bool monotone = true;
  const auto start = std::chrono::steady_clock::now();
  Result<CpuProbeResult> r = RunCpuProbe(o, [&](const std::string& stage, double fraction) {
    if (stages.empty() || stages.back() != stage) stages.push_back(stage);
    monotone = monotone && fraction >= last_fraction && fraction <= 1;
    last_fraction = fraction;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.ok());
  INFO("isa " << r->cpu.isa << ", " << seconds << " s");
  CHECK(monotone);
  CHECK(last_fraction == 1.0);
  CHECK(stages == std::vector<std::string>{"sweep", "stream", "fma", "done"});
  CHECK(r->date.size() == 20);
  CHECK(r->date.back() == 'Z');
  CHECK(!r->cpu.model_name.empty());
  CHECK(r->cpu.logical_cpus >= 1);
  CHECK(r->cpu.isa == ActiveIsa());
  REQUIRE(r->stream.size() == 4);
  const char* kernels[] = {"copy", "scale", "add", "triad"};
  for (size_t i = 0; i < 4; ++i) {
    CHECK(r->stream[i].kernel == kernels[i]);
    CHECK(PositiveFinite(r->stream[i].bytes_per_s));
    CHECK(r->stream[i].avg_bytes_per_s <= r->stream[i].bytes_per_s * (1 + 1e-12));
    CHECK(r->stream[i].bytes_per_element == (i < 2 ? 16 : 24));
  }
  CHECK(r->FindStream("triad") == &r->stream[3]);
  REQUIRE(r->sweep.size() >= 5);
  for (const SweepPoint& p : r->sweep) CHECK((PositiveFinite(p.size_bytes) && PositiveFinite(p.bytes_per_s)));
  CHECK(r->sweep.front().size_bytes == 4096);
  CHECK(r->sweep.back().size_bytes <= 2 * kMiB);
  REQUIRE(!r->fma.empty());
  for (const FlopsPoint& f : r->fma) CHECK((PositiveFinite(f.fp32_flops_per_s) && PositiveFinite(f.fp64_flops_per_s)));
  // No check that FP32 beats FP64: 2 ms samples under a parallel ctest swing past any bound.
  // Quick is checked by what it does (the sweep stops at 2 MiB, the stages above), not by a
  // time bound: on a shared 2-core machine the same run took 1.2 s to 2.1 s (scripts/bench.sh
  // measures speed).
}

TEST_CASE("stream measures what it is asked for", "[cpu-probe]") {
  StreamOptions o;
  o.array_bytes = 1 * kMiB;
  o.threads = 1;
  o.repetitions = 3;
  Result<std::vector<StreamResult>> r = MeasureStream(o);
  REQUIRE(r.ok());
  REQUIRE(r->size() == 4);
  CHECK(r->at(3).array_bytes == 1 * kMiB);
  CHECK(r->at(3).threads == 1);
  CHECK(r->at(3).repetitions == 2);  // the first is not counted
}

TEST_CASE("the file round-trips", "[cpu-probe]") {
  const CpuProbeResult a = Sample();
  const std::string text = CpuProbeToJson(a);
  CHECK_THAT(text, Contains("\"schema\": \"gpuplan.cpu-probe/1\""));
  CHECK_THAT(text, Contains("\"unit\": \"B/s\""));
  CHECK_THAT(text, Contains("McCalpin"));
  Result<CpuProbeResult> b = CpuProbeFromJson(text);
  REQUIRE(b.ok());
  CHECK(b->date == a.date);
  CHECK(b->quick);
  CHECK(b->cpu.model_name == a.cpu.model_name);
  CHECK(b->cpu.isa == "avx512f");
  CHECK(b->cpu.simd_bits == 512);
  CHECK(b->cpu.physical_cores == 2);
  CHECK_THAT(b->cpu.peak_flops_fp32, WithinRel(268.8e9, 1e-12));
  CHECK(b->cpu.assumptions == a.cpu.assumptions);
  REQUIRE(b->stream.size() == 2);
  CHECK(b->stream[1].kernel == "triad");
  CHECK_THAT(b->stream[1].bytes_per_s, WithinRel(26e9, 1e-12));
  CHECK(b->stream[1].repetitions == 9);
  REQUIRE(b->reported_caches.size() == 3);
  CHECK(b->reported_caches[2].size_bytes == 32 * kMiB);
  REQUIRE(b->measured_caches.size() == 1);
  CHECK(b->measured_caches[0].bytes_per_s == 200e9);
  REQUIRE(b->sweep.size() == 3);
  CHECK(b->sweep[2].size_bytes == 1 * kMiB);
  CHECK(b->memory_read_bytes_per_s == 14e9);
  REQUIRE(b->fma.size() == 2);
  CHECK(b->fma[1].threads == 2);
  CHECK(b->notes == a.notes);
  CHECK(CpuProbeToJson(*b) == text);  // a fixed point
}

TEST_CASE("a real quick probe round-trips too", "[cpu-probe]") {
  CpuProbeOptions o;
  o.quick = true;
  o.run_fma = false;
  Result<CpuProbeResult> r = RunCpuProbe(o);
  REQUIRE(r.ok());
  Result<CpuProbeResult> back = CpuProbeFromJson(CpuProbeToJson(*r));
  REQUIRE(back.ok());
  CHECK(CpuProbeToJson(*back) == CpuProbeToJson(*r));
}

TEST_CASE("a wrong file is an error that names the field", "[cpu-probe]") {
  const auto error = [](const std::string& text) {
    Result<CpuProbeResult> r = CpuProbeFromJson(text);
    return r.ok() ? std::string("(accepted)") : r.error();
  };
  CHECK_THAT(error("{\"schema\": "), Contains("not valid JSON at line 1, column 11: unexpected end of the text"));
  CHECK_THAT(error("[1, 2]"), Contains("not a JSON object"));
  CHECK_THAT(error("{\"schema\": \"gpuplan.gpu-probe/1\"}"), Contains("schema 'gpuplan.gpu-probe/1' is not gpuplan.cpu-probe/1"));
  CHECK_THAT(error("{}"), Contains("schema '' is not"));

  const std::string head = "{\"schema\": \"gpuplan.cpu-probe/1\", ";
  CHECK(error(head + "\"date\": \"x\"}") == "(accepted)");  // lenient: everything else is optional
  CHECK(error(head + "\"stream\": [{\"kernel\": \"triad\", \"bytes_per_s\": -5}]}") ==
        "cpu probe file: stream[0].bytes_per_s is -5: it must be positive");
  CHECK(error(head + "\"stream\": [{\"kernel\": \"copy\", \"bytes_per_s\": 1}, {\"kernel\": \"add\"}]}") ==
        "cpu probe file: stream[1].bytes_per_s is missing");
  CHECK(error(head + "\"stream\": [{\"kernel\": \"copy\", \"bytes_per_s\": \"fast\"}]}") ==
        "cpu probe file: stream[0].bytes_per_s must be a number, not \"fast\"");
  CHECK(error(head + "\"stream\": [{\"bytes_per_s\": 1}]}") == "cpu probe file: stream[0].kernel is missing");
  CHECK(error(head + "\"stream\": {}}") == "cpu probe file: stream must be an array");
  CHECK(error(head + "\"cpu\": {\"clock_hz\": -1}}") == "cpu probe file: cpu.clock_hz is -1: it must be zero or positive");
  CHECK(error(head + "\"cpu\": {\"peak_flops_fp32\": {\"unit\": \"FLOP/s\"}}}") ==
        "cpu probe file: cpu.peak_flops_fp32.value is missing");
  CHECK(error(head + "\"cpu\": {\"logical_cpus\": 1.5}}") == "cpu probe file: cpu.logical_cpus must be a whole number");
  CHECK(error(head + "\"cpu\": 3}") == "cpu probe file: cpu must be an object");
  CHECK(error(head + "\"caches\": {\"measured\": [{\"level\": 1, \"size_bytes\": 0}]}}") ==
        "cpu probe file: caches.measured[0].size_bytes is 0: it must be positive");
  CHECK(error(head + "\"sweep\": {\"points\": [{\"size_bytes\": 4096, \"bytes_per_s\": -1e9}]}}") ==
        "cpu probe file: sweep.points[0].bytes_per_s is -1000000000.0: it must be positive");
  CHECK(error(head + "\"fma\": {\"points\": [7]}}") == "cpu probe file: fma.points[0] must be an object");
  CHECK(error(head + "\"memory_read_bytes_per_s\": {\"value\": -2}}") ==
        "cpu probe file: memory_read_bytes_per_s is -2: it must be zero or positive");
  // Limits before any cast or use (limits.h): the value, the field and the limit named.
  CHECK(error(head + "\"cpu\": {\"logical_cpus\": 23333333334}}") ==
        "cpu probe file: cpu.logical_cpus is 23333333334, above 1,048,576, the largest count in a probe file gpuplan "
        "accepts (the largest CPUs run 1,024 threads)");
  CHECK_THAT(error(head + "\"stream\": [{\"kernel\": \"triad\", \"bytes_per_s\": 1e300}]}"),
             Contains("stream[0].bytes_per_s is 1e+300, above 1,000,000,000,000,000,000, the largest measured value"));
  CHECK_THAT(error(head + "\"gemm\": {\"points\": [{\"n\": 4294967296, \"flops_per_s\": 1}]}}"),
             Contains("gemm.points[0].n is 4294967296, above 1,048,576"));
}

TEST_CASE("a GPU probe file's numbers are checked against their limits", "[cpu-probe]") {
  const auto error = [](const std::string& device, const std::string& metric) {
    Result<GpuProbeResult> r = ParseGpuProbe("{\"schema\": \"gpuplan.gpu-probe/1\", \"device\": {\"name\": \"X\"" +
                                             device + "}, \"metrics\": [{\"id\": \"hbm_read\"" + metric + "}]}");
    return r.ok() ? std::string("(accepted)") : r.error();
  };
  CHECK(error(", \"power_limit_w\": 700", ", \"value\": 4.1e12") == "(accepted)");
  CHECK_THAT(error(", \"power_limit_w\": 1e30", ""),
             Contains("probe file: device.power_limit_w is 1e+30, above 1,000,000,000,000,000,000"));
  CHECK(error(", \"mem_total_bytes\": -1", "") == "probe file: device.mem_total_bytes is -1, below 0");
  CHECK_THAT(error("", ", \"value\": 1e19"), Contains("probe file: metrics[0].value is 1e+19, above"));
}

TEST_CASE("the plateau detector finds cache levels on synthetic curves", "[cpu-probe]") {
  SECTION("three caches and memory, like a Zen 5 core") {
    const auto curve = Curve({{200e9, 48 * kKiB}, {90e9, 1 * kMiB}, {45e9, 32 * kMiB}, {14e9, 1e18}}, 512 * kMiB);
    const SweepLevels levels = DetectCacheLevels(curve);
    REQUIRE(levels.caches.size() == 3);
    CHECK(levels.caches[0].level == 1);
    CHECK(levels.caches[2].level == 3);
    // The end of each plateau is the last sweep point at or below the cache's size.
    CHECK(levels.caches[0].size_bytes <= 48 * kKiB);
    CHECK(levels.caches[0].size_bytes > 48 * kKiB / 1.2);
    CHECK(levels.caches[1].size_bytes <= 1 * kMiB);
    CHECK(levels.caches[1].size_bytes > 1 * kMiB / 1.2);
    CHECK(levels.caches[2].size_bytes <= 32 * kMiB);
    CHECK(levels.caches[2].size_bytes > 32 * kMiB / 1.2);
    CHECK_THAT(levels.caches[0].bytes_per_s, WithinRel(200e9, 1e-9));
    CHECK_THAT(levels.caches[1].bytes_per_s, WithinRel(90e9, 1e-9));
    CHECK_THAT(levels.memory_bytes_per_s, WithinRel(14e9, 1e-9));
  }
  SECTION("noise within the tolerance and a lone outlier do not make a level") {
    auto curve = Curve({{200e9, 48 * kKiB}, {90e9, 1 * kMiB}, {14e9, 1e18}}, 256 * kMiB);
    for (size_t i = 0; i < curve.size(); ++i) curve[i].bytes_per_s *= 1.0 + 0.05 * (static_cast<double>(i % 3) - 1.0);  // +-5%
    curve[3].bytes_per_s *= 0.5;                                                                       // one bad sample in L1
    const SweepLevels levels = DetectCacheLevels(curve);
    REQUIRE(levels.caches.size() == 2);
    CHECK(levels.caches[0].size_bytes <= 48 * kKiB);
    CHECK(levels.caches[0].size_bytes > 32 * kKiB);
    CHECK(levels.caches[1].size_bytes <= 1 * kMiB);
  }
  SECTION("a bump just below a cache's size and a short flat stretch past the LLC are not levels") {
    // Both seen on a Zen 5 VM: 512-724 KiB read faster than the rest of its 1 MiB L2, and
    // 20-60 MiB held a rate between L3 and DRAM for about an octave (partial L3 hits).
    auto curve = Curve({{350e9, 48 * kKiB}, {155e9, 1 * kMiB}, {90e9, 16 * kMiB}, {25e9, 1e18}}, 512 * kMiB);
    for (SweepPoint& p : curve) {
      if (p.size_bytes >= 500 * kKiB && p.size_bytes <= 730 * kKiB) p.bytes_per_s = 205e9;
      if (p.size_bytes >= 24 * kMiB && p.size_bytes <= 56 * kMiB) p.bytes_per_s = 55e9;
    }
    const SweepLevels levels = DetectCacheLevels(curve);
    REQUIRE(levels.caches.size() == 3);
    CHECK_THAT(levels.caches[1].bytes_per_s, WithinRel(155e9, 1e-9));
    CHECK(levels.caches[1].size_bytes > 700 * kKiB);
    CHECK(levels.caches[1].size_bytes <= 1 * kMiB);
    CHECK(levels.caches[2].size_bytes <= 16 * kMiB);
    CHECK_THAT(levels.memory_bytes_per_s, WithinRel(25e9, 1e-9));
  }
  SECTION("slow smallest sizes (timer overhead) are not a level") {
    auto curve = Curve({{200e9, 48 * kKiB}, {14e9, 1e18}}, 64 * kMiB);
    for (size_t i = 0; i < 3; ++i) curve[i].bytes_per_s = 120e9;
    const SweepLevels levels = DetectCacheLevels(curve);
    REQUIRE(levels.caches.size() == 1);
    CHECK_THAT(levels.caches[0].bytes_per_s, WithinRel(200e9, 1e-9));
  }
  SECTION("order and bad points do not matter; a flat or empty curve has no cache") {
    auto curve = Curve({{100e9, 1 * kMiB}, {10e9, 1e18}}, 64 * kMiB, 2, 1);
    std::reverse(curve.begin(), curve.end());
    curve.push_back({-1, 5});
    curve.push_back({4096, std::nan("")});
    const SweepLevels levels = DetectCacheLevels(curve);
    REQUIRE(levels.caches.size() == 1);
    CHECK(levels.caches[0].size_bytes == 1 * kMiB);
    CHECK(DetectCacheLevels(Curve({{50e9, 1e18}}, 64 * kMiB)).caches.empty());
    CHECK_THAT(DetectCacheLevels(Curve({{50e9, 1e18}}, 64 * kMiB)).memory_bytes_per_s, WithinRel(50e9, 1e-9));
    CHECK(DetectCacheLevels({}).caches.empty());
    CHECK(DetectCacheLevels({}).memory_bytes_per_s == 0);
  }
}

TEST_CASE("the CPU describes itself", "[cpu-probe]") {
  const CpuInfo info = DetectCpu();
  CHECK(info.logical_cpus >= 1);
  CHECK(info.physical_cores >= 1);
  CHECK(info.physical_cores <= info.logical_cpus);
  CHECK((info.simd_bits == 64 || info.simd_bits == 128 || info.simd_bits == 256 || info.simd_bits == 512));
  CHECK(!info.assumptions.empty());
  if (info.peak_flops_fp32 > 0) CHECK_THAT(info.peak_flops_fp32, WithinRel(2 * info.peak_flops_fp64, 1e-12));
  for (const CacheLevel& c : ReportedCacheLevels()) CHECK((c.level >= 1 && c.size_bytes > 0));
  CHECK(DefaultStreamArrayBytes() >= 8 * kMiB);
  CHECK(DefaultStreamArrayBytes() <= 512 * kMiB);
}

TEST_CASE("machine rows: the sweep's last plateau is called memory only when the sweep went past the last cache", "[cpu]") {
  CpuProbeResult p;
  p.sweep_threads = 1;
  p.reported_caches = {CacheLevel{3, 32.0 * 1024 * 1024, 0}};
  p.memory_read_bytes_per_s = 180e9;
  p.sweep = {{16.0 * 1024, 400e9}, {2.0 * 1024 * 1024, 180e9}};  // a quick sweep: 2 MiB
  auto label = [&] {
    for (const MachineRow& r : CpuProbeRows(p))
      if (r.value == p.memory_read_bytes_per_s && r.unit == "B/s") return r.quantity + " | " + r.how;
    return std::string();
  };
  INFO(label());
  CHECK(label().rfind("Largest sweep read | ", 0) == 0);
  CHECK(label().find("not main memory") != std::string::npos);
  p.sweep.push_back({256.0 * 1024 * 1024, 60e9});
  p.memory_read_bytes_per_s = 60e9;
  CHECK(label().rfind("Memory read | ", 0) == 0);
}
